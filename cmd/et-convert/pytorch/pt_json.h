/* Small readers over the raw text of one complete JSON value (a node object
 * of a host or Kineto trace), used so that only the parts a converter needs
 * are decoded: numbers straight from their digits, strings through cJSON,
 * and no tree for the big IOInfo arrays. */
#ifndef ET_CONVERT_PYTORCH_PT_JSON_H
#define ET_CONVERT_PYTORCH_PT_JSON_H

#include "et_buf.h"
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct pj_span {
	const char *p;
	size_t n;
} pj_span;

/* Iterate the members of the object in text: each call sets *key (without
 * quotes, raw) and *val; returns 1, 0 at the end, -1 if malformed (with *bad
 * set to the byte position). *pos starts at 0. */
int pj_next_member(const char *text, size_t len, size_t *pos, pj_span *key, pj_span *val,
                   size_t *bad);
/* The top-level members of an object, found in one scan (so that a node's
 * text is not scanned once for its end and again for its members). */
typedef struct pj_member {
	pj_span key, val; /* key without quotes, raw */
} pj_member;
typedef struct pj_members {
	pj_member *v;
	size_t n, cap;
	size_t bad; /* pj_scan_object returned -2: where the object broke */
} pj_members;
/* Scan the object at the start of t[0..len) (white space before it
 * allowed). Returns 1 with *end just past it; 0 if t ends before the
 * object does; -1 if a key or value is malformed (*bad: the byte, m->bad:
 * where that key or value starts); -2 if the object syntax is broken at
 * m->bad. On -1 and -2, m holds the members before m->bad. The spans point
 * into t. */
int pj_scan_object(const char *t, size_t len, pj_members *m, size_t *end, size_t *bad);
void pj_members_free(pj_members *m);
/* Iterate the elements of the array in text, like pj_next_member. With obj
 * not NULL, an element that is an object is scanned by pj_scan_object into
 * obj (one pass for its extent and its members). */
int pj_next_elem(const char *text, size_t len, size_t *pos, pj_span *val, size_t *bad,
                 pj_members *obj);
/* Inline: a node's keys are compared with a score of literals, whose
 * lengths then fold at compile time. */
static inline bool pj_key_is(pj_span k, const char *s)
{
	size_t n = strlen(s);
	return k.n == n && memcmp(k.p, s, n) == 0;
}

static inline bool pj_is_null(pj_span v)
{
	return v.n == 4 && memcmp(v.p, "null", 4) == 0;
}
/* Integer value (number, or a string of digits); false if not one. */
bool pj_int(pj_span v, int64_t *out);
bool pj_double(pj_span v, double *out);
/* A JSON string's decoded value into out (NUL-terminated); false if v is not
 * a string. */
bool pj_string(pj_span v, et_buf *out);
/* cJSON tree of v, with integers that a double cannot hold kept as strings
 * (et_jsonscan_quote_numbers); free with cJSON_Delete. */
cJSON *pj_tree(pj_span v, et_buf *scratch);
/* Integer from a cJSON number or numeric string. */
bool pj_cjson_int(const cJSON *v, int64_t *out);

#endif
