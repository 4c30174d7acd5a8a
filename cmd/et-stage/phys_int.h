/* Physical mode's internals: the numbers of one stage's build, shared by
 * the layer builders (phys_layer.c), the step (phys.c) and inference
 * (infer.c). Quantities are long doubles: exact for the integers they
 * hold, and truncated on output. */
#ifndef ET_STAGE_PHYS_INT_H
#define ET_STAGE_PHYS_INT_H

#include "et-stage/phys.h"
#include "et_types.h"

typedef long double num;

#define AG ET_COLL_ALL_GATHER
#define AR ET_COLL_ALL_REDUCE
#define RS ET_COLL_REDUCE_SCATTER
#define A2A ET_COLL_ALL_TO_ALL

typedef struct pb {
	sg *g;
	const stage_conf *c;
	int arch;
	bool sp, fsdp, flash;
	int rec;
	num D, F, H, KV, V, E, K, S;
	num dp, tp, cp, ep, pp;
	num m;       /* sequences per micro-batch on this rank */
	num Tq, Tsp; /* tokens of a micro-batch on this rank; the sequence-parallel share */
	num Dt, kvw, qkvw, Ft; /* per tp rank: d_model, k (or v) width, q+k+v width, d_ff */
	num Skv;               /* positions a query attends over (S; decode: the context) */
	num db, gb;            /* bytes of an element: compute dtype, gradients (fp32) */
	num att;               /* the share of the score products computed: 1/2 causal, 1 full */
	num kv_read, kv_write; /* inference: KV-cache bytes a layer reads and writes */
	int nmb, nchunks, vst;
	const char *pre; /* "mb<i>.layer<l>" */
	int mb;
} pb;

/* What a layer's backward needs of its forward. */
typedef struct lsave {
	sgv x, ln1, qkv, kv, probs, o, res1, ln2, h, gate, up;
	sgv wg; /* FSDP: the gathered weights */
	/* MoE */
	sgv route, rows;
	sgv *eh; /* per local expert: its hidden activation (the caller's array) */
} lsave;

void pb_init(pb *b, sg *g);
/* Parameters of one layer on this rank (all its matrices; MoE: local experts). */
num pb_layer_params(const pb *b);
/* MoE: the part of pb_layer_params held by experts. */
num pb_expert_params(const pb *b);

/* A name under the current prefix. */
#define PN(...) sg_name(b->g, __VA_ARGS__)

/* The input embedding of the current micro-batch (phys.c). */
sgv pb_embed(pb *b);

/* Inference (infer.c): prefill or decode steps of one stage. */
void infer_stage(pb *b);

/* One layer's forward from x (fills s) and backward from dy (weight
 * gradients appended to wg, *nw of them; returns dx). */
sgv layer_forward(pb *b, sgv x, lsave *s, const char *tag);
sgv layer_backward(pb *b, lsave *s, sgv dy, sgv *wg, int *nw);

#endif
