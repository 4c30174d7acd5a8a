/* et-synth coll: K collectives per rank, back to back or interleaved with
 * compute, optionally in sub-groups. With K = 1 and no compute, a rank is
 * exactly an ASTRA-sim example microbenchmark (one COMM_COLL_NODE named
 * <type>_<N>npus_<size>, metadata version 0.0.4). */
#include "et_attr.h"
#include "et_build.h"
#include "et_pg.h"
#include "et_types.h"
#include "synth.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth coll --type TYPE --size BYTES --world N [OPTIONS]\n"
    "K collectives per rank; with K = 1 an ASTRA-sim microbenchmark.\n"
    "\n"
    "  -t, --type TYPE      all_reduce, all_gather, reduce_scatter, all_to_all,\n"
    "                       broadcast, reduce, gather, scatter, barrier\n"
    "  -s, --size BYTES     comm_size (4096, 64K, 1M, 2G); default 0 for barrier\n"
    "      --world N        number of ranks\n"
    "  -c, --count K        collectives per rank (default 1), each depending on the\n"
    "                       one before\n"
    "      --group-size G   sub-groups of G consecutive ranks (G divides N);\n"
    "                       pg_name is the group id, 1, 2, ...\n"
    "      --compute-us T   a COMP node of T us before each collective\n"
    "      --write-comm-groups FILE  the ASTRA-sim comm-group JSON of the groups\n"
    "      --ids MODE       global (default: ids count across ranks, as in ASTRA-sim's\n"
    "                       microbenchmarks) or local (ids from 0 in every "
    "rank)\n" SYNTH_SHARED_HELP;

enum { OPT_GROUP = SO_FIRST_SUB, OPT_COMPUTE, OPT_CGROUPS };

static const struct option longopts[] = {
    {"type", required_argument, 0, 't'},
    {"size", required_argument, 0, 's'},
    {"count", required_argument, 0, 'c'},
    {"group-size", required_argument, 0, OPT_GROUP},
    {"compute-us", required_argument, 0, OPT_COMPUTE},
    {"write-comm-groups", required_argument, 0, OPT_CGROUPS},
    SYNTH_SHARED_OPTS,
    ET_CLI_COMMON_OPTS,
};

typedef struct coll_conf {
	synth_opts so;
	int ctype;
	int64_t size;
	uint32_t count;
	uint32_t group;
	uint64_t compute_us;
	const char *cgroups;
} coll_conf;

static void parse(coll_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so, usage);
	/* ASTRA-sim's microbenchmarks number nodes across ranks (id = rank) */
	c->so.global_ids = true;
	c->ctype = -1;
	c->size = -1;
	c->count = 1;
	int opt;
	while ((opt = getopt_long(argc, argv, "t:s:c:" SYNTH_SHARED_SHORT, longopts, NULL)) != -1) {
		if (synth_opt(&c->so, opt, optarg))
			continue;
		switch (opt) {
		case 't':
			c->ctype = et_coll_type_parse(optarg);
			/* REDUCE_SCATTER_BLOCK: no consumer */
			if (c->ctype < 0 || c->ctype == ET_COLL_REDUCE_SCATTER_BLOCK)
				et_cli_usage_error(&c->so.cli, "--type: unknown collective '%s'",
				                   optarg);
			break;
		case 's':
			c->size = (int64_t)et_cli_size(&c->so.cli, "--size", optarg);
			break;
		case 'c':
			c->count = (uint32_t)et_cli_int(&c->so.cli, "--count", optarg, 1, 1 << 26);
			break;
		case OPT_GROUP:
			c->group =
			    (uint32_t)et_cli_int(&c->so.cli, "--group-size", optarg, 1, 1 << 20);
			break;
		case OPT_COMPUTE:
			c->compute_us =
			    (uint64_t)et_cli_int(&c->so.cli, "--compute-us", optarg, 0, INT64_MAX);
			break;
		case OPT_CGROUPS:
			c->cgroups = optarg;
			break;
		default:
			et_cli_usage_error(&c->so.cli, "unexpected option");
		}
	}
	synth_opts_finish(&c->so, argc, argv, true);
	if (c->ctype < 0)
		et_cli_usage_error(&c->so.cli, "--type is required");
	if (c->size < 0 && c->ctype != 9)
		et_cli_usage_error(&c->so.cli, "--size is required");
	if (c->size < 0)
		c->size = 0;
	if (!c->group)
		c->group = c->so.world;
	if (c->so.world % c->group)
		et_cli_usage_error(&c->so.cli, "--group-size %u does not divide --world %u",
		                   c->group, c->so.world);
}

/* One rank: [compute ->] collective, K times, each step after the last. */
static int rank_nodes(const coll_conf *c, emitter *em, uint32_t rank, const char *name, et_error *e)
{
	uint32_t per_step = c->compute_us ? 2 : 1;
	uint64_t base = c->so.global_ids ? (uint64_t)rank * c->count * per_step : 0;
	char pg[16];
	snprintf(pg, sizeof pg, "%u", rank / c->group + 1);
	for (uint32_t k = 0; k < c->count; k++) {
		uint64_t id = base + (uint64_t)k * per_step;
		if (c->compute_us) {
			et_node *n = et_build_comp(em->arena, id, "compute", c->compute_us, false);
			if (k)
				et_build_data_dep(em->arena, n, id - 1);
			if (emit_node(em, n, e) < 0)
				return -1;
			id++;
		}
		et_node *n = et_build_coll(em->arena, id, name, c->ctype, c->size);
		if (c->group < c->so.world)
			et_attr_set_str(em->arena, n, "pg_name", pg);
		if (k || c->compute_us)
			et_build_data_dep(em->arena, n, id - 1);
		if (emit_node(em, n, e) < 0)
			return -1;
	}
	return 0;
}

static int run(const coll_conf *c, et_error *e)
{
	char lab[32], sz[32], name[96];
	coll_label(c->ctype, lab, sizeof lab);
	size_label((uint64_t)c->size, sz, sizeof sz);
	snprintf(name, sizeof name, "%s_%unpus_%s", lab, c->so.world, sz);
	if (c->cgroups && et_pg_write_consecutive(c->cgroups, c->so.world, c->group, e) < 0)
		return -1;
	emitter em;
	if (emit_open(&em, &c->so, name, e) < 0)
		return -1;
	int r = 0;
	for (uint32_t rank = 0; rank < c->so.world && r == 0; rank++) {
		r = emit_rank_begin(&em, rank, "0.0.4", e);
		if (r == 0)
			r = rank_nodes(c, &em, rank, name, e);
		if (r == 0)
			r = emit_rank_end(&em, e);
	}
	return emit_finish(&em, r, e);
}

int cmd_coll(int argc, char **argv)
{
	coll_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	return synth_exit(run(&c, &e), &e);
}
