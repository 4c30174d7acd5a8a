/* Dependencies through hidden nodes. A selection (--match, --ids, ...)
 * leaves out the nodes between the ones it draws, and with them the edges
 * through them: --match 'conv|relu' would draw disconnected nodes although
 * each relu waits for its conv. So when drawn node B depends on drawn node
 * A through a path whose inner nodes are all hidden, the picture gets an
 * indirect edge A -> B (drawn dashed, see draw.c). Only the nearest drawn
 * ancestors count: with A -> B -> C all drawn, the path says A before C.
 *
 * One pass in topological order carries, for each hidden node, its nearest
 * drawn ancestors with the number of hidden nodes on the shortest path from
 * each. Unbounded, those sets make the pass quadratic (a hidden node below
 * thousands of drawn ones), so a hidden node keeps at most VIZ_NEAR_CAP of
 * them, the ones through the fewest hidden nodes, and the run says when it
 * dropped some. A drawn node merges its hidden dependencies' sets without a
 * cap (at most VIZ_NEAR_CAP per dependency). A set is freed as soon as the
 * last node depending on its node is done, so memory follows the width of
 * the graph, not its size. */
#include "et-viz/viz.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

typedef struct near {
	uint32_t node;   /* a drawn ancestor */
	uint32_t hidden; /* hidden nodes on the shortest path from it, this one included */
} near;

typedef struct walk {
	const vrank *vr;
	near **set;     /* per hidden node: its nearest drawn ancestors, or NULL */
	uint32_t *len;  /* ... and their number */
	uint32_t *left; /* per node: dependencies on it not yet walked */
	uint32_t *seen; /* per node: 1 + the node whose union holds it at pos */
	uint32_t *pos;
	near *buf; /* the union being built */
	uint32_t n;
	size_t cap;
	uint64_t capped; /* hidden nodes that kept only VIZ_NEAR_CAP */
} walk;

static void put(walk *w, uint32_t cur, uint32_t node, uint32_t hidden)
{
	if (w->seen[node] == cur + 1) {
		near *p = &w->buf[w->pos[node]];
		if (hidden < p->hidden)
			p->hidden = hidden;
		return;
	}
	ET_GROW(w->buf, w->cap, (size_t)w->n + 1);
	w->seen[node] = cur + 1;
	w->pos[node] = w->n;
	w->buf[w->n++] = (near){node, hidden};
}

/* Into buf: node i's drawn dependencies (for a hidden i) and the sets of
 * its hidden ones; step is 1 for a hidden i (it lengthens the path). */
static void gather(walk *w, uint32_t i, const uint32_t *dep, uint32_t n, uint32_t step)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t d = dep[k];
		if (w->vr->sel[d]) {
			if (step)
				put(w, i, d, 1);
			continue;
		}
		for (uint32_t j = 0; j < w->len[d]; j++)
			put(w, i, w->set[d][j].node, w->set[d][j].hidden + step);
	}
}

static void release(walk *w, const uint32_t *dep, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		uint32_t d = dep[k];
		if (--w->left[d] == 0) {
			free(w->set[d]);
			w->set[d] = NULL;
			w->len[d] = 0;
		}
	}
}

static int by_distance(const void *a, const void *b)
{
	const near *x = a, *y = b;
	if (x->hidden != y->hidden)
		return x->hidden < y->hidden ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

static void keep(walk *w, uint32_t i)
{
	if (w->n > VIZ_NEAR_CAP) {
		qsort(w->buf, w->n, sizeof *w->buf, by_distance);
		w->n = VIZ_NEAR_CAP;
		w->capped++;
	}
	w->set[i] = et_xmalloc((size_t)w->n * sizeof *w->buf);
	memcpy(w->set[i], w->buf, (size_t)w->n * sizeof *w->buf);
	w->len[i] = w->n;
}

static void step(model *m, walk *w, uint32_t i)
{
	const vrank *vr = w->vr;
	const et_graph *g = vr->g;
	bool drawn = vr->sel[i];
	const uint32_t *data = g->data_dep + g->data_off[i], *ctrl = g->ctrl_dep + g->ctrl_off[i];
	uint32_t nd = g->data_off[i + 1] - g->data_off[i], nc = g->ctrl_off[i + 1] - g->ctrl_off[i];
	w->n = 0;
	gather(w, i, data, nd, !drawn);
	gather(w, i, ctrl, nc, !drawn);
	if (drawn) {
		for (uint32_t k = 0; k < w->n; k++)
			viz_edge_add_indirect(m, vr->vert[w->buf[k].node], vr->vert[i],
			                      w->buf[k].hidden);
	} else if (w->n && w->left[i]) {
		keep(w, i);
	}
	release(w, data, nd);
	release(w, ctrl, nc);
}

static void count_left(const et_graph *g, uint32_t *left)
{
	for (uint32_t k = 0; k < g->data_off[g->n]; k++)
		left[g->data_dep[k]]++;
	for (uint32_t k = 0; k < g->ctrl_off[g->n]; k++)
		left[g->ctrl_dep[k]]++;
}

static uint64_t walk_rank(model *m, const vrank *vr)
{
	const et_graph *g = vr->g;
	size_t n = (size_t)g->n + 1;
	walk w = {vr,
	          et_xcalloc(n, sizeof *w.set),
	          et_xcalloc(n, sizeof *w.len),
	          et_xcalloc(n, sizeof *w.left),
	          et_xcalloc(n, sizeof *w.seen),
	          et_xmalloc(n * sizeof *w.pos),
	          NULL,
	          0,
	          0,
	          0};
	count_left(g, w.left);
	/* nodes in or behind a cycle are not in the order: no edges for them */
	for (uint32_t k = 0; k < g->n_ordered; k++)
		step(m, &w, g->order[k]);
	for (uint32_t i = 0; i < g->n; i++)
		free(w.set[i]);
	free(w.set);
	free(w.len);
	free(w.left);
	free(w.seen);
	free(w.pos);
	free(w.buf);
	return w.capped;
}

void viz_indirect(model *m)
{
	uint64_t capped = 0;
	for (uint32_t r = 0; r < m->n_ranks; r++) {
		const vrank *vr = &m->ranks[r];
		uint64_t drawn = 0;
		for (uint32_t i = 0; i < vr->g->n; i++)
			drawn += vr->sel[i];
		/* nothing hidden, or nothing drawn: no path to add */
		if (drawn && drawn < vr->g->n)
			capped += walk_rank(m, vr);
	}
	if (capped)
		et_warn(
		    "%llu hidden node%s below more than %d drawn nodes: only the %d nearest are "
		    "kept, so some dashed edges through hidden nodes may be missing",
		    (unsigned long long)capped, capped == 1 ? " lies" : "s lie", VIZ_NEAR_CAP,
		    VIZ_NEAR_CAP);
}
