/* The edge denoiser (edgediff.h). */
#include "layerdag-sample/edgediff.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_edgediff_init(ld_edgediff *d, const ld_corpus *c, int T, size_t D, int K, et_rng *r)
{
	memset(d, 0, sizeof *d);
	d->vocab = c->vocab ? c->vocab : 1;
	double in = 0, nodes = 0;
	for (size_t i = 0; i < c->n; i++) {
		uint32_t *deg = et_xcalloc(c->g[i].n + 1, sizeof *deg);
		for (uint32_t k = 0; k < c->g[i].ne; k++)
			deg[c->g[i].edge[k][1]]++;
		for (uint32_t v = 0; v < c->g[i].n; v++)
			if (deg[v])
				in += deg[v], nodes += 1;
		free(deg);
	}
	d->dbar = nodes > 0 ? in / nodes : 1;
	ld_schedule_cosine(&d->sched, T, 0.008);
	nn_enc_init(&d->enc, d->vocab + 2, D, K, r);
	nn_dense_init(&d->head, 3 * D, 2, r);
}

void ld_edgediff_free(ld_edgediff *d)
{
	ld_schedule_free(&d->sched);
	nn_enc_free(&d->enc);
	nn_dense_free(&d->head);
}

/* Forward (and backward without probs) of layer l at step t; the pairs'
 * noisy edges are drawn with r, or given (noisy_in[B × nn], candidates and
 * new nodes in node order); probs[B × nn] gets P(edge). */
static double run(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                  et_rng *r, const uint8_t *noisy_in, double *probs)
{
	uint32_t V = d->vocab, F = V + 2;
	size_t D = d->enc.D;
	/* the nodes up to layer l, renumbered; candidates = those before l */
	uint32_t *ix = et_xcalloc(g->n + 1, sizeof *ix), n = 0, B = 0, nn = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		ix[v] = layer[v] <= l ? n++ : UINT32_MAX;
		B += layer[v] < l;
		nn += layer[v] == l;
	}
	if (B == 0 || nn == 0) {
		free(ix);
		return 0;
	}
	double rho = (d->dbar < B ? d->dbar : B) / B, m[2] = {1 - rho, rho};
	/* clean adjacency of the pairs: a bit per (candidate, new node) */
	uint32_t *cand = et_xcalloc(B, sizeof *cand), *newv = et_xcalloc(nn, sizeof *newv);
	uint32_t nb = 0, nv = 0;
	for (uint32_t v = 0; v < g->n; v++) {
		if (layer[v] < l)
			cand[nb++] = v;
		else if (layer[v] == l)
			newv[nv++] = v;
	}
	size_t np = (size_t)B * nn;
	int *clean = et_xcalloc(np, sizeof *clean);
	uint8_t *noisy = et_xcalloc(np, 1);
	uint32_t *pos = et_xcalloc(g->n + 1, sizeof *pos);
	for (uint32_t i = 0; i < B; i++)
		pos[cand[i]] = i;
	for (uint32_t j = 0; j < nn; j++)
		pos[newv[j]] = j;
	for (uint32_t k = 0; k < g->ne; k++)
		if (layer[g->edge[k][1]] == l && layer[g->edge[k][0]] < l)
			clean[(size_t)pos[g->edge[k][0]] * nn + pos[g->edge[k][1]]] = 1;
	double q[2];
	for (size_t p = 0; p < np; p++) {
		if (noisy_in) {
			noisy[p] = noisy_in[p];
			continue;
		}
		ld_q_bar(&d->sched, t, m, 2, clean[p], q);
		noisy[p] = et_rng_unit(r) < q[1];
	}
	/* each node's successors among the layers before l: what a candidate
	 * already feeds (the model's handle on out-degree) */
	uint32_t *od = et_xcalloc(g->n + 1, sizeof *od);
	for (uint32_t k = 0; k < g->ne; k++)
		if (layer[g->edge[k][1]] < l)
			od[g->edge[k][0]]++;
	/* the graph the encoder sees: the prefix's edges and the noisy ones */
	double *X = et_xcalloc((size_t)n * F + 1, sizeof *X);
	for (uint32_t v = 0; v < g->n; v++)
		if (ix[v] != UINT32_MAX) {
			X[(size_t)ix[v] * F + (g->attr[v] < V ? g->attr[v] : 0)] = 1;
			X[(size_t)ix[v] * F + V] = layer[v] == l;
			X[(size_t)ix[v] * F + V + 1] = (double)od[v] / 4; /* successors so far */
		}
	uint32_t(*E)[2] = et_xcalloc(g->ne + np + 1, sizeof *E);
	size_t ne = 0;
	for (uint32_t k = 0; k < g->ne; k++)
		if (layer[g->edge[k][0]] < l && layer[g->edge[k][1]] < l)
			E[ne][0] = ix[g->edge[k][0]], E[ne][1] = ix[g->edge[k][1]], ne++;
	for (size_t p = 0; p < np; p++)
		if (noisy[p])
			E[ne][0] = ix[cand[p / nn]], E[ne][1] = ix[newv[p % nn]], ne++;
	double *pool = et_xcalloc(D, sizeof *pool);
	nn_enc_forward(&d->enc, X, n, (const uint32_t(*)[2])E, ne, g->y, (double)t, pool);
	const double *H = d->enc.h[d->enc.K];
	double *in = et_xcalloc(np * 3 * D, sizeof *in), *z = et_xcalloc(np * 2, sizeof *z);
	double *dz = et_xcalloc(np * 2, sizeof *dz), *din = et_xcalloc(np * 3 * D, sizeof *din);
	for (size_t p = 0; p < np; p++) {
		memcpy(in + p * 3 * D, H + (size_t)ix[cand[p / nn]] * D, D * sizeof *in);
		memcpy(in + p * 3 * D + D, H + (size_t)ix[newv[p % nn]] * D, D * sizeof *in);
		memcpy(in + p * 3 * D + 2 * D, pool, D * sizeof *in);
	}
	nn_dense_forward(&d->head, in, np, z);
	double loss = 0;
	double *dnode = et_xcalloc((size_t)n * D + 1, sizeof *dnode),
	       *dpool = et_xcalloc(D, sizeof *dpool);
	if (probs) {
		for (size_t p = 0; p < np; p++)
			probs[p] = 1 / (1 + exp(z[2 * p] - z[2 * p + 1]));
	} else {
		loss = nn_softmax_xent(z, clean, np, 2, dz);
		nn_dense_backward(&d->head, in, dz, np, din);
		for (size_t p = 0; p < np; p++)
			for (size_t j = 0; j < D; j++) {
				dnode[(size_t)ix[cand[p / nn]] * D + j] += din[p * 3 * D + j];
				dnode[(size_t)ix[newv[p % nn]] * D + j] += din[p * 3 * D + D + j];
				dpool[j] += din[p * 3 * D + 2 * D + j];
			}
		nn_enc_backward_nodes(&d->enc, X, (const uint32_t(*)[2])E, ne, dpool, dnode);
	}
	free(ix), free(cand), free(newv), free(clean), free(noisy), free(pos), free(X), free(E);
	free(od);
	free(pool), free(in), free(z), free(dz), free(din), free(dnode), free(dpool);
	return loss;
}

double ld_edgediff_example(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t l,
                           int t, et_rng *r)
{
	return run(d, g, layer, l, t, r, NULL, NULL);
}

void ld_edgediff_predict(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                         const uint8_t *noisy, double *probs)
{
	run(d, g, layer, l, t, NULL, noisy, probs);
}

double ld_edgediff_rho(const ld_edgediff *d, uint32_t B)
{
	return (d->dbar < B ? d->dbar : B) / B;
}

double ld_edgediff_epoch(ld_edgediff *d, const ld_corpus *c, double lr, et_rng *r)
{
	double total = 0;
	size_t count = 0;
	for (size_t i = 0; i < c->n; i++) {
		const ld_dag *g = &c->g[i];
		uint32_t *layer = et_xcalloc(g->n + 1, sizeof *layer);
		uint32_t L = ld_layers(g, layer);
		nn_enc_zero_grad(&d->enc);
		nn_dense_zero_grad(&d->head);
		for (uint32_t l = 1; l < L; l++) {
			int t = 1 + (int)et_rng_below(r, (uint64_t)d->sched.T);
			total += ld_edgediff_example(d, g, layer, l, t, r);
			count++;
		}
		d->steps++;
		nn_dense_adam(&d->head, lr, d->steps);
		nn_dense_adam(&d->enc.input, lr, d->steps);
		for (int k = 0; k < d->enc.K; k++) {
			nn_dense_adam(&d->enc.mp[k].self, lr, d->steps);
			nn_dense_adam(&d->enc.mp[k].in, lr, d->steps);
			nn_dense_adam(&d->enc.mp[k].out, lr, d->steps);
		}
		free(layer);
	}
	return count ? total / (double)count : 0;
}
