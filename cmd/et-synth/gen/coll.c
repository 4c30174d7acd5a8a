/* et-synth coll: K collectives per rank, back to back or interleaved with
 * compute, optionally in sub-groups. With K = 1 and no compute, a rank is
 * exactly an ASTRA-sim example microbenchmark (one COMM_COLL_NODE named
 * <type>_<N>npus_<size>, metadata version 0.0.4). */
#include "et-synth/synth.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_pg.h"
#include "et_sgroups.h"
#include "et_types.h"

#include <stdio.h>
#include <string.h>

static const char usage[] = "Usage: et-synth coll --type TYPE --size BYTES --world N [OPTIONS]\n"
                            "K collectives per rank; with K = 1 an ASTRA-sim microbenchmark.\n"
                            "\n";

typedef struct coll_conf {
	synth_opts so;
	int ctype;
	int64_t size;
	uint32_t count;
	uint32_t group;
	int64_t compute_us;
	const char *cgroups;
} coll_conf;

static void parse(coll_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so);
	/* ASTRA-sim's microbenchmarks number nodes across ranks (id = rank) */
	c->so.global_ids = true;
	c->ctype = -1;
	c->size = -1;
	c->count = 1;
	et_opt opts[] = {
	    ET_OPT_FN(
	        0, "type", "TYPE",
	        "all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, gather, "
	        "scatter, barrier",
	        &c->ctype, .fn = synth_opt_coll),
	    /* -t was --type's letter before the suite gave it to --to */
	    ET_OPT_FN('t', NULL, "TYPE", NULL, &c->ctype, .fn = synth_opt_coll,
	              .flags = ET_OPT_DEPRECATED, .alias_of = "type"),
	    ET_OPT_FN('s', "size", "BYTES", "comm_size (4096, 64K, 1M, 2G); default 0 for barrier",
	              &c->size, .fn = synth_opt_size),
	    SYNTH_OPT_WORLD(&c->so, "number of ranks"),
	    ET_OPT_U32('c', "count", "K",
	               "collectives per rank (default 1), each depending on the one before",
	               &c->count, .min = 1, .max = 1 << 26),
	    ET_OPT_U32(0, "group-size", "G",
	               "sub-groups of G consecutive ranks (G divides N); pg_name is the group id, "
	               "1, 2, ...",
	               &c->group, .min = 1, .max = 1 << 20),
	    ET_OPT_I64(0, "compute-us", "T", "a COMP node of T us before each collective",
	               &c->compute_us, .min = 0, .max = INT64_MAX),
	    ET_OPT_STR(0, "write-comm-groups", "FILE",
	               "the ASTRA-sim comm-group JSON of the groups", &c->cgroups),
	    SYNTH_OPT_IDS(&c->so, "global (default: ids count across ranks, as in ASTRA-sim's "
	                          "microbenchmarks) or local (ids from 0 in every rank)"),
	    SYNTH_OPTS(&c->so),
	    ET_OPT_END,
	};
	synth_parse(&c->so, "coll", usage, opts, argc, argv, true, false);
	if (c->ctype < 0)
		et_cli_usage_error(&c->so.cli, "--type is required");
	if (c->size < 0 && c->ctype != ET_COLL_BARRIER)
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
	/* sub-groups: each rank's section carries its group */
	et_sgroups_w gw = {0};
	et_buf gp = {0};
	int r = 0;
	for (uint32_t rank = 0; rank < c->so.world && r == 0; rank++) {
		if (c->group < c->so.world) {
			char pg[16];
			snprintf(pg, sizeof pg, "%u", rank / c->group + 1);
			et_sgroups_w_reset(&gw);
			et_sgroups_w_ap(&gw, pg, rank / c->group * c->group, c->group, 1);
			et_sgroups_w_payload(&gw, &gp);
			em.groups = gp.data;
			em.groups_len = (uint32_t)gp.len;
		}
		r = emit_rank_begin(&em, rank, "0.0.4", e);
		if (r == 0)
			r = rank_nodes(c, &em, rank, name, e);
		if (r == 0)
			r = emit_rank_end(&em, e);
	}
	et_sgroups_w_free(&gw);
	et_buf_free(&gp);
	r = emit_finish(&em, r, e);
	/* --write-comm-groups appears with the trace, or not at all */
	if (r == 0)
		return et_output_commit_all(e);
	et_output_abort_all();
	return -1;
}

int cmd_coll(int argc, char **argv)
{
	coll_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	return synth_exit(run(&c, &e), &e);
}
