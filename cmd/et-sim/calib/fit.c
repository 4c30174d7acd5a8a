/* Band fits of collective timings (see fit.h). */
#include "et-sim/calib/fit.h"
#include "et_mem.h"

#include <lapacke.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HUBER_PASSES 3

/* alpha and x for rows [a, b) with weights w: minimises
 * sum w ((alpha + S x - t) / t)^2 with alpha, x >= 0. The size column is
 * scaled to at most 1 so that the QR factorisation sees columns of one
 * magnitude. */
static void line(const double *S, const double *t, const double *w, size_t a, size_t b,
                 double *alpha, double *x)
{
	size_t m = b - a;
	double smax = S[b - 1] > 0 ? S[b - 1] : 1;
	double *A = et_xmalloc(2 * m * sizeof *A), *y = et_xmalloc(m * sizeof *y);
	for (size_t i = 0; i < m; i++) {
		double s = sqrt(w[a + i]) / t[a + i];
		A[i * 2] = s;
		A[i * 2 + 1] = s * S[a + i] / smax;
		y[i] = sqrt(w[a + i]);
	}
	lapack_int info = LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', (lapack_int)m, 2, 1, A, 2, y, 1);
	*alpha = info == 0 ? y[0] : -1;
	*x = info == 0 ? y[1] / smax : -1;
	free(A);
	free(y);
	if (*alpha >= 0 && *x >= 0)
		return;
	/* one parameter at its bound of 0: the other in closed form */
	double num = 0, den = 0;
	bool lat = *x < 0 || info != 0; /* keep alpha, drop x */
	for (size_t i = a; i < b; i++) {
		double u = lat ? 1 / t[i] : S[i] / t[i];
		num += w[i] * u, den += w[i] * u * u;
	}
	double v = den > 0 ? num / den : 0;
	*alpha = lat ? v : 0;
	*x = lat ? 0 : v;
}

static int cmp_double(const void *p, const void *q)
{
	double a = *(const double *)p, b = *(const double *)q;
	return a < b ? -1 : a > b;
}

/* A robust line over rows [a, b): Huber weights from the residuals'
 * median absolute deviation. Returns the sum of squared relative errors
 * of the final line. */
static double robust(const double *S, const double *t, size_t a, size_t b, cal_band *out)
{
	size_t m = b - a;
	double *w = et_xmalloc(b * sizeof *w), *r = et_xmalloc(m * sizeof *r);
	for (size_t i = 0; i < b; i++)
		w[i] = 1;
	double alpha = 0, x = 0;
	for (int pass = 0; pass < HUBER_PASSES; pass++) {
		line(S, t, w, a, b, &alpha, &x);
		for (size_t i = 0; i < m; i++)
			r[i] = fabs((alpha + S[a + i] * x - t[a + i]) / t[a + i]);
		double *s = et_xmalloc(m * sizeof *s);
		memcpy(s, r, m * sizeof *s);
		qsort(s, m, sizeof *s, cmp_double);
		double mad = 1.4826 * s[m / 2], k = 1.345 * (mad > 1e-4 ? mad : 1e-4);
		free(s);
		for (size_t i = 0; i < m; i++)
			w[a + i] = r[i] <= k ? 1 : k / r[i];
	}
	double sse = 0;
	for (size_t i = 0; i < m; i++) {
		double e = (alpha + S[a + i] * x - t[a + i]) / t[a + i];
		sse += e * e;
	}
	free(w);
	free(r);
	*out = (cal_band){S[a], S[b - 1], alpha, x, m};
	return sse;
}

typedef struct best {
	double sse;
	cal_band band[CAL_BANDS];
} best;

/* The least-SSE split of rows [0, n) into k bands, each of at least
 * CAL_BAND_MIN_ROWS rows (sse infinite when none fits). */
static void split(const double *S, const double *t, size_t n, int k, best *bst)
{
	bst->sse = INFINITY;
	const size_t q = CAL_BAND_MIN_ROWS;
	if (n < (size_t)k * q)
		return;
	cal_band b[CAL_BANDS];
	if (k == 1) {
		bst->sse = robust(S, t, 0, n, &bst->band[0]);
		return;
	}
	for (size_t i = q; i + (size_t)(k - 1) * q <= n; i++) {
		double e1 = robust(S, t, 0, i, &b[0]);
		if (k == 2) {
			double e = e1 + robust(S, t, i, n, &b[1]);
			if (e < bst->sse) {
				bst->sse = e;
				memcpy(bst->band, b, 2 * sizeof *b);
			}
			continue;
		}
		for (size_t j = i + q; j + q <= n; j++) {
			double e = e1 + robust(S, t, i, j, &b[1]) + robust(S, t, j, n, &b[2]);
			if (e < bst->sse) {
				bst->sse = e;
				memcpy(bst->band, b, 3 * sizeof *b);
			}
		}
	}
}

int cal_fit_rows(const double *S, const double *t, size_t n, int max_bands, cal_fit *f)
{
	if (n < CAL_BAND_MIN_ROWS)
		return -1;
	if (max_bands > CAL_BANDS)
		max_bands = CAL_BANDS;
	double best_bic = INFINITY;
	for (int k = 1; k <= max_bands; k++) {
		best b;
		split(S, t, n, k, &b);
		if (!isfinite(b.sse))
			break;
		double p = 3.0 * k - 1;
		double bic = (double)n * log(b.sse / (double)n + 1e-300) + p * log((double)n);
		if (bic < best_bic) {
			best_bic = bic;
			memset(f, 0, sizeof *f);
			memcpy(f->band, b.band, (size_t)k * sizeof *b.band);
			f->nb = k;
		}
	}
	f->rows = n;
	cal_errors(f, S, t, n, &f->mean, &f->geomean, &f->max);
	return 0;
}

double cal_predict(const cal_fit *f, double S)
{
	int k = 0;
	while (k + 1 < f->nb && S > f->band[k].hi &&
	       (S >= f->band[k + 1].lo ||
	        log(S) - log(f->band[k].hi) > log(f->band[k + 1].lo) - log(S)))
		k++;
	return f->band[k].alpha_us + S * f->band[k].x_us_b;
}

void cal_errors(const cal_fit *f, const double *S, const double *t, size_t n, double *mean,
                double *geomean, double *max)
{
	double sum = 0, lsum = 0, mx = 0;
	for (size_t i = 0; i < n; i++) {
		double e = fabs(cal_predict(f, S[i]) - t[i]) / t[i];
		sum += e;
		lsum += log(e > 1e-6 ? e : 1e-6);
		mx = e > mx ? e : mx;
	}
	*mean = n ? sum / (double)n : 0;
	*geomean = n ? exp(lsum / (double)n) : 0;
	*max = mx;
}
