/* Structural checks of one rank's finished graph: ids, dependencies,
 * cycles, roots, forward references, node types. Each is a linear pass
 * over et_graph's arrays (the graph already did the resolving). */
#include "et-validate/validate.h"
#include "et_buf.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check_dups(vctx *v, const et_graph *g)
{
	for (size_t k = 0; k < g->n_dups; k++) {
		uint32_t i = g->dups[k].node, first = g->dups[k].first;
		finding *f = find_node(
		    &v->fs, C_DUP_ID, v->ri.rank, g, i,
		    "id %llu is also message #%u (\"%.80s\"); deps on it resolve "
		    "to that first node",
		    (unsigned long long)g->id[i], g->msg_index[first], et_graph_name(g, first));
		if (f) {
			find_x x;
			et_jsonw *j = find_x_open(&x);
			et_jsonw_kuint(j, "first_index", g->msg_index[first]);
			et_jsonw_kuint(j, "index", g->msg_index[i]);
			find_x_close(&x, f);
		}
	}
}

static void check_dangling(vctx *v, const et_graph *g)
{
	for (size_t k = 0; k < g->n_dangling; k++) {
		const et_graph_dangling *d = &g->dangling[k];
		code c = d->kind == ET_DEP_DATA ? C_DANGLING_DATA_DEP : C_DANGLING_CTRL_DEP;
		finding *f = find_node(&v->fs, c, v->ri.rank, g, d->node,
		                       "%s dep on id %llu, which is not in rank %u",
		                       d->kind == ET_DEP_DATA ? "data" : "ctrl",
		                       (unsigned long long)d->missing, v->ri.rank);
		if (f) {
			find_x x;
			et_jsonw_kuint(find_x_open(&x), "missing_id", d->missing);
			find_x_close(&x, f);
		}
	}
}

static void check_selfs(vctx *v, const et_graph *g)
{
	for (size_t k = 0; k < g->n_selfs; k++) {
		const et_graph_self *s = &g->selfs[k];
		find_node(&v->fs, C_SELF_DEP, v->ri.rank, g, s->node, "%s dep on its own id %llu",
		          s->kind == ET_DEP_DATA ? "data" : "ctrl",
		          (unsigned long long)g->id[s->node]);
	}
}

static void check_cycle(vctx *v, const et_graph *g)
{
	uint32_t *path;
	uint32_t n = et_graph_find_cycle(g, &path);
	if (!n)
		return;
	finding *f = find_node(&v->fs, C_CYCLE, v->ri.rank, g, path[0], "%s", "");
	if (f) {
		/* "a (name) -> b (name) -> a": each node depends on the one before. */
		et_buf m = {0};
		find_x x;
		et_jsonw *j = find_x_open(&x);
		et_buf_printf(&m, "cycle of %u node%s: ", n, n == 1 ? "" : "s");
		et_jsonw_karr(j, "cycle");
		for (uint32_t k = 0; k <= n; k++) {
			uint32_t i = path[k % n];
			if (k < 24 || k == n)
				et_buf_printf(&m, "%s%llu (%.60s)", k ? " -> " : "",
				              (unsigned long long)g->id[i], et_graph_name(g, i));
			else if (k == 24)
				et_buf_puts(&m, " -> ...");
			if (k < n) {
				et_jsonw_obj(j);
				et_jsonw_kuint(j, "id", g->id[i]);
				et_jsonw_kstr(j, "name", et_graph_name(g, i));
				et_jsonw_end(j);
			}
		}
		et_buf_printf(&m, "; %u of %u nodes are in or behind a cycle", g->n - g->n_ordered,
		              g->n);
		et_jsonw_end(j);
		et_jsonw_kuint(j, "unordered", g->n - g->n_ordered);
		et_buf_putc(&m, '\0');
		free(f->msg);
		f->msg = (char *)m.data;
		find_x_close(&x, f);
	}
	free(path);
}

static void check_roots(vctx *v, const et_graph *g)
{
	if (g->n == 0 || g->n_roots > 0)
		return;
	finding *f = find_add(&v->fs, C_NO_ROOT, v->ri.rank, ET_GRAPH_NONE);
	if (f)
		find_set(f, false, 0, NULL,
		         "all %u nodes have a dependency that resolves within the rank: no node "
		         "can start",
		         g->n);
}

static void forward_kind(vctx *v, const et_graph *g, uint32_t i, const uint32_t *off,
                         const uint32_t *dep, code c)
{
	for (uint32_t e = off[i]; e < off[i + 1]; e++) {
		uint32_t j = dep[e];
		if (j <= i)
			continue;
		finding *f = find_node(
		    &v->fs, c, v->ri.rank, g, i,
		    "%s dep on %llu (\"%.60s\"), written later (message #%u, this is "
		    "#%u)",
		    c == C_FORWARD_DATA_DEP ? "data" : "ctrl", (unsigned long long)g->id[j],
		    et_graph_name(g, j), g->msg_index[j], g->msg_index[i]);
		if (f) {
			find_x x;
			et_jsonw_kuint(find_x_open(&x), "dep_id", g->id[j]);
			find_x_close(&x, f);
		}
	}
}

static void check_forward(vctx *v, const et_graph *g)
{
	if (!g->fwd_data && !g->fwd_ctrl)
		return;
	for (uint32_t i = 0; i < g->n; i++) {
		forward_kind(v, g, i, g->data_off, g->data_dep, C_FORWARD_DATA_DEP);
		forward_kind(v, g, i, g->ctrl_off, g->ctrl_dep, C_FORWARD_CTRL_DEP);
	}
}

static void check_types(vctx *v, const et_graph *g)
{
	for (uint32_t i = 0; i < g->n; i++) {
		if (g->type[i] != ET_NODE_INVALID && g->type[i] < ET_NODE_TYPE_COUNT)
			continue;
		if (g->type[i] == ET_NODE_INVALID)
			find_node(&v->fs, C_INVALID_NODE, v->ri.rank, g, i,
			          "type INVALID_NODE (ASTRA-sim skips it; mid-graph it ends the "
			          "run silently)");
		else
			find_node(&v->fs, C_INVALID_NODE, v->ri.rank, g, i, "unknown node type %u",
			          g->type[i]);
	}
}

void check_rank_graph(vctx *v)
{
	const et_graph *g = v->g;
	check_dups(v, g);
	check_dangling(v, g);
	check_selfs(v, g);
	check_cycle(v, g);
	check_roots(v, g);
	check_types(v, g);
	check_forward(v, g);
}
