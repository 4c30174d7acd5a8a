#include "et_attr.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define C(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

const et_attr *et_attr_find(const et_node *n, const char *name)
{
	for (size_t i = 0; i < n->n_attr; i++)
		if (n->attr[i]->name && strcmp(n->attr[i]->name, name) == 0)
			return n->attr[i];
	return NULL;
}

bool et_attr_int(const et_node *n, const char *name, int64_t *v)
{
	const et_attr *a = et_attr_find(n, name);
	if (!a || !et_attr_is_int(a))
		return false;
	*v = et_attr_as_i64(a);
	return true;
}

bool et_attr_uint(const et_node *n, const char *name, uint64_t *v)
{
	int64_t x;
	if (!et_attr_int(n, name, &x))
		return false;
	*v = (uint64_t)x;
	return true;
}

bool et_attr_bool(const et_node *n, const char *name, bool *v)
{
	int64_t x;
	if (!et_attr_int(n, name, &x))
		return false;
	*v = x != 0;
	return true;
}

const char *et_attr_str(const et_node *n, const char *name)
{
	const et_attr *a = et_attr_find(n, name);
	return a && a->value_case == C(STRING_VAL) ? a->string_val : NULL;
}

static const struct {
	const char *name;
	int value_case;
} known[] = {
    {"is_cpu_op", C(BOOL_VAL)},  {"num_ops", C(INT64_VAL)},      {"tensor_size", C(UINT64_VAL)},
    {"comm_type", C(INT64_VAL)}, {"comm_size", C(INT64_VAL)},    {"comm_src", C(INT32_VAL)},
    {"comm_dst", C(INT32_VAL)},  {"comm_tag", C(INT32_VAL)},     {"comm_priority", C(INT32_VAL)},
    {"pg_name", C(STRING_VAL)},  {"involved_dim", C(BOOL_LIST)},
};

int et_attr_expected_case(const char *name)
{
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(known[i].name, name) == 0)
			return known[i].value_case;
	return 0;
}

const char *et_attr_case_name(int value_case)
{
	const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(
	    &chakra_proto_msg__attribute_proto__descriptor, (unsigned)value_case);
	return f ? f->name : "";
}

et_attr *et_attr_push(et_arena *a, et_node *n, const char *name)
{
	et_attr *at = et_arena_alloc(a, sizeof *at);
	chakra_proto_msg__attribute_proto__init(at);
	at->name = et_arena_strdup(a, name);
	/* The array may come from the decoder, sized exactly: copy it. Nodes
	 * carry about ten attributes, so the quadratic copy costs nothing. */
	et_attr **na = et_arena_alloc(a, (n->n_attr + 1) * sizeof *na);
	if (n->n_attr)
		memcpy(na, n->attr, n->n_attr * sizeof *na);
	n->attr = na;
	n->attr[n->n_attr++] = at;
	return at;
}

void et_attr_set_int64(et_arena *a, et_node *n, const char *name, int64_t v)
{
	et_attr *at = et_attr_push(a, n, name);
	at->value_case = C(INT64_VAL);
	at->int64_val = v;
}

void et_attr_set_uint64(et_arena *a, et_node *n, const char *name, uint64_t v)
{
	et_attr *at = et_attr_push(a, n, name);
	at->value_case = C(UINT64_VAL);
	at->uint64_val = v;
}

void et_attr_set_int32(et_arena *a, et_node *n, const char *name, int32_t v)
{
	et_attr *at = et_attr_push(a, n, name);
	at->value_case = C(INT32_VAL);
	at->int32_val = v;
}

void et_attr_set_bool(et_arena *a, et_node *n, const char *name, bool v)
{
	et_attr *at = et_attr_push(a, n, name);
	at->value_case = C(BOOL_VAL);
	at->bool_val = v;
}

void et_attr_set_str(et_arena *a, et_node *n, const char *name, const char *v)
{
	et_attr *at = et_attr_push(a, n, name);
	at->value_case = C(STRING_VAL);
	at->string_val = et_arena_strdup(a, v);
}

void et_attr_set_strlist(et_arena *a, et_node *n, const char *name, const char *const *v,
                         size_t count)
{
	et_attr *at = et_attr_push(a, n, name);
	ChakraProtoMsg__StringList *l = et_arena_alloc(a, sizeof *l);
	chakra_proto_msg__string_list__init(l);
	l->n_values = count;
	l->values = count ? et_arena_alloc(a, count * sizeof *l->values) : NULL;
	for (size_t i = 0; i < count; i++)
		l->values[i] = et_arena_strdup(a, v[i]);
	at->value_case = C(STRING_LIST);
	at->string_list = l;
}

void et_attr_set_known_int(et_arena *a, et_node *n, const char *name, int64_t v)
{
	switch (et_attr_expected_case(name)) {
	case C(INT32_VAL):
		et_attr_set_int32(a, n, name, (int32_t)v);
		break;
	case C(UINT64_VAL):
		et_attr_set_uint64(a, n, name, (uint64_t)v);
		break;
	case C(BOOL_VAL):
		et_attr_set_bool(a, n, name, v != 0);
		break;
	default:
		et_attr_set_int64(a, n, name, v);
		break;
	}
}
