/* What each rank leaves behind for the cross-rank checks once its graph is
 * freed: its collectives and point-to-point nodes (in file order), and a
 * "comm skeleton" of its dependency graph for the deadlock check.
 *
 * The skeleton keeps only what can block across ranks. A non-comm node
 * completes as soon as its dependencies do, so what matters about it is the
 * set of nearest comm nodes it (transitively) waits for. That set is
 * carried along the topological order; a node whose set would exceed
 * SK_FANIN entries becomes a "join" node of the skeleton instead, which
 * bounds skeleton edges by SK_FANIN x the graph's edges while typical traces
 * (a few collectives among many COMP nodes) shrink to their comm nodes.
 * Nodes in or behind a cycle never become ready: their comm nodes are kept
 * as "stuck". Dangling and self dependencies are ignored here (they are
 * findings of their own). */
#ifndef ET_VALIDATE_REPORT_SUMMARY_H
#define ET_VALIDATE_REPORT_SUMMARY_H

#include "et-validate/validate.h"
#include "et_hmap.h"
#include "et_strmap.h"

#define SK_FANIN 4
#define GID_NONE UINT32_MAX

enum { SK_JOIN = 0, SK_COLL = 1, SK_SEND = 2, SK_RECV = 3, SK_KIND = 3, SK_STUCK = 4 };

typedef struct coll_ent {
	uint64_t node_id;
	int64_t size;  /* -1 = no comm_size */
	uint32_t gid;  /* GID_NONE: not a member of its group (never waits) */
	uint32_t pos;  /* position among this rank's collectives of the group */
	uint32_t sk;   /* skeleton node */
	uint32_t name; /* interned node name (xsum_name) */
	int32_t type;  /* comm_type; -1 = none */
} coll_ent;

typedef struct p2p_ent {
	uint64_t node_id;
	int64_t size;
	uint32_t peer; /* SEND: comm_dst; RECV: comm_src */
	int32_t tag;
	uint32_t sk;
	uint32_t name;
	uint32_t match_slot, match_idx; /* the counterpart, or ET_GRAPH_NONE */
	bool send;
} p2p_ent;

typedef struct rank_sum {
	uint32_t rank;
	coll_ent *coll;
	uint32_t n_coll;
	p2p_ent *p2p;
	uint32_t n_p2p;
	/* skeleton: kind, index into coll/p2p (joins: none), parents left,
	 * children in CSR form */
	uint32_t sk_n;
	uint8_t *sk_kind;
	uint32_t *sk_ref;
	uint32_t *sk_npar;
	uint32_t *sk_child_off, *sk_child;
	uint32_t n_stuck;
	/* sk_kind, sk_ref, sk_child_off and sk_child are an earlier rank's, equal
	 * to what this rank built (the ranks of a pipeline stage or of a compiled
	 * program have one skeleton): read-only, freed with that rank. sk_npar,
	 * which the deadlock check counts down, is always the rank's own. */
	bool sk_borrowed;
} rank_sum;

/* A group's present members and, per member, its collectives in the group
 * in position order (built by check_cross, used by check_deadlock). */
typedef struct xgroup {
	uint32_t *slots; /* member rank slots, ascending */
	uint32_t n_members;
	uint32_t *off;  /* n_members + 1 offsets into ents */
	uint32_t *ents; /* index into the member's coll[] */
	uint32_t max_len;
	uint32_t n_absent; /* defined members not in the input */
} xgroup;

struct skb;

struct xsum {
	struct skb *b; /* skeleton builder buffers, reused rank after rank */
	xgroup *xg;    /* per group id, after check_cross */
	size_t n_xg;
	rank_sum *r; /* sorted by rank after xsum_seal */
	size_t n, cap;
	et_strmap names; /* interned comm node names; id 0 is "" */
	uint64_t bytes;  /* memory held by the summaries */
	/* skeleton hash -> 1 + index in r of the first rank with that skeleton
	 * (ranks are sorted only after the last one is added) */
	et_hmap sk_seen;
};

xsum *xsum_new(void);
void xsum_free(xsum *xs);
/* Summarise the finished graph v->g of rank v->ri.rank. */
void xsum_add_rank(vctx *v);
/* Sort ranks; returns the slot of a rank or ET_GRAPH_NONE. */
void xsum_seal(xsum *xs);
uint32_t xsum_slot(const xsum *xs, uint32_t rank);
/* A comm node name by its id (coll_ent.name, p2p_ent.name). */
static inline const char *xsum_name(const xsum *xs, uint32_t name)
{
	return et_strmap_key(&xs->names, name);
}

/* checks_cross.c, deadlock.c */
void check_cross(vctx *v);
void check_deadlock(vctx *v);

#endif
