/* The counts model: fitting and sampling (counts.h). */
#include "layerdag-sample/counts/counts.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How many counts a context needs before it is trusted over its back-off. */
#define CM_BACKOFF 5.0
/* Plans are drawn among this many corpus graphs of the nearest labels. */
#define CM_NEAREST 16

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static uint32_t ybucket(const cm_model *m, double y)
{
	uint32_t b = 0;
	while (b + 1 < m->nyb && y >= m->ybound[b])
		b++;
	return b;
}

/* The position bucket of layer l of L: first, last, or relative depth. */
static uint32_t pos_of(uint32_t l, uint32_t L)
{
	if (l == 0)
		return 0;
	if (l + 1 == L)
		return 1;
	uint32_t p = (uint32_t)((double)l / (L - 1) * CM_POS_MID);
	return 2 + (p < CM_POS_MID ? p : CM_POS_MID - 1);
}

static uint32_t capd(uint32_t d)
{
	return d < CM_DEG - 1 ? d : CM_DEG - 1;
}

typedef struct plan_ix {
	double y;
	size_t i;
} plan_ix;

static int plan_cmp(const void *a, const void *b)
{
	const plan_ix *x = a, *y = b;
	return x->y < y->y ? -1 : x->y > y->y ? 1 : x->i < y->i ? -1 : x->i > y->i;
}

static void fit_bounds(const ld_corpus *c, cm_model *m)
{
	double *ys = et_xcalloc(c->n ? c->n : 1, sizeof *ys);
	for (size_t i = 0; i < c->n; i++)
		ys[i] = c->g[i].y;
	qsort(ys, c->n, sizeof *ys, dbl_cmp);
	m->ybound = et_xcalloc(m->nyb, sizeof *m->ybound);
	for (uint32_t b = 0; b + 1 < m->nyb; b++)
		m->ybound[b] = c->n ? ys[(size_t)((double)(b + 1) / m->nyb * (double)c->n)] : 0;
	free(ys);
}

static void fit_plans(const ld_corpus *c, uint32_t *const *layers, const uint32_t *nl, cm_model *m)
{
	plan_ix *ix = et_xcalloc(c->n ? c->n : 1, sizeof *ix);
	size_t total = 0;
	for (size_t i = 0; i < c->n; i++) {
		ix[i] = (plan_ix){c->g[i].y, i};
		total += nl[i];
	}
	qsort(ix, c->n, sizeof *ix, plan_cmp);
	m->nplan = c->n;
	m->plan_y = et_xcalloc(c->n ? c->n : 1, sizeof *m->plan_y);
	m->plan_off = et_xcalloc(c->n + 1, sizeof *m->plan_off);
	m->plan_w = et_xcalloc(total ? total : 1, sizeof *m->plan_w);
	m->plan_aoff = et_xcalloc(c->n + 1, sizeof *m->plan_aoff);
	size_t nodes = 0;
	for (size_t i = 0; i < c->n; i++)
		nodes += c->g[i].n;
	m->plan_a = et_xcalloc(nodes ? nodes : 1, sizeof *m->plan_a);
	m->plan_od = et_xcalloc(nodes ? nodes : 1, sizeof *m->plan_od);
	m->plan_id = et_xcalloc(nodes ? nodes : 1, sizeof *m->plan_id);
	for (size_t k = 0; k < c->n; k++) {
		size_t i = ix[k].i;
		const ld_dag *g = &c->g[i];
		m->plan_y[k] = g->y;
		m->plan_off[k + 1] = m->plan_off[k] + nl[i];
		for (uint32_t v = 0; v < g->n; v++)
			m->plan_w[m->plan_off[k] + layers[i][v]]++;
		/* the attributes in layer order: a counting sort by layer */
		m->plan_aoff[k + 1] = m->plan_aoff[k] + (nl[i] ? g->n : 0);
		uint32_t *at = et_xcalloc((size_t)nl[i] + 1, sizeof *at);
		for (uint32_t l = 0; l < nl[i]; l++)
			at[l + 1] = at[l] + m->plan_w[m->plan_off[k] + l];
		uint32_t *od = et_xcalloc(g->n, sizeof *od), *id = et_xcalloc(g->n, sizeof *id);
		for (uint32_t e = 0; e < g->ne; e++)
			od[g->edge[e][0]]++, id[g->edge[e][1]]++;
		for (uint32_t v = 0; v < g->n && nl[i]; v++) {
			uint32_t at_v = m->plan_aoff[k] + at[layers[i][v]]++;
			m->plan_a[at_v] = g->attr[v];
			m->plan_od[at_v] = capd(od[v]);
			m->plan_id[at_v] = capd(id[v]);
		}
		free(od);
		free(id);
		free(at);
	}
	free(ix);
}

static void fit_graph(const ld_dag *g, const uint32_t *layer, uint32_t L, cm_model *m)
{
	uint32_t V = m->vocab, yb = ybucket(m, g->y);
	uint32_t *in = et_xcalloc(g->n, sizeof *in), *out = et_xcalloc(g->n, sizeof *out);
	for (uint32_t k = 0; k < g->ne; k++) {
		uint32_t s = g->edge[k][0], d = g->edge[k][1];
		out[s]++, in[d]++;
		m->pred[(size_t)g->attr[d] * V + g->attr[s]] += 1;
		uint32_t sp = layer[d] - layer[s];
		m->span[sp < CM_SPAN - 1 ? sp : CM_SPAN - 1] += 1;
	}
	for (uint32_t v = 0; v < g->n; v++) {
		uint32_t a = g->attr[v], p = pos_of(layer[v], L);
		m->attr_py[((size_t)p * m->nyb + yb) * V + a] += 1;
		m->attr_p[(size_t)p * V + a] += 1;
		m->attr_all[a] += 1;
		if (in[v])
			m->indeg[(size_t)a * CM_DEG + capd(in[v])] += 1;
		if (layer[v] + 1 < L) /* the last layer has no successor, whatever its kind */
			m->outdeg[(size_t)a * CM_DEG + capd(out[v])] += 1;
		if (out[v])
			m->sink[a] = 0;
	}
	free(in);
	free(out);
}

void cm_fit(const ld_corpus *c, uint32_t nyb, cm_model *m)
{
	memset(m, 0, sizeof *m);
	m->vocab = c->vocab ? c->vocab : 1;
	m->nyb = nyb ? nyb : 1;
	uint32_t V = m->vocab;
	fit_bounds(c, m);
	uint32_t **layers = et_xcalloc(c->n ? c->n : 1, sizeof *layers);
	uint32_t *nl = et_xcalloc(c->n ? c->n : 1, sizeof *nl);
	for (size_t i = 0; i < c->n; i++) {
		layers[i] = et_xcalloc(c->g[i].n, sizeof **layers);
		nl[i] = ld_layers(&c->g[i], layers[i]);
	}
	fit_plans(c, layers, nl, m);
	m->attr_py = et_xcalloc((size_t)CM_NPOS * m->nyb * V, sizeof *m->attr_py);
	m->attr_p = et_xcalloc((size_t)CM_NPOS * V, sizeof *m->attr_p);
	m->attr_all = et_xcalloc(V, sizeof *m->attr_all);
	m->indeg = et_xcalloc((size_t)V * CM_DEG, sizeof *m->indeg);
	m->outdeg = et_xcalloc((size_t)V * CM_DEG, sizeof *m->outdeg);
	m->pred = et_xcalloc((size_t)V * V, sizeof *m->pred);
	m->sink = et_xcalloc(V, 1);
	memset(m->sink, 1, V);
	for (size_t i = 0; i < c->n; i++)
		if (nl[i]) /* a cyclic graph teaches nothing about layers */
			fit_graph(&c->g[i], layers[i], nl[i], m);
	for (size_t i = 0; i < c->n; i++)
		free(layers[i]);
	free(layers);
	free(nl);
	cm_roles(m);
}

/* The index in attr_role of position p and successor flag f. */
static size_t role_ix(const cm_model *m, uint32_t p, uint32_t f)
{
	return ((size_t)p * 2 + f) * m->vocab;
}

/* m->attr_role: a redrawn node takes an attribute that the corpus shows in
 * the plan node's role, as often as it shows it there. */
static void role_counts(cm_model *m)
{
	free(m->attr_role);
	m->attr_role = et_xcalloc((size_t)CM_NPOS * 2 * m->vocab, sizeof *m->attr_role);
	for (size_t k = 0; k < m->nplan; k++) {
		uint32_t L = m->plan_off[k + 1] - m->plan_off[k];
		size_t at = m->plan_aoff[k];
		for (uint32_t l = 0; l < L; l++)
			for (uint32_t i = 0; i < m->plan_w[m->plan_off[k] + l]; i++, at++) {
				uint32_t a = m->plan_a[at], f = m->plan_od[at] > 0,
				         p = pos_of(l, L);
				if (a >= m->vocab)
					continue;
				m->attr_role[role_ix(m, p, f) + a] += 1;
			}
	}
}

/* m->span_pairs: how many pairs of nodes the plans have at each span, the
 * chances an edge had there (an edge count per span alone favours the
 * short spans every graph has over the long ones only deep graphs have). */
static void span_pairs(cm_model *m)
{
	memset(m->span_pairs, 0, sizeof m->span_pairs);
	for (size_t k = 0; k < m->nplan; k++) {
		const uint32_t *w = m->plan_w + m->plan_off[k];
		uint32_t L = m->plan_off[k + 1] - m->plan_off[k];
		/* the last bucket (every span from CM_SPAN - 1 on) by the nodes of
		 * the layers from there on: linear in a plan's depth, which an ET's
		 * thousands of layers need */
		double after = 0;
		for (uint32_t l = L; l-- > 0;) {
			if (l + CM_SPAN - 1 < L)
				after += w[l + CM_SPAN - 1];
			m->span_pairs[CM_SPAN - 1] += (double)w[l] * after;
			for (uint32_t sp = 1; sp < CM_SPAN - 1 && l + sp < L; sp++)
				m->span_pairs[sp] += (double)w[l] * w[l + sp];
		}
	}
}

void cm_roles(cm_model *m)
{
	free(m->role);
	m->role = et_xcalloc(m->vocab, 1);
	ld_roles_init(m->role, m->vocab);
	for (size_t k = 0; k < m->plan_aoff[m->nplan]; k++)
		ld_roles_add(m->role, m->plan_a[k], m->plan_id[k], m->plan_od[k]);
	ld_roles_finish(m->role, m->vocab);
	role_counts(m);
	span_pairs(m);
}

void cm_free(cm_model *m)
{
	free(m->ybound);
	free(m->plan_y);
	free(m->plan_off);
	free(m->plan_w);
	free(m->plan_aoff);
	free(m->plan_a);
	free(m->plan_od);
	free(m->plan_id);
	free(m->attr_py);
	free(m->attr_p);
	free(m->attr_all);
	free(m->indeg);
	free(m->outdeg);
	free(m->pred);
	free(m->sink);
	free(m->role);
	free(m->attr_role);
	ld_etmap_free(&m->et);
	memset(m, 0, sizeof *m);
}

/* --- sampling ------------------------------------------------------------ */
/* An index drawn with probability w[i] / Σw; n - 1 if all are 0. */
static uint32_t draw(const double *w, uint32_t n, et_rng *r)
{
	double s = 0;
	for (uint32_t i = 0; i < n; i++)
		s += w[i];
	if (s <= 0)
		return n - 1;
	double u = et_rng_unit(r) * s;
	for (uint32_t i = 0; i < n; i++) {
		if (u < w[i])
			return i;
		u -= w[i];
	}
	return n - 1;
}

/* Back-off: a context's counts mixed with its parent distribution, as if
 * the parent had given CM_BACKOFF counts. */
static void backoff(const double *c, const double *parent, uint32_t n, double *out)
{
	double ps = 0;
	for (uint32_t i = 0; i < n; i++)
		ps += parent[i];
	for (uint32_t i = 0; i < n; i++)
		out[i] = c[i] + (ps > 0 ? CM_BACKOFF * parent[i] / ps : 0);
}

/* The plan of the nearest label among the CM_NEAREST nearest that the batch has used least,
 * equal distances drawn at random. A batch of the corpus's own labels so gets each graph's own
 * plan, and any batch spreads over the corpus's graphs instead of adding the noise of
 * independent draws to its depth and width distributions; a label asked for again gets the
 * next nearest plan. */
static size_t pick_plan(const cm_model *m, double y, uint32_t *used, et_rng *r)
{
	size_t lo = 0, hi = m->nplan;
	while (lo < hi) { /* the first plan at or above y */
		size_t mid = (lo + hi) / 2;
		if (m->plan_y[mid] < y)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t a = lo, b = lo;
	while (b - a < CM_NEAREST && (a > 0 || b < m->nplan)) {
		if (a == 0 || (b < m->nplan && m->plan_y[b] - y <= y - m->plan_y[a - 1]))
			b++;
		else
			a--;
	}
	size_t best = a;
	uint32_t ties = 0;
	for (size_t k = a; k < b; k++) {
		double d = fabs(m->plan_y[k] - y), db = fabs(m->plan_y[best] - y);
		if (used[k] < used[best] || (used[k] == used[best] && d < db))
			best = k, ties = 1;
		else if (used[k] == used[best] && d == db && et_rng_below(r, ++ties) == 0)
			best = k;
	}
	used[best]++;
	return best;
}

typedef struct gen {
	const cm_model *m;
	et_rng *r;
	ld_dag *g;
	uint32_t *layer, *first;   /* each node's layer; each layer's first node */
	double *budget;            /* remaining out-degree */
	double *od0;               /* the out-degree budget as drawn */
	uint32_t *succ;            /* successors so far */
	uint32_t *ein;             /* [n + 1]: the first of the edges into each node */
	uint32_t *want;            /* the plan's in-degree of a node, 0 = drawn */
	double *w;                 /* scratch: vocab or node weights */
	double *mid;               /* scratch: vocab */
	double indeg_all[CM_DEG];  /* the in-degree profile of all attributes */
	double span_rate[CM_SPAN]; /* a pair's chance of an edge past a node's first, by span */
	double *own;               /* [1 + CM_NPOS][2][vocab]: the plan's attributes (all
	                            * positions, then each) by successor flag */
	size_t cap_e;
} gen;

/* An attribute for position pos and label bucket yb, of none of the
 * LD_ROLE_* bits in forbid. */
static uint32_t draw_attr(gen *s, uint32_t pos, uint32_t yb, uint8_t forbid)
{
	const cm_model *m = s->m;
	uint32_t V = m->vocab;
	backoff(m->attr_p + (size_t)pos * V, m->attr_all, V, s->mid);
	backoff(m->attr_py + ((size_t)pos * m->nyb + yb) * V, s->mid, V, s->w);
	for (uint32_t a = 0; a < V; a++)
		if (m->role[a] & forbid)
			s->w[a] = 0;
	return draw(s->w, V, s->r);
}

/* An attribute for a redrawn node at position pos of the plan node's role
 * (f: it has a successor), of none of the bits in forbid: the plan's own
 * attributes in that role at that position, backed off to the plan's in
 * that role anywhere, to the corpus's in that role at that position, to
 * draw_attr's position counts. The plan's own keep the graph's attribute
 * mix, which is what its label goes with (the plan is of the nearest
 * label; the surrogate's features); the role keeps the plan's structure (a
 * sink's place goes to an attribute seen as one). */
static uint32_t draw_attr_role(gen *s, uint32_t pos, uint32_t f, uint8_t forbid)
{
	const cm_model *m = s->m;
	uint32_t V = m->vocab;
	const double *chain[] = {m->attr_role + role_ix(m, pos, f), s->own + (size_t)f * V,
	                         s->own + ((size_t)2 + pos * 2 + f) * V};
	backoff(m->attr_p + (size_t)pos * V, m->attr_all, V, s->w);
	for (size_t i = 0; i < sizeof chain / sizeof *chain; i++) {
		memcpy(s->mid, s->w, V * sizeof *s->w);
		backoff(chain[i], s->mid, V, s->w);
	}
	for (uint32_t a = 0; a < V; a++)
		if (m->role[a] & forbid)
			s->w[a] = 0;
	return draw(s->w, V, s->r);
}

/* Whether node u must still get a successor. */
static bool owed(const gen *s, uint32_t u)
{
	return (s->m->role[s->g->attr[u]] & LD_ROLE_NOSINK) && s->succ[u] == 0;
}

static void add_edge(gen *s, uint32_t u, uint32_t v)
{
	ld_dag *g = s->g;
	ET_GROW(g->edge, s->cap_e, (size_t)g->ne + 1);
	g->edge[g->ne][0] = u;
	g->edge[g->ne][1] = v;
	g->ne++;
	s->succ[u]++;
	s->budget[u] = s->budget[u] > 1 ? s->budget[u] - 1 : 0;
}

/* The weight of u as a predecessor of a node in layer l whose attribute's
 * predecessor counts are aff (summing to aff_sum). A node whose budget is
 * spent is all but never taken while another has budget left: the budgets
 * are real out-degrees, and spending them is what keeps out-degree real. */
static double weight(const gen *s, uint32_t u, uint32_t l, const double *aff, double aff_sum)
{
	const cm_model *m = s->m;
	if (m->sink[s->g->attr[u]])
		return 0;
	uint32_t sp = l - s->layer[u];
	double span = s->span_rate[sp < CM_SPAN - 1 ? sp : CM_SPAN - 1];
	double af = (aff[s->g->attr[u]] + 0.5) / (aff_sum + 0.5 * m->vocab);
	return span * af * (s->budget[u] > 0 ? s->budget[u] : 1e-9);
}

/* Node v (attribute a, layer l >= 1): its in-degree, one predecessor in
 * layer l - 1, the others from any earlier layer. */
static void connect(gen *s, uint32_t v, uint32_t l)
{
	const cm_model *m = s->m;
	uint32_t a = s->g->attr[v], V = m->vocab;
	uint32_t want = s->want[v];
	if (want == 0) {
		double deg[CM_DEG];
		backoff(m->indeg + (size_t)a * CM_DEG, s->indeg_all, CM_DEG, deg);
		deg[0] = 0;
		want = draw(deg, CM_DEG, s->r);
	}
	const double *aff = m->pred + (size_t)a * V;
	double aff_sum = 0;
	for (uint32_t x = 0; x < V; x++)
		aff_sum += aff[x];
	uint32_t lo = s->first[l - 1], hi = s->first[l];
	uint32_t n = hi - lo;
	double *w = s->w;
	for (uint32_t u = lo; u < hi; u++)
		w[u - lo] = weight(s, u, l, aff, aff_sum);
	uint32_t got = 0;
	uint32_t u0 = lo + draw(w, n, s->r);
	if (!m->sink[s->g->attr[u0]]) {
		add_edge(s, u0, v);
		got = 1;
	}
	while (got < want) {
		for (uint32_t u = 0; u < hi; u++)
			w[u] = weight(s, u, l, aff, aff_sum);
		for (uint32_t k = s->g->ne; k-- > 0 && s->g->edge[k][1] == v;)
			w[s->g->edge[k][0]] = 0;
		double tot = 0;
		for (uint32_t u = 0; u < hi; u++)
			tot += w[u];
		if (tot <= 0)
			break;
		add_edge(s, draw(w, hi, s->r), v);
		got++;
	}
}

/* How readily the edge w -> v gives way to u -> v, u an owed node of the
 * layer before v's: 0 when w would be left owed; more for a w of more
 * successors, of u's layer (the edge's span kept) and for a v whose
 * attribute often reads u's; most for a w past its out-degree budget. */
static double give_way(const gen *s, uint32_t w, uint32_t v, uint32_t u)
{
	const cm_model *m = s->m;
	if (w == u || (owed(s, w) || ((m->role[s->g->attr[w]] & LD_ROLE_NOSINK) && s->succ[w] < 2)))
		return 0;
	double aff = m->pred[(size_t)s->g->attr[v] * m->vocab + s->g->attr[u]] + 0.01;
	double over = (double)s->succ[w] - s->od0[w]; /* successors past w's budget */
	return aff * (over > 0 ? 1000 * over : 1) * (s->layer[w] == s->layer[u] ? 4 : 1);
}

/* A node of an attribute never a sink still without a successor when the
 * graph is done takes one in the layer after it: the edge into that layer
 * that best gives way becomes its (in- and out-degrees but one kept), else
 * a new edge to the node whose attribute most often reads its. None is
 * owed in the last layer, whose attributes may all be sinks. */
static void pay_owed(gen *s, uint32_t L)
{
	const cm_model *m = s->m;
	ld_dag *g = s->g;
	for (uint32_t u = 0; u < s->first[L]; u++) {
		uint32_t l = s->layer[u];
		if (!owed(s, u) || l + 1 >= L)
			continue;
		uint32_t lo = s->first[l + 1], hi = s->first[l + 2], best = UINT32_MAX;
		double bw = 0;
		for (uint32_t k = s->ein[lo]; k < s->ein[hi]; k++) {
			double gw = give_way(s, g->edge[k][0], g->edge[k][1], u);
			if (gw > bw)
				bw = gw, best = k;
		}
		if (best != UINT32_MAX) {
			s->succ[g->edge[best][0]]--;
			g->edge[best][0] = u;
			s->succ[u]++;
			continue;
		}
		uint32_t bv = lo;
		for (uint32_t v = lo; v < hi; v++)
			if (m->pred[(size_t)g->attr[v] * m->vocab + g->attr[u]] >
			    m->pred[(size_t)g->attr[bv] * m->vocab + g->attr[u]])
				bv = v;
		add_edge(s, u, bv);
	}
}

/* s->span_rate: the edges of each span past each node's first (which
 * connect always takes at span 1), over the pairs the plans have there
 * (held-out edge span MMD² 0.0024 -> 0.0000 over 8 seeds). */
static void span_rates(gen *s)
{
	const cm_model *m = s->m;
	double first = 0; /* the corpus's nodes with a predecessor */
	for (uint32_t d = 0; d < CM_DEG; d++)
		first += s->indeg_all[d];
	for (uint32_t b = 0; b < CM_SPAN; b++) {
		double e = b == 1 ? fmax(m->span[b] - first, 0) : m->span[b];
		s->span_rate[b] = (e + 0.01) / (m->span_pairs[b] + 1);
	}
}

/* s->own from the plan of L layers of widths w, attributes pa, out-degrees po. */
static void own_counts(gen *s, uint32_t L, const uint32_t *w, const uint32_t *pa,
                       const uint32_t *po)
{
	uint32_t V = s->m->vocab;
	s->own = et_xcalloc((size_t)(1 + CM_NPOS) * 2 * V, sizeof *s->own);
	for (uint32_t l = 0, x = 0; l < L; l++)
		for (uint32_t k = 0; k < w[l]; k++, x++)
			if (pa[x] < V) {
				uint32_t f = po[x] > 0;
				s->own[(size_t)f * V + pa[x]] += 1;
				s->own[((size_t)2 + pos_of(l, L) * 2 + f) * V + pa[x]] += 1;
			}
}

void cm_sample(const cm_model *m, double y, uint32_t *used, et_rng *r, ld_dag *g)
{
	memset(g, 0, sizeof *g);
	g->y = y;
	size_t p = pick_plan(m, y, used, r);
	uint32_t L = m->plan_off[p + 1] - m->plan_off[p];
	const uint32_t *w = m->plan_w + m->plan_off[p];
	const uint32_t *pa = m->plan_a + m->plan_aoff[p];
	const uint32_t *po = m->plan_od + m->plan_aoff[p];
	const uint32_t *pi = m->plan_id + m->plan_aoff[p];
	uint32_t n = 0;
	for (uint32_t l = 0; l < L; l++)
		n += w[l];
	gen s = {.m = m, .r = r, .g = g};
	g->n = n;
	g->attr = et_xcalloc(n ? n : 1, sizeof *g->attr);
	s.layer = et_xcalloc(n ? n : 1, sizeof *s.layer);
	s.first = et_xcalloc((size_t)L + 1, sizeof *s.first);
	s.budget = et_xcalloc(n ? n : 1, sizeof *s.budget);
	s.succ = et_xcalloc(n ? n : 1, sizeof *s.succ);
	s.od0 = et_xcalloc(n ? n : 1, sizeof *s.od0);
	s.ein = et_xcalloc((size_t)n + 1, sizeof *s.ein);
	s.want = et_xcalloc(n ? n : 1, sizeof *s.want);
	s.w = et_xcalloc((n > m->vocab ? n : m->vocab) + 1, sizeof *s.w);
	s.mid = et_xcalloc(m->vocab, sizeof *s.mid);
	for (uint32_t x = 0; x < m->vocab; x++) /* once per graph, not per node */
		for (uint32_t d = 0; d < CM_DEG; d++)
			s.indeg_all[d] += m->indeg[(size_t)x * CM_DEG + d];
	span_rates(&s);
	own_counts(&s, L, w, pa, po);
	uint32_t yb = ybucket(m, y), v = 0;
	for (uint32_t l = 0; l < L; l++) {
		s.first[l] = v;
		bool more = l + 1 < L;
		bool has_parent_role = false;
		for (uint32_t k = 0; k < w[l]; k++, v++) {
			/* a layer before another needs a node that can be a predecessor */
			bool need = more && k + 1 == w[l] && !has_parent_role;
			/* the roles: no source never one, no sink never one */
			uint8_t forbid = (need ? LD_ROLE_SINK : 0) |
			                 (l == 0 ? LD_ROLE_NOSOURCE : 0) |
			                 (more ? 0 : LD_ROLE_NOSINK);
			uint32_t a = pa[v];
			/* a redrawn attribute keeps the plan node's role: a sink stays one, a
			 * node with successors gets an attribute that has some (unless the
			 * layer needs a predecessor, which a real plan's has already) */
			if (!need)
				forbid |= po[v] ? LD_ROLE_SINK : LD_ROLE_NOSINK;
			/* a redrawn node keeps the plan's in-degree too: its role kept, its
			 * place in the plan is the same (in-degree MMD² 0.0016 -> -0.0005) */
			s.want[v] = pi[v];
			if (et_rng_unit(r) < CM_REDRAW || a >= m->vocab || (m->role[a] & forbid))
				a = need ? draw_attr(&s, pos_of(l, L), yb, forbid)
				         : draw_attr_role(&s, pos_of(l, L), po[v] > 0, forbid);
			/* the plan's out-degree too, whatever the attribute: the budgets are
			 * the plan's, balanced with its in-degrees (out-degree MMD² 0.0058 ->
			 * 0.0017 over 8 seeds) */
			s.budget[v] = m->sink[a] ? 0 : po[v];
			g->attr[v] = a;
			has_parent_role |= !m->sink[g->attr[v]];
			s.layer[v] = l;
		}
		s.first[l + 1] = v;
		for (uint32_t u = s.first[l]; u < v; u++) {
			s.ein[u] = g->ne; /* a node's edges in are the ones connect adds */
			if (l > 0)
				connect(&s, u, l);
			s.ein[u + 1] = g->ne;
			s.od0[u] = s.budget[u];
		}
	}
	pay_owed(&s, L);
	free(s.layer);
	free(s.first);
	free(s.budget);
	free(s.succ);
	free(s.od0);
	free(s.ein);
	free(s.want);
	free(s.w);
	free(s.mid);
	free(s.own);
}
