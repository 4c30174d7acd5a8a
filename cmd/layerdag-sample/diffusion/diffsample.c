/* Sampling with the diffusion model (diffsample.h). */
#include "layerdag-sample/diffusion/diffsample.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t draw(const double *p, uint32_t n, et_rng *r)
{
	double s = 0, u;
	for (uint32_t i = 0; i < n; i++)
		s += p[i];
	u = et_rng_unit(r) * s;
	for (uint32_t i = 0; i < n; i++) {
		if (u < p[i])
			return i;
		u -= p[i];
	}
	return n - 1;
}

typedef struct grow {
	ld_dag *g;
	uint32_t *layer, *succ; /* each node's layer and successors so far */
	size_t capn, cape;
} grow;

static bool is_sink(const ld_diffusion *m, uint32_t a)
{
	return m->role[a] & LD_ROLE_SINK;
}

static void add_node(grow *w, uint32_t attr, uint32_t l)
{
	ld_dag *g = w->g;
	size_t c = w->capn, c2 = w->capn; /* parallel arrays: the same growth */
	ET_GROW(g->attr, w->capn, (size_t)g->n + 1);
	ET_GROW(w->layer, c, (size_t)g->n + 1);
	ET_GROW(w->succ, c2, (size_t)g->n + 1);
	w->succ[g->n] = 0;
	g->attr[g->n] = attr;
	w->layer[g->n++] = l;
}

static void add_edge(grow *w, uint32_t u, uint32_t v)
{
	ld_dag *g = w->g;
	ET_GROW(g->edge, w->cape, (size_t)g->ne + 1);
	g->edge[g->ne][0] = u, g->edge[g->ne][1] = v;
	g->ne++;
	w->succ[u]++;
}

/* Whether some attribute of the corpus has been both a source and a sink:
 * a graph of one layer needs one (in the TpuGraphs corpus none has). */
static bool one_layer_ok(const ld_diffusion *m)
{
	for (uint32_t a = 0; a < m->a.vocab; a++)
		if ((m->role[a] & LD_ROLE_SEEN) &&
		    !(m->role[a] & (LD_ROLE_NOSINK | LD_ROLE_NOSOURCE)))
			return true;
	return false;
}

/* The size of layer l (>= 1) and whether it is the last (*last). */
static uint32_t layer_size(ld_diffusion *m, grow *w, uint32_t l, int *last, et_rng *r)
{
	uint32_t S = m->z.S;
	double *p = et_xcalloc(2 * S, sizeof *p), mx = -INFINITY;
	ld_sizer_step(&m->z, w->g, w->layer, l, -1, p);
	for (uint32_t k = 0; k < 2 * S; k++)
		mx = p[k] > mx ? p[k] : mx;
	for (uint32_t k = 0; k < 2 * S; k++)
		p[k] = exp(p[k] - mx);
	p[0] = p[S] = 0;                /* no layer is empty */
	if (l == 0 && !one_layer_ok(m)) /* its nodes would be sources and sinks */
		for (uint32_t k = S; k < 2 * S; k++)
			p[k] = 0;
	uint32_t c = draw(p, 2 * S, r);
	free(p);
	*last = c >= S;
	return c % S;
}

/* Whether attribute a was seen in the corpus, with none of the roles in
 * forbid. */
static bool allowed(const ld_diffusion *m, uint32_t a, uint8_t forbid)
{
	return (m->role[a] & LD_ROLE_SEEN) && !(m->role[a] & forbid);
}

/* The roles of the layer's place: a node of an attribute with one of the
 * LD_ROLE_* bits in forbid, or that the corpus never had (its roles are
 * unknown), takes the allowed attribute of largest predicted probability
 * (probs: the last step's x̂_0). */
static void keep_roles(const ld_diffusion *m, uint32_t *x, uint32_t s, const double *probs,
                       uint8_t forbid)
{
	uint32_t V = m->a.vocab;
	for (uint32_t i = 0; i < s; i++) {
		if (allowed(m, x[i], forbid))
			continue;
		const double *p = probs + (size_t)i * V;
		uint32_t bk = UINT32_MAX;
		for (uint32_t k = 0; k < V; k++)
			if (allowed(m, k, forbid) && (bk == UINT32_MAX || p[k] > p[bk]))
				bk = k;
		if (bk != UINT32_MAX)
			x[i] = bk;
	}
}

/* A layer before another needs a node that may have successors: if the
 * denoiser left only sink roles, the non-sink attribute of largest
 * predicted probability (probs: the last step's x̂_0) replaces one (nor of
 * a role in forbid). */
static void keep_parent(const ld_diffusion *m, uint32_t *x, uint32_t s, const double *probs,
                        uint8_t forbid)
{
	uint32_t V = m->a.vocab, bi = UINT32_MAX, bk = 0;
	for (uint32_t i = 0; i < s; i++)
		if (!is_sink(m, x[i]))
			return;
	for (uint32_t i = 0; i < s; i++)
		for (uint32_t k = 0; k < V; k++)
			if (!is_sink(m, k) && allowed(m, k, forbid) &&
			    (bi == UINT32_MAX ||
			     probs[(size_t)i * V + k] > probs[(size_t)bi * V + bk]))
				bi = i, bk = k;
	if (bi != UINT32_MAX)
		x[bi] = bk;
}

static void attributes(ld_diffusion *m, grow *w, uint32_t l, uint32_t first, uint32_t s, int last,
                       et_rng *r)
{
	ld_attrdiff *a = &m->a;
	uint32_t V = a->vocab;
	uint32_t *x = et_xcalloc(s, sizeof *x);
	double *probs = et_xcalloc((size_t)s * V, sizeof *probs),
	       *post = et_xcalloc(V, sizeof *post);
	for (uint32_t i = 0; i < s; i++)
		x[i] = draw(a->marginal, V, r);
	for (int t = a->sched.T; t >= 1; t--) {
		ld_attrdiff_predict(a, w->g, w->layer, l, t, last, x, probs);
		for (uint32_t i = 0; i < s; i++) {
			ld_posterior(&a->sched, t, a->marginal, (int)V, (int)x[i],
			             probs + (size_t)i * V, post);
			x[i] = draw(post, V, r);
		}
	}
	/* no source never one in the first layer, no sink never one in the last */
	uint8_t forbid = (l == 0 ? LD_ROLE_NOSOURCE : 0) | (last ? LD_ROLE_NOSINK : 0);
	keep_roles(m, x, s, probs, forbid);
	if (!last)
		keep_parent(m, x, s, probs, forbid);
	for (uint32_t i = 0; i < s; i++)
		w->g->attr[first + i] = x[i];
	free(x);
	free(probs);
	free(post);
}

/* The candidates of a new layer: the nodes of the window before it, from
 * node lo on (the sampler grows graphs in layer order); attr and layer
 * point at lo's. */
typedef struct cands {
	uint32_t lo, B;
	const uint32_t *attr, *layer;
} cands;

/* One draw of x̂_0's column j (new node j's predecessors, into x0[B]) from
 * the predicted P(edge) pe[B × s], structured as the data are: the
 * predecessor count k is the predicted in-degree Σ_u pe rounded at random
 * (at least 1), the first predecessor comes from the layer just before and
 * the others from any earlier layer, without replacement, each in
 * proportion to pe; sink roles are never drawn. Drawing the pairs
 * independently gave two predecessors to a node whose one predecessor was
 * uncertain between two alike candidates (in-degree 2 twice as often as in
 * the corpus), and the denoiser, trained on x_t ~ q(x_t | x_0), trusts such
 * edges at small t instead of removing one. */
static void draw_column(const ld_diffusion *m, const cands *c, uint32_t l, const double *pe,
                        uint32_t s, uint32_t j, uint8_t *x0, et_rng *r)
{
	uint32_t B = c->B;
	double *q = et_xcalloc(B + 1, sizeof *q), tot = 0, prev = 0;
	for (uint32_t u = 0; u < B; u++) {
		x0[u] = 0;
		if (!is_sink(m, c->attr[u]))
			q[u] = pe[(size_t)u * s + j] + 1e-12; /* a candidate, however unlikely */
		tot += q[u];
		if (c->layer[u] + 1 == l)
			prev += q[u];
	}
	double want = tot > 0 ? tot : 0;
	uint32_t k = (uint32_t)want + (et_rng_unit(r) < want - floor(want));
	k = k ? k : 1;
	for (uint32_t n = 0; n < k && tot > 1e-300; n++) {
		/* the first from the layer before (when it has a candidate) */
		bool first = n == 0 && prev > 0;
		double u0 = et_rng_unit(r) * (first ? prev : tot);
		uint32_t pick = UINT32_MAX;
		for (uint32_t u = 0; u < B && pick == UINT32_MAX; u++) {
			double qu = first && c->layer[u] + 1 != l ? 0 : q[u];
			if (qu > 0 && (u0 < qu || u + 1 == B))
				pick = u;
			u0 -= qu;
		}
		for (uint32_t u = B; pick == UINT32_MAX && u-- > 0;) /* rounding: the last */
			if (q[u] > 0 && (!first || c->layer[u] + 1 == l))
				pick = u;
		if (pick == UINT32_MAX)
			break;
		x0[pick] = 1;
		tot -= q[pick];
		q[pick] = 0;
	}
	free(q);
}

/* A new node without a predecessor in the layer before: the most likely
 * one there takes the place of the least likely one it has elsewhere (the
 * in-degree kept). e and pe: column j of [B × s]. */
static void keep_kahn(const ld_diffusion *m, const cands *c, uint32_t l, const double *pe,
                      uint32_t s, uint32_t j, uint8_t *e)
{
	bool prev = false;
	for (uint32_t u = 0; u < c->B; u++) {
		size_t p = (size_t)u * s + j;
		if (is_sink(m, c->attr[u]))
			e[p] = 0;
		prev |= e[p] && c->layer[u] + 1 == l;
	}
	if (prev)
		return;
	uint32_t best = UINT32_MAX, worst = UINT32_MAX;
	for (uint32_t u = 0; u < c->B; u++) {
		double pu = pe[(size_t)u * s + j];
		if (c->layer[u] + 1 == l && !is_sink(m, c->attr[u]) &&
		    (best == UINT32_MAX || pu > pe[(size_t)best * s + j]))
			best = u;
		if (e[(size_t)u * s + j] && (worst == UINT32_MAX || pu < pe[(size_t)worst * s + j]))
			worst = u;
	}
	if (best != UINT32_MAX) {
		if (worst != UINT32_MAX)
			e[(size_t)worst * s + j] = 0;
		e[(size_t)best * s + j] = 1;
	}
}

/* Whether candidate u (of node lo + u) may lose one successor. */
static bool spare(const ld_diffusion *m, const grow *w, const cands *c, const uint32_t *got,
                  uint32_t u)
{
	return !(m->role[c->attr[u]] & LD_ROLE_NOSINK) || w->succ[c->lo + u] + got[u] > 1;
}

/* A candidate of the layer before whose attribute is never a sink and that
 * got no successor (none in the prefix, none in e) is owed one: it becomes
 * a predecessor of the new node it is the likeliest one of, in place of
 * that node's least likely other predecessor with successors to spare (the
 * in-degree kept), else in addition. */
static void pay_owed(const ld_diffusion *m, const grow *w, const cands *c, uint32_t l,
                     const double *pe, uint32_t s, uint8_t *e)
{
	uint32_t *got = et_xcalloc(c->B + 1, sizeof *got);
	for (uint32_t u = 0; u < c->B; u++)
		for (uint32_t j = 0; j < s; j++)
			got[u] += e[(size_t)u * s + j];
	for (uint32_t u = 0; u < c->B; u++) {
		if (c->layer[u] + 1 != l || !(m->role[c->attr[u]] & LD_ROLE_NOSINK) || got[u] ||
		    w->succ[c->lo + u])
			continue;
		uint32_t bj = 0;
		for (uint32_t j = 1; j < s; j++)
			if (pe[(size_t)u * s + j] > pe[(size_t)u * s + bj])
				bj = j;
		uint32_t worst = UINT32_MAX;
		for (uint32_t x = 0; x < c->B; x++)
			if (e[(size_t)x * s + bj] && spare(m, w, c, got, x) &&
			    (worst == UINT32_MAX ||
			     pe[(size_t)x * s + bj] < pe[(size_t)worst * s + bj]))
				worst = x;
		if (worst != UINT32_MAX) {
			e[(size_t)worst * s + bj] = 0;
			got[worst]--;
		}
		e[(size_t)u * s + bj] = 1;
		got[u]++;
	}
	free(got);
}

static void edges(ld_diffusion *m, grow *w, uint32_t l, uint32_t first, uint32_t s, et_rng *r)
{
	ld_edgediff *d = &m->e;
	/* the nodes of the window before the layer are its candidates */
	uint32_t lo = ld_window_lo(w->layer, first, l, d->cond.window);
	cands c = {lo, first - lo, w->g->attr + lo, w->layer + lo};
	uint32_t B = c.B;
	size_t np = (size_t)B * s;
	double rho = ld_edgediff_rho(d, B), mk[2] = {1 - rho, rho}, post[2], p0[2];
	uint8_t *e = et_xcalloc(np, 1), *x0 = et_xcalloc(B + 1, 1);
	double *pe = et_xcalloc(np, sizeof *pe);
	for (size_t p = 0; p < np; p++)
		e[p] = et_rng_unit(r) < rho;
	for (int t = d->sched.T; t >= 1; t--) {
		ld_edgediff_predict(d, w->g, w->layer, l, t, e, pe);
		for (uint32_t j = 0; j < s; j++) {
			/* x_{t−1} ~ q(x_{t−1} | x_t, x̂_0) for one structured draw of x̂_0 */
			draw_column(m, &c, l, pe, s, j, x0, r);
			for (uint32_t u = 0; u < B; u++) {
				size_t p = (size_t)u * s + j;
				p0[0] = !x0[u], p0[1] = x0[u];
				ld_posterior(&d->sched, t, mk, 2, e[p], p0, post);
				e[p] = et_rng_unit(r) < post[1];
			}
		}
	}
	free(x0);
	for (uint32_t j = 0; j < s; j++)
		keep_kahn(m, &c, l, pe, s, j, e);
	pay_owed(m, w, &c, l, pe, s, e);
	for (uint32_t j = 0; j < s; j++) {
		for (uint32_t u = 0; u < B; u++)
			if (e[(size_t)u * s + j])
				add_edge(w, lo + u, first + j);
	}
	free(e);
	free(pe);
}

void ld_diff_sample(ld_diffusion *m, double y, et_rng *r, uint32_t max_layers, ld_dag *out)
{
	memset(out, 0, sizeof *out);
	out->y = y;
	grow w = {.g = out};
	int last = 0;
	for (uint32_t l = 0; l < max_layers && !last; l++) {
		uint32_t s = layer_size(m, &w, l, &last, r);
		last |= l + 1 == max_layers;
		uint32_t first = out->n;
		for (uint32_t i = 0; i < s; i++)
			add_node(&w, 0, l);
		attributes(m, &w, l, first, s, last, r);
		if (l > 0)
			edges(m, &w, l, first, s, r);
	}
	free(w.layer);
	free(w.succ);
}
