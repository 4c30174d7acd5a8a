/* Whole ranks as one ready-made zstd frame. When ranks are byte-identical
 * (et-synth dag without --jitter), compressing the rank once and writing
 * the same frame under every rank's section header costs one compression
 * in total instead of one per rank; the stream is the same format
 * (etkit-stream(5): a section is a header frame, then zstd frames). */
#include "synth.h"

#include <errno.h>
#include <string.h>
#include <zstd.h>

int frame_compress(const void *p, size_t n, int level, int threads, et_buf *out, et_error *e)
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

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int emit_frame_rank(emitter *em, uint32_t rank, const et_buf *frame, uint64_t nodes, et_error *e)
{
	uint8_t hdr[8 + 22 + 255];
	size_t n = et_stream_header_encode(hdr + 8, rank, em->world, em->name);
	put_le32(hdr, ET_STREAM_MAGIC);
	put_le32(hdr + 4, (uint32_t)n);
	FILE *f = et_output_file(em->out);
	if (fwrite(hdr, 1, 8 + n, f) != 8 + n ||
	    fwrite(frame->data, 1, frame->len, f) != frame->len)
		return et_fail(e, ET_EXIT_IO, "write error: %s", strerror(errno));
	em->rank = rank;
	em->nodes += nodes;
	et_progress_update(&em->pg, rank, em->nodes);
	return 0;
}
