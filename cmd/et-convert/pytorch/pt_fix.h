/* The parts of the corrected conversion: collective names, dependencies,
 * output. pt_fix.c decides node types; pt_fix_deps.c the graph;
 * pt_fix_write.c the nodes and the comm-group file. */
#ifndef ET_CONVERT_PYTORCH_PT_FIX_H
#define ET_CONVERT_PYTORCH_PT_FIX_H

#include "et-convert/pytorch/pt.h"
#include "et-convert/pytorch/pt_tree.h"
#include "et_types.h"

/* Collective kinds: the ET_COLL_* values, plus send and recv (beyond every
 * CollectiveCommType). */
enum { PT_COLL_NONE = -1, PT_COLL_SEND = 100, PT_COLL_RECV = 101 };

/* Kind of a collective from an op name without its namespace
 * ("allreduce_", "_allgather_base_", "all_to_all", "recv_any_source_"). */
int pt_coll_kind(const char *name);
/* Which Tensor argument of a c10d op is its per-rank input (0 or 1). */
int pt_coll_input_arg(const char *name);

typedef struct pt_fix_ctx {
	pt_trace *t;
	pt_tree *tr;
	bool *in_map, *cpu;
	uint8_t *type; /* ET_NODE_* */
	int8_t *ctype; /* ET_COLL_* of COMM_COLL nodes */
	int64_t *size, *pg;
	pt_deps *deps;
	const pt_opts *o;
	const et_rank_info *ri;
} pt_fix_ctx;

/* Data dependencies (the reference walk plus stream order), dangling-node
 * removal, ctrl_deps to the nearest kept ancestor, --for astra-sim elision,
 * and the graph check. Sets in_map to the nodes that are written. */
int pt_fix_deps(pt_fix_ctx *c, et_error *e);
int pt_fix_write(pt_fix_ctx *c, et_writer *out, et_error *e);

#endif
