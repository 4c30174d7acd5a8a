/* The graph encoder (encoder.h). */
#include "layerdag-sample/diffusion/encoder.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void nn_enc_init(nn_enc *e, size_t F, size_t D, int K, et_rng *r)
{
	memset(e, 0, sizeof *e);
	e->F = F, e->D = D, e->K = K < ENC_MAXK ? K : ENC_MAXK;
	nn_dense_init(&e->input, F, D, r);
	for (int k = 0; k < e->K; k++)
		nn_mp_init(&e->mp[k], D, r);
}

void nn_enc_free(nn_enc *e)
{
	nn_dense_free(&e->input);
	for (int k = 0; k < e->K; k++) {
		nn_mp_free(&e->mp[k]);
		free(e->scratch[k]);
	}
	for (int k = 0; k <= e->K; k++)
		free(e->h[k]);
	memset(e, 0, sizeof *e);
}

void nn_enc_zero_grad(nn_enc *e)
{
	nn_dense_zero_grad(&e->input);
	for (int k = 0; k < e->K; k++)
		nn_mp_zero_grad(&e->mp[k]);
}

void nn_enc_head_free(nn_enc *e, nn_mlp *head)
{
	nn_enc_free(e);
	nn_mlp_free(head);
}

void nn_enc_head_zero_grad(nn_enc *e, nn_mlp *head)
{
	nn_enc_zero_grad(e);
	nn_mlp_zero_grad(head);
}

void nn_enc_head_adam(nn_enc *e, nn_mlp *head, double lr, int *steps)
{
	++*steps;
	nn_enc_adam(e, lr, *steps);
	nn_mlp_adam(head, lr, *steps);
}

/* Room for n nodes' activations. */
static void reserve(nn_enc *e, size_t n)
{
	if (n <= e->cap)
		return;
	/* rows of D values, two rows of scratch per node: each array grows
	 * from the old capacity as ET_GROW does; the rows that all of them
	 * hold now are the new capacity */
	size_t c = 0, s = 0;
	for (int k = 0; k <= e->K; k++) {
		c = e->cap * e->D;
		ET_GROW(e->h[k], c, n * e->D);
	}
	for (int k = 0; k < e->K; k++) {
		s = 2 * e->cap * e->D;
		ET_GROW(e->scratch[k], s, 2 * n * e->D);
	}
	size_t rows = e->D ? c / e->D : n;
	if (e->K && e->D && s / (2 * e->D) < rows)
		rows = s / (2 * e->D);
	e->cap = rows > n ? rows : n;
}

void nn_enc_adam(nn_enc *e, double lr, int t)
{
	nn_dense_adam(&e->input, lr, t);
	for (int k = 0; k < e->K; k++) {
		nn_dense_adam(&e->mp[k].self, lr, t);
		nn_dense_adam(&e->mp[k].in, lr, t);
		nn_dense_adam(&e->mp[k].out, lr, t);
	}
}

void nn_enc_forward(nn_enc *e, const double *X, size_t n, const uint32_t (*edge)[2], size_t ne,
                    const uint8_t *front, double *g)
{
	size_t D = e->D;
	reserve(e, n);
	e->n = n;
	memset(g, 0, ENC_POOL * D * sizeof *g);
	if (n == 0) /* an empty prefix: every pooling is 0 */
		return;
	nn_dense_forward(&e->input, X, n, e->h[0]);
	nn_relu(e->h[0], n * D);
	for (int k = 0; k < e->K; k++)
		nn_mp_forward(&e->mp[k], e->h[k], n, edge, ne, e->scratch[k], e->h[k + 1]);
	const double *H = e->h[e->K];
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < D; j++) {
			g[j] += H[i * D + j] / ENC_SUM_SCALE;
			g[D + j] += H[i * D + j] / (double)n;
			if (front && front[i])
				g[2 * D + j] += H[i * D + j];
		}
}

void nn_enc_backward(nn_enc *e, const double *X, const uint32_t (*edge)[2], size_t ne,
                     const uint8_t *front, const double *dg)
{
	nn_enc_backward_nodes(e, X, edge, ne, front, dg, NULL);
}

void nn_enc_backward_nodes(nn_enc *e, const double *X, const uint32_t (*edge)[2], size_t ne,
                           const uint8_t *front, const double *dg, const double *dnode)
{
	size_t n = e->n, D = e->D;
	if (n == 0)
		return;
	double *dh = et_xcalloc(n * D + 1, sizeof *dh),
	       *dprev = et_xcalloc(n * D + 1, sizeof *dprev);
	for (size_t i = 0; i < n; i++) /* the poolings' adjoints */
		for (size_t j = 0; j < D; j++) {
			double v = dnode ? dnode[i * D + j] : 0;
			if (dg)
				v += dg[j] / ENC_SUM_SCALE + dg[D + j] / (double)n +
				     (front && front[i] ? dg[2 * D + j] : 0);
			dh[i * D + j] = v;
		}
	for (int k = e->K - 1; k >= 0; k--) {
		nn_mp_backward(&e->mp[k], e->h[k], n, edge, ne, e->scratch[k], e->h[k + 1], dh,
		               dprev);
		double *s = dh;
		dh = dprev, dprev = s;
	}
	nn_relu_backward(e->h[0], dh, n * D);
	nn_dense_backward(&e->input, X, dh, n, NULL);
	free(dh);
	free(dprev);
}
