/* The diffusion model's graph encoder: node features X[n × F] through an
 * input layer (F -> D, ReLU), K message-passing layers (mpnn.h), and a sum
 * over the nodes, to which the sinusoidal encodings of the label y and of
 * the diffusion step t are added: g[D]. The backward pass takes dg and
 * accumulates every layer's gradients (dX is not needed: the features are
 * data). */
#ifndef LD_ENCODER_H
#define LD_ENCODER_H

#include "layerdag-sample/mpnn.h"

enum { ENC_MAXK = 8 };

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
void nn_enc_forward(nn_enc *e, const double *X, size_t n, const uint32_t (*edge)[2], size_t ne,
                    double y, double t, double *g);
void nn_enc_backward(nn_enc *e, const double *X, const uint32_t (*edge)[2], size_t ne,
                     const double *dg);
/* The same with a gradient on the node embeddings too: dnode[n × D] (the
 * last layer's outputs, e->h[e->K] after forward), added to the pooled
 * one's; dg may be NULL. */
void nn_enc_backward_nodes(nn_enc *e, const double *X, const uint32_t (*edge)[2], size_t ne,
                           const double *dg, const double *dnode);
void nn_enc_zero_grad(nn_enc *e);

#endif
