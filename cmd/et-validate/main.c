/* et-validate: find every defect that makes a trace lie or a simulator
 * hang, per rank and across ranks. Memory: one rank's graph at a time plus
 * per-rank comm summaries (see summary.h and et-validate(1)). */
#include "app/et_cli.h"
#include "et-validate/checks/pgroups.h"
#include "et-validate/read.h"
#include "et-validate/report/report.h"
#include "et-validate/report/stats.h"
#include "et-validate/report/summary.h"
#include "et_err.h"
#include "et_input.h"
#include "et_netyaml.h"
#include "et_output.h"
#include "et_progress.h"
#include "et_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-validate [OPTIONS] [INPUT...]\n"
    "Check Chakra execution traces, every rank of every INPUT: a stream (.etz), a\n"
    "raw/gzip/zstd .et file, a per-rank set PREFIX (PREFIX.0.et, ...), our JSON or\n"
    "JSONL, or - for stdin (the default). The report goes to stdout, or to stderr\n"
    "with --tee or --tee-always; --ranks limits the cross-rank checks too.\n"
    "\n";

static const char footer[] =
    "Exit status: 0 no errors, 1 errors found (--strict: or warnings), 2 usage,\n"
    "3 unreadable input, 4 I/O error. See et-validate(1) for every check code.\n";

typedef struct conf {
	et_cli cli;
	et_cli_in in;
	vopts o;
} conf;

static const char *const profiles[] = {"default", "astra-sim", NULL};
static const char *const report_formats[] = {"text", "json", NULL};

static int opt_max_per_code(et_cli *cli, const et_opt *o, const char *arg)
{
	int64_t n = et_cli_int(cli, "--max-per-code", arg, 0, INT32_MAX);
	*(size_t *)o->target = n ? (size_t)n : SIZE_MAX;
	return 0;
}

/* "N[,N...]", as a network YAML's npus_count lists them. */
static int opt_npus_count(et_cli *cli, const et_opt *o, const char *arg)
{
	vopts *vo = o->target;
	char buf[256];
	snprintf(buf, sizeof buf, "%s", arg);
	vo->n_npus = 0;
	for (char *p = buf, *save = NULL, *tok; (tok = strtok_r(p, ",", &save)); p = NULL) {
		if (vo->n_npus == ET_DIMS_MAX)
			et_cli_usage_error(cli, "--npus-count: more than %d dimensions",
			                   ET_DIMS_MAX);
		vo->npus[vo->n_npus++] =
		    (uint32_t)et_cli_int(cli, "--npus-count", tok, 1, UINT32_MAX);
	}
	if (vo->n_npus == 0)
		et_cli_usage_error(cli, "--npus-count: expected N[,N...]");
	return 0;
}

static void parse_args(conf *c, int argc, char **argv)
{
	et_cli_in_init(&c->in, false, 0);
	c->in.o.lenient_meta = true; /* a missing GlobalMetadata is a finding here */
	c->o.max_per_code = 10;
	c->o.threads = 1;
	int profile = 0, fmt = 0;
	et_opt opts[] = {
	    ET_OPT_CHOICE(0, "for", "PROFILE",
	                  "default, or astra-sim: what ASTRA-sim aborts or stalls on is an error "
	                  "instead of a "
	                  "warning",
	                  &profile, .choices = profiles),
	    ET_OPT_STR(0, "comm-groups", "FILE",
	               "ASTRA-sim comm-group JSON {\"<id>\": [rank, ...]}", &c->o.comm_groups),
	    ET_OPT_STR(
	        0, "network", "FILE",
	        "et-sim's network file: its npus_count are the dimensions involved_dim names (an "
	        "InfraGraph network: one of every rank, or --npus-count)",
	        &c->o.network),
	    ET_OPT_FN(
	        0, "npus-count", "N,...",
	        "the network's ranks per dimension (ASTRA-sim's npus_count), that involved_dim "
	        "names; wins over --network's",
	        &c->o, .fn = opt_npus_count),
	    ET_OPT_CHOICE('F', "format", "FMT", "text (default) or json", &fmt,
	                  .choices = report_formats),
	    ET_OPT_FLAG(0, "stats", "add per-rank and total statistics", &c->o.want_stats),
	    ET_OPT_FN(0, "max-per-code", "N", "instances listed per code (default 10; 0 = all)",
	              &c->o.max_per_code, .fn = opt_max_per_code),
	    ET_OPT_FLAG(0, "strict", "warnings fail too (exit 1)", &c->o.strict),
	    ET_OPT_SET(0, "tee",
	               "copy the input to stdout as a stream, only if it validates (buffered in a "
	               "temporary file)",
	               &c->o.tee_mode, .value = 1),
	    ET_OPT_SET(0, "tee-always", "copy the input to stdout as a stream while reading",
	               &c->o.tee_mode, .value = 2),
	    ET_OPT_INT('T', "threads", "N",
	               "1 (default): read and decode on a second thread; 0: on the checking thread",
	               &c->o.threads, .min = 0, .max = 1),
	    ET_OPT_FLAG(0, "timing", "time per phase on stderr", &c->o.timing),
	    ET_OPT_HEADING("Input:"),
	    ET_OPTS_INPUT(&c->in),
	    ET_OPTS_COMMON(&c->cli),
	    ET_OPT_END,
	};
	c->cli = (et_cli){.prog = "et-validate", .usage = usage, .footer = footer, .opts = opts};
	et_cli_parse(&c->cli, argc, argv);
	c->cli.opts = NULL; /* the table lives on this stack frame */
	c->o.astra = profile == 1;
	c->o.dims_given = c->o.n_npus > 0;
	c->o.json = fmt == 1;
}

/* The single-rank rate is nodes over adding + node checks + rank checks:
 * the summaries exist only for the cross-rank checks, and are timed with
 * them. */
static void print_timing(const vctx *v)
{
	double add = (double)v->t_add_ns / 1e9, chk = (double)v->t_check_ns / 1e9;
	double n = (double)v->n_nodes;
	fprintf(stderr,
	        "timing: reading + decoding %.3f s (%s); single-rank checks: adding + node checks "
	        "%.3f s, rank checks %.3f s, %.2f M nodes/s after decoding; cross-rank checks: "
	        "summaries %.3f s (%llu bytes), checks %.3f s (CPU)\n",
	        (double)v->t_decode_ns / 1e9, v->read_thread ? "both threads" : "one thread", add,
	        chk, add + chk > 0 ? n / (add + chk) / 1e6 : 0.0, (double)v->t_sum_ns / 1e9,
	        (unsigned long long)v->xs->bytes, (double)v->t_cross_ns / 1e9);
	if (v->rule_ranks)
		fprintf(stderr,
		        "timing: %u of %llu ranks checked from their class rules, not decoded\n",
		        v->rule_ranks, (unsigned long long)v->n_ranks);
	if (v->dl_classes)
		fprintf(stderr, "timing: deadlock check over %u rank classes of %llu ranks\n",
		        v->dl_classes, (unsigned long long)v->xs->n);
}

/* --tee holds the copy until the input validates; --tee-always streams it
 * as read. Either re-emits every rank as a stream section with the rank,
 * world size and name of the input, holding the very message bytes read. */
static int tee_open(et_writer **w, int mode, et_error *e)
{
	et_writer_cfg wc;
	et_writer_cfg_init(&wc);
	wc.hold = mode == 1;
	return et_writer_open(w, &wc, e);
}

/* A network YAML's npus_count (the other keys are et-sim's to check). */
static int net_key(void *ctx, const char *key, const char *val, et_error *e)
{
	vopts *o = ctx;
	if (strcmp(key, "npus_count") != 0)
		return 0;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", val);
	o->n_npus = 0;
	for (char *p = buf, *save = NULL, *tok; (tok = strtok_r(p, ",", &save)); p = NULL) {
		char *end;
		errno = 0;
		double x = strtod(tok, &end);
		while (*end == ' ')
			end++;
		if (end == tok || *end || errno || !(x >= 1 && x <= 1e7) || x != (uint32_t)x)
			return et_fail(e, ET_EXIT_DATA, "npus_count: '%s' is not a rank count",
			               tok);
		if (o->n_npus == ET_DIMS_MAX)
			return et_fail(e, ET_EXIT_DATA, "npus_count: more than %d dimensions",
			               ET_DIMS_MAX);
		o->npus[o->n_npus++] = (uint32_t)x;
	}
	return 0;
}

/* --network: the dimensions of an ASTRA-sim network YAML, unless
 * --npus-count gave them; an InfraGraph network's are et-sim's default
 * for it (one dimension of every rank) unless --npus-count gave them. */
static int load_network(vopts *o, et_error *e)
{
	o->dims_given = true;
	if (o->n_npus)
		return 0;
	int r = et_netyaml_read(o->network, net_key, o, e);
	if (r == 0 && o->n_npus == 0)
		return et_fail(e, ET_EXIT_DATA, "%s: no npus_count given", o->network);
	if (r == 0)
		o->npus_src = o->network;
	return r < 0 ? -1 : 0;
}

/* Runs everything; returns the exit status. The report is written only
 * when the input could be read in full. */
static int run(vctx *v, int argc, char **argv, const conf *c, et_error *e)
{
	et_writer *t = NULL;
	et_output *rep = NULL;
	if (v->o.network && load_network(&v->o, e) < 0)
		return -1;
	if ((c->cli.output && et_output_open(&rep, c->cli.output, false, e) < 0) ||
	    (v->o.tee_mode && tee_open(&t, v->o.tee_mode, e) < 0) ||
	    read_all(v, argc, argv, &c->in.o, t, e) < 0 || vctx_load_groups(v, e) < 0) {
		et_writer_close(t, false, NULL);
		et_output_abort(rep);
		return -1;
	}
	uint64_t t0 = et_cpu_ns();
	check_cross(v);
	check_deadlock(v);
	v->t_cross_ns = et_cpu_ns() - t0;
	int status = report_status(v);
	/* --tee-always has copied everything already: the copy is complete */
	if (et_writer_close(t, status == ET_EXIT_OK || v->o.tee_mode == 2, e) < 0) {
		et_output_abort(rep);
		return -1;
	}
	FILE *f = rep ? et_output_file(rep) : v->o.tee_mode ? stderr : stdout;
	report_write(f, v);
	if (v->o.timing)
		print_timing(v);
	if (rep && et_output_commit(rep, e) < 0)
		return -1;
	if (!rep && fflush(stdout) != 0)
		return et_write_failed(et_output_stdout_name(), e);
	return status;
}

int main(int argc, char **argv)
{
	conf c;
	memset(&c, 0, sizeof c);
	parse_args(&c, argc, argv);
	c.o.progress = c.cli.progress;
	vctx v;
	vctx_init(&v, &c.o);
	et_error e = {0};
	int status = run(&v, c.cli.nargs, c.cli.args, &c, &e);
	if (status < 0) {
		status = et_app_fail(&e);
	}
	vctx_free(&v);
	et_cli_in_free(&c.in);
	return status;
}
