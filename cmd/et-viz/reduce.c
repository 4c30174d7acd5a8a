/* Keeping dot fast. dot routes an edge spanning k ranks through k-1
 * virtual nodes, and its layout phases grow with their number: a few
 * hundred nodes with long dependencies (the Chakra 0.0.4 traces depend on
 * ops dozens of steps back) can take minutes. viz_layout_cost() estimates
 * that number from a longest-path ranking. When it is over budget, or the
 * graph is dense, viz_reduce() drops the edges implied by longer paths (the
 * transitive reduction): the order the picture shows is unchanged, and
 * the implied edges are the long ones. */
#include "et_buf.h"
#include "viz.h"

#include <stdlib.h>
#include <string.h>

static bool constraining(const vedge *e)
{
	return e->kind == EK_DATA || e->kind == EK_CTRL;
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

/* Longest-path levels (Kahn); vertices on a cycle keep the level reached. */
static uint32_t *levels(const model *m, const uint32_t *off, const uint32_t *adj)
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
	uint32_t *lev = levels(m, off, adj);
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

/* Marks (stamp) everything reachable from w without passing through u. */
static void reach(const model *m, const uint32_t *off, const uint32_t *adj, uint32_t w, uint32_t u,
                  uint32_t *mark, uint32_t stamp, uint32_t *stack)
{
	uint32_t sp = 0;
	stack[sp++] = w;
	while (sp) {
		uint32_t x = stack[--sp];
		for (uint32_t j = off[x]; j < off[x + 1]; j++) {
			uint32_t y = m->e[adj[j]].to;
			if (y == u || mark[y] == stamp)
				continue;
			mark[y] = stamp;
			stack[sp++] = y;
		}
	}
}

uint32_t viz_reduce(model *m)
{
	uint32_t *off, *adj;
	out_csr(m, &off, &adj);
	uint32_t *mark = et_xcalloc((size_t)m->nv + 1, sizeof *mark);
	uint32_t *stack = et_xmalloc(((size_t)m->ne + m->nv + 1) * sizeof *stack);
	uint8_t *drop = et_xcalloc((size_t)m->ne + 1, 1);
	for (uint32_t u = 0; u < m->nv; u++) {
		for (uint32_t j = off[u]; j < off[u + 1]; j++)
			reach(m, off, adj, m->e[adj[j]].to, u, mark, u + 1, stack);
		for (uint32_t j = off[u]; j < off[u + 1]; j++)
			drop[adj[j]] = mark[m->e[adj[j]].to] == u + 1;
	}
	uint32_t kept = 0;
	for (uint32_t k = 0; k < m->ne; k++)
		if (!drop[k])
			m->e[kept++] = m->e[k];
	uint32_t dropped = m->ne - kept;
	m->ne = kept;
	free(off);
	free(adj);
	free(mark);
	free(stack);
	free(drop);
	return dropped;
}
