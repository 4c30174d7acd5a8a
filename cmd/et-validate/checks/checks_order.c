/* COLL_UNORDERED: a rank's collectives of one communicator must be issued
 * in one order, which only the dependency graph fixes. NCCL (one stream per
 * communicator) and ASTRA-sim (collectives matched by their order in the
 * group) hang when two ranks pick different orders, so every two
 * collectives of a communicator need a path between them.
 *
 * Per communicator that is a chain: list its collectives in the graph's
 * topological order; the set is totally ordered iff each is reachable from
 * the one just before it (a later one can never reach an earlier one). One
 * pass over the order from the first collective to the last finds it:
 * best[u] is the highest position (1-based) of a collective of the
 * communicator that u descends from, or is; the k-th collective is ordered
 * after the (k-1)-th iff the best of its dependencies is k - 1. Cost: per
 * communicator with two or more collectives on the rank, the nodes and
 * dependencies between its first and last collective. */
#include "et-validate/checks/pgroups.h"
#include "et-validate/report/summary.h"
#include "et-validate/validate.h"
#include "et_mem.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct ord_coll {
	uint32_t pos;  /* in g->order */
	uint32_t node; /* index */
	uint32_t gid;
} ord_coll;

static int cmp_coll(const void *a, const void *b)
{
	const ord_coll *x = a, *y = b;
	if (x->gid != y->gid)
		return x->gid < y->gid ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static uint32_t max_dep(const uint32_t *best, const uint32_t *off, const uint32_t *dep, uint32_t u,
                        uint32_t m)
{
	for (uint32_t e = off[u]; e < off[u + 1]; e++)
		if (best[dep[e]] > m)
			m = best[dep[e]];
	return m;
}

static void report(vctx *v, const ord_coll *a, const ord_coll *b)
{
	const et_graph *g = v->g;
	const char *pg = groups_name(v->grp, b->gid);
	char comm[128];
	if (b->gid == 0)
		snprintf(comm, sizeof comm, "the default communicator (all ranks)");
	else
		snprintf(comm, sizeof comm, "communicator \"%.100s\"", pg);
	finding *f = find_node(&v->fs, C_COLL_UNORDERED, v->ri.rank, g, b->node,
	                       "collectives %llu \"%.60s\" and %llu \"%.60s\" of %s have no "
	                       "dependency path between them: rank %u may issue them in either "
	                       "order (a hang when ranks differ)",
	                       (unsigned long long)g->id[a->node], et_graph_name(g, a->node),
	                       (unsigned long long)g->id[b->node], et_graph_name(g, b->node), comm,
	                       v->ri.rank);
	if (f) {
		find_x x;
		et_jsonw *j = find_x_open(&x);
		et_jsonw_kstr(j, "group", pg);
		et_jsonw_kuint(j, "other_id", g->id[a->node]);
		find_x_close(&x, f);
	}
}

/* One communicator's collectives c[0..n), in topological order. */
static void check_chain(vctx *v, const ord_coll *c, uint32_t n, uint32_t *best)
{
	const et_graph *g = v->g;
	uint32_t k = 0;
	for (uint32_t p = c[0].pos; p <= c[n - 1].pos; p++) {
		uint32_t u = g->order[p];
		uint32_t m = max_dep(best, g->data_off, g->data_dep, u, 0);
		m = max_dep(best, g->ctrl_off, g->ctrl_dep, u, m);
		if (k < n && c[k].pos == p) {
			if (k > 0 && m != k)
				report(v, &c[k - 1], &c[k]);
			m = ++k;
		}
		best[u] = m;
	}
	/* leave best all zero for the next communicator */
	for (uint32_t p = c[0].pos; p <= c[n - 1].pos; p++)
		best[g->order[p]] = 0;
}

void check_coll_order(vctx *v)
{
	const et_graph *g = v->g;
	size_t nc = 0;
	for (uint32_t p = 0; p < g->n_ordered; p++) {
		uint32_t u = g->order[p];
		if (g->type[u] != ET_NODE_COLL || (g->flags[u] & ET_GF_CPU))
			continue;
		uint32_t gid = coll_gid(v, u);
		if (gid == GID_NONE)
			continue;
		ET_GROW(v->ord_colls, v->ord_colls_cap, (size_t)nc + 1);
		v->ord_colls[nc++] = (ord_coll){p, u, gid};
	}
	if (nc < 2)
		return;
	qsort(v->ord_colls, nc, sizeof *v->ord_colls, cmp_coll);
	if (v->ord_max_cap < g->n) {
		free(v->ord_max);
		v->ord_max_cap = g->n;
		v->ord_max = et_xcalloc(g->n, sizeof *v->ord_max);
	}
	for (size_t a = 0, b; a < nc; a = b) {
		for (b = a + 1; b < nc && v->ord_colls[b].gid == v->ord_colls[a].gid; b++)
			;
		if (b - a >= 2)
			check_chain(v, v->ord_colls + a, (uint32_t)(b - a), v->ord_max);
	}
}
