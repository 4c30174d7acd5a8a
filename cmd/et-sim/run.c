/* run: load -> configure -> simulate (folded when provably equivalent) ->
 * report. */
#include "run.h"
#include "crit.h"
#include "et_err.h"
#include "et_output.h"
#include "load.h"
#include "report.h"
#include "sched.h"
#include "sweep.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NT_MEM_LOAD = 2, NT_MEM_STORE = 3, NT_SEND = 5, NT_RECV = 6, NT_COLL = 7 };

static int net_defaults(cfg *cf, uint32_t world, char *msg, size_t n)
{
	char v[32];
	snprintf(v, sizeof v, "%u", world);
	if (cfg_set_kv(cf, "topology", "Ring", msg, n) < 0 ||
	    cfg_set_kv(cf, "npus_count", v, msg, n) < 0 ||
	    cfg_set_kv(cf, "bandwidth", "50", msg, n) < 0 ||
	    cfg_set_kv(cf, "latency", "500", msg, n) < 0)
		return -1;
	return 0;
}

static int check_groups(const cfg *cf, uint32_t world, char *msg, size_t n)
{
	for (int i = 0; i < cf->ngroups; i++)
		for (uint32_t k = 0; k < cf->groups[i].n; k++)
			if (cf->groups[i].mem[k] >= world) {
				snprintf(
				    msg, n, "%s: group %d names rank %u, the trace has %u ranks",
				    cf->grp_file, cf->groups[i].id, cf->groups[i].mem[k], world);
				return -1;
			}
	return 0;
}

int run_build_cfg(const run_conf *c, cfg *cf, uint32_t world, char *msg, size_t n)
{
	cfg_defaults(cf);
	if (!c->network && net_defaults(cf, world, msg, n) < 0)
		return -1;
	if (c->network && cfg_load_network(cf, c->network, msg, n) < 0)
		return -1;
	if (c->system && cfg_load_system(cf, c->system, msg, n) < 0)
		return -1;
	if (c->groups && cfg_load_groups(cf, c->groups, msg, n) < 0)
		return -1;
	for (int i = 0; i < c->nsets; i++) {
		char err[400];
		if (cfg_set(cf, c->sets[i], err, sizeof err) < 0) {
			snprintf(msg, n, "--set %s: %s", c->sets[i], err);
			et_msg_one_line(msg);
			return -1;
		}
	}
	if (c->cmodel && cfg_set_kv(cf, "compute-model", c->cmodel, msg, n) < 0)
		return -1;
	char err[400];
	if (cfg_finish(cf, err, sizeof err) < 0) {
		const char *src = cf->sys_file[0] && strstr(err, "endpoint") ? cf->sys_file
		                  : cf->net_file[0]                          ? cf->net_file
		                                                             : "configuration";
		snprintf(msg, n, "%s: %s", src, err);
		return -1;
	}
	if (cf->total != world) {
		snprintf(msg, n, "%s: the network has %u ranks, the trace has %u",
		         cf->net_file[0] ? cf->net_file : "network", cf->total, world);
		return -1;
	}
	if ((cf->roofline || cf->compute_model != CM_REPLAY) && cf->peak_perf <= 0) {
		snprintf(msg, n, "roofline needs peak-perf > 0");
		return -1;
	}
	return check_groups(cf, world, msg, n);
}

/* Folding needs one graph for every rank, collectives over all ranks and
 * no point-to-point traffic; the run itself checks that every phase is
 * priced in closed form and falls back to simulating every rank if not. */
static bool fold_candidate(const run_conf *c, const cfg *cf, const workload *w)
{
	if (c->no_fold || !c->op.closed_form || w->ncls != 1 || w->world < 2 ||
	    cf->active_chunks != 1)
		return false;
	const sgraph *g = w->cls[0];
	for (uint32_t i = 0; i < g->n; i++) {
		if (g->type[i] == NT_SEND || g->type[i] == NT_RECV)
			return false;
		const char *pg = sg_pg(g, i);
		if (g->type[i] == NT_COLL && pg && *pg && strcmp(pg, "0"))
			return false;
	}
	return true;
}

int run_simulate(sim *s, const run_conf *c, const cfg *cf, const workload *w)
{
	bool fold = fold_candidate(c, cf, w);
	cfg_ticks_capped = false;
	sim_init(s, cf, &c->op, w->rank_graph, w->world, fold);
	int r = sim_run(s);
	if (r < 0 && s->err_code == 99) {
		sim_free(s);
		sim_init(s, cf, &c->op, w->rank_graph, w->world, false);
		r = sim_run(s);
	}
	if (r == 0 && cfg_ticks_capped) {
		snprintf(s->err, sizeof s->err,
		         "a single transfer or compute time exceeds 2^50 ns (13 days): the "
		         "simulated times would overflow (check bandwidth, latency, compute "
		         "settings and the trace's sizes)");
		s->err_code = 3;
		r = -1;
	}
	return r;
}

static void warn_mem(const cfg *cf, const workload *w)
{
	if (cf->mem_latency || cf->mem_bw > 0)
		return;
	for (uint32_t k = 0; k < w->ncls; k++)
		for (uint32_t i = 0; i < w->cls[k]->n; i++)
			if (w->cls[k]->type[i] == NT_MEM_LOAD ||
			    w->cls[k]->type[i] == NT_MEM_STORE) {
				et_warn("MEM_LOAD/MEM_STORE nodes take no time (set mem-latency / "
				        "mem-bandwidth)");
				return;
			}
}

static int write_side(const char *path, const sim *s, int (*fn)(FILE *, const sim *))
{
	et_output *o;
	et_error e;
	if (et_output_open(&o, path, false, &e) < 0) {
		et_err_print(&e);
		return e.code;
	}
	fn(et_output_file(o), s);
	if (et_output_commit(o, &e) < 0) {
		et_err_print(&e);
		return e.code;
	}
	return 0;
}

static int report(const run_conf *c, const sim *s, const workload *w)
{
	et_output *o;
	et_error e;
	if (et_output_open(&o, c->output, false, &e) < 0) {
		et_err_print(&e);
		return e.code;
	}
	FILE *f = et_output_file(o);
	run_res rr;
	report_collect(s, &rr);
	if (c->astra)
		report_astra(f, &rr);
	else if (c->json)
		report_json(f, s, &rr, w);
	else
		report_text(f, s, &rr, w);
	if (c->crit && !c->astra)
		crit_print(f, s, c->json);
	if (c->json && !c->astra)
		fputs("}\n", f);
	report_free(&rr);
	if (et_output_commit(o, &e) < 0) {
		et_err_print(&e);
		return e.code;
	}
	return 0;
}

static int simulate_and_report(run_conf *c, const cfg *cf, const workload *w)
{
	sim s;
	c->op.record_cause = c->crit;
	c->op.progress = c->progress;
	int rc = 0;
	if (run_simulate(&s, c, cf, w) < 0) {
		fprintf(stderr, "et-sim: %s\n", s.err);
		rc = s.err_code == 99 ? 1 : s.err_code;
	} else {
		char msg[2048];
		if (report_deadlock(&s, msg, sizeof msg)) {
			fprintf(stderr, "et-sim: %s\n", msg);
			rc = 1;
		}
	}
	if (!rc && c->schedule)
		rc = write_side(c->schedule, &s, sched_write_jsonl);
	if (!rc && c->trace)
		rc = write_side(c->trace, &s, sched_write_chrome);
	if (!rc)
		rc = report(c, &s, w);
	sim_free(&s);
	return rc;
}

int run_main(run_conf *c, int argc, char **argv)
{
	workload w;
	et_error e;
	if (load_workload(&w, argc, argv, &c->in, c->progress, &e) < 0) {
		et_err_print(&e);
		workload_free(&w);
		return e.code ? e.code : 3;
	}
	cfg cf;
	char msg[700];
	int rc;
	if (run_build_cfg(c, &cf, w.world, msg, sizeof msg) < 0) {
		fprintf(stderr, "et-sim: %s\n", msg);
		rc = 2;
	} else {
		if (c->progress >= 0)
			warn_mem(&cf, &w);
		rc = c->nsweeps ? sweep_run(c, &cf, &w) : simulate_and_report(c, &cf, &w);
	}
	cfg_free(&cf);
	workload_free(&w);
	return rc;
}
