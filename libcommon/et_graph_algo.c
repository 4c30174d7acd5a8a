/* et_graph: queries over a finished graph — one cycle, the critical path,
 * the statistics. */
#include "et_buf.h"
#include "et_graph.h"
#include "et_sat.h"

#include <stdlib.h>
#include <string.h>

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
		dist[v] = et_sat_add(d, g->duration_micros[v]);
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

/* Bytes node i moves: its comm_size, 0 when negative. */
static uint64_t comm_bytes(const et_graph *g, uint32_t i)
{
	int64_t size = et_graph_comm_at(g, i)->size;
	return size > 0 ? (uint64_t)size : 0;
}

/* Its comm_type's bucket: the value, or the last bucket when there is no
 * readable comm_type or it is outside the schema. */
static int coll_bucket(const et_graph *g, uint32_t i)
{
	int32_t t = et_graph_comm_at(g, i)->type;
	bool known = (g->flags[i] & ET_GF_COMM_TYPE) && t >= 0 && t < ET_COLL_TYPE_COUNT;
	return known ? t : ET_GRAPH_STATS_COLLS - 1;
}

/* Per-node counts: types, durations, communication bytes. */
static void count_nodes(const et_graph *g, et_graph_stats *s)
{
	for (uint32_t i = 0; i < g->n; i++) {
		uint8_t t = g->type[i];
		s->by_type[t < ET_NODE_TYPE_COUNT ? t : ET_GRAPH_STATS_TYPES - 1]++;
		s->total_duration = et_sat_add(s->total_duration, g->duration_micros[i]);
		/* A host op typed as communication is no traffic; without a
		 * comm_size there are no bytes to count. */
		if ((g->flags[i] & ET_GF_CPU) || !(g->flags[i] & ET_GF_COMM_SIZE))
			continue;
		if (t == ET_NODE_COLL) {
			int k = coll_bucket(g, i);
			s->coll_bytes[k] = et_sat_add(s->coll_bytes[k], comm_bytes(g, i));
			s->coll_count[k]++;
		} else if (t == ET_NODE_SEND) {
			s->send_bytes = et_sat_add(s->send_bytes, comm_bytes(g, i));
			s->send_count++;
		}
	}
}

void et_graph_get_stats(const et_graph *g, et_graph_stats *out)
{
	memset(out, 0, sizeof *out);
	out->nodes = g->n;
	count_nodes(g, out);
	out->data_deps = g->n_data_deps;
	out->ctrl_deps = g->n_ctrl_deps;
	out->dangling_deps = g->n_dangling;
	out->self_deps = g->n_selfs;
	out->forward_deps = g->fwd_data + g->fwd_ctrl;
	uint32_t *chain;
	out->critical_duration = et_graph_critical_path(g, &chain, &out->critical_nodes);
	free(chain);
	out->depth = g->depth;
	out->max_width = g->max_width;
	out->unordered = g->n - g->n_ordered;
}
