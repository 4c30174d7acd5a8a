/* A stage's graph serialized once, and each of its ranks written from it.
 *
 * Ranks of one stage differ only in the pg_name of their collectives and
 * the peers of their sends and receives, so the template holds every
 * node's encoding with those fields left out, and writing a rank appends
 * them (as the node's last attribute: protobuf concatenation) and re-frames
 * only the nodes that carry one. */
#ifndef ET_STAGE_TPL_H
#define ET_STAGE_TPL_H

#include "et-stage/sg.h"
#include "et_buf.h"
#include "et_writer.h"

typedef struct tpl_piece {
	size_t off, len;    /* in bytes: framed nodes, or one node's unframed fixed part */
	uint32_t nodes;     /* VAR_NONE: how many nodes the run holds */
	uint8_t var, dim;   /* VAR_NONE: a run of framed nodes */
	int32_t peer_stage; /* VAR_DST, VAR_SRC */
} tpl_piece;

typedef struct stage_tpl {
	et_buf bytes;
	tpl_piece *p;
	size_t np, cap;
	uint64_t nodes;
	int stage;
	et_buf rank; /* one rank's bytes (up to 4 MiB at a time), reused */
	et_buf meta; /* the GlobalMetadata of every rank */
} stage_tpl;

/* Serializes g's nodes, ids from first_id. */
void tpl_build(stage_tpl *t, const sg *g, uint64_t first_id);
void tpl_free(stage_tpl *t);
/* Writes rank r (of stage t->stage) through w, between rank_begin (with
 * its GlobalMetadata) and rank_end. */
int tpl_write_rank(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                   const et_rank_info *ri, et_error *e);

#endif
