/* The layer-size classifier (sizer.h). */
#include "layerdag-sample/sizer.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void ld_sizer_init(ld_sizer *z, uint32_t vocab, uint32_t S, size_t D, int K, et_rng *r)
{
	memset(z, 0, sizeof *z);
	z->vocab = vocab, z->S = S;
	nn_enc_init(&z->enc, vocab + 1, D, K, r);
	nn_dense_init(&z->head, D, S, r);
}

void ld_sizer_free(ld_sizer *z)
{
	nn_enc_free(&z->enc);
	nn_dense_free(&z->head);
}

/* The prefix of layers < l: node features and edges among those nodes
 * (indices renumbered in node order). Returns the node count. */
static uint32_t prefix(const ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t l,
                       double **X, uint32_t (**E)[2], size_t *ne)
{
	uint32_t F = z->vocab + 1, n = 0;
	uint32_t *ix = et_xcalloc(g->n + 1, sizeof *ix);
	for (uint32_t v = 0; v < g->n; v++)
		ix[v] = layer[v] < l ? n++ : UINT32_MAX;
	*X = et_xcalloc((size_t)n * F + 1, sizeof **X);
	for (uint32_t v = 0; v < g->n; v++)
		if (ix[v] != UINT32_MAX) {
			(*X)[(size_t)ix[v] * F + (g->attr[v] < z->vocab ? g->attr[v] : 0)] = 1;
			(*X)[(size_t)ix[v] * F + z->vocab] = (double)(l - layer[v]) / (l ? l : 1);
		}
	*E = et_xcalloc(g->ne + 1, sizeof **E);
	*ne = 0;
	for (uint32_t k = 0; k < g->ne; k++) {
		uint32_t a = ix[g->edge[k][0]], b = ix[g->edge[k][1]];
		if (a != UINT32_MAX && b != UINT32_MAX) {
			(*E)[*ne][0] = a, (*E)[*ne][1] = b;
			++*ne;
		}
	}
	free(ix);
	return n;
}

double ld_sizer_step(ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t l, int target,
                     double *logits)
{
	double *X;
	uint32_t(*E)[2];
	size_t ne;
	uint32_t n = prefix(z, g, layer, l, &X, &E, &ne);
	size_t D = z->enc.D;
	double *h = et_xcalloc(D, sizeof *h);
	nn_enc_forward(&z->enc, X, n, (const uint32_t(*)[2])E, ne, g->y, (double)l, h);
	nn_dense_forward(&z->head, h, 1, logits);
	double loss = 0;
	if (target >= 0) {
		double *dz = et_xcalloc(z->S, sizeof *dz), *dh = et_xcalloc(D, sizeof *dh);
		int c = target < (int)z->S ? target : (int)z->S - 1;
		loss = nn_softmax_xent(logits, &c, 1, z->S, dz);
		nn_dense_backward(&z->head, h, dz, 1, dh);
		nn_enc_backward(&z->enc, X, (const uint32_t(*)[2])E, ne, dh);
		free(dz);
		free(dh);
	}
	free(h);
	free(X);
	free(E);
	return loss;
}

double ld_sizer_epoch(ld_sizer *z, const ld_corpus *c, double lr)
{
	double total = 0;
	size_t count = 0;
	double *logits = et_xcalloc(z->S, sizeof *logits);
	for (size_t i = 0; i < c->n; i++) {
		const ld_dag *g = &c->g[i];
		uint32_t *layer = et_xcalloc(g->n + 1, sizeof *layer);
		uint32_t L = ld_layers(g, layer);
		uint32_t *w = et_xcalloc((size_t)L + 1, sizeof *w);
		for (uint32_t v = 0; v < g->n && L; v++)
			w[layer[v]]++;
		nn_enc_zero_grad(&z->enc);
		nn_dense_zero_grad(&z->head);
		for (uint32_t l = 0; l <= L && L; l++) { /* w[L] = 0: stop */
			total += ld_sizer_step(z, g, layer, l, (int)w[l], logits);
			count++;
		}
		z->steps++;
		nn_dense_adam(&z->head, lr, z->steps);
		nn_dense_adam(&z->enc.input, lr, z->steps);
		for (int k = 0; k < z->enc.K; k++) {
			nn_dense_adam(&z->enc.mp[k].self, lr, z->steps);
			nn_dense_adam(&z->enc.mp[k].in, lr, z->steps);
			nn_dense_adam(&z->enc.mp[k].out, lr, z->steps);
		}
		free(layer);
		free(w);
	}
	free(logits);
	return count ? total / (double)count : 0;
}
