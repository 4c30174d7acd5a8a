/* Our JSON document, walked one value at a time:
 *   {"ranks": [{"rank": R, ..., "metadata": {...}, "nodes": [{...}, ...]}, ...]}
 * The header keys of a rank come before "nodes"; nothing may follow it. */
#include "et_json_rd.h"

#include <stdio.h>
#include <string.h>

/* The key at the window start, decoded, and its ':'. */
static int read_key(et_json_reader *r, char *key, size_t cap, et_error *e)
{
	size_t len;
	int w = rd_value(r, &len, e);
	if (w <= 0)
		return w < 0 ? -1 : rd_fail(r, 0, e, "unexpected end of input (expected a key)");
	if (rd_win(r)[0] != '"')
		return rd_fail(r, 0, e, "expected a key string");
	cJSON *j = rd_parse(r, len, e);
	if (!j)
		return -1;
	snprintf(key, cap, "%s", j->valuestring);
	cJSON_Delete(j);
	rd_consume(r, len);
	return rd_expect(r, ':', "':' after a key", e);
}

/* One header value: parsed as a tree under its key's name. */
static int header_value(et_json_reader *r, const char *key, et_error *e)
{
	size_t len;
	int w = rd_value(r, &len, e);
	if (w <= 0)
		return w < 0 ? -1 : rd_fail(r, 0, e, "unexpected end of input (expected a value)");
	cJSON *j = rd_parse(r, len, e);
	if (!j)
		return -1;
	int got = rd_header_field(r, key, j, 0, e);
	cJSON_Delete(j);
	rd_consume(r, len);
	return got;
}

/* The rank object's keys up to "nodes" (or its end). */
static int rank_header(et_json_reader *r, et_error *e)
{
	char key[80];
	for (int i = 0;; i++) {
		int c = rd_peek(r, "a key or '}'", e);
		if (c < 0)
			return -1;
		if (c == '}') {
			rd_consume(r, 1);
			r->state = RD_CLOSED;
			return rd_header_done(r, 0, e);
		}
		if (i > 0 && rd_expect(r, ',', "',' or '}' in a rank object", e) < 0)
			return -1;
		if (read_key(r, key, sizeof key, e) < 0)
			return -1;
		if (strcmp(key, "nodes") == 0)
			break;
		if (header_value(r, key, e) < 0)
			return -1;
	}
	if (rd_header_done(r, 0, e) < 0)
		return -1;
	r->state = RD_NODES;
	return rd_expect(r, '[', "'[' (the list of nodes)", e);
}

/* After the last rank: "]}" and nothing but white space. */
static int doc_end(et_json_reader *r, et_error *e)
{
	rd_consume(r, 1);
	if (rd_expect(r, '}', "'}' closing the document", e) < 0)
		return -1;
	int w = rd_skip_ws(r, e);
	if (w < 0)
		return -1;
	if (w > 0)
		return rd_fail(r, 0, e, "data after the end of the JSON document");
	r->state = RD_END;
	return 0;
}

int rd_doc_next_rank(et_json_reader *r, et_error *e)
{
	int c = rd_peek(r, "a rank object or ']'", e);
	if (c < 0)
		return -1;
	if (r->n_ranks > 0 && c != ']') {
		if (c != ',')
			return rd_fail(r, 0, e, "expected ',' or ']' after a rank");
		rd_consume(r, 1);
		if ((c = rd_peek(r, "a rank object", e)) < 0)
			return -1;
		if (c != '{')
			return rd_fail(r, 0, e, "expected a rank object after ','");
	}
	if (c == ']')
		return doc_end(r, e);
	if (c != '{')
		return rd_fail(r, 0, e, "expected a rank object");
	rd_consume(r, 1);
	r->n_ranks++;
	memset(&r->ri, 0, sizeof r->ri);
	r->hdr_seen = 0;
	return rank_header(r, e) < 0 ? -1 : 1;
}

/* The end of the nodes list closes the rank object too. */
static int nodes_end(et_json_reader *r, et_error *e)
{
	rd_consume(r, 1);
	int c = rd_peek(r, "'}' closing the rank", e);
	if (c < 0)
		return -1;
	if (c != '}')
		return rd_fail(r, 0, e,
		               "expected '}' closing the rank (no keys may follow \"nodes\")");
	rd_consume(r, 1);
	r->state = RD_RANKS;
	return 0;
}

int rd_doc_next_node(et_json_reader *r, et_error *e)
{
	int c = rd_peek(r, "a node object or ']'", e);
	if (c < 0)
		return -1;
	if (r->n_nodes > 0 && c != ']') {
		if (c != ',')
			return rd_fail(r, 0, e, "expected ',' or ']' after a node");
		rd_consume(r, 1);
		if ((c = rd_peek(r, "a node object", e)) < 0)
			return -1;
		if (c != '{')
			return rd_fail(r, 0, e, "expected a node object after ','");
	}
	if (c == ']')
		return nodes_end(r, e);
	if (c != '{')
		return rd_fail(r, 0, e, "expected a node object");
	size_t len;
	if (rd_value(r, &len, e) < 0)
		return -1;
	cJSON *j = rd_parse(r, len, e);
	if (!j)
		return -1;
	int got = rd_node(r, j, 0, e);
	cJSON_Delete(j);
	if (got < 0)
		return -1;
	rd_consume(r, len);
	r->n_nodes++;
	return 1;
}
