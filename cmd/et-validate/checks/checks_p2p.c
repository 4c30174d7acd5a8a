/* Send/receive pairing across ranks. A SEND on rank s to d and a RECV on
 * rank d from s match on (s, d, comm_tag, comm_size) and occurrence: the
 * k-th such SEND in s's file order pairs with the k-th such RECV in d's.
 * The sending rank is the rank whose file holds the SEND (and the
 * receiving rank the RECV's), whatever comm_src / comm_dst claim (that
 * mismatch is P2P_NOT_SELF). Two sorts and one merge. */
#include "et-validate/report/summary.h"

#include "et_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pkey {
	uint32_t src, dst;
	int32_t tag;
	int64_t size;
	uint32_t slot, idx; /* the entry: xs->r[slot].p2p[idx] */
} pkey;

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static int cmp_key(const pkey *a, const pkey *b)
{
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->dst != b->dst)
		return a->dst < b->dst ? -1 : 1;
	if (a->tag != b->tag)
		return a->tag < b->tag ? -1 : 1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return 0;
}

static int cmp_pkey(const void *x, const void *y)
{
	const pkey *a = x, *b = y;
	int c = cmp_key(a, b);
	if (c)
		return c;
	/* Same key: all on one rank, so file order is idx order. */
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The (src, dst) rank pairs that some SEND or RECV names, ascending. */
static uint64_t *pairs(const xsum *xs, size_t *n)
{
	size_t total = 0, w = 0;
	for (uint32_t s = 0; s < xs->n; s++)
		total += xs->r[s].t->n_ppat * 2;
	uint64_t *a = et_xmalloc((total + 1) * sizeof *a);
	for (uint32_t s = 0; s < xs->n; s++) {
		const rank_sum *r = &xs->r[s];
		const sum_tpl *t = r->t;
		for (uint32_t p = 0; p < t->n_ppat; p++) {
			bool snd = false, rcv = false;
			for (uint32_t e = t->pseq_off[p]; e < t->pseq_off[p + 1]; e++)
				*(t->p2p[t->pseq[e]].send ? &snd : &rcv) = true;
			if (snd)
				a[w++] = (uint64_t)r->rank << 32 | r->pmap[p];
			if (rcv)
				a[w++] = (uint64_t)r->pmap[p] << 32 | r->rank;
		}
	}
	qsort(a, w, sizeof *a, cmp_u64);
	size_t u = 0;
	for (size_t k = 0; k < w; k++)
		if (u == 0 || a[u - 1] != a[k])
			a[u++] = a[k];
	*n = u;
	return a;
}

/* The SENDs (or RECVs) of rank slot s with peer `peer`, as keys sorted as
 * the pairing reads them. */
static size_t side(const xsum *xs, uint32_t s, uint32_t peer, bool send, pkey **a, size_t *cap)
{
	if (s == ET_GRAPH_NONE)
		return 0;
	const rank_sum *r = &xs->r[s];
	const sum_tpl *t = r->t;
	size_t n = 0;
	for (uint32_t p = 0; p < t->n_ppat; p++) {
		if (r->pmap[p] != peer)
			continue;
		for (uint32_t e = t->pseq_off[p]; e < t->pseq_off[p + 1]; e++) {
			const p2p_ent *q = &t->p2p[t->pseq[e]];
			if (q->send != send)
				continue;
			ET_GROW(*a, *cap, n + 1);
			(*a)[n++] = (pkey){send ? r->rank : peer,
			                   send ? peer : r->rank,
			                   q->tag,
			                   q->size,
			                   s,
			                   t->pseq[e]};
		}
	}
	if (n > 1)
		qsort(*a, n, sizeof **a, cmp_pkey);
	return n;
}

static void unmatched(vctx *v, const pkey *k, uint64_t *absent)
{
	xsum *xs = v->xs;
	rank_sum *r = &xs->r[k->slot];
	const p2p_ent *p = &r->t->p2p[k->idx];
	uint32_t peer = rs_peer(r, p);
	/* A peer outside the input cannot be judged (PARTIAL_INPUT says so). */
	if (xsum_slot(xs, peer) == ET_GRAPH_NONE) {
		r->match[2 * k->idx + 1] = P2P_ABSENT;
		(*absent)++;
		return;
	}
	finding *f = find_add(&v->fs, C_P2P_UNMATCHED, r->rank, ET_GRAPH_NONE);
	if (!f)
		return;
	find_set(f, true, p->node_id, xsum_name(xs, p->name),
	         "%s %s rank %u (tag %d, %lld B) has no matching %s on rank %u",
	         p->send ? "SEND" : "RECV", p->send ? "to" : "from", peer, p->tag,
	         (long long)p->size, p->send ? "RECV" : "SEND", peer);
	find_x x;
	et_jsonw *j = find_x_open(&x);
	et_jsonw_kuint(j, "src", k->src);
	et_jsonw_kuint(j, "dst", k->dst);
	et_jsonw_kint(j, "tag", k->tag);
	et_jsonw_kint(j, "size", k->size);
	find_x_close(&x, f);
}

/* Pair one (src, dst): the sends of src to dst with the receives of dst
 * from src, merged in key order. */
static void match_pair(vctx *v, uint64_t pr, pkey **sb, size_t *scap, pkey **rb, size_t *rcap,
                       uint64_t *absent)
{
	xsum *xs = v->xs;
	uint32_t src = (uint32_t)(pr >> 32), dst = (uint32_t)pr;
	size_t ns = side(xs, xsum_slot(xs, src), dst, true, sb, scap);
	size_t nr = side(xs, xsum_slot(xs, dst), src, false, rb, rcap);
	const pkey *s = *sb, *r = *rb;
	size_t i = 0, j = 0;
	while (i < ns || j < nr) {
		int c = i == ns ? 1 : j == nr ? -1 : cmp_key(&s[i], &r[j]);
		if (c < 0) {
			unmatched(v, &s[i++], absent);
		} else if (c > 0) {
			unmatched(v, &r[j++], absent);
		} else {
			uint32_t *a = xs->r[s[i].slot].match + 2 * s[i].idx;
			uint32_t *b = xs->r[r[j].slot].match + 2 * r[j].idx;
			a[0] = r[j].slot, a[1] = r[j].idx;
			b[0] = s[i].slot, b[1] = s[i].idx;
			i++, j++;
		}
	}
}

/* Pair by pair of ranks in (src, dst) order, which is the order of one
 * sort of every SEND and every RECV by key: the findings come in the same
 * order, and no step holds more than one pair's nodes. */
void p2p_match(vctx *v)
{
	xsum *xs = v->xs;
	for (uint32_t s = 0; s < xs->n; s++) {
		rank_sum *r = &xs->r[s];
		r->match = et_xmalloc(((size_t)r->t->n_p2p * 2 + 1) * sizeof *r->match);
		memset(r->match, 0xff, ((size_t)r->t->n_p2p * 2 + 1) * sizeof *r->match);
		xs->bytes += (uint64_t)r->t->n_p2p * 8;
	}
	size_t np;
	uint64_t *pr = pairs(xs, &np);
	pkey *sb = NULL, *rb = NULL;
	size_t scap = 0, rcap = 0;
	uint64_t absent = 0;
	for (size_t k = 0; k < np; k++)
		match_pair(v, pr[k], &sb, &scap, &rb, &rcap, &absent);
	free(pr);
	free(sb);
	free(rb);
	finding *f = absent ? find_add(&v->fs, C_PARTIAL_INPUT, -1, ET_GRAPH_NONE) : NULL;
	if (f)
		find_set(f, false, 0, NULL,
		         "%llu SEND/RECV node%s name a peer rank that is not in the input: not "
		         "checked, and such RECVs are taken to complete",
		         (unsigned long long)absent, absent == 1 ? "" : "s");
}
