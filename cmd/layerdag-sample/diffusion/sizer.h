/* The diffusion model's layer-size classifier: given the graph built so far
 * (its first l layers) and the label y, a distribution over the size of
 * layer l, 1 .. S−1, and whether it is the graph's last layer: 2·S classes,
 * class size + S·last (the classes of size 0 are never a target). Deciding
 * "last" with the size, rather than a size 0 after the layer, lets the
 * attribute denoiser know whether the layer needs a node that may have
 * successors: without it a narrow layer drawn all of sink roles (45 % of
 * the corpus's nodes are parameters) ended the graph early. The prefix is
 * encoded (encoder.h, with the node features of context.h), and an MLP head
 * on [pooled graph, context, demand one-hot] (context.h: y, l, the prefix's
 * size, the width of layer l − 1, its demand; the demand rounded, one-hot
 * over 0 .. S−1, since the width it predicts is a class) gives the logits. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_SIZER_H
#define LAYERDAG_SAMPLE_DIFFUSION_SIZER_H

#include "layerdag-sample/diffusion/context.h"
#include "layerdag-sample/diffusion/encoder.h"

typedef struct ld_sizer {
	uint32_t vocab, S;
	ld_cond cond;
	nn_enc enc;
	nn_mlp head; /* [ENC_POOL·D + LD_CTX + S -> H -> 2·S] */
	int steps;   /* Adam steps taken */
} ld_sizer;

void ld_sizer_init(ld_sizer *z, uint32_t vocab, uint32_t S, size_t D, int K, size_t H, et_rng *r);
void ld_sizer_free(ld_sizer *z);
/* The logits (2·S) of layer l's size and lastness after the first l layers of g (layer[] its
 * Kahn layers); with target >= 0, also the cross-entropy, back-propagated
 * into the gradients. Returns the loss (0 without a target). */
double ld_sizer_step(ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t l, int target,
                     double *logits);
/* The same for layers l0 .. l1 − 1 of g's L (layer[] its Kahn layers). */
double ld_sizer_range(ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t L, uint32_t l0,
                      uint32_t l1, size_t *count);
void ld_sizer_zero_grad(ld_sizer *z);
void ld_sizer_adam(ld_sizer *z, double lr);

#endif
