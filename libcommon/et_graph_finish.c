/* et_graph: resolution — the id hash, dependency CSR arrays, dangling /
 * duplicate / self references, reverse edges and the Kahn order. Every
 * step is one linear pass over nodes or edges. */
#include "et_buf.h"
#include "et_graph.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_id(uint64_t id)
{
	/* Ids are often dense and sequential: mix so they spread. */
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdull;
	id ^= id >> 33;
	return (uint32_t)id;
}

/* The lookup behind et_graph_find, once the table is built; inlined into
 * the resolution loop, which calls it for every dependency. */
static inline uint32_t find_id(const et_graph *g, uint64_t id)
{
	if (g->dense) {
		if (id < g->id_min || id - g->id_min >= g->table_len)
			return ET_GRAPH_NONE;
		return g->hash[id - g->id_min] - 1; /* 0 - 1 = ET_GRAPH_NONE */
	}
	for (uint32_t h = hash_id(id) & g->hash_mask;; h = (h + 1) & g->hash_mask) {
		uint32_t v = g->hash[h];
		if (!v)
			return ET_GRAPH_NONE;
		if (g->id[v - 1] == id)
			return v - 1;
	}
}

uint32_t et_graph_find(const et_graph *g, uint64_t id)
{
	if (!g->finished || !g->hash)
		return ET_GRAPH_NONE;
	return find_id(g, id);
}

/* Lists grow when their length reaches 0 or a power of two (capacity
 * max(16, 2n)), so appends are amortised O(1) with no capacity field. */
static void add_dup(et_graph *g, uint32_t i, uint32_t first)
{
	g->flags[i] |= ET_GF_DUP_ID;
	ET_GROW(g->dups, g->cap_dups, g->n_dups + 1);
	g->dups[g->n_dups++] = (et_graph_dup){i, first};
}

static void table_reserve(et_graph *g, size_t len)
{
	if (len > g->hash_cap) {
		free(g->hash);
		g->hash = et_xmalloc(len * sizeof *g->hash);
		g->hash_cap = len;
	}
	/* Only the part this rank uses is cleared: a small rank after a big
	 * one stays cheap. */
	memset(g->hash, 0, len * sizeof *g->hash);
}

/* Ids are usually dense (converters number nodes 1, 2, 3 ... with gaps):
 * when max - min < 4n, a direct table indexed by id - min replaces the
 * hash, with no hashing and the locality of the ids themselves. */
static bool build_dense(et_graph *g)
{
	const uint32_t n = g->n;
	const uint64_t *id = g->id;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t i = 0; i < n; i++) {
		lo = id[i] < lo ? id[i] : lo;
		hi = id[i] > hi ? id[i] : hi;
	}
	g->dense = n > 0 && hi - lo < 4 * (uint64_t)n + 16;
	if (!g->dense)
		return false;
	g->id_min = lo;
	g->table_len = (size_t)(hi - lo + 1);
	table_reserve(g, g->table_len);
	uint32_t *table = g->hash;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t *slot = &table[id[i] - lo];
		if (*slot)
			add_dup(g, i, *slot - 1);
		else
			*slot = i + 1;
	}
	return true;
}

static void build_hash(et_graph *g)
{
	if (build_dense(g))
		return;
	uint64_t cap = 16;
	while (cap < (uint64_t)g->n * 2)
		cap *= 2;
	table_reserve(g, (size_t)cap);
	g->hash_mask = (uint32_t)(cap - 1);
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t h = hash_id(g->id[i]) & g->hash_mask;
		for (;; h = (h + 1) & g->hash_mask) {
			uint32_t v = g->hash[h];
			if (!v) {
				g->hash[h] = i + 1;
				break;
			}
			if (g->id[v - 1] == g->id[i]) {
				add_dup(g, i, v - 1);
				break;
			}
		}
	}
}

static void add_dangling(et_graph *g, uint32_t i, uint64_t id, uint8_t kind)
{
	ET_GROW(g->dangling, g->cap_dangling, g->n_dangling + 1);
	g->dangling[g->n_dangling++] = (et_graph_dangling){id, i, kind};
	g->flags[i] |= ET_GF_DANGLING;
	if (kind == ET_DEP_DATA)
		g->n_dangling_data++;
	else
		g->n_dangling_ctrl++;
}

static void add_self(et_graph *g, uint32_t i, uint8_t kind)
{
	ET_GROW(g->selfs, g->cap_selfs, g->n_selfs + 1);
	g->selfs[g->n_selfs++] = (et_graph_self){i, kind};
	g->flags[i] |= ET_GF_SELF_DEP;
}

static void reserve(uint32_t **p, size_t *cap, size_t n)
{
	if (n <= *cap && *p)
		return;
	free(*p);
	*cap = n > 16 ? n : 16;
	*p = et_xmalloc(*cap * sizeof **p);
}

/* Turns per-node counts in off into CSR offsets over resolved targets, and
 * the ids in dep (two uint32 slots each, see push_ids) into indices in
 * place: index w is written after id r >= w was read, and the ids still to
 * read start at slot 2r + 2 > w. */
static void resolve_kind(et_graph *g, uint32_t *off, uint32_t *dep, uint8_t kind, uint64_t *fwd)
{
	const uint32_t n = g->n;
	size_t r = 0, w = 0;
	uint64_t forward = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t cnt = off[i];
		off[i] = (uint32_t)w;
		for (uint32_t k = 0; k < cnt; k++, r++) {
			uint64_t id;
			memcpy(&id, dep + 2 * r, sizeof id);
			uint32_t j = find_id(g, id);
			if (j == ET_GRAPH_NONE)
				add_dangling(g, i, id, kind);
			else if (j == i)
				add_self(g, i, kind);
			else {
				forward += j > i;
				dep[w++] = j;
			}
		}
	}
	off[n] = (uint32_t)w;
	*fwd += forward;
}

/* The loops below keep the graph's arrays and counts in locals: a store
 * through a uint32_t pointer could otherwise change g->n or an offset as
 * far as the compiler knows, and it would reload them at every step. */
static void build_children(et_graph *g)
{
	const uint32_t n = g->n;
	const uint32_t *doff = g->data_off, *coff = g->ctrl_off;
	const uint32_t *dd = g->data_dep, *cd = g->ctrl_dep;
	const uint32_t nd = doff[n], nc = coff[n];
	reserve(&g->out, &g->out_cap, (size_t)nd + nc);
	uint32_t *restrict oo = g->out_off, *restrict out = g->out;
	memset(oo, 0, ((size_t)n + 1) * sizeof *oo);
	for (uint32_t k = 0; k < nd; k++)
		oo[dd[k] + 1]++;
	for (uint32_t k = 0; k < nc; k++)
		oo[cd[k] + 1]++;
	for (uint32_t i = 0; i < n; i++)
		oo[i + 1] += oo[i];
	/* Fill with a moving cursor per parent; out_off[i] is restored after. */
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = doff[i]; k < doff[i + 1]; k++)
			out[oo[dd[k]]++] = i;
		for (uint32_t k = coff[i]; k < coff[i + 1]; k++)
			out[oo[cd[k]]++] = i;
	}
	memmove(oo + 1, oo, (size_t)n * sizeof *oo);
	oo[0] = 0;
}

/* FIFO Kahn: the queue is the order array itself, and its rounds are the
 * longest-path levels, which gives depth and width for free. */
static void kahn(et_graph *g)
{
	const uint32_t n = g->n;
	const uint32_t *doff = g->data_off, *coff = g->ctrl_off;
	const uint32_t *oo = g->out_off, *out = g->out;
	uint32_t *restrict indeg = g->scratch, *restrict order = g->order;
	uint16_t *restrict flags = g->flags;
	uint32_t tail = 0;
	for (uint32_t i = 0; i < n; i++) {
		indeg[i] = doff[i + 1] - doff[i] + coff[i + 1] - coff[i];
		if (!indeg[i])
			order[tail++] = i;
	}
	g->n_roots = tail;
	uint32_t head = 0, depth = 0, width = 0;
	while (head < tail) {
		uint32_t level_end = tail;
		if (level_end - head > width)
			width = level_end - head;
		depth++;
		for (; head < level_end; head++) {
			uint32_t v = order[head];
			flags[v] |= ET_GF_ORDERED;
			for (uint32_t k = oo[v]; k < oo[v + 1]; k++)
				if (--indeg[out[k]] == 0)
					order[tail++] = out[k];
		}
	}
	g->n_ordered = tail;
	g->depth = depth;
	g->max_width = width;
}

void et_graph_finish(et_graph *g)
{
	if (g->finished)
		return;
	g->finished = true;
	if (!g->data_off) { /* never grown: give the per-node arrays room */
		g->data_off = et_xcalloc(1, sizeof *g->data_off);
		g->ctrl_off = et_xcalloc(1, sizeof *g->ctrl_off);
		g->out_off = et_xcalloc(1, sizeof *g->out_off);
		g->order = et_xcalloc(1, sizeof *g->order);
		g->scratch = et_xcalloc(1, sizeof *g->scratch);
	}
	/* Callers may pass the CSR arrays to memcpy & co. even when empty. */
	if (!g->data_dep)
		reserve(&g->data_dep, &g->data_dep_cap, 0);
	if (!g->ctrl_dep)
		reserve(&g->ctrl_dep, &g->ctrl_dep_cap, 0);
	g->n_data_deps = g->data_ids;
	g->n_ctrl_deps = g->ctrl_ids;
	build_hash(g);
	resolve_kind(g, g->data_off, g->data_dep, ET_DEP_DATA, &g->fwd_data);
	resolve_kind(g, g->ctrl_off, g->ctrl_dep, ET_DEP_CTRL, &g->fwd_ctrl);
	build_children(g);
	kahn(g);
}
