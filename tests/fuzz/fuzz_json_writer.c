/* Fuzz our JSON writer against our JSON reader: the bytes after the first are
 * one Node (or, with bit 0 of the first byte, one GlobalMetadata) message
 * without a length prefix; bit 1 adds a "rank" key, bit 2 writes all fields. Whatever decodes, and
 * carries no unknown fields (the JSON form has no place for them), must come back from
 * et_json_*_write -> et_json_*_read with the same canonical bytes (et_json.h:
 * everything that decides the canonical bytes survives a round trip). */
#include "et_json.h"
#include "fuzz_util.h"

static void fail_json(const et_buf *j, const et_error *e)
{
	fprintf(stderr, "fuzz: JSON round trip failed: %s\nJSON: %.*s\n",
	        e ? e->msg : "bytes differ", (int)j->len, (const char *)j->data);
	__builtin_trap();
}

static void check_node(const uint8_t *p, size_t n, int64_t rank, bool all, et_arena *a, et_buf *j,
                       et_buf *b1, et_buf *b2)
{
	et_node *x = et_node_decode(a, p, n), *y = NULL;
	if (!x || fuzz_has_unknown(&x->base))
		return;
	et_json_node_write(x, rank, all, j);
	et_error e = {0};
	if (et_json_node_read((const char *)j->data, j->len, a, &y, &e) < 0)
		fail_json(j, &e);
	et_node_encode(x, b1);
	et_node_encode(y, b2);
}

static void check_meta(const uint8_t *p, size_t n, et_arena *a, et_buf *j, et_buf *b1, et_buf *b2)
{
	et_meta *x = et_meta_decode(a, p, n), *y = NULL;
	if (!x || fuzz_has_unknown(&x->base))
		return;
	et_json_meta_write(x, j);
	et_error e = {0};
	if (et_json_meta_read((const char *)j->data, j->len, a, &y, &e) < 0)
		fail_json(j, &e);
	et_meta_encode(x, b1);
	et_meta_encode(y, b2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	et_arena *a = et_arena_new();
	et_buf j = {0}, b1 = {0}, b2 = {0};
	if (data[0] & 1)
		check_meta(data + 1, size - 1, a, &j, &b1, &b2);
	else
		check_node(data + 1, size - 1, data[0] & 2 ? 7 : -1, data[0] & 4, a, &j, &b1, &b2);
	if (b1.len != b2.len || (b1.len && memcmp(b1.data, b2.data, b1.len) != 0))
		fail_json(&j, NULL);
	et_arena_free(a);
	et_buf_free(&j);
	et_buf_free(&b1);
	et_buf_free(&b2);
	return 0;
}
