/* sweep: --sweep KEY=V1,V2,... (repeatable) runs every combination, the
 * last --sweep varying fastest, and prints one CSV row per point. Within a
 * value, '/' separates list elements (bandwidth=100/50,200/100). The trace
 * is read once; each point re-reads the small config files and re-runs. */
#include "et-sim/report/sweep.h"
#include "et-sim/report/report.h"
#include "et_mem.h"
#include "et_output.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct axis {
	char key[64];
	char **val;
	int n;
	size_t cap;
} axis;

/* The first l bytes of p, as a string of their own. */
static char *copy_n(const char *p, size_t l)
{
	char *v = et_xmalloc(l + 1);
	memcpy(v, p, l);
	v[l] = 0;
	return v;
}

static int parse_axis(const char *spec, axis *a, et_error *e)
{
	const char *eq = strchr(spec, '=');
	if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof a->key || !eq[1])
		return et_fail(e, ET_EXIT_USAGE, "--sweep: expected KEY=V1,V2,..., got '%s'", spec);
	memcpy(a->key, spec, (size_t)(eq - spec));
	a->key[eq - spec] = 0;
	a->n = 0;
	a->cap = 0;
	a->val = NULL;
	for (const char *p = eq + 1; *p;) {
		size_t l = strcspn(p, ",");
		ET_GROW(a->val, a->cap, (size_t)a->n + 1);
		a->val[a->n++] = copy_n(p, l);
		p += l;
		if (*p)
			p++;
	}
	return 0;
}

static void axes_free(axis *ax, int n)
{
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < ax[i].n; k++)
			free(ax[i].val[k]);
		free(ax[i].val);
	}
	free(ax);
}

/* A point that cannot run: its row holds the message. */
static void failed_row(FILE *f, const et_error *e)
{
	fputs(",,,,", f);
	report_csv_cell(f, e->msg);
	putc('\n', f);
}

static void run_point(FILE *f, run_conf *pc, const workload *w, uint32_t world)
{
	cfg cf;
	et_error e;
	if (run_build_cfg(pc, &cf, world, &e) < 0) {
		failed_row(f, &e);
		cfg_free(&cf);
		return;
	}
	sim s;
	if (run_simulate(&s, pc, &cf, w, &e) < 0 || report_deadlock(&s, &e) < 0) {
		failed_row(f, &e);
	} else {
		run_res rr;
		report_collect(&s, &rr);
		uint64_t exp = 0;
		for (uint32_t k = 0; k < rr.world; k++)
			exp = rr.r[k].exposed > exp ? rr.r[k].exposed : exp;
		fprintf(f, "%llu,%llu,%llu,%llu,ok\n", (unsigned long long)rr.iter,
		        (unsigned long long)rr.fmin, (unsigned long long)rr.fmed,
		        (unsigned long long)exp);
		report_free(&rr);
	}
	sim_free(&s);
	cfg_free(&cf);
}

static void sweep_all(FILE *f, run_conf *c, axis *ax, int na, const workload *w)
{
	int *idx = et_xcalloc((size_t)na, sizeof *idx);
	const char **sets = et_xcalloc((size_t)(c->nsets + na), sizeof *sets);
	char(*kv)[1100] = et_xcalloc((size_t)na, sizeof *kv);
	run_conf pc = *c;
	pc.sets = sets;
	pc.nsets = c->nsets + na;
	if (c->nsets)
		memcpy(sets, c->sets, (size_t)c->nsets * sizeof *sets);
	for (;;) {
		for (int a = 0; a < na; a++) {
			snprintf(kv[a], sizeof kv[a], "%s=%s", ax[a].key, ax[a].val[idx[a]]);
			sets[c->nsets + a] = kv[a];
			report_csv_cell(f, ax[a].val[idx[a]]);
			putc(',', f);
		}
		run_point(f, &pc, w, w->world);
		int a = na - 1;
		while (a >= 0 && ++idx[a] == ax[a].n)
			idx[a--] = 0;
		if (a < 0)
			break;
	}
	free(idx);
	free(sets);
	free(kv);
}

/* Before any point runs: a key swept twice, or a value that --set would
 * refuse as a usage error (unknown key, not a number), is one here too;
 * what fails only in combination stays a failed row. */
static int check_axes(run_conf *c, const axis *ax, int na, uint32_t world, et_error *e)
{
	const char **sets = et_xcalloc((size_t)c->nsets + 1, sizeof *sets);
	if (c->nsets)
		memcpy(sets, c->sets, (size_t)c->nsets * sizeof *sets);
	run_conf pc = *c;
	pc.sets = sets;
	pc.nsets = c->nsets + 1;
	int r = 0;
	char kv[1100];
	for (int a = 0; a < na && r == 0; a++) {
		for (int b = 0; b < a && r == 0; b++)
			if (strcmp(ax[a].key, ax[b].key) == 0)
				r = et_fail(e, ET_EXIT_USAGE, "--sweep: %s is swept twice",
				            ax[a].key);
		for (int k = 0; k < ax[a].n && r == 0; k++) {
			snprintf(kv, sizeof kv, "%s=%s", ax[a].key, ax[a].val[k]);
			sets[c->nsets] = kv;
			cfg cf;
			et_error e2;
			if (run_build_cfg(&pc, &cf, world, &e2) < 0 && e2.code == ET_EXIT_USAGE) {
				/* the configuration layer words it for --set */
				bool set = strncmp(e2.msg, "--set ", 6) == 0;
				r = et_fail(e, ET_EXIT_USAGE, "%s%s", set ? "--sweep " : "",
				            set ? e2.msg + 6 : e2.msg);
			}
			cfg_free(&cf);
		}
	}
	free(sets);
	return r;
}

int sweep_run(run_conf *c, const workload *w, et_error *e)
{
	axis *ax = et_xcalloc((size_t)c->nsweeps, sizeof *ax);
	for (int i = 0; i < c->nsweeps; i++)
		if (parse_axis(c->sweeps[i], &ax[i], e) < 0) {
			axes_free(ax, i + 1);
			return -1;
		}
	if (check_axes(c, ax, c->nsweeps, w->world, e) < 0) {
		axes_free(ax, c->nsweeps);
		return -1;
	}
	et_output *o;
	if (et_output_open(&o, c->output, false, e) < 0) {
		axes_free(ax, c->nsweeps);
		return -1;
	}
	FILE *f = et_output_file(o);
	for (int i = 0; i < c->nsweeps; i++) {
		report_csv_cell(f, ax[i].key);
		putc(',', f);
	}
	fputs("iteration_ns,finish_min_ns,finish_median_ns,exposed_comm_max_ns,status\n", f);
	c->op.record_cause = false;
	c->op.progress = -1;
	sweep_all(f, c, ax, c->nsweeps, w);
	axes_free(ax, c->nsweeps);
	return et_output_commit(o, e);
}
