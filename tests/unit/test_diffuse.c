/* The diffusion's schedule and posterior against brute-force Bayes. */
#include "check.h"
#include "layerdag-sample/diffusion/diffuse.h"

#include <math.h>

static void test_schedule(void)
{
	ld_schedule sc;
	ld_schedule_cosine(&sc, 64, 0.008);
	CHECK(sc.alpha_bar[0] == 1 && sc.alpha[0] == 1);
	for (int t = 1; t <= 64; t++)
		CHECK(sc.alpha_bar[t] <= sc.alpha_bar[t - 1] && sc.alpha[t] >= 0 &&
		      sc.alpha[t] <= 1);
	CHECK(sc.alpha_bar[64] < 1e-9);
	/* ᾱ_t is the product of the α's */
	double p = 1;
	for (int t = 1; t <= 63; t++) {
		p *= sc.alpha[t];
		CHECK(fabs(p - sc.alpha_bar[t]) < 1e-12);
	}
	ld_schedule_free(&sc);
}

/* Σ_j Q̄_{t−1}[i, j] Q_t[j, k] = Q̄_t[i, k], and the posterior is Bayes' rule
 * on that joint, normalized. */
static void test_posterior(void)
{
	enum { K = 4 };
	const double m[K] = {0.5, 0.25, 0.15, 0.1};
	ld_schedule sc;
	ld_schedule_cosine(&sc, 16, 0.008);
	for (int t = 1; t <= 16; t++)
		for (int i = 0; i < K; i++) {
			double prev[K], now[K];
			ld_q_bar(&sc, t - 1, m, K, i, prev);
			ld_q_bar(&sc, t, m, K, i, now);
			for (int k = 0; k < K; k++) {
				double ck = 0, joint[K], s = 0;
				for (int j = 0; j < K; j++) {
					double qt =
					    sc.alpha[t] * (j == k) + (1 - sc.alpha[t]) * m[k];
					joint[j] = prev[j] * qt;
					ck += joint[j];
				}
				CHECK(fabs(ck - now[k]) < 1e-12);
				double p0[K] = {0}, post[K];
				p0[i] = 1;
				ld_posterior(&sc, t, m, K, k, p0, post);
				for (int j = 0; j < K; j++) {
					CHECK(fabs(post[j] - joint[j] / ck) < 1e-12);
					s += post[j];
				}
				CHECK(fabs(s - 1) < 1e-12);
				if (t == 1) /* x_0 is reached */
					for (int j = 0; j < K; j++)
						CHECK(fabs(post[j] - (j == i)) < 1e-12);
			}
		}
	/* a predicted x̂_0 mixes the known-x_0 posteriors by its weights */
	double p0[K] = {0.1, 0.2, 0.3, 0.4}, post[K], mix[K] = {0};
	for (int i = 0; i < K; i++) {
		double one[K] = {0}, pi[K];
		one[i] = 1;
		ld_posterior(&sc, 7, m, K, 2, one, pi);
		for (int j = 0; j < K; j++)
			mix[j] += p0[i] * pi[j];
	}
	ld_posterior(&sc, 7, m, K, 2, p0, post);
	for (int j = 0; j < K; j++)
		CHECK(fabs(post[j] - mix[j]) < 1e-12);
	ld_schedule_free(&sc);
}

int main(void)
{
	test_schedule();
	test_posterior();
	return check_failures();
}
