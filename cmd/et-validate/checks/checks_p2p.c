/* Send/receive pairing across ranks. A SEND on rank s to d and a RECV on
 * rank d from s match on (s, d, comm_tag, comm_size) and occurrence: the
 * k-th such SEND in s's file order pairs with the k-th such RECV in d's.
 * The sending rank is the rank whose file holds the SEND (and the
 * receiving rank the RECV's), whatever comm_src / comm_dst claim (that
 * mismatch is P2P_NOT_SELF). Two sorts and one merge. */
#include "et-validate/report/summary.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct pkey {
	uint32_t src, dst;
	int32_t tag;
	int64_t size;
	uint32_t slot, idx; /* the entry: xs->r[slot].p2p[idx] */
} pkey;

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

static pkey *collect(const xsum *xs, bool send, size_t *n)
{
	size_t total = 0;
	for (uint32_t s = 0; s < xs->n; s++)
		for (uint32_t k = 0; k < xs->r[s].n_p2p; k++)
			total += xs->r[s].p2p[k].send == send;
	pkey *a = et_xmalloc((total + 1) * sizeof *a);
	size_t w = 0;
	for (uint32_t s = 0; s < xs->n; s++)
		for (uint32_t k = 0; k < xs->r[s].n_p2p; k++) {
			const p2p_ent *p = &xs->r[s].p2p[k];
			if (p->send != send)
				continue;
			uint32_t me = xs->r[s].rank;
			a[w++] =
			    (pkey){send ? me : p->peer, send ? p->peer : me, p->tag, p->size, s, k};
		}
	qsort(a, w, sizeof *a, cmp_pkey);
	*n = w;
	return a;
}

static void unmatched(vctx *v, const pkey *k, uint64_t *absent)
{
	xsum *xs = v->xs;
	const rank_sum *r = &xs->r[k->slot];
	const p2p_ent *p = &r->p2p[k->idx];
	/* A peer outside the input cannot be judged (PARTIAL_INPUT says so). */
	if (xsum_slot(xs, p->peer) == ET_GRAPH_NONE) {
		(*absent)++;
		return;
	}
	finding *f = find_add(&v->fs, C_P2P_UNMATCHED, r->rank, ET_GRAPH_NONE);
	if (!f)
		return;
	find_set(f, true, p->node_id, xsum_name(xs, p->name),
	         "%s %s rank %u (tag %d, %lld B) has no matching %s on rank %u",
	         p->send ? "SEND" : "RECV", p->send ? "to" : "from", p->peer, p->tag,
	         (long long)p->size, p->send ? "RECV" : "SEND", p->peer);
	find_x x;
	et_jsonw *j = find_x_open(&x);
	et_jsonw_kuint(j, "src", k->src);
	et_jsonw_kuint(j, "dst", k->dst);
	et_jsonw_kint(j, "tag", k->tag);
	et_jsonw_kint(j, "size", k->size);
	find_x_close(&x, f);
}

void p2p_match(vctx *v)
{
	xsum *xs = v->xs;
	size_t ns, nr;
	pkey *s = collect(xs, true, &ns), *r = collect(xs, false, &nr);
	size_t i = 0, j = 0;
	uint64_t absent = 0;
	while (i < ns || j < nr) {
		int c = i == ns ? 1 : j == nr ? -1 : cmp_key(&s[i], &r[j]);
		if (c < 0) {
			unmatched(v, &s[i++], &absent);
		} else if (c > 0) {
			unmatched(v, &r[j++], &absent);
		} else {
			p2p_ent *a = &xs->r[s[i].slot].p2p[s[i].idx];
			p2p_ent *b = &xs->r[r[j].slot].p2p[r[j].idx];
			a->match_slot = r[j].slot, a->match_idx = r[j].idx;
			b->match_slot = s[i].slot, b->match_idx = s[i].idx;
			i++, j++;
		}
	}
	free(s);
	free(r);
	finding *f = absent ? find_add(&v->fs, C_PARTIAL_INPUT, -1, ET_GRAPH_NONE) : NULL;
	if (f)
		find_set(f, false, 0, NULL,
		         "%llu SEND/RECV node%s name a peer rank that is not in the input: not "
		         "checked, and such RECVs are taken to complete",
		         (unsigned long long)absent, absent == 1 ? "" : "s");
}
