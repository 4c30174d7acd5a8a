/* Kineto trace JSON -> kt_data, one event object at a time: the document
 * ({"traceEvents": [...], ...} or the legacy profiler's bare event array) is
 * never held whole, only the current event's text. */
#include "et-convert/pytorch/pt_jr.h"
#include "et-convert/pytorch/pt_json.h"
#include "et-convert/pytorch/pt_kineto.h"
#include "et_src.h"

#include <string.h>

static int one_event(void *ctx)
{
	return kt_event(ctx);
}

static int read_events(krd *r)
{
	return pt_jr_each(r->w, "traceEvents", "trace event", one_event, r);
}

static int skip_value(pt_jr *w)
{
	int ch = pt_jr_peek(w);
	if (ch < 0)
		return ch == -1 ? -1 : pt_jr_fail(w, 0, "unexpected end of JSON");
	pj_span v;
	if (pt_jr_value(w, &v) < 0)
		return -1;
	pt_jr_consume(w, v.n);
	return 0;
}

typedef struct doc {
	krd *r;
	bool found; /* a "traceEvents" member */
} doc;

static int doc_member(void *ctx, pj_span key)
{
	doc *d = ctx;
	bool events = pj_key_is(key, "traceEvents");
	d->found |= events;
	return events ? read_events(d->r) : skip_value(d->r->w);
}

/* {"traceEvents": [...], other keys...}; the '{' is next. */
static int read_object(krd *r, const char *path)
{
	doc d = {r, false};
	if (pt_jr_members(r->w, doc_member, &d) < 0)
		return -1;
	if (!d.found)
		return et_fail(r->w->e, ET_EXIT_DATA,
		               "%s: no \"traceEvents\" key: not a Kineto trace", path);
	return 0;
}

static int read_doc(krd *r, const char *path)
{
	pt_jr *w = r->w;
	int ch = pt_jr_peek(w);
	if (ch == -1)
		return -1;
	if (ch == '[') {
		r->bare = true;
		if (read_events(r) < 0)
			return -1;
	} else if (ch == '{') {
		if (read_object(r, path) < 0)
			return -1;
	} else {
		return et_fail(w->e, ET_EXIT_DATA,
		               "%s: not a Kineto trace: expected {\"traceEvents\": [...]} or an "
		               "array of trace events",
		               path);
	}
	ch = pt_jr_peek(w);
	if (ch == -1)
		return -1;
	return ch == -2 ? 0 : pt_jr_fail(w, 0, "unexpected data after the JSON document");
}

int kt_read(kt_data *d, const char *path, et_error *e)
{
	et_src *src;
	if (et_src_open(&src, path, e) < 0)
		return -1;
	et_src_mode mode;
	int rc = et_src_sniff_container(src, &mode, e);
	if (rc == 0) {
		et_src_set_mode(src, mode == ET_SRC_SECTION ? ET_SRC_ZSTD : mode);
		pt_jr w = {src, path, 1, 0, e};
		krd r = {d, &w, {0}, false, 0, {0}};
		rc = read_doc(&r, path);
		et_buf_free(&r.s);
		pj_members_free(&r.members);
	}
	et_src_close(src);
	return rc;
}
