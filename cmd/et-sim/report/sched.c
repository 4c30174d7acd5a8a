/* sched: one object per node, ordered by rank then start (then id). A folded
 * run writes rank 0's schedule for every rank. */
#include "et-sim/report/sched.h"
#include "et-sim/report/report.h"
#include "et-sim/workload/compute.h"
#include "et_attr.h"
#include "et_json_str.h"
#include "et_jsonw.h"
#include "et_mem.h"
#include "et_trace_event.h"
#include "et_types.h"
#include <stdlib.h>

static const char *res_name(const sgraph *g, uint32_t i)
{
	switch (g->type[i]) {
	case ET_NODE_COMP:
		return (g->flags[i] & SG_CPU) ? "cpu" : "comp";
	case ET_NODE_SEND:
	case ET_NODE_COLL:
		return "comm";
	default:
		return "none";
	}
}

static const rank_st *cmp_rank;

static int by_start(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const rank_st *r = cmp_rank;
	if (r->start[a] != r->start[b])
		return r->start[a] < r->start[b] ? -1 : 1;
	if (r->g->id[a] != r->g->id[b])
		return r->g->id[a] < r->g->id[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Indices of the nodes of r that ran, sorted by start; returns the count. */
static uint32_t ordered(const rank_st *r, uint32_t **out)
{
	uint32_t *v = et_xmalloc(((size_t)r->g->n + 1) * sizeof *v), k = 0;
	for (uint32_t i = 0; i < r->g->n; i++)
		if (r->start[i] != UINT64_MAX && r->end[i] != UINT64_MAX)
			v[k++] = i;
	cmp_rank = r;
	qsort(v, k, sizeof *v, by_start);
	*out = v;
	return k;
}

/* Under the systolic model, a GEMM's cycles and utilization. */
static void systolic_fields(et_jsonw *j, const cfg *cf, const sgraph *g, uint32_t i)
{
	const uint64_t *mnk = &g->gemm[(size_t)i * 3];
	if (cf->compute_model != CM_SYSTOLIC || g->type[i] != ET_NODE_COMP ||
	    (g->flags[i] & SG_CPU) || !mnk[0] || !mnk[1] || !mnk[2])
		return;
	uint64_t cyc = systolic_cycles(cf, mnk[0], mnk[1], mnk[2]);
	if (cyc != UINT64_MAX) {
		et_jsonw_kuint(j, "cycles", cyc);
		et_jsonw_key(j, "utilization");
		et_jsonw_fixed(j, systolic_util(cf, mnk, cyc), 6);
	}
}

static void node_line(et_jsonw *j, const cfg *cf, uint32_t rank, const rank_st *r, uint32_t i)
{
	const sgraph *g = r->g;
	const char *tn = et_node_type_name(g->type[i]);
	et_jsonw_obj(j);
	et_jsonw_kuint(j, "rank", rank);
	et_jsonw_kuint(j, "id", g->id[i]);
	et_jsonw_kstr(j, "name", sg_name(g, i));
	et_jsonw_kstr(j, "type", tn ? tn : "UNKNOWN");
	et_jsonw_kstr(j, "resource", res_name(g, i));
	et_jsonw_kuint(j, "start_ns", r->start[i]);
	et_jsonw_kuint(j, "end_ns", r->end[i]);
	if (g->type[i] == ET_NODE_COLL) {
		const char *ct = et_coll_type_name(g->comm_type[i]);
		et_jsonw_kstr(j, "comm_type", ct ? ct : "UNKNOWN");
		et_jsonw_kint(j, "comm_size", g->comm_size[i]);
	}
	systolic_fields(j, cf, g, i);
	et_jsonw_end(j);
}

int sched_write_jsonl(FILE *f, const sim *s)
{
	et_jsonw j;
	et_jsonw_init(&j, f, NULL, ET_JSONW_COMPACT, ET_JSTR_CTRL_NT);
	et_jsonw_set_lines(&j, true);
	for (uint32_t k = 0; k < s->world; k++) {
		const rank_st *r = report_rank(s, k);
		uint32_t *v, n = ordered(r, &v);
		for (uint32_t x = 0; x < n; x++)
			node_line(&j, s->cf, k, r, v[x]);
		free(v);
	}
	return et_jsonw_done(&j);
}

int sched_write_chrome(FILE *f, const sim *s)
{
	et_te w;
	et_te_open(&w, f);
	et_te_begin(&w);
	for (uint32_t k = 0; k < s->world; k++) {
		const rank_st *r = report_rank(s, k);
		uint32_t *v, n = ordered(r, &v);
		for (uint32_t j = 0; j < n; j++) {
			uint32_t i = v[j];
			et_te_complete(&w, &(et_te_event){.pid = k,
			                                  .tid_name = res_name(r->g, i),
			                                  .ts_ns = r->start[i],
			                                  .dur_ns = r->end[i] - r->start[i],
			                                  .name = sg_name(r->g, i)});
		}
		free(v);
	}
	et_te_end(&w);
	et_jsonw_kstr(&w.j, "displayTimeUnit", "ns");
	return et_te_close(&w);
}
