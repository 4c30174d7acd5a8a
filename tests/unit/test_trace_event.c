/* et_trace_event, the Chrome trace-event writer of et-sim --trace and
 * et-viz --timeline: the document's frame, the event layout, names escaped
 * (quote, backslash, controls; other bytes as they are), and times exact
 * to the nanosecond however large. Expected texts written by hand. */
#include "check.h"
#include "et_trace_event.h"

#include <stdlib.h>
#include <string.h>

static void document(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	et_te w;
	et_te_open(&w, f);
	et_jsonw_kint(&w.j, "a", 1);
	et_te_begin(&w);
	et_te_meta(&w, 3, 1, "thread_name", "name", "comm \"x\"", 0);
	et_te_meta(&w, 3, 1, "thread_sort_index", "sort_index", NULL, -2);
	et_te_complete(&w, &(et_te_event){.pid = 3,
	                                  .tid = 1,
	                                  .ts_ns = 1234567,
	                                  .dur_ns = 5,
	                                  .name = "a\"b\\c\nd\te\001f\377g",
	                                  .cat = "COMP_NODE",
	                                  .args = true});
	et_jsonw_kint(&w.j, "id", 7);
	et_te_end_args(&w);
	/* 2^53 + 1 ns: a double of the microseconds would lose the last digit */
	et_te_complete(&w, &(et_te_event){.pid = 0,
	                                  .tid_name = "comm",
	                                  .ts_ns = 9007199254740993ull,
	                                  .dur_ns = 18446744073709551615ull,
	                                  .name = ""});
	et_te_end(&w);
	et_jsonw_kint(&w.j, "z", 2);
	CHECK(et_te_close(&w) == 0);
	fclose(f);
	const char *want =
	    "{\"a\":1,\"traceEvents\":[\n"
	    "{\"ph\":\"M\",\"pid\":3,\"tid\":1,\"ts\":0,\"name\":\"thread_name\","
	    "\"args\":{\"name\":\"comm \\\"x\\\"\"}},\n"
	    "{\"ph\":\"M\",\"pid\":3,\"tid\":1,\"ts\":0,\"name\":\"thread_sort_index\","
	    "\"args\":{\"sort_index\":-2}},\n"
	    "{\"ph\":\"X\",\"pid\":3,\"tid\":1,\"ts\":1234.567,\"dur\":0.005,"
	    "\"name\":\"a\\\"b\\\\c\\nd\\te\\u0001f\377g\",\"cat\":\"COMP_NODE\","
	    "\"args\":{\"id\":7}},\n"
	    "{\"ph\":\"X\",\"pid\":0,\"tid\":\"comm\",\"ts\":9007199254740.993,"
	    "\"dur\":18446744073709551.615,\"name\":\"\"}\n"
	    "],\"z\":2}\n";
	CHECK(strcmp(buf, want) == 0);
	free(buf);
}

static void empty(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	et_te w;
	et_te_open(&w, f);
	et_te_begin(&w);
	et_te_end(&w);
	CHECK(et_te_close(&w) == 0);
	fclose(f);
	CHECK(strcmp(buf, "{\"traceEvents\":[\n\n]}\n") == 0);
	free(buf);
}

int main(void)
{
	document();
	empty();
	return check_failures();
}
