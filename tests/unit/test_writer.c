/* Unit tests of et_writer: what each format writes reads back (through
 * et_input) as the same ranks and the same node bytes; the shared-rank fast
 * path writes what begin + raw + end would; a writer that fails or is
 * closed with ok = false leaves no file, for --split none of the ranks'. */
#include "check.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_input.h"
#include "et_writer.h"
#include "tmpdir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { RANKS = 3, NODES = 5 };

/* Canonical bytes (no length prefix) of node i of a rank. */
static void node_bytes(uint32_t rank, int i, et_buf *out)
{
	et_arena *a = et_arena_new();
	et_node *n = et_node_new(a);
	n->id = (uint64_t)i;
	n->name = "op";
	n->type = CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE;
	et_attr_set_int64(a, n, "rank", rank);
	uint64_t dep = (uint64_t)i - 1;
	n->data_deps = &dep;
	n->n_data_deps = i > 0;
	et_node_pack(n, out);
	et_arena_free(a);
}

static void meta_bytes(et_buf *out)
{
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = "0.0.4";
	et_meta_pack(&m, out);
}

static et_rank_info rank_info(uint32_t rank)
{
	et_rank_info ri;
	memset(&ri, 0, sizeof ri);
	ri.rank = rank;
	ri.world_size = RANKS;
	snprintf(ri.name, sizeof ri.name, "w");
	ri.input = "test";
	return ri;
}

/* Ranks 0..n-1 through the writer, by et_writer_msg or et_writer_node. */
static int write_ranks(const et_writer_cfg *c, uint32_t n, bool as_nodes)
{
	et_writer *w;
	et_error e = {0};
	if (et_writer_open(&w, c, &e) < 0)
		return -1;
	int r = 0;
	et_buf b = {0};
	for (uint32_t rank = 0; rank < n && r == 0; rank++) {
		et_rank_info ri = rank_info(rank);
		b.len = 0;
		meta_bytes(&b);
		et_msg m = {b.data, b.len, 0, 0};
		r = et_writer_rank_begin(w, &ri, &e) < 0 || et_writer_msg(w, &m, &e) < 0 ? -1 : 0;
		for (int i = 0; i < NODES && r == 0; i++) {
			b.len = 0;
			node_bytes(rank, i, &b);
			et_arena *a = et_arena_new();
			et_node *nd = et_node_decode(a, b.data, b.len);
			et_msg mm = {b.data, b.len, 0, (uint64_t)i + 1};
			r = as_nodes ? et_writer_node(w, nd, &e) : et_writer_msg(w, &mm, &e);
			et_arena_free(a);
		}
		if (r == 0)
			r = et_writer_rank_end(w, &e);
	}
	et_buf_free(&b);
	if (et_writer_close(w, r == 0, &e) < 0)
		r = -1;
	return r;
}

/* Reads inp back: n ranks 0..n-1, each its metadata then NODES nodes with
 * the bytes written (re-encoded canonically, for the JSON inputs). */
static void check_reads_back(const char *inp, uint32_t n, bool names)
{
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	et_error e = {0};
	char *argv[] = {(char *)inp};
	CHECK(et_input_open(&in, 1, argv, &o, &e) == 0);
	if (e.code) {
		fprintf(stderr, "%s\n", e.msg);
		et_input_close(in);
		return;
	}
	et_rank_info ri;
	et_buf want = {0}, got = {0};
	uint32_t ranks = 0;
	while (et_input_next_rank(in, &ri, &e) == 1) {
		CHECK(ri.rank == ranks);
		if (names)
			CHECK(ri.world_size == RANKS && strcmp(ri.name, "w") == 0);
		et_msg m;
		int i = -1;
		while (et_input_next_msg(in, &m, &e) == 1) {
			et_arena *a = et_arena_new();
			got.len = want.len = 0;
			if (i < 0) {
				meta_bytes(&want);
				et_meta_pack(et_meta_decode(a, m.data, m.len), &got);
			} else {
				node_bytes(ri.rank, i, &want);
				et_node_pack(et_node_decode(a, m.data, m.len), &got);
			}
			CHECK(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
			et_arena_free(a);
			i++;
		}
		CHECK(i == NODES);
		ranks++;
	}
	CHECK(e.code == 0);
	CHECK(ranks == n);
	et_buf_free(&want);
	et_buf_free(&got);
	et_input_close(in);
}

static bool same_file(const char *a, const char *b)
{
	et_buf x = {0}, y = {0};
	et_error e;
	bool same = et_buf_read_file(&x, a, 1 << 24, &e) == 0 &&
	            et_buf_read_file(&y, b, 1 << 24, &e) == 0 && x.len == y.len &&
	            memcmp(x.data, y.data, x.len) == 0;
	et_buf_free(&x);
	et_buf_free(&y);
	return same;
}

/* Every rank's number, world size, name and message bytes of inp. */
static void decode_all(const char *inp, et_buf *out)
{
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	et_error e = {0};
	char *argv[] = {(char *)inp};
	CHECK(et_input_open(&in, 1, argv, &o, &e) == 0);
	et_rank_info ri;
	while (e.code == 0 && et_input_next_rank(in, &ri, &e) == 1) {
		et_buf_printf(out, "rank %u of %u, %s\n", ri.rank, ri.world_size, ri.name);
		et_msg m;
		while (et_input_next_msg(in, &m, &e) == 1)
			et_frame_put(out, m.data, m.len);
	}
	CHECK(e.code == 0);
	et_input_close(in);
}

static bool same_content(const char *a, const char *b)
{
	et_buf x = {0}, y = {0};
	decode_all(a, &x);
	decode_all(b, &y);
	bool same = x.len && x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
	et_buf_free(&x);
	et_buf_free(&y);
	return same;
}

static void test_formats(void)
{
	et_writer_cfg c;
	et_writer_cfg_init(&c);
	c.path = tmpdir_path("s.etz");
	CHECK(write_ranks(&c, RANKS, false) == 0);
	check_reads_back(c.path, RANKS, true);
	/* nodes given as structs encode to the same bytes */
	c.path = tmpdir_path("n.etz");
	CHECK(write_ranks(&c, RANKS, true) == 0);
	CHECK(same_file(tmpdir_path("s.etz"), tmpdir_path("n.etz")));
	/* held output: the same bytes, once committed */
	c.path = tmpdir_path("h.etz");
	c.hold = true;
	CHECK(write_ranks(&c, RANKS, false) == 0);
	CHECK(same_file(tmpdir_path("s.etz"), tmpdir_path("h.etz")));
	c.hold = false;

	c.format = ET_WRITER_ET;
	c.path = tmpdir_path("one.et");
	CHECK(write_ranks(&c, 1, false) == 0);
	check_reads_back(c.path, 1, false);

	c.path = NULL;
	c.split = tmpdir_path("r");
	CHECK(write_ranks(&c, RANKS, false) == 0);
	CHECK(access(tmpdir_path("r.0.et"), F_OK) == 0 && access(tmpdir_path("r.2.et"), F_OK) == 0);
	CHECK(same_file(tmpdir_path("r.0.et"), tmpdir_path("one.et")));
	check_reads_back(tmpdir_path("r"), RANKS, false); /* the per-rank set */
	c.split = NULL;

	c.format = ET_WRITER_JSONL;
	c.path = tmpdir_path("l.jsonl");
	CHECK(write_ranks(&c, RANKS, false) == 0);
	check_reads_back(c.path, RANKS, true);
	c.path = tmpdir_path("ln.jsonl");
	CHECK(write_ranks(&c, RANKS, true) == 0);
	CHECK(same_file(tmpdir_path("l.jsonl"), tmpdir_path("ln.jsonl")));

	c.format = ET_WRITER_JSON;
	c.path = tmpdir_path("d.json");
	CHECK(write_ranks(&c, RANKS, false) == 0);
	check_reads_back(c.path, RANKS, true);
	tmpdir_clear();
}

/* et_writer_rank_shared writes what begin + raw + end writes (the stream:
 * the same bytes, in another frame). */
static void test_shared(void)
{
	et_buf raw = {0}, b = {0};
	meta_bytes(&b);
	et_frame_put(&raw, b.data, b.len);
	for (int i = 0; i < NODES; i++) {
		b.len = 0;
		node_bytes(0, i, &b);
		et_frame_put(&raw, b.data, b.len);
	}
	for (int f = ET_WRITER_STREAM; f <= ET_WRITER_JSONL; f++) {
		if (f == ET_WRITER_ET)
			continue; /* one rank only */
		et_writer_cfg c;
		et_writer_cfg_init(&c);
		c.format = (et_writer_format)f;
		et_error e = {0};
		et_writer *w;
		et_writer_shared sh = {raw.data, raw.len, NODES, {0}};
		c.path = tmpdir_path("shared");
		CHECK(et_writer_open(&w, &c, &e) == 0);
		for (uint32_t r = 0; r < 2; r++) {
			et_rank_info ri = rank_info(r);
			CHECK(et_writer_rank_shared(w, &ri, &sh, &e) == 0);
		}
		CHECK(et_writer_close(w, true, &e) == 0);
		et_writer_shared_free(&sh);
		c.path = tmpdir_path("plain");
		CHECK(et_writer_open(&w, &c, &e) == 0);
		for (uint32_t r = 0; r < 2; r++) {
			et_rank_info ri = rank_info(r);
			CHECK(et_writer_rank_begin(w, &ri, &e) == 0);
			CHECK(et_writer_raw(w, raw.data, raw.len, NODES, &e) == 0);
			CHECK(et_writer_rank_end(w, &e) == 0);
		}
		CHECK(et_writer_close(w, true, &e) == 0);
		/* the stream's frame is compressed in one shot (its header
		 * says the size): the same bytes inside, not the same frame */
		if (f == ET_WRITER_STREAM)
			CHECK(same_content(tmpdir_path("shared"), tmpdir_path("plain")));
		else
			CHECK(same_file(tmpdir_path("shared"), tmpdir_path("plain")));
		tmpdir_clear();
	}
	et_buf_free(&raw);
	et_buf_free(&b);
}

/* ok = false, and a failed write: no file, no temporary file. */
static void test_failure_leaves_nothing(void)
{
	et_writer_cfg c;
	et_writer_cfg_init(&c);
	et_error e = {0};
	et_writer *w;
	for (int f = ET_WRITER_STREAM; f <= ET_WRITER_JSONL; f++) {
		c.format = (et_writer_format)f;
		c.path = tmpdir_path("out");
		CHECK(et_writer_open(&w, &c, &e) == 0);
		et_rank_info ri = rank_info(0);
		CHECK(et_writer_rank_begin(w, &ri, &e) == 0);
		CHECK(et_writer_close(w, false, &e) == 0);
		CHECK(tmpdir_empty());
	}
	/* --split: two ranks' files done, then the run fails */
	c.format = ET_WRITER_ET;
	c.path = NULL;
	c.split = tmpdir_path("r");
	CHECK(write_ranks(&c, 2, false) == 0);
	tmpdir_clear();
	CHECK(et_writer_open(&w, &c, &e) == 0);
	et_buf b = {0};
	meta_bytes(&b);
	for (uint32_t r = 0; r < 2; r++) {
		et_rank_info ri = rank_info(r);
		et_msg m = {b.data, b.len, 0, 0};
		CHECK(et_writer_rank_begin(w, &ri, &e) == 0 && et_writer_msg(w, &m, &e) == 0);
		CHECK(et_writer_rank_end(w, &e) == 0);
	}
	CHECK(et_writer_close(w, false, &e) == 0);
	CHECK(tmpdir_empty());
	c.split = NULL;

	/* raw ET takes one rank: the second is a usage error */
	c.path = tmpdir_path("one.et");
	CHECK(write_ranks(&c, 2, false) == -1);
	CHECK(tmpdir_empty());
	CHECK(et_writer_open(&w, &c, &e) == 0);
	et_rank_info r0 = rank_info(0), r1 = rank_info(1);
	CHECK(et_writer_rank_begin(w, &r0, &e) == 0 && et_writer_rank_end(w, &e) == 0);
	CHECK(et_writer_rank_begin(w, &r1, &e) == -1 && e.code == 2);
	CHECK(et_writer_close(w, false, NULL) == 0);

	/* JSON cannot write a node that does not decode */
	c.format = ET_WRITER_JSONL;
	c.path = tmpdir_path("bad.jsonl");
	CHECK(et_writer_open(&w, &c, &e) == 0);
	et_msg meta = {b.data, b.len, 0, 0};
	static const uint8_t junk[] = {0xff, 0xff, 0xff};
	et_msg bad = {junk, sizeof junk, 7, 1};
	CHECK(et_writer_rank_begin(w, &r0, &e) == 0 && et_writer_msg(w, &meta, &e) == 0);
	CHECK(et_writer_msg(w, &bad, &e) == -1 && e.code == 3);
	CHECK(strstr(e.msg, "test: rank 0: byte 7: node message 1 does not parse") != NULL);
	CHECK(et_writer_close(w, false, NULL) == 0);
	CHECK(tmpdir_empty());

	/* a directory that does not exist: the open fails, w is NULL */
	c.path = tmpdir_path("no/such/dir/x");
	w = (et_writer *)&c;
	CHECK(et_writer_open(&w, &c, &e) == -1 && w == NULL && e.code == 4);
	CHECK(et_writer_close(NULL, true, &e) == 0);
	et_buf_free(&b);
}

int main(void)
{
	if (!tmpdir_open("test_writer"))
		return 1;
	test_formats();
	test_shared();
	test_failure_leaves_nothing();
	tmpdir_close();
	return check_failures();
}
