/* Building Chakra nodes from pt_node records and writing them to the writer. */
#ifndef ET_CONVERT_PYTORCH_PT_EMIT_H
#define ET_CONVERT_PYTORCH_PT_EMIT_H

#include "et-convert/pytorch/pt.h"
#include "et_arena.h"
#include "et_codec.h"

typedef struct pt_out {
	et_writer *out;
	et_arena *arena;
	et_buf bytes;
	uint64_t index;
} pt_out;

int pt_out_begin(pt_out *w, et_writer *out, const pt_trace *t, const et_rank_info *ri, et_error *e);
/* A node in arena memory with id, name, type, IOInfo and the reference's
 * attribute prefix (rf_id ... op_schema, is_cpu_op, stream). */
et_node *pt_out_node(pt_out *w, const pt_trace *t, const pt_node *n, int type, bool cpu);
int pt_out_write(pt_out *w, et_node *n, et_error *e);
int pt_out_end(pt_out *w, et_error *e);

/* Reference comm_type from a GPU op name, or -1 if it has none. */
int pt_ref_comm_type(const char *name);

#endif
