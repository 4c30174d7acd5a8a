/* sim: set-up and the event loop. */
#include "et-sim/workload/classes.h"
#include "et-sim/workload/workload.h" /* sim_init builds every layer */
#include "et_mem.h"
#include "et_progress.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sim_fail(sim *s, int code, const char *fmt, ...)
{
	if (sim_stopped(s))
		return;
	char msg[sizeof s->err->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	et_fail(s->err, code, "%s", msg);
	s->failed = true;
}

void sim_overflow(sim *s, uint32_t rank, uint32_t node, const char *what)
{
	const sgraph *g = s->r[sim_index(s, rank)].g;
	sim_fail(s, ET_EXIT_DATA, "rank %u: node %llu: %s exceeds " SIM_TMAX_TEXT, rank,
	         (unsigned long long)g->id[node], what);
}

void sim_after_fail(sim *s, uint64_t dt, uint32_t rank, uint32_t node, const char *what)
{
	sim_overflow(s, rank, node, dt > SIM_TMAX ? what : "simulated time");
}

/* The engine's side of net_env (net.h): what a backend may ask of it. */
static void eng_done_at(void *eng, uint64_t t, const net_done *d)
{
	sim *s = eng;
	evq_push(&s->q, t, d->type, d->rank, d->a, d->b);
}

static void eng_dispatch(void *eng, const net_done *d)
{
	sim *s = eng;
	/* runs inside the popped event: it takes that event's place in the order */
	ev e = {
	    .t = s->now, .pc = s->q.now_pc, .type = d->type, .rank = d->rank, .a = d->a, .b = d->b};
	sim_dispatch(s, &e);
}

static void eng_own_at(void *eng, uint64_t t, uint32_t rank, uint64_t a, uint64_t b)
{
	sim *s = eng;
	evq_push(&s->q, t, EV_NET, rank, a, b);
}

static void eng_after_fail(void *eng, uint64_t dt, uint32_t rank, uint32_t node, const char *what)
{
	sim_after_fail(eng, dt, rank, node, what);
}

void sim_net_init(sim *s)
{
	s->nenv = (net_env){.cf = s->cf,
	                    .now = &s->now,
	                    .tmax = SIM_TMAX,
	                    .eng = s,
	                    .done_at = eng_done_at,
	                    .dispatch = eng_dispatch,
	                    .own_at = eng_own_at,
	                    .after_fail = eng_after_fail};
	s->net->init(&s->nenv);
}

void sim_unfold(sim *s, const char *why)
{
	if (sim_stopped(s))
		return;
	s->fold_failed = true;
	s->unfold_why = why;
	s->unfold_at = s->now;
}

void sim_tie(sim *s, uint32_t rank, const ev *e, bool external)
{
	if (!s->folded)
		return;
	rank_st *r = &s->r[sim_index(s, rank)];
	if (r->tie_n == 0 || r->tie_t != s->now) {
		r->tie_t = s->now;
		r->tie_n = 0;
	}
	/* Events of this rank at this tick whose ancestries differ in some tick
	 * run in the same order in the folded run as in the full one (evq.h);
	 * with equal ancestries the order comes from pushes at the start, which
	 * only this rank's own events are sure to share. */
	for (uint32_t k = 0; k < r->tie_n; k++)
		if (r->tie[k] == e->pc && (r->tie_ext[k] || external)) {
			sim_unfold(s, "two events of one class at one tick, in an order the class "
			              "does not decide");
			return;
		}
	if (r->tie_n == SIM_TIES) {
		sim_unfold(s, "more events of one class at one tick than the fold follows");
		return;
	}
	r->tie_ext[r->tie_n] = external;
	r->tie[r->tie_n++] = e->pc;
}

static void rank_init(sim *s, rank_st *r, uint32_t rank, const sgraph *g)
{
	r->rank = rank;
	r->g = g;
	r->slow = s->op->slow ? s->op->slow[rank] : 1.0;
	r->pending = et_xcalloc(g->n, sizeof *r->pending);
	r->start = et_xcalloc(g->n, sizeof *r->start);
	r->end = et_xcalloc(g->n, sizeof *r->end);
	memset(r->start, 0xff, (size_t)g->n * sizeof *r->start);
	memset(r->end, 0xff, (size_t)g->n * sizeof *r->end);
	if (s->op->record_cause) {
		r->cause = et_xcalloc(g->n, sizeof *r->cause);
		r->xcause = et_xcalloc(g->n, sizeof *r->xcause);
		memset(r->xcause, 0xff, (size_t)g->n * sizeof *r->xcause);
	}
	for (int k = 0; k < RES_N; k++)
		r->busy[k] = UINT32_MAX;
}

void sim_init(sim *s, const cfg *cf, const sim_opts *op, const sgraph *const *graphs,
              uint32_t world, const rank_classes *fold)
{
	memset(s, 0, sizeof *s);
	s->cf = cf;
	s->op = op;
	s->world = world;
	s->folded = fold != NULL;
	s->nranks = fold ? fold->n : world;
	if (fold) {
		s->sim_of = et_xmalloc(((size_t)world + 1) * sizeof *s->sim_of);
		memcpy(s->sim_of, fold->of, (size_t)world * sizeof *s->sim_of);
	}
	s->net = net_backend_of(cf->net.backend);
	sim_net_init(s);
	/* cfg_finish checked the dimensions: this cannot fail */
	et_dims_init(&s->dims, cf->npus, cf->ndims, NULL);
	s->r = et_xcalloc(s->nranks, sizeof *s->r);
	for (uint32_t i = 0; i < s->nranks; i++) {
		uint32_t rank = fold ? fold->rep[i] : i;
		rank_init(s, &s->r[i], rank, graphs[rank]);
	}
}

static void stream_event(sim *s, const ev *e)
{
	stream *st = (stream *)(uintptr_t)e->a;
	sim_tie(s, st->rc->rank, e, st->rc->c->nmem > 1);
	st->rc->pend--;
	if (e->type == EV_PHASE_END)
		coll_phase_end(s, st);
	else
		algo_event(s, st, (int)(e->b & 3), e->b >> 2);
	coll_event_done(s, st);
}

void sim_dispatch(sim *s, const ev *e)
{
	switch (e->type) {
	case EV_NODE_DONE:
		sim_tie(s, e->rank, e, false);
		wl_node_done(s, &s->r[sim_index(s, e->rank)], (uint32_t)e->a, e->b);
		break;
	case EV_ALGO:
	case EV_PHASE_END:
		stream_event(s, e);
		break;
	case EV_ARRIVE:
		sim_tie(s, (uint32_t)e->b, e, true);
		mbox_arrive(s, e->a, e->b);
		break;
	case EV_P2P_ARRIVE:
		p2p_arrive(s, e);
		break;
	case EV_NET:
		s->net->event(&s->nenv, e->a, e->b);
		break;
	default:
		break;
	}
}

sim_end sim_run(sim *s, et_error *e)
{
	et_progress pr;
	et_progress_init(&pr, s->op->progress, "events");
	s->err = e;
	wl_start(s);
	ev next;
	while (!sim_stopped(s) && evq_pop(&s->q, &next)) {
		s->now = next.t;
		et_progress_update(&pr, ++s->st.events);
		sim_dispatch(s, &next);
		if (s->graveyard)
			coll_reap(s);
	}
	et_progress_done(&pr);
	s->err = NULL;
	if (s->failed)
		return SIM_FAILED;
	if (s->fold_failed)
		return SIM_UNFOLD;
	return SIM_DONE;
}

void sim_free(sim *s)
{
	for (uint32_t i = 0; s->r && i < s->nranks; i++) {
		rank_st *r = &s->r[i];
		free(r->pending);
		free(r->start);
		free(r->end);
		free(r->cause);
		free(r->xcause);
		for (int k = 0; k < 4; k++)
			free(r->ready[k].v);
	}
	/* events left when the run stopped early still hold their collective */
	ev e;
	while (evq_pop(&s->q, &e))
		if (e.type == EV_ALGO || e.type == EV_PHASE_END) {
			stream *st = (stream *)(uintptr_t)e.a;
			st->rc->pend--;
			coll_event_done(s, st);
		}
	/* streams of collectives still running (a deadlock or an error) */
	for (uint32_t i = 0; s->r && i < s->nranks; i++) {
		rcoll *rc = s->r[i].active;
		if (rc && !rc->reaped) {
			rc->reaped = true;
			rc->next_free = s->graveyard;
			s->graveyard = rc;
		}
	}
	coll_free_all(s);
	free(s->r);
	free(s->sim_of);
	evq_free(&s->q);
	et_hmap_free(&s->coll_map);
	et_hmap_free(&s->scope_seq);
	et_hmap_free(&s->group_seq);
	et_hmap_free(&s->mb);
	p2p_free(s);
	ring_free_all(s);
	if (s->net)
		s->net->free(&s->nenv);
	memset(s, 0, sizeof *s);
}
