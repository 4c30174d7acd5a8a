/* Per-rank comm summaries and the comm skeleton (see summary.h). */
#include "summary.h"
#include "et_buf.h"
#include "pgroups.h"

#include <stdlib.h>
#include <string.h>

enum { T_SEND = 5, T_RECV = 6, T_COLL = 7 }; /* NodeType values */

/* Builder state for a rank's skeleton; the buffers outlive the rank so
 * that rank after rank reuses them. */
typedef struct skb {
	rank_sum *r;
	size_t cap;              /* of r's skeleton arrays */
	uint32_t *par_off, *par; /* parents, CSR while building */
	size_t par_len, par_cap, sk_cap;
	uint32_t *stamp;
	uint32_t *scratch;
	size_t scratch_cap;
	uint32_t *fset, *ent; /* per graph node */
	uint8_t *fcnt, *ekind;
	size_t node_cap;
} skb;

static void skb_free(skb *b)
{
	if (!b)
		return;
	free(b->par_off);
	free(b->par);
	free(b->stamp);
	free(b->scratch);
	free(b->fset);
	free(b->ent);
	free(b->fcnt);
	free(b->ekind);
	free(b);
}

xsum *xsum_new(void)
{
	xsum *xs = et_xcalloc(1, sizeof *xs);
	xs->b = et_xcalloc(1, sizeof *xs->b);
	xs->pool_cap = 4096;
	xs->pool = et_xmalloc(xs->pool_cap);
	xs->pool[0] = '\0';
	xs->pool_len = 1;
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
		free(r->sk_kind);
		free(r->sk_ref);
		free(r->sk_npar);
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
	free(xs->pool);
	free(xs->phash);
	free(xs);
}

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void phash_insert(xsum *xs, uint32_t off)
{
	size_t h = str_hash(xs->pool + off) & (xs->phash_cap - 1);
	while (xs->phash[h])
		h = (h + 1) & (xs->phash_cap - 1);
	xs->phash[h] = off;
}

/* Comm node names repeat across ranks and steps ("ncclKernel_AllReduce..."),
 * so they are interned: memory grows with distinct names only. */
static uint32_t intern(xsum *xs, const char *s)
{
	if (!*s)
		return 0;
	if (xs->phash_n * 2 >= xs->phash_cap) {
		uint32_t *old = xs->phash;
		size_t oldcap = xs->phash_cap;
		xs->phash_cap = oldcap ? oldcap * 2 : 1024;
		xs->phash = et_xcalloc(xs->phash_cap, sizeof *xs->phash);
		for (size_t k = 0; k < oldcap; k++)
			if (old[k])
				phash_insert(xs, old[k]);
		free(old);
	}
	size_t h = str_hash(s) & (xs->phash_cap - 1);
	for (; xs->phash[h]; h = (h + 1) & (xs->phash_cap - 1))
		if (strcmp(xs->pool + xs->phash[h], s) == 0)
			return xs->phash[h];
	size_t len = strlen(s) + 1;
	if (xs->pool_len + len > UINT32_MAX)
		return 0;
	if (xs->pool_len + len > xs->pool_cap) {
		while (xs->pool_len + len > xs->pool_cap)
			xs->pool_cap *= 2;
		xs->pool = et_xrealloc(xs->pool, xs->pool_cap);
	}
	uint32_t off = (uint32_t)xs->pool_len;
	memcpy(xs->pool + off, s, len);
	xs->pool_len += len;
	xs->phash[h] = off;
	xs->phash_n++;
	return off;
}

static uint32_t sk_new(skb *b, uint8_t kind, uint32_t ref, const uint32_t *par, size_t np)
{
	rank_sum *r = b->r;
	if (r->sk_n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		r->sk_kind = et_xrealloc(r->sk_kind, b->cap);
		r->sk_ref = et_xrealloc(r->sk_ref, b->cap * sizeof *r->sk_ref);
	}
	if (r->sk_n + 1 >= b->sk_cap) {
		b->sk_cap = b->sk_cap ? b->sk_cap * 2 : 64;
		b->par_off = et_xrealloc(b->par_off, (b->sk_cap + 1) * sizeof *b->par_off);
		b->stamp = et_xrealloc(b->stamp, b->sk_cap * sizeof *b->stamp);
	}
	if (b->par_len + np > b->par_cap) {
		while (b->par_len + np > b->par_cap)
			b->par_cap = b->par_cap ? b->par_cap * 2 : 256;
		b->par = et_xrealloc(b->par, b->par_cap * sizeof *b->par);
	}
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
static size_t gather(skb *b, const et_graph *g, uint32_t v, const uint32_t *fset,
                     const uint8_t *fcnt)
{
	size_t need = (size_t)et_graph_ndeps(g, v) * SK_FANIN;
	if (need > b->scratch_cap) {
		b->scratch_cap = need * 2;
		b->scratch = et_xrealloc(b->scratch, b->scratch_cap * sizeof *b->scratch);
	}
	size_t u = 0;
	const uint32_t *lists[2] = {g->data_dep, g->ctrl_dep};
	const uint32_t *offs[2] = {g->data_off, g->ctrl_off};
	for (int kind = 0; kind < 2; kind++)
		for (uint32_t e = offs[kind][v]; e < offs[kind][v + 1]; e++) {
			uint32_t p = lists[kind][e];
			for (uint8_t k = 0; k < fcnt[p]; k++) {
				uint32_t s = fset[(size_t)p * SK_FANIN + k];
				if (b->stamp[s] != v + 1) {
					b->stamp[s] = v + 1;
					b->scratch[u++] = s;
				}
			}
		}
	return u;
}

static void set_ref_sk(rank_sum *r, uint8_t kind, uint32_t ref, uint32_t s)
{
	if ((kind & SK_KIND) == SK_COLL)
		r->coll[ref].sk = s;
	else
		r->p2p[ref].sk = s;
}

static void build_skeleton(skb *b, const et_graph *g, const uint32_t *ent, const uint8_t *ekind)
{
	rank_sum *r = b->r;
	uint32_t *fset = b->fset;
	uint8_t *fcnt = b->fcnt;
	for (uint32_t k = 0; k < g->n_ordered; k++) {
		uint32_t v = g->order[k];
		size_t u = gather(b, g, v, fset, fcnt);
		uint32_t s;
		if (ent[v] != ET_GRAPH_NONE) {
			s = sk_new(b, ekind[v], ent[v], b->scratch, u);
			set_ref_sk(r, ekind[v], ent[v], s);
		} else if (u <= SK_FANIN) {
			if (u)
				memcpy(fset + (size_t)v * SK_FANIN, b->scratch, u * sizeof *fset);
			fcnt[v] = (uint8_t)u;
			continue;
		} else {
			s = sk_new(b, SK_JOIN, ET_GRAPH_NONE, b->scratch, u);
		}
		fset[(size_t)v * SK_FANIN] = s;
		fcnt[v] = 1;
	}
	/* Comm nodes Kahn never reached sit in or behind a cycle. */
	for (uint32_t i = 0; i < g->n; i++)
		if (ent[i] != ET_GRAPH_NONE && !(g->flags[i] & ET_GF_ORDERED)) {
			uint32_t s = sk_new(b, ekind[i] | SK_STUCK, ent[i], NULL, 0);
			set_ref_sk(r, ekind[i], ent[i], s);
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
	uint32_t *cur = et_xmalloc(((size_t)n + 1) * sizeof *cur);
	memcpy(cur, r->sk_child_off, ((size_t)n + 1) * sizeof *cur);
	for (uint32_t s = 0; s < n; s++)
		for (uint32_t e = b->par_off[s]; e < b->par_off[s + 1]; e++)
			r->sk_child[cur[b->par[e]]++] = s;
	free(cur);
}

static rank_sum *new_rank(xsum *xs, uint32_t rank)
{
	if (xs->n == xs->cap) {
		xs->cap = xs->cap ? xs->cap * 2 : 64;
		xs->r = et_xrealloc(xs->r, xs->cap * sizeof *xs->r);
	}
	rank_sum *r = &xs->r[xs->n++];
	memset(r, 0, sizeof *r);
	r->rank = rank;
	return r;
}

static bool is_p2p(const et_graph *g, uint32_t i)
{
	uint16_t need = g->type[i] == T_SEND ? ET_GF_COMM_DST : ET_GF_COMM_SRC;
	int32_t peer = g->type[i] == T_SEND ? g->comm_dst[i] : g->comm_src[i];
	return (g->type[i] == T_SEND || g->type[i] == T_RECV) && !(g->flags[i] & ET_GF_CPU) &&
	       (g->flags[i] & need) && peer >= 0;
}

/* Collect the rank's collectives and p2p nodes in file order. Host-side
 * (is_cpu_op) COMM nodes are left out: they are findings, not traffic. */
static void collect(vctx *v, rank_sum *r, uint32_t *ent, uint8_t *ekind)
{
	const et_graph *g = v->g;
	uint32_t nc = 0, np = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		nc += g->type[i] == T_COLL && !(g->flags[i] & ET_GF_CPU);
		np += is_p2p(g, i);
	}
	r->coll = et_xmalloc(((size_t)nc + 1) * sizeof *r->coll);
	r->p2p = et_xmalloc(((size_t)np + 1) * sizeof *r->p2p);
	for (uint32_t i = 0; i < g->n; i++) {
		ent[i] = ET_GRAPH_NONE;
		if (g->type[i] == T_COLL && !(g->flags[i] & ET_GF_CPU)) {
			coll_ent *c = &r->coll[r->n_coll];
			c->node_id = g->id[i];
			c->size = g->flags[i] & ET_GF_COMM_SIZE ? g->comm_size[i] : -1;
			c->type = g->flags[i] & ET_GF_COMM_TYPE ? g->comm_type[i] : -1;
			c->gid = node_gid(v, i);
			c->sk = ET_GRAPH_NONE;
			c->name = intern(v->xs, et_graph_name(g, i));
			ent[i] = r->n_coll++;
			ekind[i] = SK_COLL;
		} else if (is_p2p(g, i)) {
			p2p_ent *p = &r->p2p[r->n_p2p];
			p->send = g->type[i] == T_SEND;
			p->node_id = g->id[i];
			p->size = g->flags[i] & ET_GF_COMM_SIZE ? g->comm_size[i] : -1;
			p->peer = (uint32_t)(p->send ? g->comm_dst[i] : g->comm_src[i]);
			p->tag = g->comm_tag[i];
			p->sk = ET_GRAPH_NONE;
			p->name = intern(v->xs, et_graph_name(g, i));
			p->match_slot = p->match_idx = ET_GRAPH_NONE;
			ent[i] = r->n_p2p++;
			ekind[i] = p->send ? SK_SEND : SK_RECV;
		}
	}
	/* Positions within each group, in file order. */
	uint32_t *next = et_xcalloc(groups_count(v->grp), sizeof *next);
	for (uint32_t k = 0; k < r->n_coll; k++)
		r->coll[k].pos = next[r->coll[k].gid]++;
	free(next);
}

void xsum_add_rank(vctx *v)
{
	const et_graph *g = v->g;
	rank_sum *r = new_rank(v->xs, v->ri.rank);
	skb *b = v->xs->b;
	if ((size_t)g->n + 1 > b->node_cap) {
		b->node_cap = (size_t)g->n + 1;
		free(b->fset);
		free(b->ent);
		free(b->fcnt);
		free(b->ekind);
		b->fset = et_xmalloc(b->node_cap * SK_FANIN * sizeof *b->fset);
		b->ent = et_xmalloc(b->node_cap * sizeof *b->ent);
		b->fcnt = et_xmalloc(b->node_cap);
		b->ekind = et_xmalloc(b->node_cap);
	}
	b->r = r;
	b->cap = 0;
	b->par_len = 0;
	if (!b->par_off) {
		b->sk_cap = 64;
		b->par_off = et_xmalloc((b->sk_cap + 1) * sizeof *b->par_off);
		b->stamp = et_xmalloc(b->sk_cap * sizeof *b->stamp);
	}
	b->par_off[0] = 0;
	collect(v, r, b->ent, b->ekind);
	build_skeleton(b, g, b->ent, b->ekind);
	finish_skeleton(b);
	v->xs->bytes += (uint64_t)r->n_coll * sizeof *r->coll +
	                (uint64_t)r->n_p2p * sizeof *r->p2p + (uint64_t)r->sk_n * (1 + 4 * 3) +
	                (uint64_t)r->sk_child_off[r->sk_n] * 4;
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
