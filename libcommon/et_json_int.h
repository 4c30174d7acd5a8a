/* Internal to the et_json_*.c files: the writer's primitives and the
 * cJSON-tree readers the JSON/JSONL reader shares with et_json_*_read. */
#ifndef ET_JSON_INT_H
#define ET_JSON_INT_H

#include "et_json.h"
#include <cjson/cJSON.h>
#include <string.h>

/* Buffer fast paths: the writer appends a few bytes at a time, so the
 * capacity check is inlined and et_buf_reserve runs only on growth. */
static inline void et_jw_put(et_buf *b, const void *p, size_t n)
{
	if (b->cap - b->len < n)
		et_buf_reserve(b, n);
	memcpy(b->data + b->len, p, n);
	b->len += n;
}
static inline void et_jw_putc(et_buf *b, char c)
{
	if (b->cap == b->len)
		et_buf_reserve(b, 1);
	b->data[b->len++] = (uint8_t)c;
}
/* A string literal, its length known at compile time. */
#define ET_JW_LIT(b, s) et_jw_put((b), (s), sizeof(s) - 1)

/* Writer primitives (our one-line form). */
void et_jw_u64(et_buf *b, uint64_t v);                        /* bare decimal */
void et_jw_i64(et_buf *b, int64_t v);                         /* bare decimal */
void et_jw_json_u64(et_buf *b, uint64_t v);                   /* number, or string above 2^53 */
void et_jw_str(et_buf *b, const char *s);                     /* quoted and escaped */
void et_jw_scalar(et_buf *b, ProtobufCType t, const void *p); /* one mapped value */

/* AttributeProto member number of a JSON or proto key, 0 if none. */
int et_json_attr_case(const char *key);

/* Parse text[0..len) (one JSON value, white space around allowed) after the
 * number-quoting pre-pass, using scratch for the rewritten text. NULL on a
 * syntax error, with *err_pos its byte position in text. */
cJSON *et_json_parse(const char *text, size_t len, et_buf *scratch, size_t *err_pos);
/* "malformed JSON at '...'" or "unexpected end of JSON", for err_pos. */
void et_json_syntax_what(const char *text, size_t len, size_t err_pos, char out[48]);
/* e->msg for a syntax error at err_pos of text ("line 2, column 7: ..."). */
int et_json_syntax_error(const char *text, size_t len, size_t err_pos, et_error *e);

/* cJSON tree -> message in arena memory; e->msg starts with what ("node"). */
int et_json_node_from(const cJSON *o, et_arena *a, et_node **out, et_error *e);
int et_json_meta_from(const cJSON *o, et_arena *a, et_meta **out, et_error *e);
/* One value of type t into dst (protobuf-c's layout); NULL if fine, else
 * what is wrong ("expected an integer"). */
const char *et_json_scalar_from(const cJSON *v, ProtobufCType t, void *dst, et_arena *a);

#endif
