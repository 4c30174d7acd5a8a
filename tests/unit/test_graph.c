/* Unit tests of et_graph: attribute reading, resolution (dangling,
 * duplicate, self), forward references, the Kahn order with depth and
 * width, one cycle, the critical path, comm records, the statistics, and
 * reuse after et_graph_reset. */
#include "check.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_graph.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

enum { COMP = ET_NODE_COMP, COLL = ET_NODE_COLL, SEND = ET_NODE_SEND };

static et_node *mk(et_arena *a, uint64_t id, int type, uint64_t dur, const uint64_t *data,
                   size_t nd, const uint64_t *ctrl, size_t nc)
{
	et_node *n = et_node_new(a);
	n->id = id;
	n->type = type;
	n->duration_micros = dur;
	n->name = et_arena_strdup(a, type == COLL ? "coll" : "comp");
	n->data_deps = (uint64_t *)data;
	n->n_data_deps = nd;
	n->ctrl_deps = (uint64_t *)ctrl;
	n->n_ctrl_deps = nc;
	return n;
}

/* 1 -> 2 -> 4, 1 -> 3 -> 4 (durations 1, 5, 2, 1): critical path 1,2,4. */
static void diamond(et_graph *g, et_arena *a)
{
	static const uint64_t d1[] = {1}, d4[] = {2, 3};
	et_graph_add(g, mk(a, 1, COMP, 1, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 2, COMP, 5, d1, 1, NULL, 0));
	et_graph_add(g, mk(a, 3, COMP, 2, NULL, 0, d1, 1));
	et_graph_add(g, mk(a, 4, COMP, 1, d4, 2, NULL, 0));
	et_graph_finish(g);
}

static void test_diamond(et_graph *g, et_arena *a)
{
	diamond(g, a);
	CHECK(g->n == 4 && g->n_ordered == 4 && g->n_roots == 1);
	CHECK(g->depth == 3 && g->max_width == 2);
	CHECK(g->n_dangling == 0 && g->n_dups == 0 && g->n_selfs == 0);
	CHECK(g->fwd_data == 0 && g->fwd_ctrl == 0);
	CHECK(g->data_off[4] == 3 && g->ctrl_off[4] == 1);
	CHECK(et_graph_find(g, 3) == 2 && et_graph_find(g, 9) == ET_GRAPH_NONE);
	CHECK(g->msg_index[0] == 1 && g->msg_index[3] == 4);
	uint32_t *chain, len;
	CHECK(et_graph_critical_path(g, &chain, &len) == 7);
	CHECK(len == 3 && chain[0] == 0 && chain[1] == 1 && chain[2] == 3);
	free(chain);
	uint32_t *cyc;
	CHECK(et_graph_find_cycle(g, &cyc) == 0 && cyc == NULL);
	/* children of node 1: 2 (data) and 3 (ctrl) */
	CHECK(g->out_off[1] - g->out_off[0] == 2);
}

static void test_defects(et_graph *g, et_arena *a)
{
	static const uint64_t d2[] = {3, 99}, self[] = {5}, c5[] = {4};
	et_graph_add(g, mk(a, 1, COMP, 0, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 2, COMP, 0, d2, 2, NULL, 0)); /* 3 is forward, 99 dangling */
	et_graph_add(g, mk(a, 3, COMP, 0, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 1, COMP, 0, NULL, 0, NULL, 0)); /* duplicate id */
	et_graph_add(g, mk(a, 5, COMP, 0, self, 1, c5, 1));   /* self dep; ctrl 4 dangling */
	et_graph_finish(g);
	CHECK(g->n_dups == 1 && g->dups[0].node == 3 && g->dups[0].first == 0);
	CHECK(g->flags[3] & ET_GF_DUP_ID);
	CHECK(g->n_dangling == 2 && g->n_dangling_data == 1 && g->n_dangling_ctrl == 1);
	CHECK(g->dangling[0].node == 1 && g->dangling[0].missing == 99);
	CHECK(g->dangling[1].node == 4 && g->dangling[1].kind == ET_DEP_CTRL);
	CHECK(g->n_selfs == 1 && g->selfs[0].node == 4 && (g->flags[4] & ET_GF_SELF_DEP));
	CHECK(g->fwd_data == 1 && g->data_off[2] - g->data_off[1] == 1);
	CHECK(g->n_data_deps == 3 && g->n_ctrl_deps == 1);
	CHECK(g->n_ordered == 5); /* dangling and self deps are not edges */
}

static void test_cycle(et_graph *g, et_arena *a)
{
	static const uint64_t d2[] = {1, 4}, d3[] = {2}, d4[] = {3}, d5[] = {4};
	et_graph_add(g, mk(a, 1, COMP, 0, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 2, COMP, 0, d2, 2, NULL, 0));
	et_graph_add(g, mk(a, 3, COMP, 0, d3, 1, NULL, 0));
	et_graph_add(g, mk(a, 4, COMP, 0, d4, 1, NULL, 0));
	et_graph_add(g, mk(a, 5, COMP, 0, d5, 1, NULL, 0));
	et_graph_finish(g);
	CHECK(g->n_ordered == 1);
	uint32_t *c;
	uint32_t n = et_graph_find_cycle(g, &c);
	CHECK(n == 3);
	/* each depends on the one before, the first on the last */
	for (uint32_t k = 0; k < n; k++) {
		uint32_t v = c[(k + 1) % n], p = c[k];
		bool dep = false;
		for (uint32_t e = g->data_off[v]; e < g->data_off[v + 1]; e++)
			dep |= g->data_dep[e] == p;
		CHECK(dep);
	}
	free(c);
}

static void test_attrs(et_graph *g, et_arena *a)
{
	et_node *n = mk(a, 7, COLL, 0, NULL, 0, NULL, 0);
	et_attr_set_bool(a, n, "is_cpu_op", true);
	et_attr_set_int32(a, n, "comm_type", 2); /* any integer member */
	et_attr_set_uint64(a, n, "comm_size", 1 << 20);
	et_attr_set_str(a, n, "pg_name", "dp");
	et_attr *x = et_attr_push(a, n, "comm_tag"); /* a float: not an integer */
	x->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FLOAT_VAL;
	x->float_val = 3;
	et_attr_set_int64(a, n, "comm_type", 9); /* a second one: the first wins */
	et_graph_add_indexed(g, n, 42);
	et_graph_finish(g);
	CHECK((g->flags[0] & (ET_GF_CPU_SET | ET_GF_CPU)) == (ET_GF_CPU_SET | ET_GF_CPU));
	CHECK((g->flags[0] & ET_GF_COMM_TYPE) && et_graph_comm_at(g, 0)->type == 2);
	CHECK((g->flags[0] & ET_GF_COMM_SIZE) && et_graph_comm_at(g, 0)->size == 1 << 20);
	CHECK(!(g->flags[0] & ET_GF_COMM_TAG) && et_graph_comm_at(g, 0)->tag == 0);
	CHECK(strcmp(et_graph_pg_name(g, 0), "dp") == 0);
	CHECK(strcmp(et_graph_name(g, 0), "coll") == 0);
	CHECK(g->msg_index[0] == 42);
	CHECK(et_graph_attr_key("comm_priority") == ET_WK_COMM_PRIORITY);
	CHECK(et_graph_attr_key("comm_") == ET_WK_NONE && et_graph_attr_key("") == ET_WK_NONE);
}

/* Comm attributes live in records made only for the nodes that have one;
 * every other node reads zeros and pg_name "". 300 records make the
 * record array grow; after a reset the records start again. */
static void test_comm_records(et_graph *g, et_arena *a)
{
	for (uint32_t k = 0; k < 3000; k++) {
		et_node *n = mk(a, k + 1, k % 10 == 0 ? COLL : COMP, 1, NULL, 0, NULL, 0);
		if (k % 10 == 0) {
			et_attr_set_int64(a, n, "comm_size", k);
			et_attr_set_str(a, n, "pg_name", k % 20 == 0 ? "even" : "odd");
		}
		et_graph_add(g, n);
	}
	et_graph_finish(g);
	CHECK(g->n_comms == 301);
	uint32_t bad = 0;
	for (uint32_t k = 0; k < 3000; k++) {
		const et_graph_comm *c = et_graph_comm_at(g, k);
		const char *pg = k % 10 ? "" : k % 20 == 0 ? "even" : "odd";
		bad += c->size != (k % 10 ? 0 : (int64_t)k) || c->type || c->src || c->dst ||
		       c->tag || strcmp(et_graph_pg_name(g, k), pg) != 0;
		bad += !(g->flags[k] & ET_GF_COMM_SIZE) != (k % 10 != 0);
	}
	CHECK(bad == 0);
	/* one string per distinct pg_name */
	CHECK(et_graph_comm_at(g, 0)->pg_name == et_graph_comm_at(g, 20)->pg_name);
	CHECK(et_graph_comm_at(g, 0)->pg_name != et_graph_comm_at(g, 10)->pg_name);
	et_graph_reset(g);
	CHECK(g->n_comms == 1);
	et_graph_add(g, mk(a, 1, COMP, 1, NULL, 0, NULL, 0));
	et_graph_finish(g);
	const et_graph_comm *c = et_graph_comm_at(g, 0);
	CHECK(c->size == 0 && c->pg_name == 0 && g->comms[0].size == 0);
}

/* A comm node for test_stats: comm_type (< 0: none), comm_size (absent
 * when no_size), is_cpu_op. */
static et_node *comm(et_arena *a, uint64_t id, int type, uint64_t dur, const uint64_t *data,
                     int ctype, int64_t size, bool no_size, bool cpu)
{
	et_node *n = mk(a, id, type, dur, data, data ? 1 : 0, NULL, 0);
	et_attr_set_bool(a, n, "is_cpu_op", cpu);
	if (ctype >= 0)
		et_attr_set_int64(a, n, "comm_type", ctype);
	if (!no_size)
		et_attr_set_int64(a, n, "comm_size", size);
	return n;
}

/* Every statistic against numbers counted by hand. By index: id, type,
 * duration (us), data deps (ids), what else matters.
 *    0  1  METADATA     0
 *    1  2  COMP        10  <- 1
 *    2  3  COMP        20  <- 1
 *    3  4  COLL         5  <- 2, 3  ALL_REDUCE 1000 B
 *    4  5  COLL         7  <- 3     ALL_GATHER 300 B, ctrl dep on 99 (dangling)
 *    5  6  COLL         1  <- 4     comm_type 42 (unknown), 50 B
 *    6  7  COLL         1  <- 4     no comm_type (unknown), 60 B
 *    7  8  COLL         1  <- 1     ALL_REDUCE 999 B, is_cpu_op true: no bytes
 *    8  9  COLL         1  <- 1     ALL_REDUCE, no comm_size: no bytes
 *    9 10  COLL         1  <- 1     BROADCAST, comm_size -5: 0 B
 *   10 11  SEND         2  <- 12    64 B (a forward dep)
 *   11 12  RECV         3           64 B: RECVs are not counted
 *   12 13  SEND         0  <- 13    36 B (a self dep)
 *   13 14  MEM_LOAD     0
 *   14 15  type 42      0           (unknown)
 *   15 16  COMP         4  <- 17    (a forward dep) \ a cycle
 *   16 17  COMP         4  <- 16                    /
 * Kahn levels (longest path): {0, 11, 12, 13, 14}, {1, 2, 7, 8, 9, 10},
 * {3, 4}, {5, 6}; 15 and 16 are unordered. Critical path by duration:
 * 0 -> 2 -> 4, 27 us. */
static void test_stats(et_graph *g, et_arena *a)
{
	static const uint64_t i1[] = {1}, i2[] = {2, 3}, i3[] = {3}, i4[] = {4}, i12[] = {12},
	                      i13[] = {13}, i16[] = {16}, i17[] = {17}, c99[] = {99};
	et_graph_add(g, mk(a, 1, ET_NODE_METADATA, 0, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 2, COMP, 10, i1, 1, NULL, 0));
	et_graph_add(g, mk(a, 3, COMP, 20, i1, 1, NULL, 0));
	et_node *n = comm(a, 4, COLL, 5, NULL, ET_COLL_ALL_REDUCE, 1000, false, false);
	n->data_deps = (uint64_t *)i2;
	n->n_data_deps = 2;
	et_graph_add(g, n);
	n = comm(a, 5, COLL, 7, i3, ET_COLL_ALL_GATHER, 300, false, false);
	n->ctrl_deps = (uint64_t *)c99;
	n->n_ctrl_deps = 1;
	et_graph_add(g, n);
	et_graph_add(g, comm(a, 6, COLL, 1, i4, 42, 50, false, false));
	et_graph_add(g, comm(a, 7, COLL, 1, i4, -1, 60, false, false));
	et_graph_add(g, comm(a, 8, COLL, 1, i1, ET_COLL_ALL_REDUCE, 999, false, true));
	et_graph_add(g, comm(a, 9, COLL, 1, i1, ET_COLL_ALL_REDUCE, 0, true, false));
	et_graph_add(g, comm(a, 10, COLL, 1, i1, ET_COLL_BROADCAST, -5, false, false));
	et_graph_add(g, comm(a, 11, ET_NODE_SEND, 2, i12, -1, 64, false, false));
	et_graph_add(g, comm(a, 12, ET_NODE_RECV, 3, NULL, -1, 64, false, false));
	et_graph_add(g, comm(a, 13, ET_NODE_SEND, 0, i13, -1, 36, false, false));
	et_graph_add(g, mk(a, 14, ET_NODE_MEM_LOAD, 0, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 15, 42, 0, NULL, 0, NULL, 0));
	et_graph_add(g, mk(a, 16, COMP, 4, i17, 1, NULL, 0));
	et_graph_add(g, mk(a, 17, COMP, 4, i16, 1, NULL, 0));
	et_graph_finish(g);

	et_graph_stats s;
	memset(&s, 0xa5, sizeof s); /* every field must be written */
	et_graph_get_stats(g, &s);
	CHECK(s.nodes == 17);
	static const uint64_t types[ET_GRAPH_STATS_TYPES] = {
	    [ET_NODE_METADATA] = 1,  [ET_NODE_MEM_LOAD] = 1, [ET_NODE_COMP] = 4,
	    [ET_NODE_SEND] = 2,      [ET_NODE_RECV] = 1,     [ET_NODE_COLL] = 7,
	    [ET_NODE_TYPE_COUNT] = 1};
	CHECK(memcmp(s.by_type, types, sizeof types) == 0);
	CHECK(s.data_deps == 14 && s.ctrl_deps == 1);
	CHECK(s.dangling_deps == 1 && s.self_deps == 1 && s.forward_deps == 2);
	/* is_cpu_op true and no comm_size: not counted; a negative size: 0 B */
	static const uint64_t bytes[ET_GRAPH_STATS_COLLS] = {
	    [ET_COLL_ALL_REDUCE] = 1000, [ET_COLL_ALL_GATHER] = 300, [ET_COLL_TYPE_COUNT] = 110};
	static const uint64_t count[ET_GRAPH_STATS_COLLS] = {[ET_COLL_ALL_REDUCE] = 1,
	                                                     [ET_COLL_ALL_GATHER] = 1,
	                                                     [ET_COLL_BROADCAST] = 1,
	                                                     [ET_COLL_TYPE_COUNT] = 2};
	CHECK(memcmp(s.coll_bytes, bytes, sizeof bytes) == 0);
	CHECK(memcmp(s.coll_count, count, sizeof count) == 0);
	CHECK(s.send_bytes == 100 && s.send_count == 2); /* RECVs are not counted */
	CHECK(s.total_duration == 60);
	CHECK(s.critical_duration == 27 && s.critical_nodes == 3);
	CHECK(s.depth == 4 && s.max_width == 6 && s.unordered == 2);

	/* An empty graph: all zero. */
	et_graph_reset(g);
	et_graph_finish(g);
	et_graph_stats z, zero;
	memset(&z, 0xa5, sizeof z);
	memset(&zero, 0, sizeof zero);
	et_graph_get_stats(g, &z);
	CHECK(memcmp(&z, &zero, sizeof z) == 0);
}

/* A class rank's values set into a finished graph read as decoding them
 * would: a send given its comm_dst, a collective its pg_name (interned: a
 * name already in the pool keeps its offset); a node without a comm record
 * takes none. */
static void test_set_comm(et_graph *g, et_arena *a)
{
	et_node *c = mk(a, 1, COLL, 0, NULL, 0, NULL, 0);
	et_attr_set_int32(a, c, "comm_type", 0);
	et_attr_set_str(a, c, "pg_name", "7");
	et_graph_add(g, c);
	et_node *s = mk(a, 2, SEND, 0, NULL, 0, NULL, 0);
	et_attr_set_int64(a, s, "comm_size", 64);
	et_graph_add(g, s);
	et_graph_add(g, mk(a, 3, COMP, 5, NULL, 0, NULL, 0));
	et_graph_finish(g);
	CHECK(et_graph_p2p_peer(g, 1) < 0 && !(g->flags[1] & ET_GF_COMM_DST));
	CHECK(et_graph_set_comm(g, 1, ET_WK_COMM_DST, NULL, 5));
	CHECK((g->flags[1] & ET_GF_COMM_DST) && et_graph_p2p_peer(g, 1) == 5);
	CHECK(et_graph_set_comm(g, 1, ET_WK_COMM_DST, NULL, (int64_t)1 << 40));
	CHECK(et_graph_comm_at(g, 1)->dst == INT32_MAX); /* clamped, as decoded */
	uint32_t seven = et_graph_comm_at(g, 0)->pg_name;
	CHECK(et_graph_set_comm(g, 0, ET_WK_PG_NAME, "12", 0));
	CHECK(strcmp(et_graph_pg_name(g, 0), "12") == 0 && (g->flags[0] & ET_GF_PG_NAME));
	CHECK(et_graph_set_comm(g, 0, ET_WK_PG_NAME, "7", 0));
	CHECK(et_graph_comm_at(g, 0)->pg_name == seven);
	CHECK(!et_graph_set_comm(g, 2, ET_WK_COMM_SRC, NULL, 1) && !(g->flags[2] & ET_GF_COMM_SRC));
	CHECK(!et_graph_set_comm(g, 3, ET_WK_PG_NAME, "x", 0)); /* no node 3 */
}

int main(void)
{
	et_arena *a = et_arena_new();
	et_graph *g = et_graph_new();
	/* One graph throughout: reset must leave nothing behind. */
	test_diamond(g, a);
	et_graph_reset(g);
	test_defects(g, a);
	et_graph_reset(g);
	test_cycle(g, a);
	et_graph_reset(g);
	test_attrs(g, a);
	et_graph_reset(g);
	test_comm_records(g, a);
	et_graph_reset(g);
	test_stats(g, a);
	et_graph_reset(g);
	test_set_comm(g, a);
	et_graph_reset(g);
	test_diamond(g, a);
	et_graph_reset(g);
	et_graph_finish(g); /* empty */
	CHECK(g->n == 0 && g->n_ordered == 0 && g->depth == 0);
	CHECK(et_graph_critical_path(g, NULL, NULL) == 0);
	CHECK(et_graph_bytes(g) > 0);
	et_graph_free(g);
	et_arena_free(a);
	return check_failures();
}
