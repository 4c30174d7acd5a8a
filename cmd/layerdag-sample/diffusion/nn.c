/* Dense layers, ReLU, softmax cross-entropy and Adam (nn.h). */
#include "layerdag-sample/diffusion/nn.h"
#include "et_mem.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void nn_dense_init(nn_dense *l, size_t in, size_t out, et_rng *r)
{
	memset(l, 0, sizeof *l);
	l->in = in, l->out = out;
	size_t w = in * out;
	l->W = et_xcalloc(w, sizeof *l->W);
	l->dW = et_xcalloc(w, sizeof *l->dW);
	l->mW = et_xcalloc(w, sizeof *l->mW);
	l->vW = et_xcalloc(w, sizeof *l->vW);
	l->b = et_xcalloc(out, sizeof *l->b);
	l->db = et_xcalloc(out, sizeof *l->db);
	l->mb = et_xcalloc(out, sizeof *l->mb);
	l->vb = et_xcalloc(out, sizeof *l->vb);
	double a = 1 / sqrt((double)in);
	for (size_t i = 0; i < w; i++)
		l->W[i] = (2 * et_rng_unit(r) - 1) * a;
}

void nn_dense_free(nn_dense *l)
{
	free(l->W), free(l->dW), free(l->mW), free(l->vW);
	free(l->b), free(l->db), free(l->mb), free(l->vb);
	memset(l, 0, sizeof *l);
}

void nn_dense_forward(const nn_dense *l, const double *X, size_t n, double *Y)
{
	for (size_t i = 0; i < n; i++)
		memcpy(Y + i * l->out, l->b, l->out * sizeof *Y);
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)l->out, (int)l->in, 1.0,
	            X, (int)l->in, l->W, (int)l->out, 1.0, Y, (int)l->out);
}

void nn_dense_backward(nn_dense *l, const double *X, const double *dY, size_t n, double *dX)
{
	/* dW += Xᵀ·dY */
	cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)l->in, (int)l->out, (int)n, 1.0,
	            X, (int)l->in, dY, (int)l->out, 1.0, l->dW, (int)l->out);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < l->out; j++)
			l->db[j] += dY[i * l->out + j];
	if (dX) /* dX = dY·Wᵀ */
		cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)l->in,
		            (int)l->out, 1.0, dY, (int)l->out, l->W, (int)l->out, 0.0, dX,
		            (int)l->in);
}

void nn_dense_zero_grad(nn_dense *l)
{
	memset(l->dW, 0, l->in * l->out * sizeof *l->dW);
	memset(l->db, 0, l->out * sizeof *l->db);
}

static void adam(double *p, const double *g, double *m, double *v, size_t n, double lr, int t)
{
	const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
	double c1 = 1 - pow(b1, t), c2 = 1 - pow(b2, t);
	for (size_t i = 0; i < n; i++) {
		m[i] = b1 * m[i] + (1 - b1) * g[i];
		v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
		p[i] -= lr * (m[i] / c1) / (sqrt(v[i] / c2) + eps);
	}
}

void nn_dense_adam(nn_dense *l, double lr, int t)
{
	adam(l->W, l->dW, l->mW, l->vW, l->in * l->out, lr, t);
	adam(l->b, l->db, l->mb, l->vb, l->out, lr, t);
}

void nn_relu(double *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] < 0)
			x[i] = 0;
}

void nn_relu_backward(const double *y, double *dy, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (y[i] <= 0)
			dy[i] = 0;
}

double nn_softmax_xent(const double *Z, const int *c, size_t n, size_t k, double *dZ)
{
	double loss = 0;
	for (size_t i = 0; i < n; i++) {
		const double *z = Z + i * k;
		double mx = z[0], s = 0;
		for (size_t j = 1; j < k; j++)
			mx = z[j] > mx ? z[j] : mx;
		for (size_t j = 0; j < k; j++)
			s += exp(z[j] - mx);
		loss += log(s) + mx - z[c[i]];
		if (dZ)
			for (size_t j = 0; j < k; j++)
				dZ[i * k + j] = (exp(z[j] - mx) / s - ((int)j == c[i])) / (double)n;
	}
	return loss / (double)n;
}

static void mlp_reserve(nn_mlp *m, size_t n);

void nn_mlp_init(nn_mlp *m, size_t in, size_t hidden, size_t out, et_rng *r)
{
	memset(m, 0, sizeof *m);
	nn_dense_init(&m->a, in, hidden, r);
	nn_dense_init(&m->b, hidden, out, r);
}

void nn_mlp_free(nn_mlp *m)
{
	nn_dense_free(&m->a);
	nn_dense_free(&m->b);
	free(m->h);
	memset(m, 0, sizeof *m);
}

void nn_mlp_forward(nn_mlp *m, const double *X, size_t n, double *Y)
{
	mlp_reserve(m, n);
	if (n == 0)
		return;
	nn_dense_forward(&m->a, X, n, m->h);
	nn_relu(m->h, n * m->a.out);
	nn_dense_forward(&m->b, m->h, n, Y);
}

void nn_mlp_backward(nn_mlp *m, const double *X, const double *dY, size_t n, double *dX)
{
	if (n == 0)
		return;
	double *dh = et_xcalloc(n * m->a.out, sizeof *dh);
	nn_dense_backward(&m->b, m->h, dY, n, dh);
	nn_relu_backward(m->h, dh, n * m->a.out);
	nn_dense_backward(&m->a, X, dh, n, dX);
	free(dh);
}

/* Room for n rows of hidden activations. */
static void mlp_reserve(nn_mlp *m, size_t n)
{
	if (n <= m->cap)
		return;
	size_t c = m->cap * m->a.out; /* rows of a.out values */
	ET_GROW(m->h, c, n * m->a.out);
	m->cap = m->a.out && c / m->a.out > n ? c / m->a.out : n;
}

void nn_mlp_forward_shared(nn_mlp *m, const double *X, size_t n, size_t inp, const double *sh,
                           double *Y)
{
	size_t H = m->a.out, ins = m->a.in - inp;
	mlp_reserve(m, n);
	if (n == 0)
		return;
	/* the shared tail's part, plus the bias: one row, copied to every row */
	double *c = et_xcalloc(H, sizeof *c);
	memcpy(c, m->a.b, H * sizeof *c);
	cblas_dgemv(CblasRowMajor, CblasTrans, (int)ins, (int)H, 1.0, m->a.W + inp * H, (int)H, sh,
	            1, 1.0, c, 1);
	for (size_t i = 0; i < n; i++)
		memcpy(m->h + i * H, c, H * sizeof *c);
	free(c);
	if (inp)
		cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)H, (int)inp,
		            1.0, X, (int)inp, m->a.W, (int)H, 1.0, m->h, (int)H);
	nn_relu(m->h, n * H);
	nn_dense_forward(&m->b, m->h, n, Y);
}

void nn_mlp_backward_shared(nn_mlp *m, const double *X, size_t n, size_t inp, const double *sh,
                            const double *dY, double *dX, double *dsh)
{
	size_t H = m->a.out, ins = m->a.in - inp;
	if (n == 0)
		return;
	double *dh = et_xcalloc(n * H, sizeof *dh), *col = et_xcalloc(H, sizeof *col);
	nn_dense_backward(&m->b, m->h, dY, n, dh);
	nn_relu_backward(m->h, dh, n * H);
	for (size_t i = 0; i < n; i++) /* Σ over rows: what the shared part gets */
		for (size_t j = 0; j < H; j++)
			col[j] += dh[i * H + j];
	for (size_t j = 0; j < H; j++)
		m->a.db[j] += col[j];
	/* dW_tail += sh ⊗ col; dW_head += Xᵀ·dh */
	cblas_dger(CblasRowMajor, (int)ins, (int)H, 1.0, sh, 1, col, 1, m->a.dW + inp * H, (int)H);
	if (inp)
		cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, (int)inp, (int)H, (int)n, 1.0,
		            X, (int)inp, dh, (int)H, 1.0, m->a.dW, (int)H);
	if (dsh)
		cblas_dgemv(CblasRowMajor, CblasNoTrans, (int)ins, (int)H, 1.0, m->a.W + inp * H,
		            (int)H, col, 1, 1.0, dsh, 1);
	if (dX && inp)
		cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)n, (int)inp, (int)H, 1.0,
		            dh, (int)H, m->a.W, (int)H, 0.0, dX, (int)inp);
	free(dh);
	free(col);
}

void nn_mlp_zero_grad(nn_mlp *m)
{
	nn_dense_zero_grad(&m->a);
	nn_dense_zero_grad(&m->b);
}

void nn_mlp_adam(nn_mlp *m, double lr, int t)
{
	nn_dense_adam(&m->a, lr, t);
	nn_dense_adam(&m->b, lr, t);
}
