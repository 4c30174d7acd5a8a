/* et_tpl: one rank's nodes serialized once, and every rank written from
 * them. Generated traces (et-stage's stages, et-convert's compiler
 * programs) have ranks that differ only in a few attributes: a
 * collective's pg_name, a send's or receive's peer. A template holds every
 * node's encoding; a node that carries such an attribute is held without
 * it, with a slot number, and writing a rank appends the attribute the
 * caller gives for the slot (protobuf concatenation: the attribute becomes
 * the node's last) and frames only those nodes; runs of other nodes are
 * copied as they are.
 *
 * With deltas set, every rank after a template's first is, in a stream, a
 * delta (etkit-stream(5)): the template's bytes go to the stream once as a
 * base, and a rank is copies from it plus its few rank-dependent bytes, so
 * a rank costs those bytes, not a compression of the whole rank. The first
 * rank, and every rank of the other outputs, is written out in full. A
 * delta rank's bytes depend on what the stream held before it: a caller
 * whose shards must concatenate to its whole stream (et-stage --ranks)
 * leaves deltas unset.
 *
 * Memory: the template's bytes, and one rank's output (or delta) buffered
 * up to 4 MiB at a time. Allocation failure ends the process (et_mem.h). */
#ifndef ET_TPL_H
#define ET_TPL_H

#include "et_buf.h"
#include "et_codec.h"
#include "et_writer.h"

#include <stdint.h>

#define ET_TPL_FIXED UINT32_MAX

typedef struct et_tpl_piece {
	size_t off, len; /* framed nodes, or one node's unframed bytes */
	uint32_t nodes;  /* a fixed run: how many nodes it holds */
	uint32_t slot;   /* ET_TPL_FIXED: a run of framed nodes */
} et_tpl_piece;

typedef struct et_tpl {
	et_buf bytes;
	et_tpl_piece *p;
	size_t np, cap;
	uint64_t nodes;
	bool deltas;      /* the caller allows delta ranks (set after et_tpl_init) */
	uint32_t written; /* ranks written */
	int base;         /* 1: the writer holds the bytes as base base_id; -1: it cannot */
	uint32_t base_id;
	et_buf rank, lit; /* one rank's output (or delta operations) and literal bytes, reused */
	uint32_t *slots;  /* the distinct slots the pieces use, ascending (classes) */
	size_t nslots, slots_cap;
	bool slots_known;
} et_tpl;

/* A zeroed et_tpl is empty too. */
void et_tpl_init(et_tpl *t);
void et_tpl_free(et_tpl *t);
/* Appends node n; slot != ET_TPL_FIXED: n lacks a rank-dependent attribute
 * that the writer asks the caller for by this slot. */
void et_tpl_add(et_tpl *t, const et_node *n, uint32_t slot);

/* The encoded attribute of `slot` for the rank being written (a Node field:
 * et_tpl_attr_str / _int32 make one), or NULL for none. The bytes must stay
 * valid until the next call. */
typedef const et_buf *(*et_tpl_var_fn)(void *ctx, uint32_t slot);
/* Writes one rank: rank_begin(ri), the GlobalMetadata `meta` (an encoded
 * message), the nodes with var's attributes, rank_end. */
int et_tpl_write(et_tpl *t, et_writer *w, const et_rank_info *ri, const et_buf *meta,
                 et_tpl_var_fn var, void *ctx, et_error *e);

/* Rank classes (etkit-stream(5), CLASS FRAMES): the template written once
 * as class `id`, and each rank as a rule, the attributes of the slots it
 * uses. A reader expands a class rank into exactly the bytes et_tpl_write
 * writes for it in full. define: write the class frame before the rank
 * (the caller decides where, so that shards concatenate). Returns 1 when
 * the rank was written so, 0 when the output takes no classes (nothing
 * written: the caller writes the rank with et_tpl_write), -1 on error. */
int et_tpl_write_class(et_tpl *t, et_writer *w, const et_rank_info *ri, uint32_t id, bool define,
                       const et_buf *meta, et_tpl_var_fn var, void *ctx, et_error *e);

/* One attribute as a Node field, replacing out's contents. */
void et_tpl_attr_str(et_buf *out, const char *name, const char *value);
void et_tpl_attr_int32(et_buf *out, const char *name, int32_t value);

#endif
