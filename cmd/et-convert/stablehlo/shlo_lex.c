/* shlo_lex: StableHLO text tokens (shlo_lex.h). */
#include "et-convert/stablehlo/shlo_lex.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void shlo_line_col(const char *s, size_t off, size_t *line, size_t *col)
{
	size_t ln = 1, start = 0;
	for (size_t i = 0; i < off; i++)
		if (s[i] == '\n') {
			ln++;
			start = i + 1;
		}
	*line = ln;
	*col = off - start + 1;
}

static int vfail_at(et_error *e, const char *name, const char *s, size_t off, const char *fmt,
                    va_list ap)
{
	char what[512];
	vsnprintf(what, sizeof what, fmt, ap);
	size_t line, col;
	shlo_line_col(s, off, &line, &col);
	return et_fail(e, ET_EXIT_DATA, "%s: line %zu, column %zu: %s", name, line, col, what);
}

int shlo_fail_at(et_error *e, const char *name, const char *s, size_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfail_at(e, name, s, off, fmt, ap);
	va_end(ap);
	return r;
}

int shlo_fail(shlo_lex *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = vfail_at(l->e, l->name, l->s, l->cur.off, fmt, ap);
	va_end(ap);
	return r;
}

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* Characters of a bare word after its first. */
static bool is_word(int c)
{
	return is_alpha(c) || is_digit(c) || c == '$' || c == '.';
}

/* Characters of a %value, ^label or @symbol name (MLIR's suffix-id). */
static bool is_suffix(int c)
{
	return is_word(c) || c == '-';
}

static int fail_here(shlo_lex *l, size_t off, const char *what)
{
	return shlo_fail_at(l->e, l->name, l->s, off, "%s", what);
}

/* Bytes a string may not hold (MLIR's): NUL and line breaks. */
static bool bad_in_string(char c)
{
	return c == 0 || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Past a "string" starting at s[i] == '"'; SIZE_MAX if unterminated or
 * holding a byte it may not (then *bad is where). */
static size_t string_end(const shlo_lex *l, size_t i, size_t *bad)
{
	*bad = SIZE_MAX;
	for (i++; i < l->len; i++) {
		bool escaped = l->s[i] == '\\';
		if (escaped && ++i >= l->len)
			break;
		if (bad_in_string(l->s[i])) {
			*bad = i;
			return SIZE_MAX;
		}
		if (!escaped && l->s[i] == '"')
			return i + 1;
	}
	return SIZE_MAX;
}

static int string_fail(shlo_lex *l, size_t start, size_t bad)
{
	char what[64];
	if (bad == SIZE_MAX)
		return fail_here(l, start, "unterminated string");
	if (l->s[bad] == '\n')
		return fail_here(l, start, "unterminated string (it may not hold a line break)");
	snprintf(what, sizeof what, "a string may not hold byte 0x%02x",
	         (unsigned)(unsigned char)l->s[bad]);
	return fail_here(l, bad, what);
}

/* Past the balanced parenthesis at s[i] == '(' (a loc(...) suffix). */
static int skip_parens(shlo_lex *l, size_t *i)
{
	size_t start = *i, depth = 0, k = *i;
	while (k < l->len) {
		char c = l->s[k];
		if (c == '"') {
			size_t bad, from = k;
			k = string_end(l, k, &bad);
			if (k == SIZE_MAX)
				return string_fail(l, from, bad);
			continue;
		}
		if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0) {
			*i = k + 1;
			return 0;
		}
		k++;
	}
	return fail_here(l, start, "unterminated loc(...)");
}

/* Skips blanks, comments and {-# ... #-}; sets *nl on a newline. */
static int skip_blank(shlo_lex *l, bool *nl)
{
	const char *s = l->s;
	size_t i = l->pos;
	while (i < l->len) {
		char c = s[i];
		if (c == '\n') {
			*nl = true;
			i++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			i++;
		} else if (c == '/' && i + 1 < l->len && s[i + 1] == '/') {
			while (i < l->len && s[i] != '\n')
				i++;
		} else if (c == '{' && i + 2 < l->len && s[i + 1] == '-' && s[i + 2] == '#') {
			size_t start = i;
			for (i += 3;
			     i + 2 < l->len && !(s[i] == '#' && s[i + 1] == '-' && s[i + 2] == '}');
			     i++)
				*nl |= s[i] == '\n';
			if (i + 2 >= l->len)
				return fail_here(l, start, "unterminated {-# ... #-}");
			i += 3;
		} else {
			break;
		}
	}
	l->pos = i;
	return 0;
}

static size_t span(const shlo_lex *l, size_t i, bool (*ok)(int))
{
	while (i < l->len && ok((unsigned char)l->s[i]))
		i++;
	return i;
}

/* A number from s[i] (a digit, or '-' before one): letters, digits, '_',
 * '.', and a sign after an exponent's e. */
static size_t number_end(const shlo_lex *l, size_t i)
{
	const char *s = l->s;
	bool hex = i + 1 < l->len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X');
	if (s[i] == '-')
		i++;
	while (i < l->len) {
		char c = s[i];
		if (is_word((unsigned char)c) && c != '$') {
			i++;
		} else if ((c == '+' || c == '-') && !hex && (s[i - 1] == 'e' || s[i - 1] == 'E') &&
		           i + 1 < l->len && is_digit((unsigned char)s[i + 1])) {
			i++;
		} else {
			break;
		}
	}
	return i;
}

static void note_sharding(shlo_lex *l, const shlo_tok *t)
{
	if (l->shard_off != SIZE_MAX)
		return;
	static const char *const names[] = {"mhlo.sharding", "sdy.sharding", "#sdy.sharding"};
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (shlo_tok_is(t, names[k]))
			l->shard_off = t->off;
}

/* The token at s[i] (not blank): sets its kind and returns its end, or
 * SIZE_MAX after failing. */
static size_t scan(shlo_lex *l, size_t i, uint8_t *kind)
{
	const char *s = l->s;
	unsigned char c = (unsigned char)s[i];
	unsigned char d = i + 1 < l->len ? (unsigned char)s[i + 1] : 0;
	size_t end;
	if (c == '%' || c == '^' || (c == '@' && d != '"')) {
		end = span(l, i + 1, is_suffix);
		if (end == i + 1)
			return fail_here(l, i, "expected a name after the sigil"), SIZE_MAX;
		*kind = c == '%' ? SHLO_T_VAL : c == '^' ? SHLO_T_LABEL : SHLO_T_SYM;
		if (c == '%' && end + 1 < l->len && s[end] == '#' &&
		    is_digit((unsigned char)s[end + 1]))
			end = span(l, end + 1, is_digit);
		return end;
	}
	if (c == '"' || c == '@') {
		size_t bad;
		end = string_end(l, c == '@' ? i + 1 : i, &bad);
		if (end == SIZE_MAX)
			return string_fail(l, i, bad), SIZE_MAX;
		*kind = c == '@' ? SHLO_T_SYM : SHLO_T_STR;
		return end;
	}
	if ((c == '#' || c == '!') && is_word(d)) {
		*kind = c == '#' ? SHLO_T_ATTR : SHLO_T_TYPE;
		return span(l, i + 1, is_word);
	}
	if (is_alpha(c)) {
		*kind = SHLO_T_WORD;
		return span(l, i + 1, is_word);
	}
	if (is_digit(c) || (c == '-' && is_digit(d))) {
		*kind = SHLO_T_NUM;
		return number_end(l, i);
	}
	if (c == '-' && d == '>') {
		*kind = SHLO_T_ARROW;
		return i + 2;
	}
	if (c > 0x20 && c < 0x7f) {
		*kind = SHLO_T_PUNCT;
		return i + 1;
	}
	char what[64];
	snprintf(what, sizeof what, "unexpected byte 0x%02x", c);
	return fail_here(l, i, what), SIZE_MAX;
}

int shlo_lex_next(shlo_lex *l)
{
	bool nl = false;
	for (;;) {
		if (skip_blank(l, &nl) < 0)
			return -1;
		shlo_tok *t = &l->cur;
		t->off = l->pos;
		t->p = l->s + l->pos;
		t->nl = nl;
		if (l->pos >= l->len) {
			t->kind = SHLO_T_EOF;
			t->n = 0;
			return 0;
		}
		size_t end = scan(l, l->pos, &t->kind);
		if (end == SIZE_MAX)
			return -1;
		t->n = (uint32_t)(end - l->pos);
		l->pos = end;
		/* loc(...) is a suffix the reader has no use for */
		if (t->kind == SHLO_T_WORD && shlo_tok_is(t, "loc") && end < l->len &&
		    l->s[end] == '(') {
			if (skip_parens(l, &l->pos) < 0)
				return -1;
			continue;
		}
		if (t->kind == SHLO_T_WORD || t->kind == SHLO_T_ATTR)
			note_sharding(l, t);
		return 0;
	}
}

int shlo_lex_init(shlo_lex *l, const char *name, const char *s, size_t len, et_error *e)
{
	memset(l, 0, sizeof *l);
	l->s = s;
	l->name = name;
	l->len = len;
	l->e = e;
	l->shard_off = SIZE_MAX;
	return shlo_lex_next(l);
}

shlo_mark shlo_lex_save(const shlo_lex *l)
{
	return (shlo_mark){l->pos, l->cur};
}

void shlo_lex_restore(shlo_lex *l, shlo_mark m)
{
	l->pos = m.pos;
	l->cur = m.cur;
}

int shlo_lex_peek(shlo_lex *l, shlo_tok *t)
{
	shlo_mark m = shlo_lex_save(l);
	size_t shard = l->shard_off;
	int r = shlo_lex_next(l);
	*t = l->cur;
	shlo_lex_restore(l, m);
	l->shard_off = shard;
	return r;
}

int shlo_lex_seek(shlo_lex *l, size_t off)
{
	l->pos = off < l->len ? off : l->len;
	return shlo_lex_next(l);
}

bool shlo_tok_is(const shlo_tok *t, const char *w)
{
	size_t n = strlen(w);
	return t->n == n && memcmp(t->p, w, n) == 0;
}

bool shlo_is(const shlo_lex *l, char c)
{
	return l->cur.kind == SHLO_T_PUNCT && l->cur.p[0] == c;
}

bool shlo_is_word(const shlo_lex *l, const char *w)
{
	return l->cur.kind == SHLO_T_WORD && shlo_tok_is(&l->cur, w);
}

int shlo_expect(shlo_lex *l, char c)
{
	if (!shlo_is(l, c))
		return shlo_fail(l, "expected '%c'", c);
	return shlo_lex_next(l);
}

int shlo_sep(shlo_lex *l, char close, const char *where)
{
	if (shlo_is(l, ','))
		return shlo_lex_next(l);
	return shlo_is(l, close) ? 0 : shlo_fail(l, "expected ',' or '%c'%s", close, where);
}

static char closer(char c)
{
	switch (c) {
	case '(':
		return ')';
	case '[':
		return ']';
	case '{':
		return '}';
	case '<':
		return '>';
	default:
		return 0;
	}
}

int shlo_skip_balanced(shlo_lex *l)
{
	char want[SHLO_MAX_NEST];
	size_t from[SHLO_MAX_NEST];
	size_t depth = 0;
	do {
		const shlo_tok *t = &l->cur;
		char c = t->kind == SHLO_T_PUNCT ? t->p[0] : 0;
		if (t->kind == SHLO_T_EOF)
			return shlo_fail_at(l->e, l->name, l->s, from[depth - 1],
			                    "this bracket is not closed (expected '%c')",
			                    want[depth - 1]);
		if (closer(c)) {
			if (depth == SHLO_MAX_NEST)
				return shlo_fail(l, "brackets nested deeper than %d",
				                 SHLO_MAX_NEST);
			want[depth] = closer(c);
			from[depth++] = t->off;
		} else if (c == ')' || c == ']' || c == '}' || c == '>') {
			if (depth == 0 || c != want[depth - 1])
				return shlo_fail(l, "expected '%c', not '%c'",
				                 depth ? want[depth - 1] : '(', c);
			depth--;
		} else if (depth == 0) {
			return shlo_fail(l, "expected an opening bracket");
		}
		if (shlo_lex_next(l) < 0)
			return -1;
	} while (depth > 0);
	return 0;
}
