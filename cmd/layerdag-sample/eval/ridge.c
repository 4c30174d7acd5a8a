/* The surrogate benchmark: ridge regression of the label on structural
 * features (metrics.h). Features: the attribute histogram (normalized), the
 * node count, the layer count, the widest and the mean layer width, edges
 * per node; standardized on the training set; λ = 1. The normal equations
 * are formed with BLAS (dsyrk, dgemv) and solved with LAPACK (dposv), on
 * one thread so that the report is the same bytes every run. */
#include "et_mem.h"
#include "layerdag-sample/eval/metrics.h"

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static size_t n_features(uint32_t vocab)
{
	return (size_t)vocab + 5;
}

static void features(const ld_dag *g, uint32_t vocab, double *f)
{
	memset(f, 0, n_features(vocab) * sizeof *f);
	for (uint32_t i = 0; i < g->n; i++)
		if (g->attr[i] < vocab)
			f[g->attr[i]] += 1.0 / g->n;
	uint32_t *layer = et_xcalloc(g->n, sizeof *layer);
	uint32_t nl = ld_layers(g, layer);
	uint32_t *w = et_xcalloc(nl ? nl : 1, sizeof *w), wmax = 0;
	for (uint32_t i = 0; i < g->n && nl; i++)
		w[layer[i]]++;
	for (uint32_t l = 0; l < nl; l++)
		wmax = w[l] > wmax ? w[l] : wmax;
	double *x = f + vocab;
	x[0] = g->n;
	x[1] = nl;
	x[2] = wmax;
	x[3] = nl ? (double)g->n / nl : 0;
	x[4] = (double)g->ne / g->n;
	free(w);
	free(layer);
}

static double pearson(const double *a, const double *b, size_t n)
{
	double ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0;
	for (size_t i = 0; i < n; i++)
		ma += a[i], mb += b[i];
	ma /= (double)n, mb /= (double)n;
	for (size_t i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0;
}

static const double *rank_base;
static int by_value(const void *x, const void *y)
{
	double a = rank_base[*(const size_t *)x], b = rank_base[*(const size_t *)y];
	return a < b ? -1 : a > b;
}

/* Ranks from 1, ties given their mean rank. */
static void ranks(const double *v, size_t n, double *r)
{
	size_t *ix = et_xcalloc(n, sizeof *ix);
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	rank_base = v;
	qsort(ix, n, sizeof *ix, by_value);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[ix[j + 1]] == v[ix[i]])
			j++;
		for (size_t k = i; k <= j; k++)
			r[ix[k]] = (double)(i + j) / 2 + 1;
		i = j + 1;
	}
	free(ix);
}

ld_surrogate ld_surrogate_score(const ld_dag *const *tr, size_t ntr, const ld_dag *const *te,
                                size_t nte, uint32_t vocab)
{
	ld_surrogate s = {0};
	size_t d = n_features(vocab);
	openblas_set_num_threads(1); /* the same sums in the same order: the same bytes */
	if (ntr < 2 || nte < 2)
		return s;
	double *X = et_xcalloc(ntr * d, sizeof *X), *y = et_xcalloc(ntr, sizeof *y);
	double *mu = et_xcalloc(d, sizeof *mu), *sd = et_xcalloc(d, sizeof *sd);
	double ym = 0;
	for (size_t i = 0; i < ntr; i++) {
		features(tr[i], vocab, X + i * d);
		y[i] = tr[i]->y;
		ym += y[i];
	}
	ym /= (double)ntr;
	for (size_t j = 0; j < d; j++) {
		for (size_t i = 0; i < ntr; i++)
			mu[j] += X[i * d + j];
		mu[j] /= (double)ntr;
		for (size_t i = 0; i < ntr; i++)
			sd[j] += (X[i * d + j] - mu[j]) * (X[i * d + j] - mu[j]);
		sd[j] = sqrt(sd[j] / (double)ntr);
		if (sd[j] == 0)
			sd[j] = 1;
		for (size_t i = 0; i < ntr; i++)
			X[i * d + j] = (X[i * d + j] - mu[j]) / sd[j];
	}
	for (size_t i = 0; i < ntr; i++)
		y[i] -= ym;
	/* (XᵀX + λI) w = Xᵀy */
	double *A = et_xcalloc(d * d, sizeof *A), *w = et_xcalloc(d, sizeof *w);
	cblas_dsyrk(CblasRowMajor, CblasUpper, CblasTrans, (int)d, (int)ntr, 1.0, X, (int)d, 0.0, A,
	            (int)d);
	for (size_t j = 0; j < d; j++)
		A[j * d + j] += 1.0;
	cblas_dgemv(CblasRowMajor, CblasTrans, (int)ntr, (int)d, 1.0, X, (int)d, y, 1, 0.0, w, 1);
	if (LAPACKE_dposv(LAPACK_ROW_MAJOR, 'U', (int)d, 1, A, (int)d, w, 1) != 0)
		memset(w, 0, d * sizeof *w);
	double *pred = et_xcalloc(nte, sizeof *pred), *truth = et_xcalloc(nte, sizeof *truth);
	double *f = et_xcalloc(d, sizeof *f);
	for (size_t i = 0; i < nte; i++) {
		features(te[i], vocab, f);
		double p = ym;
		for (size_t j = 0; j < d; j++)
			p += w[j] * (f[j] - mu[j]) / sd[j];
		pred[i] = p;
		truth[i] = te[i]->y;
		s.mae += fabs(p - truth[i]);
	}
	s.mae /= (double)nte;
	s.pearson = pearson(pred, truth, nte);
	double *rp = et_xcalloc(nte, sizeof *rp), *rt = et_xcalloc(nte, sizeof *rt);
	ranks(pred, nte, rp);
	ranks(truth, nte, rt);
	s.spearman = pearson(rp, rt, nte);
	free(rp);
	free(rt);
	free(f);
	free(pred);
	free(truth);
	free(A);
	free(w);
	free(X);
	free(y);
	free(mu);
	free(sd);
	return s;
}
