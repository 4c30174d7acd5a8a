/* Chrome trace-event JSON (the "JSON Object Format" that Perfetto and
 * chrome://tracing open): one process per rank, one thread per track,
 * complete ("X") events with ts/dur in microseconds relative to the
 * earliest event (three decimals keep nanoseconds exact). One event per
 * line, so grep and jq -c work on it. */
#include "et-viz/draw/style.h"
#include "et-viz/timeline/timeline.h"
#include "et_attr.h"
#include "et_types.h"

typedef struct jw {
	FILE *f;
	size_t items;
	et_buf b;
} jw;

static void next(jw *w)
{
	if (w->items++)
		fputs(",\n", w->f);
}

static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

static const char *escaped(jw *w, const char *s)
{
	w->b.len = 0;
	viz_put_text(&w->b, s, ESC_JSON);
	et_buf_putc(&w->b, '\0');
	return (const char *)w->b.data;
}

static void meta(jw *w, uint32_t pid, uint32_t tid, const char *what, const char *key,
                 const char *val, long long num)
{
	next(w);
	fprintf(w->f,
	        "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"ts\":0,\"name\":\"%s\",\"args\":{\"%s\":",
	        pid, tid, what, key);
	if (val)
		fprintf(w->f, "\"%s\"}}", escaped(w, val));
	else
		fprintf(w->f, "%lld}}", num);
}

static bool rank_seen(const timeline *t, uint32_t k)
{
	for (uint32_t j = 0; j < k; j++)
		if (t->tr[j].rank == t->tr[k].rank)
			return true;
	return false;
}

static void metadata(const timeline *t, jw *w)
{
	for (uint32_t k = 0; k < t->ntr; k++) {
		const tl_track *tr = &t->tr[k];
		if (!rank_seen(t, k)) {
			char name[32];
			snprintf(name, sizeof name, "rank %u", tr->rank);
			meta(w, tr->rank, 0, "process_name", "name", name, 0);
			meta(w, tr->rank, 0, "process_sort_index", "sort_index", NULL, tr->rank);
		}
		meta(w, tr->rank, k + 1, "thread_name", "name", tr->name, 0);
		meta(w, tr->rank, k + 1, "thread_sort_index", "sort_index", NULL, tr->order);
	}
}

static void event(const timeline *t, const tl_event *ev, jw *w)
{
	FILE *f = w->f;
	const char *tn = et_node_type_name(ev->type);
	next(w);
	fprintf(f, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"ts\":", ev->rank, ev->track + 1);
	put_us(f, ev->start_ns - t->origin_ns);
	fputs(",\"dur\":", f);
	put_us(f, ev->dur_ns);
	fprintf(f, ",\"name\":\"%s\",\"cat\":\"%s\",\"args\":{\"id\":%llu",
	        escaped(w, (const char *)t->names.data + ev->name), tn ? tn : "UNKNOWN",
	        (unsigned long long)ev->id);
	const char *ct = ev->comm_type >= 0 ? et_coll_type_name(ev->comm_type) : NULL;
	if (ct)
		fprintf(f, ",\"comm_type\":\"%s\"", ct);
	if (ev->has_size)
		fprintf(f, ",\"comm_size\":%lld", (long long)ev->comm_size);
	fputs("}}", f);
}

void tl_write_json(const timeline *t, FILE *f)
{
	jw w = {f, 0, {0}};
	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"et-viz\",", f);
	fprintf(f, "\"source\":\"%s\",\"origin_ns\":%llu},\n\"traceEvents\":[\n", t->source,
	        (unsigned long long)t->origin_ns);
	metadata(t, &w);
	for (size_t k = 0; k < t->n; k++)
		event(t, &t->ev[k], &w);
	fputs("\n]}\n", f);
	et_buf_free(&w.b);
}
