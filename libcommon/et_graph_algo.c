/* et_graph: queries over a finished graph — one cycle, the critical path. */
#include "et_buf.h"
#include "et_graph.h"

#include <stdlib.h>

/* A node outside the Kahn order still had an unprocessed parent when Kahn
 * stopped, and that parent is outside the order too. So walking from any
 * such node to such a parent must revisit a node: the loop found is a
 * cycle. One walk, O(nodes + edges). */
static uint32_t unordered_parent(const et_graph *g, uint32_t v)
{
	for (uint32_t k = g->data_off[v]; k < g->data_off[v + 1]; k++)
		if (!(g->flags[g->data_dep[k]] & ET_GF_ORDERED))
			return g->data_dep[k];
	for (uint32_t k = g->ctrl_off[v]; k < g->ctrl_off[v + 1]; k++)
		if (!(g->flags[g->ctrl_dep[k]] & ET_GF_ORDERED))
			return g->ctrl_dep[k];
	return ET_GRAPH_NONE;
}

uint32_t et_graph_find_cycle(const et_graph *g, uint32_t **path)
{
	*path = NULL;
	if (!g->finished || g->n_ordered == g->n)
		return 0;
	uint32_t start = ET_GRAPH_NONE;
	for (uint32_t i = 0; i < g->n && start == ET_GRAPH_NONE; i++)
		if (!(g->flags[i] & ET_GF_ORDERED))
			start = i;
	/* step[v] = position of v on the walk, or NONE. */
	uint32_t *step = et_xmalloc((size_t)g->n * sizeof *step);
	for (uint32_t i = 0; i < g->n; i++)
		step[i] = ET_GRAPH_NONE;
	uint32_t *walk = et_xmalloc((size_t)g->n * sizeof *walk);
	uint32_t len = 0, v = start;
	while (v != ET_GRAPH_NONE && step[v] == ET_GRAPH_NONE) {
		step[v] = len;
		walk[len++] = v;
		v = unordered_parent(g, v);
	}
	uint32_t n = 0;
	if (v != ET_GRAPH_NONE) {
		/* walk[step[v]..len) goes child -> parent; reverse it so that each
		 * node depends on the one before. */
		n = len - step[v];
		uint32_t *c = et_xmalloc((size_t)n * sizeof *c);
		for (uint32_t k = 0; k < n; k++)
			c[k] = walk[len - 1 - k];
		*path = c;
	}
	free(step);
	free(walk);
	return n;
}

uint64_t et_graph_critical_path(const et_graph *g, uint32_t **chain, uint32_t *len)
{
	if (chain)
		*chain = NULL;
	if (len)
		*len = 0;
	if (!g->finished || g->n_ordered == 0)
		return 0;
	uint64_t *dist = et_xmalloc((size_t)g->n * sizeof *dist);
	uint32_t *pred = et_xmalloc((size_t)g->n * sizeof *pred);
	uint64_t best = 0;
	uint32_t best_v = g->order[0];
	for (uint32_t k = 0; k < g->n_ordered; k++) {
		uint32_t v = g->order[k];
		uint64_t d = 0;
		uint32_t p = ET_GRAPH_NONE;
		/* Parents come earlier in the order, so their dist is final. */
		for (uint32_t e = g->data_off[v]; e < g->data_off[v + 1]; e++)
			if (dist[g->data_dep[e]] > d || p == ET_GRAPH_NONE)
				d = dist[g->data_dep[e]], p = g->data_dep[e];
		for (uint32_t e = g->ctrl_off[v]; e < g->ctrl_off[v + 1]; e++)
			if (dist[g->ctrl_dep[e]] > d || p == ET_GRAPH_NONE)
				d = dist[g->ctrl_dep[e]], p = g->ctrl_dep[e];
		dist[v] = d + g->duration_micros[v];
		pred[v] = p;
		if (dist[v] > best || k == 0)
			best = dist[v], best_v = v;
	}
	if (chain && len) {
		uint32_t n = 0;
		for (uint32_t v = best_v; v != ET_GRAPH_NONE; v = pred[v])
			n++;
		uint32_t *c = et_xmalloc((size_t)n * sizeof *c);
		uint32_t k = n;
		for (uint32_t v = best_v; v != ET_GRAPH_NONE; v = pred[v])
			c[--k] = v;
		*chain = c;
		*len = n;
	}
	free(dist);
	free(pred);
	return best;
}
