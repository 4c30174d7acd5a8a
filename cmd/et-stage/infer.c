/* Physical mode, inference: a prefill of S tokens per sequence, or decode
 * steps one after another, each attending over the growing KV cache.
 *
 * A data-parallel rank (dp·ep for MoE) serves B/dp sequences as one batch;
 * tensor parallelism is Megatron's without sequence parallelism (row
 * outputs all-reduced), pipeline stages pass the activations on and the
 * last stage sends the sampled tokens back to the first for the next step.
 * The KV cache is memory traffic: each layer stores the step's keys and
 * values (MEM_STORE) and, in decode, loads the cached ones (MEM_LOAD). The
 * prefill computes the logits of the last position only. */
#include "et-stage/phys_int.h"

/* The last stage's head: final norm, the vocabulary-parallel logits of
 * n positions, and the sampling (an all-reduce over tp of the shards'
 * best token and its score, 8 bytes per position). */
static sgv infer_head(pb *b, sgv x, num n)
{
	sg *g = b->g;
	int t = b->mb;
	num Vt = b->V / b->tp;
	sgv h = sg_comp(g, PN("step%d.head.norm", t), OP_E, 5 * n * b->D, n * b->D * b->db, SGD(x));
	sgv l = sg_comp_w(g, PN("step%d.head.logits", t), OP_M, 2 * n * b->D * Vt, n * Vt * b->db,
	                  SGD(h), "head.w", b->D * Vt * b->db);
	l = sg_comp(g, PN("step%d.sample", t), OP_E, 2 * n * Vt, n * 8, SGD(l));
	return sg_coll(g, PN("step%d.sample", t), 1, AR, DIM_TP, n * 8, l);
}

/* One forward of the stage's layers for step t over Tq tokens per rank
 * attending over Skv positions; tokens: the previous step's output (the
 * last stage's, sent back), or SG_NONE. */
static void infer_step(pb *b, int t, sgv tokens)
{
	sg *g = b->g;
	const stage_conf *c = b->c;
	int p = b->g->stage, pp = (int)b->pp, first;
	int nl = phys_chunk_layers(c->L, pp, p, &first);
	num act = b->Tq * b->D * b->db, seqs = b->m;
	b->mb = t;
	sgv x;
	if (p == 0) {
		uint32_t lo = (uint32_t)g->nn;
		x = pb_embed(b);
		if (tokens != SG_NONE) /* the embedding needs the sampled tokens */
			sg_after(g, (uint32_t)g->v[tokens].node, lo);
	} else {
		x = sg_recv(g, PN("step%d.stage%d.x", t, p), p - 1, act,
		            (int32_t)(t * (pp + 1) + p - 1));
	}
	sgv eh[256];
	for (int l = 0; l < nl; l++) {
		lsave s = {.wg = SG_NONE, .eh = eh};
		b->pre = PN("step%d.layer%d", t, first + l);
		x = layer_forward(b, x, &s, "");
	}
	if (p < pp - 1) {
		sg_send(g, PN("step%d.stage%d.x", t, p + 1), p + 1, act, x,
		        (int32_t)(t * (pp + 1) + p));
		return;
	}
	/* prefill: the last position only, its logits shared out over cp (the
	 * ranks of a cp group run one graph) */
	num n = c->mode == MODE_PREFILL ? seqs / b->cp : b->Tq;
	sgv y = infer_head(b, x, n);
	if (pp > 1 && c->mode == MODE_DECODE && (uint64_t)t + 1 < c->new_tokens)
		sg_send(g, PN("step%d.tokens", t + 1), 0, seqs * 4, y,
		        (int32_t)(t * (pp + 1) + pp));
}

void infer_stage(pb *b)
{
	sg *g = b->g;
	const stage_conf *c = b->c;
	int pp = (int)b->pp;
	b->sp = false;
	b->fsdp = false;
	b->rec = REC_NONE;
	num kvb = 2 * b->kvw * b->db; /* one position's keys and values on this rank */
	if (c->mode == MODE_PREFILL) {
		b->kv_write = b->Tq * kvb;
		infer_step(b, 0, SG_NONE);
		return;
	}
	/* decode: one token per sequence and step */
	b->Tq = b->m;
	b->Tsp = b->m;
	b->att = 1;
	sgv prev = SG_NONE;
	for (uint64_t t = 0; t < c->new_tokens; t++) {
		b->Skv = (num)(c->context + t);
		b->kv_read = b->m * (b->Skv - 1) * kvb;
		b->kv_write = b->m * kvb;
		if (g->stage == 0 && pp > 1 && t > 0)
			prev = sg_recv(g, PN("step%d.tokens", (int)t), pp - 1, b->m * 4,
			               (int32_t)((int)(t - 1) * (pp + 1) + pp));
		uint32_t lo = (uint32_t)g->nn;
		infer_step(b, (int)t, prev);
		if (t > 0 && lo > 0 && pp == 1) /* one stage: the next step follows this one */
			sg_after(g, lo - 1, lo);
	}
}
