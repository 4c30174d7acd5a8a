/* et_codec: Chakra messages <-> bytes, through protobuf-c.
 *
 * Encoding is canonical (what the reference Python writer produces): field
 * order by number, packed repeated scalars, proto3 implicit presence, set
 * oneof members always written, IOInfo written whenever non-NULL. protobuf-c
 * does all of this; this module adds the varint length prefix of the .et
 * framing (protobuf-c does not export its varint routines). */
#ifndef ET_CODEC_H
#define ET_CODEC_H

#include "et_arena.h"
#include "et_buf.h"
#include "proto/et_def.pb-c.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef ChakraProtoMsg__Node et_node;
typedef ChakraProtoMsg__GlobalMetadata et_meta;
typedef ChakraProtoMsg__AttributeProto et_attr;

/* Decode into arena memory (valid until et_arena_reset). NULL if the bytes
 * are not a valid message. */
et_node *et_node_decode(et_arena *a, const uint8_t *p, size_t n);
et_meta *et_meta_decode(et_arena *a, const uint8_t *p, size_t n);

/* Append varint(len) + canonical bytes of the message to out. */
void et_node_encode(const et_node *n, et_buf *out);
void et_meta_encode(const et_meta *m, et_buf *out);
/* Append the canonical bytes without the length prefix. */
void et_node_pack(const et_node *n, et_buf *out);
void et_meta_pack(const et_meta *m, et_buf *out);
/* Append varint(n) + p[0..n) (a message that is already encoded). */
void et_frame_put(et_buf *out, const uint8_t *p, size_t n);

/* Read a length-prefix varint at p[0..avail). Returns bytes used (1..10),
 * 0 if more bytes are needed, -1 if malformed (over 10 bytes or > 2^64). */
int et_varint_get(const uint8_t *p, size_t avail, uint64_t *v);
/* Write v as a varint into p (>= 10 bytes); returns bytes written. */
int et_varint_put(uint8_t *p, uint64_t v);
/* A cursor over p[0..n) for payloads of varints (class frames, rules):
 * et_cursor_varint reads the varint at pos and moves past it; false, pos
 * unchanged, when a whole one is not there. */
typedef struct et_cursor {
	const uint8_t *p;
	size_t n, pos;
} et_cursor;
bool et_cursor_varint(et_cursor *c, uint64_t *v);

/* Whether the message or one of its sub-messages holds fields this schema
 * does not know (from a newer writer); *field gets the first one's field
 * number. The binary codec keeps them (they are re-encoded after the known
 * fields); JSON has no place for them. */
bool et_node_unknown(const et_node *n, uint32_t *field);
bool et_meta_unknown(const et_meta *m, uint32_t *field);

/* Fresh zero-initialised messages in arena memory. */
et_node *et_node_new(et_arena *a);
et_meta *et_meta_new(et_arena *a);
ChakraProtoMsg__IOInfo *et_ioinfo_new(et_arena *a);

#endif
