/* et_graph: one rank's dependency graph in flat arrays (struct of arrays).
 *
 * Build it with et_graph_add() once per node, in file order, then call
 * et_graph_finish() once; after that the graph is read-only. Nothing is
 * allocated per node or per attribute: every field lives in one array
 * indexed by the node's position (its "index", 0 = first node added), and
 * names live in one string pool, each distinct name once.
 *
 * What callers may rely on after et_graph_finish():
 *  - Index i is the i-th node added (file order); msg_index[i] is the
 *    message index it was given (1 = first node after the GlobalMetadata).
 *  - Well-known attributes are read as ASTRA-sim reads them: any integer
 *    oneof member counts (et_attr_is_int), the first attribute of a name
 *    wins, and a non-integer member counts as absent (its ET_GF_* flag is
 *    clear and the value is 0). pg_name needs a string_val.
 *  - Dependencies are resolved to indices in CSR form, per kind:
 *    deps of i are dep[off[i]] .. dep[off[i+1]-1], in the order written.
 *    A dependency on an id that is not in the graph (dangling) or on the
 *    node itself (self) is NOT in the CSR; it is listed in `dangling` /
 *    `selfs` (in node order) instead. A dependency on a duplicated id
 *    resolves to the first node with that id.
 *  - `out` holds the reverse edges (children, data and ctrl merged).
 *  - `order` is a Kahn topological order over data + ctrl deps (FIFO, so
 *    level by level); nodes in a cycle or behind one are not in it
 *    (n_ordered < n) and lack ET_GF_ORDERED. depth is the number of Kahn
 *    levels (longest path in nodes), max_width the largest level.
 *  - A forward reference is a resolved dependency on a node added later
 *    (index > i); fwd_data / fwd_ctrl count them.
 *  - `dups` lists every node whose id an earlier node already has;
 *    n_roots counts nodes with no resolved dependency; node names and
 *    pg_names are interned (equal strings, equal offsets).
 *  - et_graph_reset() empties the graph for reuse: every index, offset and
 *    pointer into it from before is invalid afterwards.
 *
 *  - Communication attributes (comm_type, comm_size, comm_src, comm_dst,
 *    comm_tag, pg_name) are kept in a record only for the nodes that have
 *    one; et_graph_comm_at() gives every node one to read, all zero (pg_name
 *    "") for the others.
 *
 * Memory: about 83 bytes per node (8 id, 1 type, 2 flags, 4 name offset,
 * 8+8 times, 4 message index, 4 comm record index, 8+8
 * num_ops/tensor_size, 12 CSR offsets, 4 order, 4 scratch,
 * 8 for the id lookup: a hash of >= 2 slots per node, or, when ids are
 * dense (max - min < 4n), a direct table by id - min, at most 16)
 * plus 32 bytes per node with communication attributes,
 * plus the distinct names (and two or more 12-byte intern slots each),
 * plus 12 bytes per dependency (8 for the id as written, which finish
 * turns into the CSR's 4-byte index in place, 4 in the reverse CSR);
 * arrays grow geometrically, so capacity can exceed this by up to 2x.
 * Indices are 32-bit: a graph holds fewer than 2^32 - 4 nodes
 * (et_graph_add fails beyond). */
#ifndef ET_GRAPH_H
#define ET_GRAPH_H

#include "et_codec.h"
#include "et_types.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ET_GRAPH_NONE UINT32_MAX

enum {
	ET_GF_CPU_SET = 1 << 0,   /* is_cpu_op present */
	ET_GF_CPU = 1 << 1,       /* is_cpu_op present and true */
	ET_GF_COMM_TYPE = 1 << 2, /* the attribute of this name is present */
	ET_GF_COMM_SIZE = 1 << 3,
	ET_GF_COMM_SRC = 1 << 4,
	ET_GF_COMM_DST = 1 << 5,
	ET_GF_COMM_TAG = 1 << 6,
	ET_GF_COMM_PRIO = 1 << 7,
	ET_GF_PG_NAME = 1 << 8,
	ET_GF_NUM_OPS = 1 << 9,
	ET_GF_TENSOR_SIZE = 1 << 10,
	ET_GF_DUP_ID = 1 << 11,   /* an earlier node has the same id (finish) */
	ET_GF_SELF_DEP = 1 << 12, /* depends on itself (finish) */
	ET_GF_ORDERED = 1 << 13,  /* in the topological order (finish) */
	ET_GF_DANGLING = 1 << 14, /* has a dependency on a missing id (finish) */
	/* a well-known attribute is not in the oneof member doc/chakra-et.md names
	 * (et_attr_expected_case), whether or not it is readable */
	ET_GF_ATTR_MEMBER = 1 << 15,
};

/* Well-known attribute names, as et_graph_attr_key() classifies them. */
typedef enum et_wk_attr {
	ET_WK_NONE = -1,
	ET_WK_IS_CPU_OP,
	ET_WK_NUM_OPS,
	ET_WK_TENSOR_SIZE,
	ET_WK_COMM_TYPE,
	ET_WK_COMM_SIZE,
	ET_WK_COMM_SRC,
	ET_WK_COMM_DST,
	ET_WK_COMM_TAG,
	ET_WK_COMM_PRIORITY,
	ET_WK_PG_NAME,
	ET_WK_INVOLVED_DIM,
	ET_WK_COUNT
} et_wk_attr;

typedef enum et_dep_kind { ET_DEP_DATA = 0, ET_DEP_CTRL = 1 } et_dep_kind;

typedef struct et_graph_dangling {
	uint64_t missing; /* the id that is not in the graph */
	uint32_t node;    /* index of the node holding the reference */
	uint8_t kind;     /* et_dep_kind */
} et_graph_dangling;

typedef struct et_graph_dup {
	uint32_t node;  /* the later node */
	uint32_t first; /* the first node with the same id */
} et_graph_dup;

typedef struct et_graph_self {
	uint32_t node;
	uint8_t kind;
} et_graph_self;

/* A slot of the name intern table (private to et_graph). */
typedef struct et_graph_islot {
	uint32_t off, len, hash; /* off 0 = empty */
} et_graph_islot;

/* A node's communication attributes (see et_graph_comm_at). Values outside
 * int32 are clamped (and so still out of range). */
typedef struct et_graph_comm {
	int64_t size;
	int32_t type, src, dst, tag;
	uint32_t pg_name; /* offset into names; offset 0 is ""; equal pg_names
	                     share one offset (interned per graph) */
	uint8_t off_dims; /* bit d: involved_dim[d] is false (et_graph_involved) */
} et_graph_comm;

typedef struct et_graph {
	uint32_t n, cap;
	/* per node, filled by et_graph_add */
	uint64_t *id;
	uint8_t *type; /* NodeType; values outside 0..254 are stored as 255 */
	uint16_t *flags;
	uint32_t *name; /* offset into names */
	uint64_t *duration_micros, *start_time_micros;
	uint32_t *msg_index;
	uint32_t *comm; /* index into comms; 0 = none (comms[0] is all zero) */
	et_graph_comm *comms;
	uint32_t n_comms;
	size_t comms_cap;
	int64_t *num_ops;
	uint64_t *tensor_size;
	char *names;
	size_t names_len, names_cap;

	/* resolved by et_graph_finish */
	uint32_t *data_off, *data_dep; /* CSR, n + 1 offsets */
	uint32_t *ctrl_off, *ctrl_dep;
	uint32_t *out_off, *out; /* children, data + ctrl */
	et_graph_dangling *dangling;
	size_t n_dangling, n_dangling_data, n_dangling_ctrl, cap_dangling;
	et_graph_dup *dups;
	size_t n_dups, cap_dups;
	et_graph_self *selfs;
	size_t n_selfs, cap_selfs;
	uint64_t n_data_deps, n_ctrl_deps; /* as written, all kinds of target */
	uint64_t fwd_data, fwd_ctrl;
	uint32_t *order, n_ordered;
	uint32_t n_roots; /* nodes with no resolved dependency */
	uint32_t depth, max_width;
	bool finished;

	/* private */
	uint32_t *hash; /* node index + 1, 0 = empty: open addressing, or a
	                   direct table by id - id_min when ids are dense */
	uint32_t hash_mask;
	bool dense;
	uint64_t id_min;
	size_t table_len;
	size_t hash_cap, data_dep_cap, ctrl_dep_cap, out_cap;
	uint32_t *scratch;       /* per node, for Kahn's in-degrees */
	et_graph_islot *pg_hash; /* interned names and pg_names */
	size_t pg_hash_cap, pg_hash_n;
	size_t data_ids, ctrl_ids; /* dependency ids added (data_dep/ctrl_dep
	                              hold them until finish) */
} et_graph;

et_graph *et_graph_new(void);
void et_graph_free(et_graph *g);
/* Empty the graph for the next rank, keeping every allocation: a tool that
 * reads rank after rank pays for growth (and page faults) only once. */
void et_graph_reset(et_graph *g);
/* Append a node; its message index is the previous one + 1 (first: 1).
 * Returns its index, or ET_GRAPH_NONE when the graph is full. */
uint32_t et_graph_add(et_graph *g, const et_node *n);
uint32_t et_graph_add_indexed(et_graph *g, const et_node *n, uint32_t msg_index);
/* Resolve ids, build the CSR arrays and the topological order. */
void et_graph_finish(et_graph *g);

/* Rank classes (et_crule.h): node i takes the value its class leaves to
 * each rank, as decoding that attribute in its canonical member would have
 * set it: k = ET_WK_PG_NAME with s (interned), ET_WK_COMM_SRC or
 * ET_WK_COMM_DST with v (clamped to int32). For a graph whose node i has a
 * comm record already (false, nothing changed, when it has none); a later
 * call replaces the value. Names set so stay in the pool. */
bool et_graph_set_comm(et_graph *g, uint32_t i, et_wk_attr k, const char *s, int64_t v);
/* Index of the first node with this id, or ET_GRAPH_NONE (after finish). */
uint32_t et_graph_find(const et_graph *g, uint64_t id);
static inline const char *et_graph_name(const et_graph *g, uint32_t i)
{
	return g->names + g->name[i];
}
/* Node i's communication attributes; all zero when it has none. */
static inline const et_graph_comm *et_graph_comm_at(const et_graph *g, uint32_t i)
{
	return &g->comms[g->comm[i]];
}
/* The peer rank of SEND or RECV node i, as ASTRA-sim reads it: a SEND's
 * comm_dst, a RECV's comm_src; -1 when it has none (or a negative one).
 * The node's own end (a SEND's comm_src, a RECV's comm_dst) is not read:
 * ASTRA-sim takes the node's rank for it (it defaults comm_src and
 * comm_dst to the rank), and its MSCCL-derived custom-collective examples
 * leave it out. */
static inline int32_t et_graph_p2p_peer(const et_graph *g, uint32_t i)
{
	bool send = g->type[i] == ET_NODE_SEND;
	uint16_t need = send ? ET_GF_COMM_DST : ET_GF_COMM_SRC;
	int32_t peer = send ? et_graph_comm_at(g, i)->dst : et_graph_comm_at(g, i)->src;
	return (g->flags[i] & need) && peer >= 0 ? peer : -1;
}
/* The network dimensions node i's involved_dim marks true, bit d for
 * dimension d (et_dims.h): those of the first involved_dim bool list,
 * where dimensions it does not list (it has fewer than 8 entries) are
 * involved, and without one all of them, as ASTRA-sim and et-sim read it. */
static inline uint8_t et_graph_involved(const et_graph *g, uint32_t i)
{
	return (uint8_t)~et_graph_comm_at(g, i)->off_dims;
}
static inline const char *et_graph_pg_name(const et_graph *g, uint32_t i)
{
	return g->names + et_graph_comm_at(g, i)->pg_name;
}
static inline uint32_t et_graph_ndeps(const et_graph *g, uint32_t i)
{
	return g->data_off[i + 1] - g->data_off[i] + g->ctrl_off[i + 1] - g->ctrl_off[i];
}
/* The well-known attribute a name denotes, or ET_WK_NONE. */
et_wk_attr et_graph_attr_key(const char *name);
/* The oneof member (value case) doc/chakra-et.md names for it, 0 for none. */
int et_graph_wk_member(et_wk_attr k);

/* One cycle among the nodes that are not in the topological order, as
 * indices in dependency order (each depends on the one before it, the first
 * on the last). Returns its length (0 if the graph is acyclic); *path is
 * malloc'ed (caller frees). Self-dependencies are not cycles here. */
uint32_t et_graph_find_cycle(const et_graph *g, uint32_t **path);

/* Longest path by duration_micros over the ordered nodes: returns its total
 * duration (UINT64_MAX, saturated, when it does not fit in 64 bits) and the
 * chain of indices from first to last (*chain malloc'ed, may be NULL if
 * chain is NULL). */
uint64_t et_graph_critical_path(const et_graph *g, uint32_t **chain, uint32_t *len);

/* Bytes held by the graph's arrays (for --stats and tests). */
size_t et_graph_bytes(const et_graph *g);

/* Buckets of et_graph_stats: one per schema value, and a last one for the
 * rest (a node type outside the schema; a collective without a readable
 * comm_type, or with one outside the schema). */
#define ET_GRAPH_STATS_TYPES (ET_NODE_TYPE_COUNT + 1)
#define ET_GRAPH_STATS_COLLS (ET_COLL_TYPE_COUNT + 1)

/* Statistics of one finished graph (one rank), as et-validate --stats
 * reports them. Every count is over all n nodes unless said otherwise.
 * Communication bytes count a COMM_COLL or COMM_SEND node that has a
 * comm_size and is not a host op (is_cpu_op true): its comm_size, 0 when
 * negative. RECVs are not counted, so a transfer counts once, at its
 * sender. Sums (durations, bytes) saturate at UINT64_MAX instead of
 * wrapping (et_sat.h): UINT64_MAX means "did not fit". The record is plain
 * data (no pointers): callers may copy, sum and keep it after the graph is
 * reset. */
typedef struct et_graph_stats {
	uint64_t nodes;
	uint64_t by_type[ET_GRAPH_STATS_TYPES];    /* by NodeType; last: unknown */
	uint64_t data_deps, ctrl_deps;             /* as written, dangling and self included */
	uint64_t dangling_deps, self_deps;         /* both kinds */
	uint64_t forward_deps;                     /* resolved, on a later node; both kinds */
	uint64_t coll_bytes[ET_GRAPH_STATS_COLLS]; /* by comm_type; last: none or unknown */
	uint64_t coll_count[ET_GRAPH_STATS_COLLS]; /* the collectives counted in coll_bytes */
	uint64_t send_bytes, send_count;
	uint64_t total_duration;    /* sum of duration_micros */
	uint64_t critical_duration; /* et_graph_critical_path's total */
	uint32_t critical_nodes;    /* and the number of nodes on that path */
	uint32_t depth, max_width;  /* Kahn levels and the largest level (et_graph) */
	uint32_t unordered;         /* nodes in or behind a cycle: n - n_ordered */
} et_graph_stats;

/* Fill *out with g's statistics (g finished; an empty graph gives zeros).
 * One pass over the nodes plus et_graph_critical_path (O(nodes + deps),
 * 12 bytes a node of scratch, freed before returning). */
void et_graph_get_stats(const et_graph *g, et_graph_stats *out);

#endif
