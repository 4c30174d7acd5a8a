/* et-convert: between ET formats. Reads every input the suite reads
 * (streams, raw/gzip/zstd .et, per-rank sets, our JSON/JSONL) and writes a
 * stream, raw ETs, JSON, JSONL or the reference jsonizer's layout. */
#include "et_cli.h"
#include "et_err.h"
#include "et_input.h"
#include "et_progress.h"
#include "et_writer.h"
#include "jsonizer.h"
#include "pt_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "Usage: et-convert [OPTIONS] [INPUT...]\n"
    "Convert Chakra execution traces between formats. INPUT is a stream (.etz), a\n"
    "raw/gzip/zstd .et file, a per-rank set PREFIX (PREFIX.0.et, PREFIX.1.et, ...),\n"
    "our JSON or JSONL, or - for stdin (the default).\n"
    "\n"
    "  -t, --to FORMAT      stream (default), et, json, jsonl, jsonizer\n"
    "  -f, --from FORMAT    skip sniffing: stream, et, json, pytorch\n"
    "      --split PREFIX   with --to et: write PREFIX.<rank>.et per rank\n"
    "      --ranks LIST     only these ranks (e.g. 0-3,7)\n"
    "      --set-rank N     rank of a header-less single-rank input\n"
    "      --world N        a PREFIX set must have N files; also the world size\n"
    "                       written to stream headers\n"
    "      --name NAME      workload name written to stream headers\n"
    "  -l, --level N        zstd level of stream output (1-19, default 3)\n"
    "  -T, --threads N      zstd worker threads (default 0: compress inline)\n"
    "      --max-msg SIZE   per-message size limit (default 256M)\n"
    "\n"
    "PyTorch execution traces (host ET JSON, optionally with Kineto traces):\n"
    "  -k, --kineto FILE    Kineto trace of the host trace (repeatable; paired by\n"
    "                       the number in the file names, else by order)\n"
    "      --compat chakra  byte-identical to chakra_converter 1.0.0\n"
    "      --for astra-sim  leave out what ASTRA-sim aborts on\n"
    "      --write-comm-groups FILE  ASTRA-sim comm-group JSON of the process groups\n"
    "      --allow-unlinked convert host-only when the Kineto trace does not match\n"
    "      --force-schema   try a host trace of an unknown schema\n"
    "  -v, --verbose        linking coverage and other details on stderr\n"
    "  -o, --output FILE    write FILE (atomically) instead of stdout\n"
    "  -q, --quiet          no progress on stderr\n"
    "      --progress       progress on stderr even when it is not a terminal\n"
    "  -h, --help           this help\n"
    "      --version        version\n"
    "\n"
    "Exit status: 0 ok, 2 usage, 3 bad input data, 4 I/O error.\n"
    "See et-convert(1) and etkit-stream(5).\n";

enum {
	OPT_SPLIT = ET_OPT_FIRST_TOOL,
	OPT_RANKS,
	OPT_SET_RANK,
	OPT_WORLD,
	OPT_NAME,
	OPT_MAX_MSG,
	OPT_COMPAT,
	OPT_FOR,
	OPT_COMM_GROUPS,
	OPT_ALLOW_UNLINKED,
	OPT_FORCE_SCHEMA,
};

static const struct option longopts[] = {
    {"to", required_argument, 0, 't'},
    {"from", required_argument, 0, 'f'},
    {"split", required_argument, 0, OPT_SPLIT},
    {"ranks", required_argument, 0, OPT_RANKS},
    {"set-rank", required_argument, 0, OPT_SET_RANK},
    {"world", required_argument, 0, OPT_WORLD},
    {"name", required_argument, 0, OPT_NAME},
    {"level", required_argument, 0, 'l'},
    {"threads", required_argument, 0, 'T'},
    {"max-msg", required_argument, 0, OPT_MAX_MSG},
    {"kineto", required_argument, 0, 'k'},
    {"compat", required_argument, 0, OPT_COMPAT},
    {"for", required_argument, 0, OPT_FOR},
    {"write-comm-groups", required_argument, 0, OPT_COMM_GROUPS},
    {"allow-unlinked", no_argument, 0, OPT_ALLOW_UNLINKED},
    {"force-schema", no_argument, 0, OPT_FORCE_SCHEMA},
    {"verbose", no_argument, 0, 'v'},
    ET_CLI_COMMON_OPTS,
};

typedef struct conf {
	et_cli cli;
	et_input_opts in;
	et_writer_cfg out;
	et_ranklist ranks;
	pt_opts pt;
	bool pytorch; /* --from pytorch */
	const char **kineto;
	int nkineto;
} conf;

static void parse_args(conf *c, int argc, char **argv)
{
	et_cli_init(&c->cli, "et-convert", usage);
	et_input_opts_init(&c->in);
	c->in.ranks = &c->ranks;
	et_writer_cfg_init(&c->out);
	c->out.et_hint = "--split PREFIX or --ranks R";
	int opt;
	while ((opt = getopt_long(argc, argv, "t:f:l:T:k:v" ET_CLI_COMMON_SHORT, longopts, NULL)) !=
	       -1) {
		if (et_cli_common(&c->cli, opt, optarg))
			continue;
		switch (opt) {
		case 't': {
			int k = strcmp(optarg, "jsonizer") == 0 ? ET_WRITER_LAYOUT
			                                        : et_writer_format_parse(optarg);
			if (k < 0)
				et_cli_usage_error(&c->cli,
				                   "--to: unknown format '%s' (stream, et, "
				                   "json, jsonl, jsonizer)",
				                   optarg);
			c->out.format = (et_writer_format)k;
			c->out.layout = &jsonizer_layout;
			break;
		}
		case 'f':
			c->in.format = et_format_parse(optarg);
			if ((int)c->in.format < 0 || c->in.format == ET_FMT_KINETO)
				et_cli_usage_error(&c->cli,
				                   "--from: unknown format '%s' (stream, et, "
				                   "json, pytorch)",
				                   optarg);
			c->pytorch = c->in.format == ET_FMT_PYTORCH;
			break;
		case 'k':
			c->kineto =
			    et_xrealloc(c->kineto, (size_t)(c->nkineto + 1) * sizeof *c->kineto);
			c->kineto[c->nkineto++] = optarg;
			break;
		case OPT_COMPAT:
			if (strcmp(optarg, "chakra") != 0)
				et_cli_usage_error(&c->cli, "--compat: only 'chakra' is known");
			c->pt.compat = true;
			break;
		case OPT_FOR:
			if (strcmp(optarg, "astra-sim") != 0)
				et_cli_usage_error(&c->cli, "--for: only 'astra-sim' is known");
			c->pt.for_astra = true;
			break;
		case OPT_COMM_GROUPS:
			c->pt.comm_groups_out = optarg;
			break;
		case OPT_ALLOW_UNLINKED:
			c->pt.allow_unlinked = true;
			break;
		case OPT_FORCE_SCHEMA:
			c->pt.force_schema = true;
			break;
		case 'v':
			c->pt.verbose++;
			break;
		case OPT_SPLIT:
			c->out.split = optarg;
			break;
		case OPT_RANKS:
			if (et_ranklist_parse(&c->ranks, optarg) < 0)
				et_cli_usage_error(&c->cli,
				                   "--ranks: expected a list such as 0-3,7, "
				                   "got '%s'",
				                   optarg);
			break;
		case OPT_SET_RANK:
			c->in.set_rank = et_cli_int(&c->cli, "--set-rank", optarg, 0, UINT32_MAX);
			break;
		case OPT_WORLD:
			c->in.world =
			    (uint32_t)et_cli_int(&c->cli, "--world", optarg, 1, UINT32_MAX);
			c->out.world = c->in.world;
			break;
		case OPT_NAME:
			if (strlen(optarg) > 255)
				et_cli_usage_error(&c->cli, "--name: at most 255 bytes");
			c->out.name = optarg;
			break;
		case 'l':
			c->out.level = (int)et_cli_int(&c->cli, "--level", optarg, 1, 19);
			break;
		case 'T':
			c->out.threads = (int)et_cli_int(&c->cli, "--threads", optarg, 0, 64);
			break;
		case OPT_MAX_MSG:
			c->in.max_msg = et_cli_size(&c->cli, "--max-msg", optarg);
			break;
		default:
			et_cli_usage_error(&c->cli, "unexpected option");
		}
	}
	if (c->out.split && c->out.format != ET_WRITER_ET)
		et_cli_usage_error(&c->cli, "--split goes with --to et");
	if (c->out.split && c->cli.output)
		et_cli_usage_error(&c->cli, "--split and -o exclude each other");
	c->out.path = c->cli.output;
	if (c->pt.compat && c->pt.for_astra)
		et_cli_usage_error(&c->cli,
		                   "--compat chakra and --for astra-sim exclude each other");
}

/* PyTorch input: forced, or every input (or the first, for a directory)
 * sniffs as a host or Kineto trace. */
static bool is_pytorch(conf *c, int argc, char **argv)
{
	if (c->pytorch || c->nkineto)
		return true;
	/* stdin cannot be read twice: PyTorch input there needs --from pytorch */
	if (c->in.format != ET_FMT_AUTO || argc == 0 || strcmp(argv[0], "-") == 0)
		return false;
	struct stat st;
	if (stat(argv[0], &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	et_error e;
	int k = pt_sniff(argv[0], &e);
	return k == PT_KIND_HOST || k == PT_KIND_KINETO;
}

/* Copy one rank from the input to the writer. */
static int convert_rank(et_input *in, et_writer *w, const et_rank_info *ri, et_progress *pg,
                        uint64_t *count, et_error *e)
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
		et_progress_update(pg, ri->rank, ++*count);
	}
	return r < 0 ? -1 : et_writer_rank_end(w, e);
}

static int run_pytorch(conf *c, int argc, char **argv, et_error *e)
{
	if (c->ranks.n)
		return et_fail(e, ET_EXIT_USAGE, "--ranks does not apply to PyTorch input");
	et_writer *w;
	if (et_writer_open(&w, &c->out, e) < 0)
		return -1;
	int r = pt_run(argc, argv, c->kineto, c->nkineto, c->in.set_rank, &c->pt, w, e);
	et_error e2;
	if (et_writer_close(w, r == 0, &e2) < 0 && r == 0) {
		*e = e2;
		r = -1;
	}
	return r;
}

static int run(conf *c, int argc, char **argv, et_error *e)
{
	if (is_pytorch(c, argc, argv))
		return run_pytorch(c, argc, argv, e);
	et_input *in;
	if (et_input_open(&in, argc, argv, &c->in, e) < 0) {
		et_input_close(in);
		return -1;
	}
	et_writer *w;
	if (et_writer_open(&w, &c->out, e) < 0) {
		et_input_close(in);
		return -1;
	}
	et_progress pg;
	et_progress_init(&pg, c->cli.progress);
	uint64_t count = 0;
	et_rank_info ri;
	int r;
	while ((r = et_input_next_rank(in, &ri, e)) == 1)
		if ((r = convert_rank(in, w, &ri, &pg, &count, e)) < 0)
			break;
	et_progress_done(&pg);
	et_input_close(in);
	et_error e2;
	if (et_writer_close(w, r == 0, &e2) < 0 && r == 0) {
		*e = e2;
		r = -1;
	}
	return r;
}

int main(int argc, char **argv)
{
	conf c;
	memset(&c, 0, sizeof c);
	parse_args(&c, argc, argv);
	et_error e = {0};
	int r = run(&c, argc - optind, argv + optind, &e);
	et_ranklist_free(&c.ranks);
	free(c.kineto);
	if (r < 0) {
		et_err_print(&e);
		return e.code ? e.code : ET_EXIT_DATA;
	}
	return 0;
}
