/* The context vector and the views of a graph (context.h). */
#include "layerdag-sample/diffusion/context.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_cond_fit(ld_cond *c, const ld_corpus *cp)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < cp->n; i++) {
		double a = asinh(cp->g[i].y);
		s += a, ss += a * a;
	}
	c->ymu = cp->n ? s / (double)cp->n : 0;
	double var = cp->n ? ss / (double)cp->n - c->ymu * c->ymu : 1;
	/* one label (or all equal): any scale will do */
	c->ysd = var > 1e-12 ? sqrt(var) : 1;
}

double *ld_arity_fit(const ld_corpus *cp, uint32_t vocab)
{
	double *a = et_xcalloc(vocab ? vocab : 1, sizeof *a),
	       *n = et_xcalloc(vocab ? vocab : 1, sizeof *n);
	for (size_t i = 0; i < cp->n; i++) {
		const ld_dag *g = &cp->g[i];
		uint32_t *layer = et_xcalloc(g->n + 1, sizeof *layer),
		         *od = et_xcalloc(g->n + 1, sizeof *od);
		uint32_t L = ld_layers(g, layer);
		for (uint32_t k = 0; k < g->ne; k++)
			od[g->edge[k][0]]++;
		for (uint32_t v = 0; v < g->n; v++)
			if (layer[v] + 1 < L && g->attr[v] < vocab)
				a[g->attr[v]] += od[v], n[g->attr[v]] += 1;
		free(layer), free(od);
	}
	for (uint32_t k = 0; k < vocab; k++)
		a[k] = n[k] > 0 ? a[k] / n[k] : 0;
	free(n);
	return a;
}

double ld_cond_y(const ld_cond *c, double y)
{
	double v = (asinh(y) - c->ymu) / c->ysd;
	/* a label far outside the corpus's: as if at its edge, not a wild input */
	return v < -8 ? -8 : v > 8 ? 8 : isnan(v) ? 0 : v;
}

void ld_ctx(const ld_cond *c, const ld_ctx_in *in, double *out)
{
	double ys = ld_cond_y(c, in->y), tau = in->T ? (double)in->t / in->T : 0;
	size_t k = 0;
	out[k++] = ys;
	for (int i = 0; i < 6; i++) {
		double w = 0.5 * (double)(1 << i);
		out[k++] = sin(ys * w);
		out[k++] = cos(ys * w);
	}
	out[k++] = tau;
	for (int i = 0; i < 3; i++) {
		double w = M_PI / 2 * (double)(1 << i);
		out[k++] = sin(tau * w);
		out[k++] = cos(tau * w);
	}
	out[k++] = in->l < 128 ? in->l / 16.0 : 8; /* the text corpus is < 128 deep */
	out[k++] = log1p(in->l) / 3;
	out[k++] = log1p(in->n) / 5;
	out[k++] = in->wprev / 8.0;
	out[k++] = in->wnew / 8.0;
	out[k++] = in->last;
	out[k++] = in->demand / 8;
}

void ld_view_set_attr(ld_view *v, uint32_t i, uint32_t attr, uint32_t vocab, const double *arity)
{
	double *row = v->X + (size_t)i * v->F;
	memset(row, 0, vocab * sizeof *row);
	row[attr < vocab ? attr : 0] = 1;
	row[vocab + LD_DIST + 3] = arity && attr < vocab ? arity[attr] / 4 : 0;
}

/* The first of n sorted values that is >= x. */
static uint32_t bisect(const uint32_t *v, size_t stride, uint32_t n, uint32_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[(size_t)mid * stride] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

uint32_t ld_window_lo(const uint32_t *layer, uint32_t n, uint32_t l, uint32_t window)
{
	return window && l > window ? bisect(layer, 1, n, l - window) : 0;
}

/* The graph's nodes and edges that may be in the view: all of them
 * without a window; with one (g in layer order), the nodes of layers
 * l − window .. l and the edges into them. */
static void window_range(ld_view *v, const ld_dag *g, const uint32_t *layer, uint32_t l,
                         uint32_t window)
{
	v->lo = 0, v->hi = g->n, v->elo = 0, v->ehi = g->ne;
	if (!window)
		return;
	v->lo = ld_window_lo(layer, g->n, l, window);
	v->hi = bisect(layer, 1, g->n, l + 1);
	const uint32_t *dst = g->ne ? &g->edge[0][1] : NULL;
	v->elo = g->ne ? bisect(dst, 2, g->ne, v->lo) : 0;
	v->ehi = g->ne ? bisect(dst, 2, g->ne, v->hi) : 0;
}

uint32_t ld_view_ix(const ld_view *v, uint32_t u)
{
	return u >= v->lo && u < v->hi ? v->ix[u - v->lo] : UINT32_MAX;
}

/* The view's nodes: the prefix, then layer l if with_new. */
static void place(ld_view *v, const uint32_t *layer, uint32_t l, bool with_new)
{
	uint32_t span = v->hi - v->lo;
	v->ix = et_xcalloc((size_t)span + 1, sizeof *v->ix);
	v->node = et_xcalloc((size_t)span + 1, sizeof *v->node);
	for (uint32_t u = v->lo; u < v->hi; u++) {
		v->ix[u - v->lo] = UINT32_MAX;
		if (layer[u] < l)
			v->node[v->n] = u, v->ix[u - v->lo] = v->n++;
		v->wprev += layer[u] + 1 == l;
	}
	v->B = v->n;
	v->prefix = v->lo + v->B; /* the nodes before lo are all of earlier layers */
	for (uint32_t u = v->lo; u < v->hi && with_new; u++)
		if (layer[u] == l)
			v->node[v->n] = u, v->ix[u - v->lo] = v->n++;
	v->w = v->n - v->B;
}

/* The prefix's edges (both ends in the view's prefix), and the degrees. */
static void prefix_edges(ld_view *v, const ld_dag *g, const uint32_t *layer, uint32_t l,
                         bool pair_room, uint32_t *id)
{
	size_t room = (size_t)(v->ehi - v->elo) + (pair_room ? (size_t)v->B * v->w : 0);
	v->E = et_xcalloc(room + 1, sizeof *v->E);
	for (uint32_t k = v->elo; k < v->ehi; k++) {
		uint32_t a = g->edge[k][0], b = g->edge[k][1];
		uint32_t ia = ld_view_ix(v, a), ib = ld_view_ix(v, b);
		if (ia != UINT32_MAX && ib != UINT32_MAX && layer[a] < l && layer[b] < l) {
			v->E[v->ne][0] = ia, v->E[v->ne][1] = ib, v->ne++;
			v->od[ia]++, id[ib]++;
		}
	}
}

void ld_view_build(ld_view *v, const ld_dag *g, const uint32_t *layer, uint32_t l, bool with_new,
                   uint32_t vocab, const ld_cond *c, bool pair_room)
{
	memset(v, 0, sizeof *v);
	window_range(v, g, layer, l, c->window);
	place(v, layer, l, with_new);
	v->F = vocab + LD_NODE_EXTRA;
	v->od = et_xcalloc((size_t)v->n + 1, sizeof *v->od);
	uint32_t *id = et_xcalloc((size_t)v->n + 1, sizeof *id);
	prefix_edges(v, g, layer, l, pair_room, id);
	const double *arity = c->arity;
	v->X = et_xcalloc((size_t)v->n * v->F + 1, sizeof *v->X);
	v->front = et_xcalloc((size_t)v->n + 1, 1);
	for (uint32_t i = 0; i < v->n; i++) {
		uint32_t u = v->node[i], d = l - layer[u];
		double *row = v->X + (size_t)i * v->F;
		row[g->attr[u] < vocab ? g->attr[u] : 0] = 1;
		row[vocab + (d < LD_DIST - 1 ? d : LD_DIST - 1)] = 1;
		row[vocab + LD_DIST] = l ? (double)layer[u] / l : 0;
		row[vocab + LD_DIST + 1] = v->od[i] / 4.0;
		row[vocab + LD_DIST + 2] = id[i] / 4.0;
		double ar = arity && g->attr[u] < vocab ? arity[g->attr[u]] : 0;
		row[vocab + LD_DIST + 3] = ar / 4;
		v->front[i] = d == 1;
		v->demand += d == 1 ? ar : 0;
	}
	free(id);
}

void ld_view_free(ld_view *v)
{
	free(v->ix), free(v->node), free(v->X), free(v->front), free(v->E), free(v->od);
	memset(v, 0, sizeof *v);
}
