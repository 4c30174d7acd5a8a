/* astxt_wire: the nodes of one rank in the order the reference converter
 * creates them (which is its id order), with their data dependencies, per
 * parallelism and pass (doc/compiler-ir.md, "ASTRA-sim 1.0 text workloads").
 *
 * The reference keeps, per layer, the last node of each kind it made, and
 * wires new nodes to those; what a pass leaves behind is what the next pass
 * waits for. st[layer][kind] plays that part (-1: none yet). It starts empty
 * for every rank (the reference clears what a rank's first pass reads before
 * the next rank), so every rank has the same graph and one is built. */
#include "et-convert/astra-text/astxt_plan.h"
#include "et_mem.h"

#include <assert.h>
#include <stdlib.h>

typedef struct wire {
	astxt_plan *p;
	const astxt *t;
	uint32_t cap;
	int64_t (*st)[ASTXT_KINDS];
} wire;

static int64_t add(wire *w, uint32_t layer, int kind)
{
	assert(w->p->n < w->cap);
	astxt_pnode *nd = &w->p->node[w->p->n];
	nd->tmpl = layer * ASTXT_KINDS + (uint32_t)kind;
	nd->ndeps = 0;
	return w->p->n++;
}

static void dep(wire *w, int64_t child, int64_t parent)
{
	astxt_pnode *nd = &w->p->node[child];
	assert(parent >= 0 && parent < child && nd->ndeps < ASTXT_MAX_DEPS);
	nd->dep[nd->ndeps++] = (uint32_t)parent;
}

/* dep when the reference's "is not None" holds */
static void dep_if(wire *w, int64_t child, int64_t parent)
{
	if (parent >= 0)
		dep(w, child, parent);
}

/* One all-reduce-like collective per layer, the weight gradient's. */
static void micro_pass(wire *w)
{
	for (uint32_t i = 0; i < w->t->nlayers; i++)
		add(w, i, ASTXT_K_WG_COMM);
}

static void data_pass(wire *w)
{
	uint32_t n = w->t->nlayers;
	int64_t(*st)[ASTXT_KINDS] = w->st;
	int64_t f = -1;
	for (uint32_t i = 0; i < n; i++) {
		f = add(w, i, ASTXT_K_FWD);
		if (i)
			dep(w, f, st[i - 1][ASTXT_K_FWD]);
		dep_if(w, f, st[i][ASTXT_K_WG_COMM]); /* the previous pass's */
		st[i][ASTXT_K_FWD] = f;
	}
	for (uint32_t r = 0; r < n; r++) {
		uint32_t i = n - 1 - r;
		int64_t wg = add(w, i, ASTXT_K_WG);
		dep(w, wg, r == 0 ? f : st[i + 1][ASTXT_K_IG]);
		int64_t wc = add(w, i, ASTXT_K_WG_COMM); /* even of type NONE */
		dep(w, wc, wg);
		st[i][ASTXT_K_WG_COMM] = wc;
		if (i > 0) { /* layer 0 has no input gradient */
			int64_t ig = add(w, i, ASTXT_K_IG);
			dep(w, ig, wg);
			st[i][ASTXT_K_IG] = ig;
		}
	}
}

/* MODEL and both hybrids: the forward pass, each layer after the previous
 * one's forward collective; `hybrid` waits for the previous pass's weight
 * gradient collective first, MODEL for its weight gradient, after. */
static int64_t model_forward(wire *w, bool hybrid)
{
	int64_t(*st)[ASTXT_KINDS] = w->st;
	int64_t fc = -1;
	for (uint32_t i = 0; i < w->t->nlayers; i++) {
		int64_t f = add(w, i, ASTXT_K_FWD);
		if (hybrid)
			dep_if(w, f, st[i][ASTXT_K_WG_COMM]);
		if (i)
			dep(w, f, st[i - 1][ASTXT_K_FWD_COMM]);
		if (!hybrid)
			dep_if(w, f, st[i][ASTXT_K_WG]);
		st[i][ASTXT_K_FWD] = f;
		fc = add(w, i, ASTXT_K_FWD_COMM);
		dep(w, fc, f);
		st[i][ASTXT_K_FWD_COMM] = fc;
	}
	return fc;
}

/* The backward pass of MODEL and the hybrids, top layer first: input
 * gradient, its collective (not for layer 0), weight gradient, and for the
 * hybrids the weight gradient's collective. */
static void model_backward(wire *w, int64_t fc, bool hybrid)
{
	uint32_t n = w->t->nlayers;
	int64_t(*st)[ASTXT_KINDS] = w->st;
	for (uint32_t r = 0; r < n; r++) {
		uint32_t i = n - 1 - r;
		int64_t ig = add(w, i, ASTXT_K_IG);
		if (r == 0) {
			dep(w, ig, fc);
		} else {
			dep(w, ig, st[i + 1][ASTXT_K_WG]);
			dep(w, ig, st[i + 1][ASTXT_K_IG_COMM]);
		}
		if (i > 0) {
			int64_t ic = add(w, i, ASTXT_K_IG_COMM);
			dep(w, ic, ig);
			st[i][ASTXT_K_IG_COMM] = ic;
		}
		int64_t wg = add(w, i, ASTXT_K_WG);
		dep(w, wg, ig);
		st[i][ASTXT_K_WG] = wg;
		if (hybrid) {
			int64_t wc = add(w, i, ASTXT_K_WG_COMM);
			dep(w, wc, wg);
			st[i][ASTXT_K_WG_COMM] = wc;
		}
	}
}

static void model_pass(wire *w, bool hybrid)
{
	model_backward(w, model_forward(w, hybrid), hybrid);
}

/* HYBRID_DLRM forward: after the previous pass's weight gradient collective
 * (else its weight gradient) and the previous layer; the last bottom layer
 * also after the embedding's all-to-all. Only all-to-alls are collectives. */
static int64_t dlrm_forward(wire *w)
{
	int64_t(*st)[ASTXT_KINDS] = w->st;
	int64_t f = -1;
	for (uint32_t i = 0; i < w->t->nlayers; i++) {
		f = add(w, i, ASTXT_K_FWD);
		dep_if(w, f,
		       st[i][ASTXT_K_WG_COMM] >= 0 ? st[i][ASTXT_K_WG_COMM] : st[i][ASTXT_K_WG]);
		if (i)
			dep(w, f, st[i - 1][ASTXT_K_FWD]);
		if (i == w->t->last_bottom)
			dep(w, f, st[0][ASTXT_K_FWD_COMM]);
		st[i][ASTXT_K_FWD] = f;
		if (w->t->layers[i].comm[ASTXT_FWD] == ASTXT_ALLTOALL) {
			int64_t fc = add(w, i, ASTXT_K_FWD_COMM);
			dep(w, fc, f);
			st[i][ASTXT_K_FWD_COMM] = fc;
		}
	}
	return f;
}

/* HYBRID_DLRM backward, top layer first: weight gradient, its collective
 * unless NONE, input gradient (not for layer 0); after the input gradient
 * of the layer above the bottom ones, a collective of the embedding's
 * input-gradient type and size, which the embedding's weight gradient
 * waits for. */
static void dlrm_backward(wire *w, int64_t f)
{
	uint32_t n = w->t->nlayers;
	int64_t(*st)[ASTXT_KINDS] = w->st;
	for (uint32_t r = 0; r < n; r++) {
		uint32_t i = n - 1 - r;
		int64_t wg = add(w, i, ASTXT_K_WG);
		if (r == 0) {
			dep(w, wg, f);
		} else {
			dep_if(w, wg, st[i + 1][ASTXT_K_IG]);
			dep_if(w, wg, st[i][ASTXT_K_IG_COMM]);
		}
		st[i][ASTXT_K_WG] = wg;
		if (w->t->layers[i].comm[ASTXT_WG] != ASTXT_NONE) {
			int64_t wc = add(w, i, ASTXT_K_WG_COMM);
			dep(w, wc, wg);
			st[i][ASTXT_K_WG_COMM] = wc;
		}
		int64_t ig = -1;
		if (i > 0) {
			ig = add(w, i, ASTXT_K_IG);
			dep(w, ig, wg);
			st[i][ASTXT_K_IG] = ig;
		}
		if (i == w->t->last_bottom + 1) { /* astxt_read: last_bottom >= 1, so ig exists */
			int64_t x = add(w, 0, ASTXT_K_IG_COMM);
			dep(w, x, ig);
			st[0][ASTXT_K_IG_COMM] = x;
		}
	}
}

static void one_pass(wire *w)
{
	switch (w->t->par) {
	case ASTXT_MICRO:
		micro_pass(w);
		break;
	case ASTXT_DATA:
		data_pass(w);
		break;
	case ASTXT_MODEL:
		model_pass(w, false);
		break;
	case ASTXT_HYBRID_DATA_MODEL:
	case ASTXT_HYBRID_MODEL_DATA:
		model_pass(w, true);
		break;
	default: /* HYBRID_DLRM, HYBRID_DLRM_ENHANCED */
		dlrm_backward(w, dlrm_forward(w));
		break;
	}
}

void astxt_wire(astxt_plan *p, const astxt *t, uint32_t passes)
{
	uint32_t stored = passes < 2 ? passes : 2;
	/* at most 6 nodes per layer and pass (HYBRID_DATA_MODEL: 6n - 1) */
	wire w = {p, t, 6 * t->nlayers * stored + 1, NULL};
	w.st = et_xcalloc(t->nlayers ? t->nlayers : 1, sizeof *w.st);
	for (uint32_t i = 0; i < t->nlayers; i++)
		for (int k = 0; k < ASTXT_KINDS; k++)
			w.st[i][k] = -1;
	p->node = et_xcalloc(w.cap, sizeof *p->node);
	p->n = 0;
	p->passes = passes;
	for (uint32_t q = 0; q < stored; q++) {
		one_pass(&w);
		if (q == 0)
			p->per_pass = p->n;
	}
	assert(p->n == p->per_pass * stored);
	free(w.st);
}
