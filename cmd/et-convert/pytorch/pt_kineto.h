/* Kineto linking internals: the compact records kept from a Kineto (or
 * legacy profiler chrome) trace, and the steps of pt_link_kineto.
 *
 * The trace is read one event object at a time (pt_kineto_read.c); only
 * CPU ops, API calls that carry a correlation id, and GPU ops are kept, in
 * about 32 to 64 bytes each, with names deduplicated in an et_strmap (a big
 * trace repeats a few thousand names millions of times) and referred to by
 * their id there. */
#ifndef ET_CONVERT_PYTORCH_PT_KINETO_H
#define ET_CONVERT_PYTORCH_PT_KINETO_H

#include "et-convert/pytorch/pt.h"
#include "et-convert/pytorch/pt_jr.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_strmap.h"

#define KT_NONE UINT32_MAX
/* Ops sharing one id (or one External id) that a lookup looks at: real traces
 * have unique ids; the bound keeps a hostile file from making it quadratic. */
#define KT_SAME_ID_SCAN 16

typedef struct kt_cpu {
	double ts, dur, excl; /* ts relative to kt_data.ts_base */
	int64_t rf, ext;      /* "Record function id", "External id"; PT_NO_ID */
	uint32_t thr;         /* dense (pid, tid) index */
	uint32_t name;        /* id in kt_data.names */
	uint32_t host;        /* matched host node index, KT_NONE */
	uint32_t up;          /* innermost enclosing CPU op of the same thread, KT_NONE */
	uint32_t seq;         /* event order in the file */
} kt_cpu;

/* A runtime/driver API event (cudaLaunchKernel, ...) with its correlation. */
typedef struct kt_launch {
	double ts;
	int64_t corr, ext;
	uint32_t thr, seq;
} kt_launch;

enum kt_gpu_cat { KT_KERNEL, KT_MEMCPY };

typedef struct kt_gpu {
	double ts, dur;
	int64_t corr, stream;
	uint32_t name, pg; /* ids in kt_data.names; pg KT_NONE if absent */
	uint32_t seq;
	uint8_t cat; /* kt_gpu_cat */
	uint8_t has_stream;
} kt_gpu;

typedef struct kt_data {
	kt_cpu *cpu;
	kt_launch *ln;
	kt_gpu *gpu;
	uint32_t ncpu, nln, ngpu;
	size_t capcpu, capln, capgpu;
	uint32_t nthr;
	bool has_rf, has_ext; /* some CPU op carries that id */
	/* Times are kept relative to the whole microseconds of the first event:
	 * as absolute doubles (~1.7e15 us) they would hold only a quarter of a
	 * microsecond, and Kineto writes nanoseconds. */
	bool has_base;
	int64_t ts_base;
	et_strmap names; /* event names, process group names, string pids/tids */
	et_hmap thr;     /* (pid, tid) -> dense thread index */
	/* CPU op indices by (ts, longer first, seq): all of them in by_ts, and
	 * per thread in by_thr, thread k at by_thr[thr_off[k] .. thr_off[k+1])
	 * (pt_kineto_time.c) */
	uint32_t *by_ts, *by_thr, *thr_off;
} kt_data;

/* The reading state of pt_kineto_read.c and pt_kineto_event.c. */
typedef struct krd {
	kt_data *d;
	pt_jr *w;
	et_buf s;  /* decoded string scratch */
	bool bare; /* legacy profiler array: events without "cat" are CPU ops */
	uint32_t seq;
	pj_members members; /* of the event being read */
} krd;

/* pt_kineto_event.c: read the event object at the window start and consume
 * it. */
int kt_event(krd *r);

/* Records by an int64 id, duplicates chained in index (= file) order: a hash
 * table, so that a million lookups cost no sort. Ids PT_NO_ID are left out.
 * The id of element i is the int64_t at base + i*stride + off.
 *
 * Not an et_hmap: built once from a known count and then only read, it is
 * sized up front, and its 16-byte slots (the id kept in the slot: one cache
 * miss per probe) take half the memory of et_hmap's; linking a 1 M-op trace
 * through et_hmap took twice as long in kt_match and kt_attach_gpu. */
typedef struct kt_slot {
	int64_t id;
	uint32_t head; /* element index + 1 of the chain head; 0 = empty */
} kt_slot;

typedef struct kt_idx {
	kt_slot *slot;
	uint32_t *next; /* per element: the next with the same id, or KT_NONE */
	uint32_t mask;
} kt_idx;

void kt_idx_build(kt_idx *x, const void *base, size_t stride, size_t off, uint32_t n);
/* The first element with this id, KT_NONE if none; then x->next[i]. */
uint32_t kt_idx_first(const kt_idx *x, int64_t id);
void kt_idx_free(kt_idx *x);

/* The name of an id of d->names. */
static inline const char *kt_name(const kt_data *d, uint32_t id)
{
	return et_strmap_key(&d->names, id);
}

/* pt_kineto_read.c: read the whole trace into d (zeroed by the caller). */
int kt_read(kt_data *d, const char *path, et_error *e);
/* Link a Kineto trace read by kt_read (path names it in messages): what
 * pt_link_kineto does after reading. */
int pt_link_kineto_data(pt_trace *t, kt_data *d, const char *path, const pt_opts *o, et_error *e);
void kt_free(kt_data *d);
/* Dense index of thread (pid, tid), in order of first appearance. */
uint32_t kt_thread(kt_data *d, int64_t pid, int64_t tid);

/* pt_kineto_match.c: set cpu[].host; returns the number of matched ops. */
uint32_t kt_match(kt_data *d, const pt_trace *t);
/* pt_kineto_order.c: the name-and-order fallback for traces without ids. */
uint32_t kt_match_by_order(kt_data *d, const pt_trace *t);

/* pt_kineto_time.c: per-thread nesting (up, excl, by_ts, by_thr), then,
 * after it, timing and inter-thread dependencies of the matched host nodes. */
void kt_nest(kt_data *d);
void kt_apply_times(const kt_data *d, pt_trace *t);
void kt_thread_deps(const kt_data *d, pt_trace *t);

/* pt_kineto_gpu.c (after kt_nest): append the GPU ops whose launching CPU op
 * is linked as new host nodes; returns the number attached, -1 on error. */
int64_t kt_attach_gpu(const kt_data *d, pt_trace *t, et_error *e);

/* Grow an array of elements of size sz to hold n+1 (et_mem's policy when
 * that is beyond any trace we could read). */
/* The count after one more record: records are indexed by uint32_t, and
 * 2^32 of them cannot come from a file we could read, so the last index is
 * out of memory rather than a wrap. */
static inline size_t kt_next(uint32_t n)
{
	if (n >= UINT32_MAX - 1)
		et_oom(SIZE_MAX);
	return (size_t)n + 1;
}

#endif
