/* Unit tests of et_build (the node builders: fields, attribute order and
 * members, dependency lists, and the packed bytes of one node against
 * hand-computed ones) and of et_rng (the splitmix64 sequence for fixed
 * seeds and streams, against numbers computed apart from this code, by a
 * few lines of Python following the published splitmix64 algorithm). */
#include "check.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_codec.h"
#include "et_rng.h"
#include "et_types.h"

#include <math.h>
#include <string.h>

#define VC(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

/* Attribute k of n has this name and oneof member. */
static bool attr_is(const et_node *n, size_t k, const char *name, int member)
{
	return k < n->n_attr && strcmp(n->attr[k]->name, name) == 0 &&
	       (int)n->attr[k]->value_case == member;
}

static void test_comp_bytes(void)
{
	et_arena *a = et_arena_new();
	et_node *n = et_build_comp(a, 5, "mm", 100, true);
	et_build_data_dep(a, n, 3);
	et_build_data_dep(a, n, 3); /* a repeat is dropped */
	et_build_data_dep(a, n, 1);
	et_build_ctrl_dep(a, n, 2);
	CHECK(n->id == 5 && strcmp(n->name, "mm") == 0 && n->type == ET_NODE_COMP);
	CHECK(n->duration_micros == 100);
	CHECK(n->n_data_deps == 2 && n->data_deps[0] == 3 && n->data_deps[1] == 1);
	CHECK(n->n_ctrl_deps == 1 && n->ctrl_deps[0] == 2);
	CHECK(n->n_attr == 1 && attr_is(n, 0, "is_cpu_op", VC(BOOL_VAL)) && n->attr[0]->bool_val);
	et_buf out = {0};
	et_node_pack(n, &out);
	static const uint8_t want[] = {
	    0x08, 0x05,             /* id 5 */
	    0x12, 0x02, 'm',  'm',  /* name */
	    0x18, 0x04,             /* type COMP_NODE */
	    0x22, 0x01, 0x02,       /* ctrl_deps [2], packed */
	    0x2a, 0x02, 0x03, 0x01, /* data_deps [3, 1], packed */
	    0x38, 0x64,             /* duration_micros 100 */
	    0x52, 0x0e, 0x0a, 0x09, 'i', 's',  '_',  'c',
	    'p',  'u',  '_',  'o',  'p', 0xd8, 0x01, 0x01, /* attr is_cpu_op bool_val true */
	};
	CHECK(out.len == sizeof want && memcmp(out.data, want, sizeof want) == 0);
	et_buf_free(&out);
	et_arena_free(a);
}

static void test_comm(void)
{
	et_arena *a = et_arena_new();
	et_node *c = et_build_coll(a, 9, "ar", ET_COLL_ALL_TO_ALL, 1 << 20);
	CHECK(c->type == ET_NODE_COLL && c->id == 9 && c->duration_micros == 0);
	CHECK(c->n_attr == 3);
	CHECK(attr_is(c, 0, "is_cpu_op", VC(BOOL_VAL)) && !c->attr[0]->bool_val);
	CHECK(attr_is(c, 1, "comm_type", VC(INT64_VAL)) &&
	      c->attr[1]->int64_val == ET_COLL_ALL_TO_ALL);
	CHECK(attr_is(c, 2, "comm_size", VC(INT64_VAL)) && c->attr[2]->int64_val == 1 << 20);

	et_node *s = et_build_p2p(a, 1, "send", true, 0, 3, 7, 4096);
	et_node *r = et_build_p2p(a, 2, "recv", false, 0, 3, 7, 4096);
	CHECK(s->type == ET_NODE_SEND && r->type == ET_NODE_RECV);
	CHECK(r->n_attr == 5);
	CHECK(attr_is(r, 0, "is_cpu_op", VC(BOOL_VAL)) && !r->attr[0]->bool_val);
	CHECK(attr_is(r, 1, "comm_src", VC(INT32_VAL)) && r->attr[1]->int32_val == 0);
	CHECK(attr_is(r, 2, "comm_dst", VC(INT32_VAL)) && r->attr[2]->int32_val == 3);
	CHECK(attr_is(r, 3, "comm_tag", VC(INT32_VAL)) && r->attr[3]->int32_val == 7);
	CHECK(attr_is(r, 4, "comm_size", VC(INT64_VAL)) && r->attr[4]->int64_val == 4096);

	et_node *m = et_build_node(a, 0, "METADATA_NODE", ET_NODE_METADATA);
	CHECK(m->type == ET_NODE_METADATA && m->n_attr == 0 && m->n_data_deps == 0);

	/* what is built decodes back to the same fields */
	et_buf out = {0};
	et_node_pack(r, &out);
	et_node *d = et_node_decode(a, out.data, out.len);
	CHECK(d && d->id == 2 && d->type == ET_NODE_RECV && strcmp(d->name, "recv") == 0);
	int64_t v;
	CHECK(d && et_attr_int(d, "comm_dst", &v) && v == 3);
	et_buf_free(&out);
	et_arena_free(a);
}

static void test_rng_sequence(void)
{
	/* splitmix64 from state 0: the algorithm's well-known first output */
	et_rng r = {0};
	CHECK(et_rng_next(&r) == 0xe220a8397b1dcdafull);

	static const struct {
		uint64_t seed, stream, want[4];
	} cases[] = {
	    {1,
	     0,
	     {0x1ea59f2878e51fb5ull, 0xb2f683d11fa164f5ull, 0x785a71c76b3f6e7dull,
	      0xedb05f885fc7f353ull}},
	    {7,
	     3,
	     {0xa093d77351a6c3a9ull, 0x66ff3124ce34ec10ull, 0x6347a3b4118c1001ull,
	      0xeda4d987a7f0f552ull}},
	    {0,
	     0,
	     {0x2d0f28c7e7e786b2ull, 0x75856f745165f252ull, 0x8674bbc2735955afull,
	      0x5c1d49a70d26949aull}},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		et_rng_seed(&r, cases[c].seed, cases[c].stream);
		for (int k = 0; k < 4; k++)
			CHECK(et_rng_next(&r) == cases[c].want[k]);
	}
}

static void test_rng_derived(void)
{
	et_rng r;
	et_rng_seed(&r, 1, 0);
	/* top 53 bits of 0x1ea59f2878e51fb5, over 2^53 */
	CHECK(et_rng_unit(&r) == 0.1197146867570108);
	/* (0xb2f683d11fa164f5 * 10) >> 64, (0x785a71c76b3f6e7d * 1000) >> 64 */
	CHECK(et_rng_below(&r, 10) == 6);
	CHECK(et_rng_below(&r, 1000) == 470);
	/* 2 * exp(u * log(1000)) for u = (0xedb05f885fc7f353 >> 11) / 2^53; libm
	 * may differ from Python's in the last bits */
	double got = et_rng_log_uniform(&r, 2, 2000);
	CHECK(fabs(got - 1220.2462140090038) <= 1e-9);
	/* streams of one seed differ; the same (seed, stream) repeats */
	et_rng x, y;
	et_rng_seed(&x, 42, 1);
	et_rng_seed(&y, 42, 2);
	CHECK(et_rng_next(&x) != et_rng_next(&y));
	et_rng_seed(&y, 42, 1);
	et_rng_seed(&x, 42, 1);
	for (int k = 0; k < 100; k++)
		CHECK(et_rng_below(&x, 7) == et_rng_below(&y, 7));
}

int main(void)
{
	test_comp_bytes();
	test_comm();
	test_rng_sequence();
	test_rng_derived();
	return check_failures();
}
