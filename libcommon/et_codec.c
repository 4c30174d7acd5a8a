#include "et_codec.h"

#include <stdbool.h>
#include <string.h>

/* The first unknown field of m or of one of its sub-messages (depth
 * first); with field0_only, the first whose number is 0. */
static const ProtobufCMessageUnknownField *find_unknown(const ProtobufCMessage *m, bool field0_only)
{
	for (unsigned i = 0; i < m->n_unknown_fields; i++)
		if (!field0_only || m->unknown_fields[i].tag == 0)
			return &m->unknown_fields[i];
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const char *base = (const char *)m;
	for (unsigned f = 0; f < d->n_fields; f++) {
		const ProtobufCFieldDescriptor *fd = &d->fields[f];
		if (fd->type != PROTOBUF_C_TYPE_MESSAGE)
			continue;
		if (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF &&
		    *(const uint32_t *)(base + fd->quantifier_offset) != fd->id)
			continue;
		const ProtobufCMessageUnknownField *u = NULL;
		if (fd->label == PROTOBUF_C_LABEL_REPEATED) {
			size_t n = *(const size_t *)(base + fd->quantifier_offset);
			ProtobufCMessage *const *v =
			    *(ProtobufCMessage *const *const *)(base + fd->offset);
			for (size_t k = 0; k < n && !u; k++)
				u = find_unknown(v[k], field0_only);
		} else {
			const ProtobufCMessage *sub =
			    *(const ProtobufCMessage *const *)(base + fd->offset);
			u = sub ? find_unknown(sub, field0_only) : NULL;
		}
		if (u)
			return u;
	}
	return NULL;
}

/* protobuf-c 1.4 accepts field number 0 when its tag is padded to two
 * bytes ("82 00") and keeps it as an unknown field, which it then writes
 * in a form it rejects. Field 0 is invalid protobuf: refuse it, in every
 * sub-message too. */
static bool has_field0(const ProtobufCMessage *m)
{
	return find_unknown(m, true) != NULL;
}

static bool first_unknown(const ProtobufCMessage *m, uint32_t *field)
{
	const ProtobufCMessageUnknownField *u = find_unknown(m, false);
	if (u)
		*field = u->tag;
	return u != NULL;
}

/* Rather than find_unknown's walk over AttributeProto's 30 oneof members
 * (an eighth of the time of writing JSON), only the member that is set. */
static bool attrs_unknown(et_attr *const *attr, size_t n, uint32_t *field)
{
	for (size_t k = 0; k < n; k++) {
		const et_attr *a = attr[k];
		if (a->base.n_unknown_fields)
			return first_unknown(&a->base, field);
		if (!a->value_case)
			continue;
		const ProtobufCFieldDescriptor *fd =
		    protobuf_c_message_descriptor_get_field(a->base.descriptor, a->value_case);
		if (fd && fd->type == PROTOBUF_C_TYPE_MESSAGE) {
			const ProtobufCMessage *sub =
			    *(const ProtobufCMessage *const *)((const char *)a + fd->offset);
			if (sub && first_unknown(sub, field))
				return true;
		}
	}
	return false;
}

bool et_node_unknown(const et_node *n, uint32_t *field)
{
	return (n->base.n_unknown_fields && first_unknown(&n->base, field)) ||
	       (n->inputs && first_unknown(&n->inputs->base, field)) ||
	       (n->outputs && first_unknown(&n->outputs->base, field)) ||
	       attrs_unknown(n->attr, n->n_attr, field);
}

bool et_meta_unknown(const et_meta *m, uint32_t *field)
{
	return (m->base.n_unknown_fields && first_unknown(&m->base, field)) ||
	       attrs_unknown(m->attr, m->n_attr, field);
}

/* A field-0 tag padded to k >= 2 bytes ends in 0x00 after a byte in
 * 0x80..0x87, so bytes without that pair cannot hold one. memchr makes this
 * test far cheaper than the walk, which then runs on few nodes. */
static bool may_have_field0(const uint8_t *p, size_t n)
{
	if (!n) /* p may be NULL: no arithmetic on it */
		return false;
	const uint8_t *end = p + n;
	for (const uint8_t *q = p; q < end && (q = memchr(q, 0, (size_t)(end - q))); q++)
		if (q > p && (q[-1] & 0xf8) == 0x80)
			return true;
	return false;
}

et_node *et_node_decode(et_arena *a, const uint8_t *p, size_t n)
{
	et_node *m = chakra_proto_msg__node__unpack(et_arena_pb(a), n, p);
	return m && may_have_field0(p, n) && has_field0(&m->base) ? NULL : m;
}

et_meta *et_meta_decode(et_arena *a, const uint8_t *p, size_t n)
{
	et_meta *m = chakra_proto_msg__global_metadata__unpack(et_arena_pb(a), n, p);
	return m && may_have_field0(p, n) && has_field0(&m->base) ? NULL : m;
}

int et_varint_get(const uint8_t *p, size_t avail, uint64_t *v)
{
	uint64_t x = 0;
	for (int i = 0; i < 10; i++) {
		if ((size_t)i >= avail)
			return 0;
		uint64_t byte = p[i];
		/* The tenth byte may carry only the top bit of a 64-bit value. */
		if (i == 9 && byte > 1)
			return -1;
		x |= (byte & 0x7f) << (7 * i);
		if (!(byte & 0x80)) {
			*v = x;
			return i + 1;
		}
	}
	return -1;
}

int et_varint_put(uint8_t *p, uint64_t v)
{
	int n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

bool et_cursor_varint(et_cursor *c, uint64_t *v)
{
	int k = c->pos < c->n ? et_varint_get(c->p + c->pos, c->n - c->pos, v) : 0;
	if (k <= 0)
		return false;
	c->pos += (size_t)k;
	return true;
}

void et_frame_put(et_buf *out, const uint8_t *p, size_t n)
{
	et_buf_reserve(out, n + 10);
	out->len += (size_t)et_varint_put(out->data + out->len, n);
	if (n) /* an empty message may come with no bytes at all (NULL) */
		memcpy(out->data + out->len, p, n);
	out->len += n;
}

static void encode_msg(const ProtobufCMessage *m, et_buf *out)
{
	size_t n = protobuf_c_message_get_packed_size(m);
	et_buf_reserve(out, n + 10);
	out->len += (size_t)et_varint_put(out->data + out->len, n);
	out->len += protobuf_c_message_pack(m, out->data + out->len);
}

static void pack_msg(const ProtobufCMessage *m, et_buf *out)
{
	size_t n = protobuf_c_message_get_packed_size(m);
	et_buf_reserve(out, n);
	out->len += protobuf_c_message_pack(m, out->data + out->len);
}

void et_node_pack(const et_node *n, et_buf *out)
{
	pack_msg(&n->base, out);
}

void et_meta_pack(const et_meta *m, et_buf *out)
{
	pack_msg(&m->base, out);
}

void et_node_encode(const et_node *n, et_buf *out)
{
	encode_msg(&n->base, out);
}

void et_meta_encode(const et_meta *m, et_buf *out)
{
	encode_msg(&m->base, out);
}

et_node *et_node_new(et_arena *a)
{
	et_node *n = et_arena_alloc(a, sizeof *n);
	chakra_proto_msg__node__init(n);
	return n;
}

et_meta *et_meta_new(et_arena *a)
{
	et_meta *m = et_arena_alloc(a, sizeof *m);
	chakra_proto_msg__global_metadata__init(m);
	return m;
}

ChakraProtoMsg__IOInfo *et_ioinfo_new(et_arena *a)
{
	ChakraProtoMsg__IOInfo *io = et_arena_alloc(a, sizeof *io);
	chakra_proto_msg__ioinfo__init(io);
	return io;
}
