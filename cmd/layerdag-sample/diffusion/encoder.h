/* The diffusion model's graph encoder: node features X[n × F] through an
 * input layer (F -> D, ReLU), K message-passing layers (mpnn.h), then three
 * poolings of the last layer's node embeddings into g[ENC_POOL·D]: the sum
 * over the nodes scaled by 1/ENC_SUM_SCALE (LayerDAG's sum pooling, kept
 * near unit size for graphs of tens of nodes), the mean (which does not
 * grow with the graph), and the sum over the "front" nodes, those of the
 * layer just before the one being generated (its width and kinds of nodes
 * say most about the next layer). The label and the diffusion step are not
 * added here: the heads take them next to g (context.h), so that a small
 * label difference is not drowned by a pooled vector that grows with the
 * node count. The backward pass takes dg and accumulates every layer's
 * gradients (dX is not needed: the features are data). */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_ENCODER_H
#define LAYERDAG_SAMPLE_DIFFUSION_ENCODER_H

#include "layerdag-sample/diffusion/mpnn.h"

enum { ENC_MAXK = 8, ENC_POOL = 3 };
#define ENC_SUM_SCALE 16.0

typedef struct nn_enc {
	size_t F, D;
	int K;
	nn_dense input;
	nn_mp mp[ENC_MAXK];
	/* the last forward's activations, kept for backward */
	size_t n, cap;
	double *h[ENC_MAXK + 1]; /* h[0] = input layer's output, h[k+1] = layer k's */
	double *scratch[ENC_MAXK];
} nn_enc;

void nn_enc_init(nn_enc *e, size_t F, size_t D, int K, et_rng *r);
void nn_enc_free(nn_enc *e);
/* front[n] (1: a node of the layer before the new one; NULL: none). */
void nn_enc_forward(nn_enc *e, const double *X, size_t n, const uint32_t (*edge)[2], size_t ne,
                    const uint8_t *front, double *g);
void nn_enc_backward(nn_enc *e, const double *X, const uint32_t (*edge)[2], size_t ne,
                     const uint8_t *front, const double *dg);
/* The same with a gradient on the node embeddings too: dnode[n × D] (the
 * last layer's outputs, e->h[e->K] after forward), added to the pooled
 * one's; dg may be NULL. */
void nn_enc_backward_nodes(nn_enc *e, const double *X, const uint32_t (*edge)[2], size_t ne,
                           const uint8_t *front, const double *dg, const double *dnode);
void nn_enc_adam(nn_enc *e, double lr, int t);
void nn_enc_zero_grad(nn_enc *e);

/* An encoder and the MLP head on its output, trained as one network (each
 * of the diffusion model's three is): *steps counts their Adam steps. */
void nn_enc_head_free(nn_enc *e, nn_mlp *head);
void nn_enc_head_zero_grad(nn_enc *e, nn_mlp *head);
void nn_enc_head_adam(nn_enc *e, nn_mlp *head, double lr, int *steps);

#endif
