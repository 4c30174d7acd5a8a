/* --compat stage: STAGE's graphs (doc/stage.md), per pipeline
 * stage, with its units (num_ops in multiply-accumulates, sizes in
 * elements) and its per-layer node tables: 29 COMP nodes per layer and
 * micro-batch for GPT, 38 for Llama, 40 + 10·E/ep (+2) for MoE.
 * Tensor names, edges and tensor sizes are STAGE's node for node (checked
 * against its own traces; doc/stage.md, "Edges, tensor sizes and names"):
 * a node is named after the spreadsheet tensor it makes, a collective
 * after the tensor that consumes it, a transfer after the tensor carried.
 *
 * Quantities are long doubles because STAGE's are real numbers (a per-rank
 * micro-batch may be fractional); they are truncated on output. */
#include "et-stage/compat.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

#define AG ET_COLL_ALL_GATHER
#define AR ET_COLL_ALL_REDUCE
#define RS ET_COLL_REDUCE_SCATTER
#define A2A ET_COLL_ALL_TO_ALL

typedef long double num;

/* One stage's build: the configuration's numbers and the builder. */
typedef struct cb {
	sg *g;
	int arch;
	bool tpsp;
	num D, F, H, KV, V, E, K, S;
	num dp, tp, cp, ep, pp;
	num m, Tq, Tsp;  /* per-rank micro-batch, local tokens, sequence-parallel share */
	num Dt, Dkv, Ft; /* d_model, k/v width and d_ff per tp rank */
	num PL;          /* a layer's parameters per rank */
	num fs;          /* the shard factor of a layer's weights (dp with FSDP) */
	bool fsdp;
	int mb;          /* the micro-batch being built */
	const char *pre; /* "mb<i>.transformer.<l>" */
} cb;

static num d_of(const cb *b, int dim)
{
	return (num)b->g->l->size[dim];
}

/* Layer parameters per rank: GPT 4D² + 2DF, Llama D²(H+2KV)/H + D² + 3DF,
 * MoE Llama's attention + E/ep experts of 2DF + a D·K/ep router. */
static num layer_params(const cb *b)
{
	num att = b->D * b->D * (b->H + 2 * b->KV) / b->H + b->D * b->D;
	if (b->arch == ARCH_GPT)
		return (4 * b->D * b->D + 2 * b->D * b->F) / b->tp;
	if (b->arch == ARCH_LLAMA)
		return (att + 3 * b->D * b->F) / b->tp;
	return att / b->tp + b->E / b->ep * 2 * b->D * b->F / b->tp + b->D * b->K / b->ep;
}

static void cb_init(cb *b, sg *g)
{
	const stage_conf *c = g->c;
	memset(b, 0, sizeof *b);
	b->g = g;
	b->arch = c->arch;
	b->tpsp = c->arch != ARCH_GPT || c->tpsp;
	b->D = (num)c->D, b->F = (num)c->F, b->H = (num)c->H, b->KV = (num)c->KV;
	b->V = (num)c->V, b->E = (num)c->E, b->K = (num)c->K, b->S = (num)c->S;
	b->dp = d_of(b, DIM_DP), b->tp = d_of(b, DIM_TP), b->cp = d_of(b, DIM_CP);
	b->ep = d_of(b, DIM_EP), b->pp = d_of(b, DIM_PP);
	b->m = (num)c->MB / b->dp;
	b->Tq = b->m * b->S / b->cp;
	b->Tsp = b->tpsp ? b->Tq / b->tp : b->Tq;
	b->Dt = b->D / b->tp;
	b->Dkv = b->D * b->KV / (b->H * b->tp);
	b->Ft = b->F / b->tp;
	b->fsdp = c->fsdp;
	b->PL = layer_params(b);
	b->fs = c->fsdp ? b->dp : 1;
}

/* A tensor name under the current layer prefix. */
#define T(...) sg_name(b->g, __VA_ARGS__)
#define W(w) sg_name(b->g, "%s@w_" w, strchr(b->pre, '.') + 1)

/* STAGE names a collective after the tensor that consumes it and the
 * operand it feeds: every collective of the chain before operand x1 of
 * `t` is "t_X1COMM", before x2 "t_X2_COMM" (sg_coll's k = the operand). */
enum { X1 = 1, X2 = 2 };

/* Gather a sequence-parallel activation before a column-parallel product
 * (TP+SP only: in TP-only mode activations are whole on every tp rank). */
static sgv ag_tp(cb *b, const char *name, int opnd, sgv x)
{
	return b->tpsp ? sg_coll(b->g, name, opnd, AG, DIM_TP, b->Tsp * b->D, x) : x;
}

/* The output of a row-parallel product: partial over tp, reduce-scattered
 * to the sequence-parallel layout (TP+SP) or all-reduced (TP-only). */
static sgv out_tp(cb *b, const char *name, sgv x)
{
	return sg_coll(b->g, name, X1, b->tpsp ? RS : AR, DIM_TP, b->Tq * b->D, x);
}

/* STAGE's layer_norm sheet, forward: y = E(x), 5 operations per element. */
static sgv norm_fwd(cb *b, const char *mod, sgv x)
{
	return sg_comp(b->g, T("%s.%s.y@0", b->pre, mod), OP_E, 5 * b->Tsp * b->D, b->Tsp * b->D,
	               SGD(x));
}

/* Its backward: the decoder block turns the norm's dy into the sum (A) of
 * the branch's input gradient and the residual's, and dx = E(dy) reads dy
 * alone (not the forward input). */
static sgv norm_bwd(cb *b, const char *mod, sgv branch, sgv resid)
{
	num n = b->Tsp * b->D;
	sgv dy = sg_comp(b->g, T("%s.%s.dy@0", b->pre, mod), OP_A, n, n, SGD(branch, resid));
	return sg_comp(b->g, T("%s.%s.dx@0", b->pre, mod), OP_E, 5 * n, n, SGD(dy));
}

typedef struct attn_fwd {
	sgv ln, q, attn; /* input norm output, q, the kernel's output */
} attn_fwd;

/* The k/v width per rank: D/tp for GPT's MHA, D·KV/(H·tp) for GQA. */
static num kv_width(const cb *b)
{
	return b->arch == ARCH_GPT ? b->Dt : b->Dkv;
}

/* Attention forward (group_query_attention surrounding and fused kernel
 * sheets): the qkv product, its q/k/v slices, k and v gathered over cp
 * (the kernel's k1, v1), the kernel, the output projection. Returns the
 * residual sum mha_res.y. */
static sgv attention_fwd(cb *b, sgv x, sgv wg, attn_fwd *a)
{
	sg *g = b->g;
	const char *p = b->pre;
	num kvw = kv_width(b), qkvw = b->Dt + 2 * kvw;
	a->ln = norm_fwd(b, "input_norm", x);
	sgv in = ag_tp(b, T("%s.mha.qkv@0", p), X1, a->ln);
	sgv qkv = sg_comp_w(g, T("%s.mha.qkv@0", p), OP_M, b->Tq * b->D * qkvw, b->Tq * qkvw,
	                    SGD(in, wg), W("qkv"), b->D * qkvw);
	a->q = sg_comp(g, T("%s.mha.q@0", p), OP_SLICE, b->Tq * b->Dt, b->Tq * b->Dt, SGD(qkv));
	sgv k = sg_comp(g, T("%s.mha.k@0", p), OP_SLICE, b->Tq * kvw, b->Tq * kvw, SGD(qkv));
	sgv v = sg_comp(g, T("%s.mha.v@0", p), OP_SLICE, b->Tq * kvw, b->Tq * kvw, SGD(qkv));
	k = sg_coll(g, T("%s.mha.attn_kernel.k1@0", p), X1, AG, DIM_CP, b->Tq * kvw, k);
	v = sg_coll(g, T("%s.mha.attn_kernel.v1@0", p), X1, AG, DIM_CP, b->Tq * kvw, v);
	a->attn = sg_comp(g, T("%s.mha.attn_kernel.qkv@0", p), OP_CUSTOM, 3 * b->Tq * b->Dt,
	                  b->Tq * b->Dt, SGD(a->q, k, v));
	sgv o = sg_comp_w(g, T("%s.mha.o1@0", p), OP_M, b->Tq * b->Dt * b->D, b->Tq * b->D,
	                  SGD(a->attn, wg), W("o"), b->Dt * b->D);
	o = out_tp(b, T("%s.mha.o@0", p), o);
	return sg_comp(g, T("%s.mha_res.y@0", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(o, x));
}

/* The kernel's gradient of k (or v): partial over cp on the whole
 * sequence, reduce-scattered over cp. GPT's kernel makes it directly
 * (Tq·D/tp per cp rank before the scatter); the GQA kernel makes it for
 * all H heads (dk1, cp·Tq·D/tp) and slices the KV heads out after the
 * scatter (the SLICE dk of Tq·Dkv). */
static sgv attention_dkv(cb *b, const char *w, sgv dattn)
{
	sg *g = b->g;
	const char *p = b->pre;
	num full = b->cp * b->Tq * b->Dt;
	if (b->arch == ARCH_GPT) {
		sgv d = sg_comp(g, T("%s.mha.attn_kernel.d%s@0", p, w), OP_CUSTOM,
		                6 * b->Tq * b->Dt, full, SGD(dattn));
		return sg_coll(g, T("%s.mha.d%s@0", p, w), X1, RS, DIM_CP, full, d);
	}
	sgv d1 = sg_comp(g, T("%s.mha.attn_kernel.d%s1@0", p, w), OP_CUSTOM, 6 * b->Tq * b->Dt,
	                 full, SGD(dattn));
	d1 = sg_coll(g, T("%s.mha.attn_kernel.d%s@0", p, w), X1, RS, DIM_CP, full, d1);
	return sg_comp(g, T("%s.mha.attn_kernel.d%s@0", p, w), OP_SLICE, b->Tq * b->Dkv,
	               b->Tq * b->Dkv, SGD(d1));
}

/* Attention backward from dpost, the gradient of mha_res.y (the post
 * attention norm's dx); the weight gradients go to wgr[0..1]; returns the
 * input norm's dx. */
static sgv attention_bwd(cb *b, const attn_fwd *a, sgv dpost, sgv wb, sgv *wgr)
{
	sg *g = b->g;
	const char *p = b->pre;
	num kvw = kv_width(b), qkvw = b->Dt + 2 * kvw;
	sgv dy = ag_tp(b, T("%s.mha.do1@0", p), X1, dpost);
	sgv dattn = sg_comp_w(g, T("%s.mha.dattn@0", p), OP_M, b->Tq * b->D * b->Dt, b->Tq * b->Dt,
	                      SGD(dy, wb), W("o"), b->Dt * b->D);
	wgr[0] = sg_comp(g, T("%s.mha.dwo@0", p), OP_M, b->Dt * b->Tq * b->D, b->Dt * b->D,
	                 SGD(a->attn, dy));
	sgv dq = sg_comp(g, T("%s.mha.attn_kernel.dq@0", p), OP_CUSTOM, 6 * b->Tq * b->Dt,
	                 b->Tq * b->Dt, SGD(dattn));
	sgv dk = attention_dkv(b, "k", dattn);
	sgv dv = attention_dkv(b, "v", dattn);
	sgv dkv = sg_comp(g, T("%s.mha.dkv@0", p), OP_SLICE, 2 * b->Tq * kvw, 2 * b->Tq * kvw,
	                  SGD(dk, dv));
	sgv dqkv =
	    sg_comp(g, T("%s.mha.dqkv@0", p), OP_SLICE, b->Tq * qkvw, b->Tq * qkvw, SGD(dq, dkv));
	sgv in = ag_tp(b, T("%s.mha.dwqkv@0", p), X2, a->ln);
	wgr[1] = sg_comp(g, T("%s.mha.dwqkv@0", p), OP_M, b->D * b->Tq * qkvw, b->D * qkvw,
	                 SGD(dqkv, in));
	sgv dx = sg_comp_w(g, T("%s.mha.dx1@0", p), OP_M, b->Tq * qkvw * b->D, b->Tq * b->D,
	                   SGD(dqkv, wb), W("qkv"), b->D * qkvw);
	dx = out_tp(b, T("%s.mha.dx@0", p), dx);
	return norm_bwd(b, "input_norm", dx, dpost);
}

/* --- dense FFN (GPT: 2 matrices; Llama: SwiGLU, 3 matrices) ------------ */
typedef struct ffn_fwd {
	sgv ln, gate, up, act; /* post-attention norm; Llama's up and SwiGLU product */
} ffn_fwd;

/* The FFN from mha_res.y (its post-attention norm, products, residual);
 * returns ffn_res.y. */
static sgv ffn_fwd_dense(cb *b, sgv x, sgv wg, ffn_fwd *f)
{
	sg *g = b->g;
	const char *p = b->pre;
	num DF = b->D * b->Ft, TF = b->Tq * b->Ft;
	f->ln = norm_fwd(b, "post_attn_norm", x);
	sgv in = ag_tp(b, T("%s.ffn.x00@0", p), X1, f->ln);
	sgv h = f->gate =
	    sg_comp_w(g, T("%s.ffn.xgate@0", p), OP_M, b->Tq * DF, TF, SGD(in, wg), W("gate"), DF);
	if (b->arch != ARCH_GPT) {
		f->up = sg_comp_w(g, T("%s.ffn.xup@0", p), OP_M, b->Tq * DF, TF, SGD(in, wg),
		                  W("up"), DF);
		/* the SwiGLU product, an einsum without contraction in STAGE */
		h = f->act =
		    sg_comp(g, T("%s.ffn.xupgate@0", p), OP_M, TF, TF, SGD(f->gate, f->up));
	}
	sgv o = sg_comp_w(g, T("%s.ffn.xdown1@0", p), OP_M, TF * b->D, b->Tq * b->D, SGD(h, wg),
	                  W("down"), DF);
	o = out_tp(b, T("%s.ffn.xdown@0", p), o);
	return sg_comp(g, T("%s.ffn_res.y@0", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(o, x));
}

/* Backward of the dense FFN from dy, the gradient of ffn_res.y; the weight
 * gradients go to wgr (2 or 3); returns the post-attention norm's dx. */
static sgv ffn_bwd_dense(cb *b, const ffn_fwd *f, sgv dy, sgv wb, sgv *wgr)
{
	sg *g = b->g;
	const char *p = b->pre;
	num DF = b->D * b->Ft, TF = b->Tq * b->Ft;
	bool gpt = b->arch == ARCH_GPT;
	sgv d2 = ag_tp(b, T("%s.ffn.dxdown2@0", p), X1, dy);
	wgr[0] = sg_comp(g, T("%s.ffn.dwdown@0", p), OP_M, b->Ft * b->Tq * b->D, DF,
	                 SGD(d2, gpt ? f->gate : f->act));
	sgv dh = sg_comp_w(g, T(gpt ? "%s.ffn.dxgate@0" : "%s.ffn.dxupgate@0", p), OP_M,
	                   b->Tq * b->D * b->Ft, TF, SGD(d2, wb), W("down"), DF);
	sgv in = ag_tp(b, T("%s.ffn.x01@0", p), X1, f->ln);
	sgv dx;
	if (gpt) {
		wgr[1] = sg_comp(g, T("%s.ffn.dwgate@0", p), OP_M, b->D * TF, DF, SGD(dh, in));
		dx = sg_comp_w(g, T("%s.ffn.dx000@0", p), OP_M, TF * b->D, b->Tq * b->D,
		               SGD(dh, wb), W("gate"), DF);
	} else {
		sgv dgate = sg_comp(g, T("%s.ffn.dxgate@0", p), OP_M, TF, TF, SGD(dh, f->up));
		sgv dup = sg_comp(g, T("%s.ffn.dxup@0", p), OP_M, TF, TF, SGD(dh, f->gate));
		wgr[1] = sg_comp(g, T("%s.ffn.dwgate@0", p), OP_M, b->D * TF, DF, SGD(dgate, in));
		wgr[2] = sg_comp(g, T("%s.ffn.dwup@0", p), OP_M, b->D * TF, DF, SGD(dup, in));
		sgv dxu = sg_comp_w(g, T("%s.ffn.dx00@0", p), OP_M, TF * b->D, b->Tq * b->D,
		                    SGD(dup, wb), W("up"), DF);
		sgv dxg = sg_comp_w(g, T("%s.ffn.dx01@0", p), OP_M, TF * b->D, b->Tq * b->D,
		                    SGD(dgate, wb), W("gate"), DF);
		dx = sg_comp(g, T("%s.ffn.dx000@0", p), OP_A, b->Tq * b->D, b->Tq * b->D,
		             SGD(dxu, dxg));
	}
	dx = out_tp(b, T("%s.ffn.dx0@0", p), dx);
	return norm_bwd(b, "post_attn_norm", dx, dy);
}

/* --- MoE FFN ----------------------------------------------------------- *
 * STAGE's MoE frame, expert wrapper and two-matrix expert FFN, node for
 * node (doc/stage.md, "MoE graph"). With Tsp = Tq/tp local tokens:
 * - a router (weight [D/ep, K], gathered over ep for the forward product,
 *   read locally by its input gradient) and its reshape R;
 * - the tokens broadcast K times over D/ep columns (B) and sent to their
 *   experts by an all-to-all over ep: Xk = Tsp·K·D/ep elements;
 * - E/ep local experts, each a slice of Xk/E (R = Tq·K/(E·ep) rows by D/tp),
 *   gathered over tp, two products of R·D·F/tp, a reduce-scatter over tp
 *   and a slice back to Xk; their outputs merged by a chain of E2 nodes of
 *   which only the last has work (none for one local expert);
 * - the all-to-all back, the gate applied (SLICE and E2 of Xk), the K copies
 *   summed (B to Tsp·D/ep) and gathered over ep for the residual.
 * Backward mirrors it: B and two E2 of Xk, the gate's SLICE and R of Tsp·K,
 * two all-to-alls, per expert four products and two gathers over tp, the
 * router's two products of Tsp·K·D/ep, and an A of Tsp·D/ep gathered over
 * ep. The router's weight gradient is partial over tp; STAGE's assembled
 * layer gradient takes only its first gradient's layout, so that adds no
 * collective. */
typedef struct moe_fwd {
	sgv x, ln, gate, routed, res; /* input, norm, the gate (yrouter3), the combined outputs */
	sgv xe[256], xg[256];         /* per local expert: its rows, its hidden */
} moe_fwd;

/* The tokens as dispatched: Tsp·K·D/ep elements per rank. */
static num moe_xk(const cb *b)
{
	return b->Tsp * b->K * b->D / b->ep;
}

/* An expert's rows: Tq·K/(E·ep). */
static num moe_rows(const cb *b)
{
	return b->Tq * b->K / (b->E * b->ep);
}

static int local_experts(const cb *b)
{
	return (int)(b->E / b->ep);
}

/* The chain that sums the local experts' outputs: n−1 E2 nodes, only the
 * last with work (a = 1 over its input); one expert needs none. */
static sgv moe_merge(cb *b, const char *name, const sgv *parts, int n)
{
	return n < 2 ? parts[0] : sg_comp(b->g, name, OP_E2, moe_xk(b), moe_xk(b), parts, n);
}

static void moe_fwd_build(cb *b, sgv x, sgv wg, moe_fwd *f)
{
	sg *g = b->g;
	const char *p = b->pre;
	num Xk = moe_xk(b), R = moe_rows(b), RD = R * b->D / b->tp, DF = b->D * b->Ft;
	num TK = b->Tsp * b->K, DKe = b->D * b->K / b->ep;
	f->x = x;
	f->ln = norm_fwd(b, "post_attn_norm", x);
	sgv wr = sg_coll(g, T("%s.moe.yrouter@0", p), X2, AG, DIM_EP, DKe, wg);
	sgv yr = sg_comp_w(g, T("%s.moe.yrouter@0", p), OP_M, TK * b->D, TK, SGD(f->ln, wr),
	                   W("router"), DKe);
	sgv yr2 = sg_comp(g, T("%s.moe.yrouter2@0", p), OP_R, TK, TK, SGD(yr));
	sgv x1 = sg_comp(g, T("%s.moe.x1@0", p), OP_B, Xk, Xk, SGD(f->ln));
	sgv routed = sg_coll(g, T("%s.moe.xrouted@0", p), 1, A2A, DIM_EP, Xk, x1);
	int ne = local_experts(b);
	sgv ys[256];
	for (int j = 0; j < ne; j++) {
		f->xe[j] =
		    sg_comp(g, T("%s.moe.%d.ldis.x_expert@0", p, j), OP_SLICE, RD, RD, SGD(routed));
		sgv in = sg_coll(g, T("%s.moe.%d.ffn.x00@0", p, j), 1, AG, DIM_TP, RD, f->xe[j]);
		f->xg[j] = sg_comp_w(g, T("%s.moe.%d.ffn.xgate@0", p, j), OP_M, R * DF, R * b->Ft,
		                     SGD(in, wg), W("experts"), DF);
		sgv o = sg_comp_w(g, T("%s.moe.%d.ffn.xdown1@0", p, j), OP_M, R * DF, R * b->D,
		                  SGD(f->xg[j], wg), W("experts"), DF);
		o = sg_coll(g, T("%s.moe.%d.ffn.xdown@0", p, j), 1, RS, DIM_TP, R * b->D, o);
		ys[j] = sg_comp(g, T("%s.moe.%d.ldis.y@0", p, j), OP_SLICE, Xk, Xk, SGD(o));
	}
	sgv merged = moe_merge(b, T("%s.moe.yrouted_r%d@0", p, ne - 1), ys, ne);
	f->routed = sg_coll(g, T("%s.moe.y1@0", p), 1, A2A, DIM_EP, Xk, merged);
	f->gate = sg_comp(g, T("%s.moe.yrouter3@0", p), OP_SLICE, Xk, Xk, SGD(yr2));
	sgv y2 = sg_comp(g, T("%s.moe.y2@0", p), OP_E2, Xk, Xk, SGD(f->routed, f->gate));
	sgv y = sg_comp(g, T("%s.moe.y@0", p), OP_B, Xk / b->K, Xk / b->K, SGD(y2));
	y = sg_coll(g, T("%s.ffn_res.x1@0", p), X1, AG, DIM_EP, Xk / b->K, y);
	f->res = sg_comp(g, T("%s.ffn_res.y@0", p), OP_A, b->Tsp * b->D, b->Tsp * b->D, SGD(y, x));
}

static sgv moe_bwd_build(cb *b, const moe_fwd *f, sgv dres, sgv wb, sgv *wgr, int *nw)
{
	sg *g = b->g;
	const char *p = b->pre;
	num Xk = moe_xk(b), R = moe_rows(b), RD = R * b->D / b->tp, DF = b->D * b->Ft;
	num TK = b->Tsp * b->K, DKe = b->D * b->K / b->ep;
	int ne = local_experts(b);
	sgv dy2 = sg_comp(g, T("%s.moe.dy2@0", p), OP_B, Xk, Xk, SGD(dres));
	sgv dy1 = sg_comp(g, T("%s.moe.dy1@0", p), OP_E2, Xk, Xk, SGD(dy2, f->gate));
	sgv dyr3 = sg_comp(g, T("%s.moe.dyrouter3@0", p), OP_E2, Xk, Xk, SGD(dy2, f->routed));
	sgv dyr2 = sg_comp(g, T("%s.moe.dyrouter2@0", p), OP_SLICE, TK, TK, SGD(dyr3));
	sgv drouted = sg_coll(g, T("%s.moe.dyrouted@0", p), 1, A2A, DIM_EP, Xk, dy1);
	sgv dxs[256];
	*nw = 0;
	for (int j = 0; j < ne; j++) {
		sgv dy = sg_comp(g, T("%s.moe.%d.ldis.dy_expert@0", p, j), OP_SLICE, RD, RD,
		                 SGD(drouted));
		dy = sg_coll(g, T("%s.moe.%d.ffn.dxdown2@0", p, j), 1, AG, DIM_TP, RD, dy);
		wgr[(*nw)++] = sg_comp(g, T("%s.moe.%d.ffn.dwdown@0", p, j), OP_M, R * DF, DF,
		                       SGD(dy, f->xg[j]));
		sgv dg = sg_comp_w(g, T("%s.moe.%d.ffn.dxgate@0", p, j), OP_M, R * DF, R * b->Ft,
		                   SGD(dy, wb), W("experts"), DF);
		sgv in = sg_coll(g, T("%s.moe.%d.ffn.x01@0", p, j), 1, AG, DIM_TP, RD, f->xe[j]);
		wgr[(*nw)++] =
		    sg_comp(g, T("%s.moe.%d.ffn.dwgate@0", p, j), OP_M, R * DF, DF, SGD(dg, in));
		sgv dx = sg_comp_w(g, T("%s.moe.%d.ffn.dx000@0", p, j), OP_M, R * DF, R * b->D,
		                   SGD(dg, wb), W("experts"), DF);
		dx = sg_coll(g, T("%s.moe.%d.ffn.dx0@0", p, j), 1, RS, DIM_TP, R * b->D, dx);
		dxs[j] = sg_comp(g, T("%s.moe.%d.ldis.dx@0", p, j), OP_SLICE, Xk, Xk, SGD(dx));
	}
	sgv merged = moe_merge(b, T("%s.moe.dxrouted_r%d@0", p, ne - 1), dxs, ne);
	sgv dx1 = sg_coll(g, T("%s.moe.dx1@0", p), 1, A2A, DIM_EP, Xk, merged);
	sgv dyr = sg_comp(g, T("%s.moe.dyrouter@0", p), OP_R, TK, TK, SGD(dyr2));
	wgr[(*nw)++] =
	    sg_comp(g, T("%s.moe.dwrouter@0", p), OP_M, TK * DKe / b->K, DKe, SGD(dyr, f->ln));
	sgv dx01 = sg_comp_w(g, T("%s.moe.dx01@0", p), OP_M, TK * DKe / b->K, Xk / b->K,
	                     SGD(dyr, wb), W("router"), DKe);
	sgv dx02 = sg_comp(g, T("%s.moe.dx02@0", p), OP_B, Xk / b->K, Xk / b->K, SGD(dx1));
	sgv dx = sg_comp(g, T("%s.moe.dx@0", p), OP_A, Xk / b->K, Xk / b->K, SGD(dx01, dx02));
	dx = sg_coll(g, T("%s.post_attn_norm.dy@0", p), X1, AG, DIM_EP, Xk / b->K, dx);
	return norm_bwd(b, "post_attn_norm", dx, dres);
}

/* --- one layer, per micro-batch ---------------------------------------- */
typedef struct layer_state {
	attn_fwd a;
	ffn_fwd f;
	moe_fwd *moe;
	sgv wg_f, wg_b; /* FSDP weight gathers, forward and backward */
} layer_state;

/* FSDP: the layer's weights, one shard of [P_L/dp], gathered over dp (no
 * dependencies) for forward and again for backward; the products that
 * read a weight depend on the gather. */
static sgv weight_gather(cb *b, const char *what)
{
	return b->fsdp ? sg_coll(b->g, T("%s.%s@0", b->pre, what), X1, AG, DIM_DP, b->PL / b->dp,
	                         SG_NONE)
	               : SG_NONE;
}

static sgv layer_fwd(cb *b, int l, sgv x, layer_state *s)
{
	b->pre = T("mb%d.transformer.%d", b->mb, l);
	s->wg_f = weight_gather(b, "_assembled_weight");
	sgv r = attention_fwd(b, x, s->wg_f, &s->a);
	if (b->arch == ARCH_MOE) {
		moe_fwd_build(b, r, s->wg_f, s->moe);
		return s->moe->res;
	}
	return ffn_fwd_dense(b, r, s->wg_f, &s->f);
}

/* Backward of layer l from dy; the layer's gradient sync (per
 * micro-batch, as STAGE does) goes to *grad; returns dx. */
static sgv layer_bwd(cb *b, int l, sgv dy, layer_state *s, sgv *grad)
{
	b->pre = T("mb%d.transformer.%d", b->mb, l);
	s->wg_b = weight_gather(b, "_assembled_weight_backward");
	sgv wgr[3 * 256 + 8];
	int nw = 0;
	sgv da;
	if (b->arch == ARCH_MOE) {
		da = moe_bwd_build(b, s->moe, dy, s->wg_b, wgr, &nw);
	} else {
		da = ffn_bwd_dense(b, &s->f, dy, s->wg_b, wgr);
		nw = b->arch == ARCH_GPT ? 2 : 3;
	}
	sgv dx = attention_bwd(b, &s->a, da, s->wg_b, wgr + nw);
	nw += 2;
	/* the assembled gradient: an identity, removed; the sync (dp, then cp,
	 * both before operand x1 of the sharded gradient) depends on every
	 * weight gradient */
	const char *gn = T("%s._sharded_grad@0", b->pre);
	sgv gsum = sg_comp(b->g, gn, OP_CUSTOM, 0, b->PL, wgr, nw);
	sgv gsync = sg_coll(b->g, gn, X1, b->fsdp ? RS : AR, DIM_DP, b->PL, gsum);
	*grad = sg_coll(b->g, gn, X1, AR, DIM_CP, b->PL, gsync);
	return dx;
}

/* --- embeddings and the loss ------------------------------------------- */
/* The embedding weight per rank: whole in TP+SP mode, split over tp in
 * TP-only mode. */
static num emb_weight(const cb *b)
{
	return b->tpsp ? b->V * b->D : b->V * b->D / b->tp;
}

/* Each embedding product: Tq·V·D/tp (TP+SP: Tsp tokens by the whole
 * weight; TP-only: all tokens by a 1/tp slice). */
static num emb_ops(const cb *b)
{
	return b->Tq * b->V * b->D / b->tp;
}

static sgv in_emb_fwd(cb *b)
{
	const char *n = T("mb%d.in_emb.y@0", b->mb);
	sgv y =
	    sg_comp_w(b->g, n, OP_M, emb_ops(b), b->Tsp * b->D, NULL, 0, "in_emb@w", emb_weight(b));
	/* TP-only: the weight is split on its input side, the output partial */
	return b->tpsp ? y
	               : sg_coll(b->g, T("mb%d.transformer.0.input_norm.x@0", b->mb), X1, AR,
	                         DIM_TP, b->Tq * b->D, y);
}

/* The input embedding's backward: its weight gradient (returned) and
 * STAGE's gradient of its one-hot input. */
static sgv in_emb_bwd(cb *b, sgv dy)
{
	sg *g = b->g;
	sg_comp(g, T("mb%d.in_emb.dx@0", b->mb), OP_M, emb_ops(b),
	        b->tpsp ? b->Tsp * b->V : b->Tq * b->V / b->tp, SGD(dy));
	return sg_comp(g, T("mb%d.in_emb.dw@0", b->mb), OP_M, emb_ops(b), emb_weight(b), SGD(dy));
}

/* The output embedding, the loss and their backward, from the last layer's
 * output x; the weight gradient goes to *wgrad; returns dx. */
static sgv out_emb(cb *b, sgv x, sgv *wgrad)
{
	sg *g = b->g;
	int i = b->mb;
	num T = b->Tsp;
	const char *n = sg_name(g, "mb%d.out_emb.y@0", i);
	sgv y =
	    sg_comp_w(g, n, OP_M, emb_ops(b), b->Tsp * b->V, SGD(x), "out_emb@w", emb_weight(b));
	if (!b->tpsp) /* TP-only: d_model split over tp, the logits partial */
		y = sg_coll(g, sg_name(g, "mb%d.loss.y@0", i), X1, AR, DIM_TP, b->Tq * b->V, y);
	/* STAGE's loss sheet: loss = E(y), dy = E(loss), each of 5 operations
	 * per element of a [Tsp, D] tensor (its declared shape, whatever the
	 * logits' width) */
	sgv loss =
	    sg_comp(g, sg_name(g, "mb%d.loss.loss@0", i), OP_E, 5 * T * b->D, T * b->D, SGD(y));
	sgv dl =
	    sg_comp(g, sg_name(g, "mb%d.loss.dy@0", i), OP_E, 5 * T * b->D, T * b->D, SGD(loss));
	const char *dn = sg_name(g, "mb%d.out_emb.dx@0", i);
	sgv dx = sg_comp_w(g, dn, OP_M, emb_ops(b), b->tpsp ? T * b->D : b->Tq * b->Dt, SGD(dl),
	                   "out_emb@w", emb_weight(b));
	*wgrad = sg_comp(g, sg_name(g, "mb%d.out_emb.dw@0", i), OP_M, emb_ops(b), emb_weight(b),
	                 SGD(dl, x));
	return dx;
}

/* The output embedding's dx as the last layer reads it: in TP-only mode
 * gathered over tp, by the consumer, so after the pipeline transfer when
 * the two sit on different stages (what crosses is the local Tq·D/tp). */
static sgv out_dx_gather(cb *b, sgv dx)
{
	if (b->tpsp)
		return dx;
	return sg_coll(b->g, T("mb%d.transformer.%d.ffn_res.dy@0", b->mb, (int)b->g->c->L - 1), X1,
	               AG, DIM_TP, b->Tq * b->Dt, dx);
}

/* Once per step: merge the micro-batches' gradients of a weight (CUSTOM
 * `grad` of its size), synchronize (embeddings: an all-reduce over each of
 * dp, tp unless the weight is split over it, cp, before operand x2 of the
 * update), update (A `upd`). */
static void update(cb *b, const char *grad, const char *upd, num size, const sgv *grads, int n,
                   bool emb)
{
	sg *g = b->g;
	sgv v = sg_comp(g, grad, OP_CUSTOM, size, size, grads, n);
	if (emb) {
		static const int dims[] = {DIM_DP, DIM_TP, DIM_CP};
		for (int i = 0; i < 3; i++)
			if (dims[i] != DIM_TP || b->tpsp)
				v = sg_coll(g, upd, X2, AR, dims[i], size, v);
	}
	sg_comp(g, upd, OP_A, size, size, SGD(v));
}

/* --- a stage ----------------------------------------------------------- */
/* The stage's layers: [*first, *first + count). */
static int stage_layers(const stage_conf *c, int p, int *first)
{
	int L = (int)c->L, pp = (int)c->dim[DIM_PP];
	int base = L / pp, extra = L % pp;
	*first = p * base + (p < extra ? p : extra);
	return base + (p < extra);
}

/* The stage that holds the output embedding and the loss. STAGE's
 * main.py chooses by precision, not by graph: the last stage with
 * --mixed_precision (its only way to the Llama graph), (L−1) mod pp
 * otherwise (GPT, and MoE without mixed precision). */
static int out_stage(const stage_conf *c)
{
	int pp = (int)c->dim[DIM_PP];
	return c->mixed ? pp - 1 : (int)((c->L - 1) % (uint64_t)pp);
}

/* Tag ids: transfer b (a stage boundary, or pp for the output embedding's)
 * of micro-batch i, forward (0) or backward (1). */
static int32_t tag_id(const cb *b, int boundary, int dir)
{
	return (int32_t)(((b->mb * ((int)b->pp + 1) + boundary) * 2) + dir);
}

/* The tensors that cross a stage boundary: layer l's output, and the
 * gradient of its input. */
static const char *fwd_name(sg *g, int mb, int l)
{
	return sg_name(g, "mb%d.transformer.%d.ffn_res.y@0", mb, l);
}

static const char *bwd_name(sg *g, int mb, int l)
{
	return sg_name(g, "mb%d.transformer.%d.input_norm.dx@0", mb, l);
}

void compat_build(sg *g)
{
	cb b;
	cb_init(&b, g);
	const stage_conf *c = g->c;
	int p = g->stage, pp = (int)c->dim[DIM_PP], first;
	int nl = stage_layers(c, p, &first), oq = out_stage(c);
	int nmb = (int)(c->B / c->MB);
	num act = b.Tsp * b.D;                   /* what crosses a stage boundary */
	num dx_act = b.tpsp ? act : b.Tq * b.Dt; /* the output embedding's dx, before a gather */
	size_t nsl = (size_t)nl * (size_t)nmb;
	sgv *lgrad = et_xcalloc(nsl ? nsl : 1, sizeof *lgrad);
	sgv *egrad_in = et_xcalloc((size_t)nmb, sizeof *egrad_in);
	sgv *egrad_out = et_xcalloc((size_t)nmb, sizeof *egrad_out);
	layer_state *ls = et_xcalloc(nl ? (size_t)nl : 1, sizeof *ls);
	moe_fwd *moes = c->arch == ARCH_MOE ? et_xcalloc(nl ? (size_t)nl : 1, sizeof *moes) : NULL;
	for (int l = 0; l < nl; l++)
		ls[l].moe = moes ? &moes[l] : NULL;
	for (int i = 0; i < nmb; i++) {
		b.mb = i;
		/* a transfer is named after the tensor it carries: the sending
		 * stage's last ffn_res.y forward, the receiving stage's first
		 * input_norm.dx backward */
		sgv x = p == 0 ? in_emb_fwd(&b)
		               : sg_recv(g, fwd_name(g, i, first - 1), p - 1, act,
		                         tag_id(&b, p - 1, 0));
		for (int l = 0; l < nl; l++)
			x = layer_fwd(&b, first + l, x, &ls[l]);
		if (p < pp - 1)
			sg_send(g, fwd_name(g, i, first + nl - 1), p + 1, act, x, tag_id(&b, p, 0));
		else if (oq != p)
			sg_send(g, fwd_name(g, i, (int)c->L - 1), oq, act, x, tag_id(&b, pp, 0));
		if (p == oq) {
			sgv ox = oq == pp - 1 ? x
			                      : sg_recv(g, fwd_name(g, i, (int)c->L - 1), pp - 1,
			                                act, tag_id(&b, pp, 0));
			sgv dx = out_emb(&b, ox, &egrad_out[i]);
			if (oq != pp - 1)
				sg_send(g, sg_name(g, "mb%d.out_emb.dx@0", i), pp - 1, dx_act, dx,
				        tag_id(&b, pp, 1));
			else
				x = out_dx_gather(&b, dx);
		}
		sgv dy = x;
		if (p < pp - 1)
			dy = sg_recv(g, bwd_name(g, i, first + nl), p + 1, act, tag_id(&b, p, 1));
		else if (oq != p)
			dy = out_dx_gather(&b, sg_recv(g, sg_name(g, "mb%d.out_emb.dx@0", i), oq,
			                               dx_act, tag_id(&b, pp, 1)));
		for (int l = nl - 1; l >= 0; l--)
			dy = layer_bwd(&b, first + l, dy, &ls[l], &lgrad[(size_t)l * nmb + i]);
		if (p > 0)
			sg_send(g, bwd_name(g, i, first), p - 1, act, dy, tag_id(&b, p - 1, 1));
		else
			egrad_in[i] = in_emb_bwd(&b, dy);
	}
	for (int l = 0; l < nl; l++)
		update(&b, sg_name(g, "transformer.%d._sharded_grad@0", first + l),
		       sg_name(g, "transformer.%d._sharded_weight@1", first + l), b.PL / b.fs,
		       &lgrad[(size_t)l * nmb], nmb, false);
	if (p == 0)
		update(&b, "in_emb.dw@0", "in_emb.w@1", emb_weight(&b), egrad_in, nmb, true);
	if (p == oq)
		update(&b, "out_emb.dw@0", "out_emb.w@1", emb_weight(&b), egrad_out, nmb, true);
	/* STAGE writes data dependencies only, which leave a group's
	 * collectives unordered: members could issue them in different orders
	 * (a hang in NCCL, a mismatch in a simulator). The one difference from
	 * STAGE's edges: they form a chain in build order (et-stage(1)). */
	sg_chain_collectives(g, NULL);
	free(lgrad);
	free(egrad_in);
	free(egrad_out);
	free(ls);
	free(moes);
}
