#include "et_trace_event.h"
#include "et_json_str.h"

void et_te_open(et_te *w, FILE *f)
{
	et_jsonw_init(&w->j, f, NULL, ET_JSONW_COMPACT, ET_JSTR_CTRL_NT);
	et_jsonw_set_lines(&w->j, true);
	w->n = 0;
	et_jsonw_obj(&w->j);
}

void et_te_begin(et_te *w)
{
	et_jsonw_karr(&w->j, "traceEvents");
	et_jsonw_nl(&w->j);
}

/* Starts an event object: one a line. */
static void next(et_te *w, const char *ph, uint32_t pid)
{
	if (w->n++)
		et_jsonw_nl(&w->j);
	et_jsonw_obj(&w->j);
	et_jsonw_kstr(&w->j, "ph", ph);
	et_jsonw_kuint(&w->j, "pid", pid);
}

void et_te_complete(et_te *w, const et_te_event *e)
{
	et_jsonw *j = &w->j;
	next(w, "X", e->pid);
	et_jsonw_key(j, "tid");
	if (e->tid_name)
		et_jsonw_str(j, e->tid_name);
	else
		et_jsonw_uint(j, e->tid);
	et_jsonw_key(j, "ts");
	et_jsonw_us3(j, e->ts_ns);
	et_jsonw_key(j, "dur");
	et_jsonw_us3(j, e->dur_ns);
	et_jsonw_kstr(j, "name", e->name);
	if (e->cat)
		et_jsonw_kstr(j, "cat", e->cat);
	if (e->args) {
		et_jsonw_kobj(j, "args");
		return;
	}
	et_jsonw_end(j);
}

void et_te_end_args(et_te *w)
{
	et_jsonw_end(&w->j);
	et_jsonw_end(&w->j);
}

void et_te_meta(et_te *w, uint32_t pid, uint32_t tid, const char *name, const char *key,
                const char *val, long long num)
{
	et_jsonw *j = &w->j;
	next(w, "M", pid);
	et_jsonw_kuint(j, "tid", tid);
	et_jsonw_kint(j, "ts", 0);
	et_jsonw_kstr(j, "name", name);
	et_jsonw_kobj(j, "args");
	if (val)
		et_jsonw_kstr(j, key, val);
	else
		et_jsonw_kint(j, key, num);
	et_jsonw_end(j);
	et_jsonw_end(j);
}

void et_te_end(et_te *w)
{
	et_jsonw_nl(&w->j);
	et_jsonw_end(&w->j);
}

int et_te_close(et_te *w)
{
	et_jsonw_end(&w->j);
	return et_jsonw_done(&w->j);
}
