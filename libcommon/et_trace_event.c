#include "et_trace_event.h"
#include "et_json_str.h"

void et_te_str(FILE *f, const char *s)
{
	et_buf b = {0};
	et_json_str(&b, s ? s : "", ET_JSTR_CTRL_NT);
	fwrite(b.data, 1, b.len, f);
	et_buf_free(&b);
}

void et_te_open(et_te *w, FILE *f, const char *head)
{
	w->f = f;
	w->n = 0;
	fprintf(f, "{%s\"traceEvents\":[\n", head ? head : "");
}

static void next(et_te *w)
{
	if (w->n++)
		fputs(",\n", w->f);
}

/* Nanoseconds as microseconds, exactly. */
static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

void et_te_complete(et_te *w, const et_te_event *e)
{
	FILE *f = w->f;
	next(w);
	fprintf(f, "{\"ph\":\"X\",\"pid\":%u,\"tid\":", e->pid);
	if (e->tid_name)
		et_te_str(f, e->tid_name);
	else
		fprintf(f, "%u", e->tid);
	fputs(",\"ts\":", f);
	put_us(f, e->ts_ns);
	fputs(",\"dur\":", f);
	put_us(f, e->dur_ns);
	fputs(",\"name\":", f);
	et_te_str(f, e->name);
	if (e->cat) {
		fputs(",\"cat\":", f);
		et_te_str(f, e->cat);
	}
	if (e->args)
		fprintf(f, ",\"args\":{%s}", e->args);
	putc('}', f);
}

void et_te_meta(et_te *w, uint32_t pid, uint32_t tid, const char *name, const char *key,
                const char *val, long long num)
{
	FILE *f = w->f;
	next(w);
	fprintf(f, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"ts\":0,\"name\":", pid, tid);
	et_te_str(f, name);
	fputs(",\"args\":{", f);
	et_te_str(f, key);
	putc(':', f);
	if (val)
		et_te_str(f, val);
	else
		fprintf(f, "%lld", num);
	fputs("}}", f);
}

void et_te_close(et_te *w, const char *tail)
{
	fprintf(w->f, "\n]%s}\n", tail ? tail : "");
}
