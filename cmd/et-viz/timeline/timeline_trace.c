/* Timeline events from the trace itself: start_time_micros and
 * duration_micros, as traces linked with Kineto carry them. One track per
 * device stream and per host thread; nodes with neither time are skipped
 * (the converter leaves a few untimed nodes, such as the thread root). */
#include "et-viz/timeline/timeline.h"
#include "et_attr.h"
#include "et_types.h"

#include <string.h>

/* Which track a node goes on, and the track's place within its rank:
 * host threads first, then device streams, then untyped resources. */
static uint32_t track_of(timeline *t, const vrank *vr, uint32_t i)
{
	const et_graph *g = vr->g;
	char name[48];
	int order;
	bool device = (g->flags[i] & ET_GF_CPU_SET) && !(g->flags[i] & ET_GF_CPU);
	int64_t s = vr->stream[i], tid = vr->tid[i];
	uint8_t ty = g->type[i];
	if (s != VIZ_NO_ATTR && (s > 0 || device)) {
		snprintf(name, sizeof name, "stream %lld", (long long)s);
		order = 1000 + (int)(s & 0xffff);
	} else if (tid != VIZ_NO_ATTR) {
		snprintf(name, sizeof name, "thread %lld", (long long)tid);
		order = (int)(tid & 0xffff);
	} else {
		bool comm = et_node_is_comm(ty), mem = et_node_is_mem(ty);
		snprintf(name, sizeof name, "%s", comm ? "comm" : mem ? "memory" : "compute");
		order = 100000 + (comm ? 2 : mem ? 1 : 0);
	}
	return tl_track_of(t, vr->rank, name, order);
}

/* Microseconds to nanoseconds, saturating (times come from the input). */
static uint64_t ns(uint64_t us)
{
	return us > UINT64_MAX / 1000 ? UINT64_MAX / 2 : us * 1000;
}

static void rank_events(const conf *c, timeline *t, const vrank *vr, uint64_t *timed)
{
	const et_graph *g = vr->g;
	for (uint32_t i = 0; i < g->n; i++) {
		if (!g->start_time_micros[i])
			continue;
		++*timed;
		if (c->match && regexec(&c->match_re, et_graph_name(g, i), 0, NULL, 0) != 0)
			continue;
		tl_event ev = {ns(g->start_time_micros[i]),
		               ns(g->duration_micros[i]),
		               g->id[i],
		               et_graph_comm_at(g, i)->size,
		               vr->rank,
		               track_of(t, vr, i),
		               0,
		               -1,
		               g->type[i],
		               (g->flags[i] & ET_GF_COMM_SIZE) != 0};
		if (g->flags[i] & ET_GF_COMM_TYPE)
			ev.comm_type = et_graph_comm_at(g, i)->type;
		tl_add(t, &ev, et_graph_name(g, i));
	}
}

int tl_from_trace(const conf *c, int argc, char **argv, timeline *t, et_error *e)
{
	model m;
	memset(&m, 0, sizeof m);
	int r = viz_load(c, argc, argv, &m, e);
	uint64_t timed = 0;
	for (uint32_t k = 0; r == 0 && k < m.n_ranks; k++)
		rank_events(c, t, &m.ranks[k], &timed);
	t->source = "trace";
	if (r == 0 && timed == 0)
		r = et_fail(e, ET_EXIT_DATA,
		            "%s: no node has a start_time_micros: convert with the Kineto trace "
		            "(et-convert --kineto), or simulate (et-sim --schedule FILE) and give "
		            "--timeline --schedule FILE",
		            m.inputs[0]);
	viz_model_free(&m);
	return r;
}
