/* xir: the per-device program of a compiler reader (xir.h). */
#include "et-convert/xir/xir.h"
#include "et_mem.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void xir_init(xir *x)
{
	memset(x, 0, sizeof *x);
	x->arena = et_arena_new();
}

void xir_free(xir *x)
{
	free(x->op);
	free(x->deps);
	free(x->set);
	free(x->set_hash);
	free(x->members);
	if (x->arena)
		et_arena_free(x->arena);
	memset(x, 0, sizeof *x);
}

const char *xir_str(xir *x, const char *s, size_t n)
{
	if (n == SIZE_MAX)
		n = strlen(s);
	char *c = et_arena_alloc(x->arena, n + 1);
	memcpy(c, s, n);
	c[n] = 0;
	return c;
}

uint32_t xir_add(xir *x, const xir_op *op, const uint32_t *deps, uint32_t n)
{
	ET_GROW(x->op, x->capop, (size_t)x->nop + 1);
	ET_GROW(x->deps, x->capdeps, (size_t)x->ndeps + n);
	xir_op *o = &x->op[x->nop];
	*o = *op;
	o->dep_off = (uint32_t)x->ndeps;
	o->n_deps = 0;
	for (uint32_t i = 0; i < n; i++) { /* operand lists are short: a linear check */
		bool seen = false;
		for (uint32_t k = 0; k < o->n_deps && !seen; k++)
			seen = x->deps[o->dep_off + k] == deps[i];
		if (!seen)
			x->deps[o->dep_off + o->n_deps++] = deps[i];
	}
	x->ndeps += o->n_deps;
	return (uint32_t)x->nop++;
}

static uint64_t set_hash(uint32_t n, uint32_t size, const uint32_t *ids)
{
	uint64_t h = (14695981039346656037ull ^ n) * 1099511628211ull;
	h = (h ^ size) * 1099511628211ull;
	for (size_t i = 0; i < (size_t)n * size; i++)
		h = (h ^ ids[i]) * 1099511628211ull;
	return h;
}

/* An existing set equal to (n, size, ids) of hash h, or UINT32_MAX (a
 * scan of hashes: programs have hundreds of distinct sets, not millions). */
static uint32_t find_set(const xir *x, uint64_t h, uint32_t n, uint32_t size, const uint32_t *ids)
{
	size_t len = (size_t)n * size;
	for (uint32_t i = 0; i < x->nset; i++) {
		const xir_set *s = &x->set[i];
		if (x->set_hash[i] == h && s->n == n && s->size == size &&
		    (len == 0 || memcmp(x->members + s->off, ids, len * sizeof *ids) == 0))
			return i;
	}
	return UINT32_MAX;
}

static uint32_t add_set(xir *x, uint32_t n, uint32_t size, const uint32_t *ids)
{
	uint64_t h = set_hash(n, size, ids);
	uint32_t found = find_set(x, h, n, size, ids);
	if (found != UINT32_MAX)
		return found;
	size_t len = (size_t)n * size;
	size_t cap = x->capset; /* set_hash is parallel to set: the same growth */
	ET_GROW(x->set, x->capset, (size_t)x->nset + 1);
	ET_GROW(x->set_hash, cap, (size_t)x->nset + 1);
	x->set_hash[x->nset] = h;
	ET_GROW(x->members, x->capmem, (size_t)x->nmem + len);
	x->set[x->nset] = (xir_set){.n = n, .size = size, .off = (uint32_t)x->nmem};
	if (len)
		memcpy(x->members + x->nmem, ids, len * sizeof *ids);
	x->nmem += len;
	return x->nset++;
}

uint32_t xir_groups(xir *x, uint32_t ngroups, uint32_t size, const uint32_t *ids)
{
	return size ? add_set(x, ngroups, size, ids) : add_set(x, 1, 0, NULL);
}

uint32_t xir_pairs(xir *x, uint32_t npairs, const uint32_t *pairs)
{
	return add_set(x, npairs, 2, pairs);
}

uint32_t xir_ranks(const xir *x)
{
	uint64_t r =
	    (uint64_t)(x->replicas ? x->replicas : 1) * (x->partitions ? x->partitions : 1);
	return r > UINT32_MAX ? UINT32_MAX : (uint32_t)r;
}

static const char *const kind_name[] = {"comp", "coll", "permute", "send", "recv"};

void xir_dump(FILE *f, const xir *x)
{
	fprintf(f, "module %s replicas %u partitions %u ops %zu sets %u\n",
	        x->module ? x->module : "", x->replicas, x->partitions, x->nop, x->nset);
	for (size_t i = 0; i < x->nop; i++) {
		const xir_op *o = &x->op[i];
		fprintf(f, "%zu %s %s %s %llu %llu %llu,%llu,%llu,%llu %d %u %lld", i,
		        kind_name[o->kind], o->name, o->opcode, (unsigned long long)o->flops,
		        (unsigned long long)o->bytes, (unsigned long long)o->gemm[0],
		        (unsigned long long)o->gemm[1], (unsigned long long)o->gemm[2],
		        (unsigned long long)o->gemm[3], o->coll, o->set, (long long)o->channel);
		for (uint32_t k = 0; k < o->n_deps; k++)
			fprintf(f, " %u", x->deps[o->dep_off + k]);
		putc('\n', f);
	}
	for (uint32_t i = 0; i < x->nset; i++) {
		const xir_set *s = &x->set[i];
		fprintf(f, "set %u n %u size %u:", i, s->n, s->size);
		for (size_t k = 0; k < (size_t)s->n * s->size; k++)
			fprintf(f, " %u", x->members[s->off + k]);
		putc('\n', f);
	}
}

uint32_t xir_gmode_ids(enum xir_gmode m, uint32_t replicas, uint32_t partitions)
{
	return m == XIR_CROSS_PARTITION ? partitions
	       : m == XIR_FLATTENED     ? replicas * partitions
	                                : replicas;
}

void xir_gmode_flatten(enum xir_gmode m, const uint32_t *ids, uint32_t ng, uint32_t size,
                       uint32_t replicas, uint32_t partitions, uint32_t *out, uint32_t *ng2,
                       uint32_t *size2)
{
	uint32_t P = partitions;
	uint32_t copies = m == XIR_CROSS_REPLICA ? P : m == XIR_CROSS_PARTITION ? replicas : 1;
	uint32_t span = m == XIR_REPLICA_AND_PARTITION ? P : 1;
	*ng2 = ng * copies;
	*size2 = size * span;
	/* a replica-and-partition group lists partition by partition, its
	 * replicas within each (XLA's and StableHLO's order) */
	for (uint32_t g = 0; g < ng; g++)
		for (uint32_t c = 0; c < copies; c++)
			for (uint32_t q = 0; q < span; q++)
				for (uint32_t k = 0; k < size; k++) {
					uint32_t id = ids[(size_t)g * size + k];
					*out++ = m == XIR_CROSS_REPLICA     ? id * P + c
					         : m == XIR_CROSS_PARTITION ? c * P + id
					         : m == XIR_FLATTENED       ? id
					                                    : id * P + q;
				}
}

uint32_t xir_groups_flat(xir *x, uint32_t ngroups, uint32_t size, const uint32_t *ids)
{
	/* in any order: a group is a set of ranks (the trace's pg_name) */
	bool all = ngroups == 1 && size == xir_ranks(x);
	uint8_t *seen = all ? et_xcalloc(size, 1) : NULL;
	for (uint32_t i = 0; all && i < size; i++) {
		all = ids[i] < size && !seen[ids[i]];
		if (all)
			seen[ids[i]] = 1;
	}
	free(seen);
	return all ? xir_groups(x, 1, 0, NULL) : xir_groups(x, ngroups, size, ids);
}
