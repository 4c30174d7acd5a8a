/* Physical mode: one training step of one pipeline stage — the embeddings,
 * the layers of the stage's chunks in the order the pipeline schedule runs
 * them (control dependencies between consecutive operations), then the
 * gradient sync in buckets and the optimizer. */
#include "et-stage/phys_int.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void pb_init(pb *b, sg *g)
{
	const stage_conf *c = g->c;
	const stage_layout *l = g->l;
	memset(b, 0, sizeof *b);
	b->g = g;
	b->c = c;
	b->arch = c->arch;
	b->sp = c->tpsp && l->size[DIM_TP] > 1;
	b->fsdp = c->fsdp;
	b->flash = c->flash;
	b->rec = c->recompute;
	b->D = (num)c->D, b->F = (num)c->F, b->H = (num)c->H, b->KV = (num)c->KV;
	b->V = (num)c->V, b->E = (num)c->E, b->K = (num)c->K, b->S = (num)c->S;
	b->dp = l->size[DIM_DP], b->tp = l->size[DIM_TP], b->cp = l->size[DIM_CP];
	b->ep = l->size[DIM_EP], b->pp = l->size[DIM_PP];
	/* MoE: attention is data-parallel over dp·ep ranks */
	num data = b->dp * (b->arch == ARCH_MOE ? b->ep : 1);
	b->m = (num)c->MB / data;
	b->Tq = b->m * b->S / b->cp;
	b->Tsp = b->sp ? b->Tq / b->tp : b->Tq;
	b->Dt = b->D / b->tp;
	b->kvw = b->D * b->KV / (b->H * b->tp);
	b->qkvw = b->Dt + 2 * b->kvw;
	b->Ft = b->F / b->tp;
	b->Skv = b->S;
	b->db = (num)c->dtype_bytes;
	b->gb = 4;
	b->att = c->causal ? 0.5L : 1;
	b->nmb = (int)(c->B / c->MB);
	b->vst = c->schedule == SCHED_INTERLEAVED ? (int)c->vstages : 1;
	b->nchunks = (int)b->pp * b->vst;
}

num pb_expert_params(const pb *b)
{
	return b->arch == ARCH_MOE ? b->E / b->ep * 3 * b->D * b->Ft : 0;
}

num pb_layer_params(const pb *b)
{
	num att = b->D * b->qkvw + b->Dt * b->D;
	if (b->arch == ARCH_GPT)
		return att + 2 * b->D * b->Ft;
	if (b->arch == ARCH_LLAMA)
		return att + 3 * b->D * b->Ft;
	return att + b->D * b->E + pb_expert_params(b);
}

int phys_chunk_layers(uint64_t L, int n, int j, int *first)
{
	int base = (int)(L / (uint64_t)n), extra = (int)(L % (uint64_t)n);
	*first = j * base + (j < extra ? j : extra);
	return base + (j < extra);
}

/* --- embeddings -------------------------------------------------------- */
/* The input embedding: a lookup in this rank's vocabulary shard (V/tp
 * rows), partial over tp, reduced to the layers' layout. */
sgv pb_embed(pb *b)
{
	sg *g = b->g;
	const char *n = PN("mb%d.embedding", b->mb);
	sgv y = sg_comp_w(g, n, OP_GATHER, b->Tq * b->D, b->Tq * b->D * b->db, NULL, 0,
	                  "embedding.w", b->V / b->tp * b->D * b->db);
	return sg_coll(g, n, 1, b->sp ? RS : AR, DIM_TP, b->Tq * b->D * b->db, y);
}

/* Its gradient: a scatter-add into the shard's rows (no matrix work). */
static sgv embed_backward(pb *b, sgv dy)
{
	sg *g = b->g;
	const char *n = PN("mb%d.embedding.d_out", b->mb);
	sgv d = b->sp ? sg_coll(g, n, 1, AG, DIM_TP, b->Tsp * b->D * b->db, dy) : dy;
	return sg_comp(g, PN("mb%d.embedding.dw", b->mb), OP_SCATTER, b->Tq * b->D,
	               b->V / b->tp * b->D * b->gb, SGD(d));
}

typedef struct head_save {
	sgv x, ln, in, logits;
} head_save;

/* The final norm, the vocabulary-parallel output embedding and the loss
 * (cross-entropy over the vocabulary shards: three all-reduces over tp of
 * one fp32 per token — the maximum, the sum of exponentials, the target's
 * logit). */
static void head_forward(pb *b, sgv x, head_save *h)
{
	sg *g = b->g;
	int i = b->mb;
	num Vt = b->V / b->tp;
	h->x = x;
	h->ln = sg_comp(g, PN("mb%d.head.norm", i), OP_E, 5 * b->Tsp * b->D, b->Tsp * b->D * b->db,
	                SGD(x));
	h->in =
	    b->sp ? sg_coll(g, PN("mb%d.head.norm", i), 1, AG, DIM_TP, b->Tsp * b->D * b->db, h->ln)
	          : h->ln;
	h->logits = sg_comp_w(g, PN("mb%d.head.logits", i), OP_M, 2 * b->Tq * b->D * Vt,
	                      b->Tq * Vt * b->db, SGD(h->in), "head.w", b->D * Vt * b->db);
	sgv l =
	    sg_comp(g, PN("mb%d.loss.softmax", i), OP_E, 5 * b->Tq * Vt, b->Tq * 4, SGD(h->logits));
	static const char *const parts[] = {"max", "sum", "target"};
	for (int k = 0; k < 3; k++)
		l = sg_coll(g, PN("mb%d.loss.%s", i, parts[k]), 1, AR, DIM_TP, b->Tq * 4, l);
	h->logits = sg_comp(g, PN("mb%d.loss", i), OP_E, 2 * b->Tq, b->Tq * 4, SGD(l, h->logits));
}

/* Its backward: the logits' gradient, dx (partial over tp) and dW. */
static sgv head_backward(pb *b, head_save *h, sgv *wg)
{
	sg *g = b->g;
	int i = b->mb;
	num Vt = b->V / b->tp;
	sgv dl = sg_comp(g, PN("mb%d.loss.d_logits", i), OP_E, 2 * b->Tq * Vt, b->Tq * Vt * b->db,
	                 SGD(h->logits));
	sgv dx = sg_comp_w(g, PN("mb%d.head.d_in", i), OP_M, 2 * b->Tq * Vt * b->D,
	                   b->Tq * b->D * b->db, SGD(dl), "head.w", b->D * Vt * b->db);
	dx = sg_coll(g, PN("mb%d.head.d_in", i), 1, b->sp ? RS : AR, DIM_TP, b->Tq * b->D * b->db,
	             dx);
	*wg = sg_comp(g, PN("mb%d.head.dw", i), OP_M, 2 * b->Tq * b->D * Vt, b->D * Vt * b->gb,
	              SGD(dl, h->in));
	sgv dn = sg_comp(g, PN("mb%d.head.d_norm", i), OP_E, 10 * b->Tsp * b->D,
	                 b->Tsp * b->D * b->db, SGD(dx, h->x));
	return dn;
}

/* --- the stage's units of parameters and their gradients ---------------- */
/* A unit is a layer or an embedding of this stage: its parameters on this
 * rank, the gradient nodes of every micro-batch, and when its last one was
 * made (the order the buckets follow: backward order). */
typedef struct unit {
	num params;
	bool expert_free; /* MoE: has no expert parameters */
	sgv *grads;
	int ngrads;
	size_t cap;
	size_t last;
} unit;

static void unit_add(unit *u, const sg *g, const sgv *wg, int n)
{
	ET_GROW(u->grads, u->cap, (size_t)u->ngrads + (size_t)n);
	for (int k = 0; k < n; k++) {
		u->grads[u->ngrads++] = wg[k];
		if (g->v[wg[k]].node >= 0 && (size_t)g->v[wg[k]].node >= u->last)
			u->last = (size_t)g->v[wg[k]].node;
	}
}

static int unit_cmp(const void *a, const void *b)
{
	const unit *x = *(unit *const *)a, *y = *(unit *const *)b;
	return x->last < y->last ? -1 : x->last > y->last;
}

/* The sync of one bucket: all-reduce (or, with FSDP, reduce-scatter) over
 * dp of its gradients in fp32, then over cp; MoE: the non-expert part also
 * over ep. Then the optimizer (Adam, about 10 FLOPs per parameter of the
 * shard). */
static void bucket_sync(pb *b, int k, unit **u, int n)
{
	sg *g = b->g;
	num params = 0, dense = 0;
	int ng = 0;
	for (int i = 0; i < n; i++) {
		params += u[i]->params;
		ng += u[i]->ngrads;
	}
	for (int i = 0; i < n; i++)
		if (b->arch == ARCH_MOE)
			dense +=
			    u[i]->expert_free ? u[i]->params : u[i]->params - pb_expert_params(b);
	sgv *all = et_xcalloc((size_t)(ng ? ng : 1), sizeof *all);
	ng = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < u[i]->ngrads; j++)
			all[ng++] = u[i]->grads[j];
	const char *name = PN("bucket%d.grad", k);
	sgv v = sg_comp(g, name, OP_CUSTOM, 0, 0, all, ng);
	free(all);
	int step = 1;
	sgv nv = sg_coll(g, name, step, b->fsdp ? RS : AR, DIM_DP, params * b->gb, v);
	step += nv != v, v = nv;
	num shard = b->fsdp ? params / b->dp : params;
	nv = sg_coll(g, name, step, AR, DIM_CP, shard * b->gb, v);
	step += nv != v, v = nv;
	if (b->arch == ARCH_MOE)
		v = sg_coll(g, name, step, AR, DIM_EP, (b->fsdp ? dense / b->dp : dense) * b->gb,
		            v);
	sg_comp(g, PN("bucket%d.adam", k), OP_E, 10 * shard, shard * 4, SGD(v));
}

/* The buckets in the order their units' last gradients are made. The
 * program issues a bucket's nodes as soon as it is ready, not where they
 * were built (after the whole schedule): their place, pos[i], is the index
 * of the bucket's last gradient node (pos has room for g->nn entries when
 * called; other nodes keep their own index). */
static uint32_t *grad_sync(pb *b, unit *units, int nu)
{
	sg *g = b->g;
	unit **o = et_xcalloc((size_t)(nu ? nu : 1), sizeof *o);
	for (int i = 0; i < nu; i++)
		o[i] = &units[i];
	qsort(o, (size_t)nu, sizeof *o, unit_cmp);
	int nb = (int)b->c->grad_buckets < nu ? (int)b->c->grad_buckets : nu;
	size_t *first = et_xcalloc((size_t)nb + 1, sizeof *first);
	uint32_t *ready = et_xcalloc((size_t)nb + 1, sizeof *ready);
	for (int k = 0, at = 0; k < nb; k++) {
		int n = nu / nb + (k < nu % nb);
		first[k] = g->nn;
		ready[k] = (uint32_t)o[at + n - 1]->last; /* sorted by last */
		bucket_sync(b, k, o + at, n);
		at += n;
	}
	first[nb] = g->nn;
	uint32_t *pos = et_xcalloc(g->nn ? g->nn : 1, sizeof *pos);
	for (size_t i = 0; i < g->nn; i++)
		pos[i] = (uint32_t)i;
	for (int k = 0; k < nb; k++)
		for (size_t i = first[k]; i < first[k + 1]; i++)
			pos[i] = ready[k];
	free(first);
	free(ready);
	free(o);
	return pos;
}

/* --- the schedule ------------------------------------------------------- */
typedef struct op {
	bool fwd;
	int mb, chunk; /* chunk: local index (0 .. vst-1) */
} op;

/* Megatron-LM's orders: GPipe (all forwards, then all backwards), 1F1B
 * (pp−p−1 warm-up forwards, then one forward one backward), interleaved
 * 1F1B over vst model chunks per stage. */
static int schedule(const pb *b, int p, op *ops)
{
	int n = 0, nmb = b->nmb, pp = (int)b->pp, V = b->vst;
	if (b->c->schedule == SCHED_GPIPE) {
		for (int i = 0; i < nmb; i++)
			ops[n++] = (op){true, i, 0};
		for (int i = 0; i < nmb; i++)
			ops[n++] = (op){false, i, 0};
		return n;
	}
	int total = nmb * V;
	int warm = V == 1 ? pp - p - 1 : (pp - p - 1) * 2 + (V - 1) * pp;
	if (V > 1 && nmb == pp)
		warm = total;
	if (warm > total)
		warm = total;
		/* virtual micro-batch k: its chunk and its micro-batch */
#define CHUNK(k, f) ((f) ? (k) % (pp * V) / pp : V - 1 - (k) % (pp * V) / pp)
#define MB(k) ((k) / (pp * V) * pp + (k) % pp)
	int fk = 0, bk = 0;
	for (; fk < warm; fk++)
		ops[n++] = (op){true, V == 1 ? fk : MB(fk), V == 1 ? 0 : CHUNK(fk, true)};
	while (fk < total) {
		ops[n++] = (op){true, V == 1 ? fk : MB(fk), V == 1 ? 0 : CHUNK(fk, true)};
		fk++;
		ops[n++] = (op){false, V == 1 ? bk : MB(bk), V == 1 ? 0 : CHUNK(bk, false)};
		bk++;
	}
	for (; bk < total; bk++)
		ops[n++] = (op){false, V == 1 ? bk : MB(bk), V == 1 ? 0 : CHUNK(bk, false)};
#undef CHUNK
#undef MB
	return n;
}

/* --- a stage ----------------------------------------------------------- */
typedef struct stage_build {
	pb *b;
	int p;
	lsave *ls;     /* [mb][layer of the stage] */
	head_save *hs; /* [mb] */
	unit *units;   /* the stage's layers, then the head and the embedding */
	int nl;
	int *lfirst; /* [chunk]: index of its first layer among the stage's */
} stage_build;

/* Tag ids: the transfer between global chunks j and j+1 of micro-batch i,
 * forward (0) or backward (1). */
static int32_t tag_of(const pb *b, int i, int j, int dir)
{
	return (int32_t)((i * b->nchunks + j) * 2 + dir);
}

/* Local chunk c of the stage, as an operation on micro-batch i: its global
 * index j, its layers [first, first + nl), the bytes it passes on. */
typedef struct chunk_op {
	pb *b;
	sg *g;
	int pp, j, first, nl;
	num act;
} chunk_op;

static chunk_op chunk_at(stage_build *s, int i, int c)
{
	pb *b = s->b;
	chunk_op o = {.b = b, .g = b->g, .pp = (int)b->pp, .act = b->Tsp * b->D * b->db};
	o.j = c * o.pp + s->p;
	o.nl = phys_chunk_layers(b->c->L, b->nchunks, o.j, &o.first);
	b->mb = i;
	return o;
}

/* FSDP: layer's weights, one shard of [P_L/dp], gathered over dp. */
static sgv fsdp_gather(pb *b, const char *what)
{
	return b->fsdp ? sg_coll(b->g, PN("%s.%s", b->pre, what), 1, AG, DIM_DP,
	                         pb_layer_params(b) / b->dp * b->db, SG_NONE)
	               : SG_NONE;
}

static void run_forward(stage_build *s, int i, int c)
{
	chunk_op o = chunk_at(s, i, c);
	pb *b = o.b;
	sg *g = o.g;
	int pp = o.pp, j = o.j, first = o.first, nl = o.nl;
	num act = o.act;
	sgv x = j == 0 ? pb_embed(b)
	               : sg_recv(g, PN("mb%d.chunk%d.x", i, j), (j - 1) % pp, act,
	                         tag_of(b, i, j - 1, 0));
	for (int l = 0; l < nl; l++) {
		lsave *ls = &s->ls[(size_t)i * s->nl + s->lfirst[c] + l];
		b->pre = PN("mb%d.layer%d", i, first + l);
		ls->wg = fsdp_gather(b, "weights");
		x = layer_forward(b, x, ls, "");
	}
	if (j == b->nchunks - 1)
		head_forward(b, x, &s->hs[i]);
	else
		sg_send(g, PN("mb%d.chunk%d.x", i, j + 1), (j + 1) % pp, act, x,
		        tag_of(b, i, j, 0));
}

static void run_backward(stage_build *s, int i, int c)
{
	chunk_op o = chunk_at(s, i, c);
	pb *b = o.b;
	sg *g = o.g;
	int pp = o.pp, j = o.j, first = o.first, nl = o.nl;
	num act = o.act;
	sgv dy;
	if (j == b->nchunks - 1) {
		sgv wg;
		dy = head_backward(b, &s->hs[i], &wg);
		unit_add(&s->units[s->nl], g, &wg, 1);
	} else {
		dy = sg_recv(g, PN("mb%d.chunk%d.dx", i, j), (j + 1) % pp, act, tag_of(b, i, j, 1));
	}
	for (int l = nl - 1; l >= 0; l--) {
		int li = s->lfirst[c] + l;
		lsave *ls = &s->ls[(size_t)i * s->nl + li];
		b->pre = PN("mb%d.layer%d", i, first + l);
		if (b->fsdp)
			ls->wg = fsdp_gather(b, "weights_again");
		sgv wg[3 * 256 + 16];
		int nw = 0;
		dy = layer_backward(b, ls, dy, wg, &nw);
		unit_add(&s->units[li], g, wg, nw);
	}
	if (j == 0) {
		sgv wg = embed_backward(b, dy);
		unit_add(&s->units[s->nl + 1], g, &wg, 1);
	} else {
		sg_send(g, PN("mb%d.chunk%d.dx", i, j - 1), (j - 1) % pp, act, dy,
		        tag_of(b, i, j - 1, 1));
	}
}

static void train_stage(pb *b)
{
	sg *g = b->g;
	stage_build s = {.b = b, .p = g->stage};
	int vst = b->vst, pp = (int)b->pp;
	s.lfirst = et_xcalloc((size_t)vst, sizeof *s.lfirst);
	for (int c = 0; c < vst; c++) {
		int first;
		s.lfirst[c] = s.nl;
		s.nl += phys_chunk_layers(b->c->L, b->nchunks, c * pp + s.p, &first);
	}
	size_t nls = (size_t)b->nmb * (size_t)(s.nl ? s.nl : 1);
	s.ls = et_xcalloc(nls, sizeof *s.ls);
	size_t ne = b->arch == ARCH_MOE ? (size_t)(b->E / b->ep) : 0;
	sgv *eh = ne ? et_xcalloc(nls * ne, sizeof *eh) : NULL;
	for (size_t i = 0; i < nls && ne; i++)
		s.ls[i].eh = eh + i * ne;
	s.hs = et_xcalloc((size_t)b->nmb, sizeof *s.hs);
	s.units = et_xcalloc((size_t)s.nl + 2, sizeof *s.units);
	for (int l = 0; l < s.nl; l++) {
		s.units[l].params = pb_layer_params(b);
	}
	s.units[s.nl].params = b->D * b->V / b->tp;     /* the head */
	s.units[s.nl + 1].params = b->D * b->V / b->tp; /* the embedding */
	s.units[s.nl].expert_free = s.units[s.nl + 1].expert_free = true;
	op *ops = et_xcalloc((size_t)b->nmb * (size_t)vst * 2, sizeof *ops);
	int nops = schedule(b, s.p, ops);
	for (int k = 0; k < nops; k++) {
		uint32_t lo = (uint32_t)g->nn;
		if (ops[k].fwd)
			run_forward(&s, ops[k].mb, ops[k].chunk);
		else
			run_backward(&s, ops[k].mb, ops[k].chunk);
		if (k > 0 && lo > 0)
			sg_after(g, lo - 1, lo);
	}
	/* units without gradients here (the head or embedding of another stage) */
	int nu = 0;
	for (int u = 0; u < s.nl + 2; u++)
		if (s.units[u].ngrads)
			s.units[nu++] = s.units[u];
	uint32_t *pos = grad_sync(b, s.units, nu);
	sg_chain_collectives(g, pos);
	free(pos);
	for (int u = 0; u < nu; u++)
		free(s.units[u].grads);
	free(s.units);
	free(ops);
	free(s.ls);
	free(eh);
	free(s.hs);
	free(s.lfirst);
}

void phys_build(sg *g)
{
	pb b;
	pb_init(&b, g);
	if (g->c->mode == MODE_TRAIN) {
		train_stage(&b);
	} else {
		infer_stage(&b);
		sg_chain_collectives(g, NULL);
	}
}
