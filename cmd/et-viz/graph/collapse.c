/* Vertices: each selected node is one, except that --collapse folds a run
 * of adjacent selected nodes (file order, which is execution order in
 * traces from PyTorch) whose names match into one vertex with a count. A
 * run stays within one node type and one thread/stream, so a folded vertex
 * keeps one shape and one cluster. A node left out by the selection ends a
 * run: folding across it would hide that something happened in between. */
#include "et-viz/viz.h"
#include "et_buf.h"
#include "et_mem.h"

bool viz_group_key(const vrank *vr, uint32_t i, int64_t *key, bool *is_stream)
{
	int64_t s = vr->stream[i], t = vr->tid[i];
	*is_stream = s != VIZ_NO_ATTR && s > 0; /* stream 0: a host op */
	*key = *is_stream ? s : t;
	if (*key == VIZ_NO_ATTR)
		*key = 0;
	return *is_stream || t != VIZ_NO_ATTR;
}

static bool same_group(const vrank *vr, uint32_t a, uint32_t b)
{
	int64_t ka, kb;
	bool sa, sb;
	bool ha = viz_group_key(vr, a, &ka, &sa), hb = viz_group_key(vr, b, &kb, &sb);
	return ha == hb && sa == sb && ka == kb && vr->g->type[a] == vr->g->type[b];
}

static uint32_t new_vertex(model *m, uint32_t r, uint32_t i)
{
	ET_GROW(m->v, m->capv, (size_t)m->nv + 1);
	const vrank *vr = &m->ranks[r];
	m->v[m->nv] = (vvert){r, i, i, 1, vr->g->duration_micros[i], vr->crit[i] != 0};
	return m->nv++;
}

static void collapse_rank(const conf *c, model *m, uint32_t r)
{
	vrank *vr = &m->ranks[r];
	const et_graph *g = vr->g;
	uint32_t prev = VIZ_NONE;
	bool prev_match = false;
	for (uint32_t i = 0; i < g->n; i++) {
		vr->vert[i] = VIZ_NONE;
		if (!vr->sel[i])
			continue;
		bool match =
		    c->collapse && regexec(&c->collapse_re, et_graph_name(g, i), 0, NULL, 0) == 0;
		if (match && prev_match && prev + 1 == i && same_group(vr, prev, i)) {
			vvert *v = &m->v[vr->vert[prev]];
			v->last = i;
			v->count++;
			v->dur += g->duration_micros[i];
			v->crit |= vr->crit[i] != 0;
			vr->vert[i] = vr->vert[prev];
		} else {
			vr->vert[i] = new_vertex(m, r, i);
		}
		prev = i;
		prev_match = match;
	}
}

void viz_collapse(const conf *c, model *m)
{
	m->nv = 0;
	for (uint32_t r = 0; r < m->n_ranks; r++)
		collapse_rank(c, m, r);
}
