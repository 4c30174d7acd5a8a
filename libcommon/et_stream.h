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
/* A section that may hold delta frames: readers that know only version 1
 * refuse it rather than skip the deltas. */
#define ET_STREAM_VERSION_DELTA 2
/* Bases: ids below ET_STREAM_BASE_IDS; a reader holds at most
 * ET_STREAM_BASE_MAX bytes of them (decompressed), and one delta frame's
 * operations decompress to at most ET_STREAM_DELTA_MAX bytes. */
#define ET_STREAM_BASE_IDS 4096u
#define ET_STREAM_BASE_MAX ((uint64_t)256 << 20)
#define ET_STREAM_DELTA_MAX ((uint64_t)64 << 20)

typedef struct et_stream_writer et_stream_writer;

/* out is owned by the caller (see et_output); it is written with fwrite. */
et_stream_writer *et_stream_writer_new(FILE *out, int level, int threads);
/* The name of out in write-error messages (a path, "<stdout>"). */
void et_stream_writer_set_name(et_stream_writer *w, const char *name);
void et_stream_writer_free(et_stream_writer *w);
/* version: ET_STREAM_VERSION, or ET_STREAM_VERSION_DELTA for a section that
 * may hold delta frames. */
int et_stream_begin_rank(et_stream_writer *w, uint16_t version, uint32_t rank, uint32_t world,
                         const char *name, et_error *e);
/* Records to put after the name in the section headers written from now
 * on (et_sgroups.h: a GRPS record, tag and length included; n <=
 * ET_STREAM_EXT_MAX), copied; n = 0: none. */
void et_stream_set_header_ext(et_stream_writer *w, const void *p, size_t n);
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

/* Delta ranks (etkit-stream(5), DELTA FRAMES): ranks that differ from
 * each other in a few bytes are written as copies from a base the stream
 * holds once. et_stream_put_base defines base `id` (< ET_STREAM_BASE_IDS,
 * p[0..n), n <= ET_STREAM_BASE_MAX; the caller keeps the total of the
 * bases it defines within that too, and numbers them from 0: base 0 drops
 * every other), outside a rank or inside one (the rank's open frame ends
 * first). */
int et_stream_put_base(et_stream_writer *w, uint32_t id, const void *p, size_t n, et_error *e);
/* Inside a version-2 rank: the rank's next bytes are what ops (built with the two
 * functions below, at most ET_STREAM_DELTA_MAX bytes) make from base id;
 * the rank's open frame ends first. */
int et_stream_put_delta(et_stream_writer *w, uint32_t id, const et_buf *ops, et_error *e);
/* Append an operation: n literal bytes, or n bytes of the base from off. */
void et_stream_delta_add(et_buf *ops, const void *p, size_t n);
void et_stream_delta_copy(et_buf *ops, uint64_t off, uint64_t n);

/* Rank classes (etkit-stream(5), CLASS FRAMES): ranks that are one
 * template (et_tpl.h) with a few attributes substituted. A class frame
 * defines class `id` (< ET_STREAM_CLASS_IDS) as its zstd frame's payload,
 * a class rank is a version-3 section holding a rule frame: the class id and
 * the rank's attribute per slot. Limits: a reader holds at most
 * ET_STREAM_CLASS_MAX bytes of classes, a rule is at most
 * ET_STREAM_RULE_MAX bytes, slots are below ET_STREAM_CLASS_SLOTS. */
#define ET_STREAM_VERSION_CLASS 3
#define ET_STREAM_CLASS_IDS 4096u
#define ET_STREAM_CLASS_MAX ((uint64_t)256 << 20)
#define ET_STREAM_RULE_MAX (1u << 20)
#define ET_STREAM_CLASS_SLOTS 65536u
#define ET_STREAM_TAG_CLASS "ETCLASS\0"
#define ET_STREAM_TAG_RULE "ETRULE\0\0"
/* Defines class id from its payload (et_tpl_class), outside a rank. */
int et_stream_put_class(et_stream_writer *w, uint32_t id, const void *p, size_t n, et_error *e);
/* Inside a version-3 rank, before any byte: the rank is class id with
 * the rule bytes (et_tpl_rule). */
int et_stream_put_rule(et_stream_writer *w, uint32_t id, const et_buf *rule, et_error *e);

/* Encode a section header payload into buf (>= 22+255 bytes), return its
 * length; used by the writer and by tests. */
size_t et_stream_header_encode(uint8_t *buf, uint16_t version, uint32_t rank, uint32_t world,
                               const char *name);
/* A base or delta frame's payload tag (8 bytes). */
#define ET_STREAM_TAG_BASE "ETBASE\0\0"
#define ET_STREAM_TAG_DELTA "ETDELTA\0"

#endif
