/* et_src: a byte window over one input file, decompressing as it goes.
 *
 * The file layer reads the file (or stdin) in blocks; the window holds
 * decoded bytes: raw, gzip (all members), zstd (all frames), or one stream
 * section (zstd frames up to the next ETSTREAM skippable frame). The window
 * grows only as bytes arrive, so a bogus length field cannot make it
 * allocate more than about twice the bytes really present. */
#ifndef ET_SRC_H
#define ET_SRC_H

#include "et_err.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct et_src et_src;

typedef enum et_src_mode {
	ET_SRC_RAW,
	ET_SRC_GZIP,
	ET_SRC_ZSTD,    /* every frame to end of file; skippable frames skipped */
	ET_SRC_SECTION, /* zstd frames of one stream section */
} et_src_mode;

/* The ETSTREAM section header (etkit-stream(5)). */
typedef struct et_stream_hdr {
	uint16_t version;
	uint16_t flags;
	uint32_t rank;
	uint32_t world_size;
	char name[256];
	/* its GRPS record's payload (et_sgroups.h), checked, or NULL / 0:
	 * valid until the next header is read; groups_off = its file offset */
	const uint8_t *groups;
	uint32_t groups_len;
	uint64_t groups_off;
	int32_t class_id; /* a class rank (version 3): its class; else -1 */
} et_stream_hdr;

/* path "-" or NULL = stdin. name is used in messages. */
int et_src_open(et_src **s, const char *path, et_error *e);
void et_src_close(et_src *s);
const char *et_src_name(const et_src *s);
/* Text put after the name in error messages (e.g. "rank 3: "); copied. */
void et_src_set_context(et_src *s, const char *ctx);

/* What the file starts with: ET_SRC_SECTION for a stream (after skipping
 * foreign skippable frames), ET_SRC_ZSTD, ET_SRC_GZIP or ET_SRC_RAW.
 * Consumes nothing. */
int et_src_sniff_container(et_src *s, et_src_mode *mode, et_error *e);
/* Start decoding the rest of the file in this mode (RAW, GZIP or ZSTD). */
void et_src_set_mode(et_src *s, et_src_mode mode);
/* Stream: read the next section header; 1 = got one (the window now holds
 * that section's decoded bytes), 0 = end of file, -1 = error (bad header, a
 * non-stream byte where a section should start). Any unread bytes of the
 * previous section are decoded and dropped. */
int et_src_next_section(et_src *s, et_stream_hdr *h, et_error *e);

/* Class-aware readers (etkit-stream(5), CLASS FRAMES): the payload of
 * class id as its class frame gave it (valid until a class frame of that
 * id is read again), or NULL when it is not defined; the current class
 * rank's rule payload (valid until the next section), or NULL. */
const uint8_t *et_src_class(const et_src *s, uint32_t id, size_t *len);
const uint8_t *et_src_rule(const et_src *s, size_t *len);
/* Class id's generation: nonzero while it is defined, unique in s to its
 * bytes since they were last different (a class frame that repeats the
 * bytes keeps it); 0 when it is not defined. */
uint64_t et_src_class_gen(const et_src *s, uint32_t id);
/* The largest generation s has given so far (0: none). */
uint64_t et_src_class_gens(const et_src *s);
/* A class rank that will not be read: its expansion is dropped, so that
 * the section ends where its class rank's frames end. True when it was a
 * class rank with nothing else in its section read yet. */
bool et_src_skip_class(et_src *s);

/* Make at least `need` bytes available in the window (fewer only at end of
 * data). Returns the number available, or -1 on a decode/I-O error. */
int64_t et_src_fill(et_src *s, size_t need, et_error *e);
const uint8_t *et_src_data(const et_src *s); /* window start */
size_t et_src_avail(const et_src *s);
void et_src_consume(et_src *s, size_t n);
/* Decoded offset of the window start within the current file/section. */
uint64_t et_src_offset(const et_src *s);
/* Byte offset in the underlying file of the next unread file byte. */
uint64_t et_src_file_offset(const et_src *s);

#endif
