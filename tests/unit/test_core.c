/* Unit tests of the varint framing, attribute helpers, enum names, rank
 * lists, the canonical encoder (against hand-computed bytes) and the quoting
 * of input text in messages. */
#include "app/et_cli.h"
#include "check.h"
#include "et_attr.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_types.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void test_varint(void)
{
	uint8_t b[10];
	uint64_t v;
	CHECK(et_varint_put(b, 300) == 2 && b[0] == 0xac && b[1] == 0x02);
	CHECK(et_varint_get(b, 2, &v) == 2 && v == 300);
	CHECK(et_varint_get(b, 1, &v) == 0); /* needs more bytes */
	CHECK(et_varint_put(b, UINT64_MAX) == 10 && b[9] == 0x01);
	CHECK(et_varint_get(b, 10, &v) == 10 && v == UINT64_MAX);
	uint8_t over[10] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
	CHECK(et_varint_get(over, 10, &v) == -1); /* above 2^64 */
	uint8_t eleven[11];
	memset(eleven, 0x80, sizeof eleven);
	CHECK(et_varint_get(eleven, 11, &v) == -1);
}

/* The canonical encoding of doc/chakra-et.md, byte by byte. */
static void test_canonical(void)
{
	et_arena *a = et_arena_new();
	et_node *n = et_node_new(a);
	n->id = 1;
	n->type = CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE;
	et_attr_set_int64(a, n, "x", 0);    /* set oneof at zero: written */
	et_attr_set_bool(a, n, "b", false); /* likewise */
	et_buf out = {0};
	et_node_encode(n, &out);
	static const uint8_t want[] = {
	    0x13,                                          /* length 19 */
	    0x08, 0x01,                                    /* id 1 */
	    0x18, 0x04,                                    /* type COMP_NODE */
	    0x52, 0x05, 0x0a, 0x01, 'x', 0x48, 0x00,       /* attr x int64_val 0 */
	    0x52, 0x06, 0x0a, 0x01, 'b', 0xd8, 0x01, 0x00, /* attr b bool_val false */
	};
	CHECK(out.len == sizeof want && memcmp(out.data, want, sizeof want) == 0);

	/* packed deps, negative int64 as ten bytes, empty IOInfo written */
	et_node *m = et_node_new(a);
	uint64_t deps[] = {1, 300};
	m->data_deps = deps;
	m->n_data_deps = 2;
	m->inputs = et_ioinfo_new(a);
	et_attr_set_int64(a, m, "s", -1);
	out.len = 0;
	et_node_encode(m, &out);
	static const uint8_t want2[] = {
	    0x17,                         /* length 23 */
	    0x2a, 0x03, 0x01, 0xac, 0x02, /* data_deps packed [1, 300] */
	    0x42, 0x00,                   /* inputs {} */
	    0x52, 0x0e, 0x0a, 0x01, 's',  0x48, 0xff, 0xff,
	    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, /* int64_val -1 */
	};
	CHECK(out.len == sizeof want2 && memcmp(out.data, want2, sizeof want2) == 0);

	et_node *d = et_node_decode(a, out.data + 1, out.len - 1);
	CHECK(d && d->n_data_deps == 2 && d->data_deps[1] == 300 && d->inputs);
	int64_t v;
	CHECK(et_attr_int(d, "s", &v) && v == -1);
	et_buf_free(&out);
	et_arena_free(a);
}

static void test_attr(void)
{
	et_arena *a = et_arena_new();
	et_node *n = et_node_new(a);
	et_attr_set_known_int(a, n, "comm_src", 3);     /* int32_val */
	et_attr_set_known_int(a, n, "tensor_size", 64); /* uint64_val */
	et_attr_set_known_int(a, n, "comm_size", 1024); /* int64_val */
	et_attr_set_str(a, n, "pg_name", "7");
	CHECK(n->attr[0]->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL);
	CHECK(n->attr[1]->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL);
	CHECK(n->attr[2]->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL);
	int64_t v;
	uint64_t u;
	CHECK(et_attr_int(n, "comm_src", &v) && v == 3); /* any integer member */
	CHECK(et_attr_uint(n, "tensor_size", &u) && u == 64);
	CHECK(!et_attr_int(n, "pg_name", &v)); /* a string is not an int */
	CHECK(!et_attr_int(n, "missing", &v));
	CHECK(strcmp(et_attr_str(n, "pg_name"), "7") == 0);
	CHECK(et_attr_expected_case("is_cpu_op") ==
	      CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_VAL);
	CHECK(et_attr_expected_case("rf_id") == 0);
	CHECK(strcmp(et_attr_case_name(CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL),
	             "int64_val") == 0);
	et_arena_free(a);
}

static void test_names(void)
{
	CHECK(strcmp(et_node_type_name(7), "COMM_COLL_NODE") == 0);
	CHECK(et_node_type_name(8) == NULL);
	CHECK(et_node_type_parse("COMP_NODE") == 4);
	CHECK(et_node_type_parse("comp") == 4);
	CHECK(et_node_type_parse("comm-recv") == 6);
	CHECK(et_node_type_parse("bogus") == -1);
	CHECK(strcmp(et_coll_type_name(7), "REDUCE_SCATTER") == 0);
	CHECK(et_coll_type_parse("allreduce") == 0);
	CHECK(et_coll_type_parse("all_to_all") == 6);
	CHECK(et_coll_type_parse("Reduce-Scatter-Block") == 8);
	CHECK(et_coll_type_parse("reduce") == 1);
}

static void test_ranklist(void)
{
	et_ranklist rl;
	CHECK(et_ranklist_parse(&rl, "0-3,7,9-10") == 0);
	CHECK(et_ranklist_has(&rl, 0) && et_ranklist_has(&rl, 3) && !et_ranklist_has(&rl, 4));
	CHECK(et_ranklist_has(&rl, 7) && et_ranklist_has(&rl, 10) && !et_ranklist_has(&rl, 11));
	et_ranklist_free(&rl);
	CHECK(et_ranklist_parse(&rl, "3-1") == -1);
	CHECK(et_ranklist_parse(&rl, "a") == -1);
	CHECK(et_ranklist_parse(&rl, "1,,2") == -1 && rl.n == 0);
	CHECK(et_ranklist_parse(&rl, "4294967296") == -1);
	CHECK(et_ranklist_parse(&rl, "") == 0 && et_ranklist_has(&rl, 123));
	CHECK(et_ranklist_parse(&rl, "1,") == 0 && et_ranklist_has(&rl, 1));
	et_ranklist_free(&rl);
}

static bool quotes(const char *s, size_t cap, const char *want)
{
	char buf[64];
	et_quote(s, buf, cap);
	if (strcmp(buf, want) != 0)
		fprintf(stderr, "  et_quote: got %s, want %s\n", buf, want);
	return strcmp(buf, want) == 0;
}

static void test_quote(void)
{
	CHECK(quotes("pg 1", 64, "\"pg 1\""));
	CHECK(quotes("a\nb\"c\\", 64, "\"a\\nb\\\"c\\\\\""));
	CHECK(quotes(NULL, 64, "\"\""));
	/* cut: 12 bytes hold "abcdefg..." and the NUL */
	CHECK(quotes("abcdefghijklmnop", 12, "\"abcdef...\""));
	/* an escape is never cut in half, nor a UTF-8 sequence */
	CHECK(quotes("\n\n\n\n\n\n\n\n", 12, "\"\\n\\n\\n...\""));
	CHECK(quotes("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 12,
	             "\"\xc3\xa9\xc3\xa9\xc3\xa9...\""));
	/* messages stay one line whatever text they quote */
	et_error e = {0};
	CHECK(et_fail(&e, 3, "in: %s", "a\nb\tc\x7f") == -1);
	CHECK(e.code == 3 && strcmp(e.msg, "in: a?b?c?") == 0);
	char msg[] = "x\r\ny";
	et_msg_one_line(msg);
	CHECK(strcmp(msg, "x??y") == 0);
	char tiny[4] = "xyz";
	et_quote("a", tiny, 4);
	CHECK(tiny[0] == '\0');
}

int main(void)
{
	test_varint();
	test_canonical();
	test_attr();
	test_names();
	test_ranklist();
	test_quote();
	return check_failures();
}
