/* hlo_lex: the tokenizer of HLO text.
 *
 * Tokens are words (names, opcodes, numbers, element types: runs of
 * letters, digits and _ . % $ + -, a leading % kept), strings ("..." with
 * backslash escapes, and '...' as mesh axis names use), the punctuation the
 * grammar needs ({ } [ ] ( ) , = : -> <=) and any other byte as a token of
 * its own (HLO_T_OTHER: the parser refuses it where structure matters and
 * skips it inside attribute values it does not read). Comments (slash-star
 * and slash-slash to the end of the line) and white space separate tokens;
 * a token records whether a line break came before it, which ends an
 * instruction whose last attribute value is not bracketed.
 *
 * The lexer holds no memory: a token is a byte range of the text, so
 * copying an hlo_lex is how the parser looks ahead. It never reads past
 * len. */
#ifndef ET_CONVERT_HLO_HLO_LEX_H
#define ET_CONVERT_HLO_HLO_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hlo_tok_kind {
	HLO_T_EOF,
	HLO_T_WORD,
	HLO_T_STR,
	HLO_T_LBRACE,
	HLO_T_RBRACE,
	HLO_T_LBRACK,
	HLO_T_RBRACK,
	HLO_T_LPAREN,
	HLO_T_RPAREN,
	HLO_T_COMMA,
	HLO_T_EQ,
	HLO_T_COLON,
	HLO_T_ARROW, /* -> */
	HLO_T_LE,    /* <= */
	HLO_T_OTHER,
	/* Lexing errors: the token starts where the bad construct starts. */
	HLO_T_BAD_STR,     /* a string without its closing quote */
	HLO_T_BAD_COMMENT, /* a comment without its closing star-slash */
};

typedef struct hlo_tok {
	uint8_t kind; /* enum hlo_tok_kind */
	bool nl;      /* a line break (or the start of the text) came before it */
	size_t off, len;
} hlo_tok;

typedef struct hlo_lex {
	const char *s;
	size_t len, pos;
} hlo_lex;

void hlo_lex_init(hlo_lex *lx, const char *s, size_t len);
/* The next token (HLO_T_EOF at the end, forever). */
hlo_tok hlo_lex_next(hlo_lex *lx);
/* Whether t is the word w. */
bool hlo_tok_is(const hlo_lex *lx, const hlo_tok *t, const char *w);
/* t as a decimal integer (an optional sign, digits; nothing else). */
bool hlo_tok_int(const hlo_lex *lx, const hlo_tok *t, int64_t *v);
/* A short printable description of t for messages ("'foo'", "end of input"),
 * in buf. */
const char *hlo_tok_desc(const hlo_lex *lx, const hlo_tok *t, char *buf, size_t cap);
/* Whether t opens / closes a bracket pair ({ [ ( and } ] )). */
bool hlo_tok_opens(const hlo_tok *t);
bool hlo_tok_closes(const hlo_tok *t);

#endif
