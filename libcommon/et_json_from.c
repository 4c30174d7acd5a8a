/* cJSON tree -> Node / GlobalMetadata in arena memory. What decides the
 * canonical bytes is kept: a oneof member present in the JSON is set (even
 * to zero, even an empty list), an "inputs"/"outputs" object present is an
 * IOInfo (even empty), null means absent. Keys are the JSON names or the
 * proto names; unknown or repeated keys are errors. */
#include "et_attr.h"
#include "et_json_int.h"
#include "et_types.h"

#include <stdio.h>
#include <string.h>

typedef struct ctx {
	et_arena *a;
	et_error *e;
	const char *what; /* "node", "metadata" */
	long attr;        /* index of the attribute being read, or -1 */
} ctx;

/* "node: attr[3]: key "int64Val": expected an integer" */
static int bad(ctx *c, const char *key, long idx, const char *why)
{
	char where[64], k[48];
	if (c->attr >= 0)
		snprintf(where, sizeof where, "%s: attr[%ld]", c->what, c->attr);
	else
		snprintf(where, sizeof where, "%s", c->what);
	if (!key)
		return et_fail(c->e, ET_EXIT_DATA, "%s: %s", where, why);
	if (idx >= 0)
		snprintf(k, sizeof k, "[%ld]", idx);
	else
		k[0] = 0;
	return et_fail(c->e, ET_EXIT_DATA, "%s: key \"%.64s\"%s: %s", where, key, k, why);
}

/* Per node and attribute, so the first byte filters before strcmp. */
static bool key_is(const char *k, const char *name)
{
	return k[0] == name[0] && strcmp(k, name) == 0;
}

static int scalar(ctx *c, const cJSON *v, ProtobufCType t, void *dst)
{
	const char *why = et_json_scalar_from(v, t, dst, c->a);
	return why ? bad(c, v->string, -1, why) : 0;
}

/* A JSON array -> n elements of type t in arena memory. */
static int array(ctx *c, const cJSON *v, ProtobufCType t, void **out, size_t *n)
{
	if (!cJSON_IsArray(v))
		return bad(c, v->string, -1, "expected an array");
	size_t cnt = 0, sz = et_json_elem_size(t);
	for (const cJSON *x = v->child; x; x = x->next)
		cnt++;
	char *p = cnt ? et_arena_alloc(c->a, cnt * sz) : NULL;
	size_t i = 0;
	for (const cJSON *x = v->child; x; x = x->next, i++) {
		const char *why = et_json_scalar_from(x, t, p + i * sz, c->a);
		if (why)
			return bad(c, v->string, (long)i, why);
	}
	*out = p;
	*n = cnt;
	return 0;
}

/* An XxxList message: {} or {"values": [...]}. */
static int list(ctx *c, const cJSON *v, const ProtobufCMessageDescriptor *d, void **out)
{
	if (!cJSON_IsObject(v))
		return bad(c, v->string, -1, "expected an object {\"values\": [...]}");
	const ProtobufCFieldDescriptor *f = et_json_list_field(d);
	char *m = et_arena_alloc(c->a, d->sizeof_message);
	protobuf_c_message_init(d, m);
	for (const cJSON *x = v->child; x; x = x->next) {
		if (strcmp(x->string, "values") != 0 || x != v->child || x->next)
			return bad(c, v->string, -1, "expected only the key \"values\"");
		if (cJSON_IsNull(x))
			continue;
		void *vals;
		size_t n;
		if (array(c, x, f->type, &vals, &n) < 0)
			return -1;
		*(size_t *)(m + f->quantifier_offset) = n;
		*(void **)(m + f->offset) = vals;
	}
	*out = m;
	return 0;
}

static int member(ctx *c, const cJSON *v, int value_case, et_attr *at)
{
	if (at->value_case != CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE__NOT_SET)
		return bad(c, v->string, -1, "a second value (an attribute holds one)");
	at->value_case = (ChakraProtoMsg__AttributeProto__ValueCase)value_case;
	const ProtobufCFieldDescriptor *f = et_json_attr_field(at);
	void *dst = (char *)at + f->offset;
	if (f->type == PROTOBUF_C_TYPE_MESSAGE)
		return list(c, v, f->descriptor, dst);
	return scalar(c, v, f->type, dst);
}

static int attr_from(ctx *c, const cJSON *o, et_attr *at)
{
	if (!cJSON_IsObject(o))
		return bad(c, NULL, -1, "expected an object");
	bool got_name = false, got_doc = false;
	for (const cJSON *v = o->child; v; v = v->next) {
		const char *k = v->string;
		int vc = 0;
		bool *got = key_is(k, "name")                                   ? &got_name
		            : key_is(k, "docString") || key_is(k, "doc_string") ? &got_doc
		                                                                : NULL;
		char **str = got == &got_name ? &at->name : got ? &at->doc_string : NULL;
		if (!str && !(vc = et_json_attr_case(k)))
			return bad(c, k, -1, "unknown key");
		if (got && *got)
			return bad(c, k, -1, "given twice");
		if (got)
			*got = true;
		if (cJSON_IsNull(v))
			continue;
		if (str ? scalar(c, v, PROTOBUF_C_TYPE_STRING, str) : member(c, v, vc, at))
			return -1;
	}
	return 0;
}

static int attrs_from(ctx *c, const cJSON *v, et_attr ***out, size_t *n)
{
	if (!cJSON_IsArray(v))
		return bad(c, v->string, -1, "expected an array of attribute objects");
	size_t cnt = 0;
	for (const cJSON *x = v->child; x; x = x->next)
		cnt++;
	et_attr **arr = cnt ? et_arena_alloc(c->a, cnt * sizeof *arr) : NULL;
	et_attr *at = cnt ? et_arena_alloc(c->a, cnt * sizeof *at) : NULL;
	ctx sub = *c;
	size_t i = 0;
	for (const cJSON *x = v->child; x; x = x->next, i++) {
		chakra_proto_msg__attribute_proto__init(&at[i]);
		arr[i] = &at[i];
		sub.attr = (long)i;
		if (attr_from(&sub, x, &at[i]) < 0)
			return -1;
	}
	*out = arr;
	*n = cnt;
	return 0;
}

static int io_from(ctx *c, const cJSON *v, ChakraProtoMsg__IOInfo **out)
{
	if (!cJSON_IsObject(v))
		return bad(c, v->string, -1, "expected an object");
	ChakraProtoMsg__IOInfo *io = et_ioinfo_new(c->a);
	for (const cJSON *x = v->child; x; x = x->next) {
		char **dst = strcmp(x->string, "values") == 0   ? &io->values
		             : strcmp(x->string, "shapes") == 0 ? &io->shapes
		             : strcmp(x->string, "types") == 0  ? &io->types
		                                                : NULL;
		if (!dst)
			return bad(c, v->string, -1, "unknown key (values, shapes, types)");
		if (!cJSON_IsNull(x) && scalar(c, x, PROTOBUF_C_TYPE_STRING, dst) < 0)
			return -1;
	}
	*out = io;
	return 0;
}

static int type_from(ctx *c, const cJSON *v, ChakraProtoMsg__NodeType *out)
{
	int t;
	if (cJSON_IsString(v)) {
		if ((t = et_node_type_parse(v->valuestring)) < 0)
			return bad(c, v->string, -1, "unknown node type");
	} else if (scalar(c, v, PROTOBUF_C_TYPE_ENUM, &t) < 0) {
		return -1;
	}
	*out = (ChakraProtoMsg__NodeType)t;
	return 0;
}

enum { K_RANK, K_ID, K_NAME, K_TYPE, K_CTRL, K_DATA, K_START, K_DUR, K_IN, K_OUT, K_ATTR };

static const char *const node_keys[][2] = {
    [K_RANK] = {"rank", "rank"},
    [K_ID] = {"id", "id"},
    [K_NAME] = {"name", "name"},
    [K_TYPE] = {"type", "type"},
    [K_CTRL] = {"ctrlDeps", "ctrl_deps"},
    [K_DATA] = {"dataDeps", "data_deps"},
    [K_START] = {"startTimeMicros", "start_time_micros"},
    [K_DUR] = {"durationMicros", "duration_micros"},
    [K_IN] = {"inputs", "inputs"},
    [K_OUT] = {"outputs", "outputs"},
    [K_ATTR] = {"attr", "attr"},
};

static int node_key(const char *k)
{
	for (int i = 0; i < (int)(sizeof node_keys / sizeof *node_keys); i++)
		if (key_is(k, node_keys[i][0]) || key_is(k, node_keys[i][1]))
			return i;
	return -1;
}

static int node_field(ctx *c, const cJSON *v, int k, et_node *n)
{
	void *p;
	switch (k) {
	case K_RANK: /* the JSONL reader checks it */
		return 0;
	case K_ID:
		return scalar(c, v, PROTOBUF_C_TYPE_UINT64, &n->id);
	case K_NAME:
		return scalar(c, v, PROTOBUF_C_TYPE_STRING, &n->name);
	case K_TYPE:
		return type_from(c, v, &n->type);
	case K_CTRL:
		if (array(c, v, PROTOBUF_C_TYPE_UINT64, &p, &n->n_ctrl_deps) < 0)
			return -1;
		n->ctrl_deps = p;
		return 0;
	case K_DATA:
		if (array(c, v, PROTOBUF_C_TYPE_UINT64, &p, &n->n_data_deps) < 0)
			return -1;
		n->data_deps = p;
		return 0;
	case K_START:
		return scalar(c, v, PROTOBUF_C_TYPE_UINT64, &n->start_time_micros);
	case K_DUR:
		return scalar(c, v, PROTOBUF_C_TYPE_UINT64, &n->duration_micros);
	case K_IN:
		return io_from(c, v, &n->inputs);
	case K_OUT:
		return io_from(c, v, &n->outputs);
	default:
		return attrs_from(c, v, &n->attr, &n->n_attr);
	}
}

int et_json_node_from(const cJSON *o, et_arena *a, et_node **out, et_error *e)
{
	ctx c = {a, e, "node", -1};
	if (!cJSON_IsObject(o))
		return et_fail(e, ET_EXIT_DATA, "node: expected a JSON object");
	et_node *n = et_node_new(a);
	unsigned seen = 0;
	for (const cJSON *v = o->child; v; v = v->next) {
		int k = node_key(v->string);
		if (k < 0)
			return bad(&c, v->string, -1, "unknown key");
		if (seen & (1u << k))
			return bad(&c, v->string, -1, "given twice");
		seen |= 1u << k;
		if (!cJSON_IsNull(v) && node_field(&c, v, k, n) < 0)
			return -1;
	}
	*out = n;
	return 0;
}

int et_json_meta_from(const cJSON *o, et_arena *a, et_meta **out, et_error *e)
{
	ctx c = {a, e, "metadata", -1};
	if (!cJSON_IsObject(o))
		return et_fail(e, ET_EXIT_DATA, "metadata: expected a JSON object");
	et_meta *m = et_meta_new(a);
	bool got_version = false, got_attr = false;
	for (const cJSON *v = o->child; v; v = v->next) {
		bool is_version = strcmp(v->string, "version") == 0;
		if (!is_version && strcmp(v->string, "attr") != 0)
			return bad(&c, v->string, -1, "unknown key (version, attr)");
		bool *got = is_version ? &got_version : &got_attr;
		if (*got)
			return bad(&c, v->string, -1, "given twice");
		*got = true;
		if (cJSON_IsNull(v))
			continue;
		if (is_version ? scalar(&c, v, PROTOBUF_C_TYPE_STRING, &m->version)
		               : attrs_from(&c, v, &m->attr, &m->n_attr))
			return -1;
	}
	*out = m;
	return 0;
}
