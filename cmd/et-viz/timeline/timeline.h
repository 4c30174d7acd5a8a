/* Timelines: events (rank, track, start, duration) from the trace's own
 * start_time_micros/duration_micros (timeline_trace.c) or from an et-sim
 * schedule (sched.c), written as Chrome trace-event JSON (timeline_json.c)
 * or as an SVG Gantt chart (gantt.c). Memory: every event is held (about 64
 * bytes plus its name), since the time origin and the chart's scale need
 * all of them. */
#ifndef ET_VIZ_TIMELINE_TIMELINE_H
#define ET_VIZ_TIMELINE_TIMELINE_H

#include "et-viz/viz.h"
#include "et_buf.h"
#include "et_strmap.h"

#include <stdio.h>

typedef struct tl_event {
	uint64_t start_ns, dur_ns, id;
	int64_t comm_size;
	uint32_t rank, track, name; /* name: offset into timeline.names */
	int32_t comm_type;          /* -1 = none */
	uint8_t type;               /* NodeType, 255 = unknown */
	bool has_size;
} tl_event;

typedef struct tl_track {
	uint32_t rank;
	int order; /* sort key within the rank */
	char name[48];
} tl_track;

typedef struct timeline {
	tl_event *ev;
	size_t n, cap;
	tl_track *tr;
	uint32_t ntr;
	size_t captr;
	et_strmap track_ix; /* "rank/name"; its id is the track's index in tr */
	et_buf names;
	uint64_t origin_ns, end_ns;
	const char *source; /* "trace" or "schedule" */
} timeline;

int viz_timeline(const conf *c, int argc, char **argv, et_error *e);

uint32_t tl_track_of(timeline *t, uint32_t rank, const char *name, int order);
void tl_add(timeline *t, const tl_event *ev, const char *name);

int tl_from_trace(const conf *c, int argc, char **argv, timeline *t, et_error *e);
int tl_from_schedule(const conf *c, timeline *t, et_error *e);
void tl_write_json(const timeline *t, FILE *f);
void tl_write_svg(const timeline *t, FILE *f);

#endif
