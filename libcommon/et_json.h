/* et_json: our JSON form of Chakra ETs, both ways, and the JSON/JSONL reader.
 *
 * Node and metadata fields use the protobuf JSON mapping: lowerCamelCase keys
 * (ctrlDeps, dataDeps, startTimeMicros, durationMicros, docString, int64Val,
 * doubleList ...), enums by name ("COMP_NODE"), bytes as base64. 64-bit
 * integers are written as JSON numbers when |v| <= 2^53 and as strings above;
 * readers accept both, and integers are read from the raw text, so no digit
 * is lost. Everything that decides the canonical bytes survives a round trip:
 * which oneof member is set (even to zero), empty lists, IOInfo present but
 * empty ("inputs": {}), float and double bit patterns (NaN, "Infinity").
 * Reals are written as Python's repr() (shortest digits that read back
 * exactly); the default NaN is "NaN", any other NaN keeps its bits as
 * "NaN:0x7fc00001" (our extension; other protobuf readers reject it).
 * Readers accept the JSON and the proto key names (ctrlDeps, ctrl_deps);
 * unknown and repeated keys are errors, null is the same as absent.
 * String bytes are written raw (escaped: what JSON forbids, and U+0085,
 * U+2028, U+2029, so a JSONL record stays one line for any line splitter).
 *
 * Documents:
 *   JSON  {"ranks": [{"rank": R, "world_size": W, "name": "...",
 *                     "metadata": {...}, "nodes": [{...}, ...]}, ...]}
 *         (per rank, the header keys must come before "nodes")
 *   JSONL per rank one header line {"rank": R, "world_size": W, "name": ...,
 *         "metadata": {...}}, then one line per node with an extra "rank": R.
 */
#ifndef ET_JSON_H
#define ET_JSON_H

#include "et_arena.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_input.h"
#include "et_src.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One-line JSON object (no newline), default values left out unless
 * all_fields: then id, name, type, ctrlDeps, dataDeps, startTimeMicros and
 * durationMicros are always written (node 0 has its "id"), which reads
 * back to the same message. rank >= 0 adds "rank": R first. */
void et_json_node_write(const et_node *n, int64_t rank, bool all_fields, et_buf *out);
void et_json_meta_write(const et_meta *m, et_buf *out);

/* Parse one JSON object into a message in arena memory. On error returns -1
 * with e->msg describing the field ("node: key \"dataDeps\"[3]: expected an
 * integer", "node: attr[2]: key \"int64Val\": ...") or the syntax error
 * ("line 2, column 7: malformed JSON at '...'"); callers add the input/rank
 * prefix. A node object may carry "rank" (a JSONL line), which is ignored. */
int et_json_node_read(const char *text, size_t len, et_arena *a, et_node **out, et_error *e);
int et_json_meta_read(const char *text, size_t len, et_arena *a, et_meta **out, et_error *e);

/* A reader of our JSON document or JSONL from a byte window, yielding the
 * same ranks/messages as a binary input: message bytes are the canonical
 * encoding (no length prefix), msg.offset is the byte offset of the object in
 * the text (for JSONL metadata: of the header line), msg.index 0 for the
 * metadata, then 1, 2, ... A document is told from JSONL by its first key
 * ("ranks"). Only one value (a node, a header) is held at a time; a value
 * longer than 8 * max_msg is an error. In JSONL a rank's lines end at the
 * next header line (the line with "metadata") or at the end of input; a
 * node line whose "rank" is not the header's is an error. Errors (code
 * ET_EXIT_DATA) read "INPUT: [rank R: ]line L, column C: what". next_rank
 * reads (and checks) what is left of the previous rank. */
typedef struct et_json_reader et_json_reader;
int et_json_reader_open(et_json_reader **r, et_src *src, const et_input_opts *o, et_error *e);
int et_json_reader_next_rank(et_json_reader *r, et_rank_info *ri, et_error *e);
int et_json_reader_next_msg(et_json_reader *r, et_msg *m, et_error *e);
void et_json_reader_close(et_json_reader *r);

/* ---- Shared with cmd/et-convert/json/jsonizer.c (the reference layout). ---- */

/* Append the base64 of p[0..n) (RFC 4648 alphabet, '=' padding). */
void et_base64_encode(const uint8_t *p, size_t n, et_buf *out);
/* Room et_base64_decode needs for n input characters. */
#define ET_BASE64_DECODED_MAX(n) ((n) / 4 * 3 + 3)
/* Decode s[0..n): standard or URL-safe alphabet, padding optional (as the
 * protobuf JSON parsers accept). Returns the decoded length, or -1 if s is not
 * base64. out needs ET_BASE64_DECODED_MAX(n) bytes. */
long et_base64_decode(const char *s, size_t n, uint8_t *out);

/* Python's repr() of a finite double: the shortest digits that read back as
 * x, printed as "1e-05", "0.0001", "100.0", "1.5e+16". With as_float, x is a
 * float32 value and the digits are those of protobuf's json_format for float
 * fields (the shortest "%.Ng", N >= 6, that reads back as the same float32).
 * These texts are also valid JSON numbers. Returns the length written. */
#define ET_JSON_REAL_MAX 32
size_t et_json_fmt_real(double x, bool as_float, char buf[ET_JSON_REAL_MAX]);

/* The field descriptor of the oneof member a holds; NULL if none is set. */
const ProtobufCFieldDescriptor *et_json_attr_field(const et_attr *a);
/* The one repeated field ("values") of an XxxList message descriptor. */
const ProtobufCFieldDescriptor *et_json_list_field(const ProtobufCMessageDescriptor *d);
/* Bytes per element of a repeated field of type t (protobuf-c's layout). */
size_t et_json_elem_size(ProtobufCType t);

/* The lowerCamelCase JSON key of an AttributeProto oneof member
 * ("int64Val", "boolList"); NULL for a number that is not a member. */
const char *et_json_attr_key(int value_case);

#endif
