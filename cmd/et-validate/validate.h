/* et-validate: types shared by the checks, the cross-rank summaries and the
 * report. One rank's et_graph is alive at a time; what outlives it is the
 * findings (first N per code), the process groups, the per-rank comm
 * summaries (summary.h) and the per-rank statistics. */
#ifndef ET_VALIDATE_VALIDATE_H
#define ET_VALIDATE_VALIDATE_H

#include "et_dims.h"
#include "et_graph.h"
#include "et_input.h"
#include "et_jsonw.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum sev { SEV_INFO = 0, SEV_WARNING = 1, SEV_ERROR = 2 } sev;

/* Check codes, in report order within a severity. Stable: scripts match
 * them; the man page documents each. */
typedef enum code {
	C_META_MISSING,
	C_DUP_ID,
	C_DANGLING_DATA_DEP,
	C_DANGLING_CTRL_DEP,
	C_SELF_DEP,
	C_CYCLE,
	C_NO_ROOT,
	C_INVALID_NODE,
	C_METADATA_NODE,
	C_ATTR_MEMBER,
	C_ATTR_UNREADABLE,
	C_ATTR_NEGATIVE,
	C_COLL_MISSING_ATTR,
	C_COLL_BAD_TYPE,
	C_COLL_BAD_SIZE,
	C_COLL_UNSUPPORTED,
	C_P2P_MISSING_ATTR,
	C_P2P_NOT_SELF,
	C_COMM_CPU_OP,
	C_COMP_NO_WORK,
	C_PG_UNDEFINED,
	C_PG_CONFLICT,
	C_PG_NOT_INTEGER,
	C_COLL_NOT_MEMBER,
	C_COLL_MISMATCH,
	C_COLL_UNORDERED,
	C_DIMS_MISSING,
	C_P2P_UNMATCHED,
	C_DEADLOCK,
	C_BLOCKED_NODE,
	C_FORWARD_DATA_DEP,
	C_FORWARD_CTRL_DEP,
	C_CPU_OP_MISSING,
	C_PARTIAL_INPUT,
	C_COUNT
} code;

typedef struct code_info {
	const char *name;
	sev def;   /* default profile */
	sev astra; /* --for astra-sim */
	const char *what;
} code_info;

extern const code_info code_table[C_COUNT];

/* One reported instance. rank < 0: not about one rank. */
typedef struct finding {
	int64_t rank;
	uint64_t node_id;
	bool has_node;
	char *name;  /* node name, or NULL */
	char *msg;   /* one line, no trailing newline */
	char *extra; /* JSON object of extra members (find_x_close), or NULL */
} finding;

typedef struct findings {
	uint64_t count[C_COUNT]; /* instances */
	uint64_t nodes[C_COUNT]; /* distinct (rank, node) among them */
	int64_t last_rank[C_COUNT];
	uint32_t last_node[C_COUNT];
	finding *list[C_COUNT]; /* the first max_per_code instances */
	size_t n[C_COUNT], cap[C_COUNT];
	size_t max_per_code; /* SIZE_MAX = all */
	bool astra;
} findings;

void find_init(findings *fs, size_t max_per_code, bool astra);
void find_free(findings *fs);
sev find_sev(const findings *fs, code c);
/* Count an instance; node_key (a node index, or ET_GRAPH_NONE) tells
 * instances of one node apart. Returns the finding to fill in, or NULL when
 * the first N are already stored (so callers format only what is kept). */
finding *find_add(findings *fs, code c, int64_t rank, uint32_t node_key);
void find_set(finding *f, bool has_node, uint64_t node_id, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* A finding's extra members for the JSON report: find_x_open returns a
 * writer (json.dumps layout, controls as \u00XX) with their object open;
 * the caller writes the members; find_x_close stores them in f (replacing
 * any), or drops them when f is NULL. */
typedef struct find_x {
	et_jsonw w;
	et_buf b;
} find_x;
et_jsonw *find_x_open(find_x *x);
void find_x_close(find_x *x, finding *f);
/* The common one: {"group": name}. */
void find_x_group(finding *f, const char *group);
uint64_t find_total(const findings *fs, sev s);

/* Shorthand for a finding about node i of graph g. */
finding *find_node(findings *fs, code c, int64_t rank, const et_graph *g, uint32_t i,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

typedef struct groups groups;
typedef struct xsum xsum;
typedef struct stats stats;

typedef struct vopts {
	bool astra, strict, want_stats, json, timing;
	int threads; /* -T: 0 = read on the checking thread, 1 = a reading thread */
	size_t max_per_code;
	const char *comm_groups;
	uint32_t npus[ET_DIMS_MAX]; /* --npus-count: the network's dimensions */
	int n_npus;                 /* 0: one dimension of every rank */
	const char *network;        /* --network FILE, or NULL */
	bool dims_given;            /* by --npus-count or --network */
	const char *npus_src;       /* the file npus came from, or NULL */
	int tee_mode;               /* 0 none, 1 --tee, 2 --tee-always */
	int progress;               /* et_cli's: -1 quiet, 0 auto, 1 forced */
} vopts;

/* The state of one run. */
typedef struct vctx {
	vopts o;
	findings fs;
	groups *grp;
	xsum *xs;
	stats *st;
	/* the rank being read */
	et_rank_info ri;
	et_graph *g;
	uint32_t *rank_groups; /* group ids this rank's own nodes define */
	size_t n_rank_groups, cap_rank_groups;
	uint32_t pg_off, pg_gid; /* last pg_name offset looked up, its group */
	uint64_t n_ranks, n_nodes;
	uint32_t max_world;
	et_dims dims; /* --npus-count's, once set (dims_set) */
	bool dims_set;
	bool dims_missing_told; /* DIMS_MISSING reported (once a run) */
	/* check_coll_order's buffers, kept from rank to rank */
	uint32_t *ord_max;
	size_t ord_max_cap;
	struct ord_coll *ord_colls;
	size_t ord_colls_cap;
	bool groups_loaded; /* --comm-groups read (vctx_load_groups) */
	/* the comm groups the stream carries, checked rank by rank */
	struct et_sgroups_acc *sgroups;
	/* class streams: the classes whose later ranks are checked from
	 * their rules (classes.h), NULL when every rank is decoded (--tee,
	 * --stats); how many ranks were; the findings before the rank */
	struct vclasses *cls;
	uint32_t rule_ranks;
	uint32_t dl_classes; /* the deadlock check ran over this many rank
	                      * classes (quotient.h), 0: rank by rank */
	uint64_t find_mark;
	/* --timing: reading + decoding (see reader_stop), then the checking
	 * thread's CPU time: adding + per-node checks, per-rank graph checks
	 * (with --stats, the rank's statistics), the ranks' comm summaries for
	 * the cross-rank checks, the cross-rank checks */
	uint64_t t_decode_ns, t_add_ns, t_check_ns, t_sum_ns, t_cross_ns;
	bool read_thread; /* a second thread did the reading */
} vctx;

/* ctx.c: a run's state for options o, and its release. */
void vctx_init(vctx *v, const vopts *o);
void vctx_free(vctx *v);
/* Reads --comm-groups, once: when the first rank begins, so that in a
 * pipeline the file may be written by the command upstream before its
 * first rank (et-stage --write-comm-groups), or after an input without
 * ranks. 0, or -1 with e set. */
int vctx_load_groups(vctx *v, et_error *e);

/* checks_node.c: while decoding; n is the node just added as index i. */
void check_node(vctx *v, const et_node *n, uint32_t i);
/* checks_comm.c: node i just added, from what the graph holds of it. */
void check_node_comm(vctx *v, uint32_t i);
/* checks_rank.c / checks_comm.c: on the finished graph of v->g. */
void check_rank_graph(vctx *v);
void check_rank_comm(vctx *v);
/* checks_order.c: on the finished graph, every communicator's collectives
 * must form one chain of dependencies (COLL_UNORDERED). */
void check_coll_order(vctx *v);
/* A collective's communicator for the cross-rank checks (summary.c):
 * its pg_name's group, the group of the ranks that run it together on
 * some dimensions (involved_dim), or GID_NONE (summary.h) when nobody
 * waits for it. */
uint32_t coll_gid(vctx *v, uint32_t i);
/* Group id of node i's pg_name (cached by pool offset: pg_names are
 * interned per graph). */
uint32_t node_gid(vctx *v, uint32_t i);

/* Helpers (util.c). */
const char *coll_name(int64_t t); /* "ALL_REDUCE", or "comm_type 42" style */
/* "0-2,4,7" into buf. */
void fmt_ranks(char *buf, size_t cap, const uint32_t *r, size_t n);
/* JSON string body escaping into a malloc'ed string with quotes. */

#endif
