/* JSONL: per rank one header line (the line with "metadata"), then one line
 * per node, each with "rank": R. A rank's lines end at the next header line
 * (left in the window for the next rank) or at the end of input. */
#include "et_json_rd.h"

#include <string.h>

static bool is_header(const cJSON *j)
{
	return cJSON_GetObjectItemCaseSensitive(j, "metadata") != NULL;
}

/* The next line's object as a tree: 1, 0 at the end of input, -1. */
static int next_object(et_json_reader *r, cJSON **out, size_t *len, et_error *e)
{
	int w = rd_value(r, len, e);
	if (w <= 0)
		return w;
	if (rd_win(r)[0] != '{')
		return rd_fail(r, 0, e, "expected a JSON object (one per line)");
	*out = rd_parse(r, *len, e);
	return *out ? 1 : -1;
}

static int read_header(et_json_reader *r, const cJSON *j, et_error *e)
{
	if (!is_header(j))
		return rd_fail(r, 0, e, "a node line before any rank header line");
	memset(&r->ri, 0, sizeof r->ri);
	r->hdr_seen = 0;
	for (const cJSON *v = j->child; v; v = v->next)
		if (rd_header_field(r, v->string, v, 0, e) < 0)
			return -1;
	return rd_header_done(r, 0, e);
}

int rd_jsonl_next_rank(et_json_reader *r, et_error *e)
{
	cJSON *j = NULL;
	size_t len;
	int w = next_object(r, &j, &len, e);
	if (w <= 0) {
		if (w == 0)
			r->state = RD_END;
		return w;
	}
	int got = read_header(r, j, e);
	cJSON_Delete(j);
	if (got < 0)
		return -1;
	rd_consume(r, len);
	r->state = RD_NODES;
	return 1;
}

static int check_rank(et_json_reader *r, const cJSON *j, et_error *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "rank");
	uint32_t rank;
	if (!v || cJSON_IsNull(v))
		return 0;
	const char *why = et_json_scalar_from(v, PROTOBUF_C_TYPE_UINT32, &rank, r->arena);
	if (why)
		return rd_fail(r, 0, e, "node: key \"rank\": %s", why);
	if (rank != r->ri.rank)
		return rd_fail(r, 0, e, "a node line of rank %u among the lines of rank %u", rank,
		               r->ri.rank);
	return 0;
}

int rd_jsonl_next_node(et_json_reader *r, et_error *e)
{
	cJSON *j = NULL;
	size_t len;
	int w = next_object(r, &j, &len, e);
	if (w <= 0) {
		if (w == 0)
			r->state = RD_END;
		return w;
	}
	if (is_header(j)) {
		cJSON_Delete(j);
		r->state = RD_RANKS;
		return 0;
	}
	int got = check_rank(r, j, e);
	if (got == 0)
		got = rd_node(r, j, 0, e);
	cJSON_Delete(j);
	if (got < 0)
		return -1;
	rd_consume(r, len);
	return 1;
}
