/* Unit tests of et_json: real-number texts (checked against Python's repr
 * and protobuf's json_format), the one-line writer (expected texts written
 * out by hand), and the object reader (expected protobuf bytes worked out by
 * hand from the wire format); and real ETs (argv[1]: the tests/data folder)
 * through JSON and back to the same bytes. */
#include "check.h"
#include "et_attr.h"
#include "et_json.h"

#include <math.h>
#include <string.h>

/* ---- et_json_fmt_real ---- */

static bool real_is(double x, bool as_float, const char *want)
{
	char t[ET_JSON_REAL_MAX];
	size_t n = et_json_fmt_real(x, as_float, t);
	bool ok = n == strlen(want) && strcmp(t, want) == 0;
	if (!ok)
		fprintf(stderr, "fmt_real(%.17g, %d) = %s, want %s\n", x, as_float, t, want);
	return ok;
}

static void test_fmt_real(void)
{
	/* Python: json.dumps(x) of these doubles */
	CHECK(real_is(0.1, false, "0.1"));
	CHECK(real_is(1e-5, false, "1e-05"));
	CHECK(real_is(1e-4, false, "0.0001"));
	CHECK(real_is(1e16, false, "1e+16"));
	CHECK(real_is(1.5e16, false, "1.5e+16"));
	CHECK(real_is(1e15, false, "1000000000000000.0"));
	CHECK(real_is(1234567890123456.0, false, "1234567890123456.0"));
	CHECK(real_is(12345678901234567.0, false, "1.2345678901234568e+16"));
	CHECK(real_is(100.0, false, "100.0"));
	CHECK(real_is(0.5, false, "0.5"));
	CHECK(real_is(123.456, false, "123.456"));
	CHECK(real_is(-1e100, false, "-1e+100"));
	CHECK(real_is(1e23, false, "1e+23"));
	CHECK(real_is(5e-324, false, "5e-324"));
	CHECK(real_is(2.2250738585072014e-308, false, "2.2250738585072014e-308"));
	CHECK(real_is(1.7976931348623157e308, false, "1.7976931348623157e+308"));
	CHECK(real_is(0.30000000000000004, false, "0.30000000000000004"));
	CHECK(real_is(2.0 / 3, false, "0.6666666666666666"));
	CHECK(real_is(9.999999999999999e-05, false, "9.999999999999999e-05"));
	CHECK(real_is(1152921504606846976.0, false, "1.152921504606847e+18")); /* 2^60 */
	CHECK(real_is(9.5367431640625e-07, false, "9.5367431640625e-07"));     /* 2^-20 */
	CHECK(real_is(0.0, false, "0.0"));
	CHECK(real_is(-0.0, false, "-0.0"));
	/* protobuf json_format's ToShortestFloat of these float32 values */
	CHECK(real_is(0.1f, true, "0.1"));
	CHECK(real_is(1e-5f, true, "1e-05"));
	CHECK(real_is(1e16f, true, "1e+16"));
	CHECK(real_is(3.4028235e38f, true, "3.4028235e+38"));
	CHECK(real_is(1e-45f, true, "1.4013e-45")); /* six digits at least */
	CHECK(real_is(1.17549435e-38f, true, "1.1754944e-38"));
	CHECK(real_is(123456.7f, true, "123456.7"));
	CHECK(real_is(16777216.0f, true, "16777216.0"));
	CHECK(real_is(9.999999e-5f, true, "9.999999e-05"));
	CHECK(real_is(2.0f / 3, true, "0.6666667"));
	CHECK(real_is(7e22f, true, "7e+22"));
	CHECK(real_is(3.14159265f, true, "3.1415927"));
	CHECK(real_is(-0.0f, true, "-0.0"));
}

static void test_attr_keys(void)
{
	CHECK(strcmp(et_json_attr_key(3), "doubleVal") == 0);
	CHECK(strcmp(et_json_attr_key(9), "int64Val") == 0);
	CHECK(strcmp(et_json_attr_key(24), "sfixed32List") == 0);
	CHECK(strcmp(et_json_attr_key(32), "bytesList") == 0);
	CHECK(et_json_attr_key(2) == NULL && et_json_attr_key(33) == NULL);
	/* every key is the lowerCamelCase of the schema's field name */
	for (int c = 3; c <= 32; c++) {
		const ProtobufCFieldDescriptor *f = protobuf_c_message_descriptor_get_field(
		    &chakra_proto_msg__attribute_proto__descriptor, (unsigned)c);
		char camel[32];
		size_t k = 0;
		for (const char *p = f->name; *p; p++)
			camel[k++] = *p == '_' ? (char)(*++p - 'a' + 'A') : *p;
		camel[k] = 0;
		CHECK(strcmp(camel, et_json_attr_key(c)) == 0);
	}
}

/* ---- writer ---- */

static et_attr *attr(et_arena *a, et_node *n, const char *name, int vc)
{
	et_attr *at = et_attr_push(a, n, name);
	at->value_case = (ChakraProtoMsg__AttributeProto__ValueCase)vc;
	return at;
}

static et_node *sample_node(et_arena *a)
{
	et_node *n = et_node_new(a);
	n->id = 5;
	n->name = "a\"\n\x01\xc3\xa9\xe2\x80\xa8";
	n->type = CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE;
	static uint64_t deps[] = {1, (1ull << 53) + 1};
	n->ctrl_deps = deps;
	n->n_ctrl_deps = 2;
	n->inputs = et_ioinfo_new(a);
	n->inputs->values = "v";
	n->outputs = et_ioinfo_new(a);
	attr(a, n, "i", 9)->int64_val = -7;
	attr(a, n, "u", 13)->uint64_val = UINT64_MAX;
	attr(a, n, "b", 27)->bool_val = 1;
	attr(a, n, "f", 5)->float_val = 0.1f;
	attr(a, n, "d", 3)->double_val = 1e-5;
	static char *strs[] = {"a"};
	ChakraProtoMsg__StringList *sl = et_arena_alloc(a, sizeof *sl);
	chakra_proto_msg__string_list__init(sl);
	sl->values = strs;
	sl->n_values = 1;
	attr(a, n, "s", 30)->string_list = sl;
	static uint8_t bytes[] = {0, 0xff};
	attr(a, n, "y", 31)->bytes_val = (ProtobufCBinaryData){2, bytes};
	ChakraProtoMsg__Int32List *il = et_arena_alloc(a, sizeof *il);
	chakra_proto_msg__int32_list__init(il);
	attr(a, n, "e", 8)->int32_list = il;
	et_attr *doc = attr(a, n, "", 0);
	doc->doc_string = "why";
	return n;
}

static const char sample_json[] =
    "{\"rank\":3,\"id\":5,\"name\":\"a\\\"\\n\\u0001\xc3\xa9\\u2028\",\"type\":\"COMP_NODE\","
    "\"ctrlDeps\":[1,\"9007199254740993\"],\"inputs\":{\"values\":\"v\"},\"outputs\":{},"
    "\"attr\":[{\"name\":\"i\",\"int64Val\":-7},{\"name\":\"u\",\"uint64Val\":"
    "\"18446744073709551615\"},{\"name\":\"b\",\"boolVal\":true},{\"name\":\"f\",\"floatVal\":0.1},"
    "{\"name\":\"d\",\"doubleVal\":1e-05},{\"name\":\"s\",\"stringList\":{\"values\":[\"a\"]}},"
    "{\"name\":\"y\",\"bytesVal\":\"AP8=\"},{\"name\":\"e\",\"int32List\":{}},"
    "{\"docString\":\"why\"}]}";

static bool buf_is(const et_buf *b, const char *want)
{
	bool ok = b->len == strlen(want) && memcmp(b->data, want, b->len) == 0;
	if (!ok)
		fprintf(stderr, "got  %.*s\nwant %s\n", (int)b->len, (const char *)b->data, want);
	return ok;
}

static void test_write(void)
{
	et_arena *a = et_arena_new();
	et_buf b = {0};
	et_json_node_write(sample_node(a), 3, false, &b);
	CHECK(buf_is(&b, sample_json));

	b.len = 0;
	et_json_node_write(et_node_new(a), -1, false, &b); /* all defaults */
	CHECK(buf_is(&b, "{}"));

	b.len = 0;
	et_node *n = et_node_new(a);
	n->type = 99; /* not in the enum: a number */
	attr(a, n, "x", 5)->float_val = NAN;
	uint32_t payload = 0x7fc00001;
	memcpy(&attr(a, n, "p", 5)->float_val, &payload, 4);
	attr(a, n, "m", 3)->double_val = -INFINITY;
	et_json_node_write(n, -1, false, &b);
	CHECK(buf_is(&b, "{\"type\":99,\"attr\":[{\"name\":\"x\",\"floatVal\":\"NaN\"},"
	                 "{\"name\":\"p\",\"floatVal\":\"NaN:0x7fc00001\"},"
	                 "{\"name\":\"m\",\"doubleVal\":\"-Infinity\"}]}"));

	b.len = 0;
	et_meta *m = et_meta_new(a);
	m->version = "1.0";
	et_json_meta_write(m, &b);
	CHECK(buf_is(&b, "{\"version\":\"1.0\"}"));
	et_buf_free(&b);
	et_arena_free(a);
}

/* The reference escaping, byte by byte, as et_json.h states it. */
static void ref_escape(const uint8_t *s, et_buf *o)
{
	et_buf_putc(o, '"');
	for (; *s; s++) {
		if (s[0] == 0xc2 && s[1] == 0x85) {
			et_buf_puts(o, "\\u0085");
			s += 1;
		} else if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) {
			et_buf_puts(o, s[2] == 0xa8 ? "\\u2028" : "\\u2029");
			s += 2;
		} else if (*s == '"' || *s == '\\') {
			et_buf_putc(o, '\\');
			et_buf_putc(o, (char)*s);
		} else if (*s == '\n') {
			et_buf_puts(o, "\\n");
		} else if (*s == '\r') {
			et_buf_puts(o, "\\r");
		} else if (*s == '\t') {
			et_buf_puts(o, "\\t");
		} else if (*s == '\b') {
			et_buf_puts(o, "\\b");
		} else if (*s == '\f') {
			et_buf_puts(o, "\\f");
		} else if (*s < 0x20) {
			et_buf_printf(o, "\\u%04x", *s);
		} else {
			et_buf_putc(o, (char)*s);
		}
	}
	et_buf_putc(o, '"');
}

/* Each special byte (and separator) at every offset 0..40 of plain text,
 * so it falls at every position of the writer's 8-byte chunks. */
static void test_write_strings(void)
{
	static const char *const specials[] = {
	    "\"",       "\\",           "\x01",         "\x1f",     "\n",
	    "\xc2\x85", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xc2\xa9", "\xe2\x82\xac",
	    "\xe2\x80", "\xc2",         "\x7f\xff\x80"};
	et_arena *a = et_arena_new();
	et_node *n = et_node_new(a);
	et_buf got = {0}, want = {0};
	char s[128];
	int bad = 0;
	for (size_t k = 0; k < sizeof specials / sizeof *specials; k++) {
		for (int off = 0; off <= 40; off++) {
			memset(s, 'a', (size_t)off);
			snprintf(s + off, sizeof s - (size_t)off, "%sbcdefghij%s", specials[k],
			         specials[(k + 1) % 13]);
			n->name = s;
			got.len = want.len = 0;
			et_json_node_write(n, -1, false, &got);
			et_buf_puts(&want, "{\"name\":");
			ref_escape((const uint8_t *)s, &want);
			et_buf_putc(&want, '}');
			bad += got.len != want.len || memcmp(got.data, want.data, got.len) != 0;
		}
	}
	CHECK(bad == 0);
	et_buf_free(&got);
	et_buf_free(&want);
	et_arena_free(a);
}

/* ---- reader ---- */

/* Canonical bytes (no length prefix) of the node that text reads as. */
static bool reads_as(const char *text, const uint8_t *want, size_t wn)
{
	et_arena *a = et_arena_new();
	et_error e = {0};
	et_node *n = NULL;
	bool ok = et_json_node_read(text, strlen(text), a, &n, &e) == 0;
	if (!ok) {
		fprintf(stderr, "read %s: %s\n", text, e.msg);
	} else {
		size_t len = protobuf_c_message_get_packed_size(&n->base);
		uint8_t out[256];
		ok = len == wn && len <= sizeof out &&
		     protobuf_c_message_pack(&n->base, out) == len && memcmp(out, want, len) == 0;
		if (!ok)
			fprintf(stderr, "read %s: wrong bytes (%zu, want %zu)\n", text, len, wn);
	}
	et_arena_free(a);
	return ok;
}

#define READS_AS(text, ...)                                                                        \
	do {                                                                                       \
		static const uint8_t w_[] = {__VA_ARGS__};                                         \
		CHECK(reads_as(text, w_, sizeof w_));                                              \
	} while (0)

static void test_read_bytes(void)
{
	/* set oneof members at zero are written: 48 00, d8 01 00 */
	READS_AS("{\"id\":1,\"type\":\"COMP_NODE\",\"attr\":[{\"name\":\"x\",\"int64Val\":0},"
	         "{\"name\":\"b\",\"boolVal\":false}]}",
	         0x08, 0x01, 0x18, 0x04, 0x52, 0x05, 0x0a, 0x01, 'x', 0x48, 0x00, 0x52, 0x06, 0x0a,
	         0x01, 'b', 0xd8, 0x01, 0x00);
	/* uint64 max as a string and as a bare number; packed deps; empty IOInfo */
	READS_AS("{\"id\":\"18446744073709551615\",\"ctrlDeps\":[1,300],\"inputs\":{}}", 0x08, 0xff,
	         0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x22, 0x03, 0x01, 0xac, 0x02,
	         0x42, 0x00);
	READS_AS("{\"id\":18446744073709551615}", 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	         0xff, 0xff, 0x01);
	READS_AS("{\"id\":9007199254740993}", 0x08, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10);
	/* an empty list, an empty string, a negative int32 (ten bytes) */
	READS_AS("{\"attr\":[{\"int64List\":{}},{\"stringVal\":\"\"},{\"int32List\":{\"values\":[-"
	         "1]}}]}",
	         0x52, 0x02, 0x52, 0x00, 0x52, 0x03, 0xea, 0x01, 0x00, 0x52, 0x0e, 0x42, 0x0c, 0x0a,
	         0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	READS_AS("{\"attr\":[{\"int64List\":{\"values\":[]}}]}", 0x52, 0x02, 0x52, 0x00);
	/* reals: 1.0f, the default NaN, -inf as float, -0.0 */
	READS_AS("{\"attr\":[{\"floatVal\":1},{\"doubleVal\":\"NaN\"},{\"floatVal\":\"-Infinity\"},"
	         "{\"doubleVal\":-0.0}]}",
	         0x52, 0x05, 0x2d, 0x00, 0x00, 0x80, 0x3f, 0x52, 0x09, 0x19, 0, 0, 0, 0, 0, 0, 0xf8,
	         0x7f, 0x52, 0x05, 0x2d, 0x00, 0x00, 0x80, 0xff, 0x52, 0x09, 0x19, 0, 0, 0, 0, 0, 0,
	         0, 0x80);
	READS_AS("{\"attr\":[{\"floatVal\":\"NaN:0x7fc00001\"}]}", 0x52, 0x05, 0x2d, 0x01, 0x00,
	         0xc0, 0x7f);
	READS_AS("{\"attr\":[{\"bytesVal\":\"AP8=\"}]}", 0x52, 0x05, 0xfa, 0x01, 0x02, 0x00, 0xff);
	READS_AS("{\"attr\":[{\"sint64Val\":-1}]}", 0x52, 0x03, 0x88, 0x01, 0x01);
	/* enum as a number (unknown kept), as a short name; proto key names */
	READS_AS("{\"type\":99}", 0x18, 0x63);
	READS_AS("{\"type\":\"comm_coll\"}", 0x18, 0x07);
	READS_AS("{\"ctrl_deps\":[5],\"start_time_micros\":7}", 0x22, 0x01, 0x05, 0x30, 0x07);
	READS_AS("{\"attr\":[{\"name\":\"n\",\"doc_string\":\"d\",\"int32_val\":2}]}", 0x52, 0x08,
	         0x0a, 0x01, 'n', 0x12, 0x01, 'd', 0x38, 0x02);
	/* null is absent; an integer may be written as an exact real */
	READS_AS("{\"inputs\":null,\"name\":null,\"id\":3}", 0x08, 0x03);
	READS_AS("{\"id\":1e3}", 0x08, 0xe8, 0x07);
	READS_AS(" \n{\"id\":\"2\"} \n", 0x08, 0x02);
}

static void test_read_meta(void)
{
	et_arena *a = et_arena_new();
	et_error e = {0};
	et_meta *m = NULL;
	const char *t = "{\"version\":\"1.0\",\"attr\":[{\"name\":\"s\",\"stringVal\":\"x\"}]}";
	CHECK(et_json_meta_read(t, strlen(t), a, &m, &e) == 0);
	static const uint8_t want[] = {0x0a, 0x03, '1', '.',  '0',  0x12, 0x07,
	                               0x0a, 0x01, 's', 0xea, 0x01, 0x01, 'x'};
	uint8_t out[64];
	CHECK(m && protobuf_c_message_get_packed_size(&m->base) == sizeof want);
	CHECK(m && protobuf_c_message_pack(&m->base, out) == sizeof want &&
	      memcmp(out, want, sizeof want) == 0);
	t = "{\"version\":1}";
	CHECK(et_json_meta_read(t, strlen(t), a, &m, &e) == -1 &&
	      strcmp(e.msg, "metadata: key \"version\": expected a string") == 0);
	t = "{\"nodes\":[]}";
	CHECK(et_json_meta_read(t, strlen(t), a, &m, &e) == -1 && strstr(e.msg, "unknown key"));
	et_arena_free(a);
}

/* The read fails with exactly this message. */
static bool fails_with(const char *text, const char *want)
{
	et_arena *a = et_arena_new();
	et_error e = {0};
	et_node *n = NULL;
	bool ok = et_json_node_read(text, strlen(text), a, &n, &e) == -1 &&
	          e.code == ET_EXIT_DATA && strcmp(e.msg, want) == 0;
	if (!ok)
		fprintf(stderr, "read %s: got \"%s\", want \"%s\"\n", text, e.msg, want);
	et_arena_free(a);
	return ok;
}

static void test_read_errors(void)
{
	CHECK(fails_with("{\"dataDeps\":[1,\"x\"]}",
	                 "node: key \"dataDeps\"[1]: expected an integer"));
	CHECK(fails_with("{\"dataDeps\":5}", "node: key \"dataDeps\": expected an array"));
	CHECK(fails_with("{\"id\":-1}", "node: key \"id\": integer out of range"));
	CHECK(
	    fails_with("{\"id\":18446744073709551616}", "node: key \"id\": integer out of range"));
	CHECK(fails_with("{\"id\":\"-9223372036854775809\"}",
	                 "node: key \"id\": integer out of range"));
	CHECK(fails_with("{\"id\":1.5}", "node: key \"id\": expected an integer"));
	CHECK(fails_with("{\"id\":true}", "node: key \"id\": expected an integer"));
	CHECK(fails_with("{\"id\":\" 1\"}", "node: key \"id\": expected an integer"));
	CHECK(fails_with("{\"id\":9007199254740993.0}",
	                 "node: key \"id\": integer not exact as a real (write its digits)"));
	CHECK(fails_with("{\"id\":4503599627370496.5}",
	                 "node: key \"id\": integer not exact as a real (write its digits)"));
	CHECK(fails_with("{\"id\":1.0000000000000000001}",
	                 "node: key \"id\": integer not exact as a real (write its digits)"));
	CHECK(fails_with("{\"id\":1e19}",
	                 "node: key \"id\": integer not exact as a real (write its digits)"));
	CHECK(fails_with("{\"id\":-1e300}",
	                 "node: key \"id\": integer not exact as a real (write its digits)"));
	CHECK(fails_with("{\"bogus\":1}", "node: key \"bogus\": unknown key"));
	CHECK(fails_with("{\"id\":1,\"id\":2}", "node: key \"id\": given twice"));
	CHECK(fails_with("{\"type\":\"NOPE\"}", "node: key \"type\": unknown node type"));
	CHECK(fails_with("{\"inputs\":{\"value\":\"x\"}}",
	                 "node: key \"inputs\": unknown key (values, shapes, types)"));
	CHECK(
	    fails_with("{\"attr\":[{\"int64Val\":1,\"boolVal\":true}]}",
	               "node: attr[0]: key \"boolVal\": a second value (an attribute holds one)"));
	CHECK(fails_with("{\"attr\":[{},{\"int32Val\":2147483648}]}",
	                 "node: attr[1]: key \"int32Val\": integer out of range"));
	CHECK(fails_with("{\"attr\":[{\"uint32List\":{\"values\":[0,-1]}}]}",
	                 "node: attr[0]: key \"values\"[1]: integer out of range"));
	CHECK(fails_with("{\"attr\":[{\"floatVal\":1e39}]}",
	                 "node: attr[0]: key \"floatVal\": number out of float range"));
	CHECK(fails_with("{\"attr\":[{\"doubleVal\":\"1e999\"}]}",
	                 "node: attr[0]: key \"doubleVal\": number out of range"));
	CHECK(fails_with("{\"attr\":[{\"doubleVal\":\"inf\"}]}",
	                 "node: attr[0]: key \"doubleVal\": expected a number"));
	CHECK(fails_with("{\"attr\":[{\"doubleVal\":\"NaN:0x1\"}]}",
	                 "node: attr[0]: key \"doubleVal\": bad NaN bits"));
	CHECK(fails_with("{\"attr\":[{\"bytesVal\":\"!!\"}]}",
	                 "node: attr[0]: key \"bytesVal\": expected a base64 string"));
	CHECK(fails_with("{\"attr\":[{\"boolVal\":1}]}",
	                 "node: attr[0]: key \"boolVal\": expected true or false"));
	CHECK(fails_with("{\"attr\":[{\"int64List\":{\"values\":[1],\"x\":2}}]}",
	                 "node: attr[0]: key \"int64List\": expected only the key \"values\""));
	CHECK(fails_with("{\"attr\":[{\"name\":\"a\",\"name\":\"b\"}]}",
	                 "node: attr[0]: key \"name\": given twice"));
	CHECK(fails_with("{\"attr\":[5]}", "node: attr[0]: expected an object"));
	CHECK(fails_with("[1]", "node: expected a JSON object"));
	/* syntax errors: line and column in the text */
	CHECK(fails_with("{\n  \"id\": 1,\n  \"name\": x\n}",
	                 "line 3, column 11: malformed JSON at 'x'"));
	CHECK(fails_with("{\"id\":1} {}", "line 1, column 10: malformed JSON at '{}'"));
	CHECK(fails_with("{\"id\":", "line 1, column 7: unexpected end of JSON"));
}

/* node -> JSON -> node gives the same bytes, and JSON -> node -> JSON the
 * same text. */
static void test_round_trip(void)
{
	et_arena *a = et_arena_new();
	et_node *n = sample_node(a);
	et_buf b = {0}, e1 = {0}, e2 = {0}, j2 = {0};
	et_json_node_write(n, 3, false, &b);
	et_node *back = NULL;
	et_error e = {0};
	CHECK(et_json_node_read((char *)b.data, b.len, a, &back, &e) == 0);
	if (back) {
		et_node_encode(n, &e1);
		et_node_encode(back, &e2);
		CHECK(e1.len == e2.len && memcmp(e1.data, e2.data, e1.len) == 0);
		et_json_node_write(back, 3, false, &j2);
		CHECK(j2.len == b.len && memcmp(j2.data, b.data, b.len) == 0);
	}
	et_buf_free(&b);
	et_buf_free(&e1);
	et_buf_free(&e2);
	et_buf_free(&j2);
	et_arena_free(a);
}

/* Every message of an ET file -> our JSON -> the same canonical bytes. */
static void round_trip_file(const char *data, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", data, name);
	FILE *f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	et_buf et = {0}, j = {0}, enc = {0};
	char chunk[65536];
	size_t k;
	while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
		et_buf_append(&et, chunk, k);
	fclose(f);
	et_arena *a = et_arena_new();
	size_t pos = 0, msgs = 0, same = 0;
	while (pos < et.len) {
		uint64_t len;
		int h = et_varint_get(et.data + pos, et.len - pos, &len);
		if (h <= 0 || len > et.len - pos - (size_t)h)
			break;
		const uint8_t *p = et.data + pos + h;
		et_arena_reset(a);
		j.len = enc.len = 0;
		et_error e = {0};
		if (msgs == 0) {
			et_meta *m = et_meta_decode(a, p, len), *back = NULL;
			et_json_meta_write(m, &j);
			if (et_json_meta_read((char *)j.data, j.len, a, &back, &e) == 0)
				et_meta_encode(back, &enc);
		} else {
			et_node *n = et_node_decode(a, p, len), *back = NULL;
			et_json_node_write(n, (int64_t)msgs, false, &j);
			if (et_json_node_read((char *)j.data, j.len, a, &back, &e) == 0)
				et_node_encode(back, &enc);
		}
		/* enc = varint(len) + bytes; the file has the same framing */
		same += enc.len == (size_t)h + len && memcmp(enc.data, et.data + pos, enc.len) == 0;
		msgs++;
		pos += (size_t)h + len;
	}
	if (same != msgs || pos != et.len)
		fprintf(stderr, "%s: %zu of %zu messages round-trip\n", name, same, msgs);
	CHECK(msgs > 0 && same == msgs && pos == et.len);
	et_arena_free(a);
	et_buf_free(&et);
	et_buf_free(&j);
	et_buf_free(&enc);
}

int main(int argc, char **argv)
{
	test_fmt_real();
	test_attr_keys();
	test_write();
	test_write_strings();
	test_read_bytes();
	test_read_meta();
	test_read_errors();
	test_round_trip();
	const char *data = argc > 1 ? argv[1] : "tests/data";
	round_trip_file(data, "jsonizer/edge.et");
	round_trip_file(data, "chakra-generator/one_metadata_node_all_types.0.et");
	round_trip_file(data,
	                "astra-sim/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce.3.et");
	return check_failures();
}
