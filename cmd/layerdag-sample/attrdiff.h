/* The diffusion model's attribute denoiser: for layer l of a graph, given
 * the prefix (layers < l, clean) and the new layer's attributes noised to
 * step t (diffuse.h), predict each new node's clean attribute. The encoder
 * (encoder.h) sees the prefix and the new nodes (features: the attribute
 * one-hot, and a flag for new nodes); each new node's logits come from
 * its embedding next to the pooled graph embedding (which carries y and
 * t). Trained with the cross-entropy against the clean attributes. */
#ifndef LD_ATTRDIFF_H
#define LD_ATTRDIFF_H

#include "layerdag-sample/diffuse.h"
#include "layerdag-sample/encoder.h"
#include "layerdag-sample/ld.h"

typedef struct ld_attrdiff {
	uint32_t vocab;
	double *marginal; /* [vocab] */
	ld_schedule sched;
	nn_enc enc;
	nn_dense head; /* [2D -> vocab] */
	int steps;
} ld_attrdiff;

void ld_attrdiff_init(ld_attrdiff *a, const ld_corpus *c, int T, size_t D, int K, et_rng *r);
void ld_attrdiff_free(ld_attrdiff *a);
/* One training example: layer l of g noised to step t with r; returns the
 * loss and accumulates the gradients. */
double ld_attrdiff_example(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l,
                           int t, et_rng *r);
/* The predicted distributions of the clean attributes (probs[w × vocab],
 * w the nodes of layer l in node order) given their noisy ones at step t. */
void ld_attrdiff_predict(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                         const uint32_t *noisy, double *probs);
/* One epoch: every layer of every graph at a random step, Adam per graph. */
double ld_attrdiff_epoch(ld_attrdiff *a, const ld_corpus *c, double lr, et_rng *r);

#endif
