/* The AttributeProto oneof, by protobuf-c descriptor, so that one generic
 * path serves all 30 members in writers and readers. */
#include "et_json.h"
#include "et_json_int.h"

#include <string.h>

/* Value types in oneof order: member 3 + 2i is the scalar, 4 + 2i its list. */
static const char *const type_names[] = {
    "double",  "float",   "int32",    "int64",    "uint32", "uint64", "sint32", "sint64",
    "fixed32", "fixed64", "sfixed32", "sfixed64", "bool",   "string", "bytes",
};
enum { N_TYPES = sizeof type_names / sizeof *type_names };

static const char *const attr_keys[2 * N_TYPES] = {
    "doubleVal",  "doubleList",  "floatVal",    "floatList",    "int32Val",    "int32List",
    "int64Val",   "int64List",   "uint32Val",   "uint32List",   "uint64Val",   "uint64List",
    "sint32Val",  "sint32List",  "sint64Val",   "sint64List",   "fixed32Val",  "fixed32List",
    "fixed64Val", "fixed64List", "sfixed32Val", "sfixed32List", "sfixed64Val", "sfixed64List",
    "boolVal",    "boolList",    "stringVal",   "stringList",   "bytesVal",    "bytesList",
};

const char *et_json_attr_key(int value_case)
{
	int i = value_case - 3;
	if (i < 0 || i >= 2 * N_TYPES)
		return NULL;
	return attr_keys[i];
}

/* Accepts the JSON name and the proto name ("int64Val", "int64_val"). */
int et_json_attr_case(const char *key)
{
	for (int i = 0; i < N_TYPES; i++) {
		if (key[0] != type_names[i][0])
			continue;
		size_t l = strlen(type_names[i]);
		if (strncmp(key, type_names[i], l) != 0)
			continue;
		const char *rest = key + l;
		if (strcmp(rest, "Val") == 0 || strcmp(rest, "_val") == 0)
			return 3 + 2 * i;
		if (strcmp(rest, "List") == 0 || strcmp(rest, "_list") == 0)
			return 4 + 2 * i;
	}
	return 0;
}

const ProtobufCFieldDescriptor *et_json_attr_field(const et_attr *a)
{
	if (a->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE__NOT_SET)
		return NULL;
	return protobuf_c_message_descriptor_get_field(
	    &chakra_proto_msg__attribute_proto__descriptor, (unsigned)a->value_case);
}

size_t et_json_elem_size(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_SINT32:
	case PROTOBUF_C_TYPE_SFIXED32:
	case PROTOBUF_C_TYPE_UINT32:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_ENUM:
		return 4;
	case PROTOBUF_C_TYPE_FLOAT:
		return sizeof(float);
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_FIXED64:
		return 8;
	case PROTOBUF_C_TYPE_DOUBLE:
		return sizeof(double);
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_STRING:
		return sizeof(char *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(void *);
	}
	return 0;
}

/* The one repeated field ("values") of an XxxList message. */
const ProtobufCFieldDescriptor *et_json_list_field(const ProtobufCMessageDescriptor *d)
{
	return d->n_fields == 1 && d->fields[0].label == PROTOBUF_C_LABEL_REPEATED ? &d->fields[0]
	                                                                           : NULL;
}
