/* Reading the selected ranks into one et_graph each, plus the tid and
 * stream attributes (clusters and timeline tracks need them; et_graph keeps
 * only the well-known attributes). Memory: every selected rank's graph at
 * once (about 130 bytes per node plus names), since cross-rank links need
 * all of them. */
#include "et_arena.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_progress.h"
#include "viz.h"

#include <stdlib.h>
#include <string.h>

static int64_t attr_or_none(const et_node *n, const char *name)
{
	int64_t v;
	return et_attr_int(n, name, &v) ? v : VIZ_NO_ATTR;
}

static void side_grow(vrank *vr, uint32_t i, uint32_t *cap)
{
	if (i < *cap)
		return;
	*cap = *cap ? *cap * 2 : 1024;
	vr->tid = et_xrealloc(vr->tid, (size_t)*cap * sizeof *vr->tid);
	vr->stream = et_xrealloc(vr->stream, (size_t)*cap * sizeof *vr->stream);
}

static int add_node(vrank *vr, et_arena *a, const et_msg *m, const et_rank_info *ri, uint32_t *cap,
                    et_error *e)
{
	et_node *n = et_node_decode(a, m->data, m->len);
	if (!n)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: byte %llu: message %llu is not a Node", ri->input,
		               ri->rank, (unsigned long long)m->offset,
		               (unsigned long long)m->index);
	uint32_t i = et_graph_add_indexed(vr->g, n, (uint32_t)m->index);
	if (i == ET_GRAPH_NONE)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: byte %llu: too many nodes in one rank", ri->input,
		               ri->rank, (unsigned long long)m->offset);
	side_grow(vr, i, cap);
	vr->tid[i] = attr_or_none(n, "tid");
	vr->stream[i] = attr_or_none(n, "stream");
	return 0;
}

static int read_rank(et_input *in, vrank *vr, const et_rank_info *ri, et_progress *pg,
                     uint64_t *count, et_error *e)
{
	et_arena *a = et_arena_new();
	uint32_t cap = 0;
	et_msg m;
	int r;
	while ((r = et_input_next_msg(in, &m, e)) == 1) {
		if (m.index == 0)
			continue; /* the GlobalMetadata: checked by the reader */
		et_arena_reset(a);
		if (add_node(vr, a, &m, ri, &cap, e) < 0) {
			r = -1;
			break;
		}
		et_progress_update(pg, ri->rank, ++*count);
	}
	et_arena_free(a);
	if (r < 0)
		return -1;
	et_graph_finish(vr->g);
	uint32_t n = vr->g->n;
	vr->sel = et_xcalloc(n + 1, 1);
	vr->crit = et_xcalloc(n + 1, sizeof *vr->crit);
	vr->vert = et_xmalloc(((size_t)n + 1) * sizeof *vr->vert);
	return 0;
}

static const char *keep_input(model *m, const char *name)
{
	for (uint32_t k = 0; k < m->n_inputs; k++)
		if (strcmp(m->inputs[k], name) == 0)
			return m->inputs[k];
	m->inputs = et_xrealloc(m->inputs, (m->n_inputs + 1) * sizeof *m->inputs);
	return m->inputs[m->n_inputs++] = et_xstrdup(name);
}

static vrank *new_rank(model *m, const et_rank_info *ri)
{
	m->ranks = et_xrealloc(m->ranks, (m->n_ranks + 1) * sizeof *m->ranks);
	vrank *vr = &m->ranks[m->n_ranks++];
	memset(vr, 0, sizeof *vr);
	vr->rank = ri->rank;
	vr->input = keep_input(m, ri->input ? ri->input : "-");
	vr->g = et_graph_new();
	return vr;
}

int viz_load(const conf *c, int argc, char **argv, model *m, et_error *e)
{
	et_input *in;
	if (et_input_open(&in, argc, argv, &c->in.o, e) < 0) {
		et_input_close(in);
		return -1;
	}
	et_progress pg;
	et_progress_init(&pg, c->cli.progress);
	uint64_t count = 0;
	et_rank_info ri;
	int r;
	while ((r = et_input_next_rank(in, &ri, e)) == 1)
		if ((r = read_rank(in, new_rank(m, &ri), &ri, &pg, &count, e)) < 0)
			break;
	et_progress_done(&pg);
	et_input_close(in);
	if (r == 0 && m->n_ranks == 0)
		r = et_fail(e, ET_EXIT_DATA, "no rank to draw%s",
		            c->in.ranks.n ? ": --ranks matches none of the input's ranks" : "");
	return r;
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
