/* MessageToJson, byte for byte: json.dumps(indent=2) of the protobuf JSON
 * mapping, with the Python details that decide the bytes (see jsonizer.h). */
#include "et-convert/json/jsonizer.h"
#include "et-convert/json/jsonizer_py.h"
#include "et_attr.h"
#include "et_json.h"
#include "et_types.h"

#include <string.h>

static void array(jz *z, ProtobufCType t, const void *v, size_t n)
{
	size_t sz = et_json_elem_size(t);
	jz_open(z, '[');
	for (size_t i = 0; i < n; i++) {
		jz_item(z);
		jz_scalar(z, t, (const char *)v + i * sz);
	}
	jz_close(z, ']');
}

static void list(jz *z, const ProtobufCMessage *m)
{
	const ProtobufCFieldDescriptor *f = et_json_list_field(m->descriptor);
	const char *base = (const char *)m;
	size_t n = f ? *(const size_t *)(base + f->quantifier_offset) : 0;
	jz_open(z, '{');
	if (n) {
		jz_key(z, "values");
		array(z, f->type, *(const void *const *)(base + f->offset), n);
	}
	jz_close(z, '}');
}

static void str_field(jz *z, const char *k, const char *v)
{
	if (v && *v) {
		jz_key(z, k);
		jz_str(z->b, v);
	}
}

static void attr(jz *z, const et_attr *a)
{
	jz_open(z, '{');
	str_field(z, "name", a->name);
	str_field(z, "docString", a->doc_string);
	const ProtobufCFieldDescriptor *f = et_json_attr_field(a);
	const void *p = f ? (const char *)a + f->offset : NULL;
	bool is_ptr =
	    f && (f->type == PROTOBUF_C_TYPE_MESSAGE || f->type == PROTOBUF_C_TYPE_STRING);
	if (f && !(is_ptr && !*(void *const *)p)) {
		jz_key(z, et_json_attr_key((int)a->value_case));
		if (f->type == PROTOBUF_C_TYPE_MESSAGE)
			list(z, *(const ProtobufCMessage *const *)p);
		else
			jz_scalar(z, f->type, p);
	}
	jz_close(z, '}');
}

static void attrs(jz *z, et_attr *const *a, size_t n)
{
	if (!n)
		return;
	jz_key(z, "attr");
	jz_open(z, '[');
	for (size_t i = 0; i < n; i++) {
		jz_item(z);
		attr(z, a[i]);
	}
	jz_close(z, ']');
}

static void u64_field(jz *z, const char *k, uint64_t v)
{
	if (v) {
		jz_key(z, k);
		jz_scalar(z, PROTOBUF_C_TYPE_UINT64, &v);
	}
}

static void deps(jz *z, const char *k, const uint64_t *v, size_t n)
{
	if (n) {
		jz_key(z, k);
		array(z, PROTOBUF_C_TYPE_UINT64, v, n);
	}
}

static void io(jz *z, const char *k, const ChakraProtoMsg__IOInfo *v)
{
	if (!v)
		return;
	jz_key(z, k);
	jz_open(z, '{');
	str_field(z, "values", v->values);
	str_field(z, "shapes", v->shapes);
	str_field(z, "types", v->types);
	jz_close(z, '}');
}

static void type(jz *z, int t)
{
	if (t == ET_NODE_INVALID) /* the proto3 default: not printed */
		return;
	jz_key(z, "type");
	const char *name = et_node_type_name(t);
	if (name)
		jz_str(z->b, name);
	else
		jz_scalar(z, PROTOBUF_C_TYPE_ENUM, &t);
}

void jsonizer_node(const et_node *n, et_buf *out)
{
	jz z = {.b = out};
	jz_open(&z, '{');
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
	jz_close(&z, '}');
}

void jsonizer_meta(const et_meta *m, et_buf *out)
{
	jz z = {.b = out};
	jz_open(&z, '{');
	str_field(&z, "version", m->version);
	attrs(&z, m->attr, m->n_attr);
	jz_close(&z, '}');
}

const et_writer_layout jsonizer_layout = {"jsonizer", "--ranks R", jsonizer_meta, jsonizer_node};
