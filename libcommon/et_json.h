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

/* One-line JSON object (no newline). rank >= 0 adds "rank": R first. */
void et_json_node_write(const et_node *n, int64_t rank, et_buf *out);
void et_json_meta_write(const et_meta *m, et_buf *out);

/* Parse one JSON object into a message in arena memory. On error returns -1
 * with e->msg describing the field ("node: key \"dataDeps\": expected an
 * array of integers"); callers add the input/rank/offset prefix. */
int et_json_node_read(const char *text, size_t len, et_arena *a, et_node **out, et_error *e);
int et_json_meta_read(const char *text, size_t len, et_arena *a, et_meta **out, et_error *e);

/* A reader of our JSON document or JSONL from a byte window, yielding the
 * same ranks/messages as a binary input (messages are canonically encoded). */
typedef struct et_json_reader et_json_reader;
int et_json_reader_open(et_json_reader **r, et_src *src, const et_input_opts *o,
			et_error *e);
int et_json_reader_next_rank(et_json_reader *r, et_rank_info *ri, et_error *e);
int et_json_reader_next_msg(et_json_reader *r, et_msg *m, et_error *e);
void et_json_reader_close(et_json_reader *r);

#endif
