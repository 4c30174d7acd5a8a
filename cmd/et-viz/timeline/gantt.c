/* --timeline --format svg: a compact Gantt chart written as plain SVG
 * text. Graphviz lays out graphs; a Gantt chart needs every bar at an exact
 * x proportional to time, which dot cannot do and neato's pinned positions
 * only emulate at a cost. Direct SVG is linear in the events, exact, and a
 * well-formed XML document by construction. One row per track, with up to
 * MAX_LANES sub-rows for events that overlap (nested host ops). */
#include "et-viz/draw/style.h"
#include "et-viz/timeline/timeline.h"
#include "et_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 1200.0
#define LEFT 170.0
#define RIGHT 20.0
#define TOP 64.0
#define LANE 14.0
#define MAX_LANES 6

typedef struct row {
	uint32_t track;
	const tl_event **ev; /* this track's events, by start */
	uint8_t *lane;
	size_t n;
	int lanes;
} row;

static int by_start(const void *a, const void *b)
{
	const tl_event *x = *(const tl_event *const *)a, *y = *(const tl_event *const *)b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->dur_ns > y->dur_ns ? -1 : x->dur_ns < y->dur_ns; /* parents first */
}

static const timeline *sort_tl; /* qsort has no context argument */

static int by_track(const void *a, const void *b)
{
	const tl_track *x = &sort_tl->tr[*(const uint32_t *)a],
	               *y = &sort_tl->tr[*(const uint32_t *)b];
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void assign_lanes(row *r)
{
	uint64_t end[MAX_LANES] = {0};
	r->lanes = 1;
	for (size_t k = 0; k < r->n; k++) {
		int l = 0;
		while (l < MAX_LANES - 1 && k && end[l] > r->ev[k]->start_ns)
			l++;
		r->lane[k] = (uint8_t)l;
		end[l] = r->ev[k]->start_ns + r->ev[k]->dur_ns;
		if (l + 1 > r->lanes)
			r->lanes = l + 1;
	}
}

/* Rows in track order, each with its events sorted and laned. */
static row *make_rows(const timeline *t)
{
	row *rows = et_xcalloc(t->ntr + 1, sizeof *rows);
	uint32_t *ix = et_xmalloc(((size_t)t->ntr + 1) * sizeof *ix);
	uint32_t *pos = et_xmalloc(((size_t)t->ntr + 1) * sizeof *pos);
	for (uint32_t k = 0; k < t->ntr; k++)
		ix[k] = k;
	sort_tl = t;
	qsort(ix, t->ntr, sizeof *ix, by_track);
	for (uint32_t k = 0; k < t->ntr; k++)
		rows[k].track = ix[k], pos[ix[k]] = k;
	for (size_t k = 0; k < t->n; k++)
		rows[pos[t->ev[k].track]].n++;
	for (uint32_t k = 0; k < t->ntr; k++) {
		rows[k].ev = et_xmalloc((rows[k].n + 1) * sizeof *rows[k].ev);
		rows[k].lane = et_xmalloc(rows[k].n + 1);
		rows[k].n = 0;
	}
	for (size_t k = 0; k < t->n; k++) {
		row *r = &rows[pos[t->ev[k].track]];
		r->ev[r->n++] = &t->ev[k];
	}
	for (uint32_t k = 0; k < t->ntr; k++) {
		qsort(rows[k].ev, rows[k].n, sizeof *rows[k].ev, by_start);
		assign_lanes(&rows[k]);
	}
	free(ix);
	free(pos);
	return rows;
}

static const node_style *type_style(const tl_event *ev, const char *track)
{
	switch (ev->type) {
	case ET_NODE_METADATA:
		return &viz_styles[ST_META];
	case ET_NODE_MEM_LOAD:
	case ET_NODE_MEM_STORE:
		return &viz_styles[ST_MEM];
	case ET_NODE_COMP:
		return &viz_styles[strncmp(track, "stream", 6) == 0 || strcmp(track, "comp") == 0
		                       ? ST_COMP_DEV
		                       : ST_COMP_HOST];
	case ET_NODE_SEND:
		return &viz_styles[ST_SEND];
	case ET_NODE_RECV:
		return &viz_styles[ST_RECV];
	case ET_NODE_COLL:
		return &viz_styles[ST_COLL];
	default:
		return &viz_styles[ST_OTHER];
	}
}

static void fmt_time(double ns, double unit_ns, char *out, size_t cap)
{
	const char *u = unit_ns >= 1e9 ? "s" : unit_ns >= 1e6 ? "ms" : unit_ns >= 1e3 ? "µs" : "ns";
	double div = unit_ns >= 1e9 ? 1e9 : unit_ns >= 1e6 ? 1e6 : unit_ns >= 1e3 ? 1e3 : 1;
	snprintf(out, cap, "%g %s", ns / div, u);
}

typedef struct canvas {
	FILE *f;
	double span, scale, height;
	uint64_t origin;
	et_buf b;
} canvas;

static double x_of(const canvas *cv, uint64_t ns)
{
	return LEFT + (double)(ns - cv->origin) * cv->scale;
}

static void axis(canvas *cv)
{
	double raw = cv->span / 8, p = pow(10, floor(log10(raw)));
	double step = p * (raw / p < 2 ? 1 : raw / p < 5 ? 2 : 5);
	for (double t = 0; t <= cv->span * 1.0001; t += step) {
		double x = LEFT + t * cv->scale;
		char lab[32];
		fmt_time(t, step, lab, sizeof lab);
		fprintf(
		    cv->f,
		    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n"
		    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
		    x, TOP - 8, x, cv->height - 10, x, TOP - 12, lab);
	}
}

static void bar(canvas *cv, const timeline *t, const tl_event *ev, const tl_track *tr, double y)
{
	const node_style *st = type_style(ev, tr->name);
	double x = x_of(cv, ev->start_ns), w = (double)ev->dur_ns * cv->scale;
	if (w < 0.5)
		w = 0.5;
	const char *name = (const char *)t->names.data + ev->name;
	cv->b.len = 0;
	viz_put_text(&cv->b, name, ESC_XML);
	et_buf_putc(&cv->b, '\0');
	char d[32];
	viz_fmt_dur(ev->dur_ns / 1000, d, sizeof d);
	fprintf(cv->f,
	        "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
	        "stroke=\"%s\" stroke-width=\"0.5\"><title>%s&#10;id %llu · %s</title></rect>\n",
	        x, y + 1, w, LANE - 2, st->fill, st->border, (const char *)cv->b.data,
	        (unsigned long long)ev->id, ev->dur_ns < 1000 ? "&lt; 1 µs" : d);
	if (w < 40)
		return;
	char s[256], cut[256];
	viz_shorten(name, s, sizeof s);
	viz_trunc(s, (size_t)(w / 5.5), cut, sizeof cut); /* about 5.5 px a character */
	cv->b.len = 0;
	viz_put_text(&cv->b, cut, ESC_XML);
	et_buf_putc(&cv->b, '\0');
	fprintf(cv->f, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"9\">%s</text>\n", x + 2,
	        y + LANE - 4, (const char *)cv->b.data);
}

static double draw_rows(canvas *cv, const timeline *t, const row *rows, bool draw)
{
	double y = TOP;
	uint32_t last = UINT32_MAX;
	for (uint32_t k = 0; k < t->ntr; k++) {
		const tl_track *tr = &t->tr[rows[k].track];
		if (tr->rank != last) {
			y += last == UINT32_MAX ? 4 : 12;
			if (draw)
				fprintf(cv->f,
				        "<text x=\"6\" y=\"%.1f\" font-weight=\"bold\">rank "
				        "%u</text>\n",
				        y + 10, tr->rank);
			y += 14;
			last = tr->rank;
		}
		if (draw) {
			cv->b.len = 0;
			viz_put_text(&cv->b, tr->name, ESC_XML);
			et_buf_putc(&cv->b, '\0');
			fprintf(cv->f, "<text x=\"16\" y=\"%.1f\">%s</text>\n", y + 10,
			        (const char *)cv->b.data);
			for (size_t j = 0; j < rows[k].n; j++)
				bar(cv, t, rows[k].ev[j], tr, y + rows[k].lane[j] * LANE);
		}
		y += rows[k].lanes * LANE + 4;
	}
	return y + 20;
}

void tl_write_svg(const timeline *t, FILE *f)
{
	row *rows = make_rows(t);
	canvas cv = {f, (double)(t->end_ns - t->origin_ns), 0, 0, t->origin_ns, {0}};
	if (cv.span <= 0)
		cv.span = 1;
	cv.scale = (W - LEFT - RIGHT) / cv.span;
	cv.height = draw_rows(&cv, t, rows, false);
	fprintf(f,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" font-family=\"Helvetica,Arial,sans-serif\" "
	        "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	        "<text x=\"6\" y=\"18\" font-size=\"13\" font-weight=\"bold\">timeline from the "
	        "%s · %zu events · %u tracks</text>\n",
	        W, cv.height, W, cv.height, t->source ? t->source : "trace", t->n, t->ntr);
	axis(&cv);
	draw_rows(&cv, t, rows, true);
	fputs("</svg>\n", f);
	for (uint32_t k = 0; k < t->ntr; k++) {
		free(rows[k].ev);
		free(rows[k].lane);
	}
	free(rows);
	et_buf_free(&cv.b);
}
