/* Shared by the bench generators: write ranks of generated nodes as stream
 * sections, encoding node by node into a buffer flushed in 1 MiB writes
 * (each node is built in the arena, which is reset per node). */
#ifndef BENCH_WRITE_H
#define BENCH_WRITE_H

#include "et_arena.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_stream.h"

#include <stdio.h>

typedef et_node *(*bench_make_fn)(void *gen, uint32_t rank, uint32_t k);

static inline int bench_write_rank(et_stream_writer *w, et_arena *a, et_buf *buf, uint32_t rank,
                                   uint32_t world, const char *name, uint32_t nodes,
                                   bench_make_fn make, void *gen, et_error *e)
{
	if (et_stream_begin_rank(w, ET_STREAM_VERSION, rank, world, name, e) < 0)
		return -1;
	et_meta *m = et_meta_new(a);
	m->version = (char *)"0.0.4";
	buf->len = 0;
	et_meta_encode(m, buf);
	for (uint32_t k = 0; k < nodes; k++) {
		et_arena_reset(a);
		et_node_encode(make(gen, rank, k), buf);
		if (buf->len > (1u << 20)) {
			if (et_stream_write(w, buf->data, buf->len, e) < 0)
				return -1;
			buf->len = 0;
		}
	}
	if (et_stream_write(w, buf->data, buf->len, e) < 0)
		return -1;
	return et_stream_end_rank(w, e);
}

/* The whole generated stream into path: every rank in turn. Returns the
 * exit status (0, or 4 with a message naming prog). */
static inline int bench_write_file(const char *prog, const char *path, uint32_t ranks,
                                   uint32_t nodes, et_arena *a, bench_make_fn make, void *gen)
{
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		return 4;
	}
	et_stream_writer *w = et_stream_writer_new(f, 1, 0);
	et_buf buf = {0};
	et_error e = {0};
	int rc = 0;
	for (uint32_t r = 0; r < ranks && !rc; r++)
		if (bench_write_rank(w, a, &buf, r, ranks, prog, nodes, make, gen, &e) < 0) {
			fprintf(stderr, "%s: %s\n", prog, e.msg);
			rc = 4;
		}
	et_stream_writer_free(w);
	et_buf_free(&buf);
	if (fclose(f) != 0)
		rc = 4;
	return rc;
}

#endif
