/* et-synth dag: random layered DAGs, N nodes per rank. Every rank runs the
 * same program (SPMD), so the graph depends on the seed only: it is
 * generated and encoded once, and each rank's section is those bytes
 * (with --jitter, patched per rank). Memory is one rank's bytes whatever
 * the number of ranks; the encoder runs once, and zstd on a worker thread
 * does the per-rank work. */
#include "dag.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth dag --nodes N --world R [OPTIONS]\n"
    "Random layered DAGs with realistic attribute mixes, N nodes per rank.\n"
    "\n"
    "  -n, --nodes N        nodes per rank (at most 20000000)\n"
    "      --world R        number of ranks\n"
    "  -w, --width W        nodes per layer (default 16)\n"
    "      --edge-prob P    chance of a dependency on each node of the previous\n"
    "                       layer (default 0.2; at least one is always drawn)\n"
    "      --comm-fraction F  share of collectives (default 0.1)\n"
    "      --cpu-fraction F share of host (is_cpu_op) ops among the compute nodes\n"
    "                       (default 0.2)\n"
    "      --jitter F       per-rank variation of COMP durations, +-F (0..0.9,\n"
    "                       default 0: every rank identical)\n" SYNTH_SHARED_HELP;

enum { OPT_EDGE = SO_FIRST_SUB, OPT_COMM, OPT_CPU, OPT_JITTER };

static const struct option longopts[] = {
    {"nodes", required_argument, 0, 'n'},
    {"width", required_argument, 0, 'w'},
    {"edge-prob", required_argument, 0, OPT_EDGE},
    {"comm-fraction", required_argument, 0, OPT_COMM},
    {"cpu-fraction", required_argument, 0, OPT_CPU},
    {"jitter", required_argument, 0, OPT_JITTER},
    SYNTH_SHARED_OPTS,
    ET_CLI_COMMON_OPTS,
};

static double fraction(const synth_opts *so, const char *opt, const char *arg, double max)
{
	double v = et_cli_double(&so->cli, opt, arg);
	if (!(v >= 0 && v <= max))
		et_cli_usage_error(&so->cli, "%s: expected a number in [0, %g], got '%s'", opt, max,
		                   arg);
	return v;
}

static void parse(dag_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so, usage);
	c->width = 16;
	c->edge_prob = 0.2;
	c->comm_frac = 0.1;
	c->cpu_frac = 0.2;
	int opt;
	while ((opt = getopt_long(argc, argv, "n:w:" SYNTH_SHARED_SHORT, longopts, NULL)) != -1) {
		if (synth_opt(&c->so, opt, optarg))
			continue;
		switch (opt) {
		case 'n':
			c->nodes = (uint64_t)et_cli_int(&c->so.cli, "--nodes", optarg, 1, 20000000);
			break;
		case 'w':
			c->width = (uint32_t)et_cli_int(&c->so.cli, "--width", optarg, 1, 1 << 16);
			break;
		case OPT_EDGE:
			c->edge_prob = fraction(&c->so, "--edge-prob", optarg, 1);
			break;
		case OPT_COMM:
			c->comm_frac = fraction(&c->so, "--comm-fraction", optarg, 1);
			break;
		case OPT_CPU:
			c->cpu_frac = fraction(&c->so, "--cpu-fraction", optarg, 1);
			break;
		case OPT_JITTER:
			c->jitter = fraction(&c->so, "--jitter", optarg, 0.9);
			break;
		default:
			et_cli_usage_error(&c->so.cli, "unexpected option");
		}
	}
	synth_opts_finish(&c->so, argc, argv, true);
	if (!c->nodes)
		et_cli_usage_error(&c->so.cli, "--nodes N is required");
	if (c->so.global_ids)
		et_cli_usage_error(&c->so.cli, "--ids global does not apply to dag");
}

/* Identical ranks: the metadata and nodes serialized once, for all (the
 * stream output compresses them once, too). */
static void shared_rank(const dag_tpl *t, et_buf *raw)
{
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = "0.0.4";
	et_meta_encode(&m, raw);
	et_buf_append(raw, t->bytes.data, t->bytes.len);
}

static int one_rank(const dag_conf *c, const dag_tpl *t, emitter *em, uint32_t rank,
                    et_buf *scratch, et_writer_shared *sh, et_error *e)
{
	if (c->jitter == 0)
		return emit_shared_rank(em, rank, sh, e);
	dag_patch_rank(c, t, rank, scratch);
	if (emit_rank_begin(em, rank, "0.0.4", e) < 0 ||
	    emit_raw(em, scratch->data, scratch->len, c->nodes, e) < 0)
		return -1;
	return emit_rank_end(em, e);
}

static int run(const dag_conf *c, et_error *e)
{
	char name[96];
	snprintf(name, sizeof name, "dag_%llunodes_seed%llu", (unsigned long long)c->nodes,
	         (unsigned long long)c->so.seed);
	dag_tpl t;
	memset(&t, 0, sizeof t);
	dag_generate(c, &t, c->jitter > 0);
	et_buf raw = {0};     /* the rank all ranks share (no --jitter) */
	et_buf scratch = {0}; /* a patched rank */
	emitter em;
	int r = emit_open(&em, &c->so, name, e);
	if (r == 0 && c->jitter == 0)
		shared_rank(&t, &raw);
	et_writer_shared sh = {raw.data, raw.len, c->nodes, {0}};
	for (uint32_t rank = 0; rank < c->so.world && r == 0; rank++)
		r = one_rank(c, &t, &em, rank, &scratch, &sh, e);
	et_writer_shared_free(&sh);
	et_buf_free(&raw);
	et_buf_free(&scratch);
	dag_tpl_free(&t);
	if (!em.w)
		return -1;
	return emit_finish(&em, r, e);
}

int cmd_dag(int argc, char **argv)
{
	dag_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	return synth_exit(run(&c, &e), &e);
}
