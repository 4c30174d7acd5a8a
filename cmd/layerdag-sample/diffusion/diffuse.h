/* The discrete diffusion of LayerDAG (doc/layerdag.md, "The reference model"): marginal
 * transitions Q_t = α_t·I + (1 − α_t)·1·mᵀ over K categories (m the data
 * marginal; for edges K = 2 and m = (1 − ρ, ρ)), a cosine schedule, and the
 * exact posterior q(x_{t−1} | x_t, x̂_0) the sampler draws from.
 *
 * Steps run t = 1 .. T; ᾱ_0 = 1 (no noise), ᾱ_T ≈ 0 (the marginal). */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_DIFFUSE_H
#define LAYERDAG_SAMPLE_DIFFUSION_DIFFUSE_H

#include <stddef.h>

typedef struct ld_schedule {
	int T;
	double *alpha;     /* [T + 1]: α_t = ᾱ_t / ᾱ_{t−1}, alpha[0] = 1 */
	double *alpha_bar; /* [T + 1]: ᾱ_t, alpha_bar[0] = 1 */
} ld_schedule;

/* The cosine schedule of Nichol and Dhariwal with offset s (0.008):
 * ᾱ_t = f(t) / f(0), f(t) = cos²(((t/T) + s) / (1 + s) · π/2). */
void ld_schedule_cosine(ld_schedule *sc, int T, double s);
void ld_schedule_free(ld_schedule *sc);

/* q(x_t = k | x_0 = i) for every k: row i of Q̄_t, into out[K]. */
void ld_q_bar(const ld_schedule *sc, int t, const double *m, int K, int i, double *out);

/* The posterior q(x_{t−1} | x_t = k, x̂_0) for t >= 1, into out[K]:
 * Σ_i p0[i] · Q_t[j, k] · Q̄_{t−1}[i, j] / Q̄_t[i, k], normalized over j,
 * where p0 is the predicted distribution of x_0 (a one-hot for a known
 * x_0). At t = 1 it is p0 itself up to normalization (x_0 is reached). */
void ld_posterior(const ld_schedule *sc, int t, const double *m, int K, int k, const double *p0,
                  double *out);

#endif
