/* shlo_lex: the tokenizer of et-convert's StableHLO (MLIR text) reader.
 *
 * One token of lookahead (l->cur) over text[0..len) (no NUL needed). What
 * never reaches the parser: whitespace, `//` comments (so `// -----` split
 * markers too), `{-# ... #-}` file metadata, and every `loc(...)` suffix
 * (the word loc followed by a balanced parenthesis, strings inside skipped
 * with their escapes). Everything else is a token:
 *   %name or %name#3 (VAL), ^bb0 (LABEL), @name or @"name" (SYM),
 *   #name (ATTR), !name (TYPE), bare words (WORD: letters, digits, _ $ .),
 *   numbers (NUM: -12, 0xFF, 1.5e-3, 4x8xf32), "strings" (STR, quotes
 *   included), -> (ARROW) and any other ASCII punctuation (PUNCT).
 * Bytes that are not text (control characters, bytes >= 0x80 outside
 * strings and comments) are an error.
 *
 * Errors are one line, "NAME: line L, column C: what" (column in bytes),
 * exit code ET_EXIT_DATA; a function that fails returns -1 with the error
 * set. Nothing recurses: bracket skipping keeps an explicit stack, bounded
 * by SHLO_MAX_NEST. The lexer also notes the first sharding annotation
 * (mhlo.sharding, sdy.sharding) it passes, skipped or not. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_LEX_H
#define ET_CONVERT_STABLEHLO_SHLO_LEX_H

#include "et_err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Brackets, types and regions nested deeper than this are refused. */
#define SHLO_MAX_NEST 256

enum shlo_tk {
	SHLO_T_EOF,
	SHLO_T_VAL,
	SHLO_T_LABEL,
	SHLO_T_SYM,
	SHLO_T_ATTR,
	SHLO_T_TYPE,
	SHLO_T_WORD,
	SHLO_T_NUM,
	SHLO_T_STR,
	SHLO_T_PUNCT,
	SHLO_T_ARROW,
};

typedef struct shlo_tok {
	const char *p; /* its text */
	size_t off;    /* p - text */
	uint32_t n;    /* its length */
	uint8_t kind;  /* enum shlo_tk */
	bool nl;       /* a newline comes between it and the token before */
} shlo_tok;

typedef struct shlo_lex {
	const char *s, *name;
	size_t len, pos; /* pos: just after cur */
	shlo_tok cur;
	et_error *e;
	size_t shard_off; /* the first sharding annotation, SIZE_MAX: none */
} shlo_lex;

/* A position to go back to (shlo_lex_restore). */
typedef struct shlo_mark {
	size_t pos;
	shlo_tok cur;
} shlo_mark;

/* Starts l on s[0..len) and reads the first token. */
int shlo_lex_init(shlo_lex *l, const char *name, const char *s, size_t len, et_error *e);
/* Makes the next token current. */
int shlo_lex_next(shlo_lex *l);
/* The token after cur, cur unchanged. */
int shlo_lex_peek(shlo_lex *l, shlo_tok *t);
/* Moves to offset off (a token's start) and reads the token there. */
int shlo_lex_seek(shlo_lex *l, size_t off);
shlo_mark shlo_lex_save(const shlo_lex *l);
void shlo_lex_restore(shlo_lex *l, shlo_mark m);

/* Whether cur is the punctuation c / the word w. */
bool shlo_is(const shlo_lex *l, char c);
bool shlo_is_word(const shlo_lex *l, const char *w);
bool shlo_tok_is(const shlo_tok *t, const char *w);
/* cur is the punctuation c: consume it; else fail with "expected 'c'". */
int shlo_expect(shlo_lex *l, char c);
/* Between list elements: a ',' (consumed) or `close` (left at cur), else
 * "expected ',' or 'close'" followed by `where` ("" or " in ..."). */
int shlo_sep(shlo_lex *l, char close, const char *where);
/* cur opens a bracket ( [ { <: consume through its match (nesting checked,
 * at most SHLO_MAX_NEST deep), leaving the token after it current. */
int shlo_skip_balanced(shlo_lex *l);

/* The error "NAME: line L, column C: fmt..." at offset off of s, exit code
 * ET_EXIT_DATA; returns -1. */
int shlo_fail_at(et_error *e, const char *name, const char *s, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The same at the current token. */
int shlo_fail(shlo_lex *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 1-based line and byte column of offset off of s. */
void shlo_line_col(const char *s, size_t off, size_t *line, size_t *col);

#endif
