/* GPU ops (kernels, memcpys) as new host nodes under the host op that
 * launched them, as chakra_trace_link does: a GPU op belongs to the API call
 * with the same correlation id; that call's CPU op is the one on the call's
 * thread with the call's External id running at the call, else the innermost
 * op running at the call, else the latest op started before it. The new node is a copy of
 * the host op (inputs, outputs, attrs: the reference deep-copies it) with the
 * kernel's name, category, time and stream. */
#include "et-convert/pytorch/pt_kineto.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Enclosing ops looked at above the latest-started one (nesting depth). */
#define KT_UP_SCAN 256

typedef struct gctx {
	const kt_data *d;
	kt_idx ln;  /* launches by correlation */
	kt_idx ext; /* CPU ops by External id */
} gctx;

/* The latest op of the launch's thread with the launch's External id that
 * is running when the launch starts (old Kineto versions number API calls
 * apart from ops, so an id alone may name an unrelated op). */
static uint32_t by_ext(const gctx *g, const kt_launch *l)
{
	uint32_t best = KT_NONE, j = kt_idx_first(&g->ext, l->ext);
	for (int s = 0; j != KT_NONE && s < KT_SAME_ID_SCAN; j = g->ext.next[j], s++) {
		const kt_cpu *c = &g->d->cpu[j];
		if (c->thr == l->thr && c->ts <= l->ts && c->ts + c->dur >= l->ts &&
		    (best == KT_NONE || c->ts > g->d->cpu[best].ts))
			best = j;
	}
	return best;
}

static uint32_t by_time(const kt_data *d, const kt_launch *l)
{
	if (l->thr >= d->nthr)
		return KT_NONE;
	const uint32_t *ops = d->by_thr + d->thr_off[l->thr];
	uint32_t lo = 0, hi = d->thr_off[l->thr + 1] - d->thr_off[l->thr];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->cpu[ops[mid]].ts <= l->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return KT_NONE;
	uint32_t latest = ops[lo - 1], c = latest;
	for (int s = 0; c != KT_NONE && s < KT_UP_SCAN; s++, c = d->cpu[c].up)
		if (d->cpu[c].ts + d->cpu[c].dur >= l->ts)
			return c;
	return latest;
}

/* The CPU op that issued GPU op op, or KT_NONE. */
static uint32_t launcher(const gctx *g, const kt_gpu *op)
{
	uint32_t j = op->corr == PT_NO_ID ? KT_NONE : kt_idx_first(&g->ln, op->corr);
	if (j == KT_NONE)
		return KT_NONE;
	const kt_launch *l = &g->d->ln[j];
	uint32_t c = l->ext != PT_NO_ID ? by_ext(g, l) : KT_NONE;
	return c != KT_NONE ? c : by_time(g->d, l);
}

typedef struct attach {
	double ts;
	uint32_t seq, gpu, host;
} attach;

static int cmp_attach(const void *a, const void *b)
{
	const attach *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Kineto name id -> host pool offset (PT_NONE until first used), so each
 * distinct kernel name is copied into the host pool once. */
static uint32_t to_pool(uint32_t *pool_off, const kt_data *d, pt_trace *t, uint32_t id)
{
	if (pool_off[id] == PT_NONE) {
		const char *s = kt_name(d, id);
		pool_off[id] = pt_intern(t, s, strlen(s));
	}
	return pool_off[id];
}

static uint32_t collect(const kt_data *d, const pt_trace *t, attach *a)
{
	gctx g = {.d = d};
	kt_idx_build(&g.ln, d->ln, sizeof *d->ln, offsetof(kt_launch, corr), d->nln);
	kt_idx_build(&g.ext, d->cpu, sizeof *d->cpu, offsetof(kt_cpu, ext), d->ncpu);
	uint32_t n = 0;
	for (uint32_t i = 0; i < d->ngpu; i++) {
		uint32_t c = launcher(&g, &d->gpu[i]);
		if (c != KT_NONE && d->cpu[c].host != KT_NONE && d->cpu[c].host < t->n)
			a[n++] = (attach){d->gpu[i].ts, d->gpu[i].seq, i, d->cpu[c].host};
	}
	kt_idx_free(&g.ln);
	kt_idx_free(&g.ext);
	qsort(a, n, sizeof *a, cmp_attach);
	return n;
}

static void append(pt_trace *t, const kt_data *d, const attach *a, int64_t id, uint32_t *pool_off,
                   const uint32_t cat[2])
{
	const kt_gpu *op = &d->gpu[a->gpu];
	pt_node *n = &t->nodes[t->n];
	*n = t->nodes[a->host]; /* io, attrs, op_schema, comm sizes, process group */
	n->parent = n->id;
	n->id = id;
	n->name = to_pool(pool_off, d, t, op->name);
	n->cat = cat[op->cat];
	n->ts = (double)d->ts_base + op->ts;
	n->incl_dur = n->excl_dur = op->dur;
	n->flags = (uint8_t)((n->flags & PT_HAS_IO) | PT_HAS_TS | PT_HAS_INCL | PT_HAS_EXCL);
	n->stream_state = op->has_stream ? PT_STREAM_SET : PT_STREAM_ABSENT;
	n->stream = op->has_stream ? op->stream : 0;
	n->inter_thread_dep = 0;
	if (op->pg != KT_NONE)
		n->pg_name = to_pool(pool_off, d, t, op->pg);
	n->pos = t->n++;
}

/* Room for n more nodes, exactly: doubling a million-node array would cost
 * hundreds of MB for nothing (not ET_GROW: a one-time exact reserve). */
static void reserve(pt_trace *t, uint32_t n)
{
	if (t->cap < t->n + n) {
		t->cap = t->n + n;
		t->nodes = et_xrealloc(t->nodes, (size_t)t->cap * sizeof *t->nodes);
	}
}

static int64_t max_id(const pt_trace *t)
{
	int64_t top = INT64_MIN;
	for (uint32_t i = 0; i < t->n; i++)
		top = t->nodes[i].id > top ? t->nodes[i].id : top;
	return top;
}

/* Fresh ids after the largest host id, in GPU start order. */
static void append_all(pt_trace *t, const kt_data *d, const attach *a, uint32_t n, int64_t top)
{
	uint32_t names = et_strmap_count(&d->names);
	uint32_t *pool_off = et_xmalloc(((size_t)names + 1) * sizeof *pool_off);
	for (uint32_t k = 0; k < names; k++)
		pool_off[k] = PT_NONE;
	reserve(t, n);
	uint32_t cat[2] = {pt_intern(t, "kernel", 6), pt_intern(t, "gpu_memcpy", 10)};
	for (uint32_t i = 0; i < n; i++)
		append(t, d, &a[i], top + 1 + i, pool_off, cat);
	free(pool_off);
}

int64_t kt_attach_gpu(const kt_data *d, pt_trace *t, et_error *e)
{
	attach *a = et_xmalloc(((size_t)d->ngpu + 1) * sizeof *a);
	uint32_t n = collect(d, t, a);
	int64_t top = max_id(t);
	int r = 0;
	if (n && (top > INT64_MAX - (int64_t)n || (uint64_t)t->n + n >= UINT32_MAX))
		r = et_fail(e, ET_EXIT_DATA,
		            "%s: no room for %u GPU ops: host node ids or count too large",
		            t->input, n);
	else if (n)
		append_all(t, d, a, n, top);
	free(a);
	return r < 0 ? -1 : (int64_t)n;
}
