/* et_stream: the ETSTREAM container writer (etkit-stream(5)).
 *
 * A section = one skippable frame with the header, then the rank's ET bytes
 * as zstd frames. The writer never needs a rank's size in advance. Level
 * defaults to 3; threads > 0 uses zstd's worker threads. */
#ifndef ET_STREAM_H
#define ET_STREAM_H

#include "et_buf.h"
#include "et_err.h"
#include <stdint.h>
#include <stdio.h>

#define ET_STREAM_MAGIC 0x184D2A5Eu
#define ET_STREAM_VERSION 1

typedef struct et_stream_writer et_stream_writer;

/* out is owned by the caller (see et_output); it is written with fwrite. */
et_stream_writer *et_stream_writer_new(FILE *out, int level, int threads);
void et_stream_writer_free(et_stream_writer *w);
int et_stream_begin_rank(et_stream_writer *w, uint32_t rank, uint32_t world, const char *name,
                         et_error *e);
/* Raw ET bytes of the current rank (length-prefixed messages). */
int et_stream_write(et_stream_writer *w, const void *p, size_t n, et_error *e);
int et_stream_end_rank(et_stream_writer *w, et_error *e);

/* A whole rank's raw ET bytes compressed into one zstd frame (checksummed,
 * as the writer's frames are), replacing out's contents. For ranks that
 * are byte-identical: compress once, write the frame under each rank's
 * header with et_stream_put_frame. */
int et_stream_compress_frame(const void *p, size_t n, int level, int threads, et_buf *out,
                             et_error *e);
/* A complete section: the rank's header, then frame (bytes from
 * et_stream_compress_frame), written unchanged. Not inside a rank begun
 * with et_stream_begin_rank. */
int et_stream_put_frame(et_stream_writer *w, uint32_t rank, uint32_t world, const char *name,
                        const void *frame, size_t n, et_error *e);

/* Inside a rank begun with et_stream_begin_rank: frame (from
 * et_stream_compress_frame, of whole messages) as the rank's next bytes,
 * written unchanged; what was written before it ends as a frame of its own.
 * For pieces that many ranks share: compressed once, written as they are. */
int et_stream_put_frame_in_rank(et_stream_writer *w, const void *frame, size_t n, et_error *e);

/* Encode a section header payload into buf (>= 22+255 bytes), return its
 * length; used by the writer and by tests. */
size_t et_stream_header_encode(uint8_t *buf, uint32_t rank, uint32_t world, const char *name);

#endif
