/* net_aware: ASTRA-sim's congestion-aware network (doc/astra-sim-aware.md).
 * A message is one chunk. Each directed link is a non-preemptive FIFO
 * server with an unbounded queue: a chunk of S bytes that starts on a free
 * link at t schedules its arrival at the far end at t + floor(lat + S/B),
 * then the link's release at t + floor(S/B), in that order (so with latency
 * 0 the arrival runs first). On arrival it is queued on the next link of its
 * route (store-and-forward); at its destination the event it completes is
 * dispatched in line. Links are made when a route first uses them (a
 * FullyConnected dimension of 4,096 NPUs has 16 M possible links). */
#include "et-sim/config/cfg.h"
#include "et-sim/infragraph/netgraph.h"
#include "et-sim/net/net.h"
#include "et-sim/net/net_route.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_sat.h"
#include <stdlib.h>
#include <string.h>

enum { AW_ARRIVE, AW_FREE };

typedef struct aw_link {
	uint32_t from, to;
	double bpns, lat; /* bpns 0: a link without a bandwidth (InfraGraph): no serialisation */
	bool busy;
	uint32_t *q; /* waiting chunks, a ring buffer */
	uint32_t qh, qn, qcap, max_q;
	uint64_t bytes, busy_ns, chunks;
} aw_link;

typedef struct aw_chunk {
	uint32_t at, src, dst, link; /* where it is, its ends, the link it is on */
	uint64_t bytes;
	net_done done;
	uint32_t node; /* the sending node, for a time that does not fit */
	const char *what;
	uint32_t next_free;
} aw_chunk;

typedef struct aware {
	net_route rt;
	aw_link *l;
	uint32_t nl;
	size_t capl;
	et_hmap lmap; /* (from, to) -> link index */
	aw_chunk *c;
	uint32_t nc, free_head;
	size_t capc;
} aware;

static uint32_t link_add(aware *w, uint32_t from, uint32_t to, double bpns, double lat)
{
	ET_GROW(w->l, w->capl, (size_t)w->nl + 1);
	w->l[w->nl] = (aw_link){.from = from, .to = to, .bpns = bpns, .lat = lat};
	*et_hmap_put(&w->lmap, from, to, 0) = w->nl;
	return w->nl++;
}

/* The link from -> to (made on first use on ASTRA-sim's dimensions). */
static uint32_t link_of(aware *w, uint32_t from, uint32_t to)
{
	const uint64_t *v = et_hmap_get(&w->lmap, from, to);
	if (v)
		return (uint32_t)*v;
	double bpns, lat;
	net_route_link(&w->rt, from, to, &bpns, &lat);
	return link_add(w, from, to, bpns, lat);
}

/* A graph's links: two directed ones per edge; of parallel edges the first
 * (routes name devices, and the first edge between two carries the
 * traffic). */
static void graph_links(aware *w, const netgraph *g)
{
	for (size_t k = 0; k < g->nedge; k++) {
		const ng_edge *e = &g->edge[k];
		if (!et_hmap_get(&w->lmap, e->a, e->b))
			link_add(w, e->a, e->b, e->bpns, e->lat_ns);
		if (!et_hmap_get(&w->lmap, e->b, e->a))
			link_add(w, e->b, e->a, e->bpns, e->lat_ns);
	}
}

static void aware_init(net_env *env)
{
	aware *w = et_xcalloc(1, sizeof *w);
	net_route_init(&w->rt, env->cf);
	if (env->cf->net.graph)
		graph_links(w, env->cf->net.graph);
	w->free_head = UINT32_MAX;
	env->st = w;
}

static uint32_t chunk_new(aware *w)
{
	if (w->free_head != UINT32_MAX) {
		uint32_t i = w->free_head;
		w->free_head = w->c[i].next_free;
		return i;
	}
	ET_GROW(w->c, w->capc, (size_t)w->nc + 1);
	return w->nc++;
}

/* floor(x) of a non-negative double time, saturated (et_sat.h). */
static uint64_t ticks(double x)
{
	return et_sat_from_double(x);
}

/* Chunk ci starts on its (free) link now. */
static void start(net_env *env, aware *w, uint32_t ci)
{
	aw_chunk *c = &w->c[ci];
	aw_link *l = &w->l[c->link];
	double ser = l->bpns > 0 ? (double)c->bytes / l->bpns : 0;
	uint64_t arrive = net_after(env, ticks(l->lat + ser), c->src, c->node, c->what);
	uint64_t busy = ticks(ser);
	uint64_t release = net_after(env, busy, c->src, c->node, c->what);
	l->busy = true;
	l->bytes = et_sat_add(l->bytes, c->bytes);
	l->busy_ns = et_sat_add(l->busy_ns, busy);
	l->chunks++;
	env->own_at(env->eng, arrive, c->src, ci, AW_ARRIVE);
	env->own_at(env->eng, release, c->src, c->link, AW_FREE);
}

static void q_push(aw_link *l, uint32_t ci)
{
	if (l->qn == l->qcap) {
		uint32_t cap = l->qcap ? l->qcap * 2 : 8;
		uint32_t *q = et_xmalloc((size_t)cap * sizeof *q);
		for (uint32_t i = 0; i < l->qn; i++)
			q[i] = l->q[(l->qh + i) % l->qcap];
		free(l->q);
		l->q = q, l->qh = 0, l->qcap = cap;
	}
	l->q[(l->qh + l->qn++) % l->qcap] = ci;
	l->max_q = l->qn > l->max_q ? l->qn : l->max_q;
}

/* Chunk ci goes on to the next link of its route. */
static void forward(net_env *env, aware *w, uint32_t ci)
{
	aw_chunk *c = &w->c[ci];
	uint32_t next = net_route_next(&w->rt, c->at, c->src, c->dst);
	uint32_t li = link_of(w, c->at, next);
	c->link = li;
	if (w->l[li].busy)
		q_push(&w->l[li], ci);
	else
		start(env, w, ci);
}

static void aware_send(net_env *env, uint32_t src, uint32_t dst, uint64_t bytes,
                       const net_done *done, uint32_t node, const char *what)
{
	if (src == dst) { /* no hop: arrived at once, as in the unaware model */
		env->done_at(env->eng, *env->now, done);
		return;
	}
	aware *w = env->st;
	uint32_t ci = chunk_new(w);
	w->c[ci] = (aw_chunk){.at = src,
	                      .src = src,
	                      .dst = dst,
	                      .bytes = bytes,
	                      .done = *done,
	                      .node = node,
	                      .what = what};
	forward(env, w, ci);
}

static void arrive(net_env *env, aware *w, uint32_t ci)
{
	aw_chunk *c = &w->c[ci];
	c->at = w->l[c->link].to;
	if (c->at != c->dst) {
		forward(env, w, ci);
		return;
	}
	/* a copy: the chunk is free again, and what the event starts may
	 * reuse it or move the array */
	net_done d = c->done;
	c->next_free = w->free_head;
	w->free_head = ci;
	env->dispatch(env->eng, &d);
}

static void release(net_env *env, aware *w, uint32_t li)
{
	aw_link *l = &w->l[li];
	l->busy = false;
	if (!l->qn)
		return;
	uint32_t ci = l->q[l->qh];
	l->qh = (l->qh + 1) % l->qcap;
	l->qn--;
	start(env, w, ci);
}

static void aware_event(net_env *env, uint64_t a, uint64_t b)
{
	aware *w = env->st;
	if (b == AW_ARRIVE)
		arrive(env, w, (uint32_t)a);
	else
		release(env, w, (uint32_t)a);
}

static size_t aware_link_stats(const net_env *env, net_link_stat **out)
{
	const aware *w = env->st;
	net_link_stat *v = et_xcalloc((size_t)w->nl + 1, sizeof *v);
	for (uint32_t i = 0; i < w->nl; i++) {
		const aw_link *l = &w->l[i];
		net_route_name(&w->rt, l->from, v[i].from, sizeof v[i].from);
		net_route_name(&w->rt, l->to, v[i].to, sizeof v[i].to);
		v[i].bytes = l->bytes;
		v[i].busy_ns = l->busy_ns;
		v[i].chunks = l->chunks;
		v[i].max_queue = l->max_q;
	}
	*out = v;
	return w->nl;
}

static void aware_free(net_env *env)
{
	aware *w = env->st;
	if (!w)
		return;
	for (uint32_t i = 0; i < w->nl; i++)
		free(w->l[i].q);
	free(w->l);
	free(w->c);
	et_hmap_free(&w->lmap);
	net_route_free(&w->rt);
	free(w);
	env->st = NULL;
}

const net_backend net_aware = {
    .name = "aware",
    .help = "congestion-aware: links queue",
    .caps = NET_CAP_GRAPH | NET_CAP_LINKS,
    .delay = NULL, /* a message's delay depends on the traffic it meets */
    .init = aware_init,
    .send = aware_send,
    .event = aware_event,
    .link_stats = aware_link_stats,
    .free = aware_free,
};
