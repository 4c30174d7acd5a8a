/* load: et_input -> et_graph (reused for every rank) -> sgraph, keeping one
 * sgraph per class of identical ranks so that a data-parallel job of 1,024
 * identical ranks holds one graph, not 1,024. */
#include "load.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_codec.h"
#include "et_progress.h"
#include "gemm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct side {
	uint8_t *inv;
	uint64_t *gemm;
	uint32_t cap;
} side;

static void side_grow(side *s, uint32_t n)
{
	if (n < s->cap)
		return;
	s->cap = s->cap ? s->cap * 2 : 4096;
	if (s->cap <= n)
		s->cap = n + 1;
	s->inv = realloc(s->inv, s->cap);
	s->gemm = realloc(s->gemm, (size_t)s->cap * 24);
	if (!s->inv || !s->gemm)
		et_die(ET_EXIT_IO, "out of memory (reading)");
}

/* involved_dim: a bool list; bit d clear = dimension d not involved. */
static uint8_t involved_mask(const et_node *n)
{
	const et_attr *a = et_attr_find(n, "involved_dim");
	if (!a || a->value_case != CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_LIST ||
	    !a->bool_list)
		return 0xff;
	uint8_t m = 0xff;
	for (size_t i = 0; i < a->bool_list->n_values && i < 8; i++)
		if (!a->bool_list->values[i])
			m &= (uint8_t) ~(1u << i);
	return m;
}

static int is_meta(et_arena *a, const et_msg *m)
{
	et_meta *md = et_meta_decode(a, m->data, m->len);
	return md && md->base.n_unknown_fields == 0;
}

static int add_node(et_graph *g, side *sd, et_arena *a, const et_msg *m, const et_rank_info *ri,
                    et_error *e)
{
	if (m->index == 0 && is_meta(a, m))
		return 0;
	et_node *n = et_node_decode(a, m->data, m->len);
	if (!n)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: byte %llu: message %llu is not a Node", ri->input,
		               ri->rank, (unsigned long long)m->offset,
		               (unsigned long long)m->index);
	uint32_t i = et_graph_add_indexed(g, n, (uint32_t)m->index);
	if (i == ET_GRAPH_NONE)
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u: too many nodes", ri->input, ri->rank);
	side_grow(sd, i);
	sd->inv[i] = involved_mask(n);
	gemm_dims(n, &sd->gemm[(size_t)i * 3]);
	return 0;
}

static int read_rank(et_input *in, et_graph *g, side *sd, et_arena *a, const et_rank_info *ri,
                     et_progress *pr, et_error *e)
{
	et_graph_reset(g);
	et_msg m;
	int r;
	uint64_t k = 0;
	while ((r = et_input_next_msg(in, &m, e)) == 1) {
		et_arena_reset(a);
		if (add_node(g, sd, a, &m, ri, e) < 0)
			return -1;
		if ((++k & 4095) == 0)
			et_progress_update(pr, ri->rank, k);
	}
	if (r < 0)
		return -1;
	side_grow(sd, g->n);
	et_graph_finish(g);
	return 0;
}

static void place(workload *w, uint32_t rank, sgraph *s)
{
	for (uint32_t c = 0; c < w->ncls; c++)
		if (sgraph_equal(w->cls[c], s)) {
			w->rank_graph[rank] = w->cls[c];
			sgraph_free(s);
			return;
		}
	w->cls = realloc(w->cls, (w->ncls + 1) * sizeof *w->cls);
	if (!w->cls)
		et_die(ET_EXIT_IO, "out of memory");
	w->cls[w->ncls++] = s;
	w->rank_graph[rank] = s;
}

static int ensure_rank(workload *w, uint32_t rank)
{
	if (rank < w->world)
		return 0;
	uint32_t nw = rank + 1;
	w->rank_graph = realloc(w->rank_graph, nw * sizeof *w->rank_graph);
	if (!w->rank_graph)
		et_die(ET_EXIT_IO, "out of memory");
	for (uint32_t i = w->world; i < nw; i++)
		w->rank_graph[i] = NULL;
	w->world = nw;
	return 0;
}

static int check_complete(workload *w, et_error *e)
{
	if (w->world == 0)
		return et_fail(e, ET_EXIT_DATA, "no ranks in the input");
	for (uint32_t i = 0; i < w->world; i++)
		if (!w->rank_graph[i])
			return et_fail(e, ET_EXIT_DATA,
			               "rank %u is missing from the input (ranks 0..%u expected)",
			               i, w->world - 1);
	return 0;
}

int load_workload(workload *w, int argc, char *const argv[], const et_input_opts *o, int progress,
                  et_error *e)
{
	memset(w, 0, sizeof *w);
	et_input *in = NULL;
	if (et_input_open(&in, argc, argv, o, e) < 0)
		return -1;
	et_graph *g = et_graph_new();
	et_arena *a = et_arena_new();
	side sd = {0};
	et_progress pr;
	et_progress_init(&pr, progress);
	et_rank_info ri;
	int r, rc = 0;
	while ((r = et_input_next_rank(in, &ri, e)) == 1) {
		if (read_rank(in, g, &sd, a, &ri, &pr, e) < 0) {
			rc = -1;
			break;
		}
		ensure_rank(w, ri.rank);
		if (w->rank_graph[ri.rank]) {
			rc = et_fail(e, ET_EXIT_DATA, "%s: rank %u appears twice", ri.input,
			             ri.rank);
			break;
		}
		if (!w->name[0])
			snprintf(w->name, sizeof w->name, "%s", ri.name);
		place(w, ri.rank, sgraph_from(g, sd.inv, sd.gemm));
		w->nodes += g->n;
	}
	if (r < 0)
		rc = -1;
	et_progress_done(&pr);
	free(sd.inv);
	free(sd.gemm);
	et_arena_free(a);
	et_graph_free(g);
	et_input_close(in);
	if (rc == 0)
		rc = check_complete(w, e);
	return rc;
}

void workload_free(workload *w)
{
	for (uint32_t c = 0; c < w->ncls; c++)
		sgraph_free(w->cls[c]);
	free(w->cls);
	free(w->rank_graph);
	memset(w, 0, sizeof *w);
}
