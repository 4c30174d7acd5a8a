/* et_tpl: write ranks from one serialized rank (et_tpl.h). */
#include "et_tpl.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_mem.h"
#include "et_stream.h"

#include <stdlib.h>
#include <string.h>

void et_tpl_init(et_tpl *t)
{
	memset(t, 0, sizeof *t);
}

void et_tpl_free(et_tpl *t)
{
	et_buf_free(&t->bytes);
	et_buf_free(&t->rank);
	et_buf_free(&t->lit);
	free(t->p);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

static et_tpl_piece *piece_new(et_tpl *t, uint32_t slot)
{
	ET_GROW(t->p, t->cap, (size_t)t->np + 1);
	et_tpl_piece *p = &t->p[t->np++];
	*p = (et_tpl_piece){.off = t->bytes.len, .slot = slot};
	return p;
}

void et_tpl_add(et_tpl *t, const et_node *n, uint32_t slot)
{
	et_tpl_piece *last = t->np ? &t->p[t->np - 1] : NULL;
	t->nodes++;
	if (slot == ET_TPL_FIXED) {
		et_tpl_piece *run = last && last->slot == ET_TPL_FIXED ? last : piece_new(t, slot);
		et_node_encode(n, &t->bytes);
		run->len = t->bytes.len - run->off;
		run->nodes++;
		return;
	}
	et_tpl_piece *p = piece_new(t, slot);
	et_node_pack(n, &t->bytes);
	p->len = t->bytes.len - p->off;
	p->nodes = 1;
}

/* One rank being written: its bytes (t->rank), or in delta mode its
 * operations (t->rank) and the literal bytes not yet put in them (t->lit). */
typedef struct tpl_out {
	et_tpl *t;
	et_writer *w;
	bool delta;
	uint64_t len, msgs, nodes; /* of what is buffered */
} tpl_out;

static void out_lit(tpl_out *o, const void *p, size_t n)
{
	et_buf_append(o->delta ? &o->t->lit : &o->t->rank, p, n);
	o->len += n;
}

static void put_lit(tpl_out *o)
{
	if (o->t->lit.len)
		et_stream_delta_add(&o->t->rank, o->t->lit.data, o->t->lit.len);
	o->t->lit.len = 0;
}

static void out_copy(tpl_out *o, size_t off, size_t n)
{
	if (o->delta) {
		put_lit(o);
		et_stream_delta_copy(&o->t->rank, off, n);
	} else {
		et_buf_append(&o->t->rank, o->t->bytes.data + off, n);
	}
	o->len += n;
}

/* What is buffered, handed to the writer (whole messages). */
static int out_flush(tpl_out *o, et_error *e)
{
	et_tpl *t = o->t;
	int r = 0;
	if (o->delta) {
		put_lit(o);
		if (t->rank.len)
			r = et_writer_delta(o->w, t->base_id, &t->rank, o->len, o->msgs, o->nodes,
			                    e);
	} else if (t->rank.len) {
		r = et_writer_raw(o->w, t->rank.data, t->rank.len, o->nodes, e);
	}
	t->rank.len = 0;
	o->len = o->msgs = o->nodes = 0;
	return r;
}

/* The first write of a template is in full; at the second, if the caller
 * allows deltas, the writer is offered the template as a base. */
static int offer_base(et_tpl *t, et_writer *w, et_error *e)
{
	if (t->written++ != 1 || t->base != 0 || !t->deltas)
		return 0;
	int r = et_writer_base(w, t->bytes.data, t->bytes.len, &t->base_id, e);
	if (r < 0)
		return -1;
	t->base = r ? 1 : -1;
	return 0;
}

int et_tpl_write(et_tpl *t, et_writer *w, const et_rank_info *ri, const et_buf *meta,
                 et_tpl_var_fn var, void *ctx, et_error *e)
{
	if (offer_base(t, w, e) < 0)
		return -1;
	tpl_out o = {.t = t, .w = w, .delta = t->base == 1};
	if ((o.delta ? et_writer_rank_begin_delta : et_writer_rank_begin)(w, ri, e) < 0)
		return -1;
	t->rank.len = t->lit.len = 0;
	if (o.delta) {
		uint8_t pre[10];
		out_lit(&o, pre, (size_t)et_varint_put(pre, meta->len));
		out_lit(&o, meta->data, meta->len);
		o.msgs = 1;
	} else {
		et_msg msg = {meta->data, meta->len, 0, 0};
		if (et_writer_msg(w, &msg, e) < 0)
			return -1;
	}
	int rc = 0;
	for (size_t i = 0; i < t->np && rc == 0; i++) {
		const et_tpl_piece *p = &t->p[i];
		o.nodes += p->nodes;
		o.msgs += p->nodes;
		if (p->slot == ET_TPL_FIXED) {
			out_copy(&o, p->off, p->len);
		} else {
			const et_buf *v = var(ctx, p->slot);
			size_t vn = v ? v->len : 0;
			uint8_t pre[10];
			out_lit(&o, pre, (size_t)et_varint_put(pre, p->len + vn));
			out_copy(&o, p->off, p->len);
			if (vn)
				out_lit(&o, v->data, vn);
		}
		/* a big rank goes out in pieces: the buffers stay small */
		if (t->rank.len + t->lit.len >= ((size_t)4 << 20))
			rc = out_flush(&o, e);
	}
	if (rc == 0)
		rc = out_flush(&o, e);
	return rc == 0 ? et_writer_rank_end(w, e) : -1;
}

static void put_varint(et_buf *b, uint64_t v)
{
	uint8_t x[10];
	et_buf_append(b, x, (size_t)et_varint_put(x, v));
}

/* The class payload: the GlobalMetadata, the piece table (0 = a run of
 * framed nodes, slot + 1 = one node's unframed bytes) and the bytes. */
static void class_payload(const et_tpl *t, const et_buf *meta, et_buf *out)
{
	out->len = 0;
	put_varint(out, meta->len);
	et_buf_append(out, meta->data, meta->len);
	put_varint(out, t->np);
	for (size_t i = 0; i < t->np; i++) {
		put_varint(out, t->p[i].slot == ET_TPL_FIXED ? 0 : (uint64_t)t->p[i].slot + 1);
		put_varint(out, t->p[i].len);
	}
	et_buf_append(out, t->bytes.data, t->bytes.len);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void find_slots(et_tpl *t)
{
	t->nslots = 0;
	for (size_t i = 0; i < t->np; i++)
		if (t->p[i].slot != ET_TPL_FIXED) {
			ET_GROW(t->slots, t->slots_cap, t->nslots + 1);
			t->slots[t->nslots++] = t->p[i].slot;
		}
	if (t->nslots)
		qsort(t->slots, t->nslots, sizeof *t->slots, cmp_u32);
	size_t k = 0;
	for (size_t i = 0; i < t->nslots; i++)
		if (!k || t->slots[k - 1] != t->slots[i])
			t->slots[k++] = t->slots[i];
	t->nslots = k;
	t->slots_known = true;
}

/* The rank's rule: its value of every slot, ascending. */
static void rule_of(et_tpl *t, et_tpl_var_fn var, void *ctx, et_buf *out)
{
	if (!t->slots_known)
		find_slots(t);
	out->len = 0;
	put_varint(out, t->nslots);
	for (size_t i = 0; i < t->nslots; i++) {
		const et_buf *v = var(ctx, t->slots[i]);
		put_varint(out, t->slots[i]);
		put_varint(out, v ? v->len : 0);
		if (v && v->len)
			et_buf_append(out, v->data, v->len);
	}
}

int et_tpl_write_class(et_tpl *t, et_writer *w, const et_rank_info *ri, uint32_t id, bool define,
                       const et_buf *meta, et_tpl_var_fn var, void *ctx, et_error *e)
{
	if (define) {
		class_payload(t, meta, &t->rank);
		int r = et_writer_class(w, id, t->rank.data, t->rank.len, e);
		if (r <= 0)
			return r;
	}
	rule_of(t, var, ctx, &t->lit);
	return et_writer_rank_class(w, ri, id, &t->lit, t->nodes, e) < 0 ? -1 : 1;
}

/* A node holding one attribute, packed: exactly the Node field bytes of
 * the attribute. */
static void pack_one(et_buf *out, et_arena *a, et_node *x)
{
	out->len = 0;
	et_node_pack(x, out);
	et_arena_free(a);
}

void et_tpl_attr_str(et_buf *out, const char *name, const char *value)
{
	et_arena *a = et_arena_new();
	et_node *x = et_node_new(a);
	et_attr_set_str(a, x, name, value);
	pack_one(out, a, x);
}

void et_tpl_attr_int32(et_buf *out, const char *name, int32_t value)
{
	et_arena *a = et_arena_new();
	et_node *x = et_node_new(a);
	et_attr_set_int32(a, x, name, value);
	pack_one(out, a, x);
}
