/* Unit tests of et_tpl and of the stream's delta frames (etkit-stream(5)):
 * a template written to a stream (the first rank in full, the others as
 * deltas from one base) and to JSONL (every rank in full) reads back as
 * the ranks the template describes, each slot node with its own rank's
 * attribute, checked by decoding the nodes; the stream really holds one
 * base and a delta per later rank, under version-2 headers; and the
 * reader refuses each kind of bad delta with exit status 3 and a message
 * naming it. */
#include "check.h"
#include "et_attr.h"
#include "et_input.h"
#include "et_stream.h"
#include "et_tpl.h"
#include "et_writer.h"
#include "tmpdir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

enum { NODES = 6, RANKS = 3 };

/* Node 1 holds slot 0 (comm_dst), node 4 slot 1 (comm_src). */
static uint32_t slot_of(int i)
{
	return i == 1 ? 0 : i == 4 ? 1 : ET_TPL_FIXED;
}

static void build(et_tpl *t)
{
	et_tpl_init(t);
	for (int i = 0; i < NODES; i++) {
		et_arena *a = et_arena_new();
		et_node *n = et_node_new(a);
		n->id = (uint64_t)i;
		n->name = "op";
		n->type = CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE;
		uint64_t dep = (uint64_t)i - 1;
		n->data_deps = &dep;
		n->n_data_deps = i > 0;
		et_tpl_add(t, n, slot_of(i));
		et_arena_free(a);
	}
}

typedef struct vars {
	uint32_t rank;
	et_buf b;
} vars;

static const et_buf *var(void *ctx, uint32_t slot)
{
	vars *v = ctx;
	et_tpl_attr_int32(&v->b, slot ? "comm_src" : "comm_dst", (int32_t)(v->rank * 10 + slot));
	return &v->b;
}

static void write_tpl(et_writer_format f, const char *path, bool deltas)
{
	et_tpl t;
	build(&t);
	t.deltas = deltas;
	et_buf meta = {0};
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = "0.0.4";
	et_meta_pack(&m, &meta);
	et_writer_cfg c;
	et_writer_cfg_init(&c);
	c.format = f;
	c.path = path;
	et_writer *w;
	et_error e = {0};
	CHECK(et_writer_open(&w, &c, &e) == 0);
	vars v = {0};
	for (uint32_t r = 0; r < RANKS; r++) {
		et_rank_info ri = {.rank = r, .world_size = RANKS, .input = "test"};
		v.rank = r;
		CHECK(et_tpl_write(&t, w, &ri, &meta, var, &v, &e) == 0);
	}
	CHECK(et_writer_close(w, true, &e) == 0);
	et_buf_free(&v.b);
	et_buf_free(&meta);
	et_tpl_free(&t);
}

/* Every rank: the metadata, then the template's nodes in order, each slot
 * node with rank·10 + slot under its name and no other node with either. */
static void check_ranks(const char *path)
{
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	et_error e = {0};
	char *argv[] = {(char *)path};
	CHECK(et_input_open(&in, 1, argv, &o, &e) == 0);
	et_rank_info ri;
	uint32_t ranks = 0;
	while (et_input_next_rank(in, &ri, &e) == 1) {
		CHECK(ri.rank == ranks);
		et_msg msg;
		int k = 0;
		while (et_input_next_msg(in, &msg, &e) == 1) {
			if (k++ == 0)
				continue; /* the GlobalMetadata */
			int i = k - 2;
			et_arena *a = et_arena_new();
			et_node *n = et_node_decode(a, msg.data, msg.len);
			CHECK(n && n->id == (uint64_t)i && strcmp(n->name, "op") == 0);
			int64_t dst = -1, src = -1;
			bool hd = n && et_attr_int(n, "comm_dst", &dst);
			bool hs = n && et_attr_int(n, "comm_src", &src);
			CHECK(hd == (i == 1) && hs == (i == 4));
			if (i == 1)
				CHECK(dst == (int64_t)ri.rank * 10);
			if (i == 4)
				CHECK(src == (int64_t)ri.rank * 10 + 1);
			et_arena_free(a);
		}
		CHECK(k == NODES + 1);
		ranks++;
	}
	CHECK(e.code == 0 && ranks == RANKS);
	et_input_close(in);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Walks the stream's frames: section versions in order, bases, deltas. */
static void frames_of(const char *path, char *versions, int *bases, int *deltas)
{
	et_buf f = {0};
	et_error e = {0};
	CHECK(et_buf_read_file(&f, path, 1 << 20, &e) == 0);
	const uint8_t *p = f.data;
	size_t n = f.len, at = 0;
	*bases = *deltas = 0;
	while (at + 8 <= n) {
		if (rd32(p + at) == ZSTD_MAGICNUMBER) {
			size_t k = ZSTD_findFrameCompressedSize(p + at, n - at);
			CHECK(!ZSTD_isError(k));
			if (ZSTD_isError(k))
				break;
			at += k;
			continue;
		}
		CHECK(rd32(p + at) == ET_STREAM_MAGIC);
		const uint8_t *q = p + at + 8;
		if (memcmp(q, "ETSTREAM", 8) == 0)
			*versions++ = (char)('0' + q[8]);
		*bases += memcmp(q, ET_STREAM_TAG_BASE, 8) == 0;
		*deltas += memcmp(q, ET_STREAM_TAG_DELTA, 8) == 0;
		at += 8 + rd32(p + at + 4);
	}
	*versions = 0;
	CHECK(at == n);
	et_buf_free(&f);
}

static void test_tpl_outputs(void)
{
	char v[8];
	int bases, deltas;
	write_tpl(ET_WRITER_STREAM, tmpdir_path("t.etz"), true);
	check_ranks(tmpdir_path("t.etz"));
	frames_of(tmpdir_path("t.etz"), v, &bases, &deltas);
	CHECK(strcmp(v, "122") == 0 && bases == 1 && deltas == RANKS - 1);
	/* deltas not allowed: every rank in full */
	write_tpl(ET_WRITER_STREAM, tmpdir_path("t.etz"), false);
	check_ranks(tmpdir_path("t.etz"));
	frames_of(tmpdir_path("t.etz"), v, &bases, &deltas);
	CHECK(strcmp(v, "111") == 0 && bases == 0 && deltas == 0);
	write_tpl(ET_WRITER_JSONL, tmpdir_path("t.jsonl"), true);
	check_ranks(tmpdir_path("t.jsonl"));
}

/* Reading path (every rank, every message) stops with exit 3 and want. */
static void expect_refused(const char *path, const char *want)
{
	et_error e = {0};
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	char *argv[] = {(char *)path};
	int r = et_input_open(&in, 1, argv, &o, &e);
	if (r == 0) {
		et_rank_info ri;
		et_msg m;
		int k = 1;
		while (k >= 0 && et_input_next_rank(in, &ri, &e) == 1)
			while ((k = et_input_next_msg(in, &m, &e)) == 1)
				;
		et_input_close(in);
	}
	CHECK(e.code == 3 && strstr(e.msg, want));
	if (e.code != 3 || !strstr(e.msg, want))
		fprintf(stderr, "want %s, got: %s\n", want, e.msg);
}

/* A stream made by hand with et_stream_writer: base 1 = "abcdef" when
 * base1, then base 0 = the first base_len bytes of it when base_len > 0,
 * one rank (version 2 when a base was defined), one delta from base `id`
 * with ops. Reading it fails with exit 3 and `want`. */
static void check_bad(const char *want, bool base1, int base_len, uint32_t id, const et_buf *ops)
{
	const char *path = tmpdir_path("bad.etz");
	FILE *f = fopen(path, "wb");
	et_stream_writer *w = et_stream_writer_new(f, 3, 0);
	et_error e = {0};
	if (base1)
		CHECK(et_stream_put_base(w, 1, "abcdef", 6, &e) == 0);
	if (base_len)
		CHECK(et_stream_put_base(w, 0, "abcdef", (size_t)base_len, &e) == 0);
	uint16_t version = base_len ? ET_STREAM_VERSION_DELTA : ET_STREAM_VERSION;
	CHECK(et_stream_begin_rank(w, version, 0, 1, "bad", &e) == 0);
	CHECK(et_stream_put_delta(w, id, ops, &e) == 0);
	CHECK(et_stream_end_rank(w, &e) == 0);
	et_stream_writer_free(w);
	fclose(f);
	expect_refused(path, want);
}

/* A base or delta frame of n zero bytes, compressed as a stream would. */
static void put_zeros_frame(FILE *f, const char *tag, uint64_t n)
{
	static uint8_t zeros[1 << 20];
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	et_buf z = {0};
	et_buf_reserve(&z, 1 << 16);
	for (uint64_t done = 0;;) {
		size_t k = n - done < sizeof zeros ? (size_t)(n - done) : sizeof zeros;
		ZSTD_inBuffer in = {zeros, k, 0};
		ZSTD_EndDirective end = done + k == n ? ZSTD_e_end : ZSTD_e_continue;
		size_t left;
		do {
			et_buf_reserve(&z, z.len + (1 << 16));
			ZSTD_outBuffer out = {z.data + z.len, z.cap - z.len, 0};
			left = ZSTD_compressStream2(cc, &out, &in, end);
			CHECK(!ZSTD_isError(left));
			z.len += out.pos;
		} while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
		done += k;
		if (end == ZSTD_e_end)
			break;
	}
	uint8_t h[20];
	uint32_t v[2] = {ET_STREAM_MAGIC, (uint32_t)(12 + z.len)};
	for (int i = 0; i < 8; i++)
		h[i] = (uint8_t)(v[i / 4] >> (8 * (i % 4)));
	memcpy(h + 8, tag, 8);
	memset(h + 16, 0, 4); /* id 0 */
	CHECK(fwrite(h, 1, 20, f) == 20 && fwrite(z.data, 1, z.len, f) == z.len);
	et_buf_free(&z);
	ZSTD_freeCCtx(cc);
}

/* The reader's limits: a base over 256 MiB, and a delta whose operations
 * (here all empty literals, which would read as nothing) decompress to
 * over 64 MiB; each stream is a valid one-rank stream otherwise. */
static void test_limits(void)
{
	for (int k = 0; k < 2; k++) {
		const char *path = tmpdir_path("limit.etz");
		FILE *f = fopen(path, "wb");
		et_stream_writer *w = et_stream_writer_new(f, 1, 0);
		et_error e = {0};
		if (k == 0)
			put_zeros_frame(f, ET_STREAM_TAG_BASE, ET_STREAM_BASE_MAX + 1);
		CHECK(et_stream_begin_rank(w, ET_STREAM_VERSION_DELTA, 0, 1, "limit", &e) == 0);
		et_buf meta = {0}, framed = {0};
		et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
		m.version = "0.0.4";
		et_meta_pack(&m, &meta);
		et_frame_put(&framed, meta.data, meta.len);
		CHECK(et_stream_write(w, framed.data, framed.len, &e) == 0);
		if (k == 1) {
			/* a small base, which also ends the rank's open frame */
			CHECK(et_stream_put_base(w, 0, "abcdef", 6, &e) == 0);
			put_zeros_frame(f, ET_STREAM_TAG_DELTA, ET_STREAM_DELTA_MAX + 1);
		}
		CHECK(et_stream_end_rank(w, &e) == 0);
		et_stream_writer_free(w);
		fclose(f);
		et_buf_free(&meta);
		et_buf_free(&framed);
		expect_refused(path,
		               k == 0 ? "base frame (the stream's bases are limited to 256 MiB): "
		                        "over 268435456 bytes decompressed"
		                      : "delta frame: over 67108864 bytes decompressed");
	}
}

static void test_bad_deltas(void)
{
	et_buf ops = {0};
	et_stream_delta_copy(&ops, 0, 2);
	check_bad("delta frame outside a version-2 stream section", false, 0, 0, &ops);
	check_bad("base 7 is not defined before it", false, 6, 7, &ops);
	check_bad("base id 5000, expected below 4096", false, 6, 5000, &ops);
	/* base 0 drops the bases defined before it */
	check_bad("base 1 is not defined before it", true, 6, 1, &ops);
	ops.len = 0;
	et_stream_delta_copy(&ops, 4, 3);
	check_bad("operation at byte 0: copies past the end of its base", false, 6, 0, &ops);
	ops.len = 0;
	et_stream_delta_copy(&ops, 0, 6);
	et_stream_delta_add(&ops, "xyz", 3);
	ops.len--;
	check_bad("operation at byte 2: literal longer than the operations left", false, 6, 0,
	          &ops);
	ops.len = 0;
	et_buf_append(&ops, "\x81", 1);
	check_bad("operation at byte 0: truncated or malformed", false, 6, 0, &ops);
	et_buf_free(&ops);
}

int main(void)
{
	if (!tmpdir_open("test_tpl"))
		return 1;
	test_tpl_outputs();
	test_bad_deltas();
	test_limits();
	tmpdir_close();
	return check_failures();
}
