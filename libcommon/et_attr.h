/* et_attr: typed access to node attributes and enum names.
 *
 * Getters accept any integer oneof member (int32/int64/uint32/uint64/sint32/sint64/
 * fixed32/fixed64, bool), as ASTRA-sim's reader does; a float member or a list does not
 * count as an integer. Setters write the member doc/chakra-et.md names for the
 * well-known attributes (e.g. comm_type -> int64_val). */
#ifndef ET_ATTR_H
#define ET_ATTR_H

#include "et_codec.h"
#include <stdbool.h>
#include <stdint.h>

/* First attribute with this name, or NULL. */
const et_attr *et_attr_find(const et_node *n, const char *name);
/* True and *v set when the attribute exists and holds an integer member. */
bool et_attr_int(const et_node *n, const char *name, int64_t *v);
bool et_attr_uint(const et_node *n, const char *name, uint64_t *v);
bool et_attr_bool(const et_node *n, const char *name, bool *v);
/* The string_val, or NULL. */
const char *et_attr_str(const et_node *n, const char *name);
/* Inline: graph building asks this of every attribute of every node. */
#define ET_ATTR_C(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x
/* True if a holds an integer-like member. */
static inline bool et_attr_is_int(const et_attr *a)
{
	switch (a->value_case) {
	case ET_ATTR_C(INT32_VAL):
	case ET_ATTR_C(INT64_VAL):
	case ET_ATTR_C(UINT32_VAL):
	case ET_ATTR_C(UINT64_VAL):
	case ET_ATTR_C(SINT32_VAL):
	case ET_ATTR_C(SINT64_VAL):
	case ET_ATTR_C(FIXED32_VAL):
	case ET_ATTR_C(FIXED64_VAL):
	case ET_ATTR_C(SFIXED32_VAL):
	case ET_ATTR_C(SFIXED64_VAL):
	case ET_ATTR_C(BOOL_VAL):
		return true;
	default:
		return false;
	}
}
/* Value of an integer-like member (caller checked et_attr_is_int). */
static inline int64_t et_attr_as_i64(const et_attr *a)
{
	switch (a->value_case) {
	case ET_ATTR_C(INT32_VAL):
		return a->int32_val;
	case ET_ATTR_C(INT64_VAL):
		return a->int64_val;
	case ET_ATTR_C(UINT32_VAL):
		return a->uint32_val;
	case ET_ATTR_C(UINT64_VAL):
		return (int64_t)a->uint64_val;
	case ET_ATTR_C(SINT32_VAL):
		return a->sint32_val;
	case ET_ATTR_C(SINT64_VAL):
		return a->sint64_val;
	case ET_ATTR_C(FIXED32_VAL):
		return a->fixed32_val;
	case ET_ATTR_C(FIXED64_VAL):
		return (int64_t)a->fixed64_val;
	case ET_ATTR_C(SFIXED32_VAL):
		return a->sfixed32_val;
	case ET_ATTR_C(SFIXED64_VAL):
		return a->sfixed64_val;
	case ET_ATTR_C(BOOL_VAL):
		return a->bool_val ? 1 : 0;
	default:
		return 0;
	}
}
#undef ET_ATTR_C

/* The oneof member a well-known attribute must use, or 0 if name is not
 * well-known (ChakraProtoMsg__AttributeProto__ValueCase values). */
int et_attr_expected_case(const char *name);
/* Name of a oneof member ("int64_val"), "" for none. */
const char *et_attr_case_name(int value_case);

/* Append a new attribute to n (arena memory). */
et_attr *et_attr_push(et_arena *a, et_node *n, const char *name);
void et_attr_set_int64(et_arena *a, et_node *n, const char *name, int64_t v);
void et_attr_set_uint64(et_arena *a, et_node *n, const char *name, uint64_t v);
void et_attr_set_int32(et_arena *a, et_node *n, const char *name, int32_t v);
void et_attr_set_bool(et_arena *a, et_node *n, const char *name, bool v);
void et_attr_set_str(et_arena *a, et_node *n, const char *name, const char *v);
/* A string_list of count strings (copied into a). */
void et_attr_set_strlist(et_arena *a, et_node *n, const char *name, const char *const *v,
                         size_t count);
/* Sets a well-known integer attribute with the member doc/chakra-et.md names. */
void et_attr_set_known_int(et_arena *a, et_node *n, const char *name, int64_t v);

#endif
