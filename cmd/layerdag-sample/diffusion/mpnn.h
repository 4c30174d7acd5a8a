/* The bidirectional message-passing layer of the diffusion model's graph
 * encoder: for node v,
 *   h'_v = ReLU(h_v·W_self + (Σ_{u→v} h_u)·W_in + (Σ_{v→w} h_w)·W_out + b)
 * over the edges (u, v) of a graph of n nodes; the backward pass
 * accumulates the three weights' gradients and returns dh. Checked against
 * finite differences in tests/unit/test_nn.c. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_MPNN_H
#define LAYERDAG_SAMPLE_DIFFUSION_MPNN_H

#include "layerdag-sample/diffusion/nn.h"

#include <stdint.h>

typedef struct nn_mp {
	nn_dense self, in, out; /* three biases that add up to one */
	size_t dim;
} nn_mp;

void nn_mp_init(nn_mp *l, size_t dim, et_rng *r);
void nn_mp_free(nn_mp *l);
/* H[n × dim] -> Y[n × dim]; scratch: 2·n·dim doubles (kept for backward). */
void nn_mp_forward(nn_mp *l, const double *H, size_t n, const uint32_t (*edge)[2], size_t ne,
                   double *scratch, double *Y);
/* dY (modified: ReLU-masked) -> dH[n × dim]; H, scratch and Y as forward left them. */
void nn_mp_backward(nn_mp *l, const double *H, size_t n, const uint32_t (*edge)[2], size_t ne,
                    const double *scratch, const double *Y, double *dY, double *dH);
void nn_mp_zero_grad(nn_mp *l);

/* The sinusoidal encoding of a scalar x into out[dim] (dim even):
 * sin(x·ω_i), cos(x·ω_i), ω_i = 10000^(−2i/dim). */
void nn_sinusoid(double x, size_t dim, double *out);

#endif
