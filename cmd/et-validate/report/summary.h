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
 * findings of their own).
 *
 * Both are kept once per shape (sum_tpl): ranks whose lists and skeletons
 * are equal but for their groups and peers share one template, and each
 * rank keeps only those groups and peers (rank_sum), so the summaries grow
 * with the distinct shapes, not with ranks x collectives. */
#ifndef ET_VALIDATE_REPORT_SUMMARY_H
#define ET_VALIDATE_REPORT_SUMMARY_H

#include "et-validate/validate.h"
#include "et_hmap.h"
#include "et_strmap.h"

#define SK_FANIN 4
#define GID_NONE UINT32_MAX
#define P2P_ABSENT (UINT32_MAX - 1)

enum { SK_JOIN = 0, SK_COLL = 1, SK_SEND = 2, SK_RECV = 3, SK_KIND = 3, SK_STUCK = 4 };

/* A collective of a rank's file, as the ranks of one shape share it: its
 * group is the rank's (rank_sum.gmap[pat]). */
typedef struct coll_ent {
	uint64_t node_id;
	int64_t size;  /* -1 = no comm_size */
	uint32_t pat;  /* which of the rank's groups: index into rank_sum.gmap */
	uint32_t pos;  /* position among this rank's collectives of the group */
	uint32_t sk;   /* skeleton node */
	uint32_t name; /* interned node name (xsum_name) */
	int32_t type;  /* comm_type; -1 = none */
} coll_ent;

/* A SEND or RECV, shared likewise: its peer is the rank's
 * (rank_sum.pmap[pat]). */
typedef struct p2p_ent {
	uint64_t node_id;
	int64_t size;
	uint32_t pat; /* which of the rank's peers: index into rank_sum.pmap */
	int32_t tag;
	uint32_t sk;
	uint32_t name;
	bool send;
} p2p_ent;

/* What the ranks of one shape share (the ranks of a pipeline stage, of a
 * compiled program): their collectives and p2p nodes in file order, whose
 * groups and peers are numbered by first use (pat), and the comm skeleton.
 * Two ranks share one when all of it is equal, groups and peers aside; a
 * class rank checked from its rule (classes.h) takes its class's without
 * building one when its values follow the same pattern. Read-only once
 * made; freed with the xsum. */
typedef struct sum_tpl {
	coll_ent *coll;
	uint32_t n_coll;
	p2p_ent *p2p;
	uint32_t n_p2p;
	uint32_t n_gpat, n_ppat;
	/* per pat, its entries in file order (CSR) */
	uint32_t *gseq_off, *gseq, *pseq_off, *pseq;
	/* the graph node of each entry, for a class rank's values */
	uint32_t *cnode, *pnode;
	bool all_peers; /* every non-CPU SEND/RECV of the graph had a peer */
	bool off_dims;  /* a collective leaves a dimension out (involved_dim) */
	/* skeleton: kind, index into coll/p2p (joins: none), parent counts,
	 * children in CSR form */
	uint32_t sk_n;
	uint8_t *sk_kind;
	uint32_t *sk_ref;
	uint32_t *sk_npar;
	uint32_t *sk_child_off, *sk_child;
	uint32_t n_stuck;
	uint64_t hash;
} sum_tpl;

/* One rank: its shape and what is its own. */
typedef struct rank_sum {
	uint32_t rank;
	const sum_tpl *t;
	uint32_t *gmap;  /* per t->n_gpat: group id (GID_NONE: runs alone, or
	                  * the rank is not a member: nobody waits) */
	uint32_t *pmap;  /* per t->n_ppat: peer rank (same block as gmap) */
	uint32_t *match; /* per p2p entry, its counterpart's (slot, index), or
	                  * ET_GRAPH_NONE and then P2P_ABSENT (its peer is not
	                  * in the input) or ET_GRAPH_NONE: set by check_cross */
} rank_sum;

static inline uint32_t rs_gid(const rank_sum *r, const coll_ent *c)
{
	return r->gmap[c->pat];
}

static inline uint32_t rs_peer(const rank_sum *r, const p2p_ent *p)
{
	return r->pmap[p->pat];
}

/* A group's present members and, per member, its collectives in the group
 * in position order (built by check_cross, used by check_deadlock): the
 * member's template's entry list for the group, so members of one shape
 * share it. */
typedef struct xgroup {
	uint32_t *slots; /* member rank slots, ascending */
	uint32_t n_members;
	const uint32_t **seq; /* per member: indices into its t->coll */
	uint32_t *len;        /* per member: how many */
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
	sum_tpl **tpl; /* the shapes */
	size_t n_tpl, cap_tpl;
	et_strmap names;   /* interned comm node names; id 0 is "" */
	uint64_t bytes;    /* memory held by the summaries */
	et_hmap tpl_seen;  /* template hash -> 1 + its first index in tpl */
	et_hmap tpl_cls;   /* (class id, class generation) -> index in tpl */
	et_hmap tpl_first; /* the same -> index in r of the rank that made it */
	uint32_t shared;   /* ranks that took their class's template as is */
};

xsum *xsum_new(void);
void xsum_free(xsum *xs);
/* Summarise the finished graph v->g of rank v->ri.rank. True when it is a
 * class rank checked from its rule whose collectives fall into groups as
 * its class's first rank's do (the same template, the same pattern of
 * first uses, GID_NONE at the same places): then the rank's communicators
 * partition the collectives of one graph as that rank's did. */
bool xsum_add_rank(vctx *v);
/* Whether coll_gid can add no finding on this rank (so checks that call it
 * may run in any order): DIMS_MISSING was told, the dimensions were given,
 * or the rank came as its rule and its class's collectives use every
 * dimension. */
bool xsum_gid_quiet(const vctx *v);
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
