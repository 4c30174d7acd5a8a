/* --strip-cpu: remove host-side nodes (is_cpu_op true; process-group and
 * other METADATA nodes stay) and give every remaining node, in place of a
 * dependency on a removed node, that node's own dependencies — resolved
 * through chains of removed nodes. So u reaches v in the result exactly
 * when u reached v through the original graph (reachability between kept
 * nodes is kept). A dependency keeps its kind (data or ctrl) as seen from
 * the kept node. Dependencies on ids not in the rank are kept as they are. */
#include "et-synth/xf/xf.h"
#include "et_attr.h"
#include "et_mem.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

typedef struct vec {
	uint64_t *v;
	size_t n, cap;
} vec;

static void vpush(vec *a, uint64_t x)
{
	ET_GROW(a->v, a->cap, (size_t)a->n + 1);
	a->v[a->n++] = x;
}

typedef struct graph {
	size_t n;
	uint64_t *id, *off;
	uint32_t *dstart, *ndata, *nctrl; /* deps[dstart..+ndata] data, then ctrl */
	bool *removed;
	uint8_t *state; /* resolution: 0 new, 1 on stack, 2 done */
	uint32_t *rstart, *rcount, *stamp;
	uint32_t epoch;
	vec deps, res;
	uint32_t *map; /* open addressing: index + 1 */
	size_t mcap;
} graph;

static size_t slot(const graph *g, uint64_t id)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 20) & (g->mcap - 1);
}

static uint32_t lookup(const graph *g, uint64_t id)
{
	for (size_t s = slot(g, id);; s = (s + 1) & (g->mcap - 1)) {
		uint32_t k = g->map[s];
		if (!k || g->id[k - 1] == id)
			return k ? k - 1 : UINT32_MAX;
	}
}

static void insert(graph *g, uint32_t i)
{
	size_t s = slot(g, g->id[i]);
	while (g->map[s] && g->id[g->map[s] - 1] != g->id[i])
		s = (s + 1) & (g->mcap - 1);
	if (!g->map[s]) /* a duplicate id resolves to its first node */
		g->map[s] = i + 1;
}

static void alloc_graph(graph *g, size_t n)
{
	g->n = n;
	g->id = et_xcalloc(n + 1, sizeof *g->id);
	g->off = et_xcalloc(n + 1, sizeof *g->off);
	g->dstart = et_xcalloc(n + 1, sizeof *g->dstart);
	g->ndata = et_xcalloc(n + 1, sizeof *g->ndata);
	g->nctrl = et_xcalloc(n + 1, sizeof *g->nctrl);
	g->removed = et_xcalloc(n + 1, sizeof *g->removed);
	g->state = et_xcalloc(n + 1, 1);
	g->rstart = et_xcalloc(n + 1, sizeof *g->rstart);
	g->rcount = et_xcalloc(n + 1, sizeof *g->rcount);
	g->stamp = et_xcalloc(n + 1, sizeof *g->stamp);
	for (g->mcap = 64; g->mcap < 2 * n; g->mcap *= 2)
		;
	g->map = et_xcalloc(g->mcap, sizeof *g->map);
}

static void free_graph(graph *g)
{
	free(g->id), free(g->off), free(g->dstart), free(g->ndata), free(g->nctrl);
	free(g->removed), free(g->state), free(g->rstart), free(g->rcount), free(g->stamp);
	free(g->deps.v), free(g->res.v), free(g->map);
}

static bool cpu_only(const et_node *n)
{
	bool cpu = false;
	return n->type != ET_NODE_METADATA && et_attr_bool(n, "is_cpu_op", &cpu) && cpu;
}

/* Pass 1: ids, deps and the removal flag of every node. */
static int load(graph *g, const xf_rank *r, et_arena *a, et_error *e)
{
	alloc_graph(g, r->n_nodes);
	size_t pos = 0;
	for (size_t i = 0; i < g->n; i++) {
		uint64_t len;
		int k = et_varint_get(r->nodes.data + pos, r->nodes.len - pos, &len);
		et_node *n = et_node_decode(a, r->nodes.data + pos + k, len);
		if (!n)
			return et_fail(e, ET_EXIT_DATA, "rank %u: node #%zu does not parse",
			               r->rank, i + 1);
		g->id[i] = n->id;
		g->off[i] = pos;
		g->removed[i] = cpu_only(n);
		g->dstart[i] = (uint32_t)g->deps.n;
		g->ndata[i] = (uint32_t)n->n_data_deps;
		g->nctrl[i] = (uint32_t)n->n_ctrl_deps;
		for (size_t j = 0; j < n->n_data_deps; j++)
			vpush(&g->deps, n->data_deps[j]);
		for (size_t j = 0; j < n->n_ctrl_deps; j++)
			vpush(&g->deps, n->ctrl_deps[j]);
		insert(g, (uint32_t)i);
		et_arena_reset(a);
		pos += (size_t)k + len;
	}
	g->off[g->n] = pos;
	return 0;
}

/* Append dep d (or, for a resolved removed node, its set) to out unless
 * already there; the stamp marks the members of the set being built. */
static void add_unique(graph *g, vec *out, size_t from, uint64_t d)
{
	uint32_t k = lookup(g, d);
	if (k != UINT32_MAX && g->removed[k]) {
		for (uint32_t j = 0; j < g->rcount[k]; j++)
			add_unique(g, out, from, g->res.v[g->rstart[k] + j]);
		return;
	}
	if (k != UINT32_MAX) {
		if (g->stamp[k] == g->epoch)
			return;
		g->stamp[k] = g->epoch;
	} else {
		for (size_t j = from; j < out->n; j++)
			if (out->v[j] == d)
				return;
	}
	vpush(out, d);
}

/* R(x) for removed x, depth first without recursion (CPU chains can be
 * as long as the trace). A cycle contributes nothing from its back edge. */
static void resolve(graph *g, uint32_t x, vec *stack)
{
	stack->n = 0;
	vpush(stack, x);
	g->state[x] = 1;
	while (stack->n) {
		uint32_t t = (uint32_t)stack->v[stack->n - 1];
		uint32_t nd = g->ndata[t] + g->nctrl[t];
		bool pushed = false;
		for (uint32_t j = 0; j < nd && !pushed; j++) {
			uint32_t k = lookup(g, g->deps.v[g->dstart[t] + j]);
			if (k != UINT32_MAX && g->removed[k] && g->state[k] == 0) {
				g->state[k] = 1;
				vpush(stack, k);
				pushed = true;
			}
		}
		if (pushed)
			continue;
		g->epoch++;
		size_t from = g->res.n;
		for (uint32_t j = 0; j < nd; j++) {
			uint64_t d = g->deps.v[g->dstart[t] + j];
			uint32_t k = lookup(g, d);
			if (k == UINT32_MAX || !g->removed[k] || g->state[k] == 2)
				add_unique(g, &g->res, from, d);
		}
		g->rstart[t] = (uint32_t)from;
		g->rcount[t] = (uint32_t)(g->res.n - from);
		g->state[t] = 2;
		stack->n--;
	}
}

static uint64_t *arena_copy(et_arena *a, const uint64_t *v, size_t n)
{
	uint64_t *c = et_arena_alloc(a, (n + 1) * sizeof *c);
	if (n) /* v may be NULL then, which memcpy must not see */
		memcpy(c, v, n * sizeof *c);
	return c;
}

/* Pass 2: kept nodes with their resolved dependencies. */
static int rebuild(graph *g, xf_rank *r, et_arena *a, et_buf *out)
{
	vec dd = {0};
	uint64_t kept = 0;
	for (size_t i = 0; i < g->n; i++) {
		if (g->removed[i])
			continue;
		g->epoch++;
		dd.n = 0;
		for (uint32_t j = 0; j < g->ndata[i]; j++)
			add_unique(g, &dd, 0, g->deps.v[g->dstart[i] + j]);
		size_t n_data = dd.n;
		for (uint32_t j = 0; j < g->nctrl[i]; j++)
			add_unique(g, &dd, 0, g->deps.v[g->dstart[i] + g->ndata[i] + j]);
		uint64_t len;
		const uint8_t *p = r->nodes.data + g->off[i];
		int k = et_varint_get(p, g->off[i + 1] - g->off[i], &len);
		et_node *n = et_node_decode(a, p + k, len);
		n->n_data_deps = n_data;
		n->data_deps = arena_copy(a, dd.v, n_data);
		n->n_ctrl_deps = dd.n - n_data;
		n->ctrl_deps = arena_copy(a, dd.v + n_data, dd.n - n_data);
		et_node_encode(n, out);
		et_arena_reset(a);
		kept++;
	}
	free(dd.v);
	r->n_nodes = kept;
	return 0;
}

int xf_strip_cpu(xf_rank *r, et_error *e)
{
	graph g;
	memset(&g, 0, sizeof g);
	et_arena *a = et_arena_new();
	int rc = load(&g, r, a, e);
	vec stack = {0};
	for (uint32_t i = 0; rc == 0 && i < g.n; i++)
		if (g.removed[i] && g.state[i] == 0)
			resolve(&g, i, &stack);
	et_buf out = {0};
	if (rc == 0)
		rc = rebuild(&g, r, a, &out);
	if (rc == 0) {
		et_buf_free(&r->nodes);
		r->nodes = out;
	} else {
		et_buf_free(&out);
	}
	free(stack.v);
	et_arena_free(a);
	free_graph(&g);
	return rc;
}
