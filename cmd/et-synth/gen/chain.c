/* et-synth chain: the data-parallel training skeleton. Layer l's backward
 * compute produces a gradient that a collective reduces. Without --overlap
 * each layer waits for the previous layer's collective (nothing hidden);
 * with --overlap the compute stream runs on while the collectives follow
 * each other on the communication stream (ctrl dep on the previous one, as
 * a single NCCL stream orders them). */
#include "et-synth/synth.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_types.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth chain --layers L --compute-us T --size BYTES --world N [OPTIONS]\n"
    "Data-parallel training skeleton: per layer a COMP node and a gradient\n"
    "collective depending on it.\n"
    "\n";

typedef struct chain_conf {
	synth_opts so;
	uint32_t layers;
	int64_t compute_us;
	int ctype;
	int64_t size;
	bool overlap;
} chain_conf;

static void parse(chain_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so);
	c->compute_us = -1;
	c->size = -1;
	et_opt opts[] = {
	    ET_OPT_U32('L', "layers", "L", "number of layers", &c->layers, .min = 1,
	               .max = 1 << 26),
	    ET_OPT_I64(0, "compute-us", "T", "duration of each layer's COMP node (us)",
	               &c->compute_us, .min = 0, .max = INT64_MAX),
	    ET_OPT_FN(0, "coll", "TYPE", "gradient collective (default all_reduce)", &c->ctype,
	              .fn = synth_opt_coll),
	    ET_OPT_FN('s', "size", "BYTES", "comm_size of each collective (4096, 64K, 1M)",
	              &c->size, .fn = synth_opt_size),
	    SYNTH_OPT_WORLD(&c->so, "number of ranks"),
	    ET_OPT_FLAG(
	        0, "overlap",
	        "layer l+1's compute does not wait for layer l's collective (collectives stay in "
	        "order)",
	        &c->overlap),
	    SYNTH_OPT_IDS(&c->so, "local (default) or global (ids count across ranks)"),
	    SYNTH_OPTS(&c->so),
	    ET_OPT_END,
	};
	synth_parse(&c->so, "chain", usage, opts, argc, argv, true, false);
	if (!c->layers || c->compute_us < 0 || c->size < 0)
		et_cli_usage_error(&c->so.cli, "--layers, --compute-us and --size are required");
}

static int layer_nodes(const chain_conf *c, emitter *em, uint32_t l, uint64_t base, et_error *e)
{
	char name[64], lab[32];
	uint64_t comp = base + 2ull * l, coll = comp + 1;
	snprintf(name, sizeof name, "layer%u_compute", l);
	et_node *n = et_build_comp(em->arena, comp, name, (uint64_t)c->compute_us, false);
	if (l)
		et_build_data_dep(em->arena, n, c->overlap ? comp - 2 : comp - 1);
	if (emit_node(em, n, e) < 0)
		return -1;
	coll_label(c->ctype, lab, sizeof lab);
	snprintf(name, sizeof name, "layer%u_grad_%s", l, lab);
	n = et_build_coll(em->arena, coll, name, c->ctype, c->size);
	et_build_data_dep(em->arena, n, comp);
	if (l && c->overlap)
		et_build_ctrl_dep(em->arena, n, coll - 2);
	return emit_node(em, n, e);
}

static int run(const chain_conf *c, et_error *e)
{
	char lab[32], sz[32], name[96];
	coll_label(c->ctype, lab, sizeof lab);
	size_label((uint64_t)c->size, sz, sizeof sz);
	snprintf(name, sizeof name, "chain_%ulayers_%s_%s_%unpus%s", c->layers, lab, sz,
	         c->so.world, c->overlap ? "_overlap" : "");
	emitter em;
	if (emit_open(&em, &c->so, name, e) < 0)
		return -1;
	int r = 0;
	for (uint32_t rank = 0; rank < c->so.world && r == 0; rank++) {
		uint64_t base = c->so.global_ids ? 2ull * c->layers * rank : 0;
		r = emit_rank_begin(&em, rank, "0.0.4", e);
		for (uint32_t l = 0; l < c->layers && r == 0; l++)
			r = layer_nodes(c, &em, l, base, e);
		if (r == 0)
			r = emit_rank_end(&em, e);
	}
	return emit_finish(&em, r, e);
}

int cmd_chain(int argc, char **argv)
{
	chain_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	return synth_exit(run(&c, &e), &e);
}
