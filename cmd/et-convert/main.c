/* et-convert: between ET formats. Reads every input the suite reads
 * (streams, raw/gzip/zstd .et, per-rank sets, our JSON/JSONL) and writes a
 * stream, raw ETs, JSON, JSONL or the reference jsonizer's layout. */
#include "app/et_cli.h"
#include "et-convert/compile.h"
#include "et-convert/json/jsonizer.h"
#include "et-convert/pytorch/pt_run.h"
#include "et_err.h"
#include "et_input.h"
#include "et_mem.h"
#include "et_output.h"
#include "et_sgroups.h"
#include "et_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "Usage: et-convert [OPTIONS] [INPUT...]\n"
    "Convert Chakra execution traces between formats. INPUT is a stream (.etz), a\n"
    "raw/gzip/zstd .et file, a per-rank set PREFIX (PREFIX.0.et, PREFIX.1.et, ...),\n"
    "our JSON or JSONL, a PyTorch host trace, an XLA HLO or StableHLO program, an\n"
    "ASTRA-sim 1.0 text workload, or - for stdin (the default).\n"
    "\n";

static const char footer[] = "Exit status: 0 ok, 2 usage, 3 bad input data, 4 I/O error.\n"
                             "See et-convert(1) and etkit-stream(5).\n";

typedef struct conf {
	et_cli cli;
	et_cli_in in;
	et_cli_out out;
	pt_opts pt;
	const char **kineto;
	int nkineto;
	size_t capkineto;
	compile_opts cp;
	uint32_t max_unroll; /* --max-unroll, into cp */
} conf;

static int opt_kineto(et_cli *cli, const et_opt *o, const char *arg)
{
	(void)cli;
	conf *c = o->target;
	ET_GROW(c->kineto, c->capkineto, (size_t)c->nkineto + 1);
	c->kineto[c->nkineto++] = arg;
	return 0;
}

static int opt_compat(et_cli *cli, const et_opt *o, const char *arg)
{
	if (strcmp(arg, "chakra") != 0)
		et_cli_usage_error(cli, "--compat: only 'chakra' is known");
	*(bool *)o->target = true;
	return 0;
}

static int opt_for(et_cli *cli, const et_opt *o, const char *arg)
{
	if (strcmp(arg, "astra-sim") != 0)
		et_cli_usage_error(cli, "--for: only 'astra-sim' is known");
	*(bool *)o->target = true;
	return 0;
}

static int opt_verbose(et_cli *cli, const et_opt *o, const char *arg)
{
	(void)cli, (void)arg;
	++*(int *)o->target;
	return 0;
}

static void parse_args(conf *c, int argc, char **argv)
{
	et_cli_in_init(&c->in, true, 0);
	et_cli_out_init(&c->out, &jsonizer_layout);
	c->out.w.et_hint = "--split PREFIX or --ranks R";
	et_opt opts[] = {
	    ET_OPTS_WRITE(&c->out),
	    ET_OPTS_INPUT(&c->in),
	    ET_OPT_HEADING("\nPyTorch execution traces (host ET JSON, optionally with Kineto "
	                   "traces):"),
	    ET_OPT_FN(
	        'k', "kineto", "FILE",
	        "Kineto trace of the host trace (repeatable; paired by the number in the file "
	        "names, else by order)",
	        c, .fn = opt_kineto),
	    ET_OPT_FN(0, "compat", "chakra", "byte-identical to chakra_converter 1.0.0",
	              &c->pt.compat, .fn = opt_compat),
	    ET_OPT_FN(0, "for", "astra-sim", "leave out what ASTRA-sim aborts on", &c->pt.for_astra,
	              .fn = opt_for),
	    ET_OPT_STR(0, "write-comm-groups", "FILE",
	               "ASTRA-sim comm-group JSON of the process groups", &c->pt.comm_groups_out),
	    ET_OPT_FLAG(0, "allow-unlinked",
	                "convert host-only when the Kineto trace does not match",
	                &c->pt.allow_unlinked),
	    ET_OPT_FLAG(0, "force-schema", "try a host trace of an unknown schema",
	                &c->pt.force_schema),
	    ET_OPT_FN('v', "verbose", NULL, "linking coverage and other details on stderr",
	              &c->pt.verbose, .fn = opt_verbose),
	    ET_OPT_HEADING("\nCompiled programs (--from hlo, stablehlo) and ASTRA-sim 1.0 text "
	                   "workloads (--from astra-text):"),
	    ET_OPT_U32(0, "max-unroll", "N", "unroll a while loop at most N times (default 100000)",
	               &c->max_unroll, .min = 1, .max = UINT32_MAX),
	    ET_OPT_DBL(0, "peak-tflops", "T",
	               "with --mem-gbps: COMP durations by a roofline of T TFLOP/s",
	               &c->cp.peak_tflops),
	    ET_OPT_DBL(0, "mem-gbps", "B", "the roofline's memory bandwidth, GB/s (10^9 B/s)",
	               &c->cp.mem_gbps),
	    ET_OPT_U32(0, "passes", "P", "astra-text: training passes (default 1)", &c->cp.passes,
	               .min = 1, .max = 1000000),
	    ET_OPTS_COMMON(&c->cli),
	    ET_OPT_END,
	};
	c->cli = (et_cli){.prog = "et-convert", .usage = usage, .footer = footer, .opts = opts};
	et_cli_parse(&c->cli, argc, argv);
	c->cli.opts = NULL; /* the table lives on this stack frame */
	et_cli_out_finish(&c->cli, &c->out);
	c->pt.quiet = c->cli.progress < 0;
	c->out.w.some_ranks = c->in.ranks.n > 0;
	c->out.w.world = c->in.o.world; /* --world is also the world of the headers written */
	if (c->pt.compat && c->pt.for_astra)
		et_cli_usage_error(&c->cli,
		                   "--compat chakra and --for astra-sim exclude each other");
	c->cp.max_unroll = c->max_unroll;
	if ((c->cp.peak_tflops > 0) != (c->cp.mem_gbps > 0) || c->cp.peak_tflops < 0 ||
	    c->cp.mem_gbps < 0)
		et_cli_usage_error(
		    &c->cli, "--peak-tflops and --mem-gbps: give both, each above 0 (a roofline)");
}

/* PyTorch input: forced, or every input (or the first, for a directory)
 * sniffs as a host or Kineto trace. */
static bool is_pytorch(conf *c, int argc, char **argv)
{
	if (c->in.o.format == ET_FMT_PYTORCH || c->nkineto)
		return true;
	/* stdin cannot be read twice: PyTorch input there needs --from pytorch */
	if (c->in.o.format != ET_FMT_AUTO || argc == 0 || strcmp(argv[0], "-") == 0)
		return false;
	struct stat st;
	if (stat(argv[0], &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	et_error e;
	int k = pt_sniff(argv[0], &e);
	return k == PT_KIND_HOST || k == PT_KIND_KINETO;
}

/* Copy one rank from the input to the writer. */
static int convert_rank(et_input *in, et_writer *w, const et_rank_info *ri, et_error *e)
{
	et_msg m;
	int r = et_input_next_msg(in, &m, e);
	if (r <= 0)
		return r < 0 ? -1
		             : et_fail(e, ET_EXIT_DATA, "%s: rank %u: no GlobalMetadata", ri->input,
		                       ri->rank);
	if (et_writer_rank_begin(w, ri, e) < 0 || et_writer_msg(w, &m, e) < 0)
		return -1;
	while ((r = et_input_next_msg(in, &m, e)) == 1) {
		if (et_writer_msg(w, &m, e) < 0)
			return -1;
	}
	return r < 0 ? -1 : et_writer_rank_end(w, e);
}

/* --write-comm-groups of an ET input: the groups its stream carries
 * (put in place with the output). */
static int write_groups(const et_sgroups_acc *a, const char *path, et_error *e)
{
	et_pg_list l;
	if (et_sgroups_acc_list(a, &l, e) < 0)
		return -1;
	if (l.warning)
		et_warn("%s", l.warning);
	int r = et_pg_write_list(path, &l, e);
	et_pg_list_free(&l);
	return r;
}

static int run_pytorch(conf *c, int argc, char **argv, et_error *e)
{
	if (c->in.ranks.n)
		return et_fail(e, ET_EXIT_USAGE, "--ranks does not apply to PyTorch input");
	et_writer *w;
	if (et_writer_open(&w, &c->out.w, e) < 0)
		return -1;
	int r = pt_run(argc, argv, c->kineto, c->nkineto, c->in.o.set_rank, &c->pt, w, e);
	return et_writer_finish(w, r, e);
}

/* The first option given that only the PyTorch reader uses (compile: the
 * compilers take --compat chakra too; --write-comm-groups applies to
 * every input), or NULL:
 * with another input it would be dropped, so it is refused. */
static const char *pytorch_only(const conf *c, bool compile)
{
	return c->nkineto                 ? "--kineto"
	       : c->pt.for_astra          ? "--for astra-sim"
	       : c->pt.allow_unlinked     ? "--allow-unlinked"
	       : c->pt.force_schema       ? "--force-schema"
	       : c->pt.verbose            ? "--verbose"
	       : !compile && c->pt.compat ? "--compat chakra"
	                                  : NULL;
}

/* A compiled program or an ASTRA-sim text workload: forced, or sniffed
 * from a single input's first line. */
static et_format compiler_format(const conf *c, int argc, char **argv)
{
	if ((int)c->in.o.format >= ET_FMT_HLO)
		return c->in.o.format;
	if (c->in.o.format != ET_FMT_AUTO || argc != 1)
		return ET_FMT_AUTO;
	return compile_sniff(argv[0]);
}

static int run_compile(conf *c, et_format f, int argc, char **argv, et_error *e)
{
	if (argc > 1)
		return et_fail(e, ET_EXIT_USAGE, "--from %s: one program at a time",
		               et_format_name(f));
	if (c->in.ranks.n)
		return et_fail(e, ET_EXIT_USAGE, "--ranks does not apply to --from %s",
		               et_format_name(f));
	const char *pto = pytorch_only(c, true);
	if (pto)
		return et_fail(e, ET_EXIT_USAGE, "%s applies to PyTorch host traces, not --from %s",
		               pto, et_format_name(f));
	bool astra = f == ET_FMT_ASTRA_TEXT;
	if (astra && (c->pt.comm_groups_out || c->cp.peak_tflops > 0 || c->cp.max_unroll))
		return et_fail(
		    e, ET_EXIT_USAGE,
		    "--from astra-text: a layer table has its own durations and no process "
		    "groups (no --write-comm-groups, --peak-tflops, --max-unroll)");
	if (!astra && (c->cp.passes || c->pt.compat))
		return et_fail(e, ET_EXIT_USAGE,
		               "--passes and --compat chakra apply to --from astra-text");
	compile_opts o = c->cp;
	o.format = f;
	o.world = c->in.o.world;
	o.compat = c->pt.compat;
	o.groups = c->pt.comm_groups_out;
	o.progress = c->cli.progress;
	o.quiet = c->cli.progress < 0;
	return compile_run(argc ? argv[0] : "-", &o, &c->out.w, e);
}

static int run(conf *c, int argc, char **argv, et_error *e)
{
	et_format cf = compiler_format(c, argc, argv);
	if (cf != ET_FMT_AUTO)
		return run_compile(c, cf, argc, argv, e);
	if (c->cp.passes || c->cp.max_unroll || c->cp.peak_tflops > 0)
		return et_fail(e, ET_EXIT_USAGE,
		               "--passes, --max-unroll, --peak-tflops and --mem-gbps apply to "
		               "compiled programs and ASTRA-sim text workloads");
	if (is_pytorch(c, argc, argv))
		return run_pytorch(c, argc, argv, e);
	const char *pto = pytorch_only(c, false);
	if (pto)
		return et_fail(e, ET_EXIT_USAGE,
		               "%s applies to PyTorch host traces (--from pytorch), not to ETs",
		               pto);
	et_input *in;
	if (et_input_open(&in, argc, argv, &c->in.o, e) < 0) {
		et_input_close(in);
		return -1;
	}
	et_writer *w;
	if (et_writer_open(&w, &c->out.w, e) < 0) {
		et_input_close(in);
		return -1;
	}
	/* the groups the stream carries: checked, and the comm-group file */
	et_sgroups_acc *groups = et_sgroups_acc_new();
	et_rank_info ri;
	int r;
	while ((r = et_input_next_rank(in, &ri, e)) == 1)
		if ((r = et_sgroups_acc_add(groups, &ri, e)) < 0 ||
		    (r = convert_rank(in, w, &ri, e)) < 0)
			break;
	et_input_close(in);
	if (r == 0 && c->pt.comm_groups_out)
		r = write_groups(groups, c->pt.comm_groups_out, e);
	et_sgroups_acc_free(groups);
	return et_writer_finish(w, r, e);
}

int main(int argc, char **argv)
{
	conf c;
	memset(&c, 0, sizeof c);
	parse_args(&c, argc, argv);
	et_error e = {0};
	int r = run(&c, c.cli.nargs, c.cli.args, &e);
	/* --write-comm-groups appears with the output, or not at all */
	if (r == 0)
		r = et_output_commit_all(&e);
	else
		et_output_abort_all();
	et_cli_in_free(&c.in);
	free(c.kineto);
	if (r < 0) {
		return et_app_fail(&e);
	}
	return 0;
}
