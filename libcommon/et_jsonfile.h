/* et_jsonfile: a JSON document read whole, for the small files the tools
 * take beside traces (comm-group files, ASTRA-sim system files). One place
 * decides what such a file may hold and how a bad one is reported:
 *  - the text must hold no NUL byte ("NAME: byte N: a NUL byte: not JSON
 *    text") and nothing but blanks after the value;
 *  - invalid JSON is "NAME: line L, column C: invalid JSON", at the first
 *    byte the parser could not take (lines and columns from 1);
 *  - both are exit code 3; a file that cannot be read is code 4, and one
 *    larger than ET_JSONFILE_MAX (64 MiB: such files are a few KB) is
 *    code 3. */
#ifndef ET_JSONFILE_H
#define ET_JSONFILE_H

#include "et_err.h"
#include <cjson/cJSON.h>
#include <stddef.h>

/* Parse len bytes of text (text[len] must be '\0'); NAME names it in
 * messages. Returns the document (cJSON_Delete it) or NULL with e set. */
cJSON *et_jsonfile_parse(const char *text, size_t len, const char *name, et_error *e);

#define ET_JSONFILE_MAX ((size_t)64 << 20)

/* Read the file at path (at most ET_JSONFILE_MAX bytes) and parse it. */
cJSON *et_jsonfile_read(const char *path, et_error *e);

/* What a JSON value is, for messages "expected ..., got X": "a string",
 * "a number", "a boolean", "null", "an array" or "an object". */
const char *et_jsonfile_kind(const cJSON *v);

/* The line (from 1) of the key of member `member` (from 0, in document
 * order: the order of a parsed object's children, duplicates included) of
 * the object that is the whole of text[0..len), for messages about a
 * member (cJSON keeps no positions); 0 when the text is not such an object
 * or it has fewer members. */
unsigned long et_jsonfile_line_of(const char *text, size_t len, size_t member);

#endif
