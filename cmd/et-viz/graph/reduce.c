/* Keeping dot fast. dot routes an edge spanning k ranks through k-1
 * virtual nodes, and its layout phases grow with their number: a few
 * hundred nodes with long dependencies (the Chakra 0.0.4 traces depend on
 * ops dozens of steps back) can take minutes. viz_layout_cost() estimates
 * that number from a longest-path ranking. When it is over budget, or the
 * graph is dense, viz_reduce() drops the edges implied by longer paths (the
 * transitive reduction): the order the picture shows is unchanged, and
 * the implied edges are the long ones. The same pass, restricted to the
 * edges through hidden nodes (indirect.c), leaves out those that a drawn
 * path already implies. */
#include "et-viz/viz.h"
#include "et_buf.h"

#include <stdlib.h>
#include <string.h>

static bool constraining(const vedge *e)
{
	return e->kind == EK_DATA || e->kind == EK_CTRL || e->kind == EK_INDIRECT;
}

/* CSR of constraining out-edges: edge indices by tail. */
static void out_csr(const model *m, uint32_t **off, uint32_t **adj)
{
	*off = et_xcalloc((size_t)m->nv + 2, sizeof **off);
	*adj = et_xmalloc(((size_t)m->ne + 1) * sizeof **adj);
	for (uint32_t k = 0; k < m->ne; k++)
		if (constraining(&m->e[k]))
			(*off)[m->e[k].from + 2]++;
	for (uint32_t v = 0; v < m->nv; v++)
		(*off)[v + 2] += (*off)[v + 1];
	for (uint32_t k = 0; k < m->ne; k++)
		if (constraining(&m->e[k]))
			(*adj)[(*off)[m->e[k].from + 1]++] = k;
}

/* Longest-path levels (Kahn); vertices on a cycle keep the level reached,
 * and only the others get done[] set. */
static uint32_t *levels(const model *m, const uint32_t *off, const uint32_t *adj, uint8_t *done)
{
	uint32_t *lev = et_xcalloc((size_t)m->nv + 1, sizeof *lev);
	uint32_t *indeg = et_xcalloc((size_t)m->nv + 1, sizeof *indeg);
	uint32_t *queue = et_xmalloc(((size_t)m->nv + 1) * sizeof *queue), head = 0, tail = 0;
	for (uint32_t k = 0; k < m->ne; k++)
		indeg[m->e[k].to] += constraining(&m->e[k]);
	for (uint32_t v = 0; v < m->nv; v++)
		if (!indeg[v])
			queue[tail++] = v;
	while (head < tail) {
		uint32_t u = queue[head++];
		if (done)
			done[u] = 1;
		for (uint32_t j = off[u]; j < off[u + 1]; j++) {
			uint32_t w = m->e[adj[j]].to;
			if (lev[w] < lev[u] + 1)
				lev[w] = lev[u] + 1;
			if (--indeg[w] == 0)
				queue[tail++] = w;
		}
	}
	free(indeg);
	free(queue);
	return lev;
}

uint64_t viz_layout_cost(const model *m)
{
	uint32_t *off, *adj;
	out_csr(m, &off, &adj);
	uint32_t *lev = levels(m, off, adj, NULL);
	uint64_t cost = 0;
	for (uint32_t k = 0; k < m->ne; k++) {
		uint32_t a = lev[m->e[k].from], b = lev[m->e[k].to];
		uint32_t span = a < b ? b - a : a - b;
		cost += constraining(&m->e[k]) && span > 1 ? span - 1 : 0;
	}
	free(off);
	free(adj);
	free(lev);
	return cost;
}

typedef struct reducing {
	const model *m;
	const uint32_t *off, *adj, *lev;
	const uint8_t *done;
	uint32_t *mark, *stack;
	uint8_t *drop;
	bool indirect; /* only EK_INDIRECT edges may be dropped */
} reducing;

static bool candidate(const reducing *r, const vedge *e)
{
	return !r->indirect || e->kind == EK_INDIRECT;
}

/* Marks (stamp) everything reachable from w without passing through u,
 * not walking on from a vertex of level >= stop: outside cycles levels
 * grow along every edge, so such a vertex reaches no candidate head. */
static void reach(const reducing *r, uint32_t w, uint32_t u, uint32_t stamp, uint32_t stop)
{
	uint32_t sp = 0;
	r->stack[sp++] = w;
	while (sp) {
		uint32_t x = r->stack[--sp];
		if (r->done[x] && r->lev[x] >= stop)
			continue;
		for (uint32_t j = r->off[x]; j < r->off[x + 1]; j++) {
			uint32_t y = r->m->e[r->adj[j]].to;
			if (y == u || r->mark[y] == stamp)
				continue;
			r->mark[y] = stamp;
			r->stack[sp++] = y;
		}
	}
}

/* The level a walk from u's successors need not pass: that of its highest
 * candidate head (any, if a head is on a cycle); 0 when u has none. */
static uint32_t stop_level(const reducing *r, uint32_t u)
{
	uint32_t stop = 0;
	for (uint32_t j = r->off[u]; j < r->off[u + 1]; j++) {
		const vedge *e = &r->m->e[r->adj[j]];
		if (!candidate(r, e))
			continue;
		if (!r->done[e->to])
			return UINT32_MAX;
		if (r->lev[e->to] > stop)
			stop = r->lev[e->to];
	}
	return stop;
}

static void reduce_from(reducing *r, uint32_t u)
{
	uint32_t stop = stop_level(r, u);
	if (!stop)
		return;
	for (uint32_t j = r->off[u]; j < r->off[u + 1]; j++)
		reach(r, r->m->e[r->adj[j]].to, u, u + 1, stop);
	for (uint32_t j = r->off[u]; j < r->off[u + 1]; j++) {
		const vedge *e = &r->m->e[r->adj[j]];
		r->drop[r->adj[j]] = candidate(r, e) && r->mark[e->to] == u + 1;
	}
}

uint32_t viz_reduce(model *m, bool indirect)
{
	uint32_t *off, *adj;
	out_csr(m, &off, &adj);
	uint8_t *done = et_xcalloc((size_t)m->nv + 1, 1);
	uint32_t *lev = levels(m, off, adj, done);
	reducing r = {m,
	              off,
	              adj,
	              lev,
	              done,
	              et_xcalloc((size_t)m->nv + 1, sizeof *r.mark),
	              et_xmalloc(((size_t)m->ne + m->nv + 1) * sizeof *r.stack),
	              et_xcalloc((size_t)m->ne + 1, 1),
	              indirect};
	for (uint32_t u = 0; u < m->nv; u++)
		reduce_from(&r, u);
	uint32_t kept = 0;
	for (uint32_t k = 0; k < m->ne; k++)
		if (!r.drop[k])
			m->e[kept++] = m->e[k];
	uint32_t dropped = m->ne - kept;
	m->ne = kept;
	free(off);
	free(adj);
	free(lev);
	free(done);
	free(r.mark);
	free(r.stack);
	free(r.drop);
	return dropped;
}
