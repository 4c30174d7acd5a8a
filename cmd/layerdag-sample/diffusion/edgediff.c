/* The edge denoiser (edgediff.h). */
#include "layerdag-sample/diffusion/edgediff.h"
#include "et_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void ld_edgediff_init(ld_edgediff *d, const ld_corpus *c, int T, size_t D, int K, size_t H,
                      et_rng *r)
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
	ld_cond_fit(&d->cond, c);
	ld_schedule_cosine(&d->sched, T, 0.008);
	nn_enc_init(&d->enc, d->vocab + LD_NODE_EXTRA, D, K, r);
	nn_mlp_init(&d->head, (2 + ENC_POOL) * D + LD_PAIR + LD_CTX, H, 2, r);
}

void ld_edgediff_free(ld_edgediff *d)
{
	ld_schedule_free(&d->sched);
	nn_enc_head_free(&d->enc, &d->head);
}

void ld_edgediff_zero_grad(ld_edgediff *d)
{
	nn_enc_head_zero_grad(&d->enc, &d->head);
}

void ld_edgediff_adam(ld_edgediff *d, double lr)
{
	nn_enc_head_adam(&d->enc, &d->head, lr, &d->steps);
}

/* The pairs' clean bits (B candidates × w new nodes, view order) and their
 * noisy ones, drawn at step t with r or copied from noisy_in. */
static void pair_bits(const ld_edgediff *d, const ld_dag *g, const ld_view *v, int t, et_rng *r,
                      const uint8_t *noisy_in, int *clean, uint8_t *noisy)
{
	uint32_t B = v->B, w = v->w;
	size_t np = (size_t)B * w;
	for (uint32_t k = v->elo; k < v->ehi; k++) {
		uint32_t a = ld_view_ix(v, g->edge[k][0]), b = ld_view_ix(v, g->edge[k][1]);
		if (a < B && b != UINT32_MAX && b >= B)
			clean[(size_t)a * w + (b - B)] = 1;
	}
	double rho = ld_edgediff_rho(d, B), m[2] = {1 - rho, rho}, q[2];
	for (size_t p = 0; p < np; p++) {
		if (noisy_in) {
			noisy[p] = noisy_in[p];
			continue;
		}
		ld_q_bar(&d->sched, t, m, 2, clean[p], q);
		noisy[p] = et_rng_unit(r) < q[1];
	}
}

/* Row p's pair features (LD_PAIR values). */
static void pair_feat(const ld_edgediff *d, const ld_dag *g, const ld_view *v,
                      const uint32_t *layer, uint32_t l, size_t p, const uint8_t *noisy,
                      const uint32_t *nout, const uint32_t *nin, double *f)
{
	uint32_t w = v->w, u = (uint32_t)(p / w), j = (uint32_t)(p % w), a = g->attr[v->node[u]];
	uint32_t dist = l - layer[v->node[u]];
	memset(f, 0, LD_PAIR * sizeof *f);
	f[(dist < 4 ? dist : 4) - 1] = 1;
	f[4] = v->od[u] / 4.0;
	f[5] = noisy[p];
	f[6] = nout[u] / 4.0;
	f[7] = nin[j] / 4.0;
	/* the operands u still lacks: its arity less the edges it has */
	f[8] = ((d->cond.arity && a < d->vocab ? d->cond.arity[a] : 0) - v->od[u] - nout[u]) / 4;
}

/* Forward (and backward without probs) of layer l at step t; the pairs'
 * noisy edges are drawn with r, or given (noisy_in[B × w], candidates and
 * new nodes in node order); probs[B × w] gets P(edge). */
static double run(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t l, int t,
                  et_rng *r, const uint8_t *noisy_in, double *probs)
{
	ld_view v; /* room for the pairs' noisy edges */
	ld_view_build(&v, g, layer, l, true, d->vocab, &d->cond, true);
	uint32_t B = v.B, w = v.w;
	size_t np = (size_t)B * w;
	if (np == 0) {
		ld_view_free(&v);
		return 0;
	}
	size_t D = d->enc.D, P = ENC_POOL * D, I = 2 * D + LD_PAIR; /* per pair; then pool, ctx */
	int *clean = et_xcalloc(np, sizeof *clean);
	uint8_t *noisy = et_xcalloc(np, 1);
	pair_bits(d, g, &v, t, r, noisy_in, clean, noisy);
	uint32_t *nout = et_xcalloc(B, sizeof *nout), *nin = et_xcalloc(w, sizeof *nin);
	for (size_t p = 0; p < np; p++)
		if (noisy[p]) { /* the noisy edges join the encoder's graph */
			v.E[v.ne][0] = (uint32_t)(p / w), v.E[v.ne][1] = B + (uint32_t)(p % w),
			v.ne++;
			nout[p / w]++, nin[p % w]++;
		}
	double *pool = et_xcalloc(P + LD_CTX, sizeof *pool);
	nn_enc_forward(&d->enc, v.X, v.n, (const uint32_t(*)[2])v.E, v.ne, v.front, pool);
	ld_ctx_in ci = {.y = g->y,
	                .t = t,
	                .T = d->sched.T,
	                .l = l,
	                .n = v.prefix,
	                .wprev = v.wprev,
	                .wnew = w,
	                .demand = v.demand};
	ld_ctx(&d->cond, &ci, pool + P);
	const double *H = d->enc.h[d->enc.K];
	double *in = et_xcalloc(np * I, sizeof *in), *z = et_xcalloc(np * 2, sizeof *z);
	for (size_t p = 0; p < np; p++) {
		double *row = in + p * I;
		memcpy(row, H + (p / w) * D, D * sizeof *in);
		memcpy(row + D, H + (B + p % w) * D, D * sizeof *in);
		pair_feat(d, g, &v, layer, l, p, noisy, nout, nin, row + 2 * D);
	}
	/* [pool, context] is the same for every pair: the head takes it once */
	nn_mlp_forward_shared(&d->head, in, np, I, pool, z);
	double loss = 0;
	if (probs) {
		for (size_t p = 0; p < np; p++)
			probs[p] = 1 / (1 + exp(z[2 * p] - z[2 * p + 1]));
	} else {
		double *dz = et_xcalloc(np * 2, sizeof *dz), *din = et_xcalloc(np * I, sizeof *din);
		double *dnode = et_xcalloc((size_t)v.n * D, sizeof *dnode),
		       *dpool = et_xcalloc(P + LD_CTX, sizeof *dpool);
		loss = nn_softmax_xent(z, clean, np, 2, dz);
		nn_mlp_backward_shared(&d->head, in, np, I, pool, dz, din, dpool);
		for (size_t p = 0; p < np; p++) {
			const double *dr = din + p * I;
			for (size_t j = 0; j < D; j++) {
				dnode[(p / w) * D + j] += dr[j];
				dnode[(B + p % w) * D + j] += dr[D + j];
			}
		}
		nn_enc_backward_nodes(&d->enc, v.X, (const uint32_t(*)[2])v.E, v.ne, v.front, dpool,
		                      dnode);
		free(dz), free(din), free(dnode), free(dpool);
	}
	ld_view_free(&v);
	free(clean), free(noisy), free(nout), free(nin), free(pool), free(in), free(z);
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
	return B ? (d->dbar < B ? d->dbar : B) / B : 0;
}

double ld_edgediff_range(ld_edgediff *d, const ld_dag *g, const uint32_t *layer, uint32_t L,
                         uint32_t l0, uint32_t l1, et_rng *r, size_t *count)
{
	double total = 0;
	for (uint32_t l = l0 ? l0 : 1; l < l1 && l < L; l++) {
		int t = 1 + (int)et_rng_below(r, (uint64_t)d->sched.T);
		total += ld_edgediff_example(d, g, layer, l, t, r);
		++*count;
	}
	return total;
}
