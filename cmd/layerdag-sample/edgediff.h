/* The diffusion model's edge denoiser: for layer l of a graph, every pair
 * (u, v) of an earlier node u and a new node v is an edge or not; the
 * pairs are noised to step t with the Bernoulli marginal ρ (diffuse.h:
 * K = 2, m = (1 − ρ, ρ), ρ = min(d̄, B)/B with d̄ the mean in-degree of
 * non-source nodes and B the candidates), the noisy edges join the graph
 * the encoder sees, and each pair's logits come from [h_u, h_v, g]. */
#ifndef LD_EDGEDIFF_H
#define LD_EDGEDIFF_H

#include "layerdag-sample/diffuse.h"
#include "layerdag-sample/encoder.h"
#include "layerdag-sample/ld.h"

typedef struct ld_edgediff {
	uint32_t vocab;
	double dbar; /* mean in-degree of nodes with a predecessor */
	ld_schedule sched;
	nn_enc enc;
	nn_dense head; /* [3D -> 2] */
	int steps;
} ld_edgediff;

void ld_edgediff_init(ld_edgediff *d, const ld_corpus *c, int T, size_t D, int K, et_rng *r);
void ld_edgediff_free(ld_edgediff *d);
double ld_edgediff_example(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t l,
                           int t, et_rng *r);
/* P(edge) for each (candidate, new node) pair of layer l (probs[B × w],
 * candidates = the nodes of layers < l in node order, then the new nodes)
 * given the noisy edges at step t. */
void ld_edgediff_predict(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                         const uint8_t *noisy, double *probs);
/* The Bernoulli marginal for B candidates. */
double ld_edgediff_rho(const ld_edgediff *d, uint32_t B);
double ld_edgediff_epoch(ld_edgediff *d, const ld_corpus *c, double lr, et_rng *r);

#endif
