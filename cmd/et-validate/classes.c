/* Class ranks checked from their rules (see classes.h). */
#include "et-validate/classes.h"
#include "et_arena.h"
#include "et_mem.h"
#include "et_stream.h"

#include <stdatomic.h>
#include <stdlib.h>

#define KEEP_MAX ((size_t)256 << 20)

typedef struct vclass {
	uint64_t gen; /* the class generation g is of; 0: none kept */
	et_graph *g;
	et_crule_class crule;
	size_t bytes;
} vclass;

struct vclasses {
	vclass cls[ET_STREAM_CLASS_IDS];
	/* per class id, the generation whose ranks may come as rules (0:
	 * none): written by the checking thread, read by the reading one */
	_Atomic uint64_t ok_gen[ET_STREAM_CLASS_IDS];
	size_t kept; /* bytes of the kept graphs */
	et_arena *ra;
	et_crule_val *vals;
	size_t vals_cap;
};

vclasses *vclasses_new(void)
{
	vclasses *c = et_xcalloc(1, sizeof *c);
	for (uint32_t k = 0; k < ET_STREAM_CLASS_IDS; k++)
		atomic_init(&c->ok_gen[k], 0);
	c->ra = et_arena_new();
	return c;
}

void vclasses_free(vclasses *c)
{
	if (!c)
		return;
	for (uint32_t k = 0; k < ET_STREAM_CLASS_IDS; k++) {
		et_graph_free(c->cls[k].g);
		et_crule_class_free(&c->cls[k].crule);
	}
	et_arena_free(c->ra);
	free(c->vals);
	free(c);
}

static et_wk_attr slot_attr(uint8_t kind)
{
	return kind == ET_CRULE_PG    ? ET_WK_PG_NAME
	       : kind == ET_CRULE_SRC ? ET_WK_COMM_SRC
	       : kind == ET_CRULE_DST ? ET_WK_COMM_DST
	                              : ET_WK_NONE;
}

bool vclasses_want_rule(void *ctx, const et_rank_info *ri, const et_crule_class *cls,
                        const et_crule_val *vals)
{
	vclasses *c = ctx;
	if (ri->class_id >= ET_STREAM_CLASS_IDS ||
	    atomic_load_explicit(&c->ok_gen[ri->class_id], memory_order_acquire) != ri->class_gen)
		return false;
	/* a value in another member than doc/chakra-et.md's is an ATTR_MEMBER
	 * finding of decoding: such a rank is decoded */
	for (uint32_t s = 0; s < cls->n_slots; s++) {
		et_wk_attr k = slot_attr(cls->kind[s]);
		if (k != ET_WK_NONE && vals[s].member != et_graph_wk_member(k))
			return false;
	}
	return true;
}

/* Every slot node of the class is a node of g with a comm record, so that
 * setting its value is what decoding it would have done. */
static bool fits(const et_graph *g, const et_crule_class *cr)
{
	if (cr->n_nodes != g->n)
		return false;
	for (size_t k = 0; k < cr->n; k++) {
		uint32_t i = cr->nodes[k].node, s = cr->nodes[k].slot;
		if (i >= g->n || !g->comm[i] || s >= cr->n_slots ||
		    slot_attr(cr->kind[s]) == ET_WK_NONE)
			return false;
	}
	return true;
}

void vclasses_keep(vclasses *c, const et_load_rank *r, et_graph **g, bool clean)
{
	uint32_t id = r->ri.class_id;
	if (!r->ri.crule || id >= ET_STREAM_CLASS_IDS ||
	    atomic_load_explicit(&c->ok_gen[id], memory_order_relaxed) == r->ri.class_gen)
		return;
	vclass *k = &c->cls[id];
	size_t bytes = et_graph_bytes(*g);
	if (!clean || !fits(*g, r->ri.crule) || c->kept - k->bytes + bytes > KEEP_MAX)
		return;
	c->kept = c->kept - k->bytes + bytes;
	et_graph *old = k->g;
	k->g = *g;
	k->gen = r->ri.class_gen;
	k->bytes = bytes;
	et_crule_class_copy(&k->crule, r->ri.crule);
	*g = old ? old : et_graph_new();
	et_graph_reset(*g);
	atomic_store_explicit(&c->ok_gen[id], k->gen, memory_order_release);
}

et_graph *vclasses_rank_graph(vclasses *c, const et_rank_info *ri, et_error *e)
{
	vclass *k = ri->class_id < ET_STREAM_CLASS_IDS ? &c->cls[ri->class_id] : NULL;
	if (!k || !k->g || k->gen != ri->class_gen) {
		et_fail(e, ET_EXIT_DATA, "%s: rank %u: class %u came as its rule before its class",
		        ri->input, ri->rank, ri->class_id);
		return NULL;
	}
	et_arena_reset(c->ra);
	ET_GROW(c->vals, c->vals_cap, (size_t)k->crule.n_slots + 1);
	if (!et_crule_rule_vals(&k->crule, ri->rule, ri->rule_len, c->ra, c->vals)) {
		et_fail(e, ET_EXIT_DATA, "%s: rank %u: class %u: its rule does not read", ri->input,
		        ri->rank, ri->class_id);
		return NULL;
	}
	for (size_t n = 0; n < k->crule.n; n++) {
		uint32_t i = k->crule.nodes[n].node, s = k->crule.nodes[n].slot;
		et_wk_attr a = slot_attr(k->crule.kind[s]);
		et_graph_set_comm(k->g, i, a, c->vals[s].pg, c->vals[s].peer);
	}
	return k->g;
}
