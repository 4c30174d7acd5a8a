/* Node and metadata -> one-line JSON (protobuf JSON mapping), written
 * straight into the output buffer: no tree, no malloc per node. Default
 * values are left out, as in the mapping; set oneof members, empty lists
 * and present IOInfos are written, since they change the encoding. */
#include "et_attr.h"
#include "et_json_int.h"
#include "et_types.h"

/* Object members: a comma before all but the first. k is a literal with
 * its quotes and colon ("\"id\":"). */
#define KEY(b, first, k)                                                                           \
	do {                                                                                       \
		if (!*(first))                                                                     \
			et_jw_putc((b), ',');                                                      \
		*(first) = false;                                                                  \
		ET_JW_LIT((b), k);                                                                 \
	} while (0)

static void put_list(et_buf *b, const ProtobufCMessage *m)
{
	const ProtobufCFieldDescriptor *f = et_json_list_field(m->descriptor);
	const char *base = (const char *)m;
	size_t n = f ? *(const size_t *)(base + f->quantifier_offset) : 0;
	if (!n) {
		ET_JW_LIT(b, "{}");
		return;
	}
	const char *v = *(const char *const *)(base + f->offset);
	size_t sz = et_json_elem_size(f->type);
	ET_JW_LIT(b, "{\"values\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			et_jw_putc(b, ',');
		et_jw_scalar(b, f->type, v + i * sz);
	}
	ET_JW_LIT(b, "]}");
}

/* The oneof member, unless protobuf-c would not encode it (a NULL list or
 * string), which is the same as not set. */
static void put_member(et_buf *b, bool *first, const et_attr *a)
{
	const ProtobufCFieldDescriptor *f = et_json_attr_field(a);
	if (!f)
		return;
	const void *p = (const char *)a + f->offset;
	bool is_ptr = f->type == PROTOBUF_C_TYPE_MESSAGE || f->type == PROTOBUF_C_TYPE_STRING;
	if (is_ptr && !*(void *const *)p)
		return;
	if (!*first)
		et_jw_putc(b, ',');
	*first = false;
	et_jw_putc(b, '"');
	et_buf_puts(b, et_json_attr_key((int)a->value_case));
	ET_JW_LIT(b, "\":");
	if (f->type == PROTOBUF_C_TYPE_MESSAGE)
		put_list(b, *(const ProtobufCMessage *const *)p);
	else
		et_jw_scalar(b, f->type, p);
}

static void put_attr(et_buf *b, const et_attr *a)
{
	bool first = true;
	et_jw_putc(b, '{');
	if (a->name && *a->name) {
		KEY(b, &first, "\"name\":");
		et_jw_str(b, a->name);
	}
	if (a->doc_string && *a->doc_string) {
		KEY(b, &first, "\"docString\":");
		et_jw_str(b, a->doc_string);
	}
	put_member(b, &first, a);
	et_jw_putc(b, '}');
}

static void put_attrs(et_buf *b, bool *first, et_attr *const *attr, size_t n)
{
	if (!n)
		return;
	KEY(b, first, "\"attr\":[");
	for (size_t i = 0; i < n; i++) {
		if (i)
			et_jw_putc(b, ',');
		put_attr(b, attr[i]);
	}
	et_jw_putc(b, ']');
}

static void put_deps(et_buf *b, const uint64_t *v, size_t n)
{
	et_jw_putc(b, '[');
	for (size_t i = 0; i < n; i++) {
		if (i)
			et_jw_putc(b, ',');
		et_jw_json_u64(b, v[i]);
	}
	et_jw_putc(b, ']');
}

static void put_io(et_buf *b, const ChakraProtoMsg__IOInfo *io)
{
	bool first = true;
	et_jw_putc(b, '{');
	if (io->values && *io->values) {
		KEY(b, &first, "\"values\":");
		et_jw_str(b, io->values);
	}
	if (io->shapes && *io->shapes) {
		KEY(b, &first, "\"shapes\":");
		et_jw_str(b, io->shapes);
	}
	if (io->types && *io->types) {
		KEY(b, &first, "\"types\":");
		et_jw_str(b, io->types);
	}
	et_jw_putc(b, '}');
}

static void put_type(et_buf *b, int type)
{
	const char *name = et_node_type_name(type);
	if (name)
		et_jw_str(b, name);
	else
		et_jw_i64(b, type);
}

/* Fields in field-number order, as the protobuf mapping prints them. */
static void put_node_fields(et_buf *b, bool *first, const et_node *n, bool all)
{
	if (all || n->id) {
		KEY(b, first, "\"id\":");
		et_jw_json_u64(b, n->id);
	}
	if (all || (n->name && *n->name)) {
		KEY(b, first, "\"name\":");
		et_jw_str(b, n->name ? n->name : "");
	}
	if (all || n->type) {
		KEY(b, first, "\"type\":");
		put_type(b, (int)n->type);
	}
	if (all || n->n_ctrl_deps) {
		KEY(b, first, "\"ctrlDeps\":");
		put_deps(b, n->ctrl_deps, n->n_ctrl_deps);
	}
	if (all || n->n_data_deps) {
		KEY(b, first, "\"dataDeps\":");
		put_deps(b, n->data_deps, n->n_data_deps);
	}
	if (all || n->start_time_micros) {
		KEY(b, first, "\"startTimeMicros\":");
		et_jw_json_u64(b, n->start_time_micros);
	}
	if (all || n->duration_micros) {
		KEY(b, first, "\"durationMicros\":");
		et_jw_json_u64(b, n->duration_micros);
	}
	if (n->inputs) {
		KEY(b, first, "\"inputs\":");
		put_io(b, n->inputs);
	}
	if (n->outputs) {
		KEY(b, first, "\"outputs\":");
		put_io(b, n->outputs);
	}
	put_attrs(b, first, n->attr, n->n_attr);
}

void et_json_node_write(const et_node *n, int64_t rank, bool all_fields, et_buf *out)
{
	bool first = true;
	et_jw_putc(out, '{');
	if (rank >= 0) {
		KEY(out, &first, "\"rank\":");
		et_jw_i64(out, rank);
	}
	put_node_fields(out, &first, n, all_fields);
	et_jw_putc(out, '}');
}

void et_json_meta_write(const et_meta *m, et_buf *out)
{
	bool first = true;
	et_jw_putc(out, '{');
	if (m->version && *m->version) {
		KEY(out, &first, "\"version\":");
		et_jw_str(out, m->version);
	}
	put_attrs(out, &first, m->attr, m->n_attr);
	et_jw_putc(out, '}');
}
