/* A stage's graph serialized once (et_tpl.h), and each of its ranks
 * written from it: ranks of one stage differ only in the pg_name of their
 * collectives and the peers of their sends and receives. */
#ifndef ET_STAGE_TPL_H
#define ET_STAGE_TPL_H

#include "et-stage/sg.h"
#include "et_buf.h"
#include "et_tpl.h"
#include "et_writer.h"

typedef struct stage_tpl {
	et_tpl t;
	int stage;
	et_buf meta; /* the GlobalMetadata of every rank */
} stage_tpl;

/* Serializes g's nodes, ids from first_id. */
void tpl_build(stage_tpl *t, const sg *g, uint64_t first_id);
void tpl_free(stage_tpl *t);
/* Writes rank r (of stage t->stage) through w, between rank_begin (with
 * its GlobalMetadata) and rank_end. */
int tpl_write_rank(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                   const et_rank_info *ri, et_error *e);

/* The same rank as a class rank (etkit-stream(5), CLASS FRAMES): class
 * t->stage, its frame first when define; 1, or 0 when the output takes no
 * classes (nothing written), or -1. */
int tpl_write_rank_class(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                         const et_rank_info *ri, bool define, et_error *e);

#endif
