/* Linking a trace that carries no ids (the legacy autograd profiler's chrome
 * trace): the k-th host op named X (in start order: host ids are taken when
 * an op starts) is paired with the k-th Kineto CPU op named X (by ts). That
 * pairing is only trusted when the two traces run the same ops in the same
 * order: the pairs kept are a longest run of pairs whose Kineto order agrees
 * with the host order, and only when that run covers at least 90 % of the
 * larger side; otherwise nothing links (a trace of another run or step). */
#include "et-convert/pytorch/pt_kineto.h"

#include <stdlib.h>
#include <string.h>

typedef struct ord {
	int64_t key;   /* host id, or Kineto start rank */
	uint32_t name; /* id in kt_data.names; ET_STRMAP_NONE: no Kineto op has it */
	uint32_t rank, ix;
} ord;

static int cmp_key(const void *a, const void *b)
{
	const ord *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

static int cmp_name_rank(const void *a, const void *b)
{
	const ord *x = a, *y = b;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

typedef struct kstart {
	double ts, dur;
	uint32_t seq, ix;
} kstart;

/* Start order; an enclosing op (longer) before the ops it contains. */
static int cmp_start(const void *a, const void *b)
{
	const kstart *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void rank_sorted(ord *o, uint32_t n)
{
	qsort(o, n, sizeof *o, cmp_key);
	for (uint32_t i = 0; i < n; i++)
		o[i].rank = i;
	qsort(o, n, sizeof *o, cmp_name_rank);
}

static uint32_t host_ops(const kt_data *d, const pt_trace *t, ord *o)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->n; i++) {
		const pt_node *h = &t->nodes[i];
		const char *name = pt_str(t, h->name);
		if (h->cat != PT_NONE || strncmp(name, "[pytorch|profiler|", 18) == 0)
			continue; /* thread and process roots are not profiled ops */
		o[n++] = (ord){h->id, et_strmap_find(&d->names, name), 0, i};
	}
	rank_sorted(o, n);
	return n;
}

static void kineto_ops(const kt_data *d, ord *o)
{
	kstart *s = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *s);
	for (uint32_t i = 0; i < d->ncpu; i++)
		s[i] = (kstart){d->cpu[i].ts, d->cpu[i].dur, d->cpu[i].seq, i};
	qsort(s, d->ncpu, sizeof *s, cmp_start);
	for (uint32_t i = 0; i < d->ncpu; i++)
		o[i] = (ord){i, d->cpu[s[i].ix].name, 0, s[i].ix};
	free(s);
	rank_sorted(o, d->ncpu);
}

typedef struct pair {
	uint32_t hrank, krank, host, kix;
} pair;

static int cmp_hrank(const void *a, const void *b)
{
	const pair *x = a, *y = b;
	return x->hrank < y->hrank ? -1 : x->hrank > y->hrank;
}

/* k-th of each name with k-th of the same name. */
static uint32_t pair_by_name(const ord *h, uint32_t nh, const ord *k, uint32_t nk, pair *p)
{
	uint32_t i = 0, j = 0, n = 0;
	while (i < nh && j < nk) {
		if (h[i].name < k[j].name)
			i++;
		else if (h[i].name > k[j].name)
			j++;
		else {
			p[n++] = (pair){h[i].rank, k[j].rank, h[i].ix, k[j].ix};
			i++;
			j++;
		}
	}
	qsort(p, n, sizeof *p, cmp_hrank);
	return n;
}

/* Longest subsequence of p (in host order) with increasing Kineto rank;
 * marks its members in keep[]; O(n log n). */
static uint32_t longest_run(const pair *p, uint32_t n, bool *keep)
{
	uint32_t *tail = et_xmalloc(((size_t)n + 1) * sizeof *tail);
	uint32_t *prev = et_xmalloc(((size_t)n + 1) * sizeof *prev);
	uint32_t len = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t lo = 0, hi = len;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (p[tail[mid]].krank < p[i].krank)
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[i] = lo ? tail[lo - 1] : UINT32_MAX;
		tail[lo] = i;
		len += lo == len;
	}
	for (uint32_t i = len ? tail[len - 1] : UINT32_MAX; i != UINT32_MAX; i = prev[i])
		keep[i] = true;
	free(tail);
	free(prev);
	return len;
}

uint32_t kt_match_by_order(kt_data *d, const pt_trace *t)
{
	ord *h = et_xmalloc(((size_t)t->n + 1) * sizeof *h);
	ord *k = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *k);
	uint32_t nh = host_ops(d, t, h);
	kineto_ops(d, k);
	uint32_t most = nh > d->ncpu ? nh : d->ncpu;
	pair *p = et_xmalloc(((size_t)(nh < d->ncpu ? nh : d->ncpu) + 1) * sizeof *p);
	uint32_t np = pair_by_name(h, nh, k, d->ncpu, p);
	bool *keep = et_xcalloc((size_t)np + 1, 1);
	uint32_t run = longest_run(p, np, keep), matched = 0;
	if ((uint64_t)run * 10 >= (uint64_t)most * 9 && run > 0)
		for (uint32_t i = 0; i < np; i++)
			if (keep[i]) {
				d->cpu[p[i].kix].host = p[i].host;
				matched++;
			}
	free(h);
	free(k);
	free(p);
	free(keep);
	return matched;
}
