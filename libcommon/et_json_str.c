/* The one JSON string escaper (see et_json_str.h for its policy). */
#include "et_json_str.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Bytes that need a look: what JSON forbids raw, and the lead bytes of
 * U+0085 (c2 85) and U+2028/2029 (e2 80 a8/a9). The terminating NUL stops
 * a run too. */
#define X16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
static const uint8_t special[256] = {
    X16(1), X16(1), ['"'] = 1, ['\\'] = 1, [0xc2] = 1, [0xe2] = 1,
};

/* Length of U+0085, U+2028 or U+2029 at s (which line-splitting readers,
 * e.g. Python's splitlines, take for line ends), else 0. */
static size_t line_sep(const uint8_t *s)
{
	if (s[0] == 0xc2 && s[1] == 0x85)
		return 2;
	if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
		return 3;
	return 0;
}

/* Escape of the special byte(s) at s into o; returns bytes consumed, and
 * 0 for a lead byte that starts no separator (then it goes out raw). */
static size_t escape(const uint8_t *s, uint8_t **o)
{
	static const char hex[] = "0123456789abcdef";
	static const char short_esc[0x20] = {
	    ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't'};
	uint8_t c = s[0], *p = *o;
	size_t used = 1;
	if (c >= 0xc2) {
		if (!(used = line_sep(s)))
			return 0;
		memcpy(p, used == 2 ? "\\u0085" : s[2] == 0xa8 ? "\\u2028" : "\\u2029", 6);
		p += 6;
	} else if (c == '"' || c == '\\') {
		*p++ = '\\';
		*p++ = c;
	} else if (short_esc[c]) {
		*p++ = '\\';
		*p++ = (uint8_t)short_esc[c];
	} else {
		memcpy(p, "\\u00", 4);
		p[4] = (uint8_t)hex[c >> 4];
		p[5] = (uint8_t)hex[c & 15];
		p += 6;
	}
	*o = p;
	return used;
}

/* Whether 8 bytes hold none of the special bytes, tested all at once
 * (the exact "has a byte < n" and "has a zero byte" word tricks): strings
 * are most of the output, and most of their bytes are plain. */
static bool plain8(const uint8_t *p)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t x;
	memcpy(&x, p, sizeof x);
#define HAS_ZERO(v) (((v)-ones) & ~(v)&high)
	uint64_t hit = ((x - ones * 0x20) & ~x & high) | HAS_ZERO(x ^ (ones * '"')) |
	               HAS_ZERO(x ^ (ones * '\\')) | HAS_ZERO(x ^ (ones * 0xc2)) |
	               HAS_ZERO(x ^ (ones * 0xe2));
#undef HAS_ZERO
	return !hit;
}

/* The default layout with line separators escaped, et_json's hot path
 * (ET -> JSONL is mostly strings, and most of their bytes are plain). */
static void str_linesep(et_buf *b, const char *str)
{
	const uint8_t *s = (const uint8_t *)str;
	size_t n = strlen(str), i = 0;
	et_buf_reserve(b, n * 6 + 2);
	uint8_t *o = b->data + b->len;
	*o++ = '"';
	for (;;) {
		size_t run = i;
		while (i + 8 <= n && plain8(s + i))
			i += 8;
		while (!special[s[i]])
			i++;
		memcpy(o, s + run, i - run);
		o += i - run;
		if (i == n)
			break;
		size_t used = escape(s + i, &o);
		if (!used)
			*o++ = s[i++];
		i += used;
	}
	*o++ = '"';
	b->len = (size_t)(o - b->data);
}

/* One code point of strict UTF-8 at s (NUL-terminated); *len = bytes
 * used. Not valid UTF-8: -1, one byte used. */
static int32_t utf8_next(const uint8_t *s, size_t *len)
{
	uint8_t c = s[0];
	*len = 1;
	if (c < 0x80)
		return c;
	int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : -1;
	if (k < 0 || c > 0xf4)
		return -1;
	uint32_t cp = c & (0x3f >> k);
	for (int i = 1; i <= k; i++) {
		if ((s[i] & 0xc0) != 0x80) /* a NUL ends a cut sequence here */
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	static const uint32_t min[] = {0, 0x80, 0x800, 0x10000};
	if (cp < min[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = (size_t)k + 1;
	return (int32_t)cp;
}

static void put_u(et_buf *b, uint32_t u)
{
	static const char hex[] = "0123456789abcdef";
	char t[6] = {'\\', 'u', hex[u >> 12 & 15], hex[u >> 8 & 15], hex[u >> 4 & 15], hex[u & 15]};
	et_buf_append(b, t, sizeof t);
}

static void put_ctrl(et_buf *b, uint8_t c, unsigned flags)
{
	static const char short_esc[0x20] = {
	    ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't'};
	bool short_form = short_esc[c] && !(flags & ET_JSTR_CTRL_HEX) &&
	                  (!(flags & ET_JSTR_CTRL_NT) || c == '\n' || c == '\t');
	if (short_form) {
		et_buf_putc(b, '\\');
		et_buf_putc(b, short_esc[c]);
	} else
		put_u(b, c);
}

/* A code point from 0x7f up, valid (cp, n bytes at s) or not (cp < 0). */
static void put_high(et_buf *b, const uint8_t *s, int32_t cp, size_t n, unsigned flags)
{
	bool sep = cp == 0x85 || cp == 0x2028 || cp == 0x2029;
	if (!(flags & ET_JSTR_ASCII)) {
		if (sep && (flags & ET_JSTR_LINESEP))
			put_u(b, (uint32_t)cp);
		else
			et_buf_append(b, s, n); /* invalid bytes too, as they are */
	} else if (cp < 0)
		put_u(b, 0xfffd);
	else if (cp < 0x10000)
		put_u(b, (uint32_t)cp);
	else {
		put_u(b, 0xd800 + (((uint32_t)cp - 0x10000) >> 10));
		put_u(b, 0xdc00 + (((uint32_t)cp - 0x10000) & 0x3ff));
	}
}

void et_json_str(et_buf *b, const char *str, unsigned flags)
{
	if (flags == ET_JSTR_LINESEP) {
		str_linesep(b, str);
		return;
	}
	const uint8_t *s = (const uint8_t *)str;
	size_t len;
	et_buf_putc(b, '"');
	for (size_t i = 0; s[i]; i += len) {
		uint8_t c = s[i];
		len = 1;
		if (c == '"' || c == '\\') {
			et_buf_putc(b, '\\');
			et_buf_putc(b, (char)c);
		} else if (c < 0x20)
			put_ctrl(b, c, flags);
		else if (c < 0x7f)
			et_buf_putc(b, (char)c);
		else if (c == 0x7f)
			(flags & ET_JSTR_ASCII) ? put_u(b, c) : et_buf_putc(b, (char)c);
		else {
			int32_t cp = utf8_next(s + i, &len); /* sets len first */
			put_high(b, s + i, cp, len, flags);
		}
	}
	et_buf_putc(b, '"');
}
