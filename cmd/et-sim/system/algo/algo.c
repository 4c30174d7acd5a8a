/* algo: a phase through its algorithm's row (algo.h), and the packet
 * machine, the per-rank message state machine that ASTRA-sim's Ring,
 * Direct (AllToAll) and HalvingDoubling share; each of them steps it
 * through its row's hooks (ring.c, direct.c, halving_doubling.c).
 *
 * States of a packet: inserted (on StreamInit or on a receive) -> released
 * (endpoint delay d, then the reduction p(m) if it carries data to reduce)
 * -> "General": the algorithm may send the packet at the head of its queue
 * and post the matching receive. The phase exits when it has sent all its
 * messages and every released packet came back (free == parallel_reduce).
 * The counters mirror ASTRA-sim's so that the message schedule is its own. */
#include "et-sim/system/algo/algo.h"
#include "et_mem.h"
#include "et_sat.h"
#include <math.h>
#include <stdlib.h>

/* Packet release: the bundle goes to memory (d), then is reduced if needed. */
static void release(sim *s, stream *st, bool processed, uint64_t size)
{
	algo_after(s, st, st->a.d, AK_BUNDLE, processed ? size + 1 : 0);
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
		a->nonzero = a->row->nonzero(a);
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
	if (a->row->next_peers)
		a->row->next_peers(a);
}

static bool ready(sim *s, stream *st)
{
	algo *a = &st->a;
	if (a->qn == 0 || a->stream_count == 0 || a->free_packets == 0)
		return false;
	pkt p = a->q[a->qh];
	uint64_t size = a->row->packet_size ? p.size : a->msg_size;
	algo_send(s, st, p.dst, size);
	algo_expect(s, st, p.src);
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
		algo_finish(s, st);
	}
}

static void general(sim *s, stream *st)
{
	algo *a = &st->a;
	a->free_packets++;
	if (a->row->hold && a->row->hold(a)) {
		if (a->total_received < a->middle_point)
			return;
		for (int i = 0; i < a->parallel_reduce; i++)
			ready(s, st);
	} else {
		ready(s, st);
	}
	iteratable(s, st);
}

/* The reduction of a received message (doc/astra-sim.md A.3): local
 * memory, not the network, so the system layer's. */
uint64_t algo_reduce(sim *s, uint64_t bytes)
{
	if (et_sat_is(bytes))
		return UINT64_MAX;
	double t = (double)bytes / (s->cf->local_mem_bw * 1e9) * 1e9;
	return et_sat_mul(3, et_sat_from_double(floor(t)));
}

void algo_pm_receive(sim *s, stream *st)
{
	st->a.total_received++;
	insert_packet(s, st);
}

void algo_pm_event(sim *s, stream *st, int kind, uint64_t extra)
{
	if (kind == AK_BUNDLE && extra) {
		algo_after(s, st, algo_reduce(s, extra - 1), AK_PROCESSED, 0);
		return;
	}
	if (kind == AK_RECV_NOW) {
		algo_pm_receive(s, st);
		return;
	}
	general(s, st);
}

void algo_pm_start(sim *s, stream *st)
{
	for (int i = 0; i < st->a.parallel_reduce; i++)
		insert_packet(s, st);
}

void algo_receive(sim *s, stream *st)
{
	st->a.row->receive(s, st);
}

/* A phase that went closed form, or is over, ignores its late events. */
void algo_event(sim *s, stream *st, int kind, uint64_t extra)
{
	if (st->a.closed || st->a.done)
		return;
	st->a.row->event(s, st, kind, extra);
}

void algo_init(sim *s, stream *st)
{
	const coll *c = st->rc->c;
	const phase_plan *p = &c->ph[st->phase];
	algo *a = &st->a;
	algo_free(a);
	*a = (algo){0};
	a->type = p->type;
	a->row = algo_row_of(p->impl);
	a->anticlockwise = p->anticlockwise;
	a->rg = coll_ring(s, c, st->phase, st->rc->rank);
	a->n = a->rg->n;
	a->idx = ring_index(a->rg, st->rc->rank);
	a->d = a->rg->local ? 10 : (uint64_t)s->cf->endpoint;
	a->parallel_reduce = 1;
	if (a->row->setup)
		a->row->setup(a, p);
	if (closed_try(s, st))
		return;
	a->row->start(s, st);
}

void algo_free(algo *a)
{
	free(a->q);
	a->q = NULL;
	a->qn = a->qcap = a->qh = 0;
}
