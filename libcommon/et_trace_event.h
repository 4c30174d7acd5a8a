/* et_trace_event: the one writer of Chrome trace-event JSON (the "JSON
 * Object Format" that Perfetto and chrome://tracing open), for et-sim
 * --trace and et-viz --timeline, on top of the JSON writer et_jsonw.
 *
 * A document is {HEAD"traceEvents":[\n EVENT,\n EVENT ... \n]TAIL}\n: the
 * caller's HEAD and TAIL members (written to w->j, et_jsonw compact) around
 * the array, one event per line so that grep and jq -c work on it. Times
 * are integer nanoseconds written as microseconds with three decimals,
 * exactly ("1234.567"): the format's unit is the microsecond, and three
 * decimals keep every nanosecond. Strings are escaped as et_json_str's
 * ET_JSTR_CTRL_NT says (\n and \t short, other controls \u00XX, every byte
 * from 0x20 up as it is). */
#ifndef ET_TRACE_EVENT_H
#define ET_TRACE_EVENT_H

#include "et_jsonw.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct et_te {
	et_jsonw j; /* the document; the caller writes HEAD and TAIL members here */
	size_t n;   /* events written */
} et_te;

/* A complete ("X") event: ph, pid, tid, ts, dur, name[, cat][, args]. */
typedef struct et_te_event {
	uint32_t pid;
	uint32_t tid;         /* the thread, unless tid_name is set */
	const char *tid_name; /* a thread named by a string ("comm"), or NULL */
	uint64_t ts_ns, dur_ns;
	const char *name; /* escaped here */
	const char *cat;  /* NULL: no "cat" */
	bool args;        /* "args":{ left open: the caller writes its members to
	                     w->j, then calls et_te_end_args */
} et_te_event;

/* Writes "{": HEAD members may follow (to w->j). */
void et_te_open(et_te *w, FILE *f);
/* Writes "\"traceEvents\":[\n" (after HEAD's comma). */
void et_te_begin(et_te *w);
void et_te_complete(et_te *w, const et_te_event *e);
/* Closes the args and the event that et_te_complete left open. */
void et_te_end_args(et_te *w);
/* A metadata ("M") event at ts 0: name (process_name, thread_sort_index ...)
 * with args {key: val} (a string when val is set, else the number num). */
void et_te_meta(et_te *w, uint32_t pid, uint32_t tid, const char *name, const char *key,
                const char *val, long long num);
/* Writes "\n]": TAIL members may follow (to w->j). */
void et_te_end(et_te *w);
/* Writes "}\n". Returns et_jsonw_done's result (-1: f's write error or a
 * misuse). */
int et_te_close(et_te *w);

#endif
