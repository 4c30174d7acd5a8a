/* et_json_str, the one JSON string escaper, in each writer's layout: the
 * escapes, and the one invalid-UTF-8 policy (bytes as they are; \ufffd a
 * byte where the output must be ASCII). Expected texts written by hand. */
#include "check.h"
#include "et_json_str.h"

#include <stdlib.h>
#include <string.h>

static int is(const char *s, unsigned flags, const char *want)
{
	et_buf b = {0};
	et_json_str(&b, s, flags);
	et_buf_putc(&b, '\0');
	int ok = strcmp((const char *)b.data, want) == 0;
	if (!ok)
		fprintf(stderr, "got %s, want %s\n", (const char *)b.data, want);
	et_buf_free(&b);
	return ok;
}

/* quote, backslash, the five short controls, another control, DEL, é,
 * U+2028, U+1F600, then invalid: a stray continuation, an overlong, a
 * surrogate, a cut sequence at the end */
static const char in[] = "q\"b\\\b\f\n\r\t\001\177\xc3\xa9\xe2\x80\xa8\xf0\x9f\x98\x80"
                         "\x80\xc0\xaf\xed\xa0\x80\xe2\x82";

static void layouts(void)
{
	/* et_json (ET -> JSON, JSONL): line separators escaped */
	CHECK(is(in, ET_JSTR_LINESEP,
	         "\"q\\\"b\\\\\\b\\f\\n\\r\\t\\u0001\177\xc3\xa9\\u2028\xf0\x9f\x98\x80"
	         "\x80\xc0\xaf\xed\xa0\x80\xe2\x82\""));
	/* the jsonizer (json.dumps(ensure_ascii=True)) */
	CHECK(is(in, ET_JSTR_ASCII,
	         "\"q\\\"b\\\\\\b\\f\\n\\r\\t\\u0001\\u007f\\u00e9\\u2028\\ud83d\\ude00"
	         "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\""));
	/* et-sim's reports and trace events */
	CHECK(is(in, ET_JSTR_CTRL_NT,
	         "\"q\\\"b\\\\\\u0008\\u000c\\n\\u000d\\t\\u0001\177\xc3\xa9\xe2\x80\xa8"
	         "\xf0\x9f\x98\x80\x80\xc0\xaf\xed\xa0\x80\xe2\x82\""));
	/* et-validate's reports */
	CHECK(is(in, ET_JSTR_CTRL_HEX,
	         "\"q\\\"b\\\\\\u0008\\u000c\\u000a\\u000d\\u0009\\u0001\177\xc3\xa9\xe2\x80\xa8"
	         "\xf0\x9f\x98\x80\x80\xc0\xaf\xed\xa0\x80\xe2\x82\""));
	/* no flags: cJSON's layout, the same policy */
	CHECK(is("\x01\xff", 0, "\"\\u0001\xff\""));
	CHECK(is("", ET_JSTR_ASCII, "\"\""));
	/* the fast path and the general one agree on a long plain run */
	CHECK(is("abcdefghijklmnopqrstuvwxyz\xc2\x85.", ET_JSTR_LINESEP,
	         "\"abcdefghijklmnopqrstuvwxyz\\u0085.\""));
}

int main(void)
{
	layouts();
	return check_failures();
}
