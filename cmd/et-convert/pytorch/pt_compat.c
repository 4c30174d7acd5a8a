/* --compat chakra: exactly what chakra_converter 1.0.0 writes (see the
 * conversion rules this project works from): node selection, the ctrl_deps
 * quirk, the depth-first dependency walk, dangling-node removal, ascending
 * ids. Where the reference crashes, we stop with an error instead. */
#include "et-convert/pytorch/pt.h"
#include "et-convert/pytorch/pt_emit.h"
#include "et-convert/pytorch/pt_tree.h"
#include "et_attr.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

typedef struct cv {
	pt_trace *t;
	pt_tree tr;
	uint32_t *order; /* insertion order of the reference's node map */
	uint32_t norder;
	bool *in_map;
	bool *has_ctrl;
	uint8_t *type; /* ET_NODE_* */
	pt_deps deps;
	et_error *e;
} cv;

static const char *nm(const cv *c, uint32_t i)
{
	return pt_str(c->t, c->t->nodes[i].name);
}

/* Type of a GPU op: send/recv by the launching op's name, else NCCL
 * kernels are collectives. pg_name of SendRecv comes from a
 * record_param_comms parent. */
static int gpu_type(cv *c, uint32_t i)
{
	pt_node *n = &c->t->nodes[i];
	const char *name = nm(c, i);
	if (strstr(name, "ncclDevKernel_SendRecv") && c->tr.parent[i] >= 0) {
		uint32_t p = (uint32_t)c->tr.parent[i];
		const char *kw = nm(c, p);
		if (strcmp(kw, "record_param_comms") == 0) {
			kw = c->tr.parent[p] >= 0 ? nm(c, (uint32_t)c->tr.parent[p]) : "";
			const char *pg = pt_str(c->t, c->t->nodes[p].pg_name);
			if (pg && *pg)
				n->pg_name = c->t->nodes[p].pg_name;
		}
		if (strstr(kw, "send"))
			return ET_NODE_SEND;
		if (strstr(kw, "recv"))
			return ET_NODE_RECV;
		if (strstr(kw, "nccl:all_to_all"))
			return ET_NODE_COLL;
	}
	if (strstr(name, "ncclKernel") || strstr(name, "ncclDevKernel"))
		return ET_NODE_COLL;
	return ET_NODE_COMP;
}

static void add_to_map(cv *c, uint32_t i)
{
	int64_t p = c->tr.parent[i];
	c->has_ctrl[i] = p >= 0 && c->in_map[p];
	c->in_map[i] = true;
	c->order[c->norder++] = i;
	const pt_node *n = &c->t->nodes[i];
	if (pt_is_gpu(n))
		c->type[i] = (uint8_t)gpu_type(c, i);
	else
		c->type[i] = pt_is_metadata_name(nm(c, i)) ? ET_NODE_METADATA : ET_NODE_COMP;
}

/* Every non-GPU node in input order, each followed by its GPU children. */
static void select_nodes(cv *c)
{
	for (uint32_t i = 0; i < c->t->n; i++) {
		if (pt_is_gpu(&c->t->nodes[i]))
			continue;
		add_to_map(c, i);
		/* Their order in the map matters to nothing downstream: kid[]
		 * (by id) serves as well as input order. */
		for (uint32_t k = c->tr.off[i]; k < c->tr.off[i + 1]; k++) {
			uint32_t g = c->tr.kid[k];
			if (pt_is_gpu(&c->t->nodes[g]))
				add_to_map(c, g);
		}
	}
}

/* The reference keeps every inter-thread dep, written or not. */
static bool keep_all(void *ctx, uint32_t i)
{
	(void)ctx;
	(void)i;
	return true;
}

static int walk(cv *c, uint32_t root, uint32_t *stack, uint32_t *visit, uint32_t gen)
{
	int64_t bad = pt_chain_walk(c->t, &c->tr, c->in_map, &c->deps, root, stack, visit, gen,
	                            keep_all, NULL);
	if (bad >= 0)
		return et_fail(c->e, ET_EXIT_DATA, "%s: node %lld: too many data dependencies",
		               c->t->input, (long long)c->t->nodes[bad].id);
	return 0;
}

static int data_deps(cv *c)
{
	uint32_t n = c->t->n;
	uint32_t *stack = et_xmalloc((n + 1u) * sizeof *stack);
	uint32_t *visit = et_xcalloc(n ? n : 1, sizeof *visit);
	int r = 0;
	uint32_t gen = 0;
	for (uint32_t k = 0; k < c->norder && r == 0; k++)
		if (pt_is_root_name(nm(c, c->order[k])))
			r = walk(c, c->order[k], stack, visit, ++gen);
	free(stack);
	free(visit);
	return r;
}

/* One pass: drop nodes with no data deps that no node depends on. */
static bool *remove_dangling(cv *c)
{
	uint32_t n = c->t->n;
	bool *used = et_xcalloc(n ? n : 1, sizeof *used);
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; c->in_map[i] && k < c->deps.n[i]; k++) {
			int64_t j = pt_find(c->t, c->deps.dep[i][k]);
			if (j >= 0)
				used[j] = true;
		}
	for (uint32_t i = 0; i < n; i++)
		used[i] = c->in_map[i] && (used[i] || c->deps.n[i] > 0);
	return used;
}

static int write_node(cv *c, pt_out *w, uint32_t i)
{
	pt_node *n = &c->t->nodes[i];
	const char *name = nm(c, i);
	int type = c->type[i];
	et_node *o = pt_out_node(w, c->t, n, type, !pt_is_gpu(n));
	if (c->has_ctrl[i]) {
		o->ctrl_deps = et_arena_alloc(w->arena, sizeof *o->ctrl_deps);
		o->ctrl_deps[0] = (uint64_t)c->t->nodes[c->tr.parent[i]].id;
		o->n_ctrl_deps = 1;
	}
	if (c->deps.n[i]) {
		o->data_deps = et_arena_alloc(w->arena, c->deps.n[i] * sizeof *o->data_deps);
		for (int k = 0; k < c->deps.n[i]; k++)
			o->data_deps[k] = (uint64_t)c->deps.dep[i][k];
		o->n_data_deps = c->deps.n[i];
	}
	/* int() truncates toward zero; Optimizer.step is zeroed on purpose */
	if ((n->flags & PT_HAS_EXCL) && !strstr(name, "Optimizer.step"))
		o->duration_micros = (uint64_t)(int64_t)n->excl_dur;
	const char *pg = pt_str(c->t, n->pg_name);
	if (et_node_is_comm(type)) {
		if (type == ET_NODE_COLL) {
			int ct = pt_ref_comm_type(name);
			if (ct < 0)
				return et_fail(c->e, ET_EXIT_DATA,
				               "%s: node %lld: '%s' is not a collective the "
				               "reference converter knows (it aborts here)",
				               c->t->input, (long long)n->id, name);
			et_attr_set_int64(w->arena, o, "comm_type", ct);
		}
		et_attr_set_int64(w->arena, o, "comm_size", n->comm_bytes < 0 ? 0 : n->comm_bytes);
		if (pg && *pg)
			et_attr_set_str(w->arena, o, "pg_name", pg);
	}
	return pt_out_write(w, o, c->e);
}

static int emit(cv *c, const bool *keep, et_writer *out, const et_rank_info *ri)
{
	pt_out w;
	int r = pt_out_begin(&w, out, c->t, ri, c->e);
	for (uint32_t k = 0; k < c->t->n && r == 0; k++)
		if (keep[c->tr.by_id[k]])
			r = write_node(c, &w, c->tr.by_id[k]);
	if (r == 0)
		r = pt_out_end(&w, c->e);
	else
		pt_out_end(&w, &(et_error){0});
	return r;
}

int pt_emit_compat(pt_trace *t, et_writer *out, const et_rank_info *ri, et_error *e)
{
	cv c = {.t = t, .e = e};
	uint32_t n = t->n;
	pt_tree_build(&c.tr, t);
	c.order = et_xmalloc((n ? n : 1) * sizeof *c.order);
	c.in_map = et_xcalloc(n ? n : 1, sizeof *c.in_map);
	c.has_ctrl = et_xcalloc(n ? n : 1, sizeof *c.has_ctrl);
	c.type = et_xcalloc(n ? n : 1, 1);
	pt_deps_init(&c.deps, n);
	select_nodes(&c);
	int r = data_deps(&c);
	bool *keep = NULL;
	if (r == 0) {
		keep = remove_dangling(&c);
		r = pt_check_graph(t, keep, &c.deps, e);
	}
	if (r == 0)
		r = emit(&c, keep, out, ri);
	free(keep);
	free(c.order);
	free(c.in_map);
	free(c.has_ctrl);
	free(c.type);
	pt_deps_free(&c.deps);
	pt_tree_free(&c.tr);
	return r;
}
