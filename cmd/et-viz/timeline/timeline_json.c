/* The timeline as Chrome trace-event JSON (et_trace_event): one process per
 * rank, one thread per track, complete ("X") events with ts/dur relative to
 * the earliest event. Names are sanitised for display first (viz_put_text),
 * as in the other formats. */
#include "et-viz/draw/style.h"
#include "et-viz/timeline/timeline.h"
#include "et_attr.h"
#include "et_json_str.h"
#include "et_trace_event.h"
#include "et_types.h"

/* s made valid UTF-8 without control characters, in b (valid until the
 * next call). */
static const char *shown(et_buf *b, const char *s)
{
	b->len = 0;
	viz_put_text(b, s, 0);
	et_buf_putc(b, '\0');
	return (const char *)b->data;
}

static bool rank_seen(const timeline *t, uint32_t k)
{
	for (uint32_t j = 0; j < k; j++)
		if (t->tr[j].rank == t->tr[k].rank)
			return true;
	return false;
}

static void metadata(const timeline *t, et_te *w, et_buf *b)
{
	for (uint32_t k = 0; k < t->ntr; k++) {
		const tl_track *tr = &t->tr[k];
		if (!rank_seen(t, k)) {
			char name[32];
			snprintf(name, sizeof name, "rank %u", tr->rank);
			et_te_meta(w, tr->rank, 0, "process_name", "name", name, 0);
			et_te_meta(w, tr->rank, 0, "process_sort_index", "sort_index", NULL,
			           tr->rank);
		}
		et_te_meta(w, tr->rank, k + 1, "thread_name", "name", shown(b, tr->name), 0);
		et_te_meta(w, tr->rank, k + 1, "thread_sort_index", "sort_index", NULL, tr->order);
	}
}

static void event(const timeline *t, const tl_event *ev, et_te *w, et_buf *b)
{
	const char *tn = et_node_type_name(ev->type);
	et_te_complete(w, &(et_te_event){.pid = ev->rank,
	                                 .tid = ev->track + 1,
	                                 .ts_ns = ev->start_ns - t->origin_ns,
	                                 .dur_ns = ev->dur_ns,
	                                 .name = shown(b, (const char *)t->names.data + ev->name),
	                                 .cat = tn ? tn : "UNKNOWN",
	                                 .args = true});
	et_jsonw_kuint(&w->j, "id", ev->id);
	const char *ct = ev->comm_type >= 0 ? et_coll_type_name(ev->comm_type) : NULL;
	if (ct)
		et_jsonw_kstr(&w->j, "comm_type", ct);
	if (ev->has_size)
		et_jsonw_kint(&w->j, "comm_size", ev->comm_size);
	et_te_end_args(w);
}

void tl_write_json(const timeline *t, FILE *f)
{
	et_buf b = {0};
	et_te w;
	et_te_open(&w, f);
	et_jsonw *j = &w.j;
	et_jsonw_kstr(j, "displayTimeUnit", "ns");
	et_jsonw_kobj(j, "otherData");
	et_jsonw_kstr(j, "generator", "et-viz");
	/* the source is a path: escaped like every other JSON string (no
	 * flags, not the events' ET_JSTR_CTRL_NT) */
	et_jsonw_set_str_flags(j, 0);
	et_jsonw_kstr(j, "source", t->source);
	et_jsonw_set_str_flags(j, ET_JSTR_CTRL_NT);
	et_jsonw_kuint(j, "origin_ns", t->origin_ns);
	et_jsonw_end(j);
	et_jsonw_nl(j);
	et_te_begin(&w);
	metadata(t, &w, &b);
	for (size_t k = 0; k < t->n; k++)
		event(t, &t->ev[k], &w, &b);
	et_te_end(&w);
	et_te_close(&w);
	et_buf_free(&b);
}
