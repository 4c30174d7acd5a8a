/* json.dumps(indent=2, ensure_ascii=True) of json_format's values, as the
 * reference jsonizer prints them. */
#include "et-convert/json/jsonizer_py.h"
#include "et_json.h"
#include "et_json_str.h"

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

/* json.dumps(ensure_ascii=True): printable ASCII raw, the short escapes,
 * everything else \uXXXX (surrogate pairs above the BMP); invalid UTF-8 as
 * the one escaper has it (\ufffd a byte here). */
void jz_str(et_buf *b, const char *str)
{
	et_json_str(b, str, ET_JSTR_ASCII);
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
