/* The discrete diffusion's schedule and posterior (diffuse.h). */
#include "layerdag-sample/diffusion/diffuse.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_schedule_cosine(ld_schedule *sc, int T, double s)
{
	sc->T = T;
	sc->alpha = et_xcalloc((size_t)T + 1, sizeof *sc->alpha);
	sc->alpha_bar = et_xcalloc((size_t)T + 1, sizeof *sc->alpha_bar);
	double f0 = cos(s / (1 + s) * M_PI / 2);
	f0 *= f0;
	sc->alpha[0] = sc->alpha_bar[0] = 1;
	for (int t = 1; t <= T; t++) {
		double f = cos(((double)t / T + s) / (1 + s) * M_PI / 2);
		sc->alpha_bar[t] = f * f / f0;
		/* ᾱ_T is 0 up to rounding: keep it a probability */
		if (sc->alpha_bar[t] < 0)
			sc->alpha_bar[t] = 0;
		sc->alpha[t] =
		    sc->alpha_bar[t - 1] > 0 ? sc->alpha_bar[t] / sc->alpha_bar[t - 1] : 0;
	}
}

void ld_schedule_free(ld_schedule *sc)
{
	free(sc->alpha);
	free(sc->alpha_bar);
	memset(sc, 0, sizeof *sc);
}

/* Row i of a·I + (1 − a)·1·mᵀ, entry j. */
static double trans(double a, const double *m, int i, int j)
{
	return a * (i == j) + (1 - a) * m[j];
}

void ld_q_bar(const ld_schedule *sc, int t, const double *m, int K, int i, double *out)
{
	for (int k = 0; k < K; k++)
		out[k] = trans(sc->alpha_bar[t], m, i, k);
}

void ld_posterior(const ld_schedule *sc, int t, const double *m, int K, int k, const double *p0,
                  double *out)
{
	double at = sc->alpha[t], abt = sc->alpha_bar[t], abp = sc->alpha_bar[t - 1], sum = 0;
	for (int j = 0; j < K; j++) {
		double v = 0;
		for (int i = 0; i < K; i++) {
			double denom = trans(abt, m, i, k);
			if (p0[i] > 0 && denom > 0)
				v += p0[i] * trans(at, m, j, k) * trans(abp, m, i, j) / denom;
		}
		out[j] = v;
		sum += v;
	}
	for (int j = 0; j < K; j++)
		out[j] = sum > 0 ? out[j] / sum : 1.0 / K;
}
