/* engine: the clock, the event queue and the run of one simulation. The
 * model is ASTRA-sim's analytical one (doc/astra-sim.md); the layers above
 * it (workload/workload.h, system/system.h) and the network backend below
 * (net/net.h) keep their own types: the engine sees them only by pointer. */
#ifndef ET_SIM_ENGINE_SIM_H
#define ET_SIM_ENGINE_SIM_H
#include "et-sim/config/cfg.h"
#include "et-sim/engine/evq.h"
#include "et-sim/net/net.h"
#include "et_dims.h"
#include "et_err.h"
#include "et_hmap.h"
#include <stdbool.h>
#include <stdint.h>

/* The layers' types the engine holds by pointer (C11 allows the typedefs
 * again in their own headers). */
typedef struct sgraph sgraph;
typedef struct rank_st rank_st;
typedef struct coll coll;
typedef struct ring ring;
typedef struct rcoll rcoll;

typedef struct sim sim;

/* Output options that the engine needs while running. */
typedef struct sim_opts {
	bool closed_form;
	bool record_cause;
	bool fold;
	const double *slow; /* per trace rank: its compute-time factor (--slow); NULL: none */
	int progress;       /* et_progress mode: -1 never, 0 on a terminal, 1 always */
} sim_opts;

typedef struct sim_stats {
	uint64_t events, messages, closed_phases, event_phases;
} sim_stats;

struct sim {
	const cfg *cf;
	const sim_opts *op;
	const net_backend *net; /* cf->net.backend's */
	net_env nenv;           /* all it sees of the engine, its state (sim_net_init) */
	uint32_t nranks;        /* simulated ranks: one per rank class when folded */
	uint32_t world;         /* ranks of the trace */
	bool folded;
	uint32_t *sim_of; /* folded: trace rank -> its class, the index in r (a copy) */
	rank_st *r;
	evq q;
	uint64_t now;
	/* collectives: key (group, seq) -> coll */
	coll **colls;
	uint32_t ncolls;
	size_t capcolls;
	et_hmap coll_map;  /* (scope base << 32 | group + 1, active << 32 | seq) -> coll index */
	et_hmap scope_seq; /* (rank, active dims) -> next seq of a scope's collectives */
	/* (rank, group index + 1, 0 for every rank) -> the rank's next seq on
	 * the group: a map, not an array per rank, since an array of every group
	 * for every simulated rank is ranks x groups (77 GB for 131,072 ranks
	 * unfolded, each of its own tp, pp and dp groups) */
	et_hmap group_seq;
	et_dims dims; /* the network's dimensions, for scopes */
	et_hmap mb;   /* message mailboxes */
	struct p2p *pp;
	rcoll *graveyard;         /* completed collectives with events in flight */
	const ring **world_rings; /* [dim * world + rank] */
	struct ringset *rs;
	sim_stats st;
	/* How the run ends (sim_run): */
	et_error *err;          /* the caller's, while sim_run runs */
	bool failed;            /* sim_fail was called: *err is set */
	bool fold_failed;       /* folded, and the fold could not go on (sim_unfold) */
	const char *unfold_why; /* what stopped it, at unfold_at ns */
	uint64_t unfold_at;
};

/* What sim_run ended with. */
typedef enum sim_end {
	SIM_FAILED = -1, /* e is set: ET_EXIT_USAGE for a setting the trace cannot use,
	                  * ET_EXIT_DATA for bad trace data or a time beyond SIM_TMAX,
	                  * ET_EXIT_FOUND for an internal inconsistency */
	SIM_DONE = 0,    /* the event queue ran dry: every rank finished, or some are
	                  * blocked (report_deadlock says which) */
	SIM_UNFOLD = 1,  /* only when folded: a phase has no exact closed form, so one
	                  * rank cannot stand for its class. No error, e untouched:
	                  * sim_free and run again with fold = NULL */
} sim_end;

/* engine */
typedef struct rank_classes rank_classes;
/* s is ready for sim_run; graphs[rank] is each rank's graph. fold NULL
 * simulates every rank; else one rank per class of fold (its lowest,
 * workload/classes.h), whose messages go to their peers' classes. cf, op
 * and graphs must outlive s (fold need not). */
void sim_init(sim *s, const cfg *cf, const sim_opts *op, const sgraph *const *graphs,
              uint32_t world, const rank_classes *fold);
/* Builds s->net (set, as s->cf) over s->nenv: the engine's side of the
 * backend interface (net.h). sim_init calls it; a test may, on a bare sim. */
void sim_net_init(sim *s);
/* The index in s->r of the rank that is simulated for trace rank `rank`. */
static inline uint32_t sim_index(const sim *s, uint32_t rank)
{
	return s->sim_of ? s->sim_of[rank] : rank;
}
/* Runs once; the results (times, stats) stay in s until sim_free. */
sim_end sim_run(sim *s, et_error *e);
/* Frees everything of s, whatever sim_run ended with (or if it never ran). */
void sim_free(sim *s);
/* Stops the run with an error: the first one wins; later ones are dropped,
 * as is any after sim_unfold (the rerun will find them). Only while
 * sim_run runs. */
void sim_fail(sim *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Stops a folded run that cannot stay folded (unless it has stopped already). */
void sim_unfold(sim *s, const char *why);
/* Folded: event e of trace rank `rank` runs now; `external` when, unfolded,
 * another rank would have scheduled it (a message's arrival at its
 * receiver, the end of a collective phase of several members). Events at
 * one tick run in the order they were scheduled: by the tick they were
 * scheduled at, which every member of a class shares, then in the order
 * of scheduling within that tick, which a rank decides for its own events
 * only. Two events of a rank at one tick, scheduled at one tick, one of
 * them by another rank, could run in another order on another member of
 * the class: the run unfolds. */
void sim_tie(sim *s, uint32_t rank, const ev *e, bool external);
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
/* Runs event e now, as if it had been popped: the event loop's, and how
 * a backend's completion in line (net_env's dispatch) runs. */
void sim_dispatch(sim *s, const ev *e);

#endif
