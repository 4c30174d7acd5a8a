/* workload: ASTRA-sim's workload layer (doc/astra-sim.md B): each rank
 * replays its graph on three resources, issuing collectives to the system
 * layer and sends/receives point to point. */
#ifndef ET_SIM_WORKLOAD_WORKLOAD_H
#define ET_SIM_WORKLOAD_WORKLOAD_H
#include "et-sim/engine/sim.h"
#include "et-sim/system/system.h"
#include "et-sim/workload/sgraph.h"
#include <stdbool.h>
#include <stdint.h>

enum { RES_CPU, RES_COMP, RES_COMM, RES_NONE, RES_N = 3 };
enum { SIM_TIES = 8 }; /* events of one rank at one tick that a fold follows */

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
	double slow; /* compute-time factor (--slow), 1 for none */
	/* folded: the events of this rank at tick tie_t so far: each one's
	 * ancestry hash (ev.pc) and whether another rank scheduled it (sim_tie) */
	uint64_t tie_t;
	uint32_t tie_n;
	uint64_t tie[SIM_TIES];
	bool tie_ext[SIM_TIES];
	uint32_t prio_counter;
	int fifo_counter;
	squeue q[CFG_MAXDIM];
	rcoll *active; /* the collective holding the comm resource */
} rank_st;

/* workload layer (wl.c) */
void wl_start(sim *s);
void wl_issue_scan(sim *s, rank_st *r);
void wl_issue_cause(sim *s, rank_st *r, uint64_t cause);
void wl_node_done(sim *s, rank_st *r, uint32_t node, uint64_t cause);
uint64_t wl_comp_ns(sim *s, const sgraph *g, uint32_t i);
void rheap_push(rheap *h, const sgraph *g, uint32_t i);

/* point to point (p2p.c) */
void p2p_send(sim *s, rank_st *r, uint32_t node);
void p2p_recv(sim *s, rank_st *r, uint32_t node);
void p2p_arrive(sim *s, const ev *e); /* e->a: the entry */
void p2p_free(sim *s);

#endif
