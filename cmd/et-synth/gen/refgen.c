/* et-synth chakra-generator: the workloads of the reference chakra_generator
 * (mlcommons/chakra 1.0.0), written as DIR/<workload>.<rank>.et raw ETs.
 * The reference numbers nodes with one counter across all workloads and
 * ranks, in the order below; --ids global (the default) reproduces that,
 * which makes every file byte-identical to the reference's. */
#include "et-synth/gen/refgen.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_path.h"
#include "et_types.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char usage[] =
    "Usage: et-synth chakra-generator --world N --out-dir DIR [OPTIONS]\n"
    "The reference chakra_generator's workloads as DIR/<workload>.<rank>.et.\n"
    "\n";

enum { W_META, W_LOAD, W_STORE, W_COMP1, W_INDEP, W_DEP, W_COLL, W_SEND, W_RECV };

/* The reference's order, which fixes its node ids. */
static const struct workload {
	const char *name;
	int kind;
	int ctype;
} workloads[] = {
    {"one_metadata_node_all_types", W_META, 0}, {"one_remote_mem_load_node", W_LOAD, 0},
    {"one_remote_mem_store_node", W_STORE, 0},  {"one_comp_node", W_COMP1, 0},
    {"two_comp_nodes_independent", W_INDEP, 0}, {"two_comp_nodes_dependent", W_DEP, 0},
    {"ALL_REDUCE", W_COLL, ET_COLL_ALL_REDUCE}, {"ALL_TO_ALL", W_COLL, ET_COLL_ALL_TO_ALL},
    {"ALL_GATHER", W_COLL, ET_COLL_ALL_GATHER}, {"REDUCE_SCATTER", W_COLL, ET_COLL_REDUCE_SCATTER},
    {"BROADCAST", W_COLL, ET_COLL_BROADCAST},   {"BARRIER", W_COLL, ET_COLL_BARRIER},
    {"one_comm_send_node", W_SEND, 0},          {"one_comm_recv_node", W_RECV, 0},
};

typedef struct refgen_conf {
	synth_opts so;
	const char *dir;
	uint64_t runtime, tensor_size;
	int64_t comm_size;
} refgen_conf;

static int opt_size(et_cli *cli, const et_opt *o, const char *arg)
{
	char name[32];
	snprintf(name, sizeof name, "--%s", o->lng);
	*(uint64_t *)o->target = et_cli_size(cli, name, arg);
	return 0;
}

static void parse(refgen_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so);
	c->so.global_ids = true;
	c->runtime = 5;
	c->tensor_size = 1024;
	c->comm_size = 65536;
	et_opt opts[] = {
	    SYNTH_OPT_WORLD(&c->so, "number of ranks (the reference's --num_npus)"),
	    ET_OPT_STR(0, "out-dir", "DIR", "output directory (created if missing)", &c->dir),
	    /* -d was --out-dir's letter before the suite gave it to --depth */
	    ET_OPT_STR('d', NULL, "DIR", NULL, &c->dir, .flags = ET_OPT_DEPRECATED,
	               .alias_of = "out-dir"),
	    ET_OPT_FN(0, "runtime", "US", "duration of the COMP nodes (default 5)", &c->runtime,
	              .fn = opt_size),
	    ET_OPT_FN(0, "tensor-size", "B",
	              "tensor_size of memory and send/recv nodes (default 1024)", &c->tensor_size,
	              .fn = opt_size),
	    ET_OPT_FN(0, "comm-size", "B", "comm_size of the collectives (default 65536)",
	              &c->comm_size, .fn = opt_size),
	    SYNTH_OPT_IDS(&c->so, "global (default: one counter across all files, as the "
	                          "reference) or local (ids from 0 in every file)"),
	    ET_OPTS_COMMON_NO_OUTPUT(&c->so.cli), /* files go to --out-dir */
	    ET_OPT_END,
	};
	synth_parse(&c->so, "chakra-generator", usage, opts, argc, argv, true, false);
	if (!c->dir)
		et_cli_usage_error(&c->so.cli, "--out-dir DIR is required");
}

static et_node *mem_node(et_arena *a, uint64_t id, int type, uint64_t size)
{
	et_node *n = et_build_node(a, id, et_node_type_name(type), type);
	et_attr_set_bool(a, n, "is_cpu_op", false);
	et_attr_set_uint64(a, n, "tensor_size", size);
	return n;
}

/* The nodes of one workload file, ids from *id on. */
static void workload_nodes(const refgen_conf *c, const struct workload *w, et_arena *a,
                           uint64_t *id, et_buf *out)
{
	int n_nodes = w->kind == W_INDEP || w->kind == W_DEP ? 2 : 1;
	for (int k = 0; k < n_nodes; k++) {
		et_node *n;
		switch (w->kind) {
		case W_META:
			n = refgen_metadata_node(a, *id);
			break;
		case W_LOAD:
		case W_STORE:
		case W_SEND:
		case W_RECV: {
			static const int t[] = {[W_LOAD] = ET_NODE_MEM_LOAD,
			                        [W_STORE] = ET_NODE_MEM_STORE,
			                        [W_SEND] = ET_NODE_SEND,
			                        [W_RECV] = ET_NODE_RECV};
			n = mem_node(a, *id, t[w->kind], c->tensor_size);
			break;
		}
		case W_COLL:
			n = et_build_coll(a, *id, w->name, w->ctype,
			                  w->ctype == ET_COLL_BARRIER ? 0 : c->comm_size);
			break;
		default:
			n = et_build_comp(a, *id, "COMP_NODE", c->runtime, false);
			if (w->kind == W_DEP && k)
				et_build_data_dep(a, n, *id - 1);
		}
		et_node_encode(n, out);
		et_arena_reset(a);
		++*id;
	}
}

static int write_file(const refgen_conf *c, const struct workload *w, uint32_t rank, et_arena *a,
                      uint64_t *id, et_error *e)
{
	et_buf b = {0};
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	/* what the reference 1.0.0 release wrote (its source says 0.0.4) */
	m.version = "1.0.0";
	et_meta_encode(&m, &b);
	workload_nodes(c, w, a, id, &b);
	char name[300];
	snprintf(name, sizeof name, "%s.%u.et", w->name, rank);
	char *path = et_path_join(c->dir, name);
	et_output *o;
	int r = et_output_open(&o, path, true, e);
	if (r == 0 && fwrite(b.data, 1, b.len, et_output_file(o)) != b.len)
		r = et_write_failed(path, e);
	if (r == 0)
		r = et_output_close_deferred(o, e);
	else if (o)
		et_output_abort(o);
	et_buf_free(&b);
	free(path);
	return r;
}

static int run(const refgen_conf *c, et_error *e)
{
	if (mkdir(c->dir, 0777) < 0 && errno != EEXIST)
		return et_fail(e, ET_EXIT_IO, "%s: cannot create directory: %s", c->dir,
		               strerror(errno));
	et_arena *a = et_arena_new();
	uint64_t id = 0;
	int r = 0;
	for (size_t i = 0; i < sizeof workloads / sizeof workloads[0] && r == 0; i++)
		for (uint32_t rank = 0; rank < c->so.world && r == 0; rank++) {
			if (!c->so.global_ids)
				id = 0;
			r = write_file(c, &workloads[i], rank, a, &id, e);
		}
	et_arena_free(a);
	if (r == 0)
		return et_output_commit_all(e);
	et_output_abort_all();
	return -1;
}

int cmd_refgen(int argc, char **argv)
{
	refgen_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	return synth_exit(run(&c, &e), &e);
}
