/* wl: the workload layer (spec B). Each rank replays its graph on three
 * resources; ready nodes wait in one heap per resource ordered by node id,
 * so an issue scan pops heads instead of rescanning blocked nodes, and the
 * order of issue is ASTRA-sim's (ascending id over the whole ready set). */
#include "et-sim/workload/compute.h"
#include "et-sim/workload/workload.h"
#include "et_mem.h"
#include "et_sat.h"
#include "et_types.h"
#include <math.h>
#include <stdlib.h>

#define RH_NONE 3 /* heap of nodes that need no resource */

static int node_res(const sgraph *g, uint32_t i)
{
	switch (g->type[i]) {
	case ET_NODE_COMP:
		return (g->flags[i] & SG_CPU) ? RES_CPU : RES_COMP;
	case ET_NODE_COLL:
	case ET_NODE_SEND:
		return RES_COMM;
	default:
		return RES_NONE;
	}
}

static bool id_less(const sgraph *g, uint32_t a, uint32_t b)
{
	return g->id[a] < g->id[b] || (g->id[a] == g->id[b] && a < b);
}

void rheap_push(rheap *h, const sgraph *g, uint32_t v)
{
	ET_GROW(h->v, h->cap, (size_t)h->n + 1);
	uint32_t i = h->n++;
	while (i > 0 && id_less(g, v, h->v[(i - 1) / 2])) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = v;
}

static uint32_t rheap_pop(rheap *h, const sgraph *g)
{
	uint32_t top = h->v[0], last = h->v[--h->n];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && id_less(g, h->v[c + 1], h->v[c]))
			c++;
		if (!id_less(g, h->v[c], last))
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

/* MEM_LOAD / MEM_STORE: latency + size / bandwidth (0 unless configured). */
static uint64_t mem_ns(const cfg *cf, const sgraph *g, uint32_t i)
{
	double t = (double)cf->mem_latency;
	if (cf->mem_bw > 0)
		t += (double)g->tensor_size[i] / (cf->mem_bw * 1073741824.0 / 1e9);
	return et_sat_from_double(t);
}

/* Node i ends dt from now (`what` it takes, for the message when dt does
 * not fit). */
static void finish_later(sim *s, rank_st *r, uint32_t i, uint64_t dt, const char *what)
{
	r->inflight++;
	evq_push(&s->q, sim_after(s, dt, r->rank, i, what), EV_NODE_DONE, r->rank, i, UINT64_MAX);
}

/* GPU and CPU compute add up in the report ("compute"); as the two run side
 * by side, their sum can exceed the run's length, so it is checked too. */
static void check_compute(sim *s, const rank_st *r, uint32_t i)
{
	if (et_sat_add(r->gpu_comp_ns, r->busy_ns[RES_CPU]) > SIM_TMAX)
		sim_overflow(s, r->rank, i, "compute time total (GPU and CPU)");
}

static void issue_coll(sim *s, rank_st *r, uint32_t i)
{
	const sgraph *g = r->g;
	if (g->comm_type[i] == ET_COLL_BROADCAST && !s->cf->extra_colls) {
		/* BROADCAST: replayed from its duration, as ASTRA-sim does */
		uint64_t t = g->dur_us[i] ? et_sat_mul(g->dur_us[i], 1000) : 1;
		finish_later(s, r, i, t, "replayed duration");
		return;
	}
	r->inflight++;
	if (coll_issue(s, r, i) < 0)
		r->inflight--;
}

/* --slow: round(t x factor) ns, halves up; a time that did not fit stays
 * so. */
static uint64_t slowed(const rank_st *r, uint64_t t)
{
	if (r->slow == 1.0 || t == UINT64_MAX)
		return t;
	return et_sat_from_double(floor((double)t * r->slow + 0.5));
}

static void issue(sim *s, rank_st *r, uint32_t i, uint64_t cause)
{
	const sgraph *g = r->g;
	int res = node_res(g, i);
	if (res != RES_NONE)
		r->busy[res] = i;
	r->start[i] = s->now;
	if (r->cause)
		r->cause[i] = cause;
	switch (g->type[i]) {
	case ET_NODE_COMP: {
		uint64_t t = slowed(r, wl_comp_ns(s, g, i));
		finish_later(s, r, i, t, "compute time");
		if (!(g->flags[i] & SG_CPU) && !sim_stopped(s)) {
			sim_total_add(s, r->rank, i, &r->gpu_comp_ns, t, "GPU compute time total");
			check_compute(s, r, i);
		}
		break;
	}
	case ET_NODE_COLL:
		issue_coll(s, r, i);
		break;
	case ET_NODE_SEND:
		r->inflight++;
		p2p_send(s, r, i);
		break;
	case ET_NODE_RECV:
		r->inflight++;
		p2p_recv(s, r, i);
		break;
	case ET_NODE_MEM_LOAD:
	case ET_NODE_MEM_STORE:
		finish_later(s, r, i, mem_ns(s->cf, g, i), "memory access time");
		break;
	default:
		finish_later(s, r, i, 0, "time"); /* METADATA, INVALID: skipped */
	}
}

/* Issue ready nodes in ascending id while their resource is free. */
void wl_issue_scan(sim *s, rank_st *r)
{
	wl_issue_cause(s, r, UINT64_MAX);
}

void wl_issue_cause(sim *s, rank_st *r, uint64_t cause)
{
	const sgraph *g = r->g;
	for (;;) {
		int best = -1;
		for (int k = 0; k < 4; k++) {
			rheap *h = &r->ready[k];
			if (!h->n || (k < RES_N && r->busy[k] != UINT32_MAX))
				continue;
			if (best < 0 || id_less(g, h->v[0], r->ready[best].v[0]))
				best = k;
		}
		if (best < 0 || sim_stopped(s))
			return;
		issue(s, r, rheap_pop(&r->ready[best], g), cause);
	}
}

static void make_ready(rank_st *r, uint32_t c)
{
	int res = node_res(r->g, c);
	rheap_push(&r->ready[res == RES_NONE ? RH_NONE : res], r->g, c);
}

void wl_node_done(sim *s, rank_st *r, uint32_t i, uint64_t cause)
{
	const sgraph *g = r->g;
	if (r->xcause && cause != UINT64_MAX)
		r->xcause[i] = cause;
	r->end[i] = s->now;
	r->inflight--;
	int res = node_res(g, i);
	if (res != RES_NONE && r->busy[res] == i) {
		r->busy[res] = UINT32_MAX;
		sim_total_add(s, r->rank, i, &r->busy_ns[res], s->now - r->start[i],
		              "busy time total");
		if (res == RES_CPU)
			check_compute(s, r, i);
	}
	for (uint32_t k = g->out_off[i]; k < g->out_off[i + 1]; k++) {
		uint32_t c = g->out[k];
		if (--r->pending[c] == 0)
			make_ready(r, c);
	}
	r->done++;
	wl_issue_cause(s, r, (uint64_t)r->rank << 32 | i);
	if (r->done == g->n && !r->finished) {
		r->finished = true;
		r->finish = s->now;
	}
}

void wl_start(sim *s)
{
	for (uint32_t k = 0; k < s->nranks; k++) {
		rank_st *r = &s->r[k];
		const sgraph *g = r->g;
		for (uint32_t i = 0; i < g->n; i++) {
			r->pending[i] = g->ndeps[i];
			if (!g->ndeps[i])
				make_ready(r, i);
		}
	}
	for (uint32_t k = 0; k < s->nranks; k++) {
		rank_st *r = &s->r[k];
		wl_issue_scan(s, r);
		if (r->g->n == 0) {
			r->finished = true;
			r->finish = 0;
		}
	}
}

uint64_t wl_comp_ns(sim *s, const sgraph *g, uint32_t i)
{
	return compute_ns(s->cf, g, i);
}
