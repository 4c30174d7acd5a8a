/* shlo_coll: collectives, permutes, send and recv, with their process
 * groups resolved by the StableHLO rules into flattened device ids
 * (replica * partitions + partition) (shlo.h). */
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_mem.h"
#include "et_sat.h"
#include "et_types.h"

#include <string.h>

/* The modes are xir's (xir.h), in StableHLO's words: cross-replica groups
 * of replicas within each partition, cross-partition groups of partitions
 * within each replica, each replica group x every partition, the ids as
 * written. */
#define CROSS_REPLICA XIR_CROSS_REPLICA
#define CROSS_PARTITION XIR_CROSS_PARTITION
#define REPLICA_AND_PART XIR_REPLICA_AND_PARTITION
#define FLATTENED XIR_FLATTENED
static const char *const id_kind[] = {"replica", "partition", "replica", "device"};

static int channel(shlo_b *b, const shlo_op *o, int64_t *ch, bool *has)
{
	const shlo_attr *a = shlo_find_attr(b->p, o, "channel_handle");
	*ch = 0;
	*has = a && a->val != SIZE_MAX;
	if (*has)
		return shlo_attr_channel(&b->l, a->val, ch);
	a = shlo_find_attr(b->p, o, "channel_id");
	*has = a && a->val != SIZE_MAX;
	return *has ? shlo_attr_int(&b->l, a->val, ch) : 0;
}

/* A boolean attribute: present as a unit attribute, or = true. */
static int flag(shlo_b *b, const shlo_op *o, const char *key, bool *v)
{
	const shlo_attr *a = shlo_find_attr(b->p, o, key);
	int64_t x = 0;
	*v = a != NULL;
	if (!a || a->val == SIZE_MAX)
		return 0;
	if (shlo_attr_int(&b->l, a->val, &x) < 0)
		return -1;
	*v = x != 0;
	return 0;
}

static uint64_t payload(const shlo_b *b, const shlo_op *o, bool results)
{
	uint64_t s = 0;
	uint32_t n = results ? o->nval : o->nuse;
	for (uint32_t i = 0; i < n; i++) {
		const shlo_type *t = results ? shlo_out_type(b->p, o, i) : shlo_in_type(b->p, o, i);
		if (t)
			s = et_sat_add(s, t->bytes);
	}
	return s;
}

/* The matrix attribute key into b->m (0 x 0 when absent), -1 padding
 * dropped from each row (the rows must keep one length). */
static int matrix(shlo_b *b, const shlo_op *o, const char *key, uint32_t *rows, uint32_t *cols)
{
	const shlo_attr *a = shlo_find_attr(b->p, o, key);
	*rows = *cols = 0;
	b->m.n = 0;
	if (!a || a->val == SIZE_MAX)
		return 0;
	if (shlo_attr_matrix(&b->l, a->val, &b->m, rows, cols) < 0)
		return -1;
	size_t k = 0;
	uint32_t width = 0;
	for (uint32_t r = 0; r < *rows; r++) {
		uint32_t n = 0;
		for (uint32_t c = 0; c < *cols; c++)
			if (b->m.v[(size_t)r * *cols + c] != -1) {
				b->m.v[k++] = b->m.v[(size_t)r * *cols + c];
				n++;
			}
		if (r && n != width)
			return shlo_b_fail(b, a->val, "%s: groups of different sizes (%u and %u)",
			                   key, width, n);
		width = n;
	}
	*cols = width;
	if (width == 0)
		*rows = 0;
	b->m.n = k;
	return 0;
}

static int check_ids(shlo_b *b, const shlo_op *o, enum xir_gmode md, uint32_t n)
{
	for (size_t i = 0; i < b->m.n; i++)
		if (b->m.v[i] < 0 || (uint64_t)b->m.v[i] >= n)
			return shlo_b_fail(
			    b, o->off,
			    "%s id %lld out of range: the program has %u (%u replicas x "
			    "%u partitions)",
			    id_kind[md], (long long)b->m.v[i], n, b->replicas, b->partitions);
	return 0;
}

/* Room for n ids in b->ids, which starts empty. */
static void ids_reserve(shlo_b *b, uint64_t n)
{
	b->nids = 0;
	ET_GROW(b->ids, b->capids, (size_t)n);
}

/* The groups of b->m (rows x cols) under mode md, flattened into b->ids. */
static int expand(shlo_b *b, const shlo_op *o, enum xir_gmode md, uint32_t rows, uint32_t cols,
                  uint32_t *ngroups, uint32_t *size)
{
	uint32_t R = b->replicas, P = b->partitions, n = xir_gmode_ids(md, R, P);
	if (rows == 0) { /* empty: everyone */
		b->m.n = 0;
		for (uint32_t i = 0; i < n; i++)
			shlo_i64s_push(&b->m, i);
		rows = 1;
		cols = n;
	}
	if (check_ids(b, o, md, n) < 0)
		return -1;
	uint64_t copies = md == CROSS_REPLICA ? P : md == CROSS_PARTITION ? R : 1;
	uint64_t width = md == REPLICA_AND_PART ? (uint64_t)cols * P : cols;
	if ((uint64_t)rows * copies * width > SHLO_MAX_MEMBERS)
		return shlo_b_fail(b, o->off, "groups of more than %u members in all",
		                   SHLO_MAX_MEMBERS);
	/* the written ids, checked in range above, then flattened after them */
	size_t written = (size_t)rows * cols;
	ids_reserve(b, written + (uint64_t)rows * copies * width);
	for (size_t i = 0; i < written; i++)
		b->ids[i] = (uint32_t)b->m.v[i];
	xir_gmode_flatten(md, b->ids, rows, cols, R, P, b->ids + written, ngroups, size);
	memmove(b->ids, b->ids + written, (size_t)*ngroups * *size * sizeof *b->ids);
	b->nids = (size_t)*ngroups * *size;
	return 0;
}

/* Fails when n more members would pass SHLO_MAX_MEMBERS in the xir. */
static int room(shlo_b *b, const shlo_op *o, uint64_t n)
{
	if (b->x->nmem + n > SHLO_MAX_MEMBERS)
		return shlo_b_fail(b, o->off, "more than %u group members in all",
		                   SHLO_MAX_MEMBERS);
	return 0;
}

static int groups(shlo_b *b, const shlo_op *o, enum xir_gmode md, xir_op *xo)
{
	uint32_t rows, cols, ng = 0, size = 0;
	if (matrix(b, o, "replica_groups", &rows, &cols) < 0 ||
	    expand(b, o, md, rows, cols, &ng, &size) < 0 || room(b, o, (uint64_t)ng * size) < 0)
		return -1;
	xo->kind = XIR_COLL;
	xo->set = b->dry ? 0 : xir_groups_flat(b->x, ng, size, b->ids);
	return 0;
}

static int pairs(shlo_b *b, const shlo_op *o, bool cross_partition, xir_op *xo)
{
	uint32_t rows, cols;
	const shlo_attr *a = shlo_find_attr(b->p, o, "source_target_pairs");
	if (matrix(b, o, "source_target_pairs", &rows, &cols) < 0)
		return -1;
	if (rows && cols != 2)
		return shlo_b_fail(b, a->val, "expected pairs (a matrix of 2 columns)");
	uint64_t R = b->replicas, P = b->partitions, copies = cross_partition ? R : P;
	if (check_ids(b, o, cross_partition ? CROSS_PARTITION : CROSS_REPLICA,
	              (uint32_t)(cross_partition ? P : R)) < 0)
		return -1;
	if ((uint64_t)rows * copies * 2 > SHLO_MAX_MEMBERS)
		return shlo_b_fail(b, o->off, "pairs of more than %u members in all",
		                   SHLO_MAX_MEMBERS);
	ids_reserve(b, (uint64_t)rows * copies * 2);
	for (uint32_t i = 0; i < rows; i++)
		for (uint64_t c = 0; c < copies; c++)
			for (int k = 0; k < 2; k++) {
				uint64_t id = (uint64_t)b->m.v[2 * i + k];
				b->ids[b->nids++] =
				    (uint32_t)(cross_partition ? c * P + id : id * P + c);
			}
	if (room(b, o, b->nids) < 0)
		return -1;
	xo->set = b->dry ? 0 : xir_pairs(b->x, (uint32_t)(rows * copies), b->ids);
	return 0;
}

/* send / recv: peers from source_target_pairs; host transfers and sends
 * without pairs are not device-to-device communication we can place. */
static int p2p(shlo_b *b, uint32_t id, bool cross_partition, xir_op *xo, bool *skip)
{
	shlo_op *o = &b->p->op[id];
	bool host;
	if (flag(b, o, "is_host_transfer", &host) < 0)
		return -1;
	if (host || !shlo_find_attr(b->p, o, "source_target_pairs")) {
		if (!o->seen)
			shlo_b_warn(
			    b, o->off, "%s skipped: %s", o->kind == SHLO_OP_SEND ? "send" : "recv",
			    host ? "a host transfer" : "no source_target_pairs (peers unknown)");
		o->seen = 1;
		*skip = true;
		return 0;
	}
	xo->kind = o->kind == SHLO_OP_SEND ? XIR_SEND : XIR_RECV;
	xo->bytes = payload(b, o, o->kind == SHLO_OP_RECV);
	return pairs(b, o, cross_partition, xo);
}

int shlo_coll(shlo_b *b, uint32_t id, xir_op *xo, bool *skip)
{
	const shlo_op *o = &b->p->op[id];
	int64_t ch;
	bool has, global;
	if (channel(b, o, &ch, &has) < 0 || flag(b, o, "use_global_device_ids", &global) < 0)
		return -1;
	xo->channel = has && ch > 0 ? ch : -1; /* handle <= 0 is no channel */
	xo->bytes = payload(b, o, false);
	enum xir_gmode three = global ? FLATTENED : ch > 0 ? REPLICA_AND_PART : CROSS_REPLICA;
	enum xir_gmode two = ch > 0 ? CROSS_PARTITION : CROSS_REPLICA;
	switch (o->kind) {
	case SHLO_OP_ALL_REDUCE:
		xo->coll = ET_COLL_ALL_REDUCE;
		return groups(b, o, three, xo);
	case SHLO_OP_ALL_GATHER:
		xo->coll = ET_COLL_ALL_GATHER;
		return groups(b, o, three, xo);
	case SHLO_OP_REDUCE_SCATTER:
		xo->coll = ET_COLL_REDUCE_SCATTER;
		return groups(b, o, three, xo);
	case SHLO_OP_ALL_TO_ALL:
		xo->coll = ET_COLL_ALL_TO_ALL;
		return groups(b, o, two, xo);
	case SHLO_OP_BROADCAST:
		xo->coll = ET_COLL_BROADCAST;
		return groups(b, o, two, xo);
	case SHLO_OP_PERMUTE:
		xo->kind = XIR_PERMUTE;
		return pairs(b, o, ch > 0, xo);
	default:
		return p2p(b, id, ch > 0, xo, skip);
	}
}
