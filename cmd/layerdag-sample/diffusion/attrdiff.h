/* The diffusion model's attribute denoiser: for layer l of a graph, given
 * the prefix (layers < l, clean) and the new layer's attributes noised to
 * step t (diffuse.h), predict each new node's clean attribute. The encoder
 * (encoder.h) sees the prefix and the new nodes (the features of context.h:
 * a new node's attribute is its noisy one, its distance 0); each new node's
 * logits come from an MLP on its embedding next to the pooled graph vector
 * and the context (y, t, l, the widths). Trained with the cross-entropy
 * against the clean attributes. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_ATTRDIFF_H
#define LAYERDAG_SAMPLE_DIFFUSION_ATTRDIFF_H

#include "layerdag-sample/diffusion/context.h"
#include "layerdag-sample/diffusion/diffuse.h"
#include "layerdag-sample/diffusion/encoder.h"
#include "layerdag-sample/ld.h"

typedef struct ld_attrdiff {
	uint32_t vocab;
	double *marginal; /* [vocab] */
	ld_cond cond;
	ld_schedule sched;
	nn_enc enc;
	nn_mlp head; /* [D + ENC_POOL·D + LD_CTX -> H -> vocab] */
	int steps;
} ld_attrdiff;

/* The marginal and the label statistics from c. */
void ld_attrdiff_init(ld_attrdiff *a, const ld_corpus *c, int T, size_t D, int K, size_t H,
                      et_rng *r);
void ld_attrdiff_free(ld_attrdiff *a);
/* One training example: layer l of g noised to step t with r (last: l is
 * g's last layer); returns the loss and accumulates the gradients. */
double ld_attrdiff_example(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l,
                           int t, int last, et_rng *r);
/* The predicted distributions of the clean attributes (probs[w × vocab],
 * w the nodes of layer l in node order) given their noisy ones at step t;
 * last: layer l is the graph's last. */
void ld_attrdiff_predict(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                         int last, const uint32_t *noisy, double *probs);
/* The same for layers l0 .. l1 − 1 of g's L (layer[] its Kahn layers). */
double ld_attrdiff_range(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t L,
                         uint32_t l0, uint32_t l1, et_rng *r, size_t *count);
void ld_attrdiff_zero_grad(ld_attrdiff *a);
void ld_attrdiff_adam(ld_attrdiff *a, double lr);

#endif
