/* hlo_groups: replica groups and pairs in flattened device ids
 * (hlo_groups.h). */
#include "et-convert/hlo/hlo_groups.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void hlo_iota_expand(const int64_t *dims, const int64_t *perm, uint32_t rank, uint32_t *out)
{
	uint64_t stride[HLO_MAX_RANK], idx[HLO_MAX_RANK] = {0}, n = 1, v = 0;
	for (uint32_t k = rank; k-- > 0;) {
		stride[k] = n;
		n *= (uint64_t)dims[k];
	}
	/* an odometer over the transposed dimensions, v the value it points to */
	for (uint64_t f = 0; f < n; f++) {
		out[f] = (uint32_t)v;
		for (uint32_t k = rank; k-- > 0;) {
			uint64_t d = (uint64_t)perm[k];
			idx[k]++;
			v += stride[d];
			if (idx[k] < (uint64_t)dims[d])
				break;
			v -= stride[d] * (uint64_t)dims[d];
			idx[k] = 0;
		}
	}
}

static bool has_global_flag(uint16_t op)
{
	return op == HLO_OP_ALL_REDUCE || op == HLO_OP_ALL_GATHER || op == HLO_OP_REDUCE_SCATTER;
}

int hlo_group_mode(const hlo_module *m, uint32_t i, enum xir_gmode *mode, et_error *e)
{
	const hlo_inst *in = &m->inst[i];
	bool channel = in->flags & HLO_F_CHANNEL, global = in->flags & HLO_F_GLOBAL;
	if (!has_global_flag(in->op))
		*mode = channel ? XIR_CROSS_PARTITION : XIR_CROSS_REPLICA;
	else if (!channel && global)
		return hlo_fail(m, e, in->pos, "use_global_device_ids=true needs a channel_id");
	else
		*mode = !channel ? XIR_CROSS_REPLICA
		        : global ? XIR_FLATTENED
		                 : XIR_REPLICA_AND_PARTITION;
	return 0;
}

/* The groups as written, g->ngroups * g->size ids (freed by the caller). */
static uint32_t *raw_groups(const hlo_module *m, const hlo_groups *g, uint32_t count, uint32_t *ng,
                            uint32_t *size)
{
	uint32_t *ids;
	if (g->form == HLO_G_LIST) {
		*ng = g->ngroups;
		*size = g->size;
		ids = et_xmalloc(((size_t)g->ids.n + 1) * sizeof *ids);
		for (uint32_t k = 0; k < g->ids.n; k++) {
			int64_t v = m->ints[g->ids.off + k];
			ids[k] = v < 0 || v >= (int64_t)count ? UINT32_MAX : (uint32_t)v;
		}
		return ids;
	}
	if (g->form == HLO_G_IOTA) {
		*ng = g->ngroups;
		*size = g->size;
		ids = et_xmalloc(((size_t)g->ngroups * g->size + 1) * sizeof *ids);
		hlo_iota_expand(hlo_ints_at(m, g->dims.off), hlo_ints_at(m, g->perm.off), g->dims.n,
		                ids);
		for (size_t k = 0; g->map.n && k < (size_t)g->ngroups * g->size; k++)
			ids[k] = (uint32_t)m->ints[g->map.off + ids[k]];
		for (size_t k = 0; k < (size_t)g->ngroups * g->size; k++)
			if (ids[k] >= count)
				ids[k] = UINT32_MAX;
		return ids;
	}
	*ng = 1;
	*size = count;
	ids = et_xmalloc(((size_t)count + 1) * sizeof *ids);
	for (uint32_t k = 0; k < count; k++)
		ids[k] = k;
	return ids;
}

/* Every id in range and none twice. */
static int check_ids(const hlo_module *m, size_t pos, const uint32_t *ids, size_t n, uint32_t count,
                     const char *what, et_error *e)
{
	uint8_t *seen = et_xcalloc((size_t)count + 1, 1);
	int r = 0;
	for (size_t k = 0; k < n && r == 0; k++) {
		if (ids[k] == UINT32_MAX)
			r = hlo_fail(m, e, pos, "%s names a device beyond the %u there are", what,
			             count);
		else if (seen[ids[k]]++)
			r = hlo_fail(m, e, pos, "%s names %u twice", what, ids[k]);
	}
	free(seen);
	return r;
}

/* The groups are one group of every device, told without listing them:
 * "{}" in a mode that spans the other dimension whole, or one iota group
 * of every id (a reshape and transpose of iota(n) is a permutation of
 * 0..n-1). A group of all 16,777,216 devices then costs nothing. */
static bool every_device(const hlo_groups *g, enum xir_gmode mode, uint32_t count, uint32_t R,
                         uint32_t P)
{
	bool one = g->form == HLO_G_ALL ||
	           (g->form == HLO_G_IOTA && g->map.n == 0 && g->ngroups == 1 && g->size == count);
	if (!one)
		return false;
	return mode == XIR_FLATTENED || mode == XIR_REPLICA_AND_PARTITION ||
	       (mode == XIR_CROSS_REPLICA ? P : R) == 1;
}

int hlo_group_set(const hlo_module *m, uint32_t i, xir *x, uint32_t *set, et_error *e)
{
	const hlo_inst *in = &m->inst[i];
	const hlo_attr *a = hlo_attr_of(m, in);
	hlo_groups none = {.form = HLO_G_ALL, .pos = in->pos};
	const hlo_groups *g = a && a->groups.form != HLO_G_NONE ? &a->groups : &none;
	uint32_t R = x->replicas ? x->replicas : 1, P = x->partitions ? x->partitions : 1;
	enum xir_gmode mode;
	if (hlo_group_mode(m, i, &mode, e) < 0)
		return -1;
	if (mode == XIR_FLATTENED && g->form == HLO_G_ALL)
		return hlo_fail(m, e, g->pos,
		                "use_global_device_ids=true needs the replica groups "
		                "listed, not {}");
	uint32_t count = xir_gmode_ids(mode, R, P), ng, size, ng2, size2;
	if (every_device(g, mode, count, R, P)) {
		*set = xir_groups(x, 1, 0, NULL);
		return 0;
	}
	uint32_t *ids = raw_groups(m, g, count, &ng, &size);
	if (check_ids(m, g->pos, ids, (size_t)ng * size, count, "replica_groups", e) < 0) {
		free(ids);
		return -1;
	}
	/* the groups name each id once, so their flattened copies name each
	 * device at most once: no more than R * P ids */
	uint64_t nflat = (uint64_t)ng * size *
	                 (mode == XIR_CROSS_REPLICA     ? P
	                  : mode == XIR_CROSS_PARTITION ? R
	                  : mode == XIR_FLATTENED       ? 1
	                                                : P);
	uint32_t *flat = et_xmalloc((nflat + 1) * sizeof *flat);
	xir_gmode_flatten(mode, ids, ng, size, R, P, flat, &ng2, &size2);
	*set = xir_groups_flat(x, ng2, size2, flat);
	free(ids);
	free(flat);
	return 0;
}

int hlo_pair_set(const hlo_module *m, uint32_t i, xir *x, uint32_t *set, et_error *e)
{
	const hlo_inst *in = &m->inst[i];
	const hlo_attr *a = hlo_attr_of(m, in);
	uint32_t R = x->replicas ? x->replicas : 1, P = x->partitions ? x->partitions : 1;
	bool by_partition = in->flags & HLO_F_CHANNEL;
	uint32_t count = by_partition ? P : R, outer = by_partition ? R : P;
	uint32_t n = a ? a->pairs.n / 2 : 0;
	if ((uint64_t)n * outer > HLO_MAX_IDS)
		return hlo_fail(m, e, a->pairs_pos, "more than %u pairs", HLO_MAX_IDS);
	uint32_t *pairs = et_xmalloc(((size_t)n * outer * 2 + 1) * sizeof *pairs), *o = pairs;
	for (uint32_t c = 0; c < outer; c++)
		for (uint32_t k = 0; k < 2 * n; k++) {
			int64_t v = m->ints[a->pairs.off + k];
			if (v < 0 || v >= (int64_t)count) {
				free(pairs);
				return hlo_fail(m, e, a->pairs_pos,
				                "a pair names %lld, beyond the %u %s there are",
				                (long long)v, count,
				                by_partition ? "partitions" : "replicas");
			}
			*o++ = by_partition ? c * P + (uint32_t)v : (uint32_t)v * P + c;
		}
	*set = xir_pairs(x, n * outer, pairs);
	free(pairs);
	return 0;
}
