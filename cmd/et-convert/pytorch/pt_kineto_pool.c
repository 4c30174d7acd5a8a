/* Storage of the Kineto records: growable arrays, the (pid, tid) -> thread
 * index (an et_hmap) and the id -> records index (kt_idx). Names are interned
 * straight into the et_strmap kt_data.names. */
#include "et-convert/pytorch/pt_kineto.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

uint32_t kt_thread(kt_data *d, int64_t pid, int64_t tid)
{
	/* a new thread takes the next index: existing ones are all below it */
	uint64_t *ix = et_hmap_put(&d->thr, (uint64_t)pid, (uint64_t)tid, d->nthr);
	if (*ix == d->nthr)
		d->nthr++;
	return (uint32_t)*ix;
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
	et_strmap_free(&d->names);
	et_hmap_free(&d->thr);
	free(d->by_ts);
	free(d->by_thr);
	free(d->thr_off);
	memset(d, 0, sizeof *d);
}
