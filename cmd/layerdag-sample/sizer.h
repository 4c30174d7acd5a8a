/* The diffusion model's layer-size classifier: given the graph built so far
 * (its first l layers) and the label y, a distribution over the size of
 * layer l, 0 .. S−1 (0 = stop; never 0 for the first layer). The prefix is
 * encoded (encoder.h; node features: the attribute one-hot and the node's
 * layer relative to l), then a dense layer gives the logits. */
#ifndef LD_SIZER_H
#define LD_SIZER_H

#include "layerdag-sample/encoder.h"
#include "layerdag-sample/ld.h"

typedef struct ld_sizer {
	uint32_t vocab, S;
	nn_enc enc;
	nn_dense head;
	int steps; /* Adam steps taken */
} ld_sizer;

void ld_sizer_init(ld_sizer *z, uint32_t vocab, uint32_t S, size_t D, int K, et_rng *r);
void ld_sizer_free(ld_sizer *z);
/* The logits of layer l's size after the first l layers of g (layer[] its
 * Kahn layers); with target >= 0, also the cross-entropy, back-propagated
 * into the gradients. Returns the loss (0 without a target). */
double ld_sizer_step(ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t l, int target,
                     double *logits);
/* One epoch over the corpus: every prefix of every graph, Adam after each
 * graph; returns the mean loss. */
double ld_sizer_epoch(ld_sizer *z, const ld_corpus *c, double lr);

#endif
