/* Per-rank comm summaries and the comm skeleton (see summary.h). */
#include "et-validate/report/summary.h"
#include "et-validate/checks/pgroups.h"
#include "et_buf.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

/* Per graph node, while the skeleton is built: fcnt[v] and fval[v] hold
 * v's comm set (the skeleton nodes v waits for), one entry in fval[v]
 * itself, or fcnt[v] (2..SK_FANIN) entries at fpool + fval[v]. A comm node
 * not yet reached in the order is marked fcnt[v] = F_COMM + its kind, with
 * fval[v] = its entry in coll[] / p2p[]. Five bytes a node: these arrays
 * are as long as the graph, and first touching memory is what costs. */
enum { F_COMM = 0x80 };

/* Builder state for a rank's skeleton; the buffers outlive the rank so
 * that rank after rank reuses them. */
typedef struct skb {
	rank_sum *r;
	size_t cap;              /* of r's skeleton arrays */
	uint32_t *par_off, *par; /* parents, CSR while building */
	size_t par_len, par_cap, sk_cap, par_off_cap;
	uint32_t *stamp;
	uint32_t *scratch;
	size_t scratch_cap;
	uint32_t *fval; /* per graph node, see F_COMM */
	uint8_t *fcnt;
	size_t node_cap;
	uint32_t *fpool; /* comm sets of more than one entry */
	size_t fpool_len, fpool_cap;
	et_hmap nmap; /* graph name offset -> interned name, for this rank */
} skb;

static void skb_free(skb *b)
{
	if (!b)
		return;
	free(b->par_off);
	free(b->par);
	free(b->stamp);
	free(b->scratch);
	free(b->fval);
	free(b->fcnt);
	free(b->fpool);
	et_hmap_free(&b->nmap);
	free(b);
}

xsum *xsum_new(void)
{
	xsum *xs = et_xcalloc(1, sizeof *xs);
	xs->b = et_xcalloc(1, sizeof *xs->b);
	et_strmap_intern_str(&xs->names, ""); /* id 0: no name */
	return xs;
}

void xsum_free(xsum *xs)
{
	if (!xs)
		return;
	for (size_t k = 0; k < xs->n; k++) {
		rank_sum *r = &xs->r[k];
		free(r->coll);
		free(r->p2p);
		free(r->sk_npar);
		if (r->sk_borrowed)
			continue;
		free(r->sk_kind);
		free(r->sk_ref);
		free(r->sk_child_off);
		free(r->sk_child);
	}
	for (size_t k = 0; k < xs->n_xg; k++) {
		free(xs->xg[k].slots);
		free(xs->xg[k].off);
		free(xs->xg[k].ents);
	}
	free(xs->xg);
	free(xs->r);
	skb_free(xs->b);
	et_strmap_free(&xs->names);
	et_hmap_free(&xs->sk_seen);
	free(xs);
}

/* The interned name of node i. Comm node names repeat across ranks and
 * steps ("ncclKernel_AllReduce..."), so they are interned: memory grows with
 * distinct names only. The graph interns names too, so within a rank a
 * name offset stands for its string: each distinct name is hashed as a
 * string once per rank, not once per comm node. */
static uint32_t node_name(xsum *xs, const et_graph *g, uint32_t i)
{
	uint64_t *name = et_hmap_put(&xs->b->nmap, g->name[i], 0, UINT64_MAX);
	if (*name == UINT64_MAX)
		*name = et_strmap_intern_str(&xs->names, et_graph_name(g, i));
	return (uint32_t)*name;
}

static uint32_t sk_new(skb *b, uint8_t kind, uint32_t ref, const uint32_t *par, size_t np)
{
	rank_sum *r = b->r;
	size_t c = b->cap; /* parallel arrays: the same growth from the same capacity */
	ET_GROW(r->sk_kind, b->cap, (size_t)r->sk_n + 1);
	ET_GROW(r->sk_ref, c, (size_t)r->sk_n + 1);
	ET_GROW(b->stamp, b->sk_cap, (size_t)r->sk_n + 2);
	ET_GROW(b->par_off, b->par_off_cap, (size_t)r->sk_n + 2);
	ET_GROW(b->par, b->par_cap, b->par_len + np);
	if (np)
		memcpy(b->par + b->par_len, par, np * sizeof *par);
	b->par_len += np;
	uint32_t s = r->sk_n++;
	b->stamp[s] = 0; /* stamps are per rank: clear what a prior rank left */
	r->sk_kind[s] = kind;
	r->sk_ref[s] = ref;
	b->par_off[s + 1] = (uint32_t)b->par_len;
	return s;
}

/* Union of the parents' comm sets, deduplicated with a stamp per skeleton
 * node (stamp = v + 1 marks "already in v's union"). */
static size_t gather(skb *b, const et_graph *g, uint32_t v)
{
	size_t need = (size_t)et_graph_ndeps(g, v) * SK_FANIN;
	ET_GROW(b->scratch, b->scratch_cap, need);
	size_t u = 0;
	const uint32_t *lists[2] = {g->data_dep, g->ctrl_dep};
	const uint32_t *offs[2] = {g->data_off, g->ctrl_off};
	for (int kind = 0; kind < 2; kind++)
		for (uint32_t e = offs[kind][v]; e < offs[kind][v + 1]; e++) {
			uint32_t p = lists[kind][e], n = b->fcnt[p];
			if (!n)
				continue;
			const uint32_t *set = n == 1 ? &b->fval[p] : b->fpool + b->fval[p];
			for (uint32_t k = 0; k < n; k++)
				if (b->stamp[set[k]] != v + 1) {
					b->stamp[set[k]] = v + 1;
					b->scratch[u++] = set[k];
				}
		}
	return u;
}

/* v's comm set is the u entries of scratch (u <= SK_FANIN). */
static void set_comm_set(skb *b, uint32_t v, size_t u)
{
	b->fcnt[v] = (uint8_t)u;
	if (u == 1) {
		b->fval[v] = b->scratch[0];
		return;
	}
	ET_GROW(b->fpool, b->fpool_cap, b->fpool_len + u);
	if (u)
		memcpy(b->fpool + b->fpool_len, b->scratch, u * sizeof *b->fpool);
	b->fval[v] = (uint32_t)b->fpool_len;
	b->fpool_len += u;
}

static void set_ref_sk(rank_sum *r, uint8_t kind, uint32_t ref, uint32_t s)
{
	if ((kind & SK_KIND) == SK_COLL)
		r->coll[ref].sk = s;
	else
		r->p2p[ref].sk = s;
}

static void build_skeleton(skb *b, const et_graph *g)
{
	rank_sum *r = b->r;
	for (uint32_t k = 0; k < g->n_ordered; k++) {
		uint32_t v = g->order[k];
		size_t u = gather(b, g, v);
		uint32_t s;
		if (b->fcnt[v] >= F_COMM) {
			uint8_t kind = b->fcnt[v] - F_COMM;
			s = sk_new(b, kind, b->fval[v], b->scratch, u);
			set_ref_sk(r, kind, b->fval[v], s);
		} else if (u <= SK_FANIN) {
			set_comm_set(b, v, u);
			continue;
		} else {
			s = sk_new(b, SK_JOIN, ET_GRAPH_NONE, b->scratch, u);
		}
		b->fcnt[v] = 1;
		b->fval[v] = s;
	}
	/* Comm nodes Kahn never reached sit in or behind a cycle. */
	for (uint32_t i = 0; i < g->n; i++)
		if (b->fcnt[i] >= F_COMM) {
			uint8_t kind = b->fcnt[i] - F_COMM;
			uint32_t s = sk_new(b, kind | SK_STUCK, b->fval[i], NULL, 0);
			set_ref_sk(r, kind, b->fval[i], s);
			r->n_stuck++;
		}
}

/* Parents CSR -> parent counts + children CSR, which is what the
 * event-driven deadlock check walks. */
static void finish_skeleton(skb *b)
{
	rank_sum *r = b->r;
	uint32_t n = r->sk_n;
	r->sk_npar = et_xmalloc(((size_t)n + 1) * sizeof *r->sk_npar);
	r->sk_child_off = et_xcalloc((size_t)n + 1, sizeof *r->sk_child_off);
	r->sk_child = et_xmalloc((b->par_len + 1) * sizeof *r->sk_child);
	for (uint32_t s = 0; s < n; s++) {
		r->sk_npar[s] = b->par_off[s + 1] - b->par_off[s];
		for (uint32_t e = b->par_off[s]; e < b->par_off[s + 1]; e++)
			r->sk_child_off[b->par[e] + 1]++;
	}
	for (uint32_t s = 0; s < n; s++)
		r->sk_child_off[s + 1] += r->sk_child_off[s];
	/* Fill with sk_child_off[p] as p's cursor, then shift it back. */
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t e = b->par_off[s]; e < b->par_off[s + 1]; e++)
			r->sk_child[r->sk_child_off[b->par[e]]++] = s;
	memmove(r->sk_child_off + 1, r->sk_child_off, (size_t)n * sizeof *r->sk_child_off);
	r->sk_child_off[0] = 0;
}

static rank_sum *new_rank(xsum *xs, uint32_t rank)
{
	ET_GROW(xs->r, xs->cap, (size_t)xs->n + 1);
	rank_sum *r = &xs->r[xs->n++];
	memset(r, 0, sizeof *r);
	r->rank = rank;
	return r;
}

/* What node i is in the summary: SK_COLL, SK_SEND, SK_RECV, or SK_JOIN for
 * none. Host-side (is_cpu_op) COMM nodes are left out: they are findings,
 * not traffic; so are SEND/RECV nodes without a peer. */
static uint8_t comm_kind(const et_graph *g, uint32_t i)
{
	uint8_t t = g->type[i];
	if (!et_node_is_comm(t) || (g->flags[i] & ET_GF_CPU))
		return SK_JOIN;
	if (t == ET_NODE_COLL)
		return SK_COLL;
	if (et_graph_p2p_peer(g, i) < 0)
		return SK_JOIN;
	return t == ET_NODE_SEND ? SK_SEND : SK_RECV;
}

/* A collective over all ranks that leaves a dimension out (an involved_dim
 * entry false) when the network's dimensions were not given: which ranks
 * run it together is unknown, so it is left out of the cross-rank checks
 * (GID_NONE), and that is said once, instead of the mismatches and the
 * deadlock that reading it on et-sim's default one dimension would give. */
static uint32_t dims_missing(vctx *v, uint32_t i)
{
	if (v->dims_missing_told)
		return GID_NONE;
	v->dims_missing_told = true;
	find_node(&v->fs, C_DIMS_MISSING, v->ri.rank, v->g, i,
	          "collectives use involved_dim but no network dimensions were "
	          "given: pass --network FILE or --npus-count N,... (collectives "
	          "over all ranks with an involved_dim entry false are not "
	          "matched across ranks)");
	return GID_NONE;
}

/* A collective's group: its pg_name's, or, for one over all ranks that
 * runs on some of the network's dimensions only (involved_dim), the group
 * of the ranks that run it together, as et-sim runs it (et_dims.h); one
 * that runs on none completes alone (GID_NONE: nobody waits for it). */
uint32_t coll_gid(vctx *v, uint32_t i)
{
	uint32_t gid = node_gid(v, i);
	if (gid == 0 && !v->o.dims_given && et_graph_comm_at(v->g, i)->off_dims)
		return dims_missing(v, i);
	if (gid != 0 || !v->dims_set)
		return gid;
	uint8_t a = et_dims_active(&v->dims, et_graph_involved(v->g, i));
	if (et_dims_whole(&v->dims, a))
		return 0;
	if (a == 0)
		return GID_NONE;
	return groups_scope(v->grp, &v->dims, a, et_dims_base(&v->dims, a, v->ri.rank));
}

static void add_coll(vctx *v, rank_sum *r, uint32_t i)
{
	const et_graph *g = v->g;
	const et_graph_comm *gc = et_graph_comm_at(g, i);
	coll_ent *c = &r->coll[r->n_coll];
	c->node_id = g->id[i];
	c->size = g->flags[i] & ET_GF_COMM_SIZE ? gc->size : -1;
	c->type = g->flags[i] & ET_GF_COMM_TYPE ? gc->type : -1;
	c->gid = coll_gid(v, i);
	c->sk = ET_GRAPH_NONE;
	c->name = node_name(v->xs, g, i);
}

static void add_p2p(vctx *v, rank_sum *r, uint32_t i, bool send)
{
	const et_graph *g = v->g;
	const et_graph_comm *c = et_graph_comm_at(g, i);
	p2p_ent *p = &r->p2p[r->n_p2p];
	p->send = send;
	p->node_id = g->id[i];
	p->size = g->flags[i] & ET_GF_COMM_SIZE ? c->size : -1;
	p->peer = (uint32_t)et_graph_p2p_peer(g, i);
	p->tag = c->tag;
	p->sk = ET_GRAPH_NONE;
	p->name = node_name(v->xs, g, i);
	p->match_slot = p->match_idx = ET_GRAPH_NONE;
}

/* Collect the rank's collectives and p2p nodes in file order, and mark
 * them for build_skeleton (see F_COMM). */
static void collect(vctx *v, rank_sum *r, skb *b)
{
	const et_graph *g = v->g;
	uint32_t nc = 0, np = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		uint8_t kind = comm_kind(g, i);
		b->fcnt[i] = kind == SK_JOIN ? 0 : F_COMM + kind;
		nc += kind == SK_COLL;
		np += kind == SK_SEND || kind == SK_RECV;
	}
	r->coll = et_xmalloc(((size_t)nc + 1) * sizeof *r->coll);
	r->p2p = et_xmalloc(((size_t)np + 1) * sizeof *r->p2p);
	for (uint32_t i = 0; i < g->n; i++) {
		if (b->fcnt[i] == F_COMM + SK_COLL) {
			add_coll(v, r, i);
			b->fval[i] = r->n_coll++;
		} else if (b->fcnt[i]) {
			add_p2p(v, r, i, b->fcnt[i] == F_COMM + SK_SEND);
			b->fval[i] = r->n_p2p++;
		}
	}
	/* Positions within each group, in file order. */
	uint32_t *next = et_xcalloc(groups_count(v->grp), sizeof *next);
	for (uint32_t k = 0; k < r->n_coll; k++)
		r->coll[k].pos = r->coll[k].gid == GID_NONE ? 0 : next[r->coll[k].gid]++;
	free(next);
}

/* Buffers sized for this rank's graph; the name map restarts, as name
 * offsets are per graph. */
static void skb_begin(skb *b, rank_sum *r, uint32_t n)
{
	if ((size_t)n + 1 > b->node_cap) {
		b->node_cap = (size_t)n + 1;
		free(b->fval);
		free(b->fcnt);
		b->fval = et_xmalloc(b->node_cap * sizeof *b->fval);
		b->fcnt = et_xmalloc(b->node_cap);
	}
	et_hmap_free(&b->nmap);
	b->r = r;
	b->cap = 0;
	b->par_len = 0;
	b->fpool_len = 0;
	if (!b->par_off) {
		b->sk_cap = 64;
		b->par_off_cap = b->sk_cap + 1;
		b->par_off = et_xmalloc(b->par_off_cap * sizeof *b->par_off);
		b->stamp = et_xmalloc(b->sk_cap * sizeof *b->stamp);
	}
	b->par_off[0] = 0;
}

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *s = p;
	for (size_t k = 0; k < n; k++)
		h = (h ^ s[k]) * 0x100000001b3ULL;
	return h;
}

static uint64_t sk_hash(const rank_sum *r)
{
	uint32_t n = r->sk_n, e = r->sk_child_off[n];
	uint64_t h = fnv(0xcbf29ce484222325ULL, &n, sizeof n);
	h = fnv(h, r->sk_kind, n);
	h = fnv(h, r->sk_ref, (size_t)n * sizeof *r->sk_ref);
	h = fnv(h, r->sk_child_off, ((size_t)n + 1) * sizeof *r->sk_child_off);
	return fnv(h, r->sk_child, (size_t)e * sizeof *r->sk_child);
}

/* memcmp of n bytes, where either may be NULL when n is 0 (an empty
 * skeleton allocates none of its arrays) */
static bool mem_eq(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

static bool sk_equal(const rank_sum *a, const rank_sum *b)
{
	uint32_t n = a->sk_n;
	return n == b->sk_n && a->sk_child_off[n] == b->sk_child_off[n] &&
	       mem_eq(a->sk_kind, b->sk_kind, n) &&
	       mem_eq(a->sk_ref, b->sk_ref, (size_t)n * sizeof *a->sk_ref) &&
	       mem_eq(a->sk_child_off, b->sk_child_off,
	              ((size_t)n + 1) * sizeof *a->sk_child_off) &&
	       mem_eq(a->sk_child, b->sk_child, (size_t)a->sk_child_off[n] * sizeof *a->sk_child);
}

/* The skeleton of the last rank added, replaced by an equal one an earlier
 * rank holds (the first rank with its hash; on a collision it keeps its
 * own). Returns the bytes it still holds of its own. */
static uint64_t share_skeleton(xsum *xs)
{
	rank_sum *r = &xs->r[xs->n - 1];
	uint64_t own = (uint64_t)r->sk_n * 4;
	uint64_t *first = et_hmap_put(&xs->sk_seen, sk_hash(r), 0, xs->n);
	if (*first == xs->n)
		return own + (uint64_t)r->sk_n * (1 + 4 * 2) +
		       (uint64_t)r->sk_child_off[r->sk_n] * 4;
	const rank_sum *o = &xs->r[*first - 1];
	if (!sk_equal(r, o))
		return own + (uint64_t)r->sk_n * (1 + 4 * 2) +
		       (uint64_t)r->sk_child_off[r->sk_n] * 4;
	free(r->sk_kind);
	free(r->sk_ref);
	free(r->sk_child_off);
	free(r->sk_child);
	r->sk_kind = o->sk_kind;
	r->sk_ref = o->sk_ref;
	r->sk_child_off = o->sk_child_off;
	r->sk_child = o->sk_child;
	r->sk_borrowed = true;
	return own;
}

void xsum_add_rank(vctx *v)
{
	const et_graph *g = v->g;
	rank_sum *r = new_rank(v->xs, v->ri.rank);
	skb *b = v->xs->b;
	skb_begin(b, r, g->n);
	collect(v, r, b);
	build_skeleton(b, g);
	finish_skeleton(b);
	v->xs->bytes += (uint64_t)r->n_coll * sizeof *r->coll +
	                (uint64_t)r->n_p2p * sizeof *r->p2p + share_skeleton(v->xs);
}

static int cmp_rank(const void *a, const void *b)
{
	uint32_t x = ((const rank_sum *)a)->rank, y = ((const rank_sum *)b)->rank;
	return x < y ? -1 : x > y;
}

void xsum_seal(xsum *xs)
{
	qsort(xs->r, xs->n, sizeof *xs->r, cmp_rank);
}

uint32_t xsum_slot(const xsum *xs, uint32_t rank)
{
	size_t lo = 0, hi = xs->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (xs->r[mid].rank < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < xs->n && xs->r[lo].rank == rank ? (uint32_t)lo : ET_GRAPH_NONE;
}
