#include "et_types.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Enum names come from the generated descriptors, so they cannot drift
 * from the schema. */
static const char *enum_name(const ProtobufCEnumDescriptor *d, int v)
{
	const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value(d, v);
	return ev ? ev->name : NULL;
}

/* Compare ignoring case, '_' and '-', so "all-reduce", "AllReduce" and
 * "ALL_REDUCE" are one name. */
static bool loose_eq(const char *a, const char *b)
{
	for (;;) {
		while (*a == '_' || *a == '-')
			a++;
		while (*b == '_' || *b == '-')
			b++;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
		if (!*a)
			return true;
		a++;
		b++;
	}
}

static int enum_parse(const ProtobufCEnumDescriptor *d, const char *s, const char *suffix)
{
	for (unsigned i = 0; i < d->n_values; i++) {
		const char *full = d->values[i].name;
		if (loose_eq(full, s))
			return d->values[i].value;
		size_t fl = strlen(full), sl = strlen(suffix);
		if (sl && fl > sl && strcmp(full + fl - sl, suffix) == 0) {
			char shortn[64];
			snprintf(shortn, sizeof shortn, "%.*s", (int)(fl - sl), full);
			if (loose_eq(shortn, s))
				return d->values[i].value;
		}
	}
	return -1;
}

const char *et_node_type_name(int t)
{
	return enum_name(&chakra_proto_msg__node_type__descriptor, t);
}

int et_node_type_parse(const char *s)
{
	return enum_parse(&chakra_proto_msg__node_type__descriptor, s, "_NODE");
}

const char *et_coll_type_name(int t)
{
	return enum_name(&chakra_proto_msg__collective_comm_type__descriptor, t);
}

int et_coll_type_parse(const char *s)
{
	return enum_parse(&chakra_proto_msg__collective_comm_type__descriptor, s, "");
}

bool et_astra_supports_coll(int ctype)
{
	switch (ctype) {
	case ET_COLL_ALL_REDUCE:
	case ET_COLL_ALL_TO_ALL:
	case ET_COLL_ALL_GATHER:
	case ET_COLL_REDUCE_SCATTER:
	case ET_COLL_BROADCAST:
		return true;
	default:
		return false;
	}
}
