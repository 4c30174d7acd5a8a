/* The emitter: ranks as stream sections, nodes encoded into a buffer that
 * is handed to zstd in large pieces (per-call overhead stays negligible). */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

enum { FLUSH_AT = 1 << 20 };

int emit_open(emitter *em, const synth_opts *o, const char *name, et_error *e)
{
	memset(em, 0, sizeof *em);
	if (et_output_open(&em->out, o->cli.output, true, e) < 0)
		return -1;
	em->sw = et_stream_writer_new(et_output_file(em->out), o->level, o->threads);
	em->arena = et_arena_new();
	em->world = o->world;
	em->name = o->name ? o->name : name;
	et_progress_init(&em->pg, o->cli.progress);
	return 0;
}

static int flush(emitter *em, et_error *e)
{
	int r = 0;
	if (em->buf.len)
		r = et_stream_write(em->sw, em->buf.data, em->buf.len, e);
	em->buf.len = 0;
	return r;
}

int emit_rank_begin(emitter *em, uint32_t rank, const char *version, et_error *e)
{
	em->rank = rank;
	if (et_stream_begin_rank(em->sw, rank, em->world, em->name, e) < 0)
		return -1;
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = (char *)version;
	et_meta_encode(&m, &em->buf);
	return 0;
}

int emit_rank_begin_meta(emitter *em, uint32_t rank, const void *meta, size_t n, et_error *e)
{
	em->rank = rank;
	if (et_stream_begin_rank(em->sw, rank, em->world, em->name, e) < 0)
		return -1;
	et_frame_put(&em->buf, meta, n);
	return 0;
}

int emit_node(emitter *em, const et_node *n, et_error *e)
{
	et_node_encode(n, &em->buf);
	et_arena_reset(em->arena);
	et_progress_update(&em->pg, em->rank, ++em->nodes);
	return em->buf.len >= FLUSH_AT ? flush(em, e) : 0;
}

int emit_raw(emitter *em, const void *p, size_t n, uint64_t count, et_error *e)
{
	if (flush(em, e) < 0)
		return -1;
	em->nodes += count;
	et_progress_update(&em->pg, em->rank, em->nodes);
	return et_stream_write(em->sw, p, n, e);
}

int emit_rank_end(emitter *em, et_error *e)
{
	if (flush(em, e) < 0)
		return -1;
	return et_stream_end_rank(em->sw, e);
}

int emit_close(emitter *em, bool ok, et_error *e)
{
	et_progress_done(&em->pg);
	et_stream_writer_free(em->sw);
	et_arena_free(em->arena);
	et_buf_free(&em->buf);
	int r = 0;
	if (ok)
		r = et_output_commit(em->out, e);
	else
		et_output_abort(em->out);
	memset(em, 0, sizeof *em);
	return r;
}

int emit_finish(emitter *em, int r, et_error *e)
{
	et_error e2;
	if (emit_close(em, r == 0, &e2) < 0 && r == 0) {
		*e = e2;
		return -1;
	}
	return r;
}

int synth_exit(int r, const et_error *e)
{
	if (r == 0)
		return 0;
	et_err_print(e);
	return e->code ? e->code : ET_EXIT_IO;
}
