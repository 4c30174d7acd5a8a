/* Reading and checking, on et_load's callbacks in input order: each
 * message goes to --tee first (so the copy stops exactly where reading
 * did), each node is checked as it is added to the rank's graph; at the
 * end of a rank the graph checks run, the comm summary and the statistics
 * are kept, and the graph (one, v->g) is emptied for the next rank. */
#include "et-validate/read.h"
#include "et-validate/checks/pgroups.h"
#include "et-validate/classes.h"
#include "et-validate/report/stats.h"
#include "et-validate/report/summary.h"
#include "et_load.h"
#include "et_progress.h"
#include "et_sgroups.h"

typedef struct reading {
	vctx *v;
	et_writer *t;
} reading;

static void meta_missing(vctx *v, const char *what)
{
	finding *f = find_add(&v->fs, C_META_MISSING, v->ri.rank, ET_GRAPH_NONE);
	if (f)
		find_set(f, false, 0, NULL, "%s", what);
}

/* The network dimensions collectives run on: --npus-count's, which must
 * cover the input's world, or, as et-sim without --network, one dimension
 * of the first rank's world that is known. Returns 1 when set, 0 when not
 * yet, -1 with e set. */
static int set_dims(vctx *v, const et_rank_info *ri, et_error *e)
{
	if (v->o.n_npus == 0 && ri->world_size == 0)
		return 0; /* not known yet (a bare .et file): the next rank may say */
	if (v->o.n_npus == 0)
		return et_dims_init(&v->dims, &ri->world_size, 1, e) == 0 ? 1 : -1;
	if (et_dims_init(&v->dims, v->o.npus, v->o.n_npus, e) < 0)
		return -1;
	if (ri->world_size && v->dims.total != ri->world_size)
		return et_fail(e, ET_EXIT_USAGE, "%s%s: the network has %u ranks, the input %u",
		               v->o.npus_src ? "--network " : "--npus-count",
		               v->o.npus_src ? v->o.npus_src : "", v->dims.total, ri->world_size);
	return 1;
}

/* Every finding counted so far. */
static uint64_t find_sum(const findings *fs)
{
	uint64_t n = 0;
	for (int c = 0; c < C_COUNT; c++)
		n += fs->count[c];
	return n;
}

static int begin_rank(void *ctx, const et_rank_info *ri, et_graph **g, et_error *e)
{
	reading *rd = ctx;
	vctx *v = rd->v;
	if (vctx_load_groups(v, e) < 0)
		return -1;
	/* the stream's groups are checked whether or not --comm-groups
	 * overrides them, and define what the file does not */
	int added = et_sgroups_acc_add(v->sgroups, ri, e);
	if (added < 0)
		return -1;
	if (added && !v->o.comm_groups)
		groups_from_stream(v->grp, ri);
	int set = v->dims_set ? 1 : set_dims(v, ri, e);
	if (set < 0)
		return -1;
	v->dims_set = set == 1;
	if (rd->t && et_writer_rank_begin(rd->t, ri, e) < 0)
		return -1;
	v->ri = *ri;
	*g = v->g;
	v->pg_off = 0; /* offset 0 is "": group 0 */
	v->pg_gid = 0;
	v->n_ranks++;
	if (v->ri.world_size > v->max_world)
		v->max_world = v->ri.world_size;
	v->find_mark = find_sum(&v->fs);
	return 0;
}

static int tee_one(void *ctx, const et_msg *m, et_error *e)
{
	reading *rd = ctx;
	return rd->t ? et_writer_msg(rd->t, m, e) : 0;
}

static int add_node(void *ctx, et_graph *g, uint32_t i, const et_node *n, et_error *e)
{
	(void)g;
	(void)e;
	vctx *v = ((reading *)ctx)->v;
	check_node(v, n, i);
	check_node_comm(v, i);
	v->n_nodes++;
	return 0;
}

/* The checks after a rank's nodes, on v->g. */
static void rank_checks(vctx *v)
{
	uint64_t t0 = et_cpu_ns();
	check_rank_graph(v);
	check_rank_comm(v);
	check_coll_order(v);
	if (v->o.want_stats)
		stats_add_rank(v);
	uint64_t t1 = et_cpu_ns();
	xsum_add_rank(v);
	v->t_check_ns += t1 - t0;
	v->t_sum_ns += et_cpu_ns() - t1;
}

/* The checks of a class rank that came as its rule. check_coll_order
 * reads only the class's graph and which collectives share a
 * communicator: when those fall as in the class's first rank (which was
 * clean), it finds nothing here either and is skipped. The summary comes
 * first only where coll_gid can add no finding (xsum_gid_quiet), so the
 * findings are those of the usual order. */
static void rule_rank_checks(vctx *v)
{
	if (!xsum_gid_quiet(v)) {
		rank_checks(v);
		return;
	}
	uint64_t t0 = et_cpu_ns();
	bool same = xsum_add_rank(v);
	uint64_t t1 = et_cpu_ns();
	check_rank_graph(v);
	check_rank_comm(v);
	if (!same)
		check_coll_order(v);
	v->t_sum_ns += t1 - t0;
	v->t_check_ns += et_cpu_ns() - t1;
}

/* A class rank that came as its rule (classes.h): the checks that read its
 * values, on its class's graph with them set; the others found nothing in
 * the class's first rank, and so find nothing here. */
static int rule_rank(vctx *v, const et_load_rank *r, et_error *e)
{
	et_graph *g = vclasses_rank_graph(v->cls, &r->ri, e);
	if (!g)
		return -1;
	et_graph *own = v->g;
	v->g = g;
	uint64_t t0 = et_cpu_ns();
	for (uint32_t i = 0; i < g->n; i++)
		check_node_comm(v, i);
	v->t_check_ns += et_cpu_ns() - t0;
	v->n_nodes += g->n;
	rule_rank_checks(v);
	v->n_rank_groups = 0;
	v->g = own;
	v->rule_ranks++;
	return 0;
}

static int end_rank(void *ctx, et_graph *g, const et_load_rank *r, et_error *e)
{
	(void)g;
	reading *rd = ctx;
	vctx *v = rd->v;
	if (r->ri.rule_only)
		return rule_rank(v, r, e);
	if (rd->t && et_writer_rank_end(rd->t, e) < 0)
		return -1;
	if (r->meta_is_node)
		meta_missing(v, "message 0 is a Node, not the GlobalMetadata (it is read as a "
		                "node)");
	if (r->n_msgs == 0)
		meta_missing(v, "empty ET: no GlobalMetadata and no nodes");
	rank_checks(v);
	if (v->cls && r->ri.crule) {
		bool clean = find_sum(&v->fs) == v->find_mark && v->n_rank_groups == 0 &&
		             !r->meta_is_node && r->n_msgs == (uint64_t)v->g->n + 1;
		vclasses_keep(v->cls, r, &v->g, clean);
	}
	v->n_rank_groups = 0;
	return 0;
}

int read_all(vctx *v, int argc, char *const argv[], const et_input_opts *io, et_writer *t,
             et_error *e)
{
	reading rd = {v, t};
	et_load_hooks h = {&rd, begin_rank, tee_one, add_node, end_rank};
	et_input_opts cio = *io;
	if (!t && !v->o.want_stats) {
		/* a copy (--tee) needs every rank's messages; --stats reports
		 * the graph's bytes, which the names a class graph keeps change */
		v->cls = vclasses_new();
		cio.class_rules = true;
		cio.want_rule = vclasses_want_rule;
		cio.want_rule_ctx = v->cls;
		io = &cio;
	}
	et_load_opts o = {v->o.threads > 0, v->o.timing ? -1 : v->o.progress};
	et_load_stats st = {0};
	uint64_t t0 = et_cpu_ns();
	int rc = et_load_args(argc, argv, io, &o, &h, &st, e);
	/* This thread's time is adding and checking, and the reading it did. */
	uint64_t own = et_cpu_ns() - t0, other = v->t_check_ns + v->t_sum_ns + st.times.inline_ns;
	v->read_thread = st.threaded;
	v->t_decode_ns = st.times.thread_cpu + st.times.inline_ns;
	v->t_add_ns = own > other ? own - other : 0;
	return rc;
}
