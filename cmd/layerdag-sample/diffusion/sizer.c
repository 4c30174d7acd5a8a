/* The layer-size classifier (sizer.h). */
#include "layerdag-sample/diffusion/sizer.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_sizer_init(ld_sizer *z, uint32_t vocab, uint32_t S, size_t D, int K, size_t H, et_rng *r)
{
	memset(z, 0, sizeof *z);
	z->vocab = vocab, z->S = S;
	z->cond = (ld_cond){.ymu = 0, .ysd = 1, .arity = NULL};
	nn_enc_init(&z->enc, vocab + LD_NODE_EXTRA, D, K, r);
	nn_mlp_init(&z->head, ENC_POOL * D + LD_CTX + S, H, 2 * (size_t)S, r);
}

void ld_sizer_free(ld_sizer *z)
{
	nn_enc_head_free(&z->enc, &z->head);
}

void ld_sizer_zero_grad(ld_sizer *z)
{
	nn_enc_head_zero_grad(&z->enc, &z->head);
}

void ld_sizer_adam(ld_sizer *z, double lr)
{
	nn_enc_head_adam(&z->enc, &z->head, lr, &z->steps);
}

double ld_sizer_step(ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t l, int target,
                     double *logits)
{
	ld_view v;
	ld_view_build(&v, g, layer, l, false, z->vocab, &z->cond, false);
	size_t D = z->enc.D, P = ENC_POOL * D, I = P + LD_CTX + z->S;
	double *in = et_xcalloc(I, sizeof *in);
	nn_enc_forward(&z->enc, v.X, v.n, (const uint32_t(*)[2])v.E, v.ne, v.front, in);
	ld_ctx_in ci = {.y = g->y, .l = l, .n = v.prefix, .wprev = v.wprev, .demand = v.demand};
	ld_ctx(&z->cond, &ci, in + P);
	/* the demand as a one-hot too: the width it predicts is a class */
	double dm = floor(v.demand + 0.5);
	in[P + LD_CTX + (dm < z->S - 1 ? (size_t)dm : z->S - 1)] = 1;
	nn_mlp_forward(&z->head, in, 1, logits);
	double loss = 0;
	if (target >= 0) {
		double *dz = et_xcalloc(2 * z->S, sizeof *dz), *din = et_xcalloc(I, sizeof *din);
		int c = target;
		loss = nn_softmax_xent(logits, &c, 1, 2 * z->S, dz);
		nn_mlp_backward(&z->head, in, dz, 1, din);
		nn_enc_backward(&z->enc, v.X, (const uint32_t(*)[2])v.E, v.ne, v.front, din);
		free(dz);
		free(din);
	}
	free(in);
	ld_view_free(&v);
	return loss;
}

double ld_sizer_range(ld_sizer *z, const ld_dag *g, const uint32_t *layer, uint32_t L, uint32_t l0,
                      uint32_t l1, size_t *count)
{
	double total = 0;
	double *logits = et_xcalloc(2 * z->S, sizeof *logits);
	uint32_t *w = et_xcalloc((size_t)L + 1, sizeof *w);
	for (uint32_t v = 0; v < g->n && L; v++)
		w[layer[v]]++;
	for (uint32_t l = l0; l < l1 && l < L; l++) {
		uint32_t s = w[l] < z->S ? w[l] : z->S - 1;
		total += ld_sizer_step(z, g, layer, l, (int)(s + z->S * (l + 1 == L)), logits);
		++*count;
	}
	free(w);
	free(logits);
	return total;
}
