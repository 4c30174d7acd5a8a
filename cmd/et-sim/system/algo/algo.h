/* algo: one collective algorithm = one row (algo_row), in one file of
 * system/algo/, listed once in algo_table.c. The system layer runs a phase
 * only through its row: the configuration's names, what the algorithm
 * implements, how it steps, and its closed form come from there, so adding
 * an algorithm touches no other file (doc/HACKING.md). */
#ifndef ET_SIM_SYSTEM_ALGO_ALGO_H
#define ET_SIM_SYSTEM_ALGO_ALGO_H
#include "et-sim/system/algo/algo_table.h"
#include "et-sim/system/system.h"
#include <stdbool.h>
#include <stdint.h>

enum {
	/* also runs as "one" + Name, one ring over every rank (oneRing) */
	ALGO_CAP_ONE = 1,
	/* takes a window, NAME<N>: at most N peers in flight (direct4) */
	ALGO_CAP_WINDOW = 2,
	/* needs a power-of-two number of ranks */
	ALGO_CAP_POW2 = 4,
	/* a sub-group ("local") ring keeps its closed form: the form does not
	 * assume the fixed 10 ns endpoint delay away */
	ALGO_CAP_CF_LOCAL = 8,
	/* a tree over the whole input: a phase's output is its input whatever
	 * its type (it all-reduces even as a reduce-scatter or all-gather
	 * phase), and its phases take turns between two trees by the count of
	 * phases made on their dimension (phase_plan.seq, topo_count) */
	ALGO_CAP_TREE = 16,
};

/* The phase types (CT_*) a row implements, as a mask. */
#define ALGO_TYPE(ct) (1u << (ct))
#define ALGO_TYPES_ALL (ALGO_TYPE(CT_AR) | ALGO_TYPE(CT_A2A) | ALGO_TYPE(CT_AG) | ALGO_TYPE(CT_RS))

typedef struct algo_row {
	const char *name; /* ASTRA-sim's implementation name */
	unsigned caps;    /* ALGO_CAP_* */
	unsigned types;   /* ALGO_TYPE(CT_*) it implements; 0: named but not simulated */
	/* The phase's state machine on one rank: StreamInit (a->rg, n, idx, d
	 * are set), a message received (mbox.c), and an EV_ALGO event of its
	 * own. Any algorithm -- a ring, a tree -- can be written here; the ring
	 * family shares algo_pm_* (the packet machine, algo.c), which steps
	 * through the hooks below. */
	void (*start)(sim *s, stream *st);
	void (*receive)(sim *s, stream *st);
	void (*event)(sim *s, stream *st, int kind, uint64_t extra);
	/* Packet machine hooks. setup: the counters and first peers of phase p;
	 * nonzero: packets carrying data after the first parallel_reduce;
	 * next_peers: the peers of the next packet; hold: general() waits
	 * instead of sending (NULL: never). */
	void (*setup)(algo *a, const phase_plan *p);
	int (*nonzero)(const algo *a);
	void (*next_peers)(algo *a);
	bool (*hold)(const algo *a);
	bool packet_size; /* a packet is sent with the size it was queued with */
	/* The closed form (doc/astra-sim.md D.14-D.16): the phase's duration on
	 * ring index idx, d the endpoint delay; NULL: none. closed_ok: whether
	 * it is exact for this phase beyond closed.c's common rules (NULL:
	 * always). */
	uint64_t (*closed)(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d);
	bool (*closed_ok)(sim *s, const phase_plan *p, const algo *a);
} algo_row;

/* Row `impl` (an index from algo_parse). */
const algo_row *algo_row_of(unsigned impl);

/* What any row's state machine does (a tree's as well as the ring
 * family's): an event of its own dt after now (kind 0..3, see AK_*, and
 * extra come back to row->event), a message of `bytes` to rank dst (it
 * arrives at dst's receive(), once dst expects it), a message expected from
 * rank src, and the end of the phase. */
static inline void algo_after(sim *s, stream *st, uint64_t dt, int kind, uint64_t extra)
{
	st->rc->pend++;
	uint64_t t = sim_after(s, dt, st->rc->rank, st->rc->node, "communication time");
	evq_push(&s->q, t, EV_ALGO, st->rc->rank, (uint64_t)(uintptr_t)st,
	         (uint64_t)kind | extra << 2);
}
static inline void algo_send(sim *s, stream *st, uint32_t dst, uint64_t bytes)
{
	uint32_t me = st->rc->rank;
	net_done done = {EV_ARRIVE, dst, msg_key(st), msg_ends(me, dst)};
	s->st.messages++;
	s->net->send(&s->nenv, me, dst, bytes, &done, st->rc->node, "communication time");
}
static inline void algo_expect(sim *s, stream *st, uint32_t src)
{
	mbox_post(s, st, src);
}
static inline void algo_finish(sim *s, stream *st)
{
	st->a.done = true;
	coll_phase_end(s, st);
}

/* Ring's counters and peers (ring.c), which Direct extends as ASTRA-sim's
 * AllToAll extends its Ring. */
void algo_ring_setup(algo *a, const phase_plan *p);

/* The packet machine (algo.c), for rows of the ring family. */
void algo_pm_start(sim *s, stream *st);
void algo_pm_receive(sim *s, stream *st);
void algo_pm_event(sim *s, stream *st, int kind, uint64_t extra);

/* A row's state machine is the packet machine. */
#define ALGO_PM_STEPS .start = algo_pm_start, .receive = algo_pm_receive, .event = algo_pm_event

/* Index off steps from idx on a ring of n, clockwise or not. */
static inline uint32_t algo_step(uint32_t n, uint32_t idx, uint32_t off, bool anti)
{
	uint32_t o = off % n;
	return anti ? (idx + n - o) % n : (idx + o) % n;
}

/* The reduction delay of m received bytes, p(m) (doc/astra-sim.md A.3). */
uint64_t algo_reduce(sim *s, uint64_t bytes);

/* For closed forms (closed.c): the delay of m bytes from ring index a to
 * b, as the backend prices it alone (net_backend.delay), and the slowest
 * peer of idx (*uniform: every peer equally slow). */
uint64_t algo_cf_delay(sim *s, const ring *rg, uint32_t a, uint32_t b, uint64_t m);
uint64_t algo_cf_tmax(sim *s, const ring *rg, uint32_t idx, uint64_t m, bool *uniform);

#endif
