/* et-synth transform: the edits, each in its own file. */
#ifndef ET_SYNTH_XF_XF_H
#define ET_SYNTH_XF_XF_H

#include "et-synth/synth.h"

typedef struct xf_opts {
	double scale_compute; /* 1 = off */
	double scale_comm;
	int8_t ctype_map[10]; /* --set-comm-type: old -> new */
	bool retype;
	bool obfuscate;
	const char *salt;
	bool strip_cpu;
	uint32_t world;   /* --world N, 0 = off */
	int64_t rep_rank; /* -1 = the first rank of the input */
} xf_opts;

/* A rank held in memory: its GlobalMetadata and framed node messages. */
typedef struct xf_rank {
	uint32_t rank, world;
	char name[256];
	et_buf meta;  /* message bytes, no prefix */
	et_buf nodes; /* varint-framed nodes */
	uint64_t n_nodes;
} xf_rank;

/* Scaled fields that saturated (--scale-*): a product that does not fit the
 * field's integer type is kept at the type's largest value, and counted
 * here, so that the run says so once per field (xf_sat_warn). */
enum { XS_COMP_DUR, XS_NUM_OPS, XS_TENSOR_SIZE, XS_COMM_SIZE, XS_COMM_DUR, XS_N };
typedef struct xf_sat {
	uint64_t nodes[XS_N];
	char input[XS_N][256]; /* the input of the first node it saturated in */
	const char *cur;       /* the input being read */
} xf_sat;

/* Per-node edits; true if any applies (else nodes are copied as bytes). */
bool xf_node_active(const xf_opts *x);
void xf_node(const xf_opts *x, xf_sat *sat, et_arena *a, et_node *n);
/* One warning line per field that saturated, with its count of nodes. */
void xf_sat_warn(const xf_opts *x, const xf_sat *sat);
void xf_obfuscate(const xf_opts *x, et_arena *a, et_node *n);
/* Stable, salted hash name: "h" + 16 hex digits. */
void xf_hash_name(const char *salt, const char *s, char out[18]);
/* A process-group definition node (METADATA whose inputs.values parse). */
bool xf_is_pg_def(const et_node *n);

/* Fold is_cpu_op nodes into the dependencies of the rest. */
int xf_strip_cpu(xf_rank *r, et_error *e);

/* --world: check the representative rank, then write N ranks of it. */
int xf_world_check(const xf_opts *x, const xf_rank *rep, uint32_t old_world, et_error *e);
int xf_world_emit(const xf_opts *x, const xf_rank *rep, uint32_t old_world, emitter *em,
                  et_error *e);

/* Process-group definitions (inputs.values of "## process_group:init ##").
 * Calls fn for each group, in order; returns their number, or -1 when values
 * is not a definition list. (The world-size rewrite is
 * et_pg_values_resize_world.) */
typedef struct pg_info {
	const char *name;
	bool whole_world; /* empty ranks list, or every rank of the old world */
	uint32_t n_ranks;
} pg_info;
int xf_pg_scan(const char *values, uint32_t old_world, void (*fn)(void *, const pg_info *),
               void *ctx);

#endif
