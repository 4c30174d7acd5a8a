/* One Kineto trace event, read straight from the et_src window: its members
 * are found in a single pass (pj_scan_object: no first pass to find where
 * the event ends), and only CPU ops, API calls and GPU ops are kept. A big
 * trace holds millions of events, so keys are told apart by length before
 * any compare. */
#include "et-convert/pytorch/pt_json.h"
#include "et-convert/pytorch/pt_kineto.h"
#include "et_jsonscan.h"
#include "et_mem.h"

#include <math.h>
#include <string.h>

enum member { M_PH, M_CAT, M_NAME, M_PID, M_TID, M_TS, M_DUR, M_ARGS, M_N };

typedef struct kev {
	pj_span m[M_N];
} kev;

typedef struct kargs {
	int64_t rf, ext, corr, stream;
	bool has_stream;
	pj_span pg;
} kargs;

enum kind { K_SKIP, K_CPU, K_LAUNCH, K_KERNEL, K_MEMCPY };

static int member_ix(pj_span k)
{
	const char *p = k.p;
	switch (k.n) {
	case 2:
		return memcmp(p, "ph", 2) == 0 ? M_PH : memcmp(p, "ts", 2) == 0 ? M_TS : -1;
	case 3:
		return memcmp(p, "cat", 3) == 0   ? M_CAT
		       : memcmp(p, "pid", 3) == 0 ? M_PID
		       : memcmp(p, "tid", 3) == 0 ? M_TID
		       : memcmp(p, "dur", 3) == 0 ? M_DUR
		                                  : -1;
	case 4:
		return memcmp(p, "name", 4) == 0 ? M_NAME : memcmp(p, "args", 4) == 0 ? M_ARGS : -1;
	}
	return -1;
}

/* The members of the event the scan found; of a repeated key the last. */
static void pick_members(const pj_members *m, kev *ev)
{
	memset(ev, 0, sizeof *ev);
	for (size_t i = 0; i < m->n; i++) {
		int k = member_ix(m->v[i].key);
		if (k >= 0)
			ev->m[k] = m->v[i].val;
	}
}

/* v is exactly the JSON string s (Kineto categories carry no escapes). */
static bool str_is(pj_span v, const char *s)
{
	size_t n = strlen(s);
	return v.n == n + 2 && v.p[0] == '"' && memcmp(v.p + 1, s, n) == 0;
}

static int classify(const krd *r, const kev *ev)
{
	pj_span ph = ev->m[M_PH], cat = ev->m[M_CAT], pid = ev->m[M_PID];
	if (ph.p && !str_is(ph, "X"))
		return K_SKIP; /* flow arrows, metadata, instants, counters */
	if (!cat.p) {
		/* The legacy autograd profiler writes no category; its device
		 * events sit under pid "CUDA functions". */
		bool cuda = pid.p && pid.n > 5 && memcmp(pid.p, "\"CUDA", 5) == 0;
		return r->bare && ph.p && !cuda ? K_CPU : K_SKIP;
	}
	if (str_is(cat, "cpu_op") || str_is(cat, "user_annotation"))
		return K_CPU;
	/* Every API call is kept, not only the launch names of the reference
	 * (cudaLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync, hip*, ...): the
	 * correlation id ties a GPU op to exactly the call that issued it,
	 * whatever its name (cudaGraphLaunch, cudaMemcpy2DAsync, ...). */
	if (str_is(cat, "cuda_runtime") || str_is(cat, "cuda_driver"))
		return K_LAUNCH;
	if (str_is(cat, "kernel"))
		return K_KERNEL;
	if (str_is(cat, "gpu_memcpy"))
		return K_MEMCPY;
	return K_SKIP; /* gpu_memset, ac2g, python_function, ... */
}

/* An id: an integer, else absent (Kineto writes no other kind). */
static void get_id(pj_span v, int64_t *out)
{
	int64_t x;
	if (pj_int(v, &x))
		*out = x;
}

static void arg(kargs *a, pj_span k, pj_span x)
{
	switch (k.n) {
	case 6:
		if (memcmp(k.p, "stream", 6) == 0 && pj_int(x, &a->stream))
			a->has_stream = true;
		break;
	case 11:
		if (memcmp(k.p, "External id", 11) == 0)
			get_id(x, &a->ext);
		else if (memcmp(k.p, "correlation", 11) == 0)
			get_id(x, &a->corr);
		break;
	case 18:
		if (memcmp(k.p, "Record function id", 18) == 0)
			get_id(x, &a->rf);
		else if (memcmp(k.p, "Process Group Name", 18) == 0 && x.p[0] == '"')
			a->pg = x;
		break;
	}
}

static int read_args(pj_span v, kargs *a, size_t *bad)
{
	size_t pos = 0;
	pj_span k, x;
	int rc;
	while ((rc = pj_next_member(v.p, v.n, &pos, &k, &x, bad)) == 1)
		arg(a, k, x);
	return rc;
}

/* pid or tid: a number, or a string (the legacy profiler's "CPU functions")
 * mapped to a value no number takes. */
static int64_t thread_part(krd *r, pj_span v)
{
	int64_t x = 0;
	if (!v.p || pj_int(v, &x))
		return x;
	return INT64_MIN + 1 + (int64_t)et_strmap_intern(&r->d->names, v.p, v.n);
}

static uint32_t thread_of(krd *r, const kev *ev)
{
	return kt_thread(r->d, thread_part(r, ev->m[M_PID]), thread_part(r, ev->m[M_TID]));
}

/* An error at member value v of the event that starts the window. */
static int bad_member(krd *r, const char *ev, pj_span v, const char *what)
{
	return pt_jr_fail(r->w, v.p ? (size_t)(v.p - ev) : 0, what);
}

/* A number [-]digits[.digits] as whole and fractional parts (same sign);
 * false for other forms (exponents), read as one double instead. */
static bool split_number(pj_span v, int64_t *whole, double *frac)
{
	size_t i = v.n && v.p[0] == '-', dot = i;
	while (dot < v.n && v.p[dot] >= '0' && v.p[dot] <= '9')
		dot++;
	if (dot == i || dot - i > 18)
		return false;
	for (size_t j = dot + 1; j < v.n; j++)
		if (v.p[j] < '0' || v.p[j] > '9')
			return false;
	if (dot < v.n && (v.p[dot] != '.' || dot + 1 == v.n))
		return false;
	if (!pj_int((pj_span){v.p, dot}, whole))
		return false;
	*frac = 0;
	if (dot < v.n && !pj_double((pj_span){v.p + dot, v.n - dot}, frac))
		return false;
	*frac = v.p[0] == '-' ? -*frac : *frac;
	return true;
}

/* ts relative to the first event's whole microseconds (kt_data.ts_base). */
static bool read_ts(kt_data *d, pj_span v, double *ts)
{
	int64_t whole;
	double frac;
	if (!split_number(v, &whole, &frac)) {
		if (!pj_double(v, &frac) || !isfinite(frac) || fabs(frac) >= 1e18)
			return false;
		whole = (int64_t)frac;
		frac -= (double)whole;
	}
	if (!d->has_base) {
		d->ts_base = whole;
		d->has_base = true;
	}
	/* both within +-1e18: no overflow */
	*ts = (double)(whole - d->ts_base) + frac;
	return true;
}

/* ts (required) and dur (0 if absent): finite, dur not negative. */
static int read_times(krd *r, const kev *ev, const char *p, double *ts, double *dur)
{
	pj_span t = ev->m[M_TS], d = ev->m[M_DUR];
	if (!t.p || !read_ts(r->d, t, ts))
		return bad_member(r, p, t, "trace event without a numeric \"ts\"");
	*dur = 0;
	if (d.p && (!pj_double(d, dur) || !isfinite(*dur) || *dur < 0))
		return bad_member(r, p, d, "\"dur\" is not a non-negative number");
	return 0;
}

static int read_name(krd *r, const kev *ev, const char *p, uint32_t *id)
{
	pj_span v = ev->m[M_NAME];
	if (!v.p || !pj_string(v, &r->s))
		return bad_member(r, p, v, "trace event without a string \"name\"");
	*id = et_strmap_intern(&r->d->names, (const char *)r->s.data, r->s.len - 1);
	return 0;
}

static void store_cpu(krd *r, const kev *ev, const kargs *a, double ts, double dur, uint32_t name)
{
	kt_data *d = r->d;
	if (strstr(kt_name(d, name), "ProfilerStep"))
		return; /* the profiler's own step annotation has no host op */
	uint32_t thr = thread_of(r, ev);
	ET_GROW(d->cpu, d->capcpu, kt_next(d->ncpu));
	d->cpu[d->ncpu++] = (kt_cpu){.ts = ts,
	                             .dur = dur,
	                             .excl = dur,
	                             .rf = a->rf,
	                             .ext = a->ext,
	                             .thr = thr,
	                             .name = name,
	                             .host = KT_NONE,
	                             .up = KT_NONE,
	                             .seq = r->seq};
	d->has_rf |= a->rf != PT_NO_ID;
	d->has_ext |= a->ext != PT_NO_ID;
}

static void store_launch(krd *r, const kev *ev, const kargs *a, double ts)
{
	kt_data *d = r->d;
	if (a->corr == PT_NO_ID)
		return;
	uint32_t thr = thread_of(r, ev);
	ET_GROW(d->ln, d->capln, kt_next(d->nln));
	d->ln[d->nln++] =
	    (kt_launch){.ts = ts, .corr = a->corr, .ext = a->ext, .thr = thr, .seq = r->seq};
}

static void store_gpu(krd *r, const kargs *a, int kind, double ts, double dur, uint32_t name)
{
	kt_data *d = r->d;
	uint32_t pg = KT_NONE;
	if (a->pg.p && pj_string(a->pg, &r->s))
		pg = et_strmap_intern(&d->names, (const char *)r->s.data, r->s.len - 1);
	ET_GROW(d->gpu, d->capgpu, kt_next(d->ngpu));
	d->gpu[d->ngpu++] = (kt_gpu){.ts = ts,
	                             .dur = dur,
	                             .corr = a->corr,
	                             .stream = a->stream,
	                             .name = name,
	                             .pg = pg,
	                             .seq = r->seq,
	                             .cat = kind == K_KERNEL ? KT_KERNEL : KT_MEMCPY,
	                             .has_stream = a->has_stream};
}

/* p: the event text at the window start. */
static int store(krd *r, const kev *ev, int kind, const char *p)
{
	kargs a = {PT_NO_ID, PT_NO_ID, PT_NO_ID, 0, false, {NULL, 0}};
	pj_span args = ev->m[M_ARGS];
	size_t bad = 0;
	if (args.p && args.p[0] == '{' && read_args(args, &a, &bad) < 0)
		return pt_jr_fail(r->w, (size_t)(args.p - p) + bad, "malformed \"args\"");
	double ts = 0, dur = 0;
	uint32_t name = 0;
	if (read_times(r, ev, p, &ts, &dur) < 0)
		return -1;
	if (kind == K_LAUNCH)
		store_launch(r, ev, &a, ts);
	else if (read_name(r, ev, p, &name) < 0)
		return -1;
	else if (kind == K_CPU)
		store_cpu(r, ev, &a, ts, dur, name);
	else
		store_gpu(r, &a, kind, ts, dur, name);
	return 0;
}

int kt_event(krd *r)
{
	pt_jr *w = r->w;
	for (size_t want = 1 << 16;; want *= 2) {
		int64_t a = et_src_fill(w->src, want, w->e);
		if (a < 0)
			return -1;
		const char *p = (const char *)et_src_data(w->src);
		if (a == 0 || p[0] != '{')
			return pt_jr_fail(w, 0, "a trace event that is not an object");
		size_t end = 0, bad = 0;
		int rc = pj_scan_object(p, (size_t)a, &r->members, &end, &bad);
		if (rc == 0 && (size_t)a < want) /* the whole file is in the window */
			return pt_jr_fail(w, (size_t)a, "unexpected end of JSON");
		if (rc == 0)
			continue;
		if (rc < 0)
			return pt_jr_fail(w, rc == -1 ? bad : r->members.bad,
			                  "malformed trace event");
		kev ev;
		pick_members(&r->members, &ev);
		r->seq++;
		int kind = classify(r, &ev);
		if (kind != K_SKIP && store(r, &ev, kind, p) < 0)
			return -1;
		pt_jr_consume(w, end);
		return 0;
	}
}
