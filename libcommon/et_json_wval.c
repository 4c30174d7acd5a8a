/* The writer's values: integers, strings, reals, bytes, one protobuf
 * scalar of the JSON mapping. Hot path of ET -> JSONL: no printf, no
 * per-byte calls. */
#include "et_json_int.h"

#include <math.h>
#include <stdio.h>

/* 64-bit integers up to 2^53 are exact in every JSON reader. */
#define EXACT_MAX ((uint64_t)1 << 53)

static char *u64_digits(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

void et_jw_u64(et_buf *b, uint64_t v)
{
	char t[24], *e = t + sizeof t;
	char *s = u64_digits(e, v);
	et_jw_put(b, s, (size_t)(e - s));
}

void et_jw_i64(et_buf *b, int64_t v)
{
	char t[24], *e = t + sizeof t;
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	char *s = u64_digits(e, mag);
	if (v < 0)
		*--s = '-';
	et_jw_put(b, s, (size_t)(e - s));
}

/* A JSON number when exact everywhere, else a string of the digits. */
void et_jw_json_u64(et_buf *b, uint64_t v)
{
	if (v <= EXACT_MAX) {
		et_jw_u64(b, v);
		return;
	}
	et_jw_putc(b, '"');
	et_jw_u64(b, v);
	et_jw_putc(b, '"');
}

static void json_i64(et_buf *b, int64_t v)
{
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (mag <= EXACT_MAX) {
		et_jw_i64(b, v);
		return;
	}
	et_jw_putc(b, '"');
	et_jw_i64(b, v);
	et_jw_putc(b, '"');
}

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

/* Bytes >= 0x20 go out raw (UTF-8 or not: raw is what survives a round
 * trip byte for byte); escaped is what JSON forbids, and the Unicode line
 * separators, so that one JSONL record stays one line for every reader. */
void et_jw_str(et_buf *b, const char *str)
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

/* NaN and the infinities are strings, as in the protobuf mapping; a NaN
 * other than the default one keeps its bits as "NaN:0x<hex>" (our
 * extension), so that ET -> JSON -> ET is byte-identical. */
static void json_double(et_buf *b, double d)
{
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	char t[ET_JSON_REAL_MAX];
	if (isnan(d) && bits == 0x7ff8000000000000ull)
		ET_JW_LIT(b, "\"NaN\"");
	else if (isnan(d))
		et_buf_printf(b, "\"NaN:0x%016llx\"", (unsigned long long)bits);
	else if (isinf(d))
		et_buf_puts(b, d < 0 ? "\"-Infinity\"" : "\"Infinity\"");
	else
		et_jw_put(b, t, et_json_fmt_real(d, false, t));
}

static void json_float(et_buf *b, float f)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	char t[ET_JSON_REAL_MAX];
	if (isnan(f) && bits == 0x7fc00000u)
		ET_JW_LIT(b, "\"NaN\"");
	else if (isnan(f))
		et_buf_printf(b, "\"NaN:0x%08x\"", (unsigned)bits);
	else if (isinf(f))
		et_buf_puts(b, f < 0 ? "\"-Infinity\"" : "\"Infinity\"");
	else
		et_jw_put(b, t, et_json_fmt_real(f, true, t));
}

void et_jw_scalar(et_buf *b, ProtobufCType t, const void *p)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		et_jw_i64(b, *(const int32_t *)p);
		break;
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		et_jw_u64(b, *(const uint32_t *)p);
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		json_i64(b, *(const int64_t *)p);
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		et_jw_json_u64(b, *(const uint64_t *)p);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		json_float(b, *(const float *)p);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		json_double(b, *(const double *)p);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		if (*(const protobuf_c_boolean *)p)
			ET_JW_LIT(b, "true");
		else
			ET_JW_LIT(b, "false");
		break;
	case PROTOBUF_C_TYPE_STRING:
		et_jw_str(b, *(char *const *)p);
		break;
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *d = p;
		et_jw_putc(b, '"');
		et_base64_encode(d->data, d->len, b);
		et_jw_putc(b, '"');
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE:
		ET_JW_LIT(b, "null"); /* no message-typed scalar in the schema */
		break;
	}
}
