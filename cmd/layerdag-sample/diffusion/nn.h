/* Small neural-network pieces for the diffusion model: dense layers,
 * ReLU, softmax cross-entropy and Adam, each with a hand-written backward
 * pass (checked against finite differences in tests/unit/test_nn.c).
 * Matrices are row-major doubles; the products go through BLAS (dgemm).
 *
 * Shapes: a batch X is [n × in], a layer's W is [in × out], b is [out];
 * forward Y = X·W + 1·bᵀ. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_NN_H
#define LAYERDAG_SAMPLE_DIFFUSION_NN_H

#include "et_rng.h"

#include <stddef.h>

typedef struct nn_dense {
	size_t in, out;
	double *W, *b;             /* parameters */
	double *dW, *db;           /* their gradients (accumulated by backward) */
	double *mW, *vW, *mb, *vb; /* Adam moments */
} nn_dense;

/* W ~ U(−1/√in, 1/√in) from r (PyTorch's nn.Linear default), b = 0. */
void nn_dense_init(nn_dense *l, size_t in, size_t out, et_rng *r);
void nn_dense_free(nn_dense *l);
/* Y[n × out] = X[n × in]·W + b. */
void nn_dense_forward(const nn_dense *l, const double *X, size_t n, double *Y);
/* Given dY, adds dW += Xᵀ·dY and db += Σ rows of dY; dX = dY·Wᵀ when dX
 * is not NULL (overwritten). */
void nn_dense_backward(nn_dense *l, const double *X, const double *dY, size_t n, double *dX);
void nn_dense_zero_grad(nn_dense *l);
/* One Adam step (β1 0.9, β2 0.999, ε 1e-8) at step t (from 1). */
void nn_dense_adam(nn_dense *l, double lr, int t);

/* In place: max(0, x); its backward masks dY by x > 0 (x the output). */
void nn_relu(double *x, size_t n);
void nn_relu_backward(const double *y, double *dy, size_t n);

/* A two-layer head, LayerDAG's MLP: Y = ReLU(X·A + a)·B + b. The hidden
 * activations of the last forward are kept for backward (room for cap
 * rows, grown as needed). */
typedef struct nn_mlp {
	nn_dense a, b;
	size_t cap;
	double *h; /* [cap × hidden] */
} nn_mlp;

void nn_mlp_init(nn_mlp *m, size_t in, size_t hidden, size_t out, et_rng *r);
void nn_mlp_free(nn_mlp *m);
void nn_mlp_forward(nn_mlp *m, const double *X, size_t n, double *Y);
/* Accumulates the gradients; dX (if not NULL) is overwritten. */
void nn_mlp_backward(nn_mlp *m, const double *X, const double *dY, size_t n, double *dX);
/* The same for rows that share a tail: row i's input is [X_i, sh] (X
 * [n × inp], sh [in − inp] the same for every row), without copying sh
 * into every row: the first layer computes sh's part once. dX (n × inp)
 * and dsh (in − inp; accumulated) may be NULL. */
void nn_mlp_forward_shared(nn_mlp *m, const double *X, size_t n, size_t inp, const double *sh,
                           double *Y);
void nn_mlp_backward_shared(nn_mlp *m, const double *X, size_t n, size_t inp, const double *sh,
                            const double *dY, double *dX, double *dsh);
void nn_mlp_zero_grad(nn_mlp *m);
void nn_mlp_adam(nn_mlp *m, double lr, int t);

/* The mean cross-entropy of the rows of logits Z[n × k] against classes
 * c[n]; dZ (if not NULL) gets its gradient (softmax − one-hot) / n. */
double nn_softmax_xent(const double *Z, const int *c, size_t n, size_t k, double *dZ);

#endif
