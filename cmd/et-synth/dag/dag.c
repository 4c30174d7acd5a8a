/* et-synth dag: random layered DAGs, N nodes per rank. Every rank runs the
 * same program (SPMD), so the graph depends on the seed only: it is
 * generated and encoded once, and each rank's section is those bytes
 * (with --jitter, patched per rank). Memory is one rank's bytes whatever
 * the number of ranks; the encoder runs once, and zstd on a worker thread
 * does the per-rank work. */
#include "et-synth/dag/dag.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth dag --nodes N --world R [OPTIONS]\n"
    "Random layered DAGs with realistic attribute mixes, N nodes per rank.\n"
    "\n";

/* A share in [0, max]: opt->value is max in hundredths. */
static int opt_fraction(et_cli *cli, const et_opt *o, const char *arg)
{
	char name[32];
	snprintf(name, sizeof name, "--%s", o->lng);
	double max = o->value / 100.0;
	double v = et_cli_double(cli, name, arg);
	if (!(v >= 0 && v <= max))
		et_cli_usage_error(cli, "%s: expected a number in [0, %g], got '%s'", name, max,
		                   arg);
	*(double *)o->target = v;
	return 0;
}

static void parse(dag_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so);
	c->width = 16;
	c->edge_prob = 0.2;
	c->comm_frac = 0.1;
	c->cpu_frac = 0.2;
	et_opt opts[] = {
	    ET_OPT_U64('n', "nodes", "N", "nodes per rank (at most 20000000)", &c->nodes, .min = 1,
	               .max = 20000000),
	    SYNTH_OPT_WORLD(&c->so, "number of ranks"),
	    ET_OPT_U32('w', "width", "W", "nodes per layer (default 16)", &c->width, .min = 1,
	               .max = 1 << 16),
	    ET_OPT_FN(
	        0, "edge-prob", "P",
	        "chance of a dependency on each node of the previous layer (default 0.2; at least "
	        "one is always drawn)",
	        &c->edge_prob, .fn = opt_fraction, .value = 100),
	    ET_OPT_FN(0, "comm-fraction", "F", "share of collectives (default 0.1)", &c->comm_frac,
	              .fn = opt_fraction, .value = 100),
	    ET_OPT_FN(0, "cpu-fraction", "F",
	              "share of host (is_cpu_op) ops among the compute nodes (default 0.2)",
	              &c->cpu_frac, .fn = opt_fraction, .value = 100),
	    ET_OPT_FN(0, "jitter", "F",
	              "per-rank variation of COMP durations, +-F (0..0.9, default 0: every rank "
	              "identical)",
	              &c->jitter, .fn = opt_fraction, .value = 90),
	    SYNTH_OPTS(&c->so),
	    ET_OPT_END,
	};
	synth_parse(&c->so, "dag", usage, opts, argc, argv, true, false);
	if (!c->nodes)
		et_cli_usage_error(&c->so.cli, "--nodes N is required");
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
