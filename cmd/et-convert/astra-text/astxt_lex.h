/* astxt_lex: the lines, columns and numbers of an ASTRA-sim 1.0 text
 * workload, read as Chakra's reference converter reads them (Python text
 * mode: "\n", "\r\n" and "\r" end a line; str.split(): runs of whitespace
 * separate columns, leading and trailing whitespace is dropped).
 *
 * What the caller may rely on: a line handed out is at most ASTXT_MAX_LINE
 * bytes of valid UTF-8 without control characters other than tab, vertical
 * tab and form feed (column separators, as for Python), and without the
 * Unicode spaces Python would also split on (refused rather than read
 * differently); every line, ends normalised to "\n", is appended to the
 * normalised text. Errors are one line, "NAME: line L: what", ET_EXIT_DATA. */
#ifndef ET_CONVERT_ASTRA_TEXT_ASTXT_LEX_H
#define ET_CONVERT_ASTRA_TEXT_ASTXT_LEX_H

#include "et_buf.h"
#include "et_err.h"

#include <stddef.h>
#include <stdint.h>

typedef struct astxt_lex {
	const char *p, *end; /* input not yet read */
	uint32_t line;       /* number of the line last handed out */
	const char *name;    /* the input, for messages */
	et_buf norm;         /* the input read so far, line ends as "\n" */
} astxt_lex;

typedef struct astxt_tok {
	const char *s;
	size_t n;
} astxt_tok;

void astxt_lex_init(astxt_lex *x, const char *name, const char *text, size_t len);
void astxt_lex_free(astxt_lex *x);
/* The next line (without its end) in *s, *n: 1; 0 at the end of the input;
 * -1 with e set. */
int astxt_lex_line(astxt_lex *x, const char **s, size_t *n, et_error *e);
/* The columns of a line, the first `max` of them into tok; returns how many
 * there are (possibly more than max). */
size_t astxt_lex_split(const char *s, size_t n, astxt_tok *tok, size_t max);
/* Decimal digits only (no sign, no blanks), value <= max: 0, else -1. */
int astxt_lex_u64(astxt_tok t, uint64_t max, uint64_t *v);
/* An optional '-', then decimal digits, within int64_t: 0, else -1. */
int astxt_lex_i64(astxt_tok t, int64_t *v);
/* The token, quoted for a message (et_quote, cut to fit buf). */
const char *astxt_lex_quote(astxt_tok t, char *buf, size_t cap);
/* "NAME: line L: " + fmt, ET_EXIT_DATA; returns -1. */
int astxt_lex_fail(const astxt_lex *x, uint32_t line, et_error *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
