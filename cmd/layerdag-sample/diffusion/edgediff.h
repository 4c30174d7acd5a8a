/* The diffusion model's edge denoiser: for layer l of a graph, every pair
 * (u, v) of an earlier node u and a new node v is an edge or not; the
 * pairs are noised to step t with the Bernoulli marginal ρ (diffuse.h:
 * K = 2, m = (1 − ρ, ρ), ρ = min(d̄, B)/B with d̄ the mean in-degree of
 * non-source nodes and B the candidates), the noisy edges join the graph
 * the encoder sees (node features of context.h), and each pair's logits
 * come from an MLP on [h_u, h_v, pair features, g, context] (the last two
 * the same for every pair: nn_mlp_forward_shared); the pair
 * features are what the paper's MLP can use and a message-passing encoder
 * of two layers cannot count: the layer distance l − layer(u) (one-hot 1,
 * 2, 3, 4 or more; 94 % of the corpus's edges join adjacent layers), u's
 * successors in the prefix, the pair's own noisy bit, and the noisy edges
 * u already sends to the new layer and v already receives (/4), and the
 * operands u still lacks (its attribute's arity, context.h, less its
 * edges so far, /4). */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_EDGEDIFF_H
#define LAYERDAG_SAMPLE_DIFFUSION_EDGEDIFF_H

enum { LD_PAIR = 9 };

#include "layerdag-sample/diffusion/context.h"
#include "layerdag-sample/diffusion/diffuse.h"
#include "layerdag-sample/diffusion/encoder.h"
#include "layerdag-sample/ld.h"

typedef struct ld_edgediff {
	uint32_t vocab;
	double dbar; /* mean in-degree of nodes with a predecessor */
	ld_cond cond;
	ld_schedule sched;
	nn_enc enc;
	nn_mlp head; /* [2D + LD_PAIR + ENC_POOL·D + LD_CTX -> H -> 2] */
	int steps;
} ld_edgediff;

void ld_edgediff_init(ld_edgediff *d, const ld_corpus *c, int T, size_t D, int K, size_t H,
                      et_rng *r);
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
/* The same for layers max(l0, 1) .. l1 − 1 of g's L (layer[] its Kahn layers). */
double ld_edgediff_range(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t L,
                         uint32_t l0, uint32_t l1, et_rng *r, size_t *count);
void ld_edgediff_zero_grad(ld_edgediff *d);
void ld_edgediff_adam(ld_edgediff *d, double lr);

#endif
