/* et_jsonw, the one JSON writer: the exact bytes of each style (expected texts
 * written by hand, or cJSON's own printer for the cJSON layout), nesting,
 * escaping, the number formats, JSONL, hand-placed lines, misuse and a
 * FILE's write error. */
#include "check.h"
#include "et_json_str.h"
#include "et_jsonw.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static et_buf out;
static et_jsonw w;

static void start(et_jsonw_style st, unsigned flags)
{
	out.len = 0;
	et_jsonw_init(&w, NULL, &out, st, flags);
}

/* Ends the writer; true if it succeeded and wrote exactly want. */
static int got(const char *want)
{
	int rc = et_jsonw_done(&w);
	et_buf_putc(&out, '\0');
	int ok = rc == 0 && strcmp((const char *)out.data, want) == 0;
	if (!ok)
		fprintf(stderr, "rc %d, got [%s], want [%s]\n", rc, (const char *)out.data, want);
	return ok;
}

/* {"a":1,"b":[true,null,"x"],"c":{},"d":[]} in the style st */
static void sample(et_jsonw_style st)
{
	start(st, 0);
	et_jsonw_obj(&w);
	static const char *const a_key[] = {"a"};
	const uint64_t a_val[] = {1};
	et_jsonw_kuints(&w, a_key, a_val, 1); /* as et_jsonw_kint(&w, "a", 1) */
	et_jsonw_key(&w, "b");
	et_jsonw_arr(&w);
	et_jsonw_bool(&w, true);
	et_jsonw_null(&w);
	et_jsonw_str(&w, "x");
	et_jsonw_end(&w);
	et_jsonw_kobj(&w, "c"); /* the shorthands: the same bytes as key, obj */
	et_jsonw_end(&w);
	et_jsonw_karr(&w, "d");
	et_jsonw_end(&w);
	et_jsonw_end(&w);
}

static void styles(void)
{
	sample(ET_JSONW_COMPACT);
	CHECK(got("{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{},\"d\":[]}"));
	sample(ET_JSONW_SPACED);
	CHECK(got("{\"a\": 1, \"b\": [true, null, \"x\"], \"c\": {}, \"d\": []}"));
	sample(ET_JSONW_INDENT);
	CHECK(got("{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null,\n    \"x\"\n  ],\n"
	          "  \"c\": {},\n  \"d\": []\n}"));
	sample(ET_JSONW_CJSON);
	CHECK(got("{\n\t\"a\":\t1,\n\t\"b\":\t[true, null, \"x\"],\n\t\"c\":\t{\n\t},\n"
	          "\t\"d\":\t[]\n}"));
	/* a top-level array of scalars, and deep nesting */
	start(ET_JSONW_COMPACT, 0);
	for (int i = 0; i < 100; i++)
		et_jsonw_arr(&w);
	for (int i = 0; i < 100; i++)
		et_jsonw_end(&w);
	char deep[201];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	deep[200] = 0;
	CHECK(got(deep));
}

static void lines(void)
{
	/* JSONL: one record a line */
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_set_lines(&w, true);
	for (int i = 0; i < 2; i++) {
		et_jsonw_obj(&w);
		et_jsonw_kint(&w, "i", i);
		et_jsonw_end(&w);
	}
	et_jsonw_int(&w, 7);
	CHECK(got("{\"i\":0}\n{\"i\":1}\n7\n"));
	/* hand-placed lines: after the comma, before the close; they add up */
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&w);
	et_jsonw_kint(&w, "a", 1);
	et_jsonw_nl(&w);
	et_jsonw_key(&w, "b");
	et_jsonw_arr(&w);
	et_jsonw_nl(&w);
	et_jsonw_int(&w, 1);
	et_jsonw_nl(&w);
	et_jsonw_int(&w, 2);
	et_jsonw_nl(&w);
	et_jsonw_end(&w);
	et_jsonw_nl(&w);
	et_jsonw_key(&w, "c");
	et_jsonw_arr(&w);
	et_jsonw_nl(&w);
	et_jsonw_nl(&w);
	et_jsonw_end(&w);
	et_jsonw_end(&w);
	CHECK(got("{\"a\":1,\n\"b\":[\n1,\n2\n],\n\"c\":[\n\n]}"));
}

static void strings(void)
{
	/* keys and values through et_json_str, with the writer's flags */
	start(ET_JSONW_COMPACT, ET_JSTR_CTRL_NT);
	et_jsonw_obj(&w);
	et_jsonw_kstr(&w, "k\"\\", "a\rb\n\xff");
	et_jsonw_key(&w, "n");
	et_jsonw_strn(&w, "xyz", 2);
	et_jsonw_kstr(&w, "z", NULL);
	et_jsonw_end(&w);
	CHECK(got("{\"k\\\"\\\\\":\"a\\u000db\\n\xff\",\"n\":\"xy\",\"z\":\"\"}"));
	start(ET_JSONW_COMPACT, ET_JSTR_ASCII);
	et_jsonw_str(&w, "\xc3\xa9\r");
	CHECK(got("\"\\u00e9\\r\""));
}

/* members made earlier, spliced into an object; and a writer released
 * with its containers open (the caller closes them) */
static void splice(void)
{
	start(ET_JSONW_SPACED, 0);
	et_jsonw_obj(&w);
	et_jsonw_kint(&w, "a", 1);
	et_jsonw_members(&w, "{\"b\": 2, \"c\": [3]}");
	et_jsonw_members(&w, "{}");
	et_jsonw_kint(&w, "d", 4);
	et_jsonw_end(&w);
	CHECK(got("{\"a\": 1, \"b\": 2, \"c\": [3], \"d\": 4}"));
	start(ET_JSONW_SPACED, 0);
	et_jsonw_obj(&w);
	et_jsonw_members(&w, "{\"b\": 2}");
	et_jsonw_end(&w);
	CHECK(got("{\"b\": 2}"));
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_arr(&w);
	et_jsonw_members(&w, "{\"b\":2}");
	CHECK(et_jsonw_done(&w) == -1);
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&w);
	et_jsonw_key(&w, "n");
	et_jsonw_arr(&w);
	et_jsonw_release(&w);
	et_buf_putc(&out, '\0');
	CHECK(strcmp((const char *)out.data, "{\"n\":[") == 0);
}

static void numbers(void)
{
	start(ET_JSONW_SPACED, 0);
	et_jsonw_arr(&w);
	et_jsonw_int(&w, INT64_MIN);
	et_jsonw_uint(&w, UINT64_MAX);
	et_jsonw_g17(&w, 0.1);
	et_jsonw_fixed(&w, 2.0 / 3, 6);
	et_jsonw_fixed(&w, 1.5, 0);
	et_jsonw_repr(&w, 0.1, false);
	et_jsonw_repr(&w, 0.1f, true);
	et_jsonw_repr(&w, 1e22, false);
	et_jsonw_repr(&w, -0.0, false);
	et_jsonw_us3(&w, 1234567);
	et_jsonw_us3(&w, 5);
	et_jsonw_raw(&w, "1e3", 3);
	et_jsonw_end(&w);
	CHECK(got("[-9223372036854775808, 18446744073709551615, 0.10000000000000001, 0.666667, "
	          "2, 0.1, 0.1, 1e+22, -0.0, 1234.567, 0.005, 1e3]"));
	/* NaN and infinities are null in every format */
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_arr(&w);
	et_jsonw_g17(&w, NAN);
	et_jsonw_fixed(&w, INFINITY, 3);
	et_jsonw_repr(&w, -INFINITY, false);
	et_jsonw_cjnum(&w, NAN);
	et_jsonw_end(&w);
	CHECK(got("[null,null,null,null]"));
}

/* et_jsonw_cjson against cJSON's own printer, both layouts */
static void same_as_cjson(const char *doc)
{
	cJSON *j = cJSON_Parse(doc);
	CHECK(j);
	if (!j)
		return;
	for (int fmt = 0; fmt < 2; fmt++) {
		char *want = fmt ? cJSON_Print(j) : cJSON_PrintUnformatted(j);
		start(fmt ? ET_JSONW_CJSON : ET_JSONW_COMPACT, 0);
		et_jsonw_cjson(&w, j);
		CHECK(got(want));
		free(want);
	}
	cJSON_Delete(j);
}

static void cjson_trees(void)
{
	same_as_cjson("{\"a\":[1,2.5,{\"b\":{},\"c\":[]},[[{}]]],\"s\":\"q\\\"\\\\\\b\\f\\n\\r\\t"
	              "\\u0001\\u001f\\u007f\\u00e9\",\"t\":true,\"f\":false,\"n\":null,"
	              "\"e\":{\"x\":{\"y\":[{\"z\":1}]}}}");
	/* numbers: ints, saturated ints, %1.15g and %1.17g, exponents, -0 */
	same_as_cjson("[0,-1,2147483647,2147483648,-2147483648,-2147483649,3e9,1e300,0.1,"
	              "0.30000000000000004,1.7976931348623157e308,5e-324,-0.0,123456.789,"
	              "1e-7,0.5,2.5e15,9007199254740993]");
	same_as_cjson("[]");
	same_as_cjson("{}");
	same_as_cjson("\"top\"");
	same_as_cjson("[{},{\"a\":[]}]");
}

static void misuse(void)
{
	/* a value without a key in an object: refused, nothing more written */
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&w);
	et_jsonw_int(&w, 1);
	et_jsonw_kint(&w, "a", 2);
	errno = 0;
	CHECK(et_jsonw_done(&w) == -1 && errno == EINVAL);
	CHECK(out.len == 1);
	/* a key in an array, a key after a key, an end too many, one left open */
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_arr(&w);
	et_jsonw_key(&w, "a");
	CHECK(et_jsonw_done(&w) == -1);
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&w);
	et_jsonw_key(&w, "a");
	et_jsonw_key(&w, "b");
	CHECK(et_jsonw_done(&w) == -1);
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_end(&w);
	CHECK(et_jsonw_done(&w) == -1 && out.len == 0);
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&w);
	CHECK(et_jsonw_done(&w) == -1);
	start(ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&w);
	et_jsonw_key(&w, "a");
	et_jsonw_end(&w);
	CHECK(et_jsonw_done(&w) == -1);
}

static void files(void)
{
	/* to a FILE: the same bytes */
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);
	et_jsonw_init(&w, f, NULL, ET_JSONW_SPACED, 0);
	et_jsonw_obj(&w);
	et_jsonw_kstr(&w, "a", "b");
	et_jsonw_end(&w);
	CHECK(et_jsonw_done(&w) == 0);
	fclose(f);
	CHECK(n == 10 && memcmp(p, "{\"a\": \"b\"}", 10) == 0);
	free(p);
	/* a write error is reported, not printed */
	f = fopen("/dev/full", "w");
	if (f) {
		setvbuf(f, NULL, _IONBF, 0);
		et_jsonw_init(&w, f, NULL, ET_JSONW_COMPACT, 0);
		et_jsonw_int(&w, 1);
		CHECK(et_jsonw_done(&w) == -1);
		fclose(f);
	}
}

int main(void)
{
	styles();
	lines();
	strings();
	splice();
	numbers();
	cjson_trees();
	misuse();
	files();
	et_buf_free(&out);
	return check_failures();
}
