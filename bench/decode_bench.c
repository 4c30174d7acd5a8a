/* decode_bench: node decode throughput over any input et_input reads.
 *
 *   decode_bench frame    FILE...  framing only (et_input, no protobuf)
 *   decode_bench decode   FILE...  et_node_decode of every node, arena reset per node
 *   decode_bench reencode FILE...  decode + et_node_encode; also counts nodes whose
 *                                  re-encoding differs from the input bytes
 *   decode_bench malloc   FILE...  protobuf-c's own unpack with its default allocator
 *                                  (malloc per field, free_unpacked per node): the
 *                                  baseline the foundation issue quotes, to tell how
 *                                  node shape moves it
 *
 * Prints one line "nodes=N bytes=B seconds=S noncanonical=K" on stdout; the
 * bytes are the rank's ET bytes (decompressed), so MB/s compare across
 * containers. Exit 3 on a decode failure, 1 if reencode found a non-canonical
 * node (the generator writes canonical bytes, so that would be a codec bug). */
#include "app/et_app.h"
#include "et_arena.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_input.h"
#include "et_progress.h"

#include <stdio.h>
#include <string.h>

typedef enum mode { FRAME, DECODE, REENCODE, MALLOC } mode;

typedef struct stats {
	uint64_t nodes, bytes, noncanonical;
} stats;

/* Is varint(len) + data byte-identical to the re-encoded frame? */
static bool same_frame(const et_msg *m, const et_buf *b)
{
	uint8_t pre[10];
	size_t k = (size_t)et_varint_put(pre, m->len);
	return b->len == k + m->len && memcmp(b->data, pre, k) == 0 &&
	       memcmp(b->data + k, m->data, m->len) == 0;
}

static int run_rank(et_input *in, mode md, et_arena *a, et_buf *b, stats *st, et_error *e)
{
	et_msg m;
	int r;
	while ((r = et_input_next_msg(in, &m, e)) == 1) {
		uint8_t pre[10];
		st->bytes += m.len + (size_t)et_varint_put(pre, m.len);
		if (m.index == 0 || md == FRAME) {
			st->nodes += m.index > 0;
			continue;
		}
		if (md == MALLOC) {
			et_node *n = chakra_proto_msg__node__unpack(NULL, m.len, m.data);
			if (!n)
				return et_fail(
				    e, ET_EXIT_DATA, "byte %llu: node %llu does not parse",
				    (unsigned long long)m.offset, (unsigned long long)m.index);
			chakra_proto_msg__node__free_unpacked(n, NULL);
			st->nodes++;
			continue;
		}
		et_arena_reset(a);
		et_node *n = et_node_decode(a, m.data, m.len);
		if (!n)
			return et_fail(e, ET_EXIT_DATA, "byte %llu: node %llu does not parse",
			               (unsigned long long)m.offset, (unsigned long long)m.index);
		st->nodes++;
		if (md == REENCODE) {
			b->len = 0;
			et_node_encode(n, b);
			st->noncanonical += !same_frame(&m, b);
		}
	}
	return r;
}

int main(int argc, char **argv)
{
	et_err_set_prog("decode_bench");
	if (argc < 3)
		et_die(ET_EXIT_USAGE, "usage: decode_bench frame|decode|reencode|malloc FILE...");
	static const char *const names[] = {"frame", "decode", "reencode", "malloc"};
	int md = 0;
	while (md < 4 && strcmp(argv[1], names[md]) != 0)
		md++;
	if (md == 4)
		et_die(ET_EXIT_USAGE, "unknown mode '%s'", argv[1]);
	et_error e = {0};
	et_input *in;
	stats st = {0};
	et_arena *a = et_arena_new();
	et_buf b = {0};
	uint64_t t0 = et_now_ns();
	int r = et_input_open(&in, argc - 2, argv + 2, NULL, &e);
	et_rank_info ri;
	while (r == 0 && (r = et_input_next_rank(in, &ri, &e)) == 1)
		r = run_rank(in, (mode)md, a, &b, &st, &e);
	double secs = (double)(et_now_ns() - t0) / 1e9;
	et_input_close(in);
	et_arena_free(a);
	et_buf_free(&b);
	if (r < 0) {
		et_err_print(&e);
		return e.code ? e.code : ET_EXIT_DATA;
	}
	printf("nodes=%llu bytes=%llu seconds=%.3f noncanonical=%llu\n",
	       (unsigned long long)st.nodes, (unsigned long long)st.bytes, secs,
	       (unsigned long long)st.noncanonical);
	return st.noncanonical ? 1 : 0;
}
