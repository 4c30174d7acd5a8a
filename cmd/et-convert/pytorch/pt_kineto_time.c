/* Timing from the Kineto CPU ops: nesting per thread, exclusive durations,
 * and the inter-thread order of chakra_trace_link. Everything is a sort and
 * a linear pass: traces have millions of ops. */
#include "et-convert/pytorch/pt_kineto.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A gap longer than this between ops of one thread starts a new group. */
#define KT_GAP_US 1000.0

typedef struct tord {
	double ts, dur;
	uint32_t seq, ix;
} tord;

/* Start order; an op before the ops it contains (longer first). */
static int cmp_start(const void *a, const void *b)
{
	const tord *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* d->by_ts. Kineto writes ops nearly in start order, often exactly: a
 * linear check spares the sort then. */
static void sort_by_start(kt_data *d)
{
	tord *o = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *o);
	bool sorted = true;
	for (uint32_t i = 0; i < d->ncpu; i++) {
		o[i] = (tord){d->cpu[i].ts, d->cpu[i].dur, d->cpu[i].seq, i};
		sorted = sorted && (i == 0 || cmp_start(&o[i - 1], &o[i]) < 0);
	}
	if (!sorted)
		qsort(o, d->ncpu, sizeof *o, cmp_start);
	d->by_ts = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *d->by_ts);
	for (uint32_t i = 0; i < d->ncpu; i++)
		d->by_ts[i] = o[i].ix;
	free(o);
}

/* d->by_thr: by_ts split by thread (a stable counting sort). */
static void split_by_thread(kt_data *d)
{
	d->thr_off = et_xcalloc((size_t)d->nthr + 1, sizeof *d->thr_off);
	for (uint32_t i = 0; i < d->ncpu; i++)
		d->thr_off[d->cpu[i].thr + 1]++;
	for (uint32_t k = 0; k < d->nthr; k++)
		d->thr_off[k + 1] += d->thr_off[k];
	uint32_t *fill = et_xmalloc(((size_t)d->nthr + 1) * sizeof *fill);
	memcpy(fill, d->thr_off, (size_t)d->nthr * sizeof *fill);
	d->by_thr = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *d->by_thr);
	for (uint32_t i = 0; i < d->ncpu; i++) {
		uint32_t c = d->by_ts[i];
		d->by_thr[fill[d->cpu[c].thr]++] = c;
	}
	free(fill);
}

static double end_of(const kt_cpu *c)
{
	return c->ts + c->dur;
}

/* c lies within p (c starts no earlier: sorted). Times are relative to
 * kt_data.ts_base, exact to far below a nanosecond; the slack only absorbs
 * the rounding of ts + dur, so that an end equal to the parent's counts. */
static bool within(const kt_cpu *p, const kt_cpu *c)
{
	double pe = end_of(p);
	return end_of(c) <= pe + fabs(pe) * 4e-16 + 1e-6;
}

/* One thread's ops in start order: a stack of the open enclosing ops. Each
 * op's exclusive time loses the part of each child not already covered by
 * an earlier child, which is the length of the union of the children (the
 * children arrive in start order). cov[] is that covered end per stack slot. */
static void nest_thread(kt_data *d, const uint32_t *ops, uint32_t n, uint32_t *stk, double *cov)
{
	uint32_t sp = 0;
	for (uint32_t i = 0; i < n; i++) {
		kt_cpu *c = &d->cpu[ops[i]];
		while (sp && !within(&d->cpu[stk[sp - 1]], c))
			sp--;
		if (sp) {
			kt_cpu *p = &d->cpu[stk[sp - 1]];
			double from = c->ts > cov[sp - 1] ? c->ts : cov[sp - 1];
			double part = end_of(c) - from;
			if (part > 0) {
				p->excl = p->excl > part ? p->excl - part : 0;
				cov[sp - 1] = end_of(c);
			}
			c->up = stk[sp - 1];
		}
		stk[sp] = ops[i];
		cov[sp++] = c->ts;
	}
}

void kt_nest(kt_data *d)
{
	sort_by_start(d);
	split_by_thread(d);
	uint32_t *stk = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *stk);
	double *cov = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *cov);
	for (uint32_t k = 0; k < d->nthr; k++)
		nest_thread(d, d->by_thr + d->thr_off[k], d->thr_off[k + 1] - d->thr_off[k], stk,
		            cov);
	free(stk);
	free(cov);
}

void kt_apply_times(const kt_data *d, pt_trace *t)
{
	for (uint32_t i = 0; i < d->ncpu; i++) {
		const kt_cpu *c = &d->cpu[i];
		if (c->host == KT_NONE)
			continue;
		pt_node *h = &t->nodes[c->host];
		h->ts = (double)d->ts_base + c->ts;
		h->incl_dur = c->dur;
		h->excl_dur = c->excl;
		h->flags |= PT_HAS_TS | PT_HAS_INCL | PT_HAS_EXCL;
	}
}

/* The latest-starting op of a thread other than thr that started before ts:
 * g is all ops in start order, other[j] the last index <= j whose thread
 * differs from g[j]'s (so the search never walks back over one thread). */
static uint32_t latest_other(const kt_data *d, const uint32_t *g, const uint32_t *other,
                             uint32_t thr, double ts)
{
	uint32_t lo = 0, hi = d->ncpu;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->cpu[g[mid]].ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return KT_NONE;
	uint32_t j = lo - 1;
	return d->cpu[g[j]].thr != thr ? g[j] : other[j] == KT_NONE ? KT_NONE : g[other[j]];
}

/* Groups of a thread: the first op, then every op that starts more than
 * KT_GAP_US after all earlier ops of the thread have ended (the gap is
 * measured from the end of the enclosing top-level op, not from a nested op
 * that ended early). Every op of a group, nested ones too, as in
 * chakra_trace_link, gets the host id of the latest-starting CPU op of
 * another thread that started before the group, when that op is linked. */
static void thread_groups(const kt_data *d, pt_trace *t, uint32_t k, const uint32_t *g,
                          const uint32_t *other)
{
	double last_end = 0;
	int64_t dep = 0;
	for (uint32_t i = d->thr_off[k]; i < d->thr_off[k + 1]; i++) {
		const kt_cpu *c = &d->cpu[d->by_thr[i]];
		if (i == d->thr_off[k] || c->ts - last_end > KT_GAP_US) {
			uint32_t o = latest_other(d, g, other, k, c->ts);
			dep = o != KT_NONE && d->cpu[o].host != KT_NONE
			          ? t->nodes[d->cpu[o].host].id
			          : 0;
		}
		if (i == d->thr_off[k] || end_of(c) > last_end)
			last_end = end_of(c);
		if (dep && c->host != KT_NONE)
			t->nodes[c->host].inter_thread_dep = dep;
	}
}

void kt_thread_deps(const kt_data *d, pt_trace *t)
{
	if (d->nthr < 2)
		return;
	const uint32_t *g = d->by_ts;
	uint32_t *other = et_xmalloc(((size_t)d->ncpu + 1) * sizeof *other);
	for (uint32_t j = 0; j < d->ncpu; j++)
		other[j] = j == 0                                     ? KT_NONE
		           : d->cpu[g[j - 1]].thr != d->cpu[g[j]].thr ? j - 1
		                                                      : other[j - 1];
	for (uint32_t k = 0; k < d->nthr; k++)
		thread_groups(d, t, k, g, other);
	free(other);
}
