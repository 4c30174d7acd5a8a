/* The reader's messages: rank header fields, and trees -> canonical bytes
 * (protobuf-c pack, no length prefix). */
#include "et_json_rd.h"

#include <string.h>

enum { H_RANK = 1, H_WORLD = 2, H_NAME = 4, H_META = 8 };

static int encode(et_json_reader *r, const ProtobufCMessage *m, et_buf *out, size_t pos,
                  et_error *e)
{
	size_t n = protobuf_c_message_get_packed_size(m);
	if (n > r->max_msg)
		return rd_fail(r, pos, e, "message of %zu bytes is over the limit of %llu", n,
		               (unsigned long long)r->max_msg);
	out->len = 0;
	et_buf_reserve(out, n);
	out->len = protobuf_c_message_pack(m, out->data);
	return 0;
}

static int header_u32(et_json_reader *r, const char *key, const cJSON *v, size_t pos, uint32_t *out,
                      et_error *e)
{
	const char *why = et_json_scalar_from(v, PROTOBUF_C_TYPE_UINT32, out, r->arena);
	return why ? rd_fail(r, pos, e, "key \"%s\": %s", key, why) : 0;
}

static int header_name(et_json_reader *r, const cJSON *v, size_t pos, et_error *e)
{
	if (!cJSON_IsString(v))
		return rd_fail(r, pos, e, "key \"name\": expected a string");
	if (strlen(v->valuestring) >= sizeof r->ri.name)
		return rd_fail(r, pos, e, "key \"name\": longer than %zu bytes",
		               sizeof r->ri.name - 1);
	strcpy(r->ri.name, v->valuestring);
	return 0;
}

static int header_meta(et_json_reader *r, const cJSON *v, size_t pos, et_error *e)
{
	et_meta *m;
	et_arena_reset(r->arena);
	if (et_json_meta_from(v, r->arena, &m, e) < 0)
		return rd_fail_msg(r, pos, e);
	r->meta_off = rd_offset(r) + pos;
	return encode(r, &m->base, &r->meta, pos, e);
}

int rd_header_field(et_json_reader *r, const char *key, const cJSON *v, size_t pos, et_error *e)
{
	static const char *const keys[] = {"rank", "world_size", "name", "metadata"};
	unsigned bit = 0;
	for (unsigned i = 0; i < 4 && !bit; i++)
		if (strcmp(key, keys[i]) == 0)
			bit = 1u << i;
	if (!bit)
		return rd_fail(r, pos, e, "key \"%.64s\": unknown key in a rank header", key);
	if (r->hdr_seen & bit)
		return rd_fail(r, pos, e, "key \"%s\": given twice", key);
	r->hdr_seen |= bit;
	switch (bit) {
	case H_RANK:
		return header_u32(r, key, v, pos, &r->ri.rank, e);
	case H_WORLD:
		return header_u32(r, key, v, pos, &r->ri.world_size, e);
	case H_NAME:
		return header_name(r, v, pos, e);
	default:
		return header_meta(r, v, pos, e);
	}
}

int rd_header_done(et_json_reader *r, size_t pos, et_error *e)
{
	if (!(r->hdr_seen & H_RANK))
		return rd_fail(r, pos, e, "rank header without \"rank\"");
	if (!(r->hdr_seen & H_META))
		return rd_fail(r, pos, e, "rank %u: header without \"metadata\"", r->ri.rank);
	r->ri.input = et_src_name(r->src);
	r->ri.format = ET_FMT_JSON;
	r->in_rank = true;
	r->meta_pending = true;
	r->index = 0;
	r->n_nodes = 0;
	return 0;
}

int rd_node(et_json_reader *r, const cJSON *j, size_t pos, et_error *e)
{
	et_node *n;
	et_arena_reset(r->arena);
	if (et_json_node_from(j, r->arena, &n, e) < 0)
		return rd_fail_msg(r, pos, e);
	r->msg_off = rd_offset(r) + pos;
	return encode(r, &n->base, &r->msg, pos, e);
}
