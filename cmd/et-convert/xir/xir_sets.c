/* xir_sets: per-rank group ids and peers of a program's sets (xir_sets.h). */
#include "et-convert/xir/xir_sets.h"
#include "et_hmap.h"
#include "et_jsonw.h"
#include "et_mem.h"
#include "et_output.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* FNV-1a over a sorted member list: the registry's key. */
static uint64_t group_hash(const uint32_t *m, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t i = 0; i < n; i++) {
		h ^= m[i];
		h *= 1099511628211ull;
	}
	return h;
}

typedef struct registry {
	et_hmap ids; /* (hash, size) -> first id of that key + 1; chains via next */
	uint32_t *next;
	size_t cap, capgmem; /* of next, goff and gsize; of gmem */
} registry;

/* The id of the sorted group m[0..n): 0 when it is every rank, else its
 * registered id (a new one for a group not seen yet). */
static int32_t group_id(xir_sets *t, registry *r, const uint32_t *m, uint32_t n)
{
	if (n == t->nranks)
		return 0; /* sorted and without repeats: 0..n-1 */
	uint64_t h = group_hash(m, n);
	uint64_t *head = et_hmap_put(&r->ids, h, n, 0);
	for (uint32_t id = (uint32_t)*head; id; id = r->next[id - 1])
		if (memcmp(t->gmem + t->goff[id - 1], m, (size_t)n * sizeof *m) == 0)
			return (int32_t)id;
	uint32_t id = ++t->ngroups;
	size_t c = r->cap, c2 = r->cap; /* parallel arrays: the same growth */
	ET_GROW(r->next, r->cap, id);
	ET_GROW(t->goff, c, id);
	ET_GROW(t->gsize, c2, id);
	uint32_t off = id > 1 ? t->goff[id - 2] + t->gsize[id - 2] : 0;
	ET_GROW(t->gmem, r->capgmem, (size_t)off + n);
	memcpy(t->gmem + off, m, (size_t)n * sizeof *m);
	t->goff[id - 1] = off;
	t->gsize[id - 1] = n;
	r->next[id - 1] = (uint32_t)*head;
	*head = id;
	return (int32_t)id;
}

static int32_t *table(uint32_t n)
{
	int32_t *v = et_xmalloc((size_t)(n ? n : 1) * sizeof *v);
	memset(v, 0xff, (size_t)n * sizeof *v);
	return v;
}

/* Set s as groups: every member's group id. */
static int build_groups(xir_sets *t, registry *r, const xir *x, uint32_t s, const xir_op *op,
                        const char *input, et_error *e)
{
	const xir_set *set = &x->set[s];
	int32_t *g = t->gid[s] = table(t->nranks);
	if (set->size == 0) {
		memset(g, 0, (size_t)t->nranks * sizeof *g);
		return 0;
	}
	uint32_t *m = et_xmalloc((size_t)set->size * sizeof *m);
	int rc = 0;
	for (uint32_t k = 0; k < set->n && rc == 0; k++) {
		memcpy(m, x->members + set->off + (size_t)k * set->size, set->size * sizeof *m);
		qsort(m, set->size, sizeof *m, cmp_u32);
		for (uint32_t i = 0; i < set->size && rc == 0; i++)
			if (m[i] >= t->nranks)
				rc = et_fail(
				    e, ET_EXIT_DATA,
				    "%s: %s: its groups name device %u, the program has %u ranks",
				    input, op->name, m[i], t->nranks);
			else if (g[m[i]] >= 0 || (i && m[i] == m[i - 1]))
				rc = et_fail(e, ET_EXIT_DATA,
				             "%s: %s: its groups name device %u twice", input,
				             op->name, m[i]);
			else
				g[m[i]] = -2; /* taken, id below */
		if (rc == 0) {
			int32_t id = group_id(t, r, m, set->size);
			for (uint32_t i = 0; i < set->size; i++)
				g[m[i]] = id;
		}
	}
	free(m);
	return rc;
}

/* Set s as (source, target) pairs. */
static int build_pairs(xir_sets *t, const xir *x, uint32_t s, const xir_op *op, const char *input,
                       et_error *e)
{
	const xir_set *set = &x->set[s];
	int32_t *d = t->dst[s] = table(t->nranks), *sr = t->src[s] = table(t->nranks);
	for (uint32_t k = 0; k < set->n; k++) {
		uint32_t a = x->members[set->off + 2 * k], b = x->members[set->off + 2 * k + 1];
		if (a >= t->nranks || b >= t->nranks)
			return et_fail(e, ET_EXIT_DATA,
			               "%s: %s: its pairs name device %u, the program has %u ranks",
			               input, op->name, a >= t->nranks ? a : b, t->nranks);
		if (d[a] >= 0 || sr[b] >= 0)
			return et_fail(e, ET_EXIT_DATA, "%s: %s: device %u %s twice", input,
			               op->name, d[a] >= 0 ? a : b,
			               d[a] >= 0 ? "sends" : "receives");
		d[a] = (int32_t)b;
		sr[b] = (int32_t)a;
	}
	return 0;
}

int xir_sets_build(xir_sets *t, const xir *x, uint32_t nranks, const char *input, et_error *e)
{
	memset(t, 0, sizeof *t);
	t->nranks = nranks;
	size_t ns = x->nset ? x->nset : 1;
	t->gid = et_xcalloc(ns, sizeof *t->gid);
	t->dst = et_xcalloc(ns, sizeof *t->dst);
	t->src = et_xcalloc(ns, sizeof *t->src);
	t->gid_varies = et_xcalloc(ns, sizeof *t->gid_varies);
	registry r = {0};
	int rc = 0;
	for (size_t i = 0; i < x->nop && rc == 0; i++) {
		const xir_op *op = &x->op[i];
		if (op->kind == XIR_COMP || op->set >= x->nset)
			continue;
		if (op->kind == XIR_COLL && !t->gid[op->set]) {
			rc = build_groups(t, &r, x, op->set, op, input, e);
			for (uint32_t k = 0; rc == 0 && k < nranks && !t->gid_varies[op->set]; k++)
				t->gid_varies[op->set] = t->gid[op->set][k] != 0;
		} else if (op->kind != XIR_COLL && !t->dst[op->set])
			rc = build_pairs(t, x, op->set, op, input, e);
	}
	et_hmap_free(&r.ids);
	free(r.next);
	return rc;
}

void xir_sets_free(xir_sets *t, uint32_t nset)
{
	for (uint32_t i = 0; t->gid && i < nset; i++) {
		free(t->gid[i]);
		free(t->dst[i]);
		free(t->src[i]);
	}
	free(t->gid);
	free(t->gid_varies);
	free(t->dst);
	free(t->src);
	free(t->goff);
	free(t->gsize);
	free(t->gmem);
	memset(t, 0, sizeof *t);
}

int xir_sets_write_groups(const xir_sets *t, const char *path, et_error *e)
{
	et_output *o;
	if (et_output_open(&o, path, false, e) < 0)
		return -1;
	et_jsonw j; /* json.dumps layout, as ASTRA-sim's comm-group files */
	et_jsonw_init(&j, et_output_file(o), NULL, ET_JSONW_SPACED, 0);
	et_jsonw_set_lines(&j, true);
	et_jsonw_obj(&j);
	for (uint32_t g = 0; g < t->ngroups; g++) {
		char key[16];
		snprintf(key, sizeof key, "%u", g + 1);
		et_jsonw_karr(&j, key);
		for (uint32_t k = 0; k < t->gsize[g]; k++)
			et_jsonw_uint(&j, t->gmem[t->goff[g] + k]);
		et_jsonw_end(&j);
	}
	et_jsonw_end(&j);
	et_jsonw_done(&j);                     /* f's errors: et_output_close_deferred's */
	return et_output_close_deferred(o, e); /* put in place with the output */
}
