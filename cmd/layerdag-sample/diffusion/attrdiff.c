/* The attribute denoiser (attrdiff.h). */
#include "layerdag-sample/diffusion/attrdiff.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_attrdiff_init(ld_attrdiff *a, const ld_corpus *c, int T, size_t D, int K, size_t H,
                      et_rng *r)
{
	memset(a, 0, sizeof *a);
	a->vocab = c->vocab ? c->vocab : 1;
	a->marginal = et_xcalloc(a->vocab, sizeof *a->marginal);
	double n = 0;
	for (size_t i = 0; i < c->n; i++)
		for (uint32_t v = 0; v < c->g[i].n; v++)
			a->marginal[c->g[i].attr[v]] += 1, n += 1;
	for (uint32_t k = 0; k < a->vocab; k++)
		a->marginal[k] = n > 0 ? a->marginal[k] / n : 1.0 / a->vocab;
	ld_cond_fit(&a->cond, c);
	ld_schedule_cosine(&a->sched, T, 0.008);
	nn_enc_init(&a->enc, a->vocab + LD_NODE_EXTRA, D, K, r);
	nn_mlp_init(&a->head, (1 + ENC_POOL) * D + LD_CTX, H, a->vocab, r);
}

void ld_attrdiff_free(ld_attrdiff *a)
{
	free(a->marginal);
	ld_schedule_free(&a->sched);
	nn_enc_head_free(&a->enc, &a->head);
}

void ld_attrdiff_zero_grad(ld_attrdiff *a)
{
	nn_enc_head_zero_grad(&a->enc, &a->head);
}

void ld_attrdiff_adam(ld_attrdiff *a, double lr)
{
	nn_enc_head_adam(&a->enc, &a->head, lr, &a->steps);
}

/* x_t for a clean attribute x0: a draw from row x0 of Q̄_t. */
static uint32_t noise(const ld_attrdiff *a, int t, uint32_t x0, et_rng *r)
{
	double *q = et_xcalloc(a->vocab, sizeof *q), u = et_rng_unit(r);
	ld_q_bar(&a->sched, t, a->marginal, (int)a->vocab, (int)x0, q);
	uint32_t k = 0;
	for (; k + 1 < a->vocab && u >= q[k]; k++)
		u -= q[k];
	free(q);
	return k;
}

static void softmax_rows(const double *z, uint32_t n, uint32_t V, double *probs)
{
	for (uint32_t i = 0; i < n; i++) {
		const double *zi = z + (size_t)i * V;
		double *pi = probs + (size_t)i * V, mx = zi[0], s = 0;
		for (uint32_t k = 1; k < V; k++)
			mx = zi[k] > mx ? zi[k] : mx;
		for (uint32_t k = 0; k < V; k++)
			s += pi[k] = exp(zi[k] - mx);
		for (uint32_t k = 0; k < V; k++)
			pi[k] /= s;
	}
}

/* The forward (and, without probs, the backward) of layer l at step t; the
 * new nodes' attributes are noised from g's with r, or given (noisy, in
 * node order of layer l); probs gets the predicted distributions. */
static double run(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                  int last, et_rng *r, const uint32_t *noisy, double *probs)
{
	uint32_t V = a->vocab;
	size_t D = a->enc.D, P = ENC_POOL * D, I = D + P + LD_CTX;
	ld_view v;
	ld_view_build(&v, g, layer, l, true, V, &a->cond, false);
	uint32_t w = v.w;
	int *clean = et_xcalloc(w + 1, sizeof *clean);
	for (uint32_t i = 0; i < w; i++) {
		uint32_t u = v.node[v.B + i];
		clean[i] = (int)g->attr[u];
		ld_view_set_attr(&v, v.B + i, noisy ? noisy[i] : noise(a, t, g->attr[u], r), V,
		                 a->cond.arity);
	}
	double *pool = et_xcalloc(P + LD_CTX, sizeof *pool);
	nn_enc_forward(&a->enc, v.X, v.n, (const uint32_t(*)[2])v.E, v.ne, v.front, pool);
	ld_ctx_in ci = {.y = g->y,
	                .t = t,
	                .T = a->sched.T,
	                .l = l,
	                .n = v.prefix,
	                .wprev = v.wprev,
	                .wnew = w,
	                .last = last,
	                .demand = v.demand};
	ld_ctx(&a->cond, &ci, pool + P);
	/* each new node: [its embedding, the pooled vector, the context] -> logits */
	double *in = et_xcalloc((size_t)w * I + 1, sizeof *in);
	double *z = et_xcalloc((size_t)w * V + 1, sizeof *z);
	for (uint32_t i = 0; i < w; i++) {
		memcpy(in + i * I, a->enc.h[a->enc.K] + (size_t)(v.B + i) * D, D * sizeof *in);
		memcpy(in + i * I + D, pool, (P + LD_CTX) * sizeof *in);
	}
	nn_mlp_forward(&a->head, in, w, z);
	double loss = 0;
	if (probs) {
		softmax_rows(z, w, V, probs);
	} else if (w) {
		double *dz = et_xcalloc((size_t)w * V, sizeof *dz);
		double *din = et_xcalloc((size_t)w * I, sizeof *din);
		loss = nn_softmax_xent(z, clean, w, V, dz);
		nn_mlp_backward(&a->head, in, dz, w, din);
		double *dnode = et_xcalloc((size_t)v.n * D + 1, sizeof *dnode);
		double *dpool = et_xcalloc(P, sizeof *dpool);
		for (uint32_t i = 0; i < w; i++) {
			for (size_t j = 0; j < D; j++)
				dnode[(size_t)(v.B + i) * D + j] += din[i * I + j];
			for (size_t j = 0; j < P; j++)
				dpool[j] += din[i * I + D + j];
		}
		nn_enc_backward_nodes(&a->enc, v.X, (const uint32_t(*)[2])v.E, v.ne, v.front, dpool,
		                      dnode);
		free(dnode), free(dpool), free(dz), free(din);
	}
	ld_view_free(&v);
	free(clean), free(pool), free(in), free(z);
	return loss;
}

double ld_attrdiff_example(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l,
                           int t, int last, et_rng *r)
{
	return run(a, g, layer, l, t, last, r, NULL, NULL);
}

void ld_attrdiff_predict(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                         int last, const uint32_t *noisy, double *probs)
{
	run(a, g, layer, l, t, last, NULL, noisy, probs);
}

double ld_attrdiff_range(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t L,
                         uint32_t l0, uint32_t l1, et_rng *r, size_t *count)
{
	double total = 0;
	for (uint32_t l = l0; l < l1 && l < L; l++) {
		int t = 1 + (int)et_rng_below(r, (uint64_t)a->sched.T);
		total += ld_attrdiff_example(a, g, layer, l, t, l + 1 == L, r);
		++*count;
	}
	return total;
}
