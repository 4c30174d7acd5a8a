/* Per-rank comm summaries and the comm skeleton (see summary.h). */
#include "et-validate/report/summary.h"
#include "et-validate/checks/pgroups.h"
#include "et_buf.h"
#include "et_hash.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_types.h"

#include <stddef.h>
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
	sum_tpl t;  /* the rank's shape, being built */
	size_t cap; /* of t's skeleton arrays */
	size_t coll_cap, p2p_cap, cnode_cap, pnode_cap;
	uint32_t *gv, *pv; /* per pat: the rank's group, peer */
	size_t gv_cap, pv_cap;
	et_hmap pats;            /* (kind, value) -> pat, for this rank */
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

static void tpl_free(sum_tpl *t)
{
	free(t->coll);
	free(t->p2p);
	free(t->gseq_off);
	free(t->gseq);
	free(t->pseq_off);
	free(t->pseq);
	free(t->cnode);
	free(t->pnode);
	free(t->sk_kind);
	free(t->sk_ref);
	free(t->sk_npar);
	free(t->sk_child_off);
	free(t->sk_child);
}

static void skb_free(skb *b)
{
	if (!b)
		return;
	tpl_free(&b->t);
	free(b->gv);
	free(b->pv);
	et_hmap_free(&b->pats);
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
		free(xs->r[k].gmap);
		free(xs->r[k].match);
	}
	for (size_t k = 0; k < xs->n_tpl; k++) {
		tpl_free(xs->tpl[k]);
		free(xs->tpl[k]);
	}
	free(xs->tpl);
	for (size_t k = 0; k < xs->n_xg; k++) {
		free(xs->xg[k].slots);
		free(xs->xg[k].seq);
		free(xs->xg[k].len);
	}
	free(xs->xg);
	free(xs->r);
	skb_free(xs->b);
	et_strmap_free(&xs->names);
	et_hmap_free(&xs->tpl_seen);
	et_hmap_free(&xs->tpl_cls);
	et_hmap_free(&xs->tpl_first);
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
	sum_tpl *r = &b->t;
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

static void set_ref_sk(sum_tpl *r, uint8_t kind, uint32_t ref, uint32_t s)
{
	if ((kind & SK_KIND) == SK_COLL)
		r->coll[ref].sk = s;
	else
		r->p2p[ref].sk = s;
}

static void build_skeleton(skb *b, const et_graph *g)
{
	sum_tpl *r = &b->t;
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
	sum_tpl *r = &b->t;
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

/* The number of value x of a kind (0 a group, 1 a peer) in this rank, by
 * first use; *vals gets the values in that order. */
static uint32_t pat_of(skb *b, int kind, uint32_t x, uint32_t **vals, size_t *cap)
{
	uint32_t *n = kind ? &b->t.n_ppat : &b->t.n_gpat;
	uint64_t *p = et_hmap_put(&b->pats, (uint64_t)kind << 32 | x, 0, *n);
	if (*p == *n) {
		ET_GROW(*vals, *cap, (size_t)*n + 1);
		(*vals)[(*n)++] = x;
	}
	return (uint32_t)*p;
}

static void add_coll(vctx *v, skb *b, uint32_t i)
{
	const et_graph *g = v->g;
	const et_graph_comm *gc = et_graph_comm_at(g, i);
	sum_tpl *t = &b->t;
	ET_GROW(t->coll, b->coll_cap, (size_t)t->n_coll + 1);
	ET_GROW(t->cnode, b->cnode_cap, (size_t)t->n_coll + 1);
	coll_ent *c = &t->coll[t->n_coll];
	c->node_id = g->id[i];
	c->size = g->flags[i] & ET_GF_COMM_SIZE ? gc->size : -1;
	c->type = g->flags[i] & ET_GF_COMM_TYPE ? gc->type : -1;
	c->pat = pat_of(b, 0, coll_gid(v, i), &b->gv, &b->gv_cap);
	c->pos = 0;
	c->sk = ET_GRAPH_NONE;
	c->name = node_name(v->xs, g, i);
	t->cnode[t->n_coll] = i;
	t->off_dims |= gc->off_dims != 0;
}

static void add_p2p(vctx *v, skb *b, uint32_t i, bool send)
{
	const et_graph *g = v->g;
	const et_graph_comm *c = et_graph_comm_at(g, i);
	sum_tpl *t = &b->t;
	ET_GROW(t->p2p, b->p2p_cap, (size_t)t->n_p2p + 1);
	ET_GROW(t->pnode, b->pnode_cap, (size_t)t->n_p2p + 1);
	p2p_ent *p = &t->p2p[t->n_p2p];
	p->send = send;
	p->node_id = g->id[i];
	p->size = g->flags[i] & ET_GF_COMM_SIZE ? c->size : -1;
	p->pat = pat_of(b, 1, (uint32_t)et_graph_p2p_peer(g, i), &b->pv, &b->pv_cap);
	p->tag = c->tag;
	p->sk = ET_GRAPH_NONE;
	p->name = node_name(v->xs, g, i);
	t->pnode[t->n_p2p] = i;
}

/* A non-CPU SEND or RECV without a peer: no entry (comm_kind), but a rank
 * of the same class with a peer there would have one. */
static bool peerless(const et_graph *g, uint32_t i)
{
	uint8_t t = g->type[i];
	return (t == ET_NODE_SEND || t == ET_NODE_RECV) && !(g->flags[i] & ET_GF_CPU) &&
	       et_graph_p2p_peer(g, i) < 0;
}

/* Collect the rank's collectives and p2p nodes in file order, and mark
 * them for build_skeleton (see F_COMM). */
static void collect(vctx *v, skb *b)
{
	const et_graph *g = v->g;
	sum_tpl *t = &b->t;
	for (uint32_t i = 0; i < g->n; i++) {
		uint8_t kind = comm_kind(g, i);
		b->fcnt[i] = kind == SK_JOIN ? 0 : F_COMM + kind;
		if (kind == SK_JOIN && peerless(g, i))
			t->all_peers = false;
	}
	for (uint32_t i = 0; i < g->n; i++) {
		if (b->fcnt[i] == F_COMM + SK_COLL) {
			add_coll(v, b, i);
			b->fval[i] = t->n_coll++;
		} else if (b->fcnt[i]) {
			add_p2p(v, b, i, b->fcnt[i] == F_COMM + SK_SEND);
			b->fval[i] = t->n_p2p++;
		}
	}
	/* Positions within each group, in file order. */
	uint32_t *next = et_xcalloc((size_t)t->n_gpat + 1, sizeof *next);
	for (uint32_t k = 0; k < t->n_coll; k++)
		t->coll[k].pos = next[t->coll[k].pat]++;
	free(next);
}

/* Buffers sized for this rank's graph; the name map restarts, as name
 * offsets are per graph. */
static void skb_begin(skb *b, uint32_t n)
{
	if ((size_t)n + 1 > b->node_cap) {
		b->node_cap = (size_t)n + 1;
		free(b->fval);
		free(b->fcnt);
		b->fval = et_xmalloc(b->node_cap * sizeof *b->fval);
		b->fcnt = et_xmalloc(b->node_cap);
	}
	et_hmap_free(&b->nmap);
	et_hmap_free(&b->pats);
	sum_tpl *t = &b->t;
	t->n_coll = t->n_p2p = t->n_gpat = t->n_ppat = t->sk_n = t->n_stuck = 0;
	t->all_peers = true;
	t->off_dims = false;
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

static uint64_t fnv64(uint64_t h, uint64_t x)
{
	return et_fnv1a(h, &x, sizeof x);
}

/* Field by field: the entries' padding is not set. */
static uint64_t tpl_hash(const sum_tpl *t)
{
	uint32_t n = t->sk_n, e = t->sk_child_off[n];
	uint64_t h = fnv64(ET_FNV1A_INIT, n);
	h = fnv64(h, (uint64_t)t->n_coll << 32 | t->n_p2p);
	h = fnv64(h, (uint64_t)t->n_gpat << 32 | t->n_ppat);
	h = fnv64(h, (uint64_t)t->all_peers << 33 | (uint64_t)t->off_dims << 32 | t->n_stuck);
	for (uint32_t k = 0; k < t->n_coll; k++) {
		const coll_ent *c = &t->coll[k];
		h = fnv64(fnv64(h, c->node_id), (uint64_t)c->size);
		h = fnv64(h, (uint64_t)c->pat << 32 | c->pos);
		h = fnv64(h, (uint64_t)c->sk << 32 | c->name);
		h = fnv64(h, (uint64_t)(uint32_t)c->type << 32 | t->cnode[k]);
	}
	for (uint32_t k = 0; k < t->n_p2p; k++) {
		const p2p_ent *p = &t->p2p[k];
		h = fnv64(fnv64(h, p->node_id), (uint64_t)p->size);
		h = fnv64(h, (uint64_t)p->pat << 32 | (uint32_t)p->tag);
		h = fnv64(h, (uint64_t)p->sk << 32 | p->name);
		h = fnv64(h, (uint64_t)p->send << 32 | t->pnode[k]);
	}
	h = et_fnv1a(h, t->sk_kind, n);
	h = et_fnv1a(h, t->sk_ref, (size_t)n * sizeof *t->sk_ref);
	h = et_fnv1a(h, t->sk_child_off, ((size_t)n + 1) * sizeof *t->sk_child_off);
	return et_fnv1a(h, t->sk_child, (size_t)e * sizeof *t->sk_child);
}

/* memcmp of n bytes, where either may be NULL when n is 0 (an empty
 * skeleton allocates none of its arrays) */
static bool mem_eq(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

static bool coll_eq(const coll_ent *a, const coll_ent *b)
{
	return a->node_id == b->node_id && a->size == b->size && a->pat == b->pat &&
	       a->pos == b->pos && a->sk == b->sk && a->name == b->name && a->type == b->type;
}

static bool p2p_eq(const p2p_ent *a, const p2p_ent *b)
{
	return a->node_id == b->node_id && a->size == b->size && a->pat == b->pat &&
	       a->tag == b->tag && a->sk == b->sk && a->name == b->name && a->send == b->send;
}

static bool tpl_equal(const sum_tpl *a, const sum_tpl *b)
{
	uint32_t n = a->sk_n;
	if (n != b->sk_n || a->n_coll != b->n_coll || a->n_p2p != b->n_p2p ||
	    a->n_gpat != b->n_gpat || a->n_ppat != b->n_ppat || a->all_peers != b->all_peers ||
	    a->off_dims != b->off_dims || a->n_stuck != b->n_stuck ||
	    a->sk_child_off[n] != b->sk_child_off[n])
		return false;
	for (uint32_t k = 0; k < a->n_coll; k++)
		if (!coll_eq(&a->coll[k], &b->coll[k]) || a->cnode[k] != b->cnode[k])
			return false;
	for (uint32_t k = 0; k < a->n_p2p; k++)
		if (!p2p_eq(&a->p2p[k], &b->p2p[k]) || a->pnode[k] != b->pnode[k])
			return false;
	return mem_eq(a->sk_kind, b->sk_kind, n) &&
	       mem_eq(a->sk_ref, b->sk_ref, (size_t)n * sizeof *a->sk_ref) &&
	       mem_eq(a->sk_child_off, b->sk_child_off,
	              ((size_t)n + 1) * sizeof *a->sk_child_off) &&
	       mem_eq(a->sk_child, b->sk_child, (size_t)a->sk_child_off[n] * sizeof *a->sk_child);
}

/* Entries of each pat in file order, as CSR: entry k of ents (stride
 * bytes apart, NULL when n is 0) has its pat at byte off. */
static void csr(uint32_t npat, uint32_t n, const void *ents, size_t stride, size_t off,
                uint32_t **offs, uint32_t **seq)
{
	*offs = et_xcalloc((size_t)npat + 2, sizeof **offs);
	*seq = et_xmalloc(((size_t)n + 1) * sizeof **seq);
	const uint8_t *e = ents;
	uint32_t pat;
	for (uint32_t k = 0; k < n; k++) {
		memcpy(&pat, e + k * stride + off, sizeof pat);
		(*offs)[pat + 2]++;
	}
	for (uint32_t p = 0; p < npat; p++)
		(*offs)[p + 2] += (*offs)[p + 1];
	for (uint32_t k = 0; k < n; k++) {
		memcpy(&pat, e + k * stride + off, sizeof pat);
		(*seq)[(*offs)[pat + 1]++] = k;
	}
}

/* The builder's shape as a template of its own: its arrays move. */
static sum_tpl *tpl_take(skb *b)
{
	sum_tpl *t = et_xmalloc(sizeof *t);
	*t = b->t;
	memset(&b->t, 0, sizeof b->t);
	b->cap = b->coll_cap = b->p2p_cap = b->cnode_cap = b->pnode_cap = 0;
	csr(t->n_gpat, t->n_coll, t->coll, sizeof *t->coll, offsetof(coll_ent, pat), &t->gseq_off,
	    &t->gseq);
	csr(t->n_ppat, t->n_p2p, t->p2p, sizeof *t->p2p, offsetof(p2p_ent, pat), &t->pseq_off,
	    &t->pseq);
	return t;
}

static uint64_t tpl_bytes(const sum_tpl *t)
{
	return (uint64_t)t->n_coll * (sizeof *t->coll + 8) +
	       (uint64_t)t->n_p2p * (sizeof *t->p2p + 8) + (uint64_t)t->sk_n * (1 + 4 * 3) +
	       (uint64_t)t->sk_child_off[t->sk_n] * 4;
}

/* The template equal to the builder's shape (the first with its hash; on a
 * collision a new one), made when there is none. */
static const sum_tpl *tpl_intern(xsum *xs, skb *b, uint32_t *index)
{
	b->t.hash = tpl_hash(&b->t);
	uint64_t *first = et_hmap_put(&xs->tpl_seen, b->t.hash, 0, xs->n_tpl + 1);
	if (*first != xs->n_tpl + 1 && tpl_equal(&b->t, xs->tpl[*first - 1])) {
		/* the per-rank arrays finish_skeleton made are not kept */
		free(b->t.sk_npar);
		free(b->t.sk_child_off);
		free(b->t.sk_child);
		b->t.sk_npar = b->t.sk_child_off = b->t.sk_child = NULL;
		*index = (uint32_t)(*first - 1);
		return xs->tpl[*index];
	}
	ET_GROW(xs->tpl, xs->cap_tpl, xs->n_tpl + 1);
	*index = (uint32_t)xs->n_tpl;
	xs->tpl[xs->n_tpl++] = tpl_take(b);
	xs->bytes += tpl_bytes(xs->tpl[*index]);
	return xs->tpl[*index];
}

/* gmap and pmap of a rank, in one block. */
static void set_maps(xsum *xs, rank_sum *r, const uint32_t *gv, const uint32_t *pv)
{
	const sum_tpl *t = r->t;
	r->gmap = et_xmalloc(((size_t)t->n_gpat + t->n_ppat + 1) * sizeof *r->gmap);
	r->pmap = r->gmap + t->n_gpat;
	if (t->n_gpat)
		memcpy(r->gmap, gv, t->n_gpat * sizeof *gv);
	if (t->n_ppat)
		memcpy(r->pmap, pv, t->n_ppat * sizeof *pv);
	xs->bytes += sizeof *r + ((uint64_t)t->n_gpat + t->n_ppat) * 4;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Whether n values, numbered by first use, are distinct (as numbering
 * them anew would give them n numbers). */
static bool distinct(skb *b, const uint32_t *x, uint32_t n)
{
	ET_GROW(b->scratch, b->scratch_cap, (size_t)n + 1);
	if (n)
		memcpy(b->scratch, x, n * sizeof *x);
	qsort(b->scratch, n, sizeof *b->scratch, cmp_u32);
	for (uint32_t k = 1; k < n; k++)
		if (b->scratch[k] == b->scratch[k - 1])
			return false;
	return true;
}

/* Value x of entry with pat p, the next new pat being *next: true when it
 * follows the pattern (a new pat is the next one; an old one had x). */
static bool follows(uint32_t *vals, uint32_t *next, uint32_t p, uint32_t x)
{
	if (p == *next) {
		vals[(*next)++] = x;
		return true;
	}
	return p < *next && vals[p] == x;
}

/* A class rank checked from its rule (classes.h): its class's graph with
 * its values set, whose shape is its class's first rank's but for the
 * values. When they follow the same pattern of first uses, the rank takes
 * that template with its own groups and peers, without building one. */
static bool from_class(vctx *v, rank_sum *r, bool *same)
{
	xsum *xs = v->xs;
	if (!v->ri.rule_only)
		return false;
	uint64_t *ix = et_hmap_get(&xs->tpl_cls, v->ri.class_id, v->ri.class_gen);
	if (!ix || !xs->tpl[*ix]->all_peers)
		return false;
	const sum_tpl *t = xs->tpl[*ix];
	skb *b = xs->b;
	ET_GROW(b->gv, b->gv_cap, (size_t)t->n_gpat + 1);
	ET_GROW(b->pv, b->pv_cap, (size_t)t->n_ppat + 1);
	uint32_t ng = 0, np = 0;
	for (uint32_t k = 0; k < t->n_coll; k++)
		if (!follows(b->gv, &ng, t->coll[k].pat, coll_gid(v, t->cnode[k])))
			return false;
	for (uint32_t k = 0; k < t->n_p2p; k++) {
		int64_t peer = et_graph_p2p_peer(v->g, t->pnode[k]);
		if (peer < 0 || !follows(b->pv, &np, t->p2p[k].pat, (uint32_t)peer))
			return false;
	}
	if (!distinct(b, b->gv, ng) || !distinct(b, b->pv, np))
		return false;
	r->t = t;
	set_maps(xs, r, b->gv, b->pv);
	xs->shared++;
	uint64_t *first = et_hmap_get(&xs->tpl_first, v->ri.class_id, v->ri.class_gen);
	const uint32_t *fg = first ? xs->r[*first].gmap : NULL;
	*same = fg != NULL;
	for (uint32_t p = 0; p < ng && *same; p++)
		*same = (fg[p] == GID_NONE) == (b->gv[p] == GID_NONE);
	return true;
}

bool xsum_gid_quiet(const vctx *v)
{
	if (v->dims_missing_told || v->o.dims_given)
		return true;
	const xsum *xs = v->xs;
	const uint64_t *ix =
	    v->ri.rule_only ? et_hmap_get(&xs->tpl_cls, v->ri.class_id, v->ri.class_gen) : NULL;
	return ix && !xs->tpl[*ix]->off_dims;
}

bool xsum_add_rank(vctx *v)
{
	xsum *xs = v->xs;
	rank_sum *r = new_rank(xs, v->ri.rank);
	bool same = false;
	if (from_class(v, r, &same))
		return same;
	skb *b = xs->b;
	skb_begin(b, v->g->n);
	collect(v, b);
	build_skeleton(b, v->g);
	finish_skeleton(b);
	uint32_t index;
	r->t = tpl_intern(xs, b, &index);
	set_maps(xs, r, b->gv, b->pv);
	if (v->ri.crule || v->ri.rule_only) {
		et_hmap_put(&xs->tpl_cls, v->ri.class_id, v->ri.class_gen, index);
		et_hmap_put(&xs->tpl_first, v->ri.class_id, v->ri.class_gen, xs->n - 1);
	}
	return false;
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
