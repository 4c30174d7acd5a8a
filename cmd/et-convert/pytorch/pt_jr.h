/* pt_jr: a JSON document read through an et_src window, value by value, with
 * line/column tracking for messages. The window holds only the value being
 * looked at, so a document of any size is read in bounded memory. */
#ifndef ET_CONVERT_PYTORCH_PT_JR_H
#define ET_CONVERT_PYTORCH_PT_JR_H

#include "et-convert/pytorch/pt_json.h"
#include "et_src.h"

/* The byte window over the file, with line tracking for messages. */
typedef struct pt_jr {
	et_src *src;
	const char *name;
	uint64_t line;       /* line number of the window start (1-based) */
	uint64_t line_start; /* decoded offset where that line starts */
	et_error *e;
} pt_jr;

/* Error "NAME: line L, column C: what" for byte `at` of the window. */
int pt_jr_fail(pt_jr *w, size_t at, const char *what);
/* Drop n bytes from the window start (counting lines). */
void pt_jr_consume(pt_jr *w, size_t n);
/* Skip white space; the next byte, -2 at end of data, -1 on error. */
int pt_jr_peek(pt_jr *w);
/* Skip white space and consume the byte c, else fail with `what`. */
int pt_jr_expect(pt_jr *w, char c, const char *what);
/* The span of the value at the window start (grown until complete); the
 * span stays valid until the next call that reads. */
int pt_jr_value(pt_jr *w, pj_span *v);
/* The object at the window start, with its members (grown until
 * complete). Returns 0 with *end its length; 1 if it is a complete value but
 * not a well-formed object: m then holds the members before m->bad; -1 on
 * error (malformed or truncated JSON). Spans stay valid until the next call
 * that reads. */
int pt_jr_object(pt_jr *w, pj_members *m, size_t *end);
/* Read a JSON object: consume '{', call member(ctx, key) with the window at
 * every member's value (each must consume it; key is unquoted, cut to 63
 * bytes, valid during the call), and the ':', ',' and '}' around them. */
int pt_jr_members(pt_jr *w, int (*member)(void *ctx, pj_span key), void *ctx);
/* Read a JSON array: consume '[', call each(ctx) with the window at every
 * element (each must consume it), and the ',' and ']' between them. `what`
 * names the array and its elements in messages ("nodes", "node"). */
int pt_jr_each(pt_jr *w, const char *array, const char *elem, int (*each)(void *ctx), void *ctx);

#endif
