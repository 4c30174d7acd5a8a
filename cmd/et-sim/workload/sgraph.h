/* sgraph: the compact, read-only graph the simulator replays. Ranks whose
 * graphs are byte-for-byte identical share one sgraph; ranks whose graphs
 * differ only in their own names (pg names, peers) hold a view: the shared
 * graph's arrays and their own values: the peer of a SEND or a RECV, the pg
 * name of a collective (read them through sg_src, sg_dst and sg_pg). A
 * packed graph (sgraph_pack, sgraph_view_rule) keeps each distinct value
 * once and a shared pattern (cpat.h) of which node uses which: a view of a
 * Llama stage is then a few hundred bytes, not 4 bytes per communicating
 * node.
 *
 * Memory per node: 8 id + 1 type + 1 flags + 8 duration + 4 comm type +
 * 8 comm size + 12 src/dst/tag + 4 pg + 8 num_ops + 8 tensor_size +
 * 24 gemm M/N/K + 4 name + 4 deps + 4 child offset + 4 comm slot = 110 bytes, plus 4 bytes
 * per dependency edge and the names. */
#ifndef ET_SIM_WORKLOAD_SGRAPH_H
#define ET_SIM_WORKLOAD_SGRAPH_H
#include "et-sim/workload/cpat.h"
#include "et_crule.h"
#include "et_graph.h"
#include "et_types.h"
#include <stdbool.h>
#include <stdint.h>

enum { SG_CPU = 1, SG_INVOLVED = 2 };
/* Where a view's values live: its own cv and pgnames; one blob (cv, with
 * the pg name pool after the values: sgraph_rule_blob) it owns; a blob it
 * borrows (sgraph_view_blob). */
enum { SG_VALS_OWN, SG_VALS_BLOB, SG_VALS_BORROWED };

typedef struct sgraph {
	uint32_t n;
	uint64_t *id;
	uint8_t *type, *flags;
	uint64_t *dur_us;
	int32_t *comm_type;
	int64_t *comm_size;
	int32_t *src, *dst, *tag;
	int32_t *pg; /* string pool offset of pg_name, 0 = none */
	int64_t *num_ops;
	uint64_t *tensor_size;
	uint64_t *gemm;    /* 3 per node: M, N, K (0 = unknown) */
	uint8_t *involved; /* per node bitmask of involved dims (bit set = involved) */
	uint32_t *name;
	uint32_t *ndeps;
	uint32_t *out_off, *out;
	char *names;
	uint64_t names_len;
	char *pgnames;   /* where pg names point (a body: names) */
	uint32_t *cslot; /* per node: its index among SEND/RECV/COLL nodes, or
	                  * UINT32_MAX */
	uint32_t ncomm;
	const struct sgraph *body; /* a view: the graph it shares; NULL: owns all */
	int32_t *cval;             /* a view, per communicating node: a SEND's dst, a RECV's src, a
	                            * collective's pg name (offset in pgnames, 0: none); src, dst
	                            * and pg are NULL */
	/* packed: cv[cp->idx[cslot[i]]] is communicating node i's value (as
	 * cval has it); a view packed has no cval. NULL: not packed (a rank of
	 * more than CPAT_MAX_VALS values) */
	const cpat *cp;
	int32_t *cv;
	uint8_t vals_mem; /* a view: SG_VALS_OWN, _BLOB or _BORROWED (sgraph_free) */
	uint64_t hash;
	uint64_t n_dangling, n_cycle_nodes;
} sgraph;

/* Build from a finished et_graph (gemm comes from a side array). */
sgraph *sgraph_from(const et_graph *g, const uint64_t *gemm);
/* Equal but for the ranks' own names: pg names and peers (src, dst). */
bool sgraph_same_shape(const sgraph *a, const sgraph *b);
/* Whether two graphs of one shape, neither a view, have the same pg names
 * and peers too. */
bool sgraph_same_own(const sgraph *a, const sgraph *b);
/* A view of body with the pg names and peers of s (of body's shape). */
sgraph *sgraph_view(const sgraph *body, const sgraph *s);
/* A view of body for a class rank built from its rule (et_crule.h):
 * the pg names and peers of `like` (a rank of the class, of body's
 * shape), but for the class's slot nodes, which take vals. */
sgraph *sgraph_view_vals(const sgraph *body, const sgraph *like, const et_crule_class *c,
                         const et_crule_val *vals);
/* Whether c's slot nodes are nodes of g of the types their slots need
 * (and c has g's node count): then sgraph_view_vals can use g. */
bool sgraph_fits_rule(const sgraph *g, const et_crule_class *c);
void sgraph_free(sgraph *g);

/* Packs g (a graph or a view from sgraph_view or sgraph_view_vals): its
 * distinct values into cv, their pattern interned in set. A view's cval is
 * freed. Leaves g unpacked when it has more than CPAT_MAX_VALS values. */
void sgraph_pack(sgraph *g, cpat_set *set);

/* What every view of one class built from rules shares (sgraph_rtpl_make):
 * per communicating node, its entry: a slot (0..n_slots) or one of the
 * values the class's first rank has outside its slots (n_slots..n). */
typedef struct sgraph_rtpl {
	uint32_t n_slots, n, nused;
	uint32_t *entry;    /* [ncomm] */
	uint8_t *kind;      /* [n]: node type */
	const char **spg;   /* [n - n_slots]: shared pg names (in like), NULL: none */
	int32_t *speer;     /* [n - n_slots]: shared peers */
	uint32_t *order;    /* [nused]: the entries used, in order of first use */
	uint32_t *pos;      /* [n]: an entry's place in order */
	const cpat *plain;  /* the pattern when a rank's entries are all distinct */
	cpat_build scratch; /* per view */
} sgraph_rtpl;

/* t for class c over body, whose ranks are `like` but for their slots
 * (sgraph_fits_rule(body, c) holds). False (t empty) when the class has
 * more than CPAT_MAX_VALS entries. */
bool sgraph_rtpl_make(sgraph_rtpl *t, const sgraph *body, const sgraph *like,
                      const et_crule_class *c, cpat_set *set);
void sgraph_rtpl_free(sgraph_rtpl *t);
/* The packed values sgraph_view_vals(body, like, c, vals) would have, in
 * time proportional to the class's entries, not its nodes (but when two
 * entries of this rank have one value, which costs a pass over the
 * pattern): a blob of (*cp)->nval values and then their pg name pool
 * (offsets into it, 0: none), the caller's to free, of *bytes bytes
 * (bytes may be NULL). NULL when two of its pg names share a hash (use
 * sgraph_view_vals). */
int32_t *sgraph_rule_blob(const sgraph *body, sgraph_rtpl *t, const et_crule_val *vals,
                          cpat_set *set, const cpat **cp, size_t *bytes);
/* A view of body with the values of blob (from sgraph_rule_blob), which it
 * owns (sgraph_free frees it) or borrows. */
sgraph *sgraph_view_blob(const sgraph *body, const cpat *cp, int32_t *blob, bool own);
/* sgraph_view_blob of a new sgraph_rule_blob, owned; NULL as it. */
sgraph *sgraph_view_rule(const sgraph *body, sgraph_rtpl *t, const et_crule_val *vals,
                         cpat_set *set);

/* For sgraph.c and sgraph_pack.c: a new view of body with an empty pg
 * name pool (*len, *cap its length and capacity), and a pg name's offset
 * in that pool (added if new). */
sgraph *sgraph_view_new(const sgraph *body, size_t *len, size_t *cap);
int32_t sgraph_pool_add(sgraph *v, size_t *len, size_t *cap, const char *p);
/* The same on any pool (*pool of *len bytes, *cap allocated). */
int32_t sgraph_pool_put(char **pool, size_t *len, size_t *cap, const char *p);
static inline const char *sg_name(const sgraph *g, uint32_t i)
{
	return g->names + g->name[i];
}
/* A view's value for communicating node i. */
static inline int32_t sg_cval(const sgraph *g, uint32_t i)
{
	uint32_t k = g->cslot[i];
	return g->cp ? g->cv[g->cp->idx[k]] : g->cval[k];
}
/* A RECV's source rank (-1: none, or not a RECV). */
static inline int32_t sg_src(const sgraph *g, uint32_t i)
{
	if (!g->body)
		return g->src[i];
	return g->type[i] == ET_NODE_RECV ? sg_cval(g, i) : -1;
}
/* A SEND's destination rank (-1: none, or not a SEND). */
static inline int32_t sg_dst(const sgraph *g, uint32_t i)
{
	if (!g->body)
		return g->dst[i];
	return g->type[i] == ET_NODE_SEND ? sg_cval(g, i) : -1;
}
/* A collective's pg name (a view keeps it for collectives only). */
static inline const char *sg_pg(const sgraph *g, uint32_t i)
{
	int32_t o = !g->body ? g->pg[i] : g->type[i] == ET_NODE_COLL ? sg_cval(g, i) : 0;
	return o ? g->pgnames + o : NULL;
}

#endif
