/* et-sim: shared types. The model is ASTRA-sim's analytical one
 * (doc/astra-sim.md); every struct here mirrors one of its layers: the
 * system layer's streams and collective algorithms (coll_*, algo_*) and the
 * workload layer (rank_*), over a network backend (net.h). */
#ifndef ET_SIM_SIM_H
#define ET_SIM_SIM_H
#include "et-sim/cfg.h"
#include "et-sim/evq.h"
#include "et-sim/net.h"
#include "et-sim/sgraph.h"
#include "et_dims.h"
#include "et_err.h"
#include "et_hmap.h"
#include <stdbool.h>
#include <stdint.h>

enum { RES_CPU, RES_COMP, RES_COMM, RES_NONE, RES_N = 3 };
enum { CT_AR, CT_A2A, CT_AG, CT_RS }; /* collective phase types */

/* A logical ring: the ranks of one phase in ring order (shared, read-only). */
typedef struct ring {
	uint32_t n;
	uint32_t *rank;
	bool local;     /* a sub-group ring: fixed 10 ns endpoint delay ("Fast") */
	bool symmetric; /* every neighbour pair has the same hop count */
} ring;

typedef struct phase_plan {
	uint8_t type, impl; /* CT_*, IMPL_* */
	uint8_t dim;        /* queue = dimension */
	uint8_t anticlockwise;
	int window;    /* direct window, -1 = all peers */
	uint64_t size; /* input size of the phase */
} phase_plan;

/* One collective across its members (created by the first member to issue). */
typedef struct coll {
	uint32_t id;
	int group; /* comm group index, -1 = world */
	uint32_t nmem;
	const uint32_t *mem; /* member ranks (sorted) */
	int comm_type;       /* Chakra CollectiveCommType */
	int ctype;           /* CT_*: what it is simulated as */
	uint64_t size;       /* collective size as simulated */
	uint64_t chunk, nchunks;
	uint32_t nphase;
	phase_plan *ph;
	uint32_t nsim;      /* simulated members (1 when folded) */
	struct cf_slot *cf; /* closed-form bookkeeping per (chunk, phase) */
	uint32_t issued, members_done;
	uint32_t last_rank, last_node; /* the member that issued last (critical path) */
	uint64_t last_issue;
	uint32_t *scope_mem;  /* a world collective on some dimensions: its ranks */
	uint8_t scope_active; /* and its active dimensions (et_dims.h) */
} coll;

typedef struct cf_slot {
	uint32_t started;
	bool bad;
	uint64_t tick;
	struct stream **st; /* per simulated member position */
} cf_slot;

/* A packet waiting to be sent by an algorithm instance. */
typedef struct pkt {
	uint32_t dst, src; /* ranks */
	uint64_t size;
} pkt;

/* The per-rank state machine of one phase (Ring / Direct / HalvingDoubling). */
typedef struct algo {
	uint8_t type, impl;
	bool closed, done;
	uint32_t n, idx; /* ring size, my index */
	const ring *rg;
	uint64_t msg_size;
	int stream_count, parallel_reduce, zero, nonzero, free_packets;
	int total_received, middle_point;
	bool toggle, anticlockwise;
	int rank_offset, mult_up;    /* HD: offset, multiplier 2 (up) or 0.5 */
	uint32_t recv_idx, send_idx; /* current receiver/sender ring index */
	uint64_t d;                  /* endpoint delay of this phase */
	pkt *q;
	uint32_t qh, qn, qcap;
} algo;

/* A chunk of a collective on one rank: ASTRA-sim's StreamBaseline. */
typedef struct stream {
	struct rcoll *rc;
	uint32_t chunk, phase; /* current phase index */
	int priority;
	bool initialized, finished;
	algo a;
	uint64_t phase_start;
	struct stream *next; /* in its queue's list */
} stream;

/* A collective on one rank. */
typedef struct rcoll {
	coll *c;
	uint32_t rank, node, mpos; /* member position */
	uint32_t chunks_done;
	uint32_t pend; /* events in flight that point into this collective */
	bool complete, reaped;
	stream *st;
	struct rcoll *next_free;
} rcoll;

typedef struct squeue {
	stream *head;
	uint32_t running;
} squeue;

/* Heap of ready node indices ordered by node id. */
typedef struct rheap {
	uint32_t *v;
	uint32_t n;
	size_t cap;
} rheap;

typedef struct rank_st {
	uint32_t rank;
	const sgraph *g;
	uint32_t *pending;
	uint64_t *start, *end;
	uint64_t *cause;  /* critical path: (rank << 32 | node) whose end let it start */
	uint64_t *xcause; /* ... and, for collectives and receives, the remote node that ended it */
	rheap ready[4];   /* per resource, and one for nodes that need none */
	uint32_t busy[RES_N];
	uint64_t busy_ns[RES_N];
	uint64_t gpu_comp_ns, comm_ns;
	uint32_t done, inflight;
	bool finished;
	uint64_t finish;
	uint32_t prio_counter;
	int fifo_counter;
	squeue q[CFG_MAXDIM];
	uint32_t *coll_seq; /* per group (+1 for world) */
	rcoll *active;      /* the collective holding the comm resource */
} rank_st;

typedef struct sim sim;

/* Output options that the engine needs while running. */
typedef struct sim_opts {
	bool closed_form;
	bool record_cause;
	bool fold;
	int progress; /* et_progress mode: -1 never, 0 on a terminal, 1 always */
} sim_opts;

typedef struct sim_stats {
	uint64_t events, messages, closed_phases, event_phases;
} sim_stats;

struct sim {
	const cfg *cf;
	const sim_opts *op;
	const net_backend *net; /* cf->net.backend's */
	void *net_st;           /* its state */
	uint32_t nranks;        /* simulated ranks (1 when folded) */
	uint32_t world;         /* ranks of the trace */
	bool folded;
	rank_st *r;
	evq q;
	uint64_t now;
	/* collectives: key (group, seq) -> coll */
	coll **colls;
	uint32_t ncolls;
	size_t capcolls;
	et_hmap coll_map;  /* (scope base << 32 | group + 1, active << 32 | seq) -> coll index */
	et_hmap scope_seq; /* (rank, active dims) -> next seq of a scope's collectives */
	et_dims dims;      /* the network's dimensions, for scopes */
	et_hmap mb;        /* message mailboxes */
	struct p2p *pp;
	rcoll *graveyard;         /* completed collectives with events in flight */
	const ring **world_rings; /* [dim * world + rank] */
	struct ringset *rs;
	sim_stats st;
	/* How the run ends (sim_run): */
	et_error *err;    /* the caller's, while sim_run runs */
	bool failed;      /* sim_fail was called: *err is set */
	bool fold_failed; /* folded, and a phase had no exact closed form (sim_unfold) */
};

/* What sim_run ended with. */
typedef enum sim_end {
	SIM_FAILED = -1, /* e is set: ET_EXIT_USAGE for a setting the trace cannot use,
	                  * ET_EXIT_DATA for bad trace data or a time beyond SIM_TMAX,
	                  * ET_EXIT_FOUND for an internal inconsistency */
	SIM_DONE = 0,    /* the event queue ran dry: every rank finished, or some are
	                  * blocked (report_deadlock says which) */
	SIM_UNFOLD = 1,  /* only when folded: a phase has no exact closed form, so one
	                  * rank cannot stand for all. No error, e untouched: sim_free and
	                  * run again with folded = false */
} sim_end;

/* engine */
/* s is ready for sim_run; graphs[rank] is each rank's graph (folded: rank
 * 0's stands for all). cf, op and graphs must outlive s. */
void sim_init(sim *s, const cfg *cf, const sim_opts *op, const sgraph *const *graphs,
              uint32_t world, bool folded);
/* Runs once; the results (times, stats) stay in s until sim_free. */
sim_end sim_run(sim *s, et_error *e);
/* Frees everything of s, whatever sim_run ended with (or if it never ran). */
void sim_free(sim *s);
/* Stops the run with an error: the first one wins; later ones are dropped,
 * as is any after sim_unfold (the rerun will find them). Only while
 * sim_run runs. */
void sim_fail(sim *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Stops a folded run that cannot stay folded (unless it has stopped already). */
void sim_unfold(sim *s);
/* Times and totals: every one et-sim keeps is at most SIM_TMAX ns (584
 * years). UINT64_MAX is no time: it marks a node that has not started or
 * ended, and it is what a duration that does not fit in 64 bits saturates
 * to (et_sat.h), so that one test where a time is used catches both. */
#define SIM_TMAX (UINT64_MAX - 1)
#define SIM_TMAX_TEXT "2^64-2 ns"
/* Fails the run (exit 3): "rank R: node N: WHAT exceeds 2^64-2 ns", N the
 * node's id. */
void sim_overflow(sim *s, uint32_t rank, uint32_t node, const char *what) __attribute__((cold));
/* sim_after's failure: "WHAT exceeds" if dt itself did not fit, else
 * "simulated time exceeds". Out of line, so that callers stay small. */
void sim_after_fail(sim *s, uint64_t dt, uint32_t rank, uint32_t node, const char *what)
    __attribute__((cold, noinline));
/* now + dt, the end of node `node` of rank `rank` or of a step of it; dt
 * is the step's duration (`what`: "compute time", ...), UINT64_MAX if it
 * did not fit. A time beyond SIM_TMAX fails the run: the result must then
 * not be used, and is not, as the event loop stops before the next event.
 * One add and a branch the compiler lays out as not taken: this is on
 * every event. */
static inline uint64_t sim_after(sim *s, uint64_t dt, uint32_t rank, uint32_t node,
                                 const char *what)
{
	uint64_t t;
	if (__builtin_expect(__builtin_add_overflow(s->now, dt, &t) || t > SIM_TMAX, 0))
		sim_after_fail(s, dt, rank, node, what);
	return t;
}
/* *tot += dt for a per-rank total (WHAT, "communication time total", ...);
 * one beyond SIM_TMAX fails the run. */
static inline void sim_total_add(sim *s, uint32_t rank, uint32_t node, uint64_t *tot, uint64_t dt,
                                 const char *what)
{
	if (__builtin_expect(__builtin_add_overflow(*tot, dt, tot) || *tot > SIM_TMAX, 0)) {
		*tot = UINT64_MAX;
		sim_overflow(s, rank, node, what);
	}
}
/* Whether the run has stopped (sim_fail or sim_unfold): handlers return
 * without starting more work. */
static inline bool sim_stopped(const sim *s)
{
	return s->failed || s->fold_failed;
}

/* workload layer (wl.c) */
void wl_start(sim *s);
void wl_issue_scan(sim *s, rank_st *r);
void wl_issue_cause(sim *s, rank_st *r, uint64_t cause);
void wl_node_done(sim *s, rank_st *r, uint32_t node, uint64_t cause);
uint64_t wl_comp_ns(sim *s, const sgraph *g, uint32_t i);
void rheap_push(rheap *h, const sgraph *g, uint32_t i);

/* collectives (coll.c, coll_plan.c, algo.c, closed.c) */
int coll_issue(sim *s, rank_st *r, uint32_t node);
void coll_phase_end(sim *s, stream *st);
int coll_plan(sim *s, coll *c, const rank_st *r, uint32_t node, int ctype);
/* The implementation list (CI_*) a phase type (CT_*) is run with. */
int coll_impl_list(int ct);
const ring *coll_ring(sim *s, const coll *c, uint32_t phase, uint32_t rank);
void coll_event_done(sim *s, stream *st);
void coll_free_all(sim *s);
void coll_reap(sim *s);
void algo_init(sim *s, stream *st);
void algo_event(sim *s, stream *st, int kind, uint64_t extra);
void algo_receive(sim *s, stream *st);
void algo_free(algo *a);
void mbox_arrive(sim *s, uint64_t k1, uint64_t k2);
void mbox_post(sim *s, stream *st, uint32_t src);
bool closed_try(sim *s, stream *st);
const ring *ring_world(sim *s, uint32_t dim, uint32_t rank);
const ring *ring_group(sim *s, int group);
void ring_free_all(sim *s);
uint32_t ring_index(const ring *rg, uint32_t rank);

/* point to point (p2p.c) */
void p2p_send(sim *s, rank_st *r, uint32_t node);
void p2p_recv(sim *s, rank_st *r, uint32_t node);
void p2p_arrive(sim *s, uint64_t entry);
void p2p_free(sim *s);

/* events */
enum {
	EV_NODE_DONE,  /* rank, a = node */
	EV_ALGO,       /* rank, a = stream ptr, b = kind */
	EV_ARRIVE,     /* a = packed (coll, chunk, phase), b = (src << 32 | dst) */
	EV_P2P_ARRIVE, /* a = entry */
	EV_PHASE_END,  /* rank, a = stream ptr, b = generation */
	EV_FIRE,       /* rank: initial issue */
	EV_NET,        /* the network backend's own (net.h) */
};
/* Runs event e now, as if it had been popped: how a backend completes a
 * message in line. */
void sim_dispatch(sim *s, const ev *e);
enum { AK_BUNDLE, AK_PROCESSED, AK_RECV_NOW };

#endif
