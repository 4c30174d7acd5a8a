#include "et_stream.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_output.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

struct et_stream_writer {
	FILE *out;
	char *out_name; /* for write errors */
	ZSTD_CCtx *cc;
	uint8_t *obuf;
	size_t ocap;
	int in_rank;
	bool open;       /* the rank's current frame has bytes not yet ended */
	uint32_t frames; /* delta frames put into the rank */
	et_buf tmp;      /* a base or delta frame being made */
	et_buf ext;      /* records after the name in the headers */
};

static void put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}

size_t et_stream_header_encode(uint8_t *buf, uint16_t version, uint32_t rank, uint32_t world,
                               const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n > 255)
		n = 255;
	memcpy(buf, "ETSTREAM", 8);
	put_le16(buf + 8, version);
	put_le16(buf + 10, 0);
	put_le32(buf + 12, rank);
	put_le32(buf + 16, world);
	put_le16(buf + 20, (uint16_t)n);
	if (n)
		memcpy(buf + 22, name, n);
	return 22 + n;
}

et_stream_writer *et_stream_writer_new(FILE *out, int level, int threads)
{
	et_stream_writer *w = et_xcalloc(1, sizeof *w);
	w->out = out;
	w->cc = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(w->cc, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(w->cc, ZSTD_c_checksumFlag, 1);
	if (threads > 0)
		ZSTD_CCtx_setParameter(w->cc, ZSTD_c_nbWorkers, threads);
	w->ocap = ZSTD_CStreamOutSize();
	w->obuf = et_xmalloc(w->ocap);
	return w;
}

void et_stream_writer_set_name(et_stream_writer *w, const char *name)
{
	free(w->out_name);
	w->out_name = et_xstrdup(name);
}

void et_stream_writer_free(et_stream_writer *w)
{
	if (!w)
		return;
	ZSTD_freeCCtx(w->cc);
	et_buf_free(&w->tmp);
	et_buf_free(&w->ext);
	free(w->out_name);
	free(w->obuf);
	free(w);
}

static int write_out(et_stream_writer *w, const void *p, size_t n, et_error *e)
{
	if (n && fwrite(p, 1, n, w->out) != n)
		return et_write_failed(w->out_name ? w->out_name : "<output>", e);
	return 0;
}

/* The section's header as a skippable frame. */
static int put_header(et_stream_writer *w, uint16_t version, uint32_t rank, uint32_t world,
                      const char *name, et_error *e)
{
	uint8_t frame[8 + 22 + 255];
	size_t n = et_stream_header_encode(frame + 8, version, rank, world, name);
	put_le32(frame, ET_STREAM_MAGIC);
	put_le32(frame + 4, (uint32_t)(n + w->ext.len));
	if (write_out(w, frame, 8 + n, e) < 0)
		return -1;
	return write_out(w, w->ext.data, w->ext.len, e);
}

void et_stream_set_header_ext(et_stream_writer *w, const void *p, size_t n)
{
	w->ext.len = 0;
	if (n)
		et_buf_append(&w->ext, p, n);
}

int et_stream_begin_rank(et_stream_writer *w, uint16_t version, uint32_t rank, uint32_t world,
                         const char *name, et_error *e)
{
	w->in_rank = 1;
	w->open = false;
	w->frames = 0;
	ZSTD_CCtx_reset(w->cc, ZSTD_reset_session_only);
	return put_header(w, version, rank, world, name, e);
}

int et_stream_put_frame(et_stream_writer *w, uint32_t rank, uint32_t world, const char *name,
                        const void *frame, size_t n, et_error *e)
{
	if (put_header(w, ET_STREAM_VERSION, rank, world, name, e) < 0)
		return -1;
	return write_out(w, frame, n, e);
}

int et_stream_compress_frame(const void *p, size_t n, int level, int threads, et_buf *out,
                             et_error *e)
{
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	if (threads > 0)
		ZSTD_CCtx_setParameter(cc, ZSTD_c_nbWorkers, threads);
	out->len = 0;
	et_buf_reserve(out, ZSTD_compressBound(n));
	size_t k = ZSTD_compress2(cc, out->data, out->cap, p, n);
	ZSTD_freeCCtx(cc);
	if (ZSTD_isError(k))
		return et_fail(e, ET_EXIT_IO, "zstd compression failed: %s", ZSTD_getErrorName(k));
	out->len = k;
	return 0;
}

static int compress(et_stream_writer *w, const void *p, size_t n, ZSTD_EndDirective mode,
                    et_error *e)
{
	ZSTD_inBuffer in = {p, n, 0};
	for (;;) {
		ZSTD_outBuffer out = {w->obuf, w->ocap, 0};
		size_t left = ZSTD_compressStream2(w->cc, &out, &in, mode);
		if (ZSTD_isError(left))
			return et_fail(e, ET_EXIT_IO, "zstd compression failed: %s",
			               ZSTD_getErrorName(left));
		if (write_out(w, w->obuf, out.pos, e) < 0)
			return -1;
		if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size)
			return 0;
	}
}

int et_stream_write(et_stream_writer *w, const void *p, size_t n, et_error *e)
{
	w->open = w->open || n;
	return compress(w, p, n, ZSTD_e_continue, e);
}

/* The rank's frame so far ends here: a rank may be several frames. */
static int end_open_frame(et_stream_writer *w, et_error *e)
{
	if (w->open && compress(w, "", 0, ZSTD_e_end, e) < 0)
		return -1;
	w->open = false;
	return 0;
}

/* A skippable frame: tag, id, then p[0..n) as one zstd frame. */
static int put_tagged(et_stream_writer *w, const char *tag, uint32_t id, const void *p, size_t n,
                      et_error *e)
{
	if (end_open_frame(w, e) < 0)
		return -1;
	size_t cap = ZSTD_compressBound(n);
	w->tmp.len = 0;
	et_buf_reserve(&w->tmp, 20 + cap);
	size_t k = ZSTD_compress2(w->cc, w->tmp.data + 20, cap, p, n);
	if (ZSTD_isError(k))
		return et_fail(e, ET_EXIT_IO, "zstd compression failed: %s", ZSTD_getErrorName(k));
	if (k > UINT32_MAX - 12)
		return et_fail(e, ET_EXIT_IO, "a base or delta frame over 4 GiB compressed");
	put_le32(w->tmp.data, ET_STREAM_MAGIC);
	put_le32(w->tmp.data + 4, (uint32_t)(12 + k));
	memcpy(w->tmp.data + 8, tag, 8);
	put_le32(w->tmp.data + 16, id);
	return write_out(w, w->tmp.data, 20 + k, e);
}

int et_stream_put_base(et_stream_writer *w, uint32_t id, const void *p, size_t n, et_error *e)
{
	return put_tagged(w, ET_STREAM_TAG_BASE, id, p, n, e);
}

int et_stream_put_delta(et_stream_writer *w, uint32_t id, const et_buf *ops, et_error *e)
{
	w->frames++;
	return put_tagged(w, ET_STREAM_TAG_DELTA, id, ops->data, ops->len, e);
}

int et_stream_put_class(et_stream_writer *w, uint32_t id, const void *p, size_t n, et_error *e)
{
	return put_tagged(w, ET_STREAM_TAG_CLASS, id, p, n, e);
}

int et_stream_put_rule(et_stream_writer *w, uint32_t id, const et_buf *rule, et_error *e)
{
	uint8_t hd[20];
	put_le32(hd, ET_STREAM_MAGIC);
	put_le32(hd + 4, (uint32_t)(12 + rule->len));
	memcpy(hd + 8, ET_STREAM_TAG_RULE, 8);
	put_le32(hd + 16, id);
	w->frames++; /* no empty zstd frame after it */
	if (write_out(w, hd, 20, e) < 0)
		return -1;
	return write_out(w, rule->data, rule->len, e);
}

static void put_op(et_buf *ops, uint64_t tag)
{
	uint8_t v[10];
	et_buf_append(ops, v, (size_t)et_varint_put(v, tag));
}

void et_stream_delta_add(et_buf *ops, const void *p, size_t n)
{
	put_op(ops, (uint64_t)n << 1);
	et_buf_append(ops, p, n);
}

void et_stream_delta_copy(et_buf *ops, uint64_t off, uint64_t n)
{
	put_op(ops, n << 1 | 1);
	put_op(ops, off);
}

int et_stream_end_rank(et_stream_writer *w, et_error *e)
{
	w->in_rank = 0;
	/* nothing since the last delta frame: no empty frame after it */
	if (!w->open && w->frames)
		return 0;
	w->open = false;
	return compress(w, "", 0, ZSTD_e_end, e);
}