/* Unit test of et-convert's jsonizer: the reference chakra_jsonizer output
 * for the reference ET, and Python's MessageToJson output for an edge-case
 * ET, must come out byte for byte; a few layouts are checked against texts
 * written out by hand (Python's json.dumps indent=2).
 * argv[1]: the tests/data folder (default: tests/data). */
#include "check.h"
#include "et-convert/json/jsonizer.h"
#include "et_attr.h"

#include <stdlib.h>
#include <zstd.h>

/* The whole content of a file into b, decompressed if it is zstd. */
static bool read_any(const char *path, et_buf *b)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return false;
	}
	et_buf raw = {0};
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		et_buf_append(&raw, chunk, n);
	fclose(f);
	if (raw.len < 4 || memcmp(raw.data, "\x28\xb5\x2f\xfd", 4) != 0) {
		et_buf_append(b, raw.data, raw.len); /* not zstd: as it is */
		et_buf_free(&raw);
		return true;
	}
	ZSTD_DStream *z = ZSTD_createDStream();
	ZSTD_inBuffer in = {raw.data, raw.len, 0};
	size_t r = 1;
	while (in.pos < in.size && !ZSTD_isError(r)) {
		et_buf_reserve(b, 1 << 16);
		ZSTD_outBuffer out = {b->data + b->len, b->cap - b->len, 0};
		r = ZSTD_decompressStream(z, &out, &in);
		b->len += out.pos;
	}
	ZSTD_freeDStream(z);
	et_buf_free(&raw);
	return !ZSTD_isError(r);
}

/* ET bytes -> the jsonizer's text of every message. */
static bool jsonize(const et_buf *et, et_buf *out)
{
	et_arena *a = et_arena_new();
	size_t pos = 0;
	bool ok = true;
	for (uint64_t i = 0; ok && pos < et->len; i++) {
		uint64_t len;
		int k = et_varint_get(et->data + pos, et->len - pos, &len);
		ok = k > 0 && len <= et->len - pos - (size_t)k;
		if (!ok)
			break;
		const uint8_t *p = et->data + pos + k;
		et_arena_reset(a);
		if (i == 0) {
			et_meta *m = et_meta_decode(a, p, len);
			if ((ok = m != NULL))
				jsonizer_meta(m, out);
		} else {
			et_node *n = et_node_decode(a, p, len);
			if ((ok = n != NULL))
				jsonizer_node(n, out);
		}
		pos += (size_t)k + len;
	}
	et_arena_free(a);
	return ok;
}

/* The jsonizer's text of ET file et_path equals the file want_path (both
 * under data; read through zstd when compressed). */
static void check_pair(const char *data, const char *et_path, const char *want_path)
{
	char p1[4096], p2[4096];
	snprintf(p1, sizeof p1, "%s/%s", data, et_path);
	snprintf(p2, sizeof p2, "%s/%s", data, want_path);
	et_buf et = {0}, want = {0}, got = {0};
	CHECK(read_any(p1, &et) && et.len > 0);
	CHECK(read_any(p2, &want) && want.len > 0);
	CHECK(jsonize(&et, &got));
	size_t i = 0;
	while (i < got.len && i < want.len && got.data[i] == want.data[i])
		i++;
	if (i < got.len || i < want.len)
		fprintf(stderr, "jsonizer output differs at byte %zu (got %zu bytes, want %zu)\n",
		        i, got.len, want.len);
	CHECK(got.len == want.len && i == want.len);
	et_buf_free(&et);
	et_buf_free(&want);
	et_buf_free(&got);
}

static bool text_is(const et_buf *b, const char *want)
{
	bool ok = b->len == strlen(want) && memcmp(b->data, want, b->len) == 0;
	if (!ok)
		fprintf(stderr, "got:\n%.*s\nwant:\n%s\n", (int)b->len, (const char *)b->data,
		        want);
	return ok;
}

static void test_layouts(void)
{
	et_arena *a = et_arena_new();
	et_buf b = {0};
	jsonizer_meta(et_meta_new(a), &b);
	CHECK(text_is(&b, "{}"));

	b.len = 0;
	et_node *n = et_node_new(a);
	n->id = 7;
	n->name = "\xc3\xa9\xf0\x9f\x98\x80\x7f\t\"";
	n->type = 42;
	n->inputs = et_ioinfo_new(a);
	et_attr *at = et_attr_push(a, n, "f");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FLOAT_VAL;
	at->float_val = 0.1f;
	at = et_attr_push(a, n, "l");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT32_LIST;
	ChakraProtoMsg__Uint32List *l = et_arena_alloc(a, sizeof *l);
	chakra_proto_msg__uint32_list__init(l);
	static uint32_t v[] = {1, 4294967295u};
	l->values = v;
	l->n_values = 2;
	at->uint32_list = l;
	at = et_attr_push(a, n, "e");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_LIST;
	at->int64_list = et_arena_alloc(a, sizeof *at->int64_list);
	chakra_proto_msg__int64_list__init(at->int64_list);
	jsonizer_node(n, &b);
	CHECK(text_is(&b, "{\n"
	                  "  \"id\": \"7\",\n"
	                  "  \"name\": \"\\u00e9\\ud83d\\ude00\\u007f\\t\\\"\",\n"
	                  "  \"type\": 42,\n"
	                  "  \"inputs\": {},\n"
	                  "  \"attr\": [\n"
	                  "    {\n"
	                  "      \"name\": \"f\",\n"
	                  "      \"floatVal\": 0.1\n"
	                  "    },\n"
	                  "    {\n"
	                  "      \"name\": \"l\",\n"
	                  "      \"uint32List\": {\n"
	                  "        \"values\": [\n"
	                  "          1,\n"
	                  "          4294967295\n"
	                  "        ]\n"
	                  "      }\n"
	                  "    },\n"
	                  "    {\n"
	                  "      \"name\": \"e\",\n"
	                  "      \"int64List\": {}\n"
	                  "    }\n"
	                  "  ]\n"
	                  "}"));
	et_buf_free(&b);
	et_arena_free(a);
}

int main(int argc, char **argv)
{
	const char *data = argc > 1 ? argv[1] : "tests/data";
	/* chakra_jsonizer 1.0.0 on the reference converter's ET */
	check_pair(data, "reference/chakra_test_1.0.2.et.zst",
	           "reference/chakra_test_1.0.2.jsonizer.json.zst");
	/* MessageToJson of every oneof member and the repr corner cases */
	check_pair(data, "jsonizer/edge.et", "jsonizer/edge.jsonizer.json");
	test_layouts();
	return check_failures();
}
