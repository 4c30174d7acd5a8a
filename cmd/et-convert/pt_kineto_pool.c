/* Storage of the Kineto records: growable arrays, the deduplicated name pool
 * (a big trace repeats a few thousand names millions of times) and the
 * (pid, tid) -> thread index table. */
#include "pt_kineto.h"

#include <stdlib.h>
#include <string.h>

void kt_grow(void **p, uint32_t *cap, uint32_t n, size_t sz)
{
	if (n < *cap)
		return;
	if (*cap >= UINT32_MAX / 2)
		abort(); /* 2^31 records cannot come from a file we could read */
	*cap = *cap ? *cap * 2 : 1024;
	*p = et_xrealloc(*p, (size_t)*cap * sz);
}

static uint64_t fnv(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

static uint32_t *name_slot(const kt_data *d, const char *s, size_t n)
{
	uint32_t mask = d->nslotn - 1, h = (uint32_t)fnv(s, n) & mask;
	for (;; h = (h + 1) & mask) {
		uint32_t v = d->nslot[h];
		if (!v)
			return &d->nslot[h];
		const char *o = kt_name(d, v - 1);
		if (strncmp(o, s, n) == 0 && o[n] == 0)
			return &d->nslot[h];
	}
}

static void name_rehash(kt_data *d)
{
	uint32_t *old = d->nslot, oldn = d->nslotn;
	d->nslotn = oldn ? oldn * 2 : 1024;
	d->nslot = et_xcalloc(d->nslotn, sizeof *d->nslot);
	for (uint32_t i = 0; i < oldn; i++)
		if (old[i]) {
			const char *s = kt_name(d, old[i] - 1);
			*name_slot(d, s, strlen(s)) = old[i];
		}
	free(old);
}

uint32_t kt_intern(kt_data *d, const char *s, size_t n)
{
	if (d->nnames * 2 >= d->nslotn)
		name_rehash(d);
	uint32_t *slot = name_slot(d, s, n);
	if (*slot)
		return *slot - 1;
	if (d->names.len + n + 1 >= UINT32_MAX)
		abort(); /* 4 GB of distinct names: not a trace we could hold */
	uint32_t off = (uint32_t)d->names.len;
	et_buf_append(&d->names, s, n);
	et_buf_putc(&d->names, 0);
	*slot = off + 1;
	d->nnames++;
	return off;
}

uint32_t kt_lookup(const kt_data *d, const char *s)
{
	if (!d->nslotn)
		return KT_NONE;
	uint32_t v = *name_slot(d, s, strlen(s));
	return v ? v - 1 : KT_NONE;
}

static uint32_t *thr_slot(const kt_data *d, int64_t pid, int64_t tid)
{
	int64_t k[2] = {pid, tid};
	uint32_t mask = d->tslotn - 1, h = (uint32_t)fnv(k, sizeof k) & mask;
	for (;; h = (h + 1) & mask) {
		uint32_t v = d->tslot[h];
		if (!v || (d->tkey[v - 1][0] == pid && d->tkey[v - 1][1] == tid))
			return &d->tslot[h];
	}
}

uint32_t kt_thread(kt_data *d, int64_t pid, int64_t tid)
{
	if (d->nthr * 2 >= d->tslotn) {
		free(d->tslot);
		d->tslotn = d->tslotn ? d->tslotn * 2 : 64;
		d->tslot = et_xcalloc(d->tslotn, sizeof *d->tslot);
		for (uint32_t i = 0; i < d->nthr; i++)
			*thr_slot(d, d->tkey[i][0], d->tkey[i][1]) = i + 1;
	}
	uint32_t *slot = thr_slot(d, pid, tid);
	if (*slot)
		return *slot - 1;
	kt_grow((void **)&d->tkey, &d->tcap, d->nthr, sizeof *d->tkey);
	d->tkey[d->nthr][0] = pid;
	d->tkey[d->nthr][1] = tid;
	*slot = ++d->nthr;
	return d->nthr - 1;
}

static uint32_t idx_hash(const kt_idx *x, int64_t id)
{
	return (uint32_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) & x->mask;
}

void kt_idx_build(kt_idx *x, const void *base, size_t stride, size_t off, uint32_t n)
{
	uint32_t size = 16;
	while (size < (uint64_t)n * 2 && size < (1u << 31))
		size *= 2;
	x->slot = et_xcalloc(size, sizeof *x->slot);
	x->next = et_xmalloc(((size_t)n + 1) * sizeof *x->next);
	x->mask = size - 1;
	/* backwards, so that each chain runs in index order from its head */
	for (uint32_t i = n; i-- > 0;) {
		int64_t id;
		memcpy(&id, (const char *)base + (size_t)i * stride + off, sizeof id);
		x->next[i] = KT_NONE;
		if (id == PT_NO_ID)
			continue;
		uint32_t h = idx_hash(x, id);
		while (x->slot[h].head && x->slot[h].id != id)
			h = (h + 1) & x->mask;
		x->next[i] = x->slot[h].head ? x->slot[h].head - 1 : KT_NONE;
		x->slot[h] = (kt_slot){id, i + 1};
	}
}

uint32_t kt_idx_first(const kt_idx *x, int64_t id)
{
	for (uint32_t h = idx_hash(x, id); x->slot[h].head; h = (h + 1) & x->mask)
		if (x->slot[h].id == id)
			return x->slot[h].head - 1;
	return KT_NONE;
}

void kt_idx_free(kt_idx *x)
{
	free(x->slot);
	free(x->next);
	memset(x, 0, sizeof *x);
}

void kt_free(kt_data *d)
{
	free(d->cpu);
	free(d->ln);
	free(d->gpu);
	et_buf_free(&d->names);
	free(d->nslot);
	free(d->tkey);
	free(d->tslot);
	free(d->by_ts);
	free(d->by_thr);
	free(d->thr_off);
	memset(d, 0, sizeof *d);
}
