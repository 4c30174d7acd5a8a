/* Unit tests of et_jsonscan: value extents in a window, line/column, and the
 * number-quoting pre-pass, against hand-worked positions and texts. */
#include "check.h"
#include "et_jsonscan.h"

#include <stdlib.h>
#include <string.h>

#define FAIL ((size_t)-1)

static size_t end_of(const char *s)
{
	return et_jsonscan_value_end(s, strlen(s), 0);
}

static void test_ws(void)
{
	CHECK(et_jsonscan_ws(" \t\r\n x", 6, 0) == 5);
	CHECK(et_jsonscan_ws("x", 1, 0) == 0);
	CHECK(et_jsonscan_ws("   ", 3, 1) == 3);
	CHECK(et_jsonscan_ws("\v", 1, 0) == 0); /* not JSON white space */
}

static void test_complete(void)
{
	CHECK(end_of("{}") == 2);
	CHECK(end_of("[]") == 2);
	CHECK(end_of("{\"a\":[1,2,{\"b\":null}]} tail") == 22);
	/* brackets and quotes inside strings do not count */
	CHECK(end_of("{\"a\":\"}]{[\"}x") == 12);
	CHECK(end_of("\"a\\\"b\"x") == 6); /* "a\"b" */
	CHECK(end_of("\"a\\\\\"x") == 5);  /* "a\\" then x */
	CHECK(end_of("[\"\\u005d\"]") == 10);
	/* a scalar ends at its delimiter */
	CHECK(end_of("123,") == 3);
	CHECK(end_of("true}") == 4);
	CHECK(end_of("-1.5e+3 ") == 7);
	/* from a position inside the window */
	CHECK(et_jsonscan_value_end("xx{\"k\":1}", 9, 2) == 9);
}

static void test_incomplete(void)
{
	CHECK(end_of("{\"a\":1") == 0);
	CHECK(end_of("{\"a\":\"xyz") == 0);
	CHECK(end_of("\"ab\\") == 0); /* window ends inside an escape */
	CHECK(end_of("[[[") == 0);
	CHECK(end_of("123") == 0); /* more digits may follow */
	CHECK(end_of("") == 0);
}

static void test_malformed(void)
{
	size_t bad = 0;
	CHECK(et_jsonscan_value_end_ex("{\"a\":[1}", 8, 0, &bad) == FAIL && bad == 7);
	CHECK(et_jsonscan_value_end_ex("[1,2]]", 6, 5, &bad) == FAIL && bad == 5);
	CHECK(et_jsonscan_value_end("[1,2]]", 6, 1) == 2); /* the token 1 */
	CHECK(et_jsonscan_value_end_ex("}", 1, 0, &bad) == FAIL && bad == 0);
	CHECK(et_jsonscan_value_end_ex(",1", 2, 0, &bad) == FAIL && bad == 0);
	CHECK(et_jsonscan_value_end_ex("{\"a\nb\":1}", 9, 0, &bad) == FAIL && bad == 3);
	CHECK(et_jsonscan_value_end_ex("{\"a\":#}", 7, 0, &bad) == FAIL && bad == 5);
	CHECK(et_jsonscan_value_end_ex("[\x01]", 3, 0, &bad) == FAIL && bad == 1);
	CHECK(et_jsonscan_value_end_ex(" {}", 3, 0, &bad) == FAIL && bad == 0);
}

/* Nesting is followed to ET_JSONSCAN_MAX_DEPTH, and no deeper. */
static void test_depth(void)
{
	size_t n = ET_JSONSCAN_MAX_DEPTH;
	char *s = malloc(2 * n + 2);
	memset(s, '[', n);
	memset(s + n, ']', n);
	CHECK(et_jsonscan_value_end(s, 2 * n, 0) == 2 * n);
	memset(s, '[', n + 1);
	memset(s + n + 1, ']', n + 1);
	size_t bad = 0;
	CHECK(et_jsonscan_value_end_ex(s, 2 * n + 2, 0, &bad) == FAIL && bad == n);
	free(s);
}

static void test_linecol(void)
{
	const char *t = "ab\ncde\n\nf";
	unsigned long l, c;
	et_jsonscan_linecol(t, 0, &l, &c);
	CHECK(l == 1 && c == 1);
	et_jsonscan_linecol(t, 2, &l, &c);
	CHECK(l == 1 && c == 3);
	et_jsonscan_linecol(t, 3, &l, &c);
	CHECK(l == 2 && c == 1);
	et_jsonscan_linecol(t, 5, &l, &c);
	CHECK(l == 2 && c == 3);
	et_jsonscan_linecol(t, 8, &l, &c);
	CHECK(l == 4 && c == 1);
}

static int quoted(const char *in, const char *want)
{
	et_buf b = {0};
	size_t n = et_jsonscan_quote_numbers(in, strlen(in), &b);
	int ok = b.len == strlen(want) && memcmp(b.data, want, b.len) == 0;
	if (!ok)
		fprintf(stderr, "quote(%s) = %.*s, want %s\n", in, (int)b.len, (char *)b.data,
		        want);
	et_buf_free(&b);
	return ok ? (int)n : -1;
}

static void test_quote(void)
{
	/* 15 significant digits stay numbers; 16 and more become strings */
	CHECK(quoted("[123456789012345]", "[123456789012345]") == 0);
	CHECK(quoted("[1234567890123456]", "[\"1234567890123456\"]") == 1);
	CHECK(quoted("{\"id\":18446744073709551615}", "{\"id\":\"18446744073709551615\"}") == 1);
	CHECK(quoted("[-9223372036854775808,5]", "[\"-9223372036854775808\",5]") == 1);
	/* leading zeros are not significant */
	CHECK(quoted("[000000000000000000001]", "[000000000000000000001]") == 0);
	/* reals are always read from their text */
	CHECK(quoted("[0.5,-1e-05,2E3]", "[\"0.5\",\"-1e-05\",\"2E3\"]") == 3);
	/* inside strings nothing changes, escapes included */
	CHECK(quoted("[\"12345678901234567\",\"a\\\"1.5\"]",
	             "[\"12345678901234567\",\"a\\\"1.5\"]") == 0);
	/* words are not numbers */
	CHECK(quoted("[true,false,null,abc1.5]", "[true,false,null,abc1.5]") == 0);
	CHECK(quoted("", "") == 0);
	CHECK(quoted("[\"unterminated 1.5", "[\"unterminated 1.5") == 0);
}

/* Where each member's key starts, as cJSON's children are ordered. */
static void test_member_keys(void)
{
	size_t off[4];
	const char *s = "{\"a\": 1,\n \"b\": {\"x\": [1, \"}\"]},\n\"c\":\"v,\\\"w\"}";
	CHECK(et_jsonscan_member_keys(s, strlen(s), 0, off, 4) == 3);
	CHECK(off[0] == 1 && off[1] == 10 && off[2] == 32);
	unsigned long line, col;
	et_jsonscan_linecol(s, off[2], &line, &col);
	CHECK(line == 3 && col == 1);
	/* counting only, and a short array */
	CHECK(et_jsonscan_member_keys(s, strlen(s), 0, NULL, 0) == 3);
	CHECK(et_jsonscan_member_keys(s, strlen(s), 0, off, 1) == 3 && off[0] == 1);
	/* white space and a byte-order mark before the object; empty objects */
	CHECK(et_jsonscan_member_keys("\xEF\xBB\xBF \n{\"k\":null}", 15, 0, off, 4) == 1 &&
	      off[0] == 6);
	CHECK(et_jsonscan_member_keys(" { } ", 5, 0, off, 4) == 0);
	/* a key repeated is two members: duplicates are the caller's to find */
	CHECK(et_jsonscan_member_keys("{\"k\":1,\"k\":2}", 15, 0, off, 4) == 2 && off[1] == 7);
	/* From a later member on: off[0] is member 1's key. */
	CHECK(et_jsonscan_member_keys("{\"k\":1,\"k\":2}", 15, 1, off, 1) == 2 && off[0] == 7);
	/* not one object */
	const size_t bad = (size_t)-1;
	CHECK(et_jsonscan_member_keys("[1]", 3, 0, off, 4) == bad);
	CHECK(et_jsonscan_member_keys("{\"a\":1", 6, 0, off, 4) == bad);
	CHECK(et_jsonscan_member_keys("{\"a\" 1}", 7, 0, off, 4) == bad);
	CHECK(et_jsonscan_member_keys("{\"a\":1,}", 8, 0, off, 4) == bad);
	CHECK(et_jsonscan_member_keys("{a:1}", 5, 0, off, 4) == bad);
	CHECK(et_jsonscan_member_keys("", 0, 0, off, 4) == bad);
}

int main(void)
{
	test_ws();
	test_complete();
	test_incomplete();
	test_malformed();
	test_depth();
	test_linecol();
	test_quote();
	test_member_keys();
	return check_failures();
}
