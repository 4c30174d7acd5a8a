/* The picture model -> a cgraph graph: one node per vertex, one edge per
 * model edge, attributes from style.c. Nothing is printed here; the DOT
 * text (if any) comes from cgraph's own writer in render.c. */
#include "et-viz/draw/draw.h"
#include "et-viz/draw/style.h"
#include "et-viz/graph/gvids.h"

#include <stdio.h>
#include <stdlib.h>

static void graph_defaults(const conf *c, Agraph_t *g)
{
	agattr(g, AGRAPH, "rankdir", (char *)c->rankdir);
	agattr(g, AGRAPH, "fontname", "Helvetica");
	agattr(g, AGRAPH, "fontsize", "11");
	agattr(g, AGRAPH, "nodesep", "0.25");
	agattr(g, AGRAPH, "ranksep", "0.35");
	agattr(g, AGRAPH, "outputorder", "edgesfirst");
	agattr(g, AGRAPH, "pad", "0.2");
	/* Bundles the fan-out of hubs (a parent op and its hundreds of children)
	 * into shared trunks: far fewer virtual nodes, so dot lays out in
	 * seconds where it otherwise takes minutes, and a readable picture. */
	agattr(g, AGRAPH, "concentrate", "true");
	/* Bounds dot's x-positioning (network simplex over real and virtual
	 * nodes) to 2 iterations a node: unbounded, it runs for minutes on a
	 * few hundred nodes with long edges; bounded, positions are nearly as
	 * good. */
	agattr(g, AGRAPH, "nslimit", "2");
	agattr(g, AGNODE, "fontname", "Helvetica");
	agattr(g, AGNODE, "fontsize", "10");
	agattr(g, AGNODE, "style", "filled");
	agattr(g, AGNODE, "margin", "0.08,0.03");
	agattr(g, AGNODE, "height", "0.3");
	agattr(g, AGEDGE, "arrowsize", "0.6");
	agattr(g, AGEDGE, "color", "#555555");
}

/* cgraph node names: r<rank>_<id>; a duplicated id (a defect some traces
 * have) adds the message index, a folded run its count. */
static void node_name(const model *m, const vvert *v, char *out, size_t cap)
{
	const vrank *vr = &m->ranks[v->r];
	const et_graph *g = vr->g;
	int n = snprintf(out, cap, "r%u_%llu", vr->rank, (unsigned long long)g->id[v->first]);
	if (g->flags[v->first] & ET_GF_DUP_ID)
		n += snprintf(out + n, cap - (size_t)n, "_m%u", g->msg_index[v->first]);
	if (v->count > 1)
		snprintf(out + n, cap - (size_t)n, "_x%u", v->count);
}

static void set_text(void *obj, const char *attr, et_buf *b)
{
	et_buf_putc(b, '\0');
	agsafeset(obj, (char *)attr, (char *)b->data, "");
	b->len = 0;
}

static Agnode_t *draw_vertex(const model *m, const vvert *v, Agraph_t *sub, et_buf *b)
{
	char name[96];
	node_name(m, v, name, sizeof name);
	Agnode_t *n = agnode(sub, name, 1);
	const node_style *st = &viz_styles[viz_style_id(m->ranks[v->r].g, v->first)];
	agsafeset(n, "shape", (char *)st->shape, "");
	agsafeset(n, "fillcolor", (char *)st->fill, "");
	agsafeset(n, "color", (char *)(v->crit ? VIZ_CRIT_COLOR : st->border), "");
	if (v->crit)
		agsafeset(n, "penwidth", "3", "");
	if (v->count > 1)
		agsafeset(n, "peripheries", "2", ""); /* a folded run: a stack */
	if (st == &viz_styles[ST_OTHER])
		agsafeset(n, "style", "filled,dashed", "");
	viz_label(m, v, b);
	set_text(n, "label", b);
	viz_tooltip(m, v, b);
	set_text(n, "tooltip", b);
	return n;
}

/* An indirect edge stands for a path through nodes the selection hides:
 * dashed like a ctrl edge would be ambiguous, so it also has its own blue
 * and an open arrow head, whatever the kinds along the path. */
static void indirect_look(Agedge_t *ed, const vedge *e, et_buf *b)
{
	et_buf_printf(b, "indirect dependency, through %u hidden node%s", e->hidden,
	              e->hidden == 1 ? "" : "s");
	set_text(ed, "tooltip", b);
	agsafeset(ed, "style", "dashed", "");
	agsafeset(ed, "color", VIZ_INDIRECT_COLOR, "");
	agsafeset(ed, "arrowhead", "empty", "");
}

static void edge_look(Agedge_t *ed, const vedge *e, et_buf *b)
{
	static const char *const what[EK_KINDS] = {"data dependency", "ctrl dependency", "",
	                                           "same collective", "send -> recv"};
	if (e->kind == EK_INDIRECT)
		indirect_look(ed, e, b);
	else
		agsafeset(ed, "tooltip", (char *)what[e->kind], "");
	if (e->kind == EK_CTRL) {
		agsafeset(ed, "style", "dashed", "");
		agsafeset(ed, "color", "#999999", "");
	} else if (e->kind == EK_COLL || e->kind == EK_P2P) {
		/* links must not pull the ranks' layouts into each other */
		agsafeset(ed, "constraint", "false", "");
		agsafeset(ed, "style", "dotted", "");
		agsafeset(ed, "penwidth", "2", "");
		agsafeset(ed, "color", e->kind == EK_COLL ? "#d79b00" : "#4d9a3a", "");
		if (e->kind == EK_COLL)
			agsafeset(ed, "dir", "none", "");
	}
	if (e->crit) {
		agsafeset(ed, "color", VIZ_CRIT_COLOR, "");
		agsafeset(ed, "penwidth", "2.5", "");
	}
}

static void build(const conf *c, const model *m, Agraph_t *g)
{
	graph_defaults(c, g);
	clusters *cl = viz_clusters_new(c, m, g);
	Agnode_t **nodes = et_xmalloc(((size_t)m->nv + 1) * sizeof *nodes);
	et_buf b = {0};
	for (uint32_t k = 0; k < m->nv; k++)
		nodes[k] = draw_vertex(m, &m->v[k], viz_cluster_of(cl, m, &m->v[k]), &b);
	for (uint32_t k = 0; k < m->ne; k++) {
		const vedge *e = &m->e[k];
		edge_look(agedge(g, nodes[e->from], nodes[e->to], NULL, 1), e, &b);
	}
	if (!c->no_legend)
		viz_legend(c, m, g);
	et_buf_free(&b);
	free(nodes);
	viz_clusters_free(cl);
}

int viz_draw(const conf *c, model *m, et_error *e)
{
	Agraph_t *g = agopen("et", Agdirected, viz_gv_disc());
	build(c, m, g);
	int r = viz_render(c, g, e);
	agclose(g);
	return r;
}
