#include "et-convert/pytorch/pt_fix.h"

#include <stdlib.h>
#include <string.h>

static int too_many(pt_fix_ctx *c, uint32_t i, et_error *e)
{
	return et_fail(e, ET_EXIT_DATA, "%s: node %lld: more than 8 data dependencies", c->t->input,
	               (long long)c->t->nodes[i].id);
}

/* Inter-thread deps are kept only when their target is written. */
static bool keep_written(void *ctx, uint32_t i)
{
	pt_fix_ctx *c = ctx;
	int64_t it = pt_find(c->t, c->t->nodes[i].inter_thread_dep);
	return it >= 0 && c->in_map[it] && (uint32_t)it != i;
}

/* The reference's walk (pt_chain_walk). */
static int walk(pt_fix_ctx *c, uint32_t root, uint32_t *stack, uint32_t *visit, uint32_t gen,
                et_error *e)
{
	int64_t bad = pt_chain_walk(c->t, c->tr, c->in_map, c->deps, root, stack, visit, gen,
	                            keep_written, c);
	return bad >= 0 ? too_many(c, (uint32_t)bad, e) : 0;
}

static const pt_trace *sort_t;
static int by_stream_time(const void *a, const void *b)
{
	const pt_node *x = &sort_t->nodes[*(const uint32_t *)a],
	              *y = &sort_t->nodes[*(const uint32_t *)b];
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	bool tx = x->flags & PT_HAS_TS, ty = y->flags & PT_HAS_TS;
	if (tx && ty && x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* A GPU op starts after the previous op of its stream (by time when the
 * trace has it, else by id). */
static int stream_order(pt_fix_ctx *c, et_error *e)
{
	uint32_t *g = et_xmalloc((c->t->n ? c->t->n : 1) * sizeof *g), m = 0;
	for (uint32_t i = 0; i < c->t->n; i++)
		if (c->in_map[i] && pt_is_gpu(&c->t->nodes[i]))
			g[m++] = i;
	sort_t = c->t;
	qsort(g, m, sizeof *g, by_stream_time);
	int r = 0;
	for (uint32_t k = 1; k < m && r == 0; k++)
		if (c->t->nodes[g[k]].stream == c->t->nodes[g[k - 1]].stream &&
		    !pt_deps_add(c->deps, g[k], c->t->nodes[g[k - 1]].id))
			r = too_many(c, g[k], e);
	free(g);
	return r;
}

/* --for astra-sim: METADATA nodes go (their dependents take over their
 * deps); collectives ASTRA-sim aborts on become compute. */
static int astra_elide(pt_fix_ctx *c, bool *keep, et_error *e)
{
	uint32_t n = c->t->n;
	for (uint32_t i = 0; i < n; i++) {
		if (c->type[i] == ET_NODE_COLL && !et_astra_supports_coll(c->ctype[i]))
			c->type[i] = ET_NODE_COMP;
		if (keep[i] && c->type[i] == ET_NODE_METADATA)
			keep[i] = false;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		int64_t old[8];
		int no = c->deps->n[i];
		memcpy(old, c->deps->dep[i], sizeof old);
		c->deps->n[i] = 0;
		for (int k = 0; k < no; k++) {
			int64_t j = pt_find(c->t, old[k]);
			bool ok = true;
			if (j >= 0 && !keep[j] && c->type[j] == ET_NODE_METADATA)
				for (int q = 0; q < c->deps->n[j] && ok; q++)
					ok = pt_deps_add(c->deps, i, c->deps->dep[j][q]);
			else
				ok = pt_deps_add(c->deps, i, old[k]);
			if (!ok)
				return too_many(c, i, e);
		}
	}
	return 0;
}

int pt_fix_deps(pt_fix_ctx *c, et_error *e)
{
	uint32_t n = c->t->n;
	uint32_t *stack = et_xmalloc((n + 1u) * sizeof *stack);
	uint32_t *visit = et_xcalloc(n ? n : 1, sizeof *visit);
	int r = 0;
	uint32_t gen = 0;
	for (uint32_t i = 0; i < n && r == 0; i++)
		if (c->in_map[i] && !pt_is_gpu(&c->t->nodes[i]) &&
		    pt_is_root_name(pt_str(c->t, c->t->nodes[i].name)))
			r = walk(c, i, stack, visit, ++gen, e);
	free(stack);
	free(visit);
	if (r == 0)
		r = stream_order(c, e);
	if (r < 0)
		return r;
	/* drop nodes with no deps that nothing depends on, as the reference */
	bool *keep = et_xcalloc(n ? n : 1, sizeof *keep);
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; c->in_map[i] && k < c->deps->n[i]; k++) {
			int64_t j = pt_find(c->t, c->deps->dep[i][k]);
			if (j >= 0)
				keep[j] = true;
		}
	for (uint32_t i = 0; i < n; i++)
		keep[i] = c->in_map[i] && (keep[i] || c->deps->n[i] > 0);
	if (c->o->for_astra)
		r = astra_elide(c, keep, e);
	if (r == 0)
		r = pt_check_graph(c->t, keep, c->deps, e);
	memcpy(c->in_map, keep, (n ? n : 1) * sizeof *keep);
	free(keep);
	return r;
}
