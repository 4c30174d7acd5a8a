/* run: load -> configure -> simulate (folded when provably equivalent) ->
 * report. Every step returns 0 or -1 with an et_error; run_main prints the
 * error and turns it into the exit status. */
#include "et-sim/run.h"
#include "app/et_app.h"
#include "et-sim/net/net_dims.h"
#include "et-sim/report/crit.h"
#include "et-sim/report/links.h"
#include "et-sim/report/report.h"
#include "et-sim/report/sched.h"
#include "et-sim/report/sweep.h"
#include "et-sim/workload/classes.h"
#include "et-sim/workload/load.h"
#include "et_err.h"
#include "et_hmap.h"
#include "et_json_str.h"
#include "et_mem.h"
#include "et_output.h"
#include "et_pg.h"
#include "et_types.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Without --network: a ring as wide as the trace, with the bandwidth and
 * latency of ASTRA-sim's example Ring_8npus.yml (50 GB/s, 500 ns). */
static int net_defaults(cfg *cf, uint32_t world, et_error *e)
{
	char v[32];
	snprintf(v, sizeof v, "%u", world);
	if (cfg_set_kv(cf, "topology", "Ring", e) < 0 || cfg_set_kv(cf, "npus_count", v, e) < 0 ||
	    cfg_set_kv(cf, "bandwidth", "50", e) < 0 || cfg_set_kv(cf, "latency", "500", e) < 0)
		return -1;
	return 0;
}

static int check_groups(const cfg *cf, uint32_t world, et_error *e)
{
	for (int i = 0; i < cf->ngroups; i++)
		for (uint32_t k = 0; k < cf->groups[i].n; k++)
			if (cf->groups[i].mem[k] >= world)
				return et_fail(e, ET_EXIT_USAGE,
				               "%s: group %d names rank %u, the trace has %u ranks",
				               cf->grp_file, cf->groups[i].id, cf->groups[i].mem[k],
				               world);
	return 0;
}

/* The --set list, each error behind the setting it came from. */
static int apply_sets(const run_conf *c, cfg *cf, et_error *e)
{
	for (int i = 0; i < c->nsets; i++) {
		et_error in;
		if (cfg_set(cf, c->sets[i], &in) < 0)
			return et_fail(e, ET_EXIT_USAGE, "--set %s: %s", c->sets[i], in.msg);
	}
	return 0;
}

/* cfg_finish, its error behind the file the bad value most likely came
 * from: endpoint-delay is a system key, the rest are blamed on the network
 * file. */
static int finish(cfg *cf, et_error *e)
{
	et_error in;
	if (cfg_finish(cf, &in) == 0)
		return 0;
	const char *src = cf->sys_file[0] && cf->endpoint <= 0 ? cf->sys_file
	                  : cf->net_file[0]                    ? cf->net_file
	                                                       : "configuration";
	return et_fail(e, ET_EXIT_USAGE, "%s: %s", src, in.msg);
}

int run_build_cfg(const run_conf *c, cfg *cf, uint32_t world, et_error *e)
{
	cfg_defaults(cf);
	if (!c->network && net_defaults(cf, world, e) < 0)
		return -1;
	if (c->network && cfg_load_network(cf, c->network, e) < 0)
		return -1;
	if (c->system && cfg_load_system(cf, c->system, e) < 0)
		return -1;
	if (c->groups && cfg_load_groups(cf, c->groups, e) < 0)
		return -1;
	if (!c->groups && c->stream_groups && c->stream_groups->n)
		cfg_add_groups(cf, c->stream_groups, c->stream_input);
	cf->net.backend = c->backend;
	et_error in;
	if (c->logical && cfg_set_kv(cf, "logical-dims", c->logical, &in) < 0)
		return et_fail(e, ET_EXIT_USAGE, "--logical-dims %s: %s", c->logical, in.msg);
	if (apply_sets(c, cf, e) < 0)
		return -1;
	if (c->cmodel && cfg_set_kv(cf, "compute-model", c->cmodel, e) < 0)
		return -1;
	if (c->compute && cfg_set_compute(cf, c->compute, e) < 0)
		return -1;
	if (finish(cf, e) < 0)
		return -1;
	if (cf->total != world)
		return et_fail(e, ET_EXIT_USAGE, "%s: the network has %u ranks, the trace has %u",
		               cf->net_file[0] ? cf->net_file : "network", cf->total, world);
	if ((cf->roofline || cf->compute_model != CM_REPLAY) && cf->peak_perf <= 0)
		return et_fail(e, ET_EXIT_USAGE, "roofline needs peak-perf > 0");
	return check_groups(cf, world, e);
}

/* Folding needs a backend whose messages share nothing (the unaware one)
 * and closed forms for the collectives of a class (one chunk at a time);
 * the run itself checks that every phase has one and falls back to
 * simulating every rank if not. */
static bool fold_possible(const run_conf *c, const cfg *cf, const workload *w)
{
	unsigned need = NET_CAP_FOLD | NET_CAP_CLOSED_FORM;
	return !c->no_fold && c->op.closed_form && w->world >= 2 && cf->active_chunks == 1 &&
	       (net_backend_of(cf->net.backend)->caps & need) == need;
}

/* What a message's unaware delay depends on: the first dimension where
 * its ends differ and the hops there. */
static uint64_t delay_sig(const void *ctx, uint32_t a, uint32_t b)
{
	const cfg *cf = ctx;
	return (uint64_t)(net_first_dim(cf, a, b) + 1) << 32 | (uint32_t)net_hops(cf, a, b);
}

/* Whether every member of a group sees the same view (the delay
 * signatures to the members after it in ring order): its members first
 * differ in one dimension, agreeing below it, and are all apart in it; a
 * Switch or FullyConnected one, whose hops do not depend on the
 * coordinates, or a Ring they sit evenly around (net_ring_even). */
static bool uniform_group(const void *ctx, const uint32_t *mem, uint32_t n)
{
	const cfg *cf = ctx;
	if (n < 2)
		return true;
	int d = net_first_dim(cf, mem[0], mem[1]);
	if (d < 0)
		return false;
	if (cf->net.topo[d] == TOPO_RING)
		return net_ring_even(cf, mem, n, d);
	et_hmap seen = {0};
	bool ok = true;
	for (uint32_t i = 0; i < n && ok; i++) {
		for (int k = 0; k < d && ok; k++)
			ok = net_coord(cf, mem[i], k) == net_coord(cf, mem[0], k);
		uint64_t *v = et_hmap_put(&seen, net_coord(cf, mem[i], d), 0, i);
		ok = ok && *v == i;
	}
	et_hmap_free(&seen);
	return ok;
}

/* A rank's items for classes_find: its distinct communicating values
 * (sgraph_pack), each a collective's group (-1: every rank), a send's or a
 * receive's peer; which nodes use which is its pattern, part of its first
 * colour. -1 when the rank is not packed (why says why), -2 when a group
 * is unknown (the unfolded run says so). */
static int graph_items(const cfg *cf, const workload *w, uint32_t r, cls_item **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	const sgraph *shape;
	const cpat *cp;
	const int32_t *cv;
	const char *pgnames;
	workload_vals(w, r, &shape, &cp, &cv, &pgnames);
	if (!cp)
		return -1;
	*out = et_xmalloc(((size_t)cp->nval + 1) * sizeof **out);
	for (uint32_t j = 0; j < cp->nval; j++) {
		uint8_t t = cp->kind[j];
		cls_item it = {t == ET_NODE_SEND   ? CLS_SEND
		               : t == ET_NODE_RECV ? CLS_RECV
		                                   : CLS_COLL,
		               cv[j]};
		if (t == ET_NODE_COLL) {
			const char *pg = cv[j] ? pgnames + cv[j] : NULL;
			int gi = -1;
			if (!et_pg_is_all(pg) && !cfg_group(cf, pg, &gi))
				return -2;
			it.v = gi;
		}
		(*out)[(*n)++] = it;
	}
	return 0;
}

typedef struct fold_in {
	uint32_t *colour; /* rank -> first colour */
	cls_item **items; /* per rank */
	uint32_t *nitems; /* per rank */
} fold_in;

static void fold_in_free(fold_in *f, uint32_t world)
{
	for (uint32_t k = 0; f->items && k < world; k++)
		free(f->items[k]);
	free(f->items);
	free(f->nitems);
	free(f->colour);
}

/* First colours: one per graph shape (w->cls), value pattern and --slow
 * factor, numbered in order of the first rank. */
static void first_colours(const run_conf *c, const workload *w, fold_in *f)
{
	et_hmap m = {0}, cm = {0};
	for (uint32_t k = 0; k < w->ncls; k++)
		*et_hmap_put(&m, (uint64_t)(uintptr_t)w->cls[k], 0, 0) = k;
	uint64_t next = 0;
	for (uint32_t r = 0; r < w->world; r++) {
		const sgraph *g;
		const cpat *cp;
		const int32_t *cv;
		const char *pgn;
		workload_vals(w, r, &g, &cp, &cv, &pgn);
		uint64_t shape = *et_hmap_get(&m, (uint64_t)(uintptr_t)g, 0) | (uint64_t)cp->id
		                                                                   << 32;
		double slow = c->op.slow ? c->op.slow[r] : 1.0;
		uint64_t bits;
		memcpy(&bits, &slow, sizeof bits);
		uint64_t *v = et_hmap_put(&cm, shape, bits, next);
		if (*v == next)
			next++;
		f->colour[r] = (uint32_t)*v;
	}
	et_hmap_free(&m);
	et_hmap_free(&cm);
}

/* --critical-path follows causes across ranks, which a fold renames: it
 * folds only the ranks it always folded, identical ranks whose every
 * collective spans all ranks, without SEND/RECV. */
static bool crit_foldable(const rank_classes *rc, const fold_in *f, uint32_t world)
{
	if (rc->n != 1)
		return false;
	for (uint32_t r = 0; r < world; r++)
		for (uint32_t k = 0; k < f->nitems[r]; k++)
			if (f->items[r][k].kind != CLS_COLL || f->items[r][k].v >= 0)
				return false;
	return true;
}

/* The rank classes to fold by: 0 with rc set, -1 to simulate every rank.
 * With --critical-path see crit_foldable. */
static int find_fold(const run_conf *c, const cfg *cf, const workload *w, rank_classes *rc)
{
	memset(rc, 0, sizeof *rc);
	if (!fold_possible(c, cf, w))
		return -1;
	fold_in f = {0};
	f.colour = et_xcalloc(w->world, sizeof *f.colour);
	f.items = et_xcalloc(w->world, sizeof *f.items);
	f.nitems = et_xcalloc(w->world, sizeof *f.nitems);
	int r = 0;
	uint32_t k = 0;
	for (; k < w->world && r == 0; k++)
		r = graph_items(cf, w, k, &f.items[k], &f.nitems[k]);
	if (r == -1 && c->verbose)
		fprintf(stderr,
		        "et-sim: every rank simulated: rank %u has more than %u distinct pg names "
		        "and peers (or two pg names of one hash), too many to compare ranks by\n",
		        k - 1, (unsigned)CPAT_MAX_VALS);
	if (r == -2 && c->verbose)
		fprintf(stderr,
		        "et-sim: every rank simulated: rank %u uses a comm group that is not "
		        "defined\n",
		        k - 1);
	if (r == 0) {
		first_colours(c, w, &f);
		cls_in in = {w->world,  f.colour,      (const cls_item *const *)f.items,
		             f.nitems,  cf->groups,    cf->ngroups,
		             delay_sig, uniform_group, cf};
		r = classes_find(rc, &in);
		if (r < 0 && c->verbose)
			fprintf(stderr, "et-sim: every rank simulated: %s\n", rc->why);
	}
	if (r == 0 && rc->n == w->world && c->verbose)
		fprintf(stderr, "et-sim: every rank simulated: every rank is a class of its own\n");
	if (r == 0 && (rc->n == w->world || (c->crit && !crit_foldable(rc, &f, w->world))))
		r = -1;
	fold_in_free(&f, w->world);
	if (r < 0)
		classes_free(rc);
	return r;
}

static bool all_finished(const sim *s)
{
	for (uint32_t k = 0; k < s->nranks; k++)
		if (!s->r[k].finished)
			return false;
	return true;
}

/* The graphs of the ranks a run simulates (every rank without rc), views
 * made of packed ranks as needed (workload_graph). */
static const sgraph *const *graphs_for(const workload *w, const rank_classes *rc)
{
	for (uint32_t k = 0; k < (rc ? rc->n : w->world); k++)
		workload_graph(w, rc ? rc->rep[k] : k);
	return w->rank_graph;
}

/* From this many ranks on, simulating every one is worth a word (a large
 * plan on a network that does not fold it: minutes and gigabytes). */
enum { WARN_UNFOLDED = 4096 };

int run_simulate(sim *s, const run_conf *c, const cfg *cf, const workload *w, et_error *e)
{
	rank_classes rc;
	bool fold = find_fold(c, cf, w, &rc) == 0;
	if (!fold && fold_possible(c, cf, w) && !c->crit && !c->nsweeps &&
	    w->world >= WARN_UNFOLDED)
		et_warn(
		    "simulating every one of the %u ranks: they do not fold into fewer classes "
		    "on this network (-v says why; a network whose groups look alike from every "
		    "member, such as Switch dimensions, folds an et-stage plan to its stages)",
		    w->world);
	sim_init(s, cf, &c->op, graphs_for(w, fold ? &rc : NULL), w->world, fold ? &rc : NULL);
	sim_end r = sim_run(s, e);
	/* a phase without a closed form; and, with several classes, a failure
	 * or a deadlock, whose message names ranks as every rank's run does */
	if (fold && (r == SIM_UNFOLD || (rc.n > 1 && (r == SIM_FAILED || !all_finished(s))))) {
		if (c->verbose && r == SIM_UNFOLD && s->unfold_why)
			fprintf(stderr,
			        "et-sim: every rank simulated: the folded run met %s at %llu ns\n",
			        s->unfold_why, (unsigned long long)s->unfold_at);
		sim_free(s);
		sim_init(s, cf, &c->op, graphs_for(w, NULL), w->world, NULL);
		r = sim_run(s, e);
	}
	classes_free(&rc);
	return r == SIM_DONE ? 0 : -1;
}

static void warn_mem(const cfg *cf, const workload *w)
{
	if (cf->mem_latency || cf->mem_bw > 0)
		return;
	for (uint32_t k = 0; k < w->ncls; k++)
		for (uint32_t i = 0; i < w->cls[k]->n; i++)
			if (et_node_is_mem(w->cls[k]->type[i])) {
				et_warn("MEM_LOAD/MEM_STORE nodes take no time (set mem-latency / "
				        "mem-bandwidth)");
				return;
			}
}

/* Whether the compute model gives GPU COMP node i of g 0 ns although the
 * trace recorded a duration: roofline prices ops over bytes, and a node
 * without them takes no time (ASTRA-sim does the same, silently). */
static bool zeroed(const cfg *cf, const sgraph *g, uint32_t i)
{
	if (g->type[i] != ET_NODE_COMP || (g->flags[i] & SG_CPU) || !g->dur_us[i])
		return false;
	const uint64_t *mnk = &g->gemm[(size_t)i * 3];
	if (cf->compute_model == CM_SYSTOLIC && mnk[0] && mnk[1] && mnk[2])
		return false;
	return g->tensor_size[i] == 0 || g->num_ops[i] <= 0;
}

typedef struct cls_count {
	const sgraph *g;
	uint64_t n;
} cls_count;

static int cls_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const cls_count *)a)->g,
	          y = (uintptr_t)((const cls_count *)b)->g;
	return x < y ? -1 : x > y;
}

/* The GPU COMP nodes of every rank that pred picks: each distinct graph
 * counted once, then per rank. */
static uint64_t count_ranks(const cfg *cf, const workload *w,
                            bool (*pred)(const cfg *, const sgraph *, uint32_t))
{
	cls_count *c = et_xcalloc(w->ncls ? w->ncls : 1, sizeof *c);
	for (uint32_t k = 0; k < w->ncls; k++) {
		c[k].g = w->cls[k];
		for (uint32_t i = 0; i < w->cls[k]->n; i++)
			c[k].n += pred(cf, w->cls[k], i);
	}
	qsort(c, w->ncls, sizeof *c, cls_cmp);
	uint64_t total = 0;
	for (uint32_t r = 0; r < w->world; r++) {
		const sgraph *g;
		const cpat *cp;
		const int32_t *cv;
		const char *pgn;
		workload_vals(w, r, &g, &cp, &cv, &pgn);
		cls_count key = {g, 0};
		const cls_count *hit = key.g ? bsearch(&key, c, w->ncls, sizeof *c, cls_cmp) : NULL;
		total += hit ? hit->n : 0;
	}
	free(c);
	return total;
}

static void warn_roofline(const cfg *cf, const workload *w)
{
	if (!cf->roofline && cf->compute_model == CM_REPLAY)
		return;
	uint64_t total = count_ranks(cf, w, zeroed);
	if (total)
		et_warn(
		    "roofline: %llu COMP node%s with a recorded duration but no num_ops or "
		    "tensor_size take 0 ns (their durations are not used; ASTRA-sim does the same)",
		    (unsigned long long)total, total == 1 ? "" : "s");
}

/* Whether replay gives GPU COMP node i 0 ns although it says what it
 * computes: a trace without timings (et-stage's plans, compiled programs). */
static bool unpriced(const cfg *cf, const sgraph *g, uint32_t i)
{
	(void)cf;
	return g->type[i] == ET_NODE_COMP && !(g->flags[i] & SG_CPU) && !g->dur_us[i] &&
	       g->num_ops[i] > 0;
}

/* Replay of a trace without timings is 0 ns of compute: never silently. */
static void warn_replay(const cfg *cf, const workload *w)
{
	if (cf->roofline || cf->compute_model != CM_REPLAY)
		return;
	uint64_t total = count_ranks(cf, w, unpriced);
	if (total)
		et_warn(
		    "%llu GPU COMP node%s with num_ops but no duration take%s 0 ns (replay: the "
		    "trace has no timings); price %s with --compute-model roofline or systolic",
		    (unsigned long long)total, total == 1 ? "" : "s", total == 1 ? "s" : "",
		    total == 1 ? "it" : "them");
}

static int write_side(const char *path, const sim *s, int (*fn)(FILE *, const sim *), et_error *e)
{
	et_output *o;
	if (et_output_open(&o, path, false, e) < 0)
		return -1;
	fn(et_output_file(o), s);
	return et_output_close_deferred(o, e); /* put in place with the report */
}

static int report(const run_conf *c, const sim *s, const workload *w, et_error *e)
{
	et_output *o;
	if (et_output_open(&o, c->output, false, e) < 0)
		return -1;
	FILE *f = et_output_file(o);
	run_res rr;
	report_collect(s, &rr);
	if (c->astra) {
		report_astra(f, &rr);
	} else if (c->json) {
		et_jsonw j;
		et_jsonw_init(&j, f, NULL, ET_JSONW_COMPACT, ET_JSTR_CTRL_NT);
		et_jsonw_set_lines(&j, true);
		et_ranklist rl = {0};
		et_error ignored;
		if (c->json_colls) /* checked by the option: it parses */
			run_parse_colls(c->json_colls, &rl, &ignored);
		report_json(&j, s, &rr, w, c->json_colls ? &rl : NULL);
		et_ranklist_free(&rl);
		if (c->crit)
			crit_json(&j, s);
		et_jsonw_end(&j);
		et_jsonw_done(&j); /* f's errors: et_output_close_deferred's */
	} else {
		report_text(f, s, &rr, w);
		links_report_top(f, s);
		if (c->crit)
			crit_print(f, s);
	}
	report_free(&rr);
	return et_output_close_deferred(o, e);
}

/* What the simulation found wrong with the trace ("rank 0: node 2: ..."),
 * behind the input's name as every other bad-input message (a --sweep row
 * keeps the bare message: the table is about one input). */
static void name_input(et_error *e, const workload *w)
{
	char msg[sizeof e->msg];
	snprintf(msg, sizeof msg, "%s", e->msg);
	et_fail(e, ET_EXIT_DATA, "%s: %s", w->input, msg);
}

static int simulate_and_report(run_conf *c, const cfg *cf, const workload *w, et_error *e)
{
	sim s;
	c->op.record_cause = c->crit;
	c->op.progress = c->progress;
	int rc = run_simulate(&s, c, cf, w, e);
	if (rc < 0 && e->code == ET_EXIT_DATA)
		name_input(e, w);
	if (rc == 0)
		rc = report_deadlock(&s, e);
	if (rc == 0 && c->schedule)
		rc = write_side(c->schedule, &s, sched_write_jsonl, e);
	if (rc == 0 && c->trace)
		rc = write_side(c->trace, &s, sched_write_chrome, e);
	if (rc == 0 && c->link_stats)
		rc = write_side(c->link_stats, &s, links_write_csv, e);
	if (rc == 0)
		rc = report(c, &s, w, e);
	/* the side files and the report appear together or not at all: a run
	 * that failed leaves no schedule that looks like a finished run's */
	if (rc == 0)
		rc = et_output_commit_all(e);
	else
		et_output_abort_all();
	sim_free(&s);
	return rc;
}

/* --link-stats measures one run's links. */
static int check_link_stats(const run_conf *c, const cfg *cf, et_error *e)
{
	if (c->nsweeps)
		return et_fail(e, ET_EXIT_USAGE, "--link-stats: one run's links, not with --sweep");
	if (!(net_backend_of(cf->net.backend)->caps & NET_CAP_LINKS))
		return et_fail(e, ET_EXIT_USAGE,
		               "--link-stats: the %s backend has no links (use --backend %s)",
		               net_backend_of(cf->net.backend)->name,
		               net_backend_of(net_backend_with(NET_CAP_LINKS))->name);
	return 0;
}

int run_parse_slow(const char *arg, et_ranklist *rl, double *factor, et_error *e)
{
	const char *eq = strrchr(arg, '=');
	char *end;
	if (!eq)
		return et_fail(e, ET_EXIT_USAGE, "--slow %s: expected RANKS=FACTOR", arg);
	*factor = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || !(*factor > 0) || *factor > 1e9)
		return et_fail(e, ET_EXIT_USAGE,
		               "--slow %s: the factor must be a number > 0 and at most 1e9", arg);
	char ranks[256];
	size_t n = (size_t)(eq - arg);
	if (n == 0 || n >= sizeof ranks)
		return et_fail(e, ET_EXIT_USAGE, "--slow %s: expected a rank list before '='", arg);
	memcpy(ranks, arg, n);
	ranks[n] = 0;
	memset(rl, 0, sizeof *rl);
	if (et_ranklist_parse(rl, ranks) < 0 || rl->n == 0)
		return et_fail(e, ET_EXIT_USAGE, "--slow %s: '%s' is not a rank list (0-3,7)", arg,
		               ranks);
	return 0;
}

int run_parse_colls(const char *arg, et_ranklist *rl, et_error *e)
{
	memset(rl, 0, sizeof *rl);
	if (strcmp(arg, "none") == 0)
		return 0;
	if (et_ranklist_parse(rl, arg) < 0 || rl->n == 0)
		return et_fail(e, ET_EXIT_USAGE,
		               "--json-collectives %s: expected a rank list (0-3,7) or 'none'",
		               arg);
	return 0;
}

/* --slow's factors per rank of the trace (a later --slow wins on a rank
 * named twice); NULL without --slow. */
static int build_slow(const run_conf *c, uint32_t world, double **out, et_error *e)
{
	*out = NULL;
	if (!c->nslows)
		return 0;
	double *f = et_xmalloc(((size_t)world + 1) * sizeof *f);
	for (uint32_t r = 0; r < world; r++)
		f[r] = 1.0;
	for (int i = 0; i < c->nslows; i++) {
		et_ranklist rl;
		double x;
		if (run_parse_slow(c->slows[i], &rl, &x, e) < 0) {
			free(f);
			return -1;
		}
		bool beyond = false;
		for (int k = 0; k < rl.n; k++)
			beyond = beyond || rl.ranges[k][1] >= world;
		for (uint32_t r = 0; r < world; r++)
			if (et_ranklist_has(&rl, r))
				f[r] = x;
		et_ranklist_free(&rl);
		if (beyond) {
			free(f);
			return et_fail(e, ET_EXIT_USAGE, "--slow %s: the trace has %u ranks (0-%u)",
			               c->slows[i], world, world - 1);
		}
	}
	*out = f;
	return 0;
}

int run_main(run_conf *c, int argc, char **argv)
{
	workload w;
	et_error e = {0};
	if (load_workload(&w, argc, argv, &c->in, c->progress, &e) < 0) {
		int rc = et_app_fail(&e);
		workload_free(&w);
		return rc;
	}
	/* a subset of a world (et-convert --ranks, a lone rank with --world)
	 * is simulated as a world of its own: the collectives' peers change */
	if (w.said_world > w.world && c->progress >= 0)
		et_warn("%s: the input holds the first %u of the %u ranks of its world: "
		        "simulated as a world of %u",
		        w.input, w.world, w.said_world, w.world);
	et_mem_trim();
	if (c->verbose && w.rule_ranks)
		fprintf(stderr, "et-sim: %u of %u ranks built from their class rules\n",
		        w.rule_ranks, w.world);
	c->stream_groups = &w.groups;
	c->stream_input = w.input;
	if (!c->groups && w.groups.warning && c->progress >= 0)
		et_warn("%s: %s", w.input, w.groups.warning);
	cfg cf;
	double *slow = NULL;
	int rc = run_build_cfg(c, &cf, w.world, &e);
	if (rc == 0)
		rc = build_slow(c, w.world, &slow, &e);
	c->op.slow = slow;
	/* once, whatever the number of --sweep points */
	for (int i = 0; i < cf.nwarn && c->progress >= 0; i++)
		et_warn("%s", cf.warn[i]);
	if (rc == 0 && c->link_stats)
		rc = check_link_stats(c, &cf, &e);
	if (rc == 0) {
		if (c->verbose)
			links_print_devices(stderr, &cf);
		if (c->progress >= 0) {
			warn_mem(&cf, &w);
			warn_roofline(&cf, &w);
			warn_replay(&cf, &w);
		}
		rc = c->nsweeps ? sweep_run(c, &w, &e) : simulate_and_report(c, &cf, &w, &e);
	}
	cfg_free(&cf);
	workload_free(&w);
	c->op.slow = NULL;
	free(slow);
	if (rc == 0)
		return ET_EXIT_OK;
	return et_app_fail(&e);
}
