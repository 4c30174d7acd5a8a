#include "et-convert/pytorch/pt_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool pt_is_root_name(const char *name)
{
	return strcmp(name, "[pytorch|profiler|execution_graph|thread]") == 0 ||
	       strcmp(name, "[pytorch|profiler|execution_trace|thread]") == 0;
}

bool pt_is_metadata_name(const char *name)
{
	return strstr(name, "process_group:init") != NULL;
}

typedef struct id_ix {
	int64_t id;
	uint32_t ix;
} id_ix;

static int by_id_ix(const void *a, const void *b)
{
	const id_ix *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->ix < y->ix ? -1 : x->ix > y->ix;
}

/* Sorting (id, index) pairs rather than indices keeps the comparisons in
 * one array instead of hopping through the node records; traces mostly
 * come in id order, which is checked first. */
static uint32_t *order_by_id(const pt_trace *t)
{
	uint32_t n = t->n;
	id_ix *v = et_xmalloc((n ? n : 1) * sizeof *v);
	bool sorted = true;
	for (uint32_t i = 0; i < n; i++) {
		v[i] = (id_ix){t->nodes[i].id, i};
		sorted = sorted && (i == 0 || v[i - 1].id <= v[i].id);
	}
	if (!sorted)
		qsort(v, n, sizeof *v, by_id_ix);
	uint32_t *order = et_xmalloc((n ? n : 1) * sizeof *order);
	for (uint32_t i = 0; i < n; i++)
		order[i] = v[i].ix;
	free(v);
	return order;
}

void pt_tree_build(pt_tree *tr, const pt_trace *t)
{
	uint32_t n = t->n;
	tr->off = et_xcalloc(n + 1u, sizeof *tr->off);
	tr->kid = et_xmalloc((n ? n : 1) * sizeof *tr->kid);
	tr->parent = et_xmalloc((n ? n : 1) * sizeof *tr->parent);
	tr->by_id = order_by_id(t);
	for (uint32_t i = 0; i < n; i++) {
		const pt_node *x = &t->nodes[i];
		/* A node that is its own parent (the process node) has none. */
		tr->parent[i] =
		    x->parent == PT_NO_ID || x->parent == x->id ? -1 : pt_find(t, x->parent);
		if (tr->parent[i] >= 0)
			tr->off[tr->parent[i] + 1]++;
	}
	for (uint32_t i = 0; i < n; i++)
		tr->off[i + 1] += tr->off[i];
	/* Filled in id order, so each parent's children come out sorted. */
	uint32_t *fill = et_xcalloc(n ? n : 1, sizeof *fill);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = tr->by_id[k];
		if (tr->parent[i] >= 0) {
			uint32_t p = (uint32_t)tr->parent[i];
			tr->kid[tr->off[p] + fill[p]++] = i;
		}
	}
	free(fill);
}

void pt_tree_free(pt_tree *tr)
{
	free(tr->by_id);
	free(tr->off);
	free(tr->kid);
	free(tr->parent);
}

void pt_deps_init(pt_deps *d, uint32_t n)
{
	d->dep = et_xmalloc((n ? n : 1) * sizeof *d->dep);
	d->n = et_xcalloc(n ? n : 1, 1);
}

void pt_deps_free(pt_deps *d)
{
	free(d->dep);
	free(d->n);
}

bool pt_deps_add(pt_deps *d, uint32_t i, int64_t id)
{
	for (int k = 0; k < d->n[i]; k++)
		if (d->dep[i][k] == id)
			return true;
	if (d->n[i] == 8)
		return false;
	d->dep[i][d->n[i]++] = id;
	return true;
}

int64_t pt_chain_walk(const pt_trace *t, const pt_tree *tr, const bool *in_map, pt_deps *deps,
                      uint32_t root, uint32_t *stack, uint32_t *visit, uint32_t gen,
                      bool (*keep_itd)(void *ctx, uint32_t i), void *ctx)
{
	uint32_t sp = 0;
	int64_t last_cpu = -1, last_any = -1;
	stack[sp++] = root;
	while (sp) {
		uint32_t i = stack[--sp];
		if (visit[i] == gen)
			continue;
		visit[i] = gen;
		const pt_node *n = &t->nodes[i];
		bool ok = true;
		if (pt_is_gpu(n)) {
			if (last_any >= 0)
				ok = pt_deps_add(deps, i, t->nodes[last_any].id);
			last_any = last_cpu;
		} else {
			if (n->inter_thread_dep && keep_itd(ctx, i))
				ok = pt_deps_add(deps, i, n->inter_thread_dep);
			if (ok && last_cpu >= 0)
				ok = pt_deps_add(deps, i, t->nodes[last_cpu].id);
			last_cpu = last_any = i;
		}
		if (!ok)
			return i;
		/* children by descending id onto the stack: visited ascending */
		for (uint32_t k = tr->off[i + 1]; k-- > tr->off[i];) {
			uint32_t ch = tr->kid[k];
			if (in_map[ch] && visit[ch] != gen)
				stack[sp++] = ch;
		}
	}
	return -1;
}

/* Find a cycle through the remaining (not yet sorted) nodes and print it. */
static int cycle_error(const pt_trace *t, const bool *keep, const pt_deps *d, const uint32_t *indeg,
                       et_error *e)
{
	/* Walk dependencies from a node left over: in a graph where every
	 * remaining node has a remaining dependency, a walk must repeat. */
	uint32_t cur = 0;
	while (cur < t->n && !(keep[cur] && indeg[cur]))
		cur++;
	uint32_t *seen = et_xcalloc(t->n, sizeof *seen);
	uint32_t step = 1;
	while (!seen[cur]) {
		seen[cur] = step++;
		for (int k = 0; k < d->n[cur]; k++) {
			int64_t j = pt_find(t, d->dep[cur][k]);
			if (j >= 0 && keep[j] && indeg[j]) {
				cur = (uint32_t)j;
				break;
			}
		}
	}
	char path[600];
	size_t len = 0;
	uint32_t start = cur;
	do {
		len += (size_t)snprintf(path + len, sizeof path - len > 0 ? sizeof path - len : 0,
		                        "%lld %s -> ", (long long)t->nodes[cur].id,
		                        pt_str(t, t->nodes[cur].name));
		if (len >= sizeof path)
			break;
		for (int k = 0; k < d->n[cur]; k++) {
			int64_t j = pt_find(t, d->dep[cur][k]);
			if (j >= 0 && keep[j] && indeg[j]) {
				cur = (uint32_t)j;
				break;
			}
		}
	} while (cur != start);
	free(seen);
	if (len >= sizeof path)
		len = sizeof path - 1;
	path[len] = 0;
	return et_fail(e, ET_EXIT_DATA, "%s: data-dependency cycle: %s%lld", t->input, path,
	               (long long)t->nodes[start].id);
}

int pt_check_graph(const pt_trace *t, const bool *keep, const pt_deps *d, et_error *e)
{
	uint32_t n = t->n;
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; keep[i] && k < d->n[i]; k++) {
			int64_t j = pt_find(t, d->dep[i][k]);
			if (j < 0 || !keep[j])
				return et_fail(e, ET_EXIT_DATA,
				               "%s: node %lld (%s): data dep on missing node %lld",
				               t->input, (long long)t->nodes[i].id,
				               pt_str(t, t->nodes[i].name),
				               (long long)d->dep[i][k]);
		}
	/* Kahn over reversed edges: indeg[i] = number of deps of i. */
	uint32_t *indeg = et_xcalloc(n ? n : 1, sizeof *indeg);
	uint32_t *rev_off = et_xcalloc(n + 1u, sizeof *rev_off);
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; keep[i] && k < d->n[i]; k++) {
			indeg[i]++;
			rev_off[pt_find(t, d->dep[i][k]) + 1]++;
		}
	for (uint32_t i = 0; i < n; i++)
		rev_off[i + 1] += rev_off[i];
	uint32_t *rev = et_xmalloc((rev_off[n] ? rev_off[n] : 1) * sizeof *rev);
	uint32_t *fill = et_xcalloc(n ? n : 1, sizeof *fill);
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; keep[i] && k < d->n[i]; k++) {
			uint32_t j = (uint32_t)pt_find(t, d->dep[i][k]);
			rev[rev_off[j] + fill[j]++] = i;
		}
	uint32_t *queue = et_xmalloc((n ? n : 1) * sizeof *queue), qh = 0, qt = 0, done = 0,
	         kept = 0;
	for (uint32_t i = 0; i < n; i++)
		if (keep[i]) {
			kept++;
			if (!indeg[i])
				queue[qt++] = i;
		}
	while (qh < qt) {
		uint32_t i = queue[qh++];
		done++;
		for (uint32_t k = rev_off[i]; k < rev_off[i + 1]; k++)
			if (--indeg[rev[k]] == 0)
				queue[qt++] = rev[k];
	}
	int r = done == kept ? 0 : cycle_error(t, keep, d, indeg, e);
	free(indeg);
	free(rev_off);
	free(rev);
	free(fill);
	free(queue);
	return r;
}
