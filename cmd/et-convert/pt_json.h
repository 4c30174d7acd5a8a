/* Small readers over the raw text of one complete JSON value (a node object
 * of a host or Kineto trace), used so that only the parts a converter needs
 * are decoded: numbers straight from their digits, strings through cJSON,
 * and no tree for the big IOInfo arrays. */
#ifndef ET_CONVERT_PT_JSON_H
#define ET_CONVERT_PT_JSON_H

#include "et_buf.h"
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pj_span {
	const char *p;
	size_t n;
} pj_span;

/* Iterate the members of the object in text: each call sets *key (without
 * quotes, raw) and *val; returns 1, 0 at the end, -1 if malformed (with *bad
 * set to the byte position). *pos starts at 0. */
int pj_next_member(const char *text, size_t len, size_t *pos, pj_span *key, pj_span *val,
		   size_t *bad);
/* Iterate the elements of the array in text, like pj_next_member. */
int pj_next_elem(const char *text, size_t len, size_t *pos, pj_span *val, size_t *bad);
bool pj_key_is(pj_span k, const char *s);
bool pj_is_null(pj_span v);
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
