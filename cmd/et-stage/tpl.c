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

/* Room for one more piece. */
static tpl_piece *piece_new(stage_tpl *t)
{
	if (t->np == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->p = et_xrealloc(t->p, t->cap * sizeof *t->p);
	}
	tpl_piece *p = &t->p[t->np++];
	memset(p, 0, sizeof *p);
	p->off = t->bytes.len;
	return p;
}

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

void tpl_build(stage_tpl *t, const sg *g, uint64_t first_id)
{
	memset(t, 0, sizeof *t);
	t->stage = g->stage;
	et_arena *a = et_arena_new();
	tpl_piece *run = NULL;
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
		const sg_node *s = &g->n[i];
		et_node *n = node_fixed(a, g, i, first_id, coff, cfrom);
		if (s->var == VAR_NONE) {
			if (!run)
				run = piece_new(t);
			et_node_encode(n, &t->bytes);
			run->len = t->bytes.len - run->off;
			run->nodes++;
		} else {
			tpl_piece *p = piece_new(t);
			p->var = s->var;
			p->dim = s->dim;
			p->peer_stage = s->peer_stage;
			et_node_pack(n, &t->bytes);
			p->len = t->bytes.len - p->off;
			run = NULL;
		}
		et_arena_reset(a);
	}
	t->nodes = g->nn;
	pack_meta(&t->meta);
	free(coff);
	free(cfrom);
	et_arena_free(a);
}

void tpl_free(stage_tpl *t)
{
	et_buf_free(&t->bytes);
	et_buf_free(&t->rank);
	et_buf_free(&t->meta);
	free(t->p);
	memset(t, 0, sizeof *t);
}

/* The encoded attributes pieces add for rank r: the pg_name of each
 * spatial dimension, and each (send or receive, peer stage) seen so far
 * (a stage has a handful), encoded once per rank. */
enum { PEERS = 16 };
typedef struct var_cache {
	uint8_t b[4][32];
	size_t n[4];
	struct {
		uint8_t var;
		int32_t stage;
		uint8_t b[32];
		size_t n;
	} peer[PEERS];
	int npeer;
} var_cache;

static void var_bytes(et_arena *a, const char *name, bool str, int64_t v, uint8_t *out, size_t *n)
{
	et_node *x = et_node_new(a);
	char s[24];
	if (str) {
		snprintf(s, sizeof s, "%" PRId64, v);
		et_attr_set_str(a, x, name, s);
	} else {
		et_attr_set_int32(a, x, name, (int32_t)v);
	}
	et_buf b = {0};
	et_node_pack(x, &b);
	*n = b.len < 32 ? b.len : 0;
	memcpy(out, b.data, *n);
	et_buf_free(&b);
	et_arena_reset(a);
}

/* The rank's bytes so far, handed to the writer (whole messages). */
static int flush(stage_tpl *t, et_writer *w, uint64_t *count, et_error *e)
{
	int r = t->rank.len ? et_writer_raw(w, t->rank.data, t->rank.len, *count, e) : 0;
	t->rank.len = 0;
	*count = 0;
	return r;
}

int tpl_write_rank(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                   const et_rank_info *ri, et_error *e)
{
	et_msg msg = {t->meta.data, t->meta.len, 0, 0};
	if (et_writer_rank_begin(w, ri, e) < 0 || et_writer_msg(w, &msg, e) < 0)
		return -1;
	et_arena *a = et_arena_new();
	var_cache vc;
	memset(&vc, 0, sizeof vc);
	for (int d = 0; d < 4; d++)
		if (l->size[d] > 1)
			var_bytes(a, "pg_name", true, (int64_t)stage_group_id(l, r, d), vc.b[d],
			          &vc.n[d]);
	et_buf *o = &t->rank;
	o->len = 0;
	uint64_t base = r - (uint64_t)t->stage * l->stride[DIM_PP], count = 0;
	int rc = 0;
	for (size_t i = 0; i < t->np && rc == 0; i++) {
		const tpl_piece *p = &t->p[i];
		const uint8_t *src = t->bytes.data + p->off;
		if (p->var == VAR_NONE) {
			et_buf_append(o, src, p->len);
			count += p->nodes;
		} else {
			uint8_t vb[32], pre[10];
			size_t vn;
			if (p->var == VAR_PG) {
				memcpy(vb, vc.b[p->dim], vn = vc.n[p->dim]);
			} else {
				int k = 0;
				while (k < vc.npeer && (vc.peer[k].var != p->var ||
				                        vc.peer[k].stage != p->peer_stage))
					k++;
				if (k == vc.npeer) { /* PEERS is ample: stages have <= 3 peers */
					int64_t peer = (int64_t)(base + (uint64_t)p->peer_stage *
					                                    l->stride[DIM_PP]);
					k = vc.npeer < PEERS ? vc.npeer++ : PEERS - 1;
					vc.peer[k].var = p->var;
					vc.peer[k].stage = p->peer_stage;
					var_bytes(a, p->var == VAR_DST ? "comm_dst" : "comm_src",
					          false, peer, vc.peer[k].b, &vc.peer[k].n);
				}
				memcpy(vb, vc.peer[k].b, vn = vc.peer[k].n);
			}
			int np = et_varint_put(pre, p->len + vn);
			et_buf_append(o, pre, (size_t)np);
			et_buf_append(o, src, p->len);
			et_buf_append(o, vb, vn);
			count++;
		}
		/* a big rank goes out in pieces: the buffer stays small */
		if (o->len >= ((size_t)4 << 20))
			rc = flush(t, w, &count, e);
	}
	et_arena_free(a);
	if (rc == 0)
		rc = flush(t, w, &count, e);
	return rc == 0 ? et_writer_rank_end(w, e) : -1;
}
