/* algo: the per-rank message state machine of one collective phase, for
 * ASTRA-sim's Ring, Direct (AllToAll) and HalvingDoubling algorithms.
 *
 * States of a packet: inserted (on StreamInit or on a receive) -> released
 * (endpoint delay d, then the reduction p(m) if it carries data to reduce)
 * -> "General": the algorithm may send the packet at the head of its queue
 * and post the matching receive. The phase exits when it has sent all its
 * messages and every released packet came back (free == parallel_reduce).
 * The counters mirror ASTRA-sim's so that the message schedule is its own. */
#include "et-sim/system/system.h"
#include "et_mem.h"
#include "et_sat.h"
#include <stdlib.h>

/* An algorithm event dt after now. */
static inline void push_ev(sim *s, stream *st, uint64_t dt, int kind, uint64_t extra)
{
	st->rc->pend++;
	uint64_t t = sim_after(s, dt, st->rc->rank, st->rc->node, "communication time");
	evq_push(&s->q, t, EV_ALGO, st->rc->rank, (uint64_t)(uintptr_t)st,
	         (uint64_t)kind | extra << 2);
}

static uint32_t ring_step(const algo *a, uint32_t idx, bool anticlockwise)
{
	return anticlockwise ? (idx + a->n - 1) % a->n : (idx + 1) % a->n;
}

/* RingTopology::get_sender: the neighbour that sends to me. */
static uint32_t sender_of(const algo *a, uint32_t idx)
{
	return ring_step(a, idx, !a->anticlockwise);
}

static void hd_target(algo *a)
{
	bool anti = a->rank_offset && (a->idx / (uint32_t)a->rank_offset) % 2;
	uint32_t t = a->idx;
	for (int i = 0; i < a->rank_offset; i++)
		t = anti ? (t + a->n - 1) % a->n : (t + 1) % a->n;
	a->recv_idx = a->send_idx = t;
}

static int non_zero_packets(const algo *a)
{
	if (a->impl == IMPL_HD)
		return (int)__builtin_ctz(a->n) - a->parallel_reduce;
	if (a->impl == IMPL_DIRECT)
		return a->rg->local ? (int)(a->n - 1) * a->parallel_reduce : a->parallel_reduce;
	return (int)(a->n - 1) * a->parallel_reduce;
}

/* Packet release: the bundle goes to memory (d), then is reduced if needed. */
static void release(sim *s, stream *st, bool processed, uint64_t size)
{
	push_ev(s, st, st->a.d, AK_BUNDLE, processed ? size + 1 : 0);
}

static void max_count(algo *a)
{
	if (a->impl == IMPL_DIRECT) {
		a->recv_idx = ring_step(a, a->recv_idx, a->anticlockwise);
		if (a->recv_idx == a->idx)
			a->recv_idx = ring_step(a, a->recv_idx, a->anticlockwise);
		a->send_idx = ring_step(a, a->send_idx, !a->anticlockwise);
		if (a->send_idx == a->idx)
			a->send_idx = ring_step(a, a->send_idx, !a->anticlockwise);
	} else if (a->impl == IMPL_HD) {
		if (a->mult_up) {
			a->rank_offset *= 2;
			a->msg_size = et_sat_div(a->msg_size, 2);
		} else {
			a->rank_offset /= 2;
			a->msg_size = et_sat_mul(a->msg_size, 2);
		}
		if ((uint32_t)a->rank_offset == a->n && a->type == CT_AR) {
			a->mult_up = 0;
			a->rank_offset /= 2;
			a->msg_size = et_sat_mul(a->msg_size, 2);
		}
		hd_target(a);
	}
}

static void q_push(algo *a, pkt p)
{
	if (a->qn == a->qcap) {
		uint32_t nc = a->qcap ? a->qcap * 2 : 4;
		pkt *nq = et_xmalloc(nc * sizeof *nq);
		for (uint32_t i = 0; i < a->qn; i++)
			nq[i] = a->q[(a->qh + i) % a->qcap];
		free(a->q);
		a->q = nq;
		a->qh = 0;
		a->qcap = nc;
	}
	a->q[(a->qh + a->qn++) % a->qcap] = p;
}

static void insert_packet(sim *s, stream *st)
{
	algo *a = &st->a;
	if (a->zero == 0 && a->nonzero == 0) {
		a->zero = a->parallel_reduce;
		a->nonzero = non_zero_packets(a);
		a->toggle = !a->toggle;
	}
	pkt p = {a->rg->rank[a->recv_idx], a->rg->rank[a->send_idx], a->msg_size};
	bool processed;
	if (a->zero > 0) {
		processed = false;
		a->zero--;
	} else if (a->nonzero > 0) {
		processed = a->type == CT_RS || (a->type == CT_AR && a->toggle);
		a->nonzero--;
	} else {
		/* exit 1, as a run that cannot go on */
		sim_fail(s, ET_EXIT_FOUND, "internal: collective state machine injected nothing");
		return;
	}
	q_push(a, p);
	release(s, st, processed, a->msg_size);
	max_count(a);
}

static bool ready(sim *s, stream *st)
{
	algo *a = &st->a;
	if (a->qn == 0 || a->stream_count == 0 || a->free_packets == 0)
		return false;
	pkt p = a->q[a->qh];
	uint64_t size = a->impl == IMPL_HD ? p.size : a->msg_size;
	const coll *c = st->rc->c;
	uint32_t me = st->rc->rank;
	net_done done = {EV_ARRIVE, p.dst,
	                 (uint64_t)c->id << 32 | (uint64_t)st->chunk << 8 | st->phase,
	                 (uint64_t)me << 32 | p.dst};
	s->st.messages++;
	s->net->send(s, me, p.dst, size, &done, st->rc->node, "communication time");
	mbox_post(s, st, p.src);
	a->qh = (a->qh + 1) % a->qcap;
	a->qn--;
	if (a->stream_count > 0)
		a->stream_count--;
	a->free_packets--;
	return true;
}

static void iteratable(sim *s, stream *st)
{
	algo *a = &st->a;
	if (a->stream_count == 0 && a->free_packets == a->parallel_reduce && !a->done) {
		a->done = true;
		coll_phase_end(s, st);
	}
}

static void general(sim *s, stream *st)
{
	algo *a = &st->a;
	a->free_packets++;
	if (a->impl == IMPL_DIRECT && a->type == CT_AR && a->stream_count <= a->middle_point) {
		if (a->total_received < a->middle_point)
			return;
		for (int i = 0; i < a->parallel_reduce; i++)
			ready(s, st);
	} else {
		ready(s, st);
	}
	iteratable(s, st);
}

void algo_receive(sim *s, stream *st)
{
	st->a.total_received++;
	insert_packet(s, st);
}

void algo_event(sim *s, stream *st, int kind, uint64_t extra)
{
	if (st->a.closed || st->a.done)
		return;
	if (kind == AK_BUNDLE && extra) {
		push_ev(s, st, net_reduce(s, extra - 1), AK_PROCESSED, 0);
		return;
	}
	if (kind == AK_RECV_NOW) {
		algo_receive(s, st);
		return;
	}
	general(s, st);
}

static void setup_counts(algo *a, const phase_plan *p, uint64_t size)
{
	int n = (int)a->n;
	a->parallel_reduce = 1;
	if (a->impl == IMPL_HD) {
		int L = __builtin_ctz(a->n);
		a->stream_count = p->type == CT_AR ? 2 * L : L;
		a->msg_size = p->type == CT_AG ? size : et_sat_div(size, 2);
		a->rank_offset = p->type == CT_AG ? n / 2 : 1;
		a->mult_up = p->type != CT_AG;
		hd_target(a);
		return;
	}
	a->stream_count = p->type == CT_AR    ? 2 * (n - 1)
	                  : p->type == CT_A2A ? n * (n - 1) / 2
	                                      : n - 1;
	a->msg_size = p->type == CT_AG ? size : et_sat_div(size, a->n);
	a->recv_idx = ring_step(a, a->idx, a->anticlockwise);
	a->send_idx = sender_of(a, a->idx);
	if (a->impl == IMPL_DIRECT) {
		a->middle_point = n - 1;
		a->parallel_reduce = p->window < 0 || p->window > n - 1 ? n - 1 : p->window;
		if (p->type == CT_A2A)
			a->stream_count = n - 1;
	}
}

void algo_init(sim *s, stream *st)
{
	const coll *c = st->rc->c;
	const phase_plan *p = &c->ph[st->phase];
	algo *a = &st->a;
	algo_free(a);
	*a = (algo){0};
	a->type = p->type;
	a->impl = p->impl;
	a->anticlockwise = p->anticlockwise;
	a->rg = coll_ring(s, c, st->phase, st->rc->rank);
	a->n = a->rg->n;
	a->idx = ring_index(a->rg, st->rc->rank);
	a->d = a->rg->local ? 10 : (uint64_t)s->cf->endpoint;
	setup_counts(a, p, p->size);
	if (closed_try(s, st))
		return;
	for (int i = 0; i < a->parallel_reduce; i++)
		insert_packet(s, st);
}

void algo_free(algo *a)
{
	free(a->q);
	a->q = NULL;
	a->qn = a->qcap = a->qh = 0;
}
