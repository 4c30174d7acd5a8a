/* et_tpl: write ranks from one serialized rank (et_tpl.h). */
#include "et_tpl.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void et_tpl_init(et_tpl *t)
{
	memset(t, 0, sizeof *t);
}

void et_tpl_free(et_tpl *t)
{
	for (size_t i = 0; i < t->np; i++)
		et_writer_shared_free(&t->p[i].sh);
	et_buf_free(&t->bytes);
	et_buf_free(&t->rank);
	free(t->p);
	memset(t, 0, sizeof *t);
}

static et_tpl_piece *piece_new(et_tpl *t, uint32_t slot)
{
	if (t->np == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->p = et_xrealloc(t->p, t->cap * sizeof *t->p);
	}
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

/* The rank's bytes so far, handed to the writer (whole messages). */
static int flush(et_tpl *t, et_writer *w, uint64_t *count, et_error *e)
{
	int r = t->rank.len ? et_writer_raw(w, t->rank.data, t->rank.len, *count, e) : 0;
	t->rank.len = 0;
	*count = 0;
	return r;
}

int et_tpl_write(et_tpl *t, et_writer *w, const et_rank_info *ri, const et_buf *meta,
                 et_tpl_var_fn var, void *ctx, et_error *e)
{
	et_msg msg = {meta->data, meta->len, 0, 0};
	if (et_writer_rank_begin(w, ri, e) < 0 || et_writer_msg(w, &msg, e) < 0)
		return -1;
	et_buf *o = &t->rank;
	o->len = 0;
	uint64_t count = 0;
	int rc = 0;
	for (size_t i = 0; i < t->np && rc == 0; i++) {
		const et_tpl_piece *p = &t->p[i];
		const uint8_t *src = t->bytes.data + p->off;
		count += p->nodes;
		if (p->slot == ET_TPL_FIXED && p->len >= ET_TPL_SHARE) {
			et_tpl_piece *q = &t->p[i];
			q->sh.data = src, q->sh.len = p->len, q->sh.nodes = p->nodes;
			count -= p->nodes; /* the writer counts the piece's nodes */
			rc = flush(t, w, &count, e);
			if (rc == 0)
				rc = et_writer_raw_shared(w, &q->sh, e);
			continue;
		}
		if (p->slot == ET_TPL_FIXED) {
			et_buf_append(o, src, p->len);
		} else {
			const et_buf *v = var(ctx, p->slot);
			size_t vn = v ? v->len : 0;
			uint8_t pre[10];
			int np = et_varint_put(pre, p->len + vn);
			et_buf_append(o, pre, (size_t)np);
			et_buf_append(o, src, p->len);
			if (vn)
				et_buf_append(o, v->data, vn);
		}
		/* a big rank goes out in pieces: the buffer stays small */
		if (o->len >= ((size_t)4 << 20))
			rc = flush(t, w, &count, e);
	}
	if (rc == 0)
		rc = flush(t, w, &count, e);
	return rc == 0 ? et_writer_rank_end(w, e) : -1;
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
