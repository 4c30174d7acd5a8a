/* et_jsonw: the suite's one JSON writer. Every JSON text a tool writes (its
 * reports, schedules, trace events, stream headers, edited documents) is
 * laid out here: the nesting, the commas, the keys, the numbers; strings go
 * through et_json_str (the one escaper) and shortest reals through
 * et_json_fmt_real. It streams: nothing but the open containers is kept.
 * cJSON stays the suite's JSON reader and tree; a tree is written with
 * et_jsonw_cjson. doc/json.md describes the styles for users.
 *
 * What a caller may rely on:
 * - Output goes to a FILE (each token written at once through stdio, so a
 *   caller may mix its own fprintf between tokens) or, when f is NULL,
 *   appended to the et_buf b.
 * - The writer never prints a message and never exits. A write error of
 *   the FILE and a misuse (a key where a value is due, a value without a
 *   key in an object, an et_jsonw_end with nothing open, a key or container
 *   left open at et_jsonw_done) are remembered; et_jsonw_done returns -1 then
 *   (errno EINVAL for a misuse, the stdio error's otherwise, so the caller
 *   reports it with et_write_failed). After a misuse nothing more is written.
 * - Out of memory ends the process as et_mem says, as et_buf does. */
#ifndef ET_JSONW_H
#define ET_JSONW_H

#include "et_buf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum et_jsonw_style {
	ET_JSONW_COMPACT, /* {"a":1,"b":[1,2]} */
	ET_JSONW_SPACED,  /* Python's json.dumps default: {"a": 1, "b": [1, 2]} */
	ET_JSONW_INDENT,  /* json.dumps(indent=N): one member a line, N spaces a
	                  level, "key": value, empty containers as {} and [] */
	ET_JSONW_CJSON,   /* cJSON_Print's: one member a line, a tab a level,
	                  "key":<tab>value, arrays on one line with ", ",
	                  an empty object as {<newline><indent>} */
} et_jsonw_style;

typedef struct et_jsonw {
	FILE *f;
	et_buf *b;
	et_buf tmp; /* a string's escaped bytes on their way to f */
	et_jsonw_style style;
	unsigned str_flags; /* et_json_str's flags for every string */
	unsigned indent;    /* ET_JSONW_INDENT: spaces a level */
	bool lines;         /* JSONL: a newline after each top-level value */
	bool tree_ints;     /* et_jsonw_cjson: integral numbers as integers */
	bool first;         /* the open container has no item yet */
	bool after_key;     /* a key is written, its value is due */
	bool bad;           /* misused (see above) */
	unsigned nl;        /* et_jsonw_nl's line breaks not yet written */
	size_t depth;
	size_t cap;
	uint8_t *open; /* '{' or '[' for each open container */
} et_jsonw;

/* A writer to f, or (f NULL) to b. str_flags: et_json_str's. */
void et_jsonw_init(et_jsonw *w, FILE *f, et_buf *b, et_jsonw_style style, unsigned str_flags);
/* JSONL: each top-level value is followed by "\n". */
void et_jsonw_set_lines(et_jsonw *w, bool on);
/* et_jsonw_cjson's numbers: integral ones below 9e15 in magnitude as
 * integers ("%.0f", as Python's json.dumps writes an int), the others as
 * et_jsonw_cjnum. */
void et_jsonw_set_tree_ints(et_jsonw *w, bool on);
/* et_json_str's flags for the strings from now on. */
void et_jsonw_set_str_flags(et_jsonw *w, unsigned str_flags);
/* ET_JSONW_INDENT's spaces a level (default 2). */
void et_jsonw_set_indent(et_jsonw *w, unsigned n);
/* Frees the writer's memory (not b, not f). Returns 0, or -1 if it was
 * misused (errno EINVAL) or f has an error (ferror; errno as it was left). */
int et_jsonw_done(et_jsonw *w);

/* Frees the writer's memory and hands its open containers to the caller,
 * who closes them by other means: et_writer's JSON document, whose node
 * list et-convert's ET -> JSON hot loop writes (et_json_write.c). */
void et_jsonw_release(et_jsonw *w);

void et_jsonw_obj(et_jsonw *w);
void et_jsonw_arr(et_jsonw *w);
void et_jsonw_end(et_jsonw *w); /* closes the innermost object or array */
void et_jsonw_key(et_jsonw *w, const char *k);

void et_jsonw_str(et_jsonw *w, const char *s); /* NULL: "" */
void et_jsonw_strn(et_jsonw *w, const char *s, size_t n);
void et_jsonw_int(et_jsonw *w, int64_t v);
void et_jsonw_uint(et_jsonw *w, uint64_t v);
void et_jsonw_bool(et_jsonw *w, bool v);
void et_jsonw_null(et_jsonw *w);
/* Reals. A NaN or an infinity is written as null by each of them (JSON has
 * no such numbers; et_json's "NaN"/"Infinity" strings are its own). */
void et_jsonw_g17(et_jsonw *w, double x);               /* "%.17g": exact */
void et_jsonw_fixed(et_jsonw *w, double x, int prec);   /* "%.*f" */
void et_jsonw_repr(et_jsonw *w, double x, bool as_f32); /* Python's repr (et_json_fmt_real) */
/* cJSON's: "%1.15g" if it reads back, else "%1.17g" */
void et_jsonw_cjnum(et_jsonw *w, double x);
/* Integer nanoseconds as microseconds with three decimals ("1234.567"). */
void et_jsonw_us3(et_jsonw *w, uint64_t ns);
/* A value already JSON, written as it is. */
void et_jsonw_raw(et_jsonw *w, const char *json, size_t n);
/* The members of obj, an object's text as an et_jsonw of the same style
 * (compact or spaced) wrote it ("{" members "}"), as members of the open object (nothing for
 * "{}"). For members made before the object they go in (et-validate's
 * findings keep theirs until the report). */
void et_jsonw_members(et_jsonw *w, const char *obj);
/* A line break at the next separator: after the comma before the next item
 * (before the item if it is the first), or before the next closing bracket.
 * Several add up. For layouts with hand-placed lines (et-sim's report). */
void et_jsonw_nl(et_jsonw *w);

/* Key-value shorthands. */
void et_jsonw_kstr(et_jsonw *w, const char *k, const char *s);
void et_jsonw_kint(et_jsonw *w, const char *k, int64_t v);
void et_jsonw_kuint(et_jsonw *w, const char *k, uint64_t v);
void et_jsonw_kbool(et_jsonw *w, const char *k, bool v);
/* n members k[i]: v[i], for reports of many counts (a table of keys
 * instead of a line each). */
void et_jsonw_kuints(et_jsonw *w, const char *const *k, const uint64_t *v, size_t n);
/* A member whose value is an object or an array, opened (et_jsonw_end closes it). */
void et_jsonw_kobj(et_jsonw *w, const char *k);
void et_jsonw_karr(et_jsonw *w, const char *k);

struct cJSON;
/* A cJSON tree, as cJSON_Print (style ET_JSONW_CJSON) or cJSON_PrintUnformatted
 * (ET_JSONW_COMPACT) would write it: numbers by et_jsonw_cjnum, strings escaped by
 * et_json_str. A raw item as it is, an invalid one not at all. */
void et_jsonw_cjson(et_jsonw *w, const struct cJSON *j);

#endif
