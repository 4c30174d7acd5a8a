/* et_trace_event: the one writer of Chrome trace-event JSON (the "JSON
 * Object Format" that Perfetto and chrome://tracing open), for et-sim
 * --trace and et-viz --timeline.
 *
 * A document is {HEAD"traceEvents":[\n EVENT,\n EVENT ... \n]TAIL}\n: the
 * caller's HEAD and TAIL members (already JSON, each ending or starting
 * with its comma) around the array, one event per line so that grep and
 * jq -c work on it. Times are integer nanoseconds written as microseconds
 * with three decimals, exactly ("1234.567"): the format's unit is the
 * microsecond, and three decimals keep every nanosecond. */
#ifndef ET_TRACE_EVENT_H
#define ET_TRACE_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct et_te {
	FILE *f;
	size_t n; /* events written */
} et_te;

/* A complete ("X") event: ph, pid, tid, ts, dur, name[, cat][, args]. */
typedef struct et_te_event {
	uint32_t pid;
	uint32_t tid;         /* the thread, unless tid_name is set */
	const char *tid_name; /* a thread named by a string ("comm"), or NULL */
	uint64_t ts_ns, dur_ns;
	const char *name; /* escaped here (et_te_str) */
	const char *cat;  /* NULL: no "cat" */
	const char *args; /* the members of "args", already JSON; NULL: no "args" */
} et_te_event;

/* Writes "{", head (NULL: nothing) and "\"traceEvents\":[\n". */
void et_te_open(et_te *w, FILE *f, const char *head);
void et_te_complete(et_te *w, const et_te_event *e);
/* A metadata ("M") event at ts 0: name (process_name, thread_sort_index ...)
 * with args {key: val} (a string when val is set, else the number num). */
void et_te_meta(et_te *w, uint32_t pid, uint32_t tid, const char *name, const char *key,
                const char *val, long long num);
/* Writes "\n]", tail (NULL: nothing) and "}\n". */
void et_te_close(et_te *w, const char *tail);

/* s as a JSON string, quotes included: '"' and '\\' escaped, \n and \t
 * by their short forms, the other bytes below 0x20 as \u00XX; every byte
 * from 0x20 up (UTF-8 or not) as it is. */
void et_te_str(FILE *f, const char *s);

#endif
