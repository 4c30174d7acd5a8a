#include "et_pyrepr.h"
#include "et_json.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 1024 };

typedef struct rd {
	const char *p;
	size_t len, pos;
	et_buf *out;
	et_buf str; /* decoded string scratch */
} rd;

static void skip_ws(rd *r)
{
	while (r->pos < r->len && (r->p[r->pos] == ' ' || r->p[r->pos] == '\t' ||
	                           r->p[r->pos] == '\n' || r->p[r->pos] == '\r'))
		r->pos++;
}

void et_pyrepr_float(double v, et_buf *out)
{
	if (isnan(v)) {
		et_buf_puts(out, "nan");
		return;
	}
	if (isinf(v)) {
		et_buf_puts(out, v < 0 ? "-inf" : "inf");
		return;
	}
	char b[ET_JSON_REAL_MAX];
	et_buf_append(out, b, et_json_fmt_real(v, false, b));
}

/* Code points Python's str.isprintable() rejects, beyond ASCII controls. */
static bool py_printable(uint32_t c)
{
	static const uint32_t bad[][2] = {
	    {0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},     {0x61c, 0x61c},
	    {0x6dd, 0x6dd},     {0x70f, 0x70f},     {0x890, 0x891},     {0x8e2, 0x8e2},
	    {0x1680, 0x1680},   {0x180e, 0x180e},   {0x2000, 0x200f},   {0x2028, 0x202f},
	    {0x205f, 0x2064},   {0x2066, 0x206f},   {0x3000, 0x3000},   {0xd800, 0xf8ff},
	    {0xfdd0, 0xfdef},   {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0xfffe, 0xffff},
	    {0x110bd, 0x110bd}, {0x110cd, 0x110cd}, {0x13430, 0x1343f}, {0x1bca0, 0x1bca3},
	    {0x1d173, 0x1d17a}, {0xe0001, 0xe0001}, {0xe0020, 0xe007f}, {0xf0000, 0x10ffff},
	};
	if ((c & 0xfffe) == 0xfffe)
		return false;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (c >= bad[i][0] && c <= bad[i][1])
			return false;
	return true;
}

/* Decode one UTF-8 sequence; a byte that starts no valid sequence comes
 * back as itself (Python never sees such text: json.load rejects it). */
static uint32_t utf8_next(const unsigned char *s, size_t n, size_t *i)
{
	unsigned char c = s[*i];
	int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
	if (k == 0 || *i + (size_t)k >= n) {
		(*i)++;
		return c;
	}
	uint32_t v = c & (0x3f >> k);
	for (int j = 1; j <= k; j++) {
		unsigned char cc = s[*i + (size_t)j];
		if ((cc & 0xc0) != 0x80) {
			(*i)++;
			return c;
		}
		v = v << 6 | (cc & 0x3f);
	}
	*i += (size_t)k + 1;
	return v;
}

void et_pyrepr_str(const char *s, size_t n, et_buf *out)
{
	bool has_sq = n && memchr(s, '\'', n), has_dq = n && memchr(s, '"', n);
	char q = has_sq && !has_dq ? '"' : '\'';
	et_buf_putc(out, q);
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		/* Runs of printable ASCII are copied whole: most strings are all
		 * of it ('cuda:0', 'Tensor(float)'). */
		size_t start = i;
		while (i < n && u[i] >= 0x20 && u[i] < 0x7f && u[i] != (unsigned char)q &&
		       u[i] != '\\')
			i++;
		et_buf_append(out, s + start, i - start);
		if (i == n)
			break;
		start = i;
		uint32_t c = utf8_next(u, n, &i);
		if (c == (uint32_t)q || c == '\\') {
			et_buf_putc(out, '\\');
			et_buf_putc(out, (char)c);
		} else if (c == '\t') {
			et_buf_puts(out, "\\t");
		} else if (c == '\n') {
			et_buf_puts(out, "\\n");
		} else if (c == '\r') {
			et_buf_puts(out, "\\r");
		} else if (c < 0x20 || c == 0x7f) {
			et_buf_printf(out, "\\x%02x", c);
		} else if (c < 0x7f || py_printable(c)) {
			et_buf_append(out, s + start, i - start);
		} else if (c <= 0xff) {
			et_buf_printf(out, "\\x%02x", c);
		} else if (c <= 0xffff) {
			et_buf_printf(out, "\\u%04x", c);
		} else {
			et_buf_printf(out, "\\U%08x", c);
		}
	}
	et_buf_putc(out, q);
}

static void put_utf8(et_buf *b, uint32_t c)
{
	if (c < 0x80) {
		et_buf_putc(b, (char)c);
	} else if (c < 0x800) {
		et_buf_putc(b, (char)(0xc0 | c >> 6));
		et_buf_putc(b, (char)(0x80 | (c & 0x3f)));
	} else if (c < 0x10000) {
		et_buf_putc(b, (char)(0xe0 | c >> 12));
		et_buf_putc(b, (char)(0x80 | (c >> 6 & 0x3f)));
		et_buf_putc(b, (char)(0x80 | (c & 0x3f)));
	} else {
		et_buf_putc(b, (char)(0xf0 | c >> 18));
		et_buf_putc(b, (char)(0x80 | (c >> 12 & 0x3f)));
		et_buf_putc(b, (char)(0x80 | (c >> 6 & 0x3f)));
		et_buf_putc(b, (char)(0x80 | (c & 0x3f)));
	}
}

static int hex4(rd *r, uint32_t *v)
{
	if (r->pos + 4 > r->len)
		return -1;
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = r->p[r->pos++];
		int d = c >= '0' && c <= '9'   ? c - '0'
		        : c >= 'a' && c <= 'f' ? c - 'a' + 10
		        : c >= 'A' && c <= 'F' ? c - 'A' + 10
		                               : -1;
		if (d < 0)
			return -1;
		*v = *v << 4 | (uint32_t)d;
	}
	return 0;
}

/* A JSON string at r->pos into r->str (decoded UTF-8). */
static int decode_string(rd *r)
{
	r->str.len = 0;
	r->pos++; /* opening quote */
	while (r->pos < r->len) {
		unsigned char c = (unsigned char)r->p[r->pos++];
		if (c == '"')
			return 0;
		if (c < 0x20)
			return -1;
		if (c != '\\') {
			et_buf_putc(&r->str, (char)c);
			continue;
		}
		if (r->pos >= r->len)
			return -1;
		char e = r->p[r->pos++];
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
		const char *k = strchr(from, e);
		if (k && e) {
			et_buf_putc(&r->str, to[k - from]);
			continue;
		}
		if (e != 'u')
			return -1;
		uint32_t v, lo;
		if (hex4(r, &v) < 0)
			return -1;
		/* A surrogate pair is one code point; a lone surrogate stays. */
		if (v >= 0xd800 && v < 0xdc00 && r->pos + 6 <= r->len && r->p[r->pos] == '\\' &&
		    r->p[r->pos + 1] == 'u') {
			size_t save = r->pos;
			r->pos += 2;
			if (hex4(r, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000)
				v = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
			else
				r->pos = save;
		}
		put_utf8(&r->str, v);
	}
	return -1;
}

static int value(rd *r, int depth);

/* str() of the JSON string at r->pos. Most strings in traces have no
 * escapes; those are printed from the input text without a copy. */
static int string(rd *r)
{
	const char *s = r->p + r->pos + 1;
	size_t i = 0, n = r->len - r->pos - 1;
	while (i < n && s[i] != '"' && s[i] != '\\' && (unsigned char)s[i] >= 0x20)
		i++;
	if (i < n && s[i] == '"') {
		et_pyrepr_str(s, i, r->out);
		r->pos += i + 2;
		return 0;
	}
	if (decode_string(r) < 0)
		return -1;
	et_pyrepr_str((const char *)r->str.data, r->str.len, r->out);
	return 0;
}

static int container(rd *r, int depth, char close, bool is_obj)
{
	et_buf_putc(r->out, is_obj ? '{' : '[');
	r->pos++;
	skip_ws(r);
	if (r->pos < r->len && r->p[r->pos] == close) {
		r->pos++;
		et_buf_putc(r->out, close);
		return 0;
	}
	for (bool first = true;; first = false) {
		if (!first)
			et_buf_puts(r->out, ", ");
		skip_ws(r);
		if (is_obj) {
			if (r->pos >= r->len || r->p[r->pos] != '"' || string(r) < 0)
				return -1;
			skip_ws(r);
			if (r->pos >= r->len || r->p[r->pos++] != ':')
				return -1;
			et_buf_puts(r->out, ": ");
		}
		if (value(r, depth + 1) < 0)
			return -1;
		skip_ws(r);
		if (r->pos >= r->len)
			return -1;
		char c = r->p[r->pos++];
		if (c == close)
			break;
		if (c != ',')
			return -1;
	}
	et_buf_putc(r->out, close);
	return 0;
}

static bool lit(rd *r, const char *word)
{
	size_t n = strlen(word);
	if (r->len - r->pos < n || memcmp(r->p + r->pos, word, n) != 0)
		return false;
	r->pos += n;
	return true;
}

static int number(rd *r)
{
	size_t s = r->pos;
	bool is_int = true;
	for (; r->pos < r->len; r->pos++) {
		char c = r->p[r->pos];
		if (c == '.' || c == 'e' || c == 'E')
			is_int = false;
		else if (!(c >= '0' && c <= '9') && c != '-' && c != '+')
			break;
	}
	size_t n = r->pos - s;
	const char *t = r->p + s;
	size_t digits = n - (t[0] == '-');
	if (digits == 0 || (t[0] == '-' ? t[1] : t[0]) < '0' || (t[0] == '-' ? t[1] : t[0]) > '9')
		return -1;
	if (is_int) {
		/* Python prints ints exactly; -0 is 0. */
		if (n == 2 && t[0] == '-' && t[1] == '0')
			et_buf_putc(r->out, '0');
		else
			et_buf_append(r->out, t, n);
		return 0;
	}
	char tmp[512];
	if (n >= sizeof tmp)
		return -1;
	memcpy(tmp, t, n);
	tmp[n] = 0;
	char *end;
	double v = strtod(tmp, &end);
	if (*end)
		return -1;
	et_pyrepr_float(v, r->out);
	return 0;
}

static int value(rd *r, int depth)
{
	if (depth > MAX_DEPTH)
		return -1;
	skip_ws(r);
	if (r->pos >= r->len)
		return -1;
	switch (r->p[r->pos]) {
	case '[':
		return container(r, depth, ']', false);
	case '{':
		return container(r, depth, '}', true);
	case '"':
		return string(r);
	case 't':
	case 'f':
	case 'n':
	case 'N':
	case 'I':
	case '-':
		break;
	default:
		return number(r);
	}
	if (lit(r, "true"))
		et_buf_puts(r->out, "True");
	else if (lit(r, "false"))
		et_buf_puts(r->out, "False");
	else if (lit(r, "null"))
		et_buf_puts(r->out, "None");
	else if (lit(r, "NaN"))
		et_buf_puts(r->out, "nan");
	else if (lit(r, "Infinity"))
		et_buf_puts(r->out, "inf");
	else if (lit(r, "-Infinity"))
		et_buf_puts(r->out, "-inf");
	else
		return number(r);
	return 0;
}

int et_pyrepr(const char *p, size_t len, et_buf *out, size_t *bad)
{
	rd r = {p, len, 0, out, {0}};
	size_t start_len = out->len;
	int rc = value(&r, 0);
	skip_ws(&r);
	if (rc == 0 && r.pos != len)
		rc = -1;
	if (rc < 0) {
		out->len = start_len;
		if (bad)
			*bad = r.pos;
	}
	et_buf_free(&r.str);
	return rc;
}
