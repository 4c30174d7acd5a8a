/* Which nodes are drawn: every filter the user gave must pass (--around,
 * --ids, --match, --only-critical-path); --critical-path only marks. */
#include "et-viz/viz.h"
#include "et_buf.h"

#include <stdlib.h>
#include <string.h>

static uint32_t degree(const et_graph *g, uint32_t v)
{
	return et_graph_ndeps(g, v) + (g->out_off[v + 1] - g->out_off[v]);
}

/* Breadth-first from start over dependencies in both directions, up to
 * depth hops. A hub (say the thread root of a PyTorch trace, parent of
 * thousands of ops) is drawn but not walked through, or the neighbourhood
 * of any op would be the whole trace. */
typedef struct bfs {
	const et_graph *g;
	uint32_t *queue, *dist, head, tail, hub;
	uint8_t *near;
} bfs;

static void visit(bfs *b, uint32_t v, uint32_t d)
{
	if (b->near[v])
		return;
	b->near[v] = 1;
	b->dist[v] = d;
	b->queue[b->tail++] = v;
}

static void expand(bfs *b, uint32_t v)
{
	const et_graph *g = b->g;
	uint32_t d = b->dist[v] + 1;
	for (uint32_t k = g->data_off[v]; k < g->data_off[v + 1]; k++)
		visit(b, g->data_dep[k], d);
	for (uint32_t k = g->ctrl_off[v]; k < g->ctrl_off[v + 1]; k++)
		visit(b, g->ctrl_dep[k], d);
	for (uint32_t k = g->out_off[v]; k < g->out_off[v + 1]; k++)
		visit(b, g->out[k], d);
}

static void around(const et_graph *g, uint32_t start, uint32_t depth, uint32_t hub, uint8_t *near)
{
	bfs b = {g,
	         et_xmalloc((size_t)g->n * sizeof(uint32_t)),
	         et_xmalloc((size_t)g->n * sizeof(uint32_t)),
	         0,
	         0,
	         hub,
	         near};
	visit(&b, start, 0);
	while (b.head < b.tail) {
		uint32_t v = b.queue[b.head++];
		if (b.dist[v] >= depth)
			continue;
		if (v != start && b.hub && degree(g, v) > b.hub)
			continue;
		expand(&b, v);
	}
	free(b.queue);
	free(b.dist);
}

/* Applies --around to every rank holding the id; false if none does. */
static bool select_around(const conf *c, model *m)
{
	bool found = false;
	for (uint32_t r = 0; r < m->n_ranks; r++) {
		vrank *vr = &m->ranks[r];
		uint32_t start = et_graph_find(vr->g, c->around);
		uint8_t *near = et_xcalloc(vr->g->n + 1, 1);
		if (start != ET_GRAPH_NONE) {
			around(vr->g, start, c->depth, c->hub, near);
			found = true;
		}
		for (uint32_t i = 0; i < vr->g->n; i++)
			vr->sel[i] &= near[i];
		free(near);
	}
	return found;
}

static void mark_critical(vrank *vr)
{
	uint32_t *chain, len;
	et_graph_critical_path(vr->g, &chain, &len);
	for (uint32_t k = 0; k < len; k++)
		vr->crit[chain[k]] = k + 1;
	free(chain);
}

static void filter_rank(const conf *c, vrank *vr)
{
	const et_graph *g = vr->g;
	if (c->critical)
		mark_critical(vr);
	for (uint32_t i = 0; i < g->n; i++) {
		if (!vr->sel[i])
			continue;
		if ((c->n_ids && !viz_ids_has(c, g->id[i])) ||
		    (c->match && regexec(&c->match_re, et_graph_name(g, i), 0, NULL, 0) != 0) ||
		    (c->only_critical && !vr->crit[i]))
			vr->sel[i] = 0;
	}
}

int viz_select(const conf *c, model *m, et_error *e)
{
	for (uint32_t r = 0; r < m->n_ranks; r++)
		memset(m->ranks[r].sel, 1, m->ranks[r].g->n);
	if (c->around_set && !select_around(c, m))
		return et_fail(e, ET_EXIT_DATA, "--around %llu: no node has this id%s",
		               (unsigned long long)c->around,
		               c->in.ranks.n ? " in the selected ranks" : "");
	m->n_selected = 0;
	for (uint32_t r = 0; r < m->n_ranks; r++) {
		filter_rank(c, &m->ranks[r]);
		for (uint32_t i = 0; i < m->ranks[r].g->n; i++)
			m->n_selected += m->ranks[r].sel[i];
	}
	return 0;
}
