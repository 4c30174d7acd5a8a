/* et_pyrepr against Python 3's own str()/repr() output (the expected strings
 * below are what CPython prints for json.loads of the same text). */
#include "check.h"
#include "et_pyrepr.h"

#include <string.h>

static int eq(const char *json, const char *want)
{
	et_buf b = {0};
	int ok = et_pyrepr(json, strlen(json), &b, NULL) == 0 && b.len == strlen(want) &&
	         memcmp(b.data, want, b.len) == 0;
	if (!ok)
		fprintf(stderr, "  %s -> %.*s (want %s)\n", json, (int)b.len, (char *)b.data, want);
	et_buf_free(&b);
	return ok;
}

static int fl(double v, const char *want)
{
	et_buf b = {0};
	et_pyrepr_float(v, &b);
	int ok = b.len == strlen(want) && memcmp(b.data, want, b.len) == 0;
	if (!ok)
		fprintf(stderr, "  %.17g -> %.*s (want %s)\n", v, (int)b.len, (char *)b.data, want);
	et_buf_free(&b);
	return ok;
}

int main(void)
{
	CHECK(eq("[]", "[]"));
	CHECK(eq("[[1],6,0,\"cpu\",false,\"<None>\"]", "[[1], 6, 0, 'cpu', False, '<None>']"));
	CHECK(eq("[[5,6,0,1,4,\"cpu\"]]", "[[5, 6, 0, 1, 4, 'cpu']]"));
	CHECK(eq(" [ null , true ] ", "[None, True]"));
	CHECK(eq("[9223372036854775807, 18446744073709551616, -0]",
	         "[9223372036854775807, 18446744073709551616, 0]"));
	CHECK(eq("[1e-05, 100.0, 1.5, 0.1, 1E5, 2.5e-3, 1e16, 1e15, 123456789012345678.0]",
	         "[1e-05, 100.0, 1.5, 0.1, 100000.0, 0.0025, 1e+16, 1000000000000000.0, "
	         "1.2345678901234568e+17]"));
	CHECK(eq("[0.0001, 0.00001, -0.0, 3.14159]", "[0.0001, 1e-05, -0.0, 3.14159]"));
	CHECK(eq("\"it's\"", "\"it's\""));
	CHECK(eq("\"say \\\"hi\\\"\"", "'say \"hi\"'"));
	CHECK(eq("\"both ' and \\\"\"", "'both \\' and \"'"));
	CHECK(eq("\"a\\\\b\\n\\t\\u0001\"", "'a\\\\b\\n\\t\\x01'"));
	CHECK(eq("\"caf\\u00e9 \\u00a0 \\u2028\"", "'caf\xc3\xa9 \\xa0 \\u2028'"));
	CHECK(eq("\"\\ud83d\\ude00\"", "'\xf0\x9f\x98\x80'"));
	CHECK(eq("{\"pg_name\": \"0\", \"ranks\": [0, 1]}", "{'pg_name': '0', 'ranks': [0, 1]}"));
	CHECK(eq("[\"[{\\\"pg_name\\\": \\\"0\\\"}]\"]", "['[{\"pg_name\": \"0\"}]']"));
	CHECK(eq("[NaN, Infinity, -Infinity]", "[nan, inf, -inf]"));
	CHECK(fl(5e-324, "5e-324"));
	CHECK(fl(1.7976931348623157e308, "1.7976931348623157e+308"));
	CHECK(fl(0.3, "0.3"));
	CHECK(fl(2.0 / 3.0, "0.6666666666666666"));
	CHECK(fl(1e22, "1e+22"));
	CHECK(fl(123.0, "123.0"));

	et_buf b = {0};
	size_t bad = 0;
	CHECK(et_pyrepr("[1, 2", 5, &b, &bad) == -1 && b.len == 0);
	CHECK(et_pyrepr("[1] x", 5, &b, &bad) == -1);
	CHECK(et_pyrepr("\"\\q\"", 4, &b, &bad) == -1);
	et_buf_free(&b);
	return check_failures();
}
