/* Edges between vertices: a dependency between two drawn nodes becomes an
 * edge between their vertices, one per ordered pair. PyTorch traces often
 * give a node both a data and a ctrl dependency on the same parent; that
 * pair is drawn once, solid (data wins), since two parallel arrows only
 * add clutter. Dependencies inside a folded run disappear. Paths through
 * hidden nodes become EK_INDIRECT edges (indirect.c), which give way to a
 * direct edge between the same pair. */
#include "et-viz/viz.h"
#include "et_buf.h"
#include "et_mem.h"

#include <stdlib.h>

static uint32_t slot(const model *m, uint32_t from, uint32_t to)
{
	uint64_t h = ((uint64_t)from << 32 | to) * 0x9E3779B97F4A7C15ull;
	uint32_t s = (uint32_t)(h >> 32) & m->eh_mask;
	while (m->eh[s] && (m->e[m->eh[s] - 1].from != from || m->e[m->eh[s] - 1].to != to))
		s = (s + 1) & m->eh_mask;
	return s;
}

static void rehash(model *m)
{
	uint32_t cap = m->eh ? (m->eh_mask + 1) * 2 : 1024;
	free(m->eh);
	m->eh = et_xcalloc(cap, sizeof *m->eh);
	m->eh_mask = cap - 1;
	for (uint32_t k = 0; k < m->ne; k++)
		m->eh[slot(m, m->e[k].from, m->e[k].to)] = k + 1;
}

static vedge *edge_add(model *m, uint32_t from, uint32_t to, edge_kind k)
{
	if (!m->eh || (uint64_t)(m->ne + 1) * 2 > m->eh_mask + 1)
		rehash(m);
	uint32_t s = slot(m, from, to);
	if (m->eh[s]) {
		vedge *e = &m->e[m->eh[s] - 1];
		if (k < e->kind)
			e->kind = (uint8_t)k;
		return e;
	}
	ET_GROW(m->e, m->cape, (size_t)m->ne + 1);
	m->e[m->ne] = (vedge){from, to, (uint8_t)k, false, 0};
	m->eh[s] = m->ne + 1;
	return &m->e[m->ne++];
}

void viz_edge_add(model *m, uint32_t from, uint32_t to, edge_kind k)
{
	if (from != to)
		edge_add(m, from, to, k);
}

void viz_edge_add_indirect(model *m, uint32_t from, uint32_t to, uint32_t hidden)
{
	if (from == to)
		return;
	vedge *e = edge_add(m, from, to, EK_INDIRECT);
	if (e->kind == EK_INDIRECT && (!e->hidden || hidden < e->hidden))
		e->hidden = hidden;
}

static void dep_edge(model *m, const vrank *vr, uint32_t dep, uint32_t i, edge_kind k)
{
	if (!vr->sel[dep] || vr->vert[dep] == vr->vert[i])
		return;
	vedge *e = edge_add(m, vr->vert[dep], vr->vert[i], k);
	/* on the path when the two nodes are consecutive in the chain */
	if (vr->crit[dep] && vr->crit[i] == vr->crit[dep] + 1)
		e->crit = true;
}

void viz_edges(model *m)
{
	m->ne = 0;
	for (uint32_t r = 0; r < m->n_ranks; r++) {
		const vrank *vr = &m->ranks[r];
		const et_graph *g = vr->g;
		for (uint32_t i = 0; i < g->n; i++) {
			if (!vr->sel[i])
				continue;
			for (uint32_t k = g->data_off[i]; k < g->data_off[i + 1]; k++)
				dep_edge(m, vr, g->data_dep[k], i, EK_DATA);
			for (uint32_t k = g->ctrl_off[i]; k < g->ctrl_off[i + 1]; k++)
				dep_edge(m, vr, g->ctrl_dep[k], i, EK_CTRL);
		}
	}
}

void viz_edges_done(model *m)
{
	free(m->eh);
	m->eh = NULL;
	m->eh_mask = 0;
}
