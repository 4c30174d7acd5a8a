/* net: the network under the system layer, one interface and two backends
 * (doc/astra-sim.md A.2, doc/astra-sim-aware.md):
 * - unaware: ASTRA-sim's congestion-unaware model: a message's delay is a
 *   closed form of (src, dst, bytes), fixed when it is sent;
 * - aware: ASTRA-sim's congestion-aware model: a message is one chunk that
 *   travels over directed links, each a FIFO server, store-and-forward, on
 *   the network's dimensions (Ring, FullyConnected, Switch, several of them
 *   with dimension-ordered routes) or on an InfraGraph graph.
 *
 * The system layer sends a message with the event its arrival completes;
 * the backend dispatches that event when the message has arrived (unaware:
 * it schedules it at the arrival time; aware: its last hop's arrival event
 * dispatches it in line, as ASTRA-sim's chunk callback does). Capabilities
 * say what the layers above may assume of a backend.
 *
 * A backend sees only its net_env (as ASTRA-sim's network layer sees the
 * system through a narrow interface): the network's configuration, the
 * clock, and the engine's few services as callbacks. It includes nothing of
 * engine/, system/ or workload/ (tests/bats/house.bats checks). */
#ifndef ET_SIM_NET_NET_H
#define ET_SIM_NET_NET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cfg cfg;

/* The default backend, the table's first row (unaware). */
#define NET_DEFAULT 0

enum {
	/* a message's delay depends on (src, dst, bytes) only, never on other
	 * traffic: collective phases may be priced in closed form */
	NET_CAP_CLOSED_FORM = 1,
	/* identical ranks may be simulated as one (needs the closed forms) */
	NET_CAP_FOLD = 2,
	/* the backend runs on an InfraGraph graph */
	NET_CAP_GRAPH = 4,
	/* the backend has links and measures them (link_stats) */
	NET_CAP_LINKS = 8,
};

/* The event a message's arrival completes. */
typedef struct net_done {
	uint32_t type, rank;
	uint64_t a, b;
} net_done;

/* What a backend gets from the engine (filled by the engine's sim_init,
 * or by a test's fixture). Callbacks take `eng`, the engine's own pointer,
 * opaque here. */
typedef struct net_env {
	const cfg *cf;       /* the network: dimensions, bandwidths, latencies,
	                      * topologies, the InfraGraph graph (cf->net.graph) */
	void *st;            /* the backend's state: set by init, freed by free */
	const uint64_t *now; /* the engine's clock, read-only */
	uint64_t tmax;       /* the latest time the engine keeps (SIM_TMAX) */
	void *eng;
	/* Schedules `d` at time t (>= now): the engine runs it then. */
	void (*done_at)(void *eng, uint64_t t, const net_done *d);
	/* Runs `d` now, in line (as if it had been popped). */
	void (*dispatch)(void *eng, const net_done *d);
	/* Schedules the backend's own event (a, b) at t: its event op gets it
	 * then; rank names the sending rank. */
	void (*own_at)(void *eng, uint64_t t, uint32_t rank, uint64_t a, uint64_t b);
	/* net_after's failure: fails the run (exit 3), "rank R: node N: WHAT
	 * exceeds 2^64-2 ns" if dt itself did not fit, else "simulated time
	 * exceeds ...". */
	void (*after_fail)(void *eng, uint64_t dt, uint32_t rank, uint32_t node, const char *what);
} net_env;

/* now + dt, the time a step of node `node` of rank `rank` ends (`what`:
 * "communication time", ...); dt is UINT64_MAX if it did not fit. A time
 * beyond tmax fails the run (after_fail): the result must then not be
 * used, and is not, as the engine stops before its next event. Inline: it
 * runs on every hop. */
static inline uint64_t net_after(const net_env *env, uint64_t dt, uint32_t rank, uint32_t node,
                                 const char *what)
{
	uint64_t t;
	if (__builtin_expect(__builtin_add_overflow(*env->now, dt, &t) || t > env->tmax, 0))
		env->after_fail(env->eng, dt, rank, node, what);
	return t;
}

/* What the aware backend measured on one directed link. */
typedef struct net_link_stat {
	char from[96], to[96]; /* device names */
	uint64_t bytes, busy_ns, chunks;
	uint32_t max_queue; /* most chunks waiting behind the one being served */
} net_link_stat;

typedef struct net_backend {
	const char *name; /* --backend's name: "unaware", "aware" */
	const char *help; /* what --help says of it, in parentheses */
	unsigned caps;    /* NET_CAP_* */
	/* Builds the backend's state for env->cf (env->st). Cannot fail: the
	 * configuration was checked by cfg_finish. */
	void (*init)(net_env *env);
	/* Sends `bytes` from rank src to rank dst now; `done` is dispatched when
	 * it has arrived. rank/node/what name the sending node for a time that
	 * does not fit (net_after). */
	void (*send)(net_env *env, uint32_t src, uint32_t dst, uint64_t bytes, const net_done *done,
	             uint32_t node, const char *what);
	/* The delay of `bytes` from src to dst sent alone, for the closed forms:
	 * set exactly when caps has NET_CAP_CLOSED_FORM (the delay depends on
	 * nothing else), NULL otherwise. */
	uint64_t (*delay)(const net_env *env, uint32_t src, uint32_t dst, uint64_t bytes);
	/* An event of the backend's own (own_at's a, b), now due. */
	void (*event)(net_env *env, uint64_t a, uint64_t b);
	/* The links' measures, in the order the links were made (*out allocated,
	 * count returned);
	 * NULL for a backend without links. */
	size_t (*link_stats)(const net_env *env, net_link_stat **out);
	void (*free)(net_env *env);
} net_backend;

/* The backends (net.c), by index: how many, backend `which` (the default
 * when out of range), the index of a name (-1: none), every name
 * (NULL-terminated, for --backend's choices), the first with every
 * capability of caps (-1: none), and "unaware or aware" -- with each one's
 * help when `help` -- into buf (cut to n). */
int net_backend_count(void);
const net_backend *net_backend_of(int which);
int net_backend_parse(const char *name);
const char *const *net_backend_names(void);
int net_backend_with(unsigned caps);
void net_backend_list(char *buf, size_t n, bool help);

/* The unaware model's delay of a message in ns (its row's delay);
 * UINT64_MAX when the time does not fit (et_sat.h), as when bytes is
 * UINT64_MAX. */
uint64_t net_delay(const net_env *env, uint32_t src, uint32_t dst, uint64_t bytes);

#endif
