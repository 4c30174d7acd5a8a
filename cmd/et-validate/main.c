/* et-validate: find every defect that makes a trace lie or a simulator
 * hang, per rank and across ranks. Memory: one rank's graph at a time plus
 * per-rank comm summaries (see summary.h and et-validate(1)). */
#include "et_cli.h"
#include "et_err.h"
#include "et_input.h"
#include "et_output.h"
#include "et_progress.h"
#include "pgroups.h"
#include "read.h"
#include "report.h"
#include "stats.h"
#include "summary.h"
#include "tee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-validate [OPTIONS] [INPUT...]\n"
    "Check Chakra execution traces, every rank of every INPUT: a stream (.etz), a\n"
    "raw/gzip/zstd .et file, a per-rank set PREFIX (PREFIX.0.et, ...), our JSON or\n"
    "JSONL, or - for stdin (the default).\n"
    "\n"
    "      --for PROFILE       default, or astra-sim: what ASTRA-sim aborts or stalls\n"
    "                          on is an error instead of a warning\n"
    "      --comm-groups FILE  ASTRA-sim comm-group JSON {\"<id>\": [rank, ...]}\n"
    "      --format FMT        text (default) or json\n"
    "      --stats             add per-rank and total statistics\n"
    "      --max-per-code N    instances listed per code (default 10; 0 = all)\n"
    "      --strict            warnings fail too (exit 1)\n"
    "      --tee               copy the input to stdout as a stream, only if it\n"
    "                          validates (buffered in a temporary file)\n"
    "      --tee-always        copy the input to stdout as a stream while reading\n"
    "  -f, --from FORMAT      skip sniffing: stream, et, json\n"
    "      --ranks LIST       only these ranks (e.g. 0-3,7); the cross-rank checks\n"
    "                          see only them\n"
    "      --set-rank N        rank of a header-less single-rank input\n"
    "      --world N           a PREFIX set must have N files; the expected world size\n"
    "      --max-msg SIZE      per-message size limit (default 256M)\n"
    "  -T, --threads N        1 (default): read and decode on a second thread;\n"
    "                          0: on the checking thread\n"
    "      --timing            time per phase on stderr\n"
    "  -o, --output FILE      write the report to FILE (default: stdout; with --tee\n"
    "                          or --tee-always: stderr)\n"
    "  -q, --quiet            no progress on stderr\n"
    "      --progress          progress on stderr even when it is not a terminal\n"
    "  -h, --help             this help\n"
    "      --version           version\n"
    "\n"
    "Exit status: 0 no errors, 1 errors found (--strict: or warnings), 2 usage,\n"
    "3 unreadable input, 4 I/O error. See et-validate(1) for every check code.\n";

enum {
	OPT_FOR = ET_OPT_FIRST_TOOL,
	OPT_COMM_GROUPS,
	OPT_FORMAT,
	OPT_STATS,
	OPT_MAX_PER_CODE,
	OPT_STRICT,
	OPT_TEE,
	OPT_TEE_ALWAYS,
	OPT_SET_RANK,
	OPT_WORLD,
	OPT_MAX_MSG,
	OPT_TIMING,
	OPT_RANKS,
};

static const struct option longopts[] = {
    {"for", required_argument, 0, OPT_FOR},
    {"comm-groups", required_argument, 0, OPT_COMM_GROUPS},
    {"format", required_argument, 0, OPT_FORMAT},
    {"stats", no_argument, 0, OPT_STATS},
    {"max-per-code", required_argument, 0, OPT_MAX_PER_CODE},
    {"strict", no_argument, 0, OPT_STRICT},
    {"tee", no_argument, 0, OPT_TEE},
    {"tee-always", no_argument, 0, OPT_TEE_ALWAYS},
    {"from", required_argument, 0, 'f'},
    {"set-rank", required_argument, 0, OPT_SET_RANK},
    {"world", required_argument, 0, OPT_WORLD},
    {"max-msg", required_argument, 0, OPT_MAX_MSG},
    {"timing", no_argument, 0, OPT_TIMING},
    {"threads", required_argument, 0, 'T'},
    {"ranks", required_argument, 0, OPT_RANKS},
    ET_CLI_COMMON_OPTS,
};

typedef struct conf {
	et_cli cli;
	et_input_opts in;
	et_ranklist ranks;
	vopts o;
} conf;

static void tool_opt(conf *c, int opt, const char *arg)
{
	switch (opt) {
	case OPT_FOR:
		if (strcmp(arg, "astra-sim") == 0)
			c->o.astra = true;
		else if (strcmp(arg, "default") != 0)
			et_cli_usage_error(&c->cli,
			                   "--for: expected default or astra-sim, got '%s'", arg);
		break;
	case OPT_COMM_GROUPS:
		c->o.comm_groups = arg;
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "json") == 0)
			c->o.json = true;
		else if (strcmp(arg, "text") != 0)
			et_cli_usage_error(&c->cli, "--format: expected text or json, got '%s'",
			                   arg);
		break;
	case OPT_STATS:
		c->o.want_stats = true;
		break;
	case OPT_MAX_PER_CODE: {
		int64_t n = et_cli_int(&c->cli, "--max-per-code", arg, 0, INT32_MAX);
		c->o.max_per_code = n ? (size_t)n : SIZE_MAX;
		break;
	}
	case OPT_STRICT:
		c->o.strict = true;
		break;
	case OPT_TEE:
		c->o.tee_mode = 1;
		break;
	case OPT_TEE_ALWAYS:
		c->o.tee_mode = 2;
		break;
	case 'f':
		c->in.format = et_format_parse(arg);
		if ((int)c->in.format < 0 || c->in.format == ET_FMT_AUTO)
			et_cli_usage_error(&c->cli, "--from: unknown format '%s'", arg);
		break;
	case OPT_SET_RANK:
		c->in.set_rank = et_cli_int(&c->cli, "--set-rank", arg, 0, UINT32_MAX);
		break;
	case OPT_WORLD:
		c->in.world = (uint32_t)et_cli_int(&c->cli, "--world", arg, 1, UINT32_MAX);
		break;
	case OPT_MAX_MSG:
		c->in.max_msg = et_cli_size(&c->cli, "--max-msg", arg);
		break;
	case OPT_TIMING:
		c->o.timing = true;
		break;
	case 'T':
		c->o.threads = (int)et_cli_int(&c->cli, "--threads", arg, 0, 1);
		break;
	case OPT_RANKS:
		if (et_ranklist_parse(&c->ranks, arg) < 0)
			et_cli_usage_error(&c->cli,
			                   "--ranks: expected a list such as 0-3,7, got '%s'", arg);
		break;
	default:
		et_cli_usage_error(&c->cli, "unhandled option");
	}
}

static void parse_args(conf *c, int argc, char **argv)
{
	et_cli_init(&c->cli, "et-validate", usage);
	et_input_opts_init(&c->in);
	c->in.lenient_meta = true; /* a missing GlobalMetadata is a finding here */
	c->in.ranks = &c->ranks;
	c->o.max_per_code = 10;
	c->o.threads = 1;
	int opt;
	while ((opt = getopt_long(argc, argv, "f:T:" ET_CLI_COMMON_SHORT, longopts, NULL)) != -1)
		if (!et_cli_common(&c->cli, opt, optarg))
			tool_opt(c, opt, optarg);
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
}

/* Runs everything; returns the exit status. The report is written only
 * when the input could be read in full. */
static int run(vctx *v, int argc, char **argv, const conf *c, et_error *e)
{
	tee *t = NULL;
	et_output *rep = NULL;
	if ((v->o.comm_groups && groups_load_file(v->grp, v->o.comm_groups, e) < 0) ||
	    (c->cli.output && et_output_open(&rep, c->cli.output, false, e) < 0) ||
	    (v->o.tee_mode && tee_open(&t, v->o.tee_mode, e) < 0) ||
	    read_all(v, argc, argv, &c->in, t, e) < 0) {
		tee_free(t);
		et_output_abort(rep);
		return -1;
	}
	uint64_t t0 = et_cpu_ns();
	check_cross(v);
	check_deadlock(v);
	v->t_cross_ns = et_cpu_ns() - t0;
	int status = report_status(v);
	if (tee_close(t, status == ET_EXIT_OK, e) < 0) {
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
		return et_fail(e, ET_EXIT_IO, "<stdout>: write error");
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
	int status = run(&v, argc - optind, argv + optind, &c, &e);
	if (status < 0) {
		et_err_print(&e);
		status = e.code ? e.code : ET_EXIT_IO;
	}
	vctx_free(&v);
	et_ranklist_free(&c.ranks);
	return status;
}
