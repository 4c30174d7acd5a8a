/* coll_plan: a collective -> chunks -> phases (doc/astra-sim.md C.10-C.12, D.18). */
#include "et-sim/system/algo/algo.h"
#include "et-sim/workload/workload.h" /* the issuing rank's graph and queues */
#include "et_mem.h"
#include "et_sat.h"
#include <stdlib.h>
#include <string.h>

int coll_impl_list(int ct)
{
	return ct == CT_AR ? CI_AR : ct == CT_AG ? CI_AG : ct == CT_RS ? CI_RS : CI_A2A;
}

typedef struct ldims {
	int n;
	uint32_t size[CFG_MAXDIM];
	uint8_t impl[CFG_MAXDIM];
	int window[CFG_MAXDIM];
} ldims;

static void logical_dims(const sim *s, const coll *c, int ct, ldims *ld)
{
	const impl_list *l = &s->cf->impl[coll_impl_list(ct)];
	if (c->group >= 0 || l->one) {
		ld->n = 1;
		ld->size[0] = c->group >= 0 ? s->cf->groups[c->group].n : s->cf->total;
		bool one = c->group < 0 || l->n == 1;
		ld->impl[0] = one ? l->v[0] : ALGO_DEFAULT;
		ld->window[0] = one ? l->window[0] : -1;
		return;
	}
	ld->n = l->n;
	for (int d = 0; d < l->n; d++) {
		ld->size[d] = s->cf->npus[d];
		ld->impl[d] = l->v[d];
		ld->window[d] = l->window[d];
	}
}

static bool active(const ldims *ld, uint8_t involved, int d)
{
	return ld->size[d] > 1 && (involved >> d & 1);
}

static void add(coll *c, int type, const ldims *ld, int d, uint64_t *size, bool anti)
{
	phase_plan *p = &c->ph[c->nphase++];
	p->type = (uint8_t)type;
	p->impl = ld->impl[d];
	p->window = ld->window[d];
	p->dim = (uint8_t)d;
	p->anticlockwise = anti;
	p->size = *size;
	uint64_t n = ld->size[d];
	if (algo_row_of(p->impl)->caps & ALGO_CAP_TREE)
		return;
	/* saturated (et_sat.h) when it does not fit: its transfers then do not
	 * either, and the run refuses them (sim_after) */
	if (type == CT_RS)
		*size = et_sat_div(*size, n);
	else if (type == CT_AG)
		*size = et_sat_mul(*size, n);
}

/* Returns the data a chunk ends with (saturated if it does not fit). */
static uint64_t plan_phases(coll *c, int ct, const ldims *ld, uint8_t inv, bool lba)
{
	uint64_t sz = c->chunk;
	if (ct != CT_AR || !lba) {
		for (int k = 0; k < ld->n; k++) {
			int d = ct == CT_AG ? ld->n - 1 - k : k;
			if (active(ld, inv, d))
				add(c, ct, ld, d, &sz, false);
		}
		return sz;
	}
	int last = 0;
	for (int d = 0; d < ld->n; d++)
		if (active(ld, inv, d))
			last = d;
	for (int d = 0; d < last; d++)
		if (active(ld, inv, d))
			add(c, CT_RS, ld, d, &sz, false);
	if (active(ld, inv, last))
		add(c, CT_AR, ld, last, &sz, false);
	for (int d = last - 1; d >= 0; d--)
		if (active(ld, inv, d))
			add(c, CT_AG, ld, d, &sz, true);
	return sz;
}

/* An all-gather multiplies a chunk by the ranks of each dimension; data
 * that no longer fits in 64 bits would give wrapped message sizes. Sizes
 * only grow by saturating products, so the end and each phase's input
 * tell. */
static int check_sizes(sim *s, const coll *c, const rank_st *r, uint32_t node, uint64_t end)
{
	bool big = et_sat_is(end);
	for (uint32_t k = 0; k < c->nphase; k++)
		big = big || et_sat_is(c->ph[k].size);
	if (!big)
		return 0;
	sim_fail(s, ET_EXIT_DATA, "rank %u: node %llu: collective data exceeds 2^64-2 bytes",
	         r->rank, (unsigned long long)r->g->id[node]);
	return -1;
}

static const char *const ct_names[] = {[CT_AR] = "ALL_REDUCE",
                                       [CT_A2A] = "ALL_TO_ALL",
                                       [CT_AG] = "ALL_GATHER",
                                       [CT_RS] = "REDUCE_SCATTER"};

/* Whether each phase's algorithm can run it, as its row says. */
static int check_impls(sim *s, const coll *c, const ldims *ld)
{
	for (uint32_t k = 0; k < c->nphase; k++) {
		const phase_plan *p = &c->ph[k];
		const algo_row *row = algo_row_of(p->impl);
		uint32_t n = ld->size[p->dim];
		if (!row->types) {
			sim_fail(s, ET_EXIT_USAGE, "%s is not supported by et-sim (see et-sim(1))",
			         row->name);
			return -1;
		}
		if ((row->caps & ALGO_CAP_POW2) && (n & (n - 1))) {
			sim_fail(s, ET_EXIT_USAGE, "%s needs a power-of-two ring, not %u ranks",
			         row->name, n);
			return -1;
		}
		if (!(row->types & ALGO_TYPE(p->type))) {
			sim_fail(s, ET_EXIT_USAGE, "%s does not implement %s", row->name,
			         ct_names[p->type]);
			return -1;
		}
	}
	return 0;
}

/* Chunking (C.10): chunk = size / splits; a non-ALL_GATHER collective smaller
 * than splits x ranks is inflated to splits chunks of N_total bytes. */
int coll_plan(sim *s, coll *c, const rank_st *r, uint32_t node, int ct)
{
	const sgraph *g = r->g;
	uint64_t size = c->size;
	uint64_t chunk = size / (uint64_t)s->cf->splits;
	if (ct != CT_AG && s->cf->total > chunk) {
		chunk = s->cf->total;
		size = (uint64_t)s->cf->splits * chunk;
	}
	if (chunk == 0)
		chunk = 1; /* ASTRA-sim loops forever here */
	c->chunk = chunk;
	c->nchunks = size ? (size + chunk - 1) / chunk : 0;
	ldims ld;
	logical_dims(s, c, ct, &ld);
	c->ph = et_xcalloc((size_t)2 * CFG_MAXDIM, sizeof *c->ph);
	c->nphase = 0;
	uint8_t inv = c->group >= 0 ? 0xff : g->involved[node];
	uint64_t end = plan_phases(c, ct, &ld, inv, s->cf->lba);
	for (uint32_t k = 0; k < c->nphase; k++)
		if (algo_row_of(c->ph[k].impl)->caps & ALGO_CAP_TREE) {
			topo_count(s, c, r->rank, coll_impl_list(ct));
			break;
		}
	if (c->nphase == 0)
		c->nchunks = 0;
	if (check_sizes(s, c, r, node, end) < 0)
		return -1;
	return check_impls(s, c, &ld);
}

const ring *coll_ring(sim *s, const coll *c, uint32_t phase, uint32_t rank)
{
	if (c->group >= 0)
		return ring_group(s, c->group);
	if (s->cf->impl[coll_impl_list(c->ctype)].one)
		return ring_group(s, -1);
	return ring_world(s, c->ph[phase].dim, rank);
}
