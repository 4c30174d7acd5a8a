/* json.dumps(indent=2, ensure_ascii=True) of json_format's values, as the
 * reference jsonizer prints them. */
#include "et-convert/json/jsonizer_py.h"
#include "et_json.h"

#include <math.h>
#include <string.h>

static void newline(jz *z)
{
	et_buf_putc(z->b, '\n');
	for (int i = 0; i < z->depth; i++)
		et_buf_append(z->b, "  ", 2);
}

void jz_open(jz *z, char c)
{
	et_buf_putc(z->b, c);
	z->depth++;
	z->empty[z->depth] = true;
}

void jz_close(jz *z, char c)
{
	bool empty = z->empty[z->depth];
	z->depth--;
	if (!empty)
		newline(z);
	et_buf_putc(z->b, c);
}

void jz_item(jz *z)
{
	if (!z->empty[z->depth])
		et_buf_putc(z->b, ',');
	z->empty[z->depth] = false;
	newline(z);
}

/* One code point of UTF-8 at s (n bytes left); *len = bytes used. Invalid
 * bytes read as U+FFFD one at a time. */
static uint32_t utf8_next(const uint8_t *s, size_t n, size_t *len)
{
	uint8_t c = s[0];
	*len = 1;
	if (c < 0x80)
		return c;
	int k = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : -1;
	if (k < 0 || c > 0xf4 || (size_t)k >= n)
		return 0xfffd;
	uint32_t cp = c & (0x3f >> k);
	for (int i = 1; i <= k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0xfffd;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	static const uint32_t min[] = {0, 0x80, 0x800, 0x10000};
	if (cp < min[k] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0xfffd;
	*len = (size_t)k + 1;
	return cp;
}

static void put_u16(et_buf *b, uint32_t u)
{
	et_buf_printf(b, "\\u%04x", (unsigned)u);
}

/* json.dumps(ensure_ascii=True): printable ASCII raw, the short escapes,
 * everything else \uXXXX (surrogate pairs above the BMP). */
void jz_str(et_buf *b, const char *str)
{
	const uint8_t *s = (const uint8_t *)str;
	size_t n = strlen(str), len;
	et_buf_putc(b, '"');
	for (size_t i = 0; i < n; i += len) {
		uint32_t cp = utf8_next(s + i, n - i, &len);
		const char *esc = cp == '"'    ? "\\\""
		                  : cp == '\\' ? "\\\\"
		                  : cp == '\n' ? "\\n"
		                  : cp == '\r' ? "\\r"
		                  : cp == '\t' ? "\\t"
		                  : cp == '\b' ? "\\b"
		                  : cp == '\f' ? "\\f"
		                               : NULL;
		if (esc)
			et_buf_puts(b, esc);
		else if (cp >= 0x20 && cp <= 0x7e)
			et_buf_putc(b, (char)cp);
		else if (cp < 0x10000)
			put_u16(b, cp);
		else {
			put_u16(b, 0xd800 + ((cp - 0x10000) >> 10));
			put_u16(b, 0xdc00 + ((cp - 0x10000) & 0x3ff));
		}
	}
	et_buf_putc(b, '"');
}

void jz_key(jz *z, const char *k)
{
	jz_item(z);
	jz_str(z->b, k);
	et_buf_append(z->b, ": ", 2);
}

static void py_real(et_buf *b, double d, bool as_float)
{
	char t[ET_JSON_REAL_MAX];
	if (isnan(d))
		et_buf_puts(b, "\"NaN\"");
	else if (isinf(d))
		et_buf_puts(b, d < 0 ? "\"-Infinity\"" : "\"Infinity\"");
	else
		et_buf_append(b, t, et_json_fmt_real(d, as_float, t));
}

void jz_scalar(jz *z, ProtobufCType t, const void *p)
{
	et_buf *b = z->b;
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		et_buf_printf(b, "%d", (int)*(const int32_t *)p);
		break;
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		et_buf_printf(b, "%u", (unsigned)*(const uint32_t *)p);
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		et_buf_printf(b, "\"%lld\"", (long long)*(const int64_t *)p);
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		et_buf_printf(b, "\"%llu\"", (unsigned long long)*(const uint64_t *)p);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		py_real(b, *(const float *)p, true);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		py_real(b, *(const double *)p, false);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		et_buf_puts(b, *(const protobuf_c_boolean *)p ? "true" : "false");
		break;
	case PROTOBUF_C_TYPE_STRING:
		jz_str(b, *(char *const *)p);
		break;
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *d = p;
		et_buf_putc(b, '"');
		et_base64_encode(d->data, d->len, b);
		et_buf_putc(b, '"');
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE:
		et_buf_puts(b, "null");
		break;
	}
}
