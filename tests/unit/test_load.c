/* Unit tests of et_load: graphs and callbacks over a three-rank JSONL
 * input, with and without the reading thread; rank selection (and a
 * selection that matches nothing); a truncated raw ET (exit 3, the byte
 * offset of the cut message in the error, rank_end not called, the graph
 * still the caller's to free); a callback that fails; et_input_open leaving
 * its result NULL on failure. Inputs are written to a scratch directory. */
#include "app/et_cli.h"
#include "check.h"
#include "et_buf.h"
#include "et_load.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/test_load.XXXXXX";

static const char *put_file(const char *name, const void *p, size_t n)
{
	static char path[4][128];
	static int k;
	char *s = path[k++ & 3];
	snprintf(s, sizeof path[0], "%s/%s", dir, name);
	FILE *f = fopen(s, "wb");
	CHECK(f && fwrite(p, 1, n, f) == n && fclose(f) == 0);
	return s;
}

/* Ranks 0, 1, 2 with 2, 3 and 1 nodes; node ids are rank * 10 + k. */
static const char jsonl[] =
    "{\"rank\":0,\"world_size\":3,\"name\":\"w\",\"metadata\":{\"version\":\"0.0.4\"}}\n"
    "{\"rank\":0,\"id\":1,\"name\":\"a\",\"type\":\"COMP_NODE\"}\n"
    "{\"rank\":0,\"id\":2,\"name\":\"b\",\"type\":\"COMP_NODE\",\"dataDeps\":[1]}\n"
    "{\"rank\":1,\"world_size\":3,\"name\":\"w\",\"metadata\":{\"version\":\"0.0.4\"}}\n"
    "{\"rank\":1,\"id\":11,\"name\":\"a\",\"type\":\"COMP_NODE\"}\n"
    "{\"rank\":1,\"id\":12,\"name\":\"b\",\"type\":\"COMP_NODE\",\"dataDeps\":[11]}\n"
    "{\"rank\":1,\"id\":13,\"name\":\"c\",\"type\":\"COMP_NODE\",\"ctrlDeps\":[12]}\n"
    "{\"rank\":2,\"world_size\":3,\"name\":\"w\",\"metadata\":{\"version\":\"0.0.4\"}}\n"
    "{\"rank\":2,\"id\":21,\"name\":\"a\",\"type\":\"COMP_NODE\"}\n";

/* A tool that keeps one graph per rank, as et-viz does. */
typedef struct tool {
	et_graph *g[8];
	uint32_t rank[8];
	uint64_t n_msgs[8];
	int begun, ended, fail_at; /* fail_at: rank_begin of that rank fails */
	uint64_t msgs, nodes;
	uint64_t fail_node;            /* node with this id: node callback fails */
	uint64_t max_nodes, max_bytes; /* et_input's per-rank limits (0 = default) */
	bool node_order_ok;
} tool;

static int t_begin(void *ctx, const et_rank_info *ri, et_graph **g, et_error *e)
{
	tool *t = ctx;
	if ((int)ri->rank == t->fail_at)
		return et_fail(e, ET_EXIT_DATA, "rank %u: refused", ri->rank);
	CHECK(t->begun < 8);
	t->rank[t->begun] = ri->rank;
	*g = t->g[t->begun++] = et_graph_new();
	return 0;
}

static int t_msg(void *ctx, const et_msg *m, et_error *e)
{
	(void)e;
	((tool *)ctx)->msgs++;
	CHECK(m->data != NULL);
	return 0;
}

static int t_node(void *ctx, et_graph *g, uint32_t i, const et_node *n, et_error *e)
{
	tool *t = ctx;
	t->nodes++;
	if (i != g->n - 1 || g->id[i] != n->id)
		t->node_order_ok = false;
	if (n->id == t->fail_node)
		return et_fail(e, ET_EXIT_USAGE, "node %llu: refused", (unsigned long long)n->id);
	return 0;
}

static int t_end(void *ctx, et_graph *g, const et_load_rank *r, et_error *e)
{
	(void)e;
	tool *t = ctx;
	CHECK(g == t->g[t->ended] && g->finished);
	CHECK(r->ri.rank == t->rank[t->ended]);
	CHECK(r->ri.input != NULL);
	if (!strstr(r->ri.input, "bytes.et"))
		CHECK(strcmp(r->ri.name, "w") == 0 && strstr(r->ri.input, "three.jsonl") != NULL);
	CHECK(!r->meta_is_node);
	t->n_msgs[t->ended++] = r->n_msgs;
	return 0;
}

static void tool_init(tool *t)
{
	memset(t, 0, sizeof *t);
	t->fail_at = -1;
	t->node_order_ok = true;
}

static void tool_free(tool *t)
{
	for (int k = 0; k < t->begun; k++)
		et_graph_free(t->g[k]);
}

static int load(tool *t, const char *path, const et_ranklist *rl, bool threaded, et_error *e)
{
	et_input_opts io;
	et_input_opts_init(&io);
	io.ranks = rl;
	io.max_nodes = t->max_nodes;
	io.max_rank_bytes = t->max_bytes;
	char *argv[] = {(char *)path};
	et_load_hooks h = {t, t_begin, t_msg, t_node, t_end};
	et_load_opts o = {threaded, -1};
	return et_load_args(1, argv, &io, &o, &h, NULL, e);
}

static void test_all_ranks(const char *path, bool threaded)
{
	tool t;
	tool_init(&t);
	et_error e = {0};
	CHECK(load(&t, path, NULL, threaded, &e) == 0);
	CHECK(t.begun == 3 && t.ended == 3);
	CHECK(t.rank[0] == 0 && t.rank[1] == 1 && t.rank[2] == 2);
	CHECK(t.g[0]->n == 2 && t.g[1]->n == 3 && t.g[2]->n == 1);
	CHECK(t.n_msgs[0] == 3 && t.n_msgs[1] == 4 && t.n_msgs[2] == 2);
	CHECK(t.msgs == 9 && t.nodes == 6 && t.node_order_ok);
	/* finished graphs: deps resolved, msg_index from 1 */
	CHECK(t.g[1]->id[2] == 13 && t.g[1]->n_ordered == 3 && t.g[1]->depth == 3);
	CHECK(t.g[1]->msg_index[0] == 1 && t.g[1]->msg_index[2] == 3);
	CHECK(t.g[0]->data_off[2] == 1 && t.g[0]->data_dep[0] == 0);
	tool_free(&t);
}

static void test_selection(const char *path)
{
	et_ranklist rl;
	CHECK(et_ranklist_parse(&rl, "0,2") == 0);
	tool t;
	tool_init(&t);
	et_error e = {0};
	CHECK(load(&t, path, &rl, true, &e) == 0);
	CHECK(t.begun == 2 && t.rank[0] == 0 && t.rank[1] == 2);
	CHECK(t.g[1]->n == 1 && t.g[1]->id[0] == 21);
	/* the unselected rank's messages are not handed over */
	CHECK(t.msgs == 5 && t.nodes == 3);
	tool_free(&t);
	et_ranklist_free(&rl);

	CHECK(et_ranklist_parse(&rl, "7") == 0);
	tool_init(&t);
	CHECK(load(&t, path, &rl, false, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA && t.begun == 0);
	CHECK(strcmp(e.msg, "--ranks matches none of the input's ranks") == 0);
	et_ranklist_free(&rl);
}

/* A raw ET of a GlobalMetadata and three nodes, cut in the last node's
 * bytes; *last gets the byte offset of that node's length prefix. */
static et_buf truncated_et(size_t *last)
{
	et_arena *a = et_arena_new();
	et_buf b = {0};
	et_meta *md = et_meta_new(a);
	md->version = et_arena_strdup(a, "0.0.4");
	et_meta_encode(md, &b);
	for (uint64_t id = 1; id <= 3; id++) {
		et_node *n = et_node_new(a);
		n->id = id;
		n->name = et_arena_strdup(a, "a node with a name long enough to cut");
		*last = b.len;
		et_node_encode(n, &b);
	}
	b.len -= 5;
	et_arena_free(a);
	return b;
}

static void test_truncated(bool threaded)
{
	size_t last;
	et_buf b = truncated_et(&last);
	const char *path = put_file("cut.et", b.data, b.len);
	tool t;
	tool_init(&t);
	et_error e = {0};
	CHECK(load(&t, path, NULL, threaded, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA);
	char want[64];
	snprintf(want, sizeof want, ": rank 0: byte %zu: truncated message", last);
	CHECK(strstr(e.msg, want) != NULL);
	if (!strstr(e.msg, want))
		fprintf(stderr, "got: %s\nwanted: ...%s...\n", e.msg, want);
	/* the rank was begun and not ended; its graph holds at most the nodes
	 * before the cut (here none: they share the failing batch) */
	CHECK(t.begun == 1 && t.ended == 0);
	CHECK(t.g[0]->n <= 2 && !t.g[0]->finished);
	CHECK(t.msgs == 3); /* the metadata and the two whole nodes */
	tool_free(&t);
	et_buf_free(&b);
}

static void test_callback_fails(const char *path)
{
	tool t;
	tool_init(&t);
	t.fail_at = 1;
	et_error e = {0};
	CHECK(load(&t, path, NULL, true, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA && strcmp(e.msg, "rank 1: refused") == 0);
	CHECK(t.begun == 1 && t.ended == 1);
	tool_free(&t);
}

/* A node callback that fails stops the load at that node. */
static void test_node_fails(const char *path, bool threaded)
{
	tool t;
	tool_init(&t);
	t.fail_node = 12;
	et_error e = {0};
	CHECK(load(&t, path, NULL, threaded, &e) == -1);
	CHECK(e.code == ET_EXIT_USAGE && strcmp(e.msg, "node 12: refused") == 0);
	CHECK(t.begun == 2 && t.ended == 1 && t.nodes == 4 && t.g[1]->n == 2);
	tool_free(&t);
}

/* The per-rank limits: rank 1 has 3 nodes; at 2 it is refused, naming
 * the input, the rank and where; at 3 all load. Bytes likewise. */
static void test_limits(const char *path, bool threaded)
{
	tool t;
	tool_init(&t);
	t.max_nodes = 2;
	et_error e = {0};
	CHECK(load(&t, path, NULL, threaded, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA && t.ended == 1 && t.g[1]->n <= 2);
	CHECK(strstr(e.msg, "three.jsonl: rank 1: byte ") != NULL);
	CHECK(strstr(e.msg, ": more than 2 nodes in one rank (the limit: --max-rank-nodes N "
	                    "raises it)") != NULL);
	tool_free(&t);
	tool_init(&t);
	t.max_nodes = 3;
	CHECK(load(&t, path, NULL, threaded, &e) == 0 && t.ended == 3);
	tool_free(&t);

	size_t last;
	et_buf b = truncated_et(&last);
	const char *cut = put_file("bytes.et", b.data, last); /* metadata and two nodes */
	tool_init(&t);
	t.max_bytes = last - 1;
	CHECK(load(&t, cut, NULL, threaded, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA && t.ended == 0);
	CHECK(strstr(e.msg, ": rank 0: byte ") && strstr(e.msg, ": more than ") &&
	      strstr(e.msg, " bytes in one rank (the limit: --max-rank-bytes SIZE raises it)"));
	tool_free(&t);
	tool_init(&t);
	t.max_bytes = last;
	CHECK(load(&t, cut, NULL, threaded, &e) == 0 && t.ended == 1 && t.nodes == 2);
	tool_free(&t);
	et_buf_free(&b);
}

static void test_open_fails(void)
{
	et_input *in = (et_input *)&in; /* not NULL before the call */
	char *argv[] = {"/nonexistent/input.et"};
	et_error e = {0};
	CHECK(et_input_open(&in, 1, argv, NULL, &e) == -1);
	CHECK(in == NULL && e.code == ET_EXIT_IO);
	tool t;
	tool_init(&t);
	et_load_hooks h = {&t, t_begin, NULL, NULL, t_end};
	et_load_opts o = {true, -1};
	CHECK(et_load_args(1, argv, NULL, &o, &h, NULL, &e) == -1);
	CHECK(t.begun == 0 && strstr(e.msg, "no such file") != NULL);
}

int main(void)
{
	CHECK(mkdtemp(dir) != NULL);
	const char *three = put_file("three.jsonl", jsonl, sizeof jsonl - 1);
	test_all_ranks(three, false);
	test_all_ranks(three, true);
	test_selection(three);
	test_truncated(false);
	test_truncated(true);
	test_callback_fails(three);
	test_node_fails(three, false);
	test_node_fails(three, true);
	test_limits(three, false);
	test_limits(three, true);
	test_open_fails();
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
	return check_failures();
}
