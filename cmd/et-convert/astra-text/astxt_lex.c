/* astxt_lex: lines, columns and numbers of an ASTRA-sim 1.0 text workload
 * (see astxt_lex.h for what is accepted and why). */
#include "et-convert/astra-text/astxt_lex.h"
#include "et-convert/astra-text/astxt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void astxt_lex_init(astxt_lex *x, const char *name, const char *text, size_t len)
{
	memset(x, 0, sizeof *x);
	x->p = text;
	x->end = text + len;
	x->name = name;
}

void astxt_lex_free(astxt_lex *x)
{
	et_buf_free(&x->norm);
}

int astxt_lex_fail(const astxt_lex *x, uint32_t line, et_error *e, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return et_fail(e, ET_EXIT_DATA, "%s: line %u: %s", x->name, line, what);
}

/* Length of the valid UTF-8 sequence at p (at most avail bytes), 0 if
 * there is none; its code point in *cp. Overlong forms, surrogates and
 * values beyond U+10FFFF are invalid, as for Python's decoder. */
static int utf8_seq(const unsigned char *p, size_t avail, uint32_t *cp)
{
	unsigned char c = p[0];
	int n = c < 0x80                 ? 1
	        : c >= 0xC2 && c <= 0xDF ? 2
	        : c >= 0xE0 && c <= 0xEF ? 3
	        : c >= 0xF0 && c <= 0xF4 ? 4
	                                 : 0;
	if (n == 0 || (size_t)n > avail)
		return 0;
	/* the second byte's range, narrower after E0, ED, F0 and F4 */
	unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
	unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
	uint32_t v = n == 1 ? c : n == 2 ? c & 0x1Fu : n == 3 ? c & 0x0Fu : c & 0x07u;
	for (int k = 1; k < n; k++) {
		if (p[k] < (k == 1 ? lo : 0x80) || p[k] > (k == 1 ? hi : 0xBF))
			return 0;
		v = v << 6 | (p[k] & 0x3Fu);
	}
	*cp = v;
	return n;
}

/* Code points Python's str.split() separates columns at, beyond ASCII. */
static bool unicode_space(uint32_t cp)
{
	return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
	       cp == 0x2028 || cp == 0x2029 || cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

/* A line's bytes: valid UTF-8, no control characters but the separators,
 * no Unicode spaces. */
static int check_line(const astxt_lex *x, const char *s, size_t n, et_error *e)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_seq(p + i, n - i, &cp);
		if (k == 0)
			return astxt_lex_fail(x, x->line, e, "byte %zu: not UTF-8 (0x%02X)", i + 1,
			                      p[i]);
		if (unicode_space(cp))
			return astxt_lex_fail(x, x->line, e,
			                      "byte %zu: U+%04X, a space the reference splits "
			                      "columns at; use spaces or tabs",
			                      i + 1, (unsigned)cp);
		bool sep = cp == '\t' || cp == '\v' || cp == '\f';
		if ((cp < 0x20 && !sep) || (cp >= 0x7F && cp < 0xA0))
			return astxt_lex_fail(x, x->line, e, "byte %zu: control character 0x%02X",
			                      i + 1, (unsigned)cp);
		i += (size_t)k;
	}
	return 0;
}

int astxt_lex_line(astxt_lex *x, const char **s, size_t *n, et_error *e)
{
	if (x->p >= x->end)
		return 0;
	const char *b = x->p, *q = b;
	while (q < x->end && *q != '\n' && *q != '\r')
		q++;
	x->line++;
	if ((size_t)(q - b) > ASTXT_MAX_LINE)
		return astxt_lex_fail(x, x->line, e, "longer than %u bytes", ASTXT_MAX_LINE);
	if (check_line(x, b, (size_t)(q - b), e) < 0)
		return -1;
	et_buf_append(&x->norm, b, (size_t)(q - b));
	x->p = q;
	if (q < x->end) { /* "\r\n", "\r" and "\n" all end a line */
		x->p += *q == '\r' && q + 1 < x->end && q[1] == '\n' ? 2 : 1;
		et_buf_putc(&x->norm, '\n');
	}
	*s = b;
	*n = (size_t)(q - b);
	return 1;
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

size_t astxt_lex_split(const char *s, size_t n, astxt_tok *tok, size_t max)
{
	size_t count = 0;
	for (size_t i = 0; i < n;) {
		while (i < n && is_sep(s[i]))
			i++;
		if (i == n)
			break;
		size_t j = i;
		while (j < n && !is_sep(s[j]))
			j++;
		if (count < max)
			tok[count] = (astxt_tok){s + i, j - i};
		count++;
		i = j;
	}
	return count;
}

int astxt_lex_u64(astxt_tok t, uint64_t max, uint64_t *v)
{
	if (t.n == 0)
		return -1;
	uint64_t r = 0;
	for (size_t i = 0; i < t.n; i++) {
		if (t.s[i] < '0' || t.s[i] > '9')
			return -1;
		unsigned d = (unsigned)(t.s[i] - '0');
		if (r > (max - d) / 10)
			return -1;
		r = r * 10 + d;
	}
	*v = r;
	return 0;
}

int astxt_lex_i64(astxt_tok t, int64_t *v)
{
	bool neg = t.n > 0 && t.s[0] == '-';
	astxt_tok d = {t.s + neg, t.n - neg};
	uint64_t u;
	/* -2^63 fits, +2^63 does not */
	if (astxt_lex_u64(d, (uint64_t)INT64_MAX + neg, &u) < 0)
		return -1;
	*v = !neg ? (int64_t)u : u > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)u;
	return 0;
}

const char *astxt_lex_quote(astxt_tok t, char *buf, size_t cap)
{
	char s[ASTXT_MAX_LINE + 1];
	size_t n = t.n < ASTXT_MAX_LINE ? t.n : ASTXT_MAX_LINE;
	memcpy(s, t.s, n);
	s[n] = '\0';
	return et_quote(s, buf, cap);
}
