/* et_crule: see et_crule.h. The class payload is et_tpl's (et_tpl.c,
 * class_payload): the GlobalMetadata, the piece table (0 = a run of framed
 * nodes, slot + 1 = one node's unframed bytes), then the pieces' bytes. */
#include "et_crule.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_codec.h"
#include "et_mem.h"
#include "et_stream.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

/* Node.attr is field 10, length-delimited: a slot's value is that one
 * field, nothing else (another field would change the node's shape). */
#define ATTR_TAG ((10u << 3) | 2u)

/* Nodes framed back to back in p[0..len): their count, or -1. */
static int64_t count_framed(const uint8_t *p, size_t len)
{
	et_cursor r = {p, len, 0};
	int64_t k = 0;
	while (r.pos < r.n) {
		uint64_t l;
		if (!et_cursor_varint(&r, &l) || l > r.n - r.pos)
			return -1;
		r.pos += (size_t)l;
		k++;
	}
	return k;
}

static bool has_own_attr(const et_node *n)
{
	return et_attr_find(n, "pg_name") || et_attr_find(n, "comm_src") ||
	       et_attr_find(n, "comm_dst");
}

/* The kind a slot on node n takes, or NONE when a slot there is not simple. */
static et_crule_kind kind_of(const et_node *n)
{
	if (has_own_attr(n))
		return ET_CRULE_NONE;
	switch (n->type) {
	case ET_NODE_COLL:
		return ET_CRULE_PG;
	case ET_NODE_RECV:
		return ET_CRULE_SRC;
	case ET_NODE_SEND:
		return ET_CRULE_DST;
	default:
		return ET_CRULE_NONE;
	}
}

/* Slot piece: one node. Records it and its slot's kind; false when not simple. */
static bool add_slot_node(et_crule_class *c, et_arena *a, const uint8_t *p, size_t len,
                          uint32_t slot)
{
	et_node *n = et_node_decode(a, p, len);
	et_crule_kind k = n ? kind_of(n) : ET_CRULE_NONE;
	if (k == ET_CRULE_NONE || c->n_nodes >= UINT32_MAX)
		return false;
	if (slot >= c->n_slots) {
		ET_GROW(c->kind, c->kind_cap, (size_t)slot + 1);
		memset(c->kind + c->n_slots, ET_CRULE_NONE, slot + 1 - c->n_slots);
		c->n_slots = slot + 1;
	}
	if (c->kind[slot] != ET_CRULE_NONE && c->kind[slot] != k)
		return false; /* one value cannot be a pg name and a peer */
	c->kind[slot] = (uint8_t)k;
	ET_GROW(c->nodes, c->cap, c->n + 1);
	c->nodes[c->n++] = (et_crule_node){(uint32_t)c->n_nodes, slot};
	c->n_nodes++;
	return true;
}

static bool read_pieces(et_crule_class *c, et_cursor *r, et_arena *a)
{
	uint64_t ml, np;
	if (!et_cursor_varint(r, &ml) || ml > r->n - r->pos)
		return false;
	r->pos += (size_t)ml;
	if (!et_cursor_varint(r, &np) || np > r->n - r->pos)
		return false;
	/* the table first, then the bytes it describes */
	et_cursor t = *r;
	for (uint64_t i = 0; i < np; i++) {
		uint64_t kind, len;
		if (!et_cursor_varint(r, &kind) || !et_cursor_varint(r, &len))
			return false;
	}
	size_t off = r->pos;
	for (uint64_t i = 0; i < np; i++) {
		uint64_t kind, len;
		et_cursor_varint(&t, &kind);
		et_cursor_varint(&t, &len);
		if (len > r->n - off || kind > ET_STREAM_CLASS_SLOTS)
			return false;
		if (kind == 0) {
			int64_t k = count_framed(r->p + off, (size_t)len);
			if (k < 0)
				return false;
			c->n_nodes += (uint64_t)k;
		} else if (!add_slot_node(c, a, r->p + off, (size_t)len, (uint32_t)(kind - 1))) {
			return false;
		}
		off += (size_t)len;
	}
	return off == r->n;
}

bool et_crule_class_read(et_crule_class *c, const uint8_t *p, size_t len)
{
	c->simple = false;
	c->n_nodes = 0;
	c->n = 0;
	c->n_slots = 0;
	et_cursor r = {p, len, 0};
	et_arena *a = et_arena_new();
	c->simple = read_pieces(c, &r, a);
	et_arena_free(a);
	return c->simple;
}

void et_crule_class_free(et_crule_class *c)
{
	free(c->nodes);
	free(c->kind);
	memset(c, 0, sizeof *c);
}

void et_crule_class_copy(et_crule_class *dst, const et_crule_class *src)
{
	dst->simple = src->simple;
	dst->n_nodes = src->n_nodes;
	dst->n = 0;
	ET_GROW(dst->nodes, dst->cap, src->n + 1);
	if (src->n) /* src->nodes may be NULL */
		memcpy(dst->nodes, src->nodes, src->n * sizeof *src->nodes);
	dst->n = src->n;
	ET_GROW(dst->kind, dst->kind_cap, (size_t)src->n_slots + 1);
	if (src->n_slots)
		memcpy(dst->kind, src->kind, src->n_slots);
	dst->n_slots = src->n_slots;
}

static int32_t clamp32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* One slot's value: exactly one attr field holding the slot kind's attribute. */
static bool one_val(et_crule_kind k, const uint8_t *p, size_t len, et_arena *a, et_crule_val *v)
{
	et_cursor r = {p, len, 0};
	uint64_t tag, l;
	if (!et_cursor_varint(&r, &tag) || tag != ATTR_TAG || !et_cursor_varint(&r, &l) ||
	    l != r.n - r.pos)
		return false;
	et_node *n = et_node_decode(a, p, len);
	if (!n || n->n_attr != 1 || n->base.n_unknown_fields)
		return false;
	const et_attr *at = n->attr[0];
	const char *want = k == ET_CRULE_PG    ? "pg_name"
	                   : k == ET_CRULE_SRC ? "comm_src"
	                                       : "comm_dst";
	if (!at->name || strcmp(at->name, want) != 0)
		return false;
	v->member = (int)at->value_case;
	if (k == ET_CRULE_PG) {
		if (at->value_case != CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL ||
		    !at->string_val)
			return false;
		v->pg = at->string_val;
		return true;
	}
	if (!et_attr_is_int(at))
		return false;
	v->peer = clamp32(et_attr_as_i64(at));
	return true;
}

bool et_crule_rule_vals(const et_crule_class *c, const uint8_t *r, size_t len, et_arena *a,
                        et_crule_val *v)
{
	if (!c->simple)
		return false;
	et_cursor d = {r, len, 0};
	uint64_t k;
	if (!et_cursor_varint(&d, &k))
		return false;
	for (uint64_t i = 0; i < k; i++) {
		uint64_t slot, l;
		if (!et_cursor_varint(&d, &slot) || !et_cursor_varint(&d, &l) || l > d.n - d.pos)
			return false;
		if (slot < c->n_slots && c->kind[slot] != ET_CRULE_NONE &&
		    !one_val((et_crule_kind)c->kind[slot], d.p + d.pos, (size_t)l, a, &v[slot]))
			return false;
		d.pos += (size_t)l;
	}
	return d.pos == d.n;
}
