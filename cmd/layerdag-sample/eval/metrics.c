/* eval's statistics, MMD², roles and hashes (metrics.h). */
#include "layerdag-sample/eval/metrics.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const ld_stat_name[NSTATS] = {"in-degree",   "out-degree", "layer width",
                                          "layer count", "attributes", "edge layer span"};

/* Caps of the histograms: the last bin holds everything at or above it. */
static const uint32_t cap[NSTATS] = {10, 20, 25, 40, 0, 10};

size_t ld_stat_dim(int st, uint32_t vocab)
{
	return st == ST_ATTR ? (vocab ? vocab : 1) : (size_t)cap[st] + 1;
}

static void bump(double *h, size_t dim, uint64_t v)
{
	h[v < dim - 1 ? v : dim - 1] += 1;
}

void ld_stat_hist(const ld_dag *g, int st, uint32_t vocab, double *h)
{
	size_t dim = ld_stat_dim(st, vocab);
	memset(h, 0, dim * sizeof *h);
	uint32_t *deg = et_xcalloc(g->n, sizeof *deg), *layer = et_xcalloc(g->n, sizeof *layer);
	uint32_t nl = st == ST_WIDTH || st == ST_LAYERS || st == ST_SPAN ? ld_layers(g, layer) : 0;
	switch (st) {
	case ST_INDEG:
	case ST_OUTDEG:
		for (uint32_t k = 0; k < g->ne; k++)
			deg[g->edge[k][st == ST_INDEG ? 1 : 0]]++;
		for (uint32_t i = 0; i < g->n; i++)
			bump(h, dim, deg[i]);
		break;
	case ST_WIDTH: {
		uint32_t *w = et_xcalloc(nl ? nl : 1, sizeof *w);
		for (uint32_t i = 0; i < g->n && nl; i++)
			w[layer[i]]++;
		for (uint32_t l = 0; l < nl; l++)
			bump(h, dim, w[l]);
		free(w);
		break;
	}
	case ST_LAYERS:
		bump(h, dim, nl);
		break;
	case ST_ATTR:
		for (uint32_t i = 0; i < g->n; i++)
			if (g->attr[i] < dim)
				h[g->attr[i]] += 1;
		break;
	case ST_SPAN:
		for (uint32_t k = 0; k < g->ne && nl; k++)
			bump(h, dim, layer[g->edge[k][1]] - layer[g->edge[k][0]]);
		break;
	}
	free(deg);
	free(layer);
	double s = 0;
	for (size_t i = 0; i < dim; i++)
		s += h[i];
	for (size_t i = 0; i < dim && s > 0; i++)
		h[i] /= s;
}

static double kernel(const double *p, const double *q, size_t dim, double sigma)
{
	double tv = 0;
	for (size_t i = 0; i < dim; i++)
		tv += fabs(p[i] - q[i]);
	tv /= 2;
	return exp(-tv * tv / (2 * sigma * sigma));
}

/* The mean kernel value over pairs (a_i, b_j); within one set (same),
 * over i != j. */
static double mean_k(const double *a, size_t na, const double *b, size_t nb, size_t dim,
                     double sigma, bool same)
{
	double s = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t j = same ? i + 1 : 0; j < nb; j++)
			s += kernel(a + i * dim, b + j * dim, dim, sigma);
	if (same)
		return na > 1 ? 2 * s / ((double)na * (double)(na - 1)) : 0;
	return na && nb ? s / ((double)na * (double)nb) : 0;
}

double ld_mmd2(const double *a, size_t na, const double *b, size_t nb, size_t dim, double sigma)
{
	return mean_k(a, na, a, na, dim, sigma, true) + mean_k(b, nb, b, nb, dim, sigma, true) -
	       2 * mean_k(a, na, b, nb, dim, sigma, false);
}

/* The histograms of statistic st for graphs gs[0..n). */
static double *hists(const ld_dag *const *gs, size_t n, int st, uint32_t vocab)
{
	size_t dim = ld_stat_dim(st, vocab);
	double *h = et_xcalloc(n ? n * dim : 1, sizeof *h);
	for (size_t i = 0; i < n; i++)
		ld_stat_hist(gs[i], st, vocab, h + i * dim);
	return h;
}

/* --- hashing ------------------------------------------------------------- */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The sum of mixed neighbour labels is order-free, which a multiset needs. */
uint64_t ld_graph_hash(const ld_dag *g)
{
	uint64_t *lab = et_xcalloc(g->n, sizeof *lab), *out = et_xcalloc(g->n, sizeof *out),
	         *in = et_xcalloc(g->n, sizeof *in);
	for (uint32_t i = 0; i < g->n; i++)
		lab[i] = mix(g->attr[i]);
	for (int round = 0; round < 4; round++) {
		memset(out, 0, g->n * sizeof *out);
		memset(in, 0, g->n * sizeof *in);
		for (uint32_t k = 0; k < g->ne; k++) {
			out[g->edge[k][0]] += mix(lab[g->edge[k][1]] ^ 0x51);
			in[g->edge[k][1]] += mix(lab[g->edge[k][0]] ^ 0xa7);
		}
		for (uint32_t i = 0; i < g->n; i++)
			lab[i] = mix(lab[i] ^ mix(out[i]) ^ mix(in[i] + 1));
	}
	qsort(lab, g->n, sizeof *lab, u64_cmp);
	uint64_t h = mix(((uint64_t)g->n << 32) | g->ne);
	for (uint32_t i = 0; i < g->n; i++)
		h = mix(h ^ lab[i]);
	free(lab);
	free(out);
	free(in);
	return h;
}

/* --- roles --------------------------------------------------------------- */
/* The rules of REAL's roles that SYNTH's graphs break (ld.h). */
static void roles(const ld_corpus *real, const ld_corpus *synth, uint32_t vocab, ld_eval *r)
{
	r->vocab = vocab;
	r->role = et_xcalloc(vocab, 1);
	ld_roles_fit(real, vocab, r->role);
	size_t ok = 0, broken[LD_NRULES] = {0};
	for (size_t i = 0; i < synth->n; i++) {
		unsigned b = ld_roles_broken(&synth->g[i], r->role, vocab);
		ok += b == 0;
		for (int k = 0; k < LD_NRULES; k++)
			broken[k] += (b >> k) & 1;
	}
	double n = synth->n ? (double)synth->n : 1;
	r->role_validity = synth->n ? (double)ok / n : 0;
	for (int k = 0; k < LD_NRULES; k++)
		r->role_broken[k] = (double)broken[k] / n;
}

static const ld_dag **ptrs(const ld_corpus *c)
{
	const ld_dag **p = et_xcalloc(c->n ? c->n : 1, sizeof *p);
	for (size_t i = 0; i < c->n; i++)
		p[i] = &c->g[i];
	return p;
}

static void novelty(const ld_corpus *real, const ld_corpus *synth, ld_eval *r)
{
	uint64_t *rh = et_xcalloc(real->n ? real->n : 1, sizeof *rh);
	uint64_t *sh = et_xcalloc(synth->n ? synth->n : 1, sizeof *sh);
	for (size_t i = 0; i < real->n; i++)
		rh[i] = ld_graph_hash(&real->g[i]);
	for (size_t i = 0; i < synth->n; i++)
		sh[i] = ld_graph_hash(&synth->g[i]);
	qsort(rh, real->n, sizeof *rh, u64_cmp);
	size_t novel = 0;
	for (size_t i = 0; i < synth->n; i++)
		novel += !bsearch(&sh[i], rh, real->n, sizeof *rh, u64_cmp);
	qsort(sh, synth->n, sizeof *sh, u64_cmp);
	size_t uniq = 0;
	for (size_t i = 0; i < synth->n; i++)
		uniq += i == 0 || sh[i] != sh[i - 1];
	r->novelty = synth->n ? (double)novel / (double)synth->n : 0;
	r->uniqueness = synth->n ? (double)uniq / (double)synth->n : 0;
	free(rh);
	free(sh);
}

/* The ridge regressor trained on real graphs, 5 folds by index. */
static ld_surrogate real_cv(const ld_dag **rp, size_t n, uint32_t vocab)
{
	ld_surrogate sum = {0};
	int folds = 0;
	for (int f = 0; f < 5; f++) {
		const ld_dag **tr = et_xcalloc(n ? n : 1, sizeof *tr),
		             **te = et_xcalloc(n ? n : 1, sizeof *te);
		size_t ntr = 0, nte = 0;
		for (size_t i = 0; i < n; i++) {
			if ((int)(i % 5) == f)
				te[nte++] = rp[i];
			else
				tr[ntr++] = rp[i];
		}
		if (ntr > 1 && nte > 1) {
			ld_surrogate s = ld_surrogate_score(tr, ntr, te, nte, vocab);
			sum.pearson += s.pearson, sum.spearman += s.spearman, sum.mae += s.mae;
			folds++;
		}
		free(tr);
		free(te);
	}
	if (folds)
		sum.pearson /= folds, sum.spearman /= folds, sum.mae /= folds;
	return sum;
}

void ld_eval_run(const ld_corpus *real, const ld_corpus *synth, ld_eval *r)
{
	memset(r, 0, sizeof *r);
	r->n_real = real->n;
	r->n_synth = synth->n;
	uint32_t vocab = real->vocab > synth->vocab ? real->vocab : synth->vocab;
	size_t valid = 0;
	for (size_t i = 0; i < synth->n; i++)
		valid += ld_valid(&synth->g[i]);
	r->validity = synth->n ? (double)valid / (double)synth->n : 0;
	roles(real, synth, vocab ? vocab : 1, r);
	const ld_dag **rp = ptrs(real), **sp = ptrs(synth);
	/* the floor: the real graphs' even half against their odd half */
	const ld_dag **even = et_xcalloc(real->n / 2 + 1, sizeof *even),
	             **odd = et_xcalloc(real->n / 2 + 1, sizeof *odd);
	size_t ne = 0, no = 0;
	for (size_t i = 0; i < real->n; i++) {
		if (i % 2)
			odd[no++] = rp[i];
		else
			even[ne++] = rp[i];
	}
	for (int st = 0; st < NSTATS; st++) {
		size_t dim = ld_stat_dim(st, vocab);
		double *hr = hists(rp, real->n, st, vocab), *hs = hists(sp, synth->n, st, vocab);
		double *he = hists(even, ne, st, vocab), *ho = hists(odd, no, st, vocab);
		r->mmd[st] = ld_mmd2(hr, real->n, hs, synth->n, dim, LD_SIGMA);
		r->floor[st] = ld_mmd2(he, ne, ho, no, dim, LD_SIGMA);
		free(hr);
		free(hs);
		free(he);
		free(ho);
	}
	novelty(real, synth, r);
	r->synth_on_real = ld_surrogate_score(sp, synth->n, rp, real->n, vocab);
	r->real_cv = real_cv(rp, real->n, vocab);
	free(even);
	free(odd);
	free(rp);
	free(sp);
}

void ld_eval_free(ld_eval *r)
{
	free(r->role);
	memset(r, 0, sizeof *r);
}
