/* The attribute denoiser (attrdiff.h). */
#include "layerdag-sample/attrdiff.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_attrdiff_init(ld_attrdiff *a, const ld_corpus *c, int T, size_t D, int K, et_rng *r)
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
	ld_schedule_cosine(&a->sched, T, 0.008);
	nn_enc_init(&a->enc, a->vocab + 1, D, K, r);
	nn_dense_init(&a->head, 2 * D, a->vocab, r);
}

void ld_attrdiff_free(ld_attrdiff *a)
{
	free(a->marginal);
	ld_schedule_free(&a->sched);
	nn_enc_free(&a->enc);
	nn_dense_free(&a->head);
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

/* The forward (and, without probs, the backward) of layer l at step t; the
 * new nodes' attributes are noised from g's with r, or given (noisy, in
 * node order of layer l); probs gets the predicted distributions. */
static double run(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                  et_rng *r, const uint32_t *noisy, double *probs)
{
	uint32_t V = a->vocab, F = V + 1;
	size_t D = a->enc.D;
	/* nodes: the prefix (layers < l) then the new layer (layer l) */
	uint32_t *ix = et_xcalloc(g->n + 1, sizeof *ix), n = 0, nnew = 0;
	for (uint32_t v = 0; v < g->n; v++)
		ix[v] = layer[v] < l ? n++ : UINT32_MAX;
	uint32_t *newv = et_xcalloc(g->n + 1, sizeof *newv);
	for (uint32_t v = 0; v < g->n; v++)
		if (layer[v] == l)
			newv[nnew++] = v, ix[v] = n++;
	double *X = et_xcalloc((size_t)n * F + 1, sizeof *X);
	int *clean = et_xcalloc(nnew + 1, sizeof *clean);
	uint32_t seen_new = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		if (ix[v] == UINT32_MAX)
			continue;
		bool is_new = layer[v] == l;
		uint32_t x = !is_new ? g->attr[v]
		             : noisy ? noisy[seen_new]
		                     : noise(a, t, g->attr[v], r);
		seen_new += is_new;
		X[(size_t)ix[v] * F + (x < V ? x : 0)] = 1;
		X[(size_t)ix[v] * F + V] = is_new;
	}
	uint32_t(*E)[2] = et_xcalloc(g->ne + 1, sizeof *E);
	size_t ne = 0;
	for (uint32_t k = 0; k < g->ne; k++) { /* edges of the prefix only */
		uint32_t s = g->edge[k][0], d = g->edge[k][1];
		if (layer[s] < l && layer[d] < l)
			E[ne][0] = ix[s], E[ne][1] = ix[d], ne++;
	}
	double *pool = et_xcalloc(D, sizeof *pool);
	nn_enc_forward(&a->enc, X, n, (const uint32_t(*)[2])E, ne, g->y, (double)t, pool);
	/* each new node: [its embedding, the pooled embedding] -> logits */
	double *in = et_xcalloc((size_t)nnew * 2 * D + 1, sizeof *in);
	double *z = et_xcalloc((size_t)nnew * V + 1, sizeof *z);
	double *dz = et_xcalloc((size_t)nnew * V + 1, sizeof *dz);
	double *din = et_xcalloc((size_t)nnew * 2 * D + 1, sizeof *din);
	for (uint32_t i = 0; i < nnew; i++) {
		memcpy(in + (size_t)i * 2 * D, a->enc.h[a->enc.K] + (size_t)ix[newv[i]] * D,
		       D * sizeof *in);
		memcpy(in + (size_t)i * 2 * D + D, pool, D * sizeof *in);
		clean[i] = (int)g->attr[newv[i]];
	}
	nn_dense_forward(&a->head, in, nnew, z);
	double loss = 0;
	if (probs) {
		for (uint32_t i = 0; i < nnew; i++) {
			double mx = z[(size_t)i * V], s = 0;
			for (uint32_t k = 1; k < V; k++)
				mx = z[(size_t)i * V + k] > mx ? z[(size_t)i * V + k] : mx;
			for (uint32_t k = 0; k < V; k++)
				s += probs[(size_t)i * V + k] = exp(z[(size_t)i * V + k] - mx);
			for (uint32_t k = 0; k < V; k++)
				probs[(size_t)i * V + k] /= s;
		}
	} else if (nnew) {
		loss = nn_softmax_xent(z, clean, nnew, V, dz);
		nn_dense_backward(&a->head, in, dz, nnew, din);
		double *dnode = et_xcalloc((size_t)n * D + 1, sizeof *dnode);
		double *dpool = et_xcalloc(D, sizeof *dpool);
		for (uint32_t i = 0; i < nnew; i++)
			for (size_t j = 0; j < D; j++) {
				dnode[(size_t)ix[newv[i]] * D + j] += din[(size_t)i * 2 * D + j];
				dpool[j] += din[(size_t)i * 2 * D + D + j];
			}
		nn_enc_backward_nodes(&a->enc, X, (const uint32_t(*)[2])E, ne, dpool, dnode);
		free(dnode);
		free(dpool);
	}
	free(ix), free(newv), free(X), free(clean), free(E), free(pool);
	free(in), free(z), free(dz), free(din);
	return loss;
}

double ld_attrdiff_example(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l,
                           int t, et_rng *r)
{
	return run(a, g, layer, l, t, r, NULL, NULL);
}

void ld_attrdiff_predict(ld_attrdiff *a, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                         const uint32_t *noisy, double *probs)
{
	run(a, g, layer, l, t, NULL, noisy, probs);
}

double ld_attrdiff_epoch(ld_attrdiff *a, const ld_corpus *c, double lr, et_rng *r)
{
	double total = 0;
	size_t count = 0;
	for (size_t i = 0; i < c->n; i++) {
		const ld_dag *g = &c->g[i];
		uint32_t *layer = et_xcalloc(g->n + 1, sizeof *layer);
		uint32_t L = ld_layers(g, layer);
		nn_enc_zero_grad(&a->enc);
		nn_dense_zero_grad(&a->head);
		for (uint32_t l = 0; l < L; l++) {
			int t = 1 + (int)et_rng_below(r, (uint64_t)a->sched.T);
			total += ld_attrdiff_example(a, g, layer, l, t, r);
			count++;
		}
		a->steps++;
		nn_dense_adam(&a->head, lr, a->steps);
		nn_dense_adam(&a->enc.input, lr, a->steps);
		for (int k = 0; k < a->enc.K; k++) {
			nn_dense_adam(&a->enc.mp[k].self, lr, a->steps);
			nn_dense_adam(&a->enc.mp[k].in, lr, a->steps);
			nn_dense_adam(&a->enc.mp[k].out, lr, a->steps);
		}
		free(layer);
	}
	return count ? total / (double)count : 0;
}
