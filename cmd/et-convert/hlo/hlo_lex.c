/* hlo_lex: the tokenizer of HLO text (hlo_lex.h). */
#include "et-convert/hlo/hlo_lex.h"
#include "et_err.h"

#include <stdio.h>
#include <string.h>

void hlo_lex_init(hlo_lex *lx, const char *s, size_t len)
{
	lx->s = s;
	lx->len = len;
	lx->pos = 0;
}

static bool is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '%' || c == '$' || c == '+' || c == '-';
}

/* Skips white space and comments from lx->pos; sets *nl when a line break
 * was crossed. Returns false at an unterminated comment (lx->pos at it). */
static bool skip_blank(hlo_lex *lx, bool *nl)
{
	const char *s = lx->s;
	while (lx->pos < lx->len) {
		char c = s[lx->pos];
		if (c == '\n') {
			*nl = true;
			lx->pos++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->pos++;
		} else if (c == '/' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '/') {
			while (lx->pos < lx->len && s[lx->pos] != '\n')
				lx->pos++;
		} else if (c == '/' && lx->pos + 1 < lx->len && s[lx->pos + 1] == '*') {
			const char *end = NULL;
			for (size_t k = lx->pos + 2; k + 1 < lx->len && !end; k++)
				if (s[k] == '*' && s[k + 1] == '/')
					end = s + k;
			if (!end)
				return false;
			for (const char *p = s + lx->pos; p < end; p++)
				*nl |= *p == '\n';
			lx->pos = (size_t)(end - s) + 2;
		} else {
			break;
		}
	}
	return true;
}

/* The end of a string starting at its quote q (one past the closing quote),
 * or 0 when it does not close. */
static size_t string_end(const hlo_lex *lx, size_t q)
{
	char quote = lx->s[q];
	for (size_t k = q + 1; k < lx->len; k++) {
		if (lx->s[k] == '\\')
			k++;
		else if (lx->s[k] == quote)
			return k + 1;
	}
	return 0;
}

static uint8_t punct_kind(char c)
{
	switch (c) {
	case '{':
		return HLO_T_LBRACE;
	case '}':
		return HLO_T_RBRACE;
	case '[':
		return HLO_T_LBRACK;
	case ']':
		return HLO_T_RBRACK;
	case '(':
		return HLO_T_LPAREN;
	case ')':
		return HLO_T_RPAREN;
	case ',':
		return HLO_T_COMMA;
	case '=':
		return HLO_T_EQ;
	case ':':
		return HLO_T_COLON;
	default:
		return HLO_T_OTHER;
	}
}

/* A word from lx->pos; "->" ends it, so that "b01f_01io->b01f" is three
 * tokens. */
static size_t word_len(const hlo_lex *lx)
{
	size_t k = lx->pos;
	while (k < lx->len && is_word_char(lx->s[k])) {
		if (lx->s[k] == '-' && k + 1 < lx->len && lx->s[k + 1] == '>')
			break;
		k++;
	}
	return k - lx->pos;
}

hlo_tok hlo_lex_next(hlo_lex *lx)
{
	hlo_tok t = {.kind = HLO_T_EOF, .nl = lx->pos == 0};
	if (!skip_blank(lx, &t.nl)) {
		t.kind = HLO_T_BAD_COMMENT;
		t.off = lx->pos;
		return t;
	}
	t.off = lx->pos;
	if (lx->pos >= lx->len)
		return t;
	const char *s = lx->s + lx->pos;
	size_t rest = lx->len - lx->pos;
	if (*s == '"' || *s == '\'') {
		size_t end = string_end(lx, lx->pos);
		if (!end) {
			t.kind = HLO_T_BAD_STR;
			return t;
		}
		t.kind = HLO_T_STR;
		t.len = end - lx->pos;
	} else if (rest >= 2 && s[0] == '-' && s[1] == '>') {
		t.kind = HLO_T_ARROW;
		t.len = 2;
	} else if (rest >= 2 && s[0] == '<' && s[1] == '=') {
		t.kind = HLO_T_LE;
		t.len = 2;
	} else if (is_word_char(*s)) {
		t.kind = HLO_T_WORD;
		t.len = word_len(lx);
	} else {
		t.kind = punct_kind(*s);
		t.len = 1;
	}
	lx->pos += t.len;
	return t;
}

bool hlo_tok_is(const hlo_lex *lx, const hlo_tok *t, const char *w)
{
	size_t n = strlen(w);
	return t->kind == HLO_T_WORD && t->len == n && memcmp(lx->s + t->off, w, n) == 0;
}

bool hlo_tok_int(const hlo_lex *lx, const hlo_tok *t, int64_t *v)
{
	if (t->kind != HLO_T_WORD)
		return false;
	const char *p = lx->s + t->off, *end = p + t->len;
	bool neg = p < end && *p == '-';
	if (p < end && (*p == '-' || *p == '+'))
		p++;
	if (p == end)
		return false;
	uint64_t u = 0;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return false;
		if (u > (UINT64_C(1) << 63) / 10)
			return false;
		u = u * 10 + (uint64_t)(*p - '0');
	}
	if (u > (uint64_t)INT64_MAX + (neg ? 1 : 0))
		return false;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return true;
}

const char *hlo_tok_desc(const hlo_lex *lx, const hlo_tok *t, char *buf, size_t cap)
{
	if (t->kind == HLO_T_EOF) {
		snprintf(buf, cap, "end of input");
		return buf;
	}
	char tmp[48];
	size_t n = t->len < sizeof tmp - 1 ? t->len : sizeof tmp - 1;
	memcpy(tmp, lx->s + t->off, n);
	tmp[n] = 0;
	return et_quote(tmp, buf, cap);
}

bool hlo_tok_opens(const hlo_tok *t)
{
	return t->kind == HLO_T_LBRACE || t->kind == HLO_T_LBRACK || t->kind == HLO_T_LPAREN;
}

bool hlo_tok_closes(const hlo_tok *t)
{
	return t->kind == HLO_T_RBRACE || t->kind == HLO_T_RBRACK || t->kind == HLO_T_RPAREN;
}
