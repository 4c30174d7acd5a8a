/* Checking what the reader hands over, batch by batch in input order: its
 * messages go to --tee first (so the copy stops exactly where reading
 * did), then its nodes are added to the rank's graph and checked node by
 * node; at the end of a rank the graph checks run, the comm summary and
 * the statistics are kept, and the graph is emptied for the next rank. */
#include "read.h"
#include "et_progress.h"
#include "reader.h"
#include "stats.h"
#include "summary.h"

static void meta_missing(vctx *v, const char *what)
{
	finding *f = find_add(&v->fs, C_META_MISSING, v->ri.rank, ET_GRAPH_NONE);
	if (f)
		find_set(f, false, 0, NULL, "%s", what);
}

static void begin_rank(vctx *v, const et_rank_info *ri)
{
	v->ri = *ri;
	et_graph_reset(v->g); /* one graph, reused rank after rank */
	v->pg_off = 0;        /* offset 0 is "": group 0 */
	v->pg_gid = 0;
	v->n_ranks++;
	if (v->ri.world_size > v->max_world)
		v->max_world = v->ri.world_size;
}

static void add_nodes(vctx *v, const rb_batch *b, et_progress *pr)
{
	if (b->meta_is_node)
		meta_missing(v, "message 0 is a Node, not the GlobalMetadata (it is read as a "
		                "node)");
	/* The reader stops a rank before the graph is full, so adding cannot
	 * fail (see MAX_RANK_MSGS in reader.c). */
	for (int k = 0; k < b->len; k++) {
		uint32_t i = et_graph_add_indexed(v->g, b->n[k], b->index[k]);
		check_node(v, b->n[k], i);
		check_node_comm(v, i);
	}
	v->n_nodes += (uint64_t)b->len;
	et_progress_update(pr, v->ri.rank, v->n_nodes);
}

static void end_rank(vctx *v, const rb_batch *b)
{
	if (b->n_msgs == 0)
		meta_missing(v, "empty ET: no GlobalMetadata and no nodes");
	uint64_t t0 = cpu_ns();
	et_graph_finish(v->g);
	check_rank_graph(v);
	check_rank_comm(v);
	if (v->o.want_stats)
		stats_add_rank(v);
	uint64_t t1 = cpu_ns();
	xsum_add_rank(v);
	v->t_check_ns += t1 - t0;
	v->t_sum_ns += cpu_ns() - t1;
	v->n_rank_groups = 0;
}

/* --tee: the batch's messages that were read in full, in input order, so
 * that the copy ends exactly where reading stopped. */
static int tee_batch(et_writer *t, const rb_batch *b, et_error *e)
{
	for (int k = 0; k < b->n_whole; k++) {
		const rb_msg *m = &b->msg[k];
		et_msg msg = {b->bytes + m->off, m->len, m->offset, m->index};
		if (et_writer_msg(t, &msg, e) < 0)
			return -1;
	}
	return 0;
}

/* One batch: its copy for --tee, then its checks. */
static int take(vctx *v, et_writer *t, const rb_batch *b, et_progress *pr, et_error *e)
{
	switch (b->kind) {
	case RB_RANK:
		if (t && et_writer_rank_begin(t, &b->ri, e) < 0)
			return -1;
		begin_rank(v, &b->ri);
		return 0;
	case RB_NODES:
		if (t && tee_batch(t, b, e) < 0)
			return -1;
		add_nodes(v, b, pr);
		return 0;
	case RB_END_RANK:
		if (t && et_writer_rank_end(t, e) < 0)
			return -1;
		end_rank(v, b);
		return 0;
	case RB_ERROR:
		if (t && tee_batch(t, b, e) < 0)
			return -1;
		*e = b->err;
		return -1;
	case RB_EOF:
		return 0;
	}
	return 0;
}

int read_all(vctx *v, et_input *in, et_writer *t, et_error *e)
{
	et_progress pr;
	et_progress_init(&pr, v->o.timing ? -1 : v->o.progress);
	uint64_t t0 = cpu_ns();
	reader *r = reader_start(in, v->o.threads > 0);
	int rc = 0;
	for (rb_kind k = RB_RANK; rc == 0 && k != RB_EOF;) {
		rb_batch *b = reader_next(r);
		k = b->kind;
		rc = take(v, t, b, &pr, e);
		reader_release(r, b);
	}
	v->read_thread = reader_threaded(r);
	rb_times rt = reader_stop(r);
	/* This thread's time is adding and checking, and the reading it did. */
	uint64_t own = cpu_ns() - t0, other = v->t_check_ns + v->t_sum_ns + rt.inline_ns;
	v->t_decode_ns = rt.thread_cpu + rt.inline_ns;
	v->t_add_ns = own > other ? own - other : 0;
	et_progress_done(&pr);
	return rc;
}
