/* The reference generator's one_metadata_node_all_types node: one
 * attribute per oneof member, the scalars with a doc_string (fixed* and
 * sfixed* and bytes without, as the reference writes them). */
#include "et-synth/gen/refgen.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_types.h"

#include <stdio.h>
#include <string.h>

#define C(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

/* Arena copy of a values array. */
static void *dup(et_arena *a, const void *p, size_t n)
{
	void *q = et_arena_alloc(a, n);
	memcpy(q, p, n);
	return q;
}

/* A list attribute: allocate the XxxList message, init it, fill values. */
#define LIST(a, at, Type, init, member, vals)                                                      \
	do {                                                                                       \
		ChakraProtoMsg__##Type *l = et_arena_alloc(a, sizeof *l);                          \
		init(l);                                                                           \
		l->n_values = sizeof vals / sizeof vals[0];                                        \
		l->values = dup(a, vals, sizeof vals);                                             \
		(at)->member = l;                                                                  \
	} while (0)

static et_attr *scalar(et_arena *a, et_node *n, const char *name, bool doc, int vcase)
{
	et_attr *at = et_attr_push(a, n, name);
	if (doc)
		at->doc_string = at->name;
	at->value_case = vcase;
	return at;
}

static void floats(et_arena *a, et_node *n)
{
	static const double d[] = {1.2345, 2.3456};
	static const float f[] = {1.2345f, 2.3456f};
	scalar(a, n, "double", true, C(DOUBLE_VAL))->double_val = 1.2345;
	LIST(a, scalar(a, n, "double_list", false, C(DOUBLE_LIST)), DoubleList,
	     chakra_proto_msg__double_list__init, double_list, d);
	scalar(a, n, "float", true, C(FLOAT_VAL))->float_val = 1.2345f;
	LIST(a, scalar(a, n, "float_list", false, C(FLOAT_LIST)), FloatList,
	     chakra_proto_msg__float_list__init, float_list, f);
}

static void varints(et_arena *a, et_node *n)
{
	static const int32_t i32[] = {12345, 23456}, s32[] = {12345, -23456};
	static const int64_t i64[] = {9876543210, 1234567890}, s64[] = {9876543210, -1234567890};
	static const uint32_t u32[] = {12345, 23456};
	static const uint64_t u64[] = {9876543210, 1234567890};
	scalar(a, n, "int32", true, C(INT32_VAL))->int32_val = 12345;
	LIST(a, scalar(a, n, "int32_list", false, C(INT32_LIST)), Int32List,
	     chakra_proto_msg__int32_list__init, int32_list, i32);
	scalar(a, n, "int64", true, C(INT64_VAL))->int64_val = 9876543210;
	LIST(a, scalar(a, n, "int64_list", false, C(INT64_LIST)), Int64List,
	     chakra_proto_msg__int64_list__init, int64_list, i64);
	scalar(a, n, "uint32", true, C(UINT32_VAL))->uint32_val = 12345;
	LIST(a, scalar(a, n, "uint32_list", false, C(UINT32_LIST)), Uint32List,
	     chakra_proto_msg__uint32_list__init, uint32_list, u32);
	scalar(a, n, "uint64", true, C(UINT64_VAL))->uint64_val = 9876543210;
	LIST(a, scalar(a, n, "uint64_list", false, C(UINT64_LIST)), Uint64List,
	     chakra_proto_msg__uint64_list__init, uint64_list, u64);
	scalar(a, n, "sint32", true, C(SINT32_VAL))->sint32_val = -12345;
	LIST(a, scalar(a, n, "sint32_list", false, C(SINT32_LIST)), Sint32List,
	     chakra_proto_msg__sint32_list__init, sint32_list, s32);
	scalar(a, n, "sint64", true, C(SINT64_VAL))->sint64_val = -9876543210;
	LIST(a, scalar(a, n, "sint64_list", false, C(SINT64_LIST)), Sint64List,
	     chakra_proto_msg__sint64_list__init, sint64_list, s64);
}

static void fixed(et_arena *a, et_node *n)
{
	static const uint32_t f32[] = {12345, 23456};
	static const uint64_t f64[] = {9876543210, 1234567890};
	static const int32_t sf32[] = {12345, -23456};
	static const int64_t sf64[] = {9876543210, -1234567890};
	scalar(a, n, "fixed32", false, C(FIXED32_VAL))->fixed32_val = 12345;
	LIST(a, scalar(a, n, "fixed32_list", false, C(FIXED32_LIST)), Fixed32List,
	     chakra_proto_msg__fixed32_list__init, fixed32_list, f32);
	scalar(a, n, "fixed64", false, C(FIXED64_VAL))->fixed64_val = 9876543210;
	LIST(a, scalar(a, n, "fixed64_list", false, C(FIXED64_LIST)), Fixed64List,
	     chakra_proto_msg__fixed64_list__init, fixed64_list, f64);
	scalar(a, n, "sfixed32", false, C(SFIXED32_VAL))->sfixed32_val = -12345;
	LIST(a, scalar(a, n, "sfixed32_list", false, C(SFIXED32_LIST)), Sfixed32List,
	     chakra_proto_msg__sfixed32_list__init, sfixed32_list, sf32);
	scalar(a, n, "sfixed64", false, C(SFIXED64_VAL))->sfixed64_val = -9876543210;
	LIST(a, scalar(a, n, "sfixed64_list", false, C(SFIXED64_LIST)), Sfixed64List,
	     chakra_proto_msg__sfixed64_list__init, sfixed64_list, sf64);
}

/* bool, string and bytes: the lists hold ten values, i % 2 == 0 and
 * str(12345 + i). */
static void texts(et_arena *a, et_node *n)
{
	protobuf_c_boolean b[10];
	char *s[10];
	ProtobufCBinaryData by[10];
	for (int i = 0; i < 10; i++) {
		char t[16];
		snprintf(t, sizeof t, "%d", 12345 + i);
		b[i] = i % 2 == 0;
		s[i] = et_arena_strdup(a, t);
		by[i].data = (uint8_t *)s[i];
		by[i].len = strlen(t);
	}
	scalar(a, n, "bool", true, C(BOOL_VAL))->bool_val = 1;
	LIST(a, scalar(a, n, "bool_list", false, C(BOOL_LIST)), BoolList,
	     chakra_proto_msg__bool_list__init, bool_list, b);
	scalar(a, n, "string", true, C(STRING_VAL))->string_val = s[0];
	LIST(a, scalar(a, n, "string_list", false, C(STRING_LIST)), StringList,
	     chakra_proto_msg__string_list__init, string_list, s);
	scalar(a, n, "bytes", false, C(BYTES_VAL))->bytes_val = by[0];
	LIST(a, scalar(a, n, "bytes_list", false, C(BYTES_LIST)), BytesList,
	     chakra_proto_msg__bytes_list__init, bytes_list, by);
}

et_node *refgen_metadata_node(et_arena *a, uint64_t id)
{
	et_node *n = et_build_node(a, id, "METADATA_NODE", ET_NODE_METADATA);
	floats(a, n);
	varints(a, n);
	fixed(a, n);
	texts(a, n);
	return n;
}
