/* et-stage's layout and builder: comm-group ids against a brute-force
 * numbering written from STAGE's definition (groups over dp, then tp, cp,
 * ep; within a dimension ordered by the other coordinates, pp outermost),
 * and the builder's zero-op removal. */
#include "check.h"
#include "et-stage/sg.h"
#include "et-stage/stage.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

/* Coordinates of rank r by STAGE's formulas: dense ((p·CP + c)·TP + t)·DP + d,
 * MoE (((p·EP + e)·CP + c)·TP + t)·DP + d. */
static void coords(const uint32_t *n, bool moe, uint32_t r, uint32_t *x)
{
	x[DIM_DP] = r % n[DIM_DP];
	r /= n[DIM_DP];
	x[DIM_TP] = r % n[DIM_TP];
	r /= n[DIM_TP];
	x[DIM_CP] = r % n[DIM_CP];
	r /= n[DIM_CP];
	x[DIM_EP] = moe ? r % n[DIM_EP] : 0;
	if (moe)
		r /= n[DIM_EP];
	x[DIM_PP] = r;
}

typedef struct key {
	uint32_t k[5];
} key;

static int key_cmp(const void *a, const void *b)
{
	return memcmp(((const key *)a)->k, ((const key *)b)->k, sizeof(key)) < 0   ? -1
	       : memcmp(((const key *)a)->k, ((const key *)b)->k, sizeof(key)) > 0 ? 1
	                                                                           : 0;
}

/* The key of rank r's group over dim: pp, then the other spatial coords.
 * Big-endian bytes so that memcmp orders them numerically. */
static key group_key(const uint32_t *x, int nsp, int dim)
{
	key g;
	memset(&g, 0, sizeof g);
	int i = 0;
	uint32_t v[5] = {x[DIM_PP]};
	for (int d = 0; d < nsp; d++)
		if (d != dim)
			v[++i] = x[d];
	for (int j = 0; j < 5; j++) {
		unsigned char *b = (unsigned char *)&g.k[j];
		b[0] = (unsigned char)(v[j] >> 24), b[1] = (unsigned char)(v[j] >> 16);
		b[2] = (unsigned char)(v[j] >> 8), b[3] = (unsigned char)v[j];
	}
	return g;
}

static void check_layout(int arch, uint32_t dp, uint32_t tp, uint32_t cp, uint32_t ep, uint32_t pp)
{
	stage_conf c;
	memset(&c, 0, sizeof c);
	c.arch = arch;
	c.dim[DIM_DP] = dp, c.dim[DIM_TP] = tp, c.dim[DIM_CP] = cp, c.dim[DIM_EP] = ep;
	c.dim[DIM_PP] = pp;
	stage_layout l;
	char msg[64];
	CHECK(stage_layout_init(&l, &c, msg, sizeof msg) == 0);
	bool moe = arch == ARCH_MOE;
	uint32_t n[NDIMS] = {dp, moe ? tp : tp * ep, cp, moe ? ep : 1, pp};
	uint32_t world = dp * tp * cp * ep * pp;
	CHECK(l.world == world);
	int nsp = moe ? 4 : 3;
	uint64_t base = 1;
	key *keys = calloc(world, sizeof *keys), *sorted = calloc(world, sizeof *keys);
	for (int d = 0; d < nsp; d++) {
		uint32_t x[NDIMS];
		for (uint32_t r = 0; r < world; r++) {
			coords(n, moe, r, x);
			keys[r] = group_key(x, nsp, d);
			for (int k = 0; k < NDIMS; k++)
				CHECK(stage_coord(&l, r, k) == x[k]);
		}
		memcpy(sorted, keys, world * sizeof *keys);
		qsort(sorted, world, sizeof *sorted, key_cmp);
		size_t u = 0;
		for (size_t i = 0; i < world; i++)
			if (i == 0 || key_cmp(&sorted[i], &sorted[u - 1]) != 0)
				sorted[u++] = sorted[i];
		CHECK(u == world / n[d]); /* size-1 groups counted too */
		for (uint32_t r = 0; r < world; r++) {
			key *f = bsearch(&keys[r], sorted, u, sizeof *sorted, key_cmp);
			CHECK(f && stage_group_id(&l, r, d) == base + (uint64_t)(f - sorted));
		}
		base += u;
	}
	CHECK(l.n_groups == base - 1);
	free(keys);
	free(sorted);
}

/* The spec's example dp = tp = pp = 2: {"1":[0,1],...,"5":[0,2],...}. */
static void test_spec_example(void)
{
	stage_conf c;
	memset(&c, 0, sizeof c);
	c.arch = ARCH_GPT;
	c.dim[DIM_DP] = c.dim[DIM_TP] = c.dim[DIM_PP] = 2;
	c.dim[DIM_CP] = c.dim[DIM_EP] = 1;
	stage_layout l;
	char msg[64];
	CHECK(stage_layout_init(&l, &c, msg, sizeof msg) == 0);
	CHECK(l.n_groups == 16);
	CHECK(stage_group_id(&l, 0, DIM_DP) == 1 && stage_group_id(&l, 1, DIM_DP) == 1);
	CHECK(stage_group_id(&l, 2, DIM_DP) == 2 && stage_group_id(&l, 7, DIM_DP) == 4);
	CHECK(stage_group_id(&l, 0, DIM_TP) == 5 && stage_group_id(&l, 2, DIM_TP) == 5);
	CHECK(stage_group_id(&l, 1, DIM_TP) == 6 && stage_group_id(&l, 5, DIM_TP) == 8);
	CHECK(stage_group_id(&l, 0, DIM_CP) == 9 && stage_group_id(&l, 7, DIM_CP) == 16);
}

static void test_too_many_ranks(void)
{
	stage_conf c;
	memset(&c, 0, sizeof c);
	c.arch = ARCH_GPT;
	for (int d = 0; d < NDIMS; d++)
		c.dim[d] = 1 << 10;
	stage_layout l;
	char msg[64];
	CHECK(stage_layout_init(&l, &c, msg, sizeof msg) < 0 && msg[0]);
}

/* Zero-op candidates vanish and their consumers depend on the nearest
 * real ancestors; collectives over size-1 dimensions are not made. */
static void test_zero_ops(void)
{
	stage_conf c;
	memset(&c, 0, sizeof c);
	c.arch = ARCH_GPT;
	for (int d = 0; d < NDIMS; d++)
		c.dim[d] = 1;
	c.dim[DIM_DP] = 2;
	stage_layout l;
	char msg[64];
	CHECK(stage_layout_init(&l, &c, msg, sizeof msg) == 0);
	sg g;
	sg_init(&g, &c, &l, 0, 0);
	sgv a = sg_comp(&g, "a", OP_M, 10, 1, NULL, 0);
	sgv b = sg_comp(&g, "b", OP_A, 5, 1, NULL, 0);
	sgv z1 = sg_comp(&g, "z1", OP_CUSTOM, 0, 1, SGD(a, b));
	sgv z2 = sg_comp(&g, "z2", OP_CUSTOM, 0, 1, SGD(z1, a));
	sgv t = sg_coll(&g, "t", 1, ET_COLL_ALL_GATHER, DIM_TP, 8, z2); /* tp = 1: none */
	CHECK(t == z2);
	sgv ar = sg_coll(&g, "g", 1, ET_COLL_ALL_REDUCE, DIM_DP, 8, z2);
	sgv d = sg_comp(&g, "d", OP_E, 3, 1, SGD(ar));
	CHECK(g.nn == 4); /* a, b, the all-reduce, d */
	const sg_node *n = &g.n[2];
	CHECK(n->type == ET_NODE_COLL && n->n_deps == 2);
	CHECK(g.pool[n->dep_off] == 0 && g.pool[n->dep_off + 1] == 1);
	CHECK(strcmp(n->name, "g_X1COMM") == 0 && strcmp(g.n[3].name, "d_COMP") == 0);
	CHECK(g.v[d].node == 3 && g.n[3].n_deps == 1 && g.pool[g.n[3].dep_off] == 2);
	sg_free(&g);
}

int main(void)
{
	test_spec_example();
	test_too_many_ranks();
	test_zero_ops();
	static const uint32_t cfg[][5] = {{2, 2, 1, 1, 2}, {3, 2, 2, 1, 2}, {1, 4, 1, 2, 3},
	                                  {2, 1, 3, 2, 2}, {4, 2, 2, 1, 1}, {1, 1, 1, 1, 5}};
	for (size_t i = 0; i < sizeof cfg / sizeof *cfg; i++) {
		const uint32_t *x = cfg[i];
		check_layout(ARCH_GPT, x[0], x[1], x[2], x[3], x[4]);
		check_layout(ARCH_MOE, x[0], x[1], x[2], x[3], x[4]);
	}
	return check_failures();
}
