/* report: per-rank numbers, the human summary, the JSON report and
 * ASTRA-sim's log lines. */
#include "et-sim/report/report.h"
#include "et_mem.h"
#include "et_types.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const rank_st *report_rank(const sim *s, uint32_t rank)
{
	return &s->r[sim_index(s, rank)];
}

typedef struct iv {
	uint64_t a, b;
} iv;

static int iv_cmp(const void *x, const void *y)
{
	const iv *p = x, *q = y;
	return p->a < q->a ? -1 : p->a > q->a;
}

/* Sorted intervals of the nodes of r that hold a resource (COMP only if
 * comp_only). */
static size_t intervals(const rank_st *r, bool comp_only, iv **out)
{
	const sgraph *g = r->g;
	iv *v = et_xmalloc(((size_t)g->n + 1) * sizeof *v);
	size_t k = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		uint8_t t = g->type[i];
		bool want = comp_only
		                ? t == ET_NODE_COMP
		                : (t == ET_NODE_COMP || t == ET_NODE_SEND || t == ET_NODE_COLL);
		if (want && r->start[i] != UINT64_MAX && r->end[i] != UINT64_MAX &&
		    r->end[i] > r->start[i])
			v[k++] = (iv){r->start[i], r->end[i]};
	}
	qsort(v, k, sizeof *v, iv_cmp);
	*out = v;
	return k;
}

static uint64_t union_len(const iv *v, size_t n)
{
	uint64_t tot = 0, a = 0, b = 0;
	bool open = false;
	for (size_t i = 0; i < n; i++) {
		if (open && v[i].a <= b) {
			b = v[i].b > b ? v[i].b : b;
			continue;
		}
		if (open)
			tot += b - a;
		a = v[i].a, b = v[i].b, open = true;
	}
	return open ? tot + b - a : tot;
}

static void rank_numbers(const rank_st *r, rank_res *o)
{
	o->finish = r->finish;
	o->gpu_comp = r->gpu_comp_ns;
	o->cpu = r->busy_ns[RES_CPU];
	o->comm = r->comm_ns;
	o->exposed = r->finish - r->gpu_comp_ns;
	for (int k = 0; k < RES_N; k++)
		o->busy[k] = r->busy_ns[k];
	iv *v;
	size_t n = intervals(r, false, &v);
	uint64_t u = union_len(v, n);
	o->idle = r->finish > u ? r->finish - u : 0;
	free(v);
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

void report_collect(const sim *s, run_res *out)
{
	memset(out, 0, sizeof *out);
	out->world = s->world;
	out->r = et_xcalloc(s->world, sizeof *out->r);
	uint64_t *f = et_xcalloc(s->world, sizeof *f);
	rank_res *sim_res = et_xcalloc(s->nranks, sizeof *sim_res);
	for (uint32_t k = 0; k < s->nranks; k++)
		rank_numbers(&s->r[k], &sim_res[k]);
	for (uint32_t k = 0; k < s->world; k++)
		out->r[k] = sim_res[sim_index(s, k)];
	free(sim_res);
	for (uint32_t k = 0; k < s->world; k++)
		f[k] = out->r[k].finish;
	qsort(f, s->world, sizeof *f, u64_cmp);
	out->fmin = f[0];
	out->fmax = out->iter = f[s->world - 1];
	out->fmed = f[(s->world - 1) / 2];
	free(f);
}

void report_free(run_res *r)
{
	free(r->r);
	r->r = NULL;
}

void report_astra(FILE *f, const run_res *rr)
{
	for (uint32_t k = 0; k < rr->world; k++)
		fprintf(f, "sys[%u] finished, %llu cycles, exposed communication %llu cycles.\n", k,
		        (unsigned long long)rr->r[k].finish, (unsigned long long)rr->r[k].exposed);
}

/* Thousands separators, as people read times. */
const char *report_grp(uint64_t v, char *buf)
{
	char t[32];
	int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v), o = 0;
	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = t[i];
	}
	buf[o] = 0;
	return buf;
}

typedef struct cexp {
	uint32_t node;
	uint64_t exposed, dur;
} cexp;

static int cexp_cmp(const void *x, const void *y)
{
	const cexp *a = x, *b = y;
	return a->exposed > b->exposed ? -1 : a->exposed < b->exposed;
}

/* Time of [a, b) not covered by the sorted COMP intervals. */
static uint64_t uncovered(const iv *v, size_t n, uint64_t a, uint64_t b)
{
	uint64_t cov = 0, cur = a;
	for (size_t i = 0; i < n && cur < b; i++) {
		if (v[i].b <= cur || v[i].a >= b)
			continue;
		uint64_t lo = v[i].a > cur ? v[i].a : cur, hi = v[i].b < b ? v[i].b : b;
		cov += hi - lo;
		cur = hi;
	}
	return (b - a) - cov;
}

static void top_collectives(FILE *f, const rank_st *r)
{
	const sgraph *g = r->g;
	iv *v;
	size_t nv = intervals(r, true, &v);
	cexp *c = et_xmalloc(((size_t)g->n + 1) * sizeof *c);
	size_t k = 0;
	for (uint32_t i = 0; i < g->n; i++)
		if ((g->type[i] == ET_NODE_COLL || g->type[i] == ET_NODE_SEND) &&
		    r->end[i] != UINT64_MAX)
			c[k++] = (cexp){i, uncovered(v, nv, r->start[i], r->end[i]),
			                r->end[i] - r->start[i]};
	qsort(c, k, sizeof *c, cexp_cmp);
	if (k)
		fprintf(f,
		        "top communication by exposed time (not overlapped by compute; rank %u):\n",
		        r->rank);
	char b1[32], b2[32];
	for (size_t i = 0; i < k && i < 5; i++)
		fprintf(f, "  %14s ns exposed of %14s ns  node %llu %s\n",
		        report_grp(c[i].exposed, b1), report_grp(c[i].dur, b2),
		        (unsigned long long)g->id[c[i].node], sg_name(g, c[i].node));
	free(c);
	free(v);
}

void report_text(FILE *f, const sim *s, const run_res *rr, const workload *w)
{
	char b1[32], b2[32], b3[32], b4[32];
	uint32_t slow = 0;
	for (uint32_t k = 0; k < rr->world; k++)
		if (rr->r[k].finish > rr->r[slow].finish)
			slow = k;
	const rank_res *x = &rr->r[slow];
	char cls[64] = "";
	if (s->folded && s->nranks == 1)
		snprintf(cls, sizeof cls, " (identical ranks: one simulated for all)");
	else if (s->folded)
		snprintf(cls, sizeof cls, " (rank classes: %u of %u ranks simulated)", s->nranks,
		         s->world);
	fprintf(f, "%s: %u rank%s, %llu node%s%s\n", w->name[0] ? w->name : "workload", rr->world,
	        rr->world == 1 ? "" : "s", (unsigned long long)w->nodes, w->nodes == 1 ? "" : "s",
	        cls);
	fprintf(f, "simulated iteration time: %s ns\n", report_grp(rr->iter, b1));
	fprintf(f, "per-rank finish: min %s, median %s, max %s ns\n", report_grp(rr->fmin, b1),
	        report_grp(rr->fmed, b2), report_grp(rr->fmax, b3));
	fprintf(f,
	        "slowest rank %u: compute %s, communication %s, exposed communication %s, "
	        "idle %s ns\n",
	        slow, report_grp(x->gpu_comp + x->cpu, b1), report_grp(x->comm, b2),
	        report_grp(x->exposed, b3), report_grp(x->idle, b4));
	/* "exposed" is ASTRA-sim's word for two different measures: say which. */
	fputs("  (exposed communication: finish time minus GPU compute time, as ASTRA-sim "
	      "counts it; idle: no resource of the rank busy)\n",
	      f);
	top_collectives(f, report_rank(s, slow));
}

static void json_rank(et_jsonw *j, uint32_t k, const rank_res *x)
{
	static const char *const keys[] = {"rank",           "finish_ns", "exposed_comm_ns",
	                                   "gpu_compute_ns", "comm_ns",   "idle_ns"};
	static const char *const busy_keys[] = {"cpu", "comp", "comm"};
	const uint64_t v[] = {k, x->finish, x->exposed, x->gpu_comp, x->comm, x->idle};
	const uint64_t busy[] = {x->busy[RES_CPU], x->busy[RES_COMP], x->busy[RES_COMM]};
	et_jsonw_obj(j);
	et_jsonw_kuints(j, keys, v, 6);
	et_jsonw_kobj(j, "busy_ns");
	et_jsonw_kuints(j, busy_keys, busy, 3);
	et_jsonw_end(j);
	et_jsonw_end(j);
}

/* A time, or -1 for none; times reach 2^64-2, beyond a signed format. */
static void json_time(et_jsonw *j, const char *key, uint64_t t)
{
	et_jsonw_key(j, key);
	if (t == UINT64_MAX)
		et_jsonw_int(j, -1);
	else
		et_jsonw_uint(j, t);
}

static void json_colls(et_jsonw *j, const sim *s, const et_ranklist *colls)
{
	bool first = true;
	for (uint32_t k = 0; k < s->world; k++) {
		if (colls && (colls->n == 0 || !et_ranklist_has(colls, k)))
			continue;
		const rank_st *r = report_rank(s, k);
		const sgraph *g = r->g;
		for (uint32_t i = 0; i < g->n; i++) {
			if (g->type[i] != ET_NODE_COLL)
				continue;
			if (!first)
				et_jsonw_nl(j);
			et_jsonw_obj(j);
			et_jsonw_kuint(j, "rank", k);
			et_jsonw_kuint(j, "id", g->id[i]);
			et_jsonw_kstr(j, "name", sg_name(g, i));
			et_jsonw_kint(j, "comm_type", g->comm_type[i]);
			et_jsonw_kint(j, "comm_size", g->comm_size[i]);
			json_time(j, "start_ns", r->start[i]);
			json_time(j, "end_ns", r->end[i]);
			et_jsonw_end(j);
			first = false;
		}
	}
}

void report_json(et_jsonw *j, const sim *s, const run_res *rr, const workload *w,
                 const et_ranklist *colls)
{
	et_jsonw_obj(j);
	et_jsonw_kstr(j, "workload", w->name);
	et_jsonw_kstr(j, "backend", s->net->name);
	et_jsonw_kuint(j, "ranks", rr->world);
	et_jsonw_kuint(j, "nodes", w->nodes);
	et_jsonw_kbool(j, "folded", s->folded);
	et_jsonw_kuint(j, "simulated_ranks", s->nranks);
	et_jsonw_kuint(j, "iteration_ns", rr->iter);
	et_jsonw_kobj(j, "finish_ns");
	et_jsonw_kuint(j, "min", rr->fmin);
	et_jsonw_kuint(j, "median", rr->fmed);
	et_jsonw_kuint(j, "max", rr->fmax);
	et_jsonw_end(j);
	/* the lists one item a line */
	et_jsonw_nl(j);
	et_jsonw_karr(j, "per_rank");
	for (uint32_t k = 0; k < rr->world; k++) {
		et_jsonw_nl(j);
		json_rank(j, k, &rr->r[k]);
	}
	et_jsonw_nl(j);
	et_jsonw_end(j);
	et_jsonw_nl(j);
	et_jsonw_karr(j, "collectives");
	et_jsonw_nl(j);
	json_colls(j, s, colls);
	et_jsonw_nl(j);
	et_jsonw_end(j);
	et_jsonw_nl(j);
	et_jsonw_kobj(j, "stats");
	et_jsonw_kuint(j, "events", s->st.events);
	et_jsonw_kuint(j, "messages", s->st.messages);
	et_jsonw_kuint(j, "closed_form_phases", s->st.closed_phases);
	et_jsonw_end(j);
}

void report_csv_cell(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}
