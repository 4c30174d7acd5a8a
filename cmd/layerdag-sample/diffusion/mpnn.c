/* The message-passing layer and the sinusoidal encoding (mpnn.h). */
#include "layerdag-sample/diffusion/mpnn.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void nn_mp_init(nn_mp *l, size_t dim, et_rng *r)
{
	l->dim = dim;
	nn_dense_init(&l->self, dim, dim, r);
	nn_dense_init(&l->in, dim, dim, r);
	nn_dense_init(&l->out, dim, dim, r);
}

void nn_mp_free(nn_mp *l)
{
	nn_dense_free(&l->self);
	nn_dense_free(&l->in);
	nn_dense_free(&l->out);
}

void nn_mp_zero_grad(nn_mp *l)
{
	nn_dense_zero_grad(&l->self);
	nn_dense_zero_grad(&l->in);
	nn_dense_zero_grad(&l->out);
}

/* Sums of the predecessors' rows (P) and of the successors' (S). */
static void aggregate(const double *H, size_t n, size_t d, const uint32_t (*edge)[2], size_t ne,
                      double *P, double *S)
{
	memset(P, 0, n * d * sizeof *P);
	memset(S, 0, n * d * sizeof *S);
	for (size_t k = 0; k < ne; k++) {
		const double *hu = H + (size_t)edge[k][0] * d, *hv = H + (size_t)edge[k][1] * d;
		double *pv = P + (size_t)edge[k][1] * d, *su = S + (size_t)edge[k][0] * d;
		for (size_t j = 0; j < d; j++) {
			pv[j] += hu[j];
			su[j] += hv[j];
		}
	}
}

void nn_mp_forward(nn_mp *l, const double *H, size_t n, const uint32_t (*edge)[2], size_t ne,
                   double *scratch, double *Y)
{
	size_t d = l->dim;
	if (n == 0) /* an empty prefix graph: nothing to pass (scratch may be NULL) */
		return;
	double *P = scratch, *S = scratch + n * d;
	aggregate(H, n, d, edge, ne, P, S);
	double *t = et_xcalloc(n * d + 1, sizeof *t);
	nn_dense_forward(&l->self, H, n, Y);
	nn_dense_forward(&l->in, P, n, t);
	for (size_t i = 0; i < n * d; i++)
		Y[i] += t[i];
	nn_dense_forward(&l->out, S, n, t);
	for (size_t i = 0; i < n * d; i++)
		Y[i] += t[i];
	free(t);
	nn_relu(Y, n * d);
}

void nn_mp_backward(nn_mp *l, const double *H, size_t n, const uint32_t (*edge)[2], size_t ne,
                    const double *scratch, const double *Y, double *dY, double *dH)
{
	size_t d = l->dim;
	if (n == 0)
		return;
	const double *P = scratch, *S = scratch + n * d;
	nn_relu_backward(Y, dY, n * d);
	double *dP = et_xcalloc(n * d + 1, sizeof *dP), *dS = et_xcalloc(n * d + 1, sizeof *dS);
	nn_dense_backward(&l->self, H, dY, n, dH);
	nn_dense_backward(&l->in, P, dY, n, dP);
	nn_dense_backward(&l->out, S, dY, n, dS);
	/* the aggregation's adjoint: each edge sends the gradients back */
	for (size_t k = 0; k < ne; k++) {
		double *hu = dH + (size_t)edge[k][0] * d, *hv = dH + (size_t)edge[k][1] * d;
		const double *pv = dP + (size_t)edge[k][1] * d, *su = dS + (size_t)edge[k][0] * d;
		for (size_t j = 0; j < d; j++) {
			hu[j] += pv[j];
			hv[j] += su[j];
		}
	}
	free(dP);
	free(dS);
}

void nn_sinusoid(double x, size_t dim, double *out)
{
	for (size_t i = 0; i < dim / 2; i++) {
		double w = pow(10000.0, -2.0 * (double)i / (double)dim);
		out[2 * i] = sin(x * w);
		out[2 * i + 1] = cos(x * w);
	}
}
