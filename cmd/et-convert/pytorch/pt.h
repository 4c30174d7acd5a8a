/* PyTorch host execution trace (+ Kineto) -> Chakra ET.
 *
 * pt_parse.c reads a host trace into a pt_trace (compact node records and one
 * string pool), one node object at a time; pt_kineto.c links a Kineto trace
 * into it; pt_compat.c emits what chakra_converter 1.0.0 emits, byte for
 * byte; pt_fix.c emits the corrected conversion (the default). Both emit
 * through pt_emit.c into et-convert's et_writer. */
#ifndef ET_CONVERT_PYTORCH_PT_H
#define ET_CONVERT_PYTORCH_PT_H

#include "et_buf.h"
#include "et_err.h"
#include "et_writer.h"
#include <stdbool.h>
#include <stdint.h>

#define PT_NONE UINT32_MAX
#define PT_NO_ID INT64_MIN

enum pt_attr_ix { PT_RF_ID, PT_FW_PARENT, PT_SEQ_ID, PT_SCOPE, PT_TID, PT_FW_TID, PT_NATTR };
enum pt_io_ix {
	PT_IN_VALUES,
	PT_IN_SHAPES,
	PT_IN_TYPES,
	PT_OUT_VALUES,
	PT_OUT_SHAPES,
	PT_OUT_TYPES
};
enum pt_stream_state { PT_STREAM_ABSENT, PT_STREAM_NULL, PT_STREAM_SET };

enum pt_flags {
	PT_HAS_EXCL = 1,
	PT_HAS_TS = 2,
	PT_HAS_INCL = 4,
	PT_HAS_IO = 8, /* inputs/outputs present (strings in io[]) */
};

typedef struct pt_node {
	int64_t id;
	int64_t parent; /* ctrl_deps (chakra layout) or parent (1.0.1); PT_NO_ID */
	int64_t attr[PT_NATTR];
	int64_t stream;
	int64_t inter_thread_dep; /* 0 = none */
	int64_t comm_bytes;       /* sum of Tensor inputs' num_elem*elem_bytes, -1 = n/a */
	int64_t msg_bytes;        /* record_param_comms in_msg_nelems * dtype size, -1 */
	int64_t arg_bytes[2];     /* bytes of the first two Tensor-typed inputs, -1 */
	int64_t int_args[2];      /* the first two Int-typed input values (peer, tag) */
	uint8_t n_int_args;
	double excl_dur, incl_dur, ts;
	uint32_t name, op_schema, cat, pg_name, coll_name; /* pool offsets or PT_NONE */
	uint32_t io[6];                                    /* Python str() of IOInfo parts */
	uint32_t pos;                                      /* index in the input array */
	uint8_t attr_set;                                  /* bit per pt_attr_ix present */
	uint8_t stream_state;
	uint8_t flags;
} pt_node;

typedef struct pt_trace {
	const char *input; /* display name */
	char *schema, *time;
	uint64_t pid, start_ts, finish_ts;
	bool has_pid, has_start, has_finish;
	bool legacy; /* 1.0.1 layout (parent, flat fields) */
	pt_node *nodes;
	uint32_t n;
	size_t cap;
	et_buf pool; /* NUL-terminated strings */
	/* id -> node index (open addressing); the id is kept beside the index
	 * so that a probe touches one cache line, not also the node array */
	struct pt_slot {
		int64_t id;
		uint32_t ix1; /* index + 1; 0 = empty */
	} * slot;
	uint32_t nslot;
} pt_trace;

typedef struct pt_opts {
	bool compat;    /* --compat chakra */
	bool for_astra; /* --for astra-sim */
	bool force_schema;
	bool allow_unlinked;
	int verbose;
	bool quiet;                  /* -q: not even the host-only note */
	const char *comm_groups_out; /* --write-comm-groups FILE */
} pt_opts;

/* The schemas this reader knows; NULL-terminated. */
extern const char *const pt_schemas[];

static inline const char *pt_str(const pt_trace *t, uint32_t off)
{
	return off == PT_NONE ? NULL : (const char *)t->pool.data + off;
}
uint32_t pt_intern(pt_trace *t, const char *s, size_t n);

/* Read a host trace (JSON, possibly gzip/zstd) into t. */
int pt_parse(pt_trace *t, const char *path, const pt_opts *o, et_error *e);
void pt_trace_free(pt_trace *t);
/* Index of the node with this id, or -1. */
int64_t pt_find(const pt_trace *t, int64_t id);
void pt_index(pt_trace *t);

/* Link a Kineto trace: durations, timestamps, GPU ops. Returns -1 on error
 * (including a pair that is not from the same run, unless allowed). */
int pt_link_kineto(pt_trace *t, const char *path, const pt_opts *o, et_error *e);

/* Emit the converted rank into the writer. */
int pt_emit_compat(pt_trace *t, et_writer *out, const et_rank_info *ri, et_error *e);
int pt_emit_fixed(pt_trace *t, et_writer *out, const et_rank_info *ri, const pt_opts *o,
                  et_error *e);

/* GlobalMetadata of a converted trace, encoded (without length prefix). */
void pt_meta_bytes(const pt_trace *t, et_buf *out);

#endif
