/* The writer's values: integers, strings, reals, bytes, one protobuf
 * scalar of the JSON mapping. Hot path of ET -> JSONL: no printf, no
 * per-byte calls. */
#include "et_json_int.h"
#include "et_json_str.h"

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

/* Bytes >= 0x20 go out raw (UTF-8 or not: raw is what survives a round
 * trip byte for byte); escaped is what JSON forbids, and the Unicode line
 * separators, so that one JSONL record stays one line for every reader. */
void et_jw_str(et_buf *b, const char *str)
{
	et_json_str(b, str, ET_JSTR_LINESEP);
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
