/* The hand-written backward passes of nn.c against central finite
 * differences: a two-layer network (dense, ReLU, dense, softmax
 * cross-entropy), every parameter and every input checked; and Adam
 * driving the loss of a separable problem down. */
#include "check.h"
#include "layerdag-sample/diffusion/encoder.h"
#include "layerdag-sample/diffusion/mpnn.h"
#include "layerdag-sample/diffusion/nn.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

enum { N = 5, IN = 4, H = 6, K = 3 };

static double loss_of(nn_dense *a, nn_dense *b, const double *X, const int *c, double *dX)
{
	double h[N * H], z[N * K], dz[N * K], dh[N * H];
	nn_dense_forward(a, X, N, h);
	nn_relu(h, N * H);
	nn_dense_forward(b, h, N, z);
	double l = nn_softmax_xent(z, c, N, K, dz);
	if (dX) {
		nn_dense_backward(b, h, dz, N, dh);
		nn_relu_backward(h, dh, N * H);
		nn_dense_backward(a, X, dh, N, dX);
	}
	return l;
}

/* |analytic − numeric| small relative to their size */
static int close(double a, double n)
{
	return fabs(a - n) <= 1e-6 * (1 + fabs(a) + fabs(n));
}

static void check_params(nn_dense *a, nn_dense *b, double *X, const int *c, double *p, size_t np,
                         const double *grad)
{
	const double h = 1e-6;
	for (size_t i = 0; i < np; i++) {
		double keep = p[i];
		p[i] = keep + h;
		double up = loss_of(a, b, X, c, NULL);
		p[i] = keep - h;
		double dn = loss_of(a, b, X, c, NULL);
		p[i] = keep;
		CHECK(close(grad[i], (up - dn) / (2 * h)));
	}
}

static void test_gradients(void)
{
	et_rng r;
	et_rng_seed(&r, 7, 0);
	nn_dense a, b;
	nn_dense_init(&a, IN, H, &r);
	nn_dense_init(&b, H, K, &r);
	for (size_t j = 0; j < H; j++) /* biases away from 0 so that ReLU's kink is far */
		a.b[j] = 0.3 * (et_rng_unit(&r) - 0.5);
	double X[N * IN], dX[N * IN];
	int c[N];
	for (int i = 0; i < N * IN; i++)
		X[i] = 2 * et_rng_unit(&r) - 1;
	for (int i = 0; i < N; i++)
		c[i] = (int)et_rng_below(&r, K);
	nn_dense_zero_grad(&a);
	nn_dense_zero_grad(&b);
	loss_of(&a, &b, X, c, dX);
	check_params(&a, &b, X, c, a.W, IN * H, a.dW);
	check_params(&a, &b, X, c, a.b, H, a.db);
	check_params(&a, &b, X, c, b.W, H * K, b.dW);
	check_params(&a, &b, X, c, b.b, K, b.db);
	check_params(&a, &b, X, c, X, N * IN, dX);
	nn_dense_free(&a);
	nn_dense_free(&b);
}

static void test_adam(void)
{
	et_rng r;
	et_rng_seed(&r, 3, 0);
	nn_dense a, b;
	nn_dense_init(&a, IN, H, &r);
	nn_dense_init(&b, H, K, &r);
	double X[N * IN], dX[N * IN];
	int c[N];
	for (int i = 0; i < N; i++) { /* class i % K, a feature saying so */
		c[i] = i % K;
		for (int j = 0; j < IN; j++)
			X[i * IN + j] = (j == c[i]) + 0.1 * (et_rng_unit(&r) - 0.5);
	}
	double first = loss_of(&a, &b, X, c, NULL), last = first;
	for (int t = 1; t <= 300; t++) {
		nn_dense_zero_grad(&a);
		nn_dense_zero_grad(&b);
		last = loss_of(&a, &b, X, c, dX);
		nn_dense_adam(&a, 0.01, t);
		nn_dense_adam(&b, 0.01, t);
	}
	CHECK(last < 0.05 && last < first / 10);
	nn_dense_free(&a);
	nn_dense_free(&b);
}

/* The message-passing layer: a loss Σ Y·G for a fixed G, so dY = G. */
enum { MN = 5, MD = 3 };
static const uint32_t medge[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {0, 4}};

static double mp_loss(nn_mp *l, const double *H, const double *G, double *dH)
{
	double scratch[2 * MN * MD], Y[MN * MD], dY[MN * MD], s = 0;
	nn_mp_forward(l, H, MN, medge, 6, scratch, Y);
	for (int i = 0; i < MN * MD; i++)
		s += Y[i] * G[i], dY[i] = G[i];
	if (dH)
		nn_mp_backward(l, H, MN, medge, 6, scratch, Y, dY, dH);
	return s;
}

static void test_mp(void)
{
	et_rng r;
	et_rng_seed(&r, 11, 0);
	nn_mp l;
	nn_mp_init(&l, MD, &r);
	for (int j = 0; j < MD; j++)
		l.self.b[j] = 0.5; /* away from ReLU's kink */
	double H[MN * MD], G[MN * MD], dH[MN * MD];
	for (int i = 0; i < MN * MD; i++)
		H[i] = et_rng_unit(&r), G[i] = 2 * et_rng_unit(&r) - 1;
	nn_mp_zero_grad(&l);
	mp_loss(&l, H, G, dH);
	double *ps[] = {l.self.W, l.in.W, l.out.W, l.self.b, H};
	const double *gs[] = {l.self.dW, l.in.dW, l.out.dW, l.self.db, dH};
	size_t ns[] = {MD * MD, MD * MD, MD * MD, MD, MN * MD};
	for (int k = 0; k < 5; k++)
		for (size_t i = 0; i < ns[k]; i++) {
			double keep = ps[k][i], h = 1e-6;
			ps[k][i] = keep + h;
			double up = mp_loss(&l, H, G, NULL);
			ps[k][i] = keep - h;
			double dn = mp_loss(&l, H, G, NULL);
			ps[k][i] = keep;
			CHECK(close(gs[k][i], (up - dn) / (2 * h)));
		}
	nn_mp_free(&l);
	double e[8];
	nn_sinusoid(0, 8, e);
	CHECK(e[0] == 0 && e[1] == 1 && e[6] == 0 && e[7] == 1);
	nn_sinusoid(2, 8, e);
	CHECK(fabs(e[0] - sin(2)) < 1e-15 && fabs(e[3] - cos(2 * 0.1)) < 1e-12);
}

/* The encoder: loss g·G over its three poolings (sum, mean, the front's),
 * plus Σ h_K·Gn over the node embeddings (backward_nodes); every parameter
 * of every layer checked. */
static double GN[MN * MD];
static const uint8_t front[MN] = {0, 1, 1, 0, 1};
static double enc_loss(nn_enc *e, const double *X, const double *G, bool back)
{
	double g[ENC_POOL * MD], s = 0;
	nn_enc_forward(e, X, MN, medge, 6, front, g);
	for (int j = 0; j < ENC_POOL * MD; j++)
		s += g[j] * G[j];
	for (int i = 0; i < MN * MD; i++)
		s += e->h[e->K][i] * GN[i];
	if (back)
		nn_enc_backward_nodes(e, X, medge, 6, front, G, GN);
	return s;
}

static void test_encoder(void)
{
	et_rng r;
	et_rng_seed(&r, 5, 0);
	nn_enc e;
	nn_enc_init(&e, 2, MD, 2, &r);
	for (int j = 0; j < MD; j++) /* biases away from ReLU's kink */
		e.input.b[j] = 0.4, e.mp[0].self.b[j] = 0.3, e.mp[1].self.b[j] = 0.3;
	double X[MN * 2], G[ENC_POOL * MD] = {0.3, -0.7, 0.5, 0.2, 0.9, -0.4, -0.6, 0.1, 0.8};
	for (int i = 0; i < MN * 2; i++)
		X[i] = et_rng_unit(&r);
	for (int i = 0; i < MN * MD; i++)
		GN[i] = 2 * et_rng_unit(&r) - 1;
	nn_enc_zero_grad(&e);
	enc_loss(&e, X, G, true);
	nn_dense *ls[] = {&e.input,      &e.mp[0].self, &e.mp[0].in, &e.mp[0].out,
	                  &e.mp[1].self, &e.mp[1].in,   &e.mp[1].out};
	for (int k = 0; k < 7; k++) {
		nn_dense *l = ls[k];
		for (size_t i = 0; i < l->in * l->out + l->out; i++) {
			bool isb = i >= l->in * l->out;
			double *p = isb ? &l->b[i - l->in * l->out] : &l->W[i];
			double grad = isb ? l->db[i - l->in * l->out] : l->dW[i];
			double keep = *p, h = 1e-6;
			*p = keep + h;
			double up = enc_loss(&e, X, G, false);
			*p = keep - h;
			double dn = enc_loss(&e, X, G, false);
			*p = keep;
			CHECK(close(grad, (up - dn) / (2 * h)));
		}
	}
	nn_enc_free(&e);
}

/* The MLP head (dense, ReLU, dense) under softmax cross-entropy: every
 * parameter of both layers and every input against finite differences. */
static double mlp_loss(nn_mlp *m, const double *X, const int *c, double *dX)
{
	double z[N * K], dz[N * K];
	nn_mlp_forward(m, X, N, z);
	double l = nn_softmax_xent(z, c, N, K, dz);
	if (dX)
		nn_mlp_backward(m, X, dz, N, dX);
	return l;
}

static void test_mlp(void)
{
	et_rng r;
	et_rng_seed(&r, 13, 0);
	nn_mlp m;
	nn_mlp_init(&m, IN, H, K, &r);
	for (size_t j = 0; j < H; j++) /* away from ReLU's kink */
		m.a.b[j] = 0.3 * (et_rng_unit(&r) - 0.5);
	double X[N * IN], dX[N * IN];
	int c[N];
	for (int i = 0; i < N * IN; i++)
		X[i] = 2 * et_rng_unit(&r) - 1;
	for (int i = 0; i < N; i++)
		c[i] = (int)et_rng_below(&r, K);
	nn_mlp_zero_grad(&m);
	mlp_loss(&m, X, c, dX);
	double *ps[] = {m.a.W, m.a.b, m.b.W, m.b.b, X};
	const double *gs[] = {m.a.dW, m.a.db, m.b.dW, m.b.db, dX};
	size_t ns[] = {IN * H, H, H * K, K, N * IN};
	for (int k = 0; k < 5; k++)
		for (size_t i = 0; i < ns[k]; i++) {
			double keep = ps[k][i], h = 1e-6;
			ps[k][i] = keep + h;
			double up = mlp_loss(&m, X, c, NULL);
			ps[k][i] = keep - h;
			double dn = mlp_loss(&m, X, c, NULL);
			ps[k][i] = keep;
			CHECK(close(gs[k][i], (up - dn) / (2 * h)));
		}
	/* Adam drives it down on a separable problem */
	for (int i = 0; i < N; i++) {
		c[i] = i % K;
		for (int j = 0; j < IN; j++)
			X[i * IN + j] = (j == c[i]) + 0.1 * (et_rng_unit(&r) - 0.5);
	}
	double first = mlp_loss(&m, X, c, NULL), last = first;
	for (int t = 1; t <= 300; t++) {
		nn_mlp_zero_grad(&m);
		last = mlp_loss(&m, X, c, dX);
		nn_mlp_adam(&m, 0.01, t);
	}
	CHECK(last < 0.05 && last < first / 10);
	nn_mlp_free(&m);
}

/* The MLP on rows that share a tail [X_i, sh]: its forward equals the plain
 * MLP's on the concatenated rows, and its gradients (parameters, X, sh)
 * match finite differences. */
enum { SP = 2, SS = IN - SP };
static double shared_loss(nn_mlp *m, double *X, double *sh, const int *c, double *dX, double *dsh)
{
	double z[N * K], dz[N * K];
	nn_mlp_forward_shared(m, X, N, SP, sh, z);
	double l = nn_softmax_xent(z, c, N, K, dz);
	if (dX)
		nn_mlp_backward_shared(m, X, N, SP, sh, dz, dX, dsh);
	return l;
}

static void test_mlp_shared(void)
{
	et_rng r;
	et_rng_seed(&r, 17, 0);
	nn_mlp m;
	nn_mlp_init(&m, IN, H, K, &r);
	for (size_t j = 0; j < H; j++)
		m.a.b[j] = 0.3 * (et_rng_unit(&r) - 0.5);
	double X[N * SP], sh[SS], full[N * IN], dX[N * SP], dsh[SS] = {0};
	int c[N];
	for (int i = 0; i < N * SP; i++)
		X[i] = 2 * et_rng_unit(&r) - 1;
	for (int j = 0; j < SS; j++)
		sh[j] = 2 * et_rng_unit(&r) - 1;
	for (int i = 0; i < N; i++) {
		c[i] = (int)et_rng_below(&r, K);
		for (int j = 0; j < IN; j++)
			full[i * IN + j] = j < SP ? X[i * SP + j] : sh[j - SP];
	}
	double za[N * K], zb[N * K];
	nn_mlp_forward(&m, full, N, za);
	nn_mlp_forward_shared(&m, X, N, SP, sh, zb);
	for (int i = 0; i < N * K; i++)
		CHECK(fabs(za[i] - zb[i]) < 1e-12);
	nn_mlp_zero_grad(&m);
	shared_loss(&m, X, sh, c, dX, dsh);
	double *ps[] = {m.a.W, m.a.b, m.b.W, m.b.b, X, sh};
	const double *gs[] = {m.a.dW, m.a.db, m.b.dW, m.b.db, dX, dsh};
	size_t ns[] = {IN * H, H, H * K, K, N * SP, SS};
	for (int k = 0; k < 6; k++)
		for (size_t i = 0; i < ns[k]; i++) {
			double keep = ps[k][i], h = 1e-6;
			ps[k][i] = keep + h;
			double up = shared_loss(&m, X, sh, c, NULL, NULL);
			ps[k][i] = keep - h;
			double dn = shared_loss(&m, X, sh, c, NULL, NULL);
			ps[k][i] = keep;
			CHECK(close(gs[k][i], (up - dn) / (2 * h)));
		}
	nn_mlp_free(&m);
}

int main(void)
{
	test_mlp();
	test_mlp_shared();
	test_encoder();
	test_mp();
	test_gradients();
	test_adam();
	return check_failures();
}
