/* Reading the selected ranks into one et_graph each (et_load), plus the
 * tid and stream attributes (clusters and timeline tracks need them;
 * et_graph keeps only the well-known attributes). Memory: every selected
 * rank's graph at once (about 130 bytes per node plus names), since
 * cross-rank links need all of them. */
#include "et-viz/viz.h"
#include "et_attr.h"
#include "et_load.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

typedef struct loading {
	const conf *c;
	model *m;
	size_t cap;     /* of the tid and stream arrays of the rank being read */
	uint64_t drawn; /* nodes read so far that the picture would draw */
	bool count;     /* the selection is decided node by node: count them */
} loading;

static int64_t attr_or_none(const et_node *n, const char *name)
{
	int64_t v;
	return et_attr_int(n, name, &v) ? v : VIZ_NO_ATTR;
}

static void side_grow(vrank *vr, uint32_t i, size_t *cap)
{
	size_t c = *cap; /* parallel arrays: the same growth */
	ET_GROW(vr->tid, *cap, (size_t)i + 1);
	ET_GROW(vr->stream, c, (size_t)i + 1);
}

static const char *keep_input(model *m, const char *name)
{
	for (uint32_t k = 0; k < m->n_inputs; k++)
		if (strcmp(m->inputs[k], name) == 0)
			return m->inputs[k];
	ET_GROW(m->inputs, m->cap_inputs, (size_t)m->n_inputs + 1);
	return m->inputs[m->n_inputs++] = et_xstrdup(name);
}

/* The rank's vrank, graph included, is the model's from here on: freed
 * by viz_model_free even when the rank cannot be read. */
static int begin_rank(void *ctx, const et_rank_info *ri, et_graph **g, et_error *e)
{
	(void)e;
	loading *l = ctx;
	model *m = l->m;
	ET_GROW(m->ranks, m->cap_ranks, (size_t)m->n_ranks + 1);
	vrank *vr = &m->ranks[m->n_ranks++];
	memset(vr, 0, sizeof *vr);
	vr->rank = ri->rank;
	vr->input = keep_input(m, ri->input ? ri->input : "-");
	vr->g = *g = et_graph_new();
	l->cap = 0;
	return 0;
}

static vrank *cur_rank(const loading *l)
{
	return &l->m->ranks[l->m->n_ranks - 1];
}

/* Whether a picture's size can be known as nodes arrive: not for timelines
 * (no --max-nodes), and not for selections that need the whole graph. */
static bool counts_on_arrival(const conf *c)
{
	return !c->timeline && !c->around_set && !c->collapse && !c->only_critical;
}

static bool drawn(const conf *c, const et_node *n)
{
	return (!c->n_ids || viz_ids_has(c, n->id)) &&
	       (!c->match || regexec(&c->match_re, n->name ? n->name : "", 0, NULL, 0) == 0);
}

static int add_node(void *ctx, et_graph *g, uint32_t i, const et_node *n, et_error *e)
{
	(void)g;
	loading *l = ctx;
	vrank *vr = cur_rank(l);
	side_grow(vr, i, &l->cap);
	vr->tid[i] = attr_or_none(n, "tid");
	vr->stream[i] = attr_or_none(n, "stream");
	if (l->count && drawn(l->c, n) && ++l->drawn > l->c->max_nodes)
		return viz_too_many(l->c, l->drawn, true, e);
	return 0;
}

static int end_rank(void *ctx, et_graph *g, const et_load_rank *r, et_error *e)
{
	(void)r;
	(void)e;
	vrank *vr = cur_rank(ctx);
	uint32_t n = g->n;
	vr->sel = et_xcalloc(n + 1, 1);
	vr->crit = et_xcalloc(n + 1, sizeof *vr->crit);
	vr->vert = et_xmalloc(((size_t)n + 1) * sizeof *vr->vert);
	return 0;
}

int viz_load(const conf *c, int argc, char **argv, model *m, et_error *e)
{
	loading l = {.c = c, .m = m, .count = counts_on_arrival(c)};
	et_load_hooks h = {&l, begin_rank, NULL, add_node, end_rank};
	et_load_opts o = {true, c->cli.progress};
	if (et_load_args(argc, argv, &c->in.o, &o, &h, NULL, e) < 0)
		return -1;
	if (m->n_ranks == 0)
		return et_fail(e, ET_EXIT_DATA, "no rank to draw");
	return 0;
}

void viz_model_free(model *m)
{
	for (uint32_t k = 0; k < m->n_ranks; k++) {
		vrank *vr = &m->ranks[k];
		et_graph_free(vr->g);
		free(vr->tid);
		free(vr->stream);
		free(vr->sel);
		free(vr->crit);
		free(vr->vert);
	}
	for (uint32_t k = 0; k < m->n_inputs; k++)
		free(m->inputs[k]);
	free(m->inputs);
	free(m->ranks);
	free(m->v);
	free(m->e);
	memset(m, 0, sizeof *m);
}
