/* MessageToJson, byte for byte: json.dumps(indent=2, ensure_ascii=True) of
 * the protobuf JSON mapping (et_jsonw's ET_JSONW_INDENT layout, strings
 * ASCII-only), with the Python details that decide the bytes (see
 * jsonizer.h). */
#include "et-convert/json/jsonizer.h"
#include "et_attr.h"
#include "et_json.h"
#include "et_json_str.h"
#include "et_jsonw.h"
#include "et_types.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A real as json_format renders it: Python's repr, or the non-finite ones
 * by name in a string. */
static void py_real(et_jsonw *z, double d, bool as_float)
{
	if (isnan(d))
		et_jsonw_str(z, "NaN");
	else if (isinf(d))
		et_jsonw_str(z, d < 0 ? "-Infinity" : "Infinity");
	else
		et_jsonw_repr(z, d, as_float);
}

static void scalar(et_jsonw *z, ProtobufCType t, const void *p)
{
	char s[24]; /* json_format writes 64-bit integers as strings */
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		et_jsonw_int(z, *(const int32_t *)p);
		break;
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
		et_jsonw_uint(z, *(const uint32_t *)p);
		break;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
		snprintf(s, sizeof s, "%lld", (long long)*(const int64_t *)p);
		et_jsonw_str(z, s);
		break;
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		snprintf(s, sizeof s, "%llu", (unsigned long long)*(const uint64_t *)p);
		et_jsonw_str(z, s);
		break;
	case PROTOBUF_C_TYPE_FLOAT:
		py_real(z, *(const float *)p, true);
		break;
	case PROTOBUF_C_TYPE_DOUBLE:
		py_real(z, *(const double *)p, false);
		break;
	case PROTOBUF_C_TYPE_BOOL:
		et_jsonw_bool(z, *(const protobuf_c_boolean *)p);
		break;
	case PROTOBUF_C_TYPE_STRING:
		et_jsonw_str(z, *(char *const *)p);
		break;
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *d = p;
		et_buf b64 = {0};
		et_base64_encode(d->data, d->len, &b64);
		et_jsonw_strn(z, (const char *)b64.data, b64.len);
		et_buf_free(&b64);
		break;
	}
	case PROTOBUF_C_TYPE_MESSAGE:
		et_jsonw_null(z);
		break;
	}
}

static void array(et_jsonw *z, ProtobufCType t, const void *v, size_t n)
{
	size_t sz = et_json_elem_size(t);
	et_jsonw_arr(z);
	for (size_t i = 0; i < n; i++)
		scalar(z, t, (const char *)v + i * sz);
	et_jsonw_end(z);
}

static void list(et_jsonw *z, const ProtobufCMessage *m)
{
	const ProtobufCFieldDescriptor *f = et_json_list_field(m->descriptor);
	const char *base = (const char *)m;
	size_t n = f ? *(const size_t *)(base + f->quantifier_offset) : 0;
	et_jsonw_obj(z);
	if (n) {
		et_jsonw_key(z, "values");
		array(z, f->type, *(const void *const *)(base + f->offset), n);
	}
	et_jsonw_end(z);
}

static void str_field(et_jsonw *z, const char *k, const char *v)
{
	if (v && *v) {
		et_jsonw_kstr(z, k, v);
	}
}

static void attr(et_jsonw *z, const et_attr *a)
{
	et_jsonw_obj(z);
	str_field(z, "name", a->name);
	str_field(z, "docString", a->doc_string);
	const ProtobufCFieldDescriptor *f = et_json_attr_field(a);
	const void *p = f ? (const char *)a + f->offset : NULL;
	bool is_ptr =
	    f && (f->type == PROTOBUF_C_TYPE_MESSAGE || f->type == PROTOBUF_C_TYPE_STRING);
	if (f && !(is_ptr && !*(void *const *)p)) {
		et_jsonw_key(z, et_json_attr_key((int)a->value_case));
		if (f->type == PROTOBUF_C_TYPE_MESSAGE)
			list(z, *(const ProtobufCMessage *const *)p);
		else
			scalar(z, f->type, p);
	}
	et_jsonw_end(z);
}

static void attrs(et_jsonw *z, et_attr *const *a, size_t n)
{
	if (!n)
		return;
	et_jsonw_karr(z, "attr");
	for (size_t i = 0; i < n; i++)
		attr(z, a[i]);
	et_jsonw_end(z);
}

static void u64_field(et_jsonw *z, const char *k, uint64_t v)
{
	if (v) {
		et_jsonw_key(z, k);
		scalar(z, PROTOBUF_C_TYPE_UINT64, &v);
	}
}

static void deps(et_jsonw *z, const char *k, const uint64_t *v, size_t n)
{
	if (n) {
		et_jsonw_key(z, k);
		array(z, PROTOBUF_C_TYPE_UINT64, v, n);
	}
}

static void io(et_jsonw *z, const char *k, const ChakraProtoMsg__IOInfo *v)
{
	if (!v)
		return;
	et_jsonw_kobj(z, k);
	str_field(z, "values", v->values);
	str_field(z, "shapes", v->shapes);
	str_field(z, "types", v->types);
	et_jsonw_end(z);
}

static void type(et_jsonw *z, int t)
{
	if (t == ET_NODE_INVALID) /* the proto3 default: not printed */
		return;
	et_jsonw_key(z, "type");
	const char *name = et_node_type_name(t);
	if (name)
		et_jsonw_str(z, name);
	else
		scalar(z, PROTOBUF_C_TYPE_ENUM, &t);
}

/* A writer of one message into out. */
static void start(et_jsonw *z, et_buf *out)
{
	et_jsonw_init(z, NULL, out, ET_JSONW_INDENT, ET_JSTR_ASCII);
	et_jsonw_obj(z);
}

static void finish(et_jsonw *z)
{
	et_jsonw_end(z);
	et_jsonw_done(z);
}

void jsonizer_node(const et_node *n, et_buf *out)
{
	et_jsonw z;
	start(&z, out);
	u64_field(&z, "id", n->id);
	str_field(&z, "name", n->name);
	type(&z, (int)n->type);
	deps(&z, "ctrlDeps", n->ctrl_deps, n->n_ctrl_deps);
	deps(&z, "dataDeps", n->data_deps, n->n_data_deps);
	u64_field(&z, "startTimeMicros", n->start_time_micros);
	u64_field(&z, "durationMicros", n->duration_micros);
	io(&z, "inputs", n->inputs);
	io(&z, "outputs", n->outputs);
	attrs(&z, n->attr, n->n_attr);
	finish(&z);
}

void jsonizer_meta(const et_meta *m, et_buf *out)
{
	et_jsonw z;
	start(&z, out);
	str_field(&z, "version", m->version);
	attrs(&z, m->attr, m->n_attr);
	finish(&z);
}

const et_writer_layout jsonizer_layout = {"jsonizer", "--ranks R", jsonizer_meta, jsonizer_node};
