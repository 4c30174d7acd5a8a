/* --timeline: collect the events, then write JSON or the Gantt chart. */
#include "et-viz/timeline/timeline.h"
#include "et_mem.h"
#include "et_output.h"

#include <stdlib.h>
#include <string.h>

uint32_t tl_track_of(timeline *t, uint32_t rank, const char *name, int order)
{
	char key[80];
	snprintf(key, sizeof key, "%u/%.47s", rank, name);
	uint32_t ix = et_strmap_intern_str(&t->track_ix, key);
	if (ix < t->ntr)
		return ix;
	/* a new key: tracks are added in the order of their keys' ids */
	ET_GROW(t->tr, t->captr, (size_t)t->ntr + 1);
	tl_track *tr = &t->tr[t->ntr];
	tr->rank = rank;
	tr->order = order;
	snprintf(tr->name, sizeof tr->name, "%s", name);
	return t->ntr++;
}

void tl_add(timeline *t, const tl_event *ev, const char *name)
{
	ET_GROW(t->ev, t->cap, (size_t)t->n + 1);
	tl_event *x = &t->ev[t->n++];
	*x = *ev;
	x->name = (uint32_t)t->names.len;
	et_buf_append(&t->names, name, strlen(name) + 1);
	if (t->n == 1 || ev->start_ns < t->origin_ns)
		t->origin_ns = ev->start_ns;
	uint64_t end = ev->start_ns + ev->dur_ns;
	if (end > t->end_ns)
		t->end_ns = end;
}

static void tl_free(timeline *t)
{
	free(t->ev);
	free(t->tr);
	et_strmap_free(&t->track_ix);
	et_buf_free(&t->names);
}

static int write_out(const conf *c, const timeline *t, et_error *e)
{
	et_output *o;
	if (et_output_open(&o, c->cli.output, false, e) < 0)
		return -1;
	if (c->fmt == FMT_SVG)
		tl_write_svg(t, et_output_file(o));
	else
		tl_write_json(t, et_output_file(o));
	return et_output_commit(o, e); /* reports write errors */
}

int viz_timeline(const conf *c, int argc, char **argv, et_error *e)
{
	timeline t;
	memset(&t, 0, sizeof t);
	int r = c->schedule ? tl_from_schedule(c, &t, e) : tl_from_trace(c, argc, argv, &t, e);
	if (r == 0 && t.n == 0)
		et_warn("no event to show: the timeline is empty");
	if (r == 0)
		r = write_out(c, &t, e);
	tl_free(&t);
	return r;
}
