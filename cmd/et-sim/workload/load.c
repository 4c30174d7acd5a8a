/* load: et_load -> et_graph (one, reused for every rank) -> sgraph, keeping
 * one sgraph per shape of rank (identical but for pg names and peers), so
 * that a data-parallel job of 1,024 identical ranks holds one graph, not
 * 1,024, and a pipeline's ranks one per stage and a small view each. Besides the graph, each
 * node's GEMM shape, which et_graph does not keep, is taken from the decoded
 * node. */
#include "et-sim/workload/load.h"
#include "et-sim/workload/gemm.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_crule.h"
#include "et_hmap.h"
#include "et_load.h"
#include "et_mem.h"
#include "et_sgroups.h"
#include "et_stream.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wl_made {
	sgraph **v;
	size_t n, cap;
};

typedef struct side {
	uint64_t *gemm;
	size_t cap;
} side;

typedef struct loading {
	workload *w;
	et_graph *g;
	side sd;
	et_sgroups_acc *groups;
	et_hmap shapes; /* (hash, k) -> index in w->cls */
	/* class streams: per class id, its latest rank read in full (`like`),
	 * from which the ranks that come as rules are built */
	struct cls_like {
		uint64_t gen;
		const sgraph *like;
		et_crule_class c;
		sgraph_rtpl t; /* made at the class's first rule rank */
		int t_state;   /* 0: not made, 1: made, -1: cannot be */
	} * cl;
	et_arena *ra;
	et_crule_val *vals;
	size_t vals_cap;
} loading;

static void side_grow(side *s, uint32_t n)
{
	ET_GROW(s->gemm, s->cap, 3 * ((size_t)n + 1)); /* M, N, K per node */
}

static void add_view(workload *w, uint32_t rank, sgraph *v)
{
	if (!v->cp)
		sgraph_pack(v, &w->pats);
	ET_GROW(w->views, w->capviews, (size_t)w->nviews + 1);
	w->views[w->nviews++] = v;
	w->rank_graph[rank] = v;
}

/* Ranks of one shape share its graph; each holds a view of it for its own
 * pg names and peers unless they are the shape's first rank's too. The
 * shapes are found by hash ((hash, k) -> the k-th shape of that hash), so
 * that a rank is compared with the graphs of its hash only. */
static void place(loading *l, uint32_t rank, sgraph *s)
{
	workload *w = l->w;
	uint64_t *v;
	for (uint64_t k = 0; (v = et_hmap_get(&l->shapes, s->hash, k)); k++) {
		sgraph *b = w->cls[*v];
		if (!sgraph_same_shape(b, s))
			continue;
		if (sgraph_same_own(b, s)) {
			w->rank_graph[rank] = b;
		} else {
			add_view(w, rank, sgraph_view(b, s));
		}
		sgraph_free(s);
		return;
	}
	uint64_t k = 0;
	while (et_hmap_get(&l->shapes, s->hash, k))
		k++;
	*et_hmap_put(&l->shapes, s->hash, k, 0) = w->ncls;
	sgraph_pack(s, &w->pats);
	ET_GROW(w->cls, w->capcls, (size_t)w->ncls + 1);
	w->cls[w->ncls++] = s;
	w->rank_graph[rank] = s;
}

static void ensure_rank(workload *w, uint32_t rank)
{
	if (rank < w->world)
		return;
	uint32_t nw = rank + 1;
	ET_GROW(w->rank_graph, w->caprank, (size_t)nw);
	for (uint32_t i = w->world; i < nw; i++)
		w->rank_graph[i] = NULL;
	w->world = nw;
}

static int begin_rank(void *ctx, const et_rank_info *ri, et_graph **g, et_error *e)
{
	loading *l = ctx;
	*g = l->g;
	return et_sgroups_acc_add(l->groups, ri, e) < 0 ? -1 : 0;
}

static int add_node(void *ctx, et_graph *g, uint32_t i, const et_node *n, et_error *e)
{
	(void)g;
	(void)e;
	side *sd = &((loading *)ctx)->sd;
	side_grow(sd, i);
	gemm_dims(n, &sd->gemm[(size_t)i * 3]);
	return 0;
}

/* A rank's packed values, kept until workload_graph needs its view. */
static void keep_packed(workload *w, uint32_t rank, const sgraph *body, const cpat *cp,
                        int32_t *blob, size_t bytes)
{
	if (w->cappk < w->world) {
		size_t old = w->cappk;
		ET_GROW(w->pk, w->cappk, (size_t)w->world);
		memset(w->pk + old, 0, (w->cappk - old) * sizeof *w->pk);
	}
	size_t off = (w->blobs.len + 3) & ~(size_t)3;
	et_buf_reserve(&w->blobs, off - w->blobs.len + bytes);
	memcpy(w->blobs.data + off, blob, bytes);
	w->blobs.len = off + bytes;
	free(blob);
	w->pk[rank] = (wl_packed){body, cp, off};
	w->rank_graph[rank] = NULL;
}

/* A class rank that came as its rule: its packed values (or a view of its
 * class's graph). */
static int from_rule(loading *l, const et_rank_info *ri, et_error *e)
{
	struct cls_like *k = l->cl ? &l->cl[ri->class_id] : NULL;
	if (!k || !k->like || k->gen != ri->class_gen)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: class %u cannot be built from its rule (its first "
		               "rank does not fit it)",
		               ri->input, ri->rank, ri->class_id);
	et_arena_reset(l->ra);
	ET_GROW(l->vals, l->vals_cap, (size_t)k->c.n_slots + 1);
	if (!et_crule_rule_vals(&k->c, ri->rule, ri->rule_len, l->ra, l->vals))
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u: class %u: its rule does not read",
		               ri->input, ri->rank, ri->class_id);
	const sgraph *body = k->like->body ? k->like->body : k->like;
	if (k->t_state == 0)
		k->t_state = sgraph_rtpl_make(&k->t, body, k->like, &k->c, &l->w->pats) ? 1 : -1;
	const cpat *cp;
	size_t bytes = 0;
	int32_t *blob = k->t_state > 0
	                    ? sgraph_rule_blob(body, &k->t, l->vals, &l->w->pats, &cp, &bytes)
	                    : NULL;
	if (blob)
		keep_packed(l->w, ri->rank, body, cp, blob, bytes);
	else
		add_view(l->w, ri->rank, sgraph_view_vals(body, k->like, &k->c, l->vals));
	l->w->nodes += k->c.n_nodes;
	l->w->rule_ranks++;
	return 0;
}

/* The first rank of a class read in full: the ranks of its class that
 * come as rules are built from it. */
static void keep_like(loading *l, const et_rank_info *ri, const sgraph *g)
{
	if (!l->cl)
		l->cl = et_xcalloc(ET_STREAM_CLASS_IDS, sizeof *l->cl);
	struct cls_like *k = &l->cl[ri->class_id];
	k->gen = ri->class_gen;
	k->like = sgraph_fits_rule(g, ri->crule) ? g : NULL;
	sgraph_rtpl_free(&k->t);
	k->t_state = 0;
	et_crule_class_copy(&k->c, ri->crule);
}

/* et_input rejects a rank seen twice, so the rank's place is free. */
static int end_rank(void *ctx, et_graph *g, const et_load_rank *r, et_error *e)
{
	loading *l = ctx;
	workload *w = l->w;
	ensure_rank(w, r->ri.rank);
	if (r->ri.world_size > w->said_world)
		w->said_world = r->ri.world_size;
	if (!w->name[0])
		snprintf(w->name, sizeof w->name, "%s", r->ri.name);
	if (r->ri.rule_only)
		return from_rule(l, &r->ri, e);
	side_grow(&l->sd, g->n);
	place(l, r->ri.rank, sgraph_from(g, l->sd.gemm));
	w->nodes += g->n;
	if (r->ri.crule)
		keep_like(l, &r->ri, w->rank_graph[r->ri.rank]);
	return 0;
}

static int check_complete(workload *w, et_error *e)
{
	if (w->world == 0)
		return et_fail(e, ET_EXIT_DATA, "no ranks in the input");
	for (uint32_t i = 0; i < w->world; i++)
		if (!w->rank_graph[i] && (i >= w->cappk || !w->pk[i].body))
			return et_fail(e, ET_EXIT_DATA,
			               "rank %u is missing from the input (ranks 0..%u expected)",
			               i, w->world - 1);
	return 0;
}

int load_workload(workload *w, int argc, char *const argv[], const et_input_opts *o, int progress,
                  et_error *e)
{
	memset(w, 0, sizeof *w);
	w->made = et_xcalloc(1, sizeof *w->made);
	snprintf(w->input, sizeof w->input, "%s",
	         argc > 0 && strcmp(argv[0], "-") ? argv[0] : "<stdin>");
	loading l = {w, et_graph_new(), {0}, et_sgroups_acc_new(), {0}, NULL, et_arena_new(), NULL,
	             0};
	et_load_hooks h = {&l, begin_rank, NULL, add_node, end_rank};
	et_load_opts lo = {true, progress};
	et_input_opts io = *o;
	io.class_rules = true; /* a class's ranks are built from its first one */
	int rc = et_load_args(argc, argv, &io, &lo, &h, NULL, e);
	if (l.cl)
		for (uint32_t i = 0; i < ET_STREAM_CLASS_IDS; i++) {
			et_crule_class_free(&l.cl[i].c);
			sgraph_rtpl_free(&l.cl[i].t);
		}
	free(l.cl);
	et_arena_free(l.ra);
	free(l.vals);
	free(l.sd.gemm);
	et_graph_free(l.g);
	et_hmap_free(&l.shapes);
	if (rc == 0)
		rc = check_complete(w, e);
	if (rc == 0)
		rc = et_sgroups_acc_list(l.groups, &w->groups, e);
	et_sgroups_acc_free(l.groups);
	return rc;
}

/* A packed rank's blob: after the load, when blobs no longer moves. */
static int32_t *pk_blob(const workload *w, const wl_packed *p)
{
	return (int32_t *)(void *)(w->blobs.data + p->blob);
}

const sgraph *workload_graph(const workload *w, uint32_t r)
{
	if (w->rank_graph[r])
		return w->rank_graph[r];
	const wl_packed *p = &w->pk[r];
	sgraph *v = sgraph_view_blob(p->body, p->cp, pk_blob(w, p), false);
	struct wl_made *m = w->made;
	ET_GROW(m->v, m->cap, m->n + 1);
	m->v[m->n++] = v;
	w->rank_graph[r] = v;
	return v;
}

void workload_vals(const workload *w, uint32_t r, const sgraph **shape, const cpat **cp,
                   const int32_t **cv, const char **pgnames)
{
	const sgraph *g = w->rank_graph[r];
	if (!g) {
		const wl_packed *p = &w->pk[r];
		*shape = p->body;
		*cp = p->cp;
		*cv = pk_blob(w, p);
		*pgnames = (const char *)(*cv + p->cp->nval);
		return;
	}
	*shape = g->body ? g->body : g;
	*cp = g->cp;
	*cv = g->cv;
	*pgnames = g->pgnames;
}

void workload_free(workload *w)
{
	for (size_t k = 0; w->made && k < w->made->n; k++)
		sgraph_free(w->made->v[k]);
	if (w->made)
		free(w->made->v);
	free(w->made);
	free(w->pk);
	et_buf_free(&w->blobs);
	for (uint32_t c = 0; c < w->nviews; c++)
		sgraph_free(w->views[c]);
	free(w->views);
	for (uint32_t c = 0; c < w->ncls; c++)
		sgraph_free(w->cls[c]);
	free(w->cls);
	free(w->rank_graph);
	cpat_set_free(&w->pats);
	et_pg_list_free(&w->groups);
	memset(w, 0, sizeof *w);
}
