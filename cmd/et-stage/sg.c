/* The stage-graph builder (see sg.h). */
#include "et-stage/sg.h"
#include "et_err.h"
#include "et_mem.h"
#include "et_types.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sg_op_name[NOPS] = {"M", "E", "E2",     "A",      "SLICE",
                                      "B", "R", "CUSTOM", "GATHER", "SCATTER"};

void sg_init(sg *g, const stage_conf *c, const stage_layout *l, int stage, int32_t tag_base)
{
	memset(g, 0, sizeof *g);
	g->c = c;
	g->l = l;
	g->stage = stage;
	g->arena = et_arena_new();
	g->tag_base = tag_base;
}

void sg_free(sg *g)
{
	free(g->n);
	free(g->pool);
	free(g->v);
	free(g->ctrl);
	free(g->mark);
	et_arena_free(g->arena);
	memset(g, 0, sizeof *g);
}

const char *sg_name(sg *g, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return et_arena_strdup(g->arena, buf);
}

static uint32_t pool_push(sg *g, uint32_t x)
{
	ET_GROW(g->pool, g->cappool, g->npool + 1);
	g->pool[g->npool] = x;
	return (uint32_t)g->npool++;
}

static sgv val_new(sg *g, int32_t node, long double size)
{
	ET_GROW(g->v, g->capv, g->nv + 1);
	g->v[g->nv] = (sg_val){.off = (uint32_t)g->npool, .node = node, .size = size};
	return (sgv)g->nv++;
}

/* Appends to the pool the nodes the values in deps stand for, each once
 * (a stamp per call marks those taken: lists of 10^5 stay linear);
 * returns how many. */
static uint32_t push_deps(sg *g, const sgv *deps, int n_deps)
{
	size_t start = g->npool;
	if (g->capmark < g->nn + 1) { /* one mark per node, stamped per list */
		size_t old = g->capmark;
		ET_GROW(g->mark, g->capmark, g->nn + 1);
		memset(g->mark + old, 0, (g->capmark - old) * sizeof *g->mark);
	}
	g->stamp++;
	for (int i = 0; i < n_deps; i++) {
		if (deps[i] == SG_NONE)
			continue;
		const sg_val *v = &g->v[deps[i]];
		for (uint32_t k = 0; k < v->n; k++) {
			uint32_t x = g->pool[v->off + k];
			if (g->mark[x] != g->stamp) {
				g->mark[x] = g->stamp;
				pool_push(g, x);
			}
		}
	}
	return (uint32_t)(g->npool - start);
}

static sg_node *node_new(sg *g, const char *name, int type, long double size, const sgv *deps,
                         int n_deps)
{
	ET_GROW(g->n, g->capn, g->nn + 1);
	sg_node *n = &g->n[g->nn];
	memset(n, 0, sizeof *n);
	n->name = name;
	n->type = (uint8_t)type;
	n->size = size;
	n->dep_off = (uint32_t)g->npool;
	n->n_deps = push_deps(g, deps, n_deps);
	n->in_off = (uint32_t)g->npool;
	for (int i = 0; i < n_deps; i++)
		if (deps[i] != SG_NONE)
			pool_push(g, (uint32_t)deps[i]);
	n->n_in = (uint32_t)(g->npool - n->in_off);
	g->nn++;
	return n;
}

/* The value of node index i: a consumer depends on it alone. */
static sgv node_val(sg *g, size_t i, long double size)
{
	sgv v = val_new(g, (int32_t)i, size);
	pool_push(g, (uint32_t)i);
	g->v[v].n = 1;
	return v;
}

sgv sg_comp_w(sg *g, const char *name, int op, long double ops, long double size, const sgv *deps,
              int n_deps, const char *wkey, long double wsize)
{
	if (ops == 0) { /* removed: consumers depend on its parents */
		sgv v = val_new(g, -1, size);
		g->v[v].n = push_deps(g, deps, n_deps);
		return v;
	}
	sg_node *n = node_new(g, sg_name(g, "%s_COMP", name), ET_NODE_COMP, size, deps, n_deps);
	n->key = name;
	n->op = (uint8_t)op;
	n->ops = ops;
	n->wkey = wkey;
	n->wsize = wsize;
	return node_val(g, g->nn - 1, size);
}

sgv sg_comp(sg *g, const char *name, int op, long double ops, long double size, const sgv *deps,
            int n_deps)
{
	return sg_comp_w(g, name, op, ops, size, deps, n_deps, NULL, 0);
}

sgv sg_coll(sg *g, const char *name, int k, int ctype, int dim, long double size, sgv in)
{
	if (g->l->size[dim] == 1)
		return in;
	const char *nm =
	    k == 1 ? sg_name(g, "%s_X1COMM", name) : sg_name(g, "%s_X%d_COMM", name, k);
	sg_node *n = node_new(g, nm, ET_NODE_COLL, size, &in, 1);
	n->key = name;
	n->ctype = ctype;
	n->var = VAR_PG;
	n->dim = (uint8_t)dim;
	return node_val(g, g->nn - 1, in == SG_NONE ? size : g->v[in].size);
}

sgv sg_send(sg *g, const char *name, int peer, long double size, sgv in, int32_t tag_id)
{
	sg_node *n = node_new(g, sg_name(g, "%s_Y_SEND", name), ET_NODE_SEND, size, &in, 1);
	n->key = name;
	n->var = VAR_DST;
	n->peer_stage = peer;
	n->tag = g->tag_base + tag_id;
	return node_val(g, g->nn - 1, size);
}

sgv sg_recv(sg *g, const char *name, int peer, long double size, int32_t tag_id)
{
	sg_node *n = node_new(g, sg_name(g, "shadow_%s_Y_RECV", name), ET_NODE_RECV, size, NULL, 0);
	n->key = name;
	n->var = VAR_SRC;
	n->peer_stage = peer;
	n->tag = g->tag_base + tag_id;
	return node_val(g, g->nn - 1, size);
}

sgv sg_mem(sg *g, const char *name, bool store, long double bytes, const sgv *deps, int n_deps)
{
	sg_node *n = node_new(g, sg_name(g, "%s_%s", name, store ? "STORE" : "LOAD"),
	                      store ? ET_NODE_MEM_STORE : ET_NODE_MEM_LOAD, bytes, deps, n_deps);
	n->key = name;
	return node_val(g, g->nn - 1, bytes);
}

void sg_ctrl(sg *g, uint32_t from, uint32_t to)
{
	ET_GROW(g->ctrl, g->capctrl, g->nctrl + 1);
	g->ctrl[g->nctrl][0] = from;
	g->ctrl[g->nctrl][1] = to;
	g->nctrl++;
}

void sg_after(sg *g, uint32_t from, uint32_t lo)
{
	for (size_t i = lo; i < g->nn; i++) {
		const sg_node *n = &g->n[i];
		bool inner = false;
		for (uint32_t k = 0; k < n->n_deps && !inner; k++)
			inner = g->pool[n->dep_off + k] >= lo;
		if (!inner)
			sg_ctrl(g, from, (uint32_t)i);
	}
}

/* --- one order of each communicator's collectives ---------------------- */
typedef struct coll_at {
	uint64_t key; /* place in the program, then node index */
	uint32_t node;
	uint8_t dim;
} coll_at;

static int coll_at_cmp(const void *a, const void *b)
{
	const coll_at *x = a, *y = b;
	if (x->dim != y->dim)
		return x->dim < y->dim ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

static bool data_dep(const sg *g, uint32_t from, uint32_t to)
{
	const sg_node *n = &g->n[to];
	for (uint32_t k = 0; k < n->n_deps; k++)
		if (g->pool[n->dep_off + k] == from)
			return true;
	return false;
}

/* Real programs issue a communicator's collectives in one order on every
 * member, and a simulator pairs the k-th collective of a group across its
 * members: two collectives of one group with no order between them could
 * be issued in different orders by members whose timing differs. So each
 * collective waits (control dependency) for the previous one of its group
 * in program order, pos[i] then i (pos NULL: i). The ranks of a group are
 * all of one stage and run this graph, so the order is the same on every
 * member; and every edge, old or new, goes forward in that order (a
 * bucket's nodes depend on gradients made before its place), so the graph
 * stays acyclic. */
void sg_chain_collectives(sg *g, const uint32_t *pos)
{
	coll_at *c = et_xcalloc(g->nn ? g->nn : 1, sizeof *c);
	size_t n = 0;
	for (size_t i = 0; i < g->nn; i++)
		if (g->n[i].type == ET_NODE_COLL && g->n[i].var == VAR_PG) {
			uint64_t at = pos ? pos[i] : i;
			c[n++] = (coll_at){at << 32 | i, (uint32_t)i, g->n[i].dim};
		}
	qsort(c, n, sizeof *c, coll_at_cmp);
	for (size_t k = 1; k < n; k++)
		if (c[k].dim == c[k - 1].dim && !data_dep(g, c[k - 1].node, c[k].node))
			sg_ctrl(g, c[k - 1].node, c[k].node);
	free(c);
}
