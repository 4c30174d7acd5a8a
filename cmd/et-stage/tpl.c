/* Serialize a stage graph once; write each rank by patching (tpl.h). */
#include "et-stage/tpl.h"
#include "et_attr.h"
#include "et_codec.h"
#include "et_mem.h"
#include "et_types.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t trunc_u64(long double x)
{
	return x <= 0 ? 0 : x >= 18446744073709551615.0L ? UINT64_MAX : (uint64_t)x;
}

/* The memory attributes' byte counts (STAGE's): activations n elements,
 * weights 5n (Adam state); with mixed precision int(0.5n)·4 and
 * int(1.5n)·4 + 4n. Physical mode's sizes are bytes. */
static uint64_t mem_bytes(const stage_conf *c, long double n, bool weight)
{
	if (!c->compat) /* physical sizes are bytes already */
		return trunc_u64(n);
	if (!c->mixed)
		return trunc_u64(weight ? 5 * n : n);
	return weight ? trunc_u64(1.5L * n) * 4 + trunc_u64(n) * 4 : trunc_u64(0.5L * n) * 4;
}

/* A list of (key, "size.0") pairs being filled. */
typedef struct kv {
	const char *s[2 * 64 + 4];
	char num[64 + 2][24];
	size_t n, nn;
} kv;

static void kv_add(kv *l, const char *key, uint64_t bytes)
{
	if (!key || l->n + 2 > sizeof l->s / sizeof *l->s)
		return;
	snprintf(l->num[l->nn], sizeof l->num[l->nn], "%" PRIu64 ".0", bytes);
	l->s[l->n++] = key;
	l->s[l->n++] = l->num[l->nn++];
}

/* inputs: the tensors the node reads (and its weight); outputs: the one it
 * makes (none for sends, nor for collectives in compat mode, as in STAGE). */
static void mem_attrs(et_arena *a, et_node *n, const sg *g, const sg_node *s)
{
	kv in = {.n = 0}, out = {.n = 0};
	for (uint32_t i = 0; i < s->n_in; i++) {
		const sg_val *v = &g->v[g->pool[s->in_off + i]];
		if (v->node >= 0)
			kv_add(&in, g->n[v->node].key, mem_bytes(g->c, v->size, false));
	}
	if (s->wkey)
		kv_add(&in, s->wkey, mem_bytes(g->c, s->wsize, true));
	bool makes = s->type == ET_NODE_COMP || s->type == ET_NODE_RECV ||
	             s->type == ET_NODE_MEM_LOAD || (s->type == ET_NODE_COLL && !g->c->compat);
	if (makes)
		kv_add(&out, s->key, mem_bytes(g->c, s->size, false));
	et_attr_set_strlist(a, n, "inputs", in.s, in.n);
	et_attr_set_strlist(a, n, "outputs", out.s, out.n);
}

/* The node without its rank-dependent attribute. */
static et_node *node_fixed(et_arena *a, const sg *g, size_t i, uint64_t first_id,
                           const uint32_t *coff, const uint32_t *cfrom)
{
	const sg_node *s = &g->n[i];
	et_node *n = et_node_new(a);
	n->id = first_id + i;
	n->name = (char *)s->name;
	n->type = s->type;
	if (s->type == ET_NODE_COMP) {
		et_attr_set_int64(a, n, "num_ops", (int64_t)trunc_u64(s->ops));
		et_attr_set_uint64(a, n, "tensor_size", trunc_u64(s->size));
		et_attr_set_str(a, n, "op_type", sg_op_name[s->op]);
		et_attr_set_bool(a, n, "is_cpu_op", false); /* STAGE leaves it out */
	} else if (et_node_is_mem(s->type)) {
		et_attr_set_uint64(a, n, "tensor_size", trunc_u64(s->size));
		et_attr_set_bool(a, n, "is_cpu_op", false);
	} else {
		et_attr_set_int64(a, n, "comm_size", (int64_t)trunc_u64(s->size));
		if (s->type == ET_NODE_COLL) {
			et_attr_set_int64(a, n, "comm_type", s->ctype);
			if (g->c->compat) /* STAGE's member */
				et_attr_set_int32(a, n, "is_cpu_op", 0);
			else
				et_attr_set_bool(a, n, "is_cpu_op", false);
		} else {
			et_attr_set_int32(a, n, "comm_tag", s->tag);
			et_attr_set_bool(a, n, "is_cpu_op", false); /* STAGE leaves it out */
		}
	}
	mem_attrs(a, n, g, s);
	n->n_data_deps = s->n_deps;
	n->data_deps = et_arena_alloc(a, (s->n_deps ? s->n_deps : 1) * sizeof *n->data_deps);
	for (uint32_t k = 0; k < s->n_deps; k++)
		n->data_deps[k] = first_id + g->pool[s->dep_off + k];
	n->n_ctrl_deps = coff[i + 1] - coff[i];
	n->ctrl_deps =
	    et_arena_alloc(a, (n->n_ctrl_deps ? n->n_ctrl_deps : 1) * sizeof *n->ctrl_deps);
	for (uint32_t k = 0; k < n->n_ctrl_deps; k++)
		n->ctrl_deps[k] = first_id + cfrom[coff[i] + k];
	return n;
}

/* The GlobalMetadata STAGE writes: version 0.0.4, schema
 * "symbolic_tensor_network". */
static void pack_meta(et_buf *out)
{
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	et_attr at = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__INIT, *ap = &at;
	m.version = "0.0.4";
	at.name = "schema";
	at.value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	at.string_val = "symbolic_tensor_network";
	m.n_attr = 1;
	m.attr = &ap;
	et_meta_pack(&m, out);
}

/* The template slot of a node's rank-dependent attribute: the pg_name of
 * dimension d is slot d; a send's (receive's) peer at stage ps is slot
 * 4 + 2·ps (+ 1). */
static uint32_t slot_of(const sg_node *s)
{
	if (s->var == VAR_NONE)
		return ET_TPL_FIXED;
	if (s->var == VAR_PG)
		return s->dim;
	return 4 + 2 * (uint32_t)s->peer_stage + (s->var == VAR_SRC);
}

void tpl_build(stage_tpl *t, const sg *g, uint64_t first_id)
{
	memset(t, 0, sizeof *t);
	et_tpl_init(&t->t);
	t->stage = g->stage;
	et_arena *a = et_arena_new();
	/* the control edges by target: coff[i]..coff[i+1] index cfrom */
	uint32_t *coff = et_xcalloc(g->nn + 1, sizeof *coff);
	uint32_t *cfrom = et_xcalloc(g->nctrl ? g->nctrl : 1, sizeof *cfrom);
	for (size_t k = 0; k < g->nctrl; k++)
		coff[g->ctrl[k][1] + 1]++;
	for (size_t i = 0; i < g->nn; i++)
		coff[i + 1] += coff[i];
	uint32_t *fill = et_xcalloc(g->nn + 1, sizeof *fill);
	for (size_t k = 0; k < g->nctrl; k++) {
		uint32_t to = g->ctrl[k][1];
		cfrom[coff[to] + fill[to]++] = g->ctrl[k][0];
	}
	free(fill);
	for (size_t i = 0; i < g->nn; i++) {
		et_tpl_add(&t->t, node_fixed(a, g, i, first_id, coff, cfrom), slot_of(&g->n[i]));
		et_arena_reset(a);
	}
	pack_meta(&t->meta);
	free(coff);
	free(cfrom);
	et_arena_free(a);
}

void tpl_free(stage_tpl *t)
{
	et_tpl_free(&t->t);
	et_buf_free(&t->meta);
	memset(t, 0, sizeof *t);
}

/* The attributes of one rank, each encoded once when first asked for. */
typedef struct rank_vars {
	const stage_layout *l;
	uint32_t r;
	uint64_t base; /* the rank's coordinates at stage 0 */
	et_buf *b;     /* per slot */
	bool *done;
	uint32_t n;
} rank_vars;

static const et_buf *rank_var(void *ctx, uint32_t slot)
{
	rank_vars *v = ctx;
	if (slot >= v->n)
		return NULL; /* not reached: slots come from this stage's graph */
	if (!v->done[slot]) {
		v->done[slot] = true;
		if (slot < 4) {
			char s[24];
			snprintf(s, sizeof s, "%" PRIu64,
			         (uint64_t)stage_group_id(v->l, v->r, (int)slot));
			et_tpl_attr_str(&v->b[slot], "pg_name", s);
		} else {
			uint64_t ps = (slot - 4) / 2;
			int64_t peer = (int64_t)(v->base + ps * v->l->stride[DIM_PP]);
			et_tpl_attr_int32(&v->b[slot], slot % 2 ? "comm_src" : "comm_dst",
			                  (int32_t)peer);
		}
	}
	return &v->b[slot];
}

/* Rank r written in full (cls < 0) or as a class rank. */
static int write_rank(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                      const et_rank_info *ri, int cls, et_error *e)
{
	rank_vars v = {.l = l, .r = r, .n = 4 + 2 * l->size[DIM_PP]};
	v.base = r - (uint64_t)t->stage * l->stride[DIM_PP];
	v.b = et_xcalloc(v.n, sizeof *v.b);
	v.done = et_xcalloc(v.n, sizeof *v.done);
	int rc = cls < 0 ? et_tpl_write(&t->t, w, ri, &t->meta, rank_var, &v, e)
	                 : et_tpl_write_class(&t->t, w, ri, (uint32_t)t->stage, cls == 1, &t->meta,
	                                      rank_var, &v, e);
	for (uint32_t i = 0; i < v.n; i++)
		et_buf_free(&v.b[i]);
	free(v.b);
	free(v.done);
	return rc;
}

int tpl_write_rank(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                   const et_rank_info *ri, et_error *e)
{
	return write_rank(t, l, r, w, ri, -1, e);
}

int tpl_write_rank_class(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                         const et_rank_info *ri, bool define, et_error *e)
{
	return write_rank(t, l, r, w, ri, define ? 1 : 0, e);
}
