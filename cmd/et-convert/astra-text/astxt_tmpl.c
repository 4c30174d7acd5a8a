/* astxt_tmpl: node templates and the bytes of a rank.
 *
 * A node's canonical encoding is its fields in number order: id (1), name
 * (2), type (3), data_deps (5, packed), duration_micros (7), attr (10).
 * Only id and data_deps change from rank to rank (the reference's ids run
 * on across ranks), so each distinct node is packed once by protobuf-c in
 * two pieces, fields 2-3 and fields 7-10, and a rank's nodes are those
 * pieces with the id and the dependencies written between them as
 * varints: no node is built or packed per rank. */
#include "et-convert/astra-text/astxt_plan.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_codec.h"
#include "et_mem.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const comp_phase[] = {"FWD", "BWD_IG", "BWD_WG"};

/* The node of a layer's kind, as the reference builds it: computations
 * "COMP_NODE_<layer>_<phase>" with their time, collectives
 * "COMM_COLL_NODE_<layer>_<type token>" with comm_type and comm_size
 * (int64_val both), nothing else (no is_cpu_op). */
static et_node *tmpl_node(et_arena *a, const astxt *t, uint32_t layer, int kind)
{
	const astxt_layer *l = &t->layers[layer];
	et_node *n = et_node_new(a);
	int ph = kind % 3;
	size_t cap = strlen(l->name) + 64;
	char *name = et_arena_alloc(a, cap);
	if (kind < ASTXT_K_FWD_COMM) {
		snprintf(name, cap, "COMP_NODE_%s_%s", l->name, comp_phase[ph]);
		n->type = ET_NODE_COMP;
		n->duration_micros = l->time[ph];
	} else {
		/* HYBRID_DATA_MODEL alone names its input-gradient collectives
		 * with "_IG_COMM_" after the layer */
		bool ig_suffix = kind == ASTXT_K_IG_COMM && t->par == ASTXT_HYBRID_DATA_MODEL;
		snprintf(name, cap, "COMM_COLL_NODE_%s%s_%s", l->name, ig_suffix ? "_IG_COMM_" : "",
		         astxt_comm_name(l->comm[ph]));
		n->type = ET_NODE_COLL;
		et_attr_set_int64(a, n, "comm_type", astxt_comm_coll(l->comm[ph]));
		et_attr_set_int64(a, n, "comm_size", l->size[ph]);
	}
	n->name = name;
	return n;
}

/* Packs fields 2-3 of n, then fields 7-10 (the ones after data_deps). */
static void tmpl_put(astxt_plan *p, astxt_tmpl *tm, et_node *n)
{
	tm->off = (uint32_t)p->tbytes.len;
	et_node head = *n;
	head.duration_micros = 0;
	head.n_attr = 0;
	et_node_pack(&head, &p->tbytes);
	tm->pre = (uint32_t)(p->tbytes.len - tm->off);
	et_node tail = *n;
	tail.name = (char *)"";
	tail.type = ET_NODE_INVALID;
	et_node_pack(&tail, &p->tbytes);
	tm->suf = (uint32_t)(p->tbytes.len - tm->off - tm->pre);
}

void astxt_tmpl_build(astxt_plan *p, const astxt *t)
{
	size_t nt = (size_t)t->nlayers * ASTXT_KINDS;
	p->tmpl = et_xcalloc(nt ? nt : 1, sizeof *p->tmpl);
	et_arena *a = et_arena_new();
	for (uint32_t i = 0; i < t->nlayers; i++)
		for (int k = 0; k < ASTXT_KINDS; k++) {
			tmpl_put(p, &p->tmpl[i * ASTXT_KINDS + (uint32_t)k], tmpl_node(a, t, i, k));
			et_arena_reset(a);
		}
	et_arena_free(a);
}

void astxt_plan_build(astxt_plan *p, const astxt *t, uint32_t passes)
{
	memset(p, 0, sizeof *p);
	astxt_wire(p, t, passes);
	astxt_tmpl_build(p, t);
}

void astxt_plan_free(astxt_plan *p)
{
	free(p->node);
	free(p->tmpl);
	et_buf_free(&p->tbytes);
	memset(p, 0, sizeof *p);
}

uint64_t astxt_plan_nodes(const astxt_plan *p)
{
	return (uint64_t)p->per_pass * p->passes;
}

static size_t vlen(uint64_t v)
{
	size_t n = 1;
	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

/* Node k of the rank: stored, or the second pass's moved by `shift`. */
static const astxt_pnode *node_at(const astxt_plan *p, uint64_t k, uint64_t *shift)
{
	uint64_t q = k / p->per_pass, j = k % p->per_pass;
	*shift = q == 0 ? 0 : (q - 1) * p->per_pass;
	return &p->node[q == 0 ? j : p->per_pass + j];
}

typedef struct enc {
	uint64_t id;
	uint64_t deps[ASTXT_MAX_DEPS];
	uint32_t ndeps;
	size_t dlen; /* bytes of the packed deps */
	size_t body; /* bytes of the message */
} enc;

static const astxt_tmpl *enc_node(const astxt_plan *p, uint64_t base, uint64_t k, enc *x)
{
	uint64_t shift;
	const astxt_pnode *nd = node_at(p, k, &shift);
	const astxt_tmpl *tm = &p->tmpl[nd->tmpl];
	x->id = base + k;
	x->ndeps = nd->ndeps;
	x->dlen = 0;
	for (uint32_t d = 0; d < nd->ndeps; d++) {
		x->deps[d] = base + shift + nd->dep[d];
		x->dlen += vlen(x->deps[d]);
	}
	/* proto3: an id of 0 and an empty dependency list are not written */
	x->body = (x->id ? 1 + vlen(x->id) : 0) + tm->pre + tm->suf +
	          (x->ndeps ? 1 + vlen(x->dlen) + x->dlen : 0);
	return tm;
}

uint64_t astxt_plan_bytes(const astxt_plan *p, uint64_t base)
{
	uint64_t total = 0, n = astxt_plan_nodes(p);
	enc x;
	for (uint64_t k = 0; k < n; k++) {
		enc_node(p, base, k, &x);
		total += vlen(x.body) + x.body;
	}
	return total;
}

void astxt_plan_put(const astxt_plan *p, uint64_t base, uint64_t from, uint64_t to, et_buf *out)
{
	enc x;
	for (uint64_t k = from; k < to; k++) {
		const astxt_tmpl *tm = enc_node(p, base, k, &x);
		const uint8_t *tb = p->tbytes.data + tm->off;
		et_buf_reserve(out, 10 + x.body);
		uint8_t *o = out->data + out->len;
		o += et_varint_put(o, x.body);
		if (x.id) {
			*o++ = 0x08; /* field 1, varint */
			o += et_varint_put(o, x.id);
		}
		memcpy(o, tb, tm->pre);
		o += tm->pre;
		if (x.ndeps) {
			*o++ = 0x2A; /* field 5, length-delimited (packed) */
			o += et_varint_put(o, x.dlen);
			for (uint32_t d = 0; d < x.ndeps; d++)
				o += et_varint_put(o, x.deps[d]);
		}
		memcpy(o, tb + tm->pre, tm->suf);
		o += tm->suf;
		out->len = (size_t)(o - out->data);
	}
}
