/* ring: the logical rings collectives run on (doc/astra-sim.md C.11, D.18):
 * per dimension the ranks that differ only in that coordinate, a comm
 * group's sorted members, or every rank. A ring is symmetric when every
 * neighbour pair has the same unaware delay signature (first differing
 * dimension and hop count): the closed forms need that. */
#include "et-sim/net/net_dims.h"
#include "et-sim/system/system.h"
#include "et_mem.h"
#include "et_pg.h"
#include "et_sat.h"
#include <stdlib.h>
#include <string.h>

/* Hop signature of a pair: dimension and hop count (what T depends on). */
static uint64_t pair_sig(const cfg *cf, uint32_t a, uint32_t b)
{
	return (uint64_t)(net_first_dim(cf, a, b) + 1) << 32 | (uint32_t)net_hops(cf, a, b);
}

static ring *ring_new(sim *s, uint32_t n, bool local)
{
	ring *rg = et_xcalloc(1, sizeof *rg);
	rg->rank = et_xcalloc(n, sizeof *rg->rank);
	rg->n = n;
	rg->local = local;
	(void)s;
	return rg;
}

typedef struct ringset {
	ring **v;
	uint32_t n;
	size_t cap;
	const ring **groups; /* per comm group */
	const ring *one;     /* all ranks */
	uint8_t *made;       /* [rank * CI_N + list]: bit d = parity of phases made on d */
} ringset;

static void keep(sim *s, ring *rg)
{
	ringset *rs = s->rs;
	ET_GROW(rs->v, rs->cap, (size_t)rs->n + 1);
	rs->v[rs->n++] = rg;
	rg->symmetric = true;
	uint64_t sig = rg->n > 1 ? pair_sig(s->cf, rg->rank[0], rg->rank[1]) : 0;
	for (uint32_t i = 0; i < rg->n && rg->n > 1; i++)
		if (pair_sig(s->cf, rg->rank[i], rg->rank[(i + 1) % rg->n]) != sig)
			rg->symmetric = false;
}

static void ensure_set(sim *s)
{
	if (s->rs)
		return;
	s->rs = et_xcalloc(1, sizeof *s->rs);
	s->world_rings = et_xcalloc((size_t)s->cf->ndims * s->world, sizeof *s->world_rings);
}

const ring *ring_world(sim *s, uint32_t dim, uint32_t rank)
{
	ensure_set(s);
	const ring **slot = &s->world_rings[(size_t)dim * s->world + rank];
	if (*slot)
		return *slot;
	const cfg *cf = s->cf;
	ring *rg = ring_new(s, cf->npus[dim], false);
	uint32_t base = rank - net_coord(cf, rank, (int)dim) * cf->stride[dim];
	for (uint32_t i = 0; i < rg->n; i++) {
		rg->rank[i] = base + i * cf->stride[dim];
		s->world_rings[(size_t)dim * s->world + rg->rank[i]] = rg;
	}
	keep(s, rg);
	return rg;
}

/* group -1 = every rank in one ring (the one* implementations). */
const ring *ring_group(sim *s, int group)
{
	ensure_set(s);
	ringset *rs = s->rs;
	if (group < 0) {
		if (!rs->one) {
			ring *rg = ring_new(s, s->world, false);
			for (uint32_t i = 0; i < s->world; i++)
				rg->rank[i] = i;
			keep(s, rg);
			rs->one = rg;
		}
		return rs->one;
	}
	if (!rs->groups)
		rs->groups = et_xcalloc((size_t)s->cf->ngroups + 1, sizeof *rs->groups);
	if (!rs->groups[group]) {
		const comm_group *g = &s->cf->groups[group];
		ring *rg = ring_new(s, g->n, true);
		memcpy(rg->rank, g->mem, g->n * sizeof *g->mem);
		keep(s, rg);
		rs->groups[group] = rg;
	}
	return rs->groups[group];
}

/* ASTRA-sim's logical topologies count, per rank, implementation list and
 * dimension, the phases made on them; a tree alternates its two trees by
 * that count (doc/astra-sim.md D.21). c's phases learn the parity their
 * first chunk starts from (the first issuer's: members of one collective
 * agree), then every member counts c's phases: chunks x visits. A group's
 * collective keeps its own count, from 0. */
void topo_count(sim *s, coll *c, uint32_t first, int list)
{
	if (c->group >= 0)
		return;
	ensure_set(s);
	ringset *rs = s->rs;
	if (!rs->made)
		rs->made = et_xcalloc((size_t)s->world * CI_N, 1);
	uint8_t flip = 0;
	for (uint32_t k = 0; k < c->nphase; k++) {
		phase_plan *p = &c->ph[k];
		p->seq = rs->made[(size_t)first * CI_N + list] >> p->dim & 1;
		if (c->nchunks & 1)
			flip ^= (uint8_t)(1u << p->dim);
	}
	for (uint32_t m = 0; m < c->nmem; m++) {
		uint32_t rank = c->mem ? c->mem[m] : m;
		rs->made[(size_t)rank * CI_N + list] ^= flip;
	}
}

uint32_t ring_index(const ring *rg, uint32_t rank)
{
	size_t k = et_pg_ranks_find(rg->rank, rg->n, rank);
	return k < rg->n ? (uint32_t)k : UINT32_MAX;
}

void ring_free_all(sim *s)
{
	if (!s->rs)
		return;
	for (uint32_t i = 0; i < s->rs->n; i++) {
		free(s->rs->v[i]->rank);
		free(s->rs->v[i]);
	}
	free(s->rs->v);
	free(s->rs->groups);
	free(s->rs->made);
	free(s->rs);
	free(s->world_rings);
	s->rs = NULL;
	s->world_rings = NULL;
}
