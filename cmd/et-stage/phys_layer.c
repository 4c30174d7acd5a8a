/* Physical mode: one transformer layer, forward and backward, on one rank
 * (Megatron-style tensor parallelism, optionally sequence-parallel).
 *
 * FLOPs: a product of [T, I] by [I, O] is 2·T·I·O. Attention's score
 * products QKᵀ and PV are 2·Tq·Skv·(D/tp) each, times 1/2 with a causal
 * mask; backward has four of them (dP, dV, dQ, dK). Elementwise work is
 * counted per element: LayerNorm 5 (RMSNorm 4), softmax 5, GeLU 8, SwiGLU 4,
 * an add 1. Sizes are bytes of the compute dtype. */
#include "et-stage/phys_int.h"

#include <string.h>

static sgv comp(pb *b, const char *name, int op, num flops, num elems, const sgv *deps, int nd)
{
	return sg_comp(b->g, name, op, flops, elems * b->db, deps, nd);
}

/* A weight product; its weight (wi × wo elements) is named for the memory
 * attributes. */
static sgv mm(pb *b, const char *name, num T, num wi, num wo, const sgv *deps, int nd,
              const char *w)
{
	return sg_comp_w(b->g, name, OP_M, 2 * T * wi * wo, T * wo * b->db, deps, nd, w,
	                 wi * wo * b->db);
}

/* Sequence-parallel activations are gathered over tp before a
 * column-parallel product (and its weight gradient). */
static sgv tp_gather(pb *b, const char *name, sgv x)
{
	return b->sp ? sg_coll(b->g, name, 1, AG, DIM_TP, b->Tsp * b->D * b->db, x) : x;
}

/* A row-parallel product's partial output of T·D elements. */
static sgv tp_reduce(pb *b, const char *name, num T, sgv x)
{
	return sg_coll(b->g, name, 1, b->sp ? RS : AR, DIM_TP, T * b->D * b->db, x);
}

static num norm_flops(const pb *b)
{
	return b->arch == ARCH_GPT ? 5 : 4; /* LayerNorm; RMSNorm */
}

static sgv norm(pb *b, const char *name, sgv x)
{
	return comp(b, name, OP_E, norm_flops(b) * b->Tsp * b->D, b->Tsp * b->D, SGD(x));
}

/* The score products of one direction: 2·Tq·Skv·Dt FLOPs, times att. */
static num score_flops(const pb *b)
{
	return 2 * b->Tq * b->Skv * b->Dt * b->att;
}

/* Core attention forward: QKᵀ, softmax, PV; returns the output, the
 * probabilities in *probs. */
static sgv core_attention(pb *b, const char *tag, sgv q, sgv kv, sgv *probs)
{
	const char *p = b->pre;
	num heads = b->H / b->tp, sc = heads * b->Tq * b->Skv * b->att;
	sgv s = comp(b, PN("%s.attn%s.scores", p, tag), OP_M, score_flops(b), b->Tq * b->Dt,
	             SGD(q, kv));
	*probs = comp(b, PN("%s.attn%s.softmax", p, tag), OP_E, 5 * sc, b->Tq * b->Dt, SGD(s));
	return comp(b, PN("%s.attn%s.pv", p, tag), OP_M, score_flops(b), b->Tq * b->Dt,
	            SGD(*probs, kv));
}

static sgv attention_forward(pb *b, sgv x, lsave *s, const char *tag)
{
	const char *p = b->pre;
	s->x = x;
	s->ln1 = norm(b, PN("%s.attn%s.norm", p, tag), x);
	sgv in = tp_gather(b, PN("%s.attn%s.norm", p, tag), s->ln1);
	s->qkv = mm(b, PN("%s.attn%s.qkv", p, tag), b->Tq, b->D, b->qkvw, SGD(in, s->wg),
	            PN("layer.w_qkv"));
	/* context parallelism: every rank needs all keys and values */
	s->kv = sg_coll(b->g, PN("%s.attn%s.kv", p, tag), 1, AG, DIM_CP, 2 * b->Tq * b->kvw * b->db,
	                s->qkv);
	sgv kv = s->kv;
	if (b->kv_write > 0) { /* inference: this step's keys and values into the cache */
		sg_mem(b->g, PN("%s.attn.kv_cache", p), true, b->kv_write, SGD(s->qkv));
	}
	if (b->kv_read > 0) { /* and the cached ones read back */
		sgv ld = sg_mem(b->g, PN("%s.attn.kv_cache", p), false, b->kv_read, SGD(x));
		kv = sg_comp(b->g, PN("%s.attn.kv", p), OP_CUSTOM, 0, 0, SGD(s->kv, ld));
	}
	s->o = core_attention(b, tag, s->qkv, kv, &s->probs);
	sgv y = mm(b, PN("%s.attn%s.proj", p, tag), b->Tq, b->Dt, b->D, SGD(s->o, s->wg),
	           PN("layer.w_proj"));
	y = tp_reduce(b, PN("%s.attn%s.proj", p, tag), b->Tq, y);
	s->res1 = comp(b, PN("%s.attn%s.residual", p, tag), OP_A, b->Tsp * b->D, b->Tsp * b->D,
	               SGD(y, x));
	return s->res1;
}

static sgv attention_backward(pb *b, lsave *s, sgv dy, sgv *wg, int *nw)
{
	sg *g = b->g;
	const char *p = b->pre;
	sgv d = tp_gather(b, PN("%s.attn.d_residual", p), dy);
	sgv dO =
	    mm(b, PN("%s.attn.d_proj", p), b->Tq, b->D, b->Dt, SGD(d, s->wg), PN("layer.w_proj"));
	wg[(*nw)++] = sg_comp(g, PN("%s.attn.dw_proj", p), OP_M, 2 * b->Tq * b->Dt * b->D,
	                      b->Dt * b->D * b->db, SGD(d, s->o));
	sgv probs = s->probs;
	if (b->flash && b->rec == REC_NONE) { /* flash attention recomputes the scores */
		sgv sc = comp(b, PN("%s.attn.scores_again", p), OP_M, score_flops(b), b->Tq * b->Dt,
		              SGD(s->qkv, s->kv, dO));
		probs = comp(b, PN("%s.attn.softmax_again", p), OP_E,
		             5 * b->H / b->tp * b->Tq * b->Skv * b->att, b->Tq * b->Dt, SGD(sc));
	}
	sgv dP =
	    comp(b, PN("%s.attn.d_probs", p), OP_M, score_flops(b), b->Tq * b->Dt, SGD(dO, s->kv));
	sgv dV =
	    comp(b, PN("%s.attn.d_v", p), OP_M, score_flops(b), b->Tq * b->kvw, SGD(dO, probs));
	sgv dS = comp(b, PN("%s.attn.d_scores", p), OP_E,
	              5 * b->H / b->tp * b->Tq * b->Skv * b->att, b->Tq * b->Dt, SGD(dP, probs));
	sgv dQ = comp(b, PN("%s.attn.d_q", p), OP_M, score_flops(b), b->Tq * b->Dt, SGD(dS, s->kv));
	sgv dK =
	    comp(b, PN("%s.attn.d_k", p), OP_M, score_flops(b), b->Tq * b->kvw, SGD(dS, s->qkv));
	/* the keys' and values' gradients of the whole sequence, back to their cp rank */
	sgv dkv = sg_coll(g, PN("%s.attn.d_kv", p), 1, RS, DIM_CP,
	                  2 * b->cp * b->Tq * b->kvw * b->db, dK);
	sgv dqkv = sg_comp(g, PN("%s.attn.d_qkv_join", p), OP_CUSTOM, 0, 0, SGD(dQ, dkv, dV));
	sgv dx = mm(b, PN("%s.attn.d_qkv", p), b->Tq, b->qkvw, b->D, SGD(dqkv, s->wg),
	            PN("layer.w_qkv"));
	dx = tp_reduce(b, PN("%s.attn.d_qkv", p), b->Tq, dx);
	sgv in = tp_gather(b, PN("%s.attn.norm_for_dw", p), s->ln1);
	wg[(*nw)++] = sg_comp(g, PN("%s.attn.dw_qkv", p), OP_M, 2 * b->Tq * b->D * b->qkvw,
	                      b->D * b->qkvw * b->db, SGD(in, dqkv));
	sgv dn = comp(b, PN("%s.attn.d_norm", p), OP_E, 2 * norm_flops(b) * b->Tsp * b->D,
	              b->Tsp * b->D, SGD(dx, s->x));
	return comp(b, PN("%s.attn.d_x", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(dn, dy));
}

/* --- dense FFN: GPT (GeLU, 2 matrices), Llama (SwiGLU, 3) --------------- */
static sgv ffn_forward(pb *b, sgv x, lsave *s, const char *tag)
{
	const char *p = b->pre;
	s->ln2 = norm(b, PN("%s.ffn%s.norm", p, tag), x);
	sgv in = tp_gather(b, PN("%s.ffn%s.norm", p, tag), s->ln2);
	num TF = b->Tq * b->Ft;
	if (b->arch == ARCH_GPT) {
		sgv u = mm(b, PN("%s.ffn%s.up", p, tag), b->Tq, b->D, b->Ft, SGD(in, s->wg),
		           PN("layer.w_up"));
		s->up = u;
		s->h = comp(b, PN("%s.ffn%s.gelu", p, tag), OP_E, 8 * TF, TF, SGD(u));
	} else {
		s->gate = mm(b, PN("%s.ffn%s.gate", p, tag), b->Tq, b->D, b->Ft, SGD(in, s->wg),
		             PN("layer.w_gate"));
		s->up = mm(b, PN("%s.ffn%s.up", p, tag), b->Tq, b->D, b->Ft, SGD(in, s->wg),
		           PN("layer.w_up"));
		s->h =
		    comp(b, PN("%s.ffn%s.swiglu", p, tag), OP_E, 4 * TF, TF, SGD(s->gate, s->up));
	}
	sgv y = mm(b, PN("%s.ffn%s.down", p, tag), b->Tq, b->Ft, b->D, SGD(s->h, s->wg),
	           PN("layer.w_down"));
	y = tp_reduce(b, PN("%s.ffn%s.down", p, tag), b->Tq, y);
	return comp(b, PN("%s.ffn%s.residual", p, tag), OP_A, b->Tsp * b->D, b->Tsp * b->D,
	            SGD(y, x));
}

static sgv ffn_backward(pb *b, lsave *s, sgv dy, sgv *wg, int *nw)
{
	sg *g = b->g;
	const char *p = b->pre;
	num TF = b->Tq * b->Ft, WF = b->D * b->Ft * b->db;
	sgv d = tp_gather(b, PN("%s.ffn.d_residual", p), dy);
	sgv dh =
	    mm(b, PN("%s.ffn.d_down", p), b->Tq, b->D, b->Ft, SGD(d, s->wg), PN("layer.w_down"));
	wg[(*nw)++] = sg_comp(g, PN("%s.ffn.dw_down", p), OP_M, 2 * TF * b->D, WF, SGD(d, s->h));
	sgv in = tp_gather(b, PN("%s.ffn.norm_for_dw", p), s->ln2);
	sgv dx;
	if (b->arch == ARCH_GPT) {
		sgv du = comp(b, PN("%s.ffn.d_gelu", p), OP_E, 8 * TF, TF, SGD(dh, s->up));
		dx = mm(b, PN("%s.ffn.d_up", p), b->Tq, b->Ft, b->D, SGD(du, s->wg),
		        PN("layer.w_up"));
		wg[(*nw)++] =
		    sg_comp(g, PN("%s.ffn.dw_up", p), OP_M, 2 * TF * b->D, WF, SGD(in, du));
	} else {
		sgv dgu = comp(b, PN("%s.ffn.d_swiglu", p), OP_E, 4 * TF, 2 * TF,
		               SGD(dh, s->gate, s->up));
		sgv dxg = mm(b, PN("%s.ffn.d_gate", p), b->Tq, b->Ft, b->D, SGD(dgu, s->wg),
		             PN("layer.w_gate"));
		sgv dxu = mm(b, PN("%s.ffn.d_up", p), b->Tq, b->Ft, b->D, SGD(dgu, s->wg),
		             PN("layer.w_up"));
		dx = comp(b, PN("%s.ffn.d_in", p), OP_A, b->Tq * b->D, b->Tq * b->D, SGD(dxg, dxu));
		wg[(*nw)++] =
		    sg_comp(g, PN("%s.ffn.dw_gate", p), OP_M, 2 * TF * b->D, WF, SGD(in, dgu));
		wg[(*nw)++] =
		    sg_comp(g, PN("%s.ffn.dw_up", p), OP_M, 2 * TF * b->D, WF, SGD(in, dgu));
	}
	dx = tp_reduce(b, PN("%s.ffn.d_in", p), b->Tq, dx);
	sgv dn = comp(b, PN("%s.ffn.d_norm", p), OP_E, 2 * norm_flops(b) * b->Tsp * b->D,
	              b->Tsp * b->D, SGD(dx, s->res1));
	return comp(b, PN("%s.ffn.d_x", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(dn, dy));
}

/* --- MoE FFN: top-k routing over E experts (SwiGLU), ep ranks hold E/ep
 * experts each; the sequence-parallel tokens are routed (router on Tsp
 * tokens, weight D·E), dispatched by an all-to-all over ep, gathered over
 * tp for the tp-sharded experts, and combined back. Dropless: each rank's
 * local experts process Tq·k rows in all (balanced routing); with a
 * capacity factor c they process c·Tq·k (padded). */
static num moe_rows(const pb *b)
{
	num cf = b->c->capacity > 0 ? (num)b->c->capacity : 1;
	return b->Tq * b->K * cf;
}

static int local_experts(const pb *b)
{
	return (int)(b->E / b->ep);
}

static sgv moe_forward(pb *b, sgv x, lsave *s, const char *tag)
{
	sg *g = b->g;
	const char *p = b->pre;
	num Tk = b->Tsp * b->K * b->D; /* routed copies of the local tokens */
	s->ln2 = norm(b, PN("%s.moe%s.norm", p, tag), x);
	sgv logits = mm(b, PN("%s.moe%s.router", p, tag), b->Tsp, b->D, b->E, SGD(s->ln2),
	                PN("layer.w_router"));
	s->route = comp(b, PN("%s.moe%s.topk", p, tag), OP_E, 5 * b->Tsp * b->E, b->Tsp * b->K,
	                SGD(logits));
	sgv perm =
	    comp(b, PN("%s.moe%s.permute", p, tag), OP_GATHER, Tk, Tk, SGD(s->ln2, s->route));
	sgv disp = sg_coll(g, PN("%s.moe%s.dispatch", p, tag), 1, A2A, DIM_EP, Tk * b->db, perm);
	s->rows = sg_coll(g, PN("%s.moe%s.rows", p, tag), 1, AG, DIM_TP, Tk * b->db, disp);
	int ne = local_experts(b);
	num R = moe_rows(b) / ne; /* rows of one local expert */
	sgv outs[256];
	for (int j = 0; j < ne; j++) {
		const char *e = PN("%s.moe%s.expert%d", p, tag, j);
		sgv gt = mm(b, PN("%s.gate", e), R, b->D, b->Ft, SGD(s->rows, s->wg),
		            PN("layer.w_experts"));
		sgv up = mm(b, PN("%s.up", e), R, b->D, b->Ft, SGD(s->rows, s->wg),
		            PN("layer.w_experts"));
		s->eh[j] = comp(b, PN("%s.swiglu", e), OP_E, 4 * R * b->Ft, R * b->Ft, SGD(gt, up));
		outs[j] = mm(b, PN("%s.down", e), R, b->Ft, b->D, SGD(s->eh[j], s->wg),
		             PN("layer.w_experts"));
	}
	sgv y = sg_comp(g, PN("%s.moe%s.experts_out", p, tag), OP_CUSTOM, 0, 0, outs, ne);
	y = sg_coll(g, PN("%s.moe%s.experts_out", p, tag), 1, RS, DIM_TP,
	            moe_rows(b) * b->D * b->db, y);
	y = sg_coll(g, PN("%s.moe%s.combine", p, tag), 1, A2A, DIM_EP, Tk * b->db, y);
	y = comp(b, PN("%s.moe%s.unpermute", p, tag), OP_E, 2 * Tk, b->Tsp * b->D,
	         SGD(y, s->route));
	return comp(b, PN("%s.moe%s.residual", p, tag), OP_A, b->Tsp * b->D, b->Tsp * b->D,
	            SGD(y, x));
}

static sgv moe_backward(pb *b, lsave *s, sgv dy, sgv *wg, int *nw)
{
	sg *g = b->g;
	const char *p = b->pre;
	num Tk = b->Tsp * b->K * b->D;
	int ne = local_experts(b);
	num R = moe_rows(b) / ne, WF = b->D * b->Ft * b->db;
	sgv d = comp(b, PN("%s.moe.d_unpermute", p), OP_GATHER, Tk, Tk, SGD(dy, s->route));
	d = sg_coll(g, PN("%s.moe.d_combine", p), 1, A2A, DIM_EP, Tk * b->db, d);
	d = sg_coll(g, PN("%s.moe.d_rows", p), 1, AG, DIM_TP, Tk * b->db, d);
	sgv din[256];
	for (int j = 0; j < ne; j++) {
		const char *e = PN("%s.moe.expert%d", p, j);
		sgv dh =
		    mm(b, PN("%s.d_down", e), R, b->D, b->Ft, SGD(d, s->wg), PN("layer.w_experts"));
		wg[(*nw)++] = sg_comp(g, PN("%s.dw_down", e), OP_M, 2 * R * b->Ft * b->D, WF,
		                      SGD(d, s->eh[j]));
		sgv dgu =
		    comp(b, PN("%s.d_swiglu", e), OP_E, 4 * R * b->Ft, 2 * R * b->Ft, SGD(dh));
		sgv dg = mm(b, PN("%s.d_gate", e), R, b->Ft, b->D, SGD(dgu, s->wg),
		            PN("layer.w_experts"));
		sgv du =
		    mm(b, PN("%s.d_up", e), R, b->Ft, b->D, SGD(dgu, s->wg), PN("layer.w_experts"));
		wg[(*nw)++] = sg_comp(g, PN("%s.dw_gate", e), OP_M, 2 * R * b->D * b->Ft, WF,
		                      SGD(s->rows, dgu));
		wg[(*nw)++] = sg_comp(g, PN("%s.dw_up", e), OP_M, 2 * R * b->D * b->Ft, WF,
		                      SGD(s->rows, dgu));
		din[j] = comp(b, PN("%s.d_in", e), OP_A, R * b->D, R * b->D, SGD(dg, du));
	}
	sgv dr = sg_comp(g, PN("%s.moe.d_rows_out", p), OP_CUSTOM, 0, 0, din, ne);
	dr = sg_coll(g, PN("%s.moe.d_rows_out", p), 1, RS, DIM_TP, moe_rows(b) * b->D * b->db, dr);
	dr = sg_coll(g, PN("%s.moe.d_dispatch", p), 1, A2A, DIM_EP, Tk * b->db, dr);
	sgv dperm = comp(b, PN("%s.moe.d_permute", p), OP_SCATTER, Tk, b->Tsp * b->D, SGD(dr));
	sgv dlog = comp(b, PN("%s.moe.d_topk", p), OP_E, 5 * b->Tsp * b->E, b->Tsp * b->E,
	                SGD(dperm, s->route));
	sgv dxr = mm(b, PN("%s.moe.d_router", p), b->Tsp, b->E, b->D, SGD(dlog, s->wg),
	             PN("layer.w_router"));
	wg[(*nw)++] = sg_comp(g, PN("%s.moe.dw_router", p), OP_M, 2 * b->Tsp * b->D * b->E,
	                      b->D * b->E * b->db, SGD(s->ln2, dlog));
	sgv dx = comp(b, PN("%s.moe.d_in", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(dperm, dxr));
	sgv dn = comp(b, PN("%s.moe.d_norm", p), OP_E, 2 * norm_flops(b) * b->Tsp * b->D,
	              b->Tsp * b->D, SGD(dx, s->res1));
	return comp(b, PN("%s.moe.d_x", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(dn, dy));
}

sgv layer_forward(pb *b, sgv x, lsave *s, const char *tag)
{
	sgv y = attention_forward(b, x, s, tag);
	return b->arch == ARCH_MOE ? moe_forward(b, y, s, tag) : ffn_forward(b, y, s, tag);
}

sgv layer_backward(pb *b, lsave *s, sgv dy, sgv *wg, int *nw)
{
	lsave again;
	if (b->rec == REC_FULL) { /* the layer's forward once more, from its input */
		again = *s;
		layer_forward(b, s->x, &again, ".recompute");
		s = &again;
	} else if (b->rec == REC_SELECTIVE) { /* core attention only */
		s->o = core_attention(b, ".recompute", s->qkv, s->kv, &s->probs);
	}
	sgv da =
	    b->arch == ARCH_MOE ? moe_backward(b, s, dy, wg, nw) : ffn_backward(b, s, dy, wg, nw);
	return attention_backward(b, s, da, wg, nw);
}
