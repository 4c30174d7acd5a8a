/* Reading one rank: decode each node into an arena reset per node, check
 * it, add it to the rank's graph; then run the graph checks, keep the comm
 * summary and the statistics, and free the graph. */
#include "read.h"
#include "et_arena.h"
#include "et_codec.h"
#include "et_progress.h"
#include "stats.h"
#include "summary.h"

#include <stdlib.h>
#include <string.h>

/* Message 0 should be the GlobalMetadata. A Node's first field (id, a
 * varint) cannot parse as GlobalMetadata.version (a string), so most
 * nodes fail that parse; a node without an id may parse, but then its
 * other fields are unknown to GlobalMetadata, which is how it is told
 * apart. Returns 1 = metadata, 0 = a node (*n set), -1 = neither. */
static int first_message(et_arena *a, const et_msg *m, et_node **n)
{
	et_meta *md = et_meta_decode(a, m->data, m->len);
	if (md && md->base.n_unknown_fields == 0)
		return 1;
	*n = et_node_decode(a, m->data, m->len);
	if (*n && (*n)->base.n_unknown_fields == 0 &&
	    ((*n)->type || (*n)->n_data_deps || (*n)->n_ctrl_deps || (*n)->id || !md))
		return 0;
	return md ? 1 : -1;
}

static void meta_missing(vctx *v, const char *what)
{
	finding *f = find_add(&v->fs, C_META_MISSING, v->ri.rank, ET_GRAPH_NONE);
	if (f)
		find_set(f, false, 0, NULL, "%s", what);
}

/* Nodes are decoded in batches into an arena reset per batch (no malloc
 * per node), then added and checked together. A small batch keeps the
 * decoded nodes (a kilobyte or two each) in the first-level cache until
 * they are added, which a batch of hundreds would not (that cost a fifth
 * of the checks). Batching also keeps the decode and check phases apart
 * for --timing, which times them with the monotonic clock: the CPU clock is
 * a system call (0.6 us here), too slow to read around every batch, so the
 * rank's reading CPU time is split in proportion (see split_timing). */
#define BATCH 32

typedef struct batch {
	et_node *n[BATCH];
	uint32_t index[BATCH];
	uint64_t offset[BATCH];
	int len;
	uint64_t decode_ns, add_ns; /* --timing: wall time of each phase */
} batch;

static int flush(vctx *v, batch *b, et_arena *a, et_progress *pr, et_error *e)
{
	uint64_t t0 = v->o.timing ? et_now_ns() : 0;
	for (int k = 0; k < b->len; k++) {
		uint32_t i = et_graph_add_indexed(v->g, b->n[k], b->index[k]);
		if (i == ET_GRAPH_NONE)
			return et_fail(e, 3, "%s: rank %u: byte %llu: too many nodes in one rank",
			               v->ri.input, v->ri.rank, (unsigned long long)b->offset[k]);
		check_node(v, b->n[k], i);
	}
	if (v->o.timing)
		b->add_ns += et_now_ns() - t0;
	v->n_nodes += (uint64_t)b->len;
	et_progress_update(pr, v->ri.rank, v->n_nodes);
	b->len = 0;
	et_arena_reset(a);
	return 0;
}

static int decode_into(vctx *v, batch *b, et_arena *a, const et_msg *m, et_error *e)
{
	et_node *n = NULL;
	if (m->index == 0) {
		int k = first_message(a, m, &n);
		if (k < 0)
			return et_fail(e, 3,
			               "%s: rank %u: byte %llu: message 0 parses as neither "
			               "GlobalMetadata nor Node",
			               v->ri.input, v->ri.rank, (unsigned long long)m->offset);
		if (k == 1)
			return 0;
		meta_missing(v, "message 0 is a Node, not the GlobalMetadata (it is read as a "
		                "node)");
	} else {
		n = et_node_decode(a, m->data, m->len);
		if (!n)
			return et_fail(e, 3, "%s: rank %u: byte %llu: message %llu is not a Node",
			               v->ri.input, v->ri.rank, (unsigned long long)m->offset,
			               (unsigned long long)m->index);
	}
	b->n[b->len] = n;
	b->index[b->len] = (uint32_t)m->index;
	b->offset[b->len++] = m->offset;
	return 0;
}

static int read_messages(vctx *v, et_input *in, tee *t, et_arena *a, et_progress *pr, batch *b,
                         et_error *e)
{
	et_msg m;
	int r;
	uint64_t count = 0;
	et_arena_reset(a);
	uint64_t t0 = v->o.timing ? et_now_ns() : 0;
	while ((r = et_input_next_msg(in, &m, e)) == 1) {
		count++;
		if ((t && tee_msg(t, &m, e) < 0) || decode_into(v, b, a, &m, e) < 0)
			return -1;
		if (b->len == BATCH) {
			if (v->o.timing)
				b->decode_ns += et_now_ns() - t0;
			if (flush(v, b, a, pr, e) < 0)
				return -1;
			t0 = v->o.timing ? et_now_ns() : 0;
		}
	}
	if (v->o.timing)
		b->decode_ns += et_now_ns() - t0;
	if (r < 0 || flush(v, b, a, pr, e) < 0)
		return -1;
	if (count == 0)
		meta_missing(v, "empty ET: no GlobalMetadata and no nodes");
	return 0;
}

/* The rank's reading CPU time, split between decoding and adding in
 * proportion to their wall times. */
static void split_timing(vctx *v, const batch *b, uint64_t cpu)
{
	uint64_t wall = b->decode_ns + b->add_ns;
	if (!v->o.timing || !wall)
		return;
	uint64_t add = (uint64_t)((double)cpu * ((double)b->add_ns / (double)wall));
	v->t_add_ns += add;
	v->t_decode_ns += cpu - add;
}

static void rank_done(vctx *v)
{
	uint64_t t0 = cpu_ns();
	et_graph_finish(v->g);
	check_rank_graph(v);
	check_rank_comm(v);
	xsum_add_rank(v);
	if (v->o.want_stats)
		stats_add_rank(v);
	v->t_check_ns += cpu_ns() - t0;
	v->n_rank_groups = 0;
}

int read_rank(vctx *v, et_input *in, tee *t, et_arena *a, et_progress *pr, et_error *e)
{
	et_graph_reset(v->g); /* one graph, reused rank after rank */
	v->pg_off = 0;        /* offset 0 is "": group 0 */
	v->pg_gid = 0;
	v->n_ranks++;
	if (v->ri.world_size > v->max_world)
		v->max_world = v->ri.world_size;
	uint64_t t0 = cpu_ns();
	batch b = {.len = 0};
	int r = read_messages(v, in, t, a, pr, &b, e);
	uint64_t cpu = cpu_ns() - t0;
	v->t_read_ns += cpu;
	split_timing(v, &b, cpu);
	if (r < 0)
		return -1;
	rank_done(v);
	return 0;
}
