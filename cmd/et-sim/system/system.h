/* system: ASTRA-sim's system layer -- a collective is split into chunks,
 * each chunk runs the phases of its plan (one per dimension) in the
 * dimension's queue, each phase is one collective algorithm (system/algo/)
 * exchanging messages through the backend (net/net.h). */
#ifndef ET_SIM_SYSTEM_SYSTEM_H
#define ET_SIM_SYSTEM_SYSTEM_H
#include "et-sim/engine/sim.h"
#include <stdbool.h>
#include <stdint.h>

enum { CT_AR, CT_A2A, CT_AG, CT_RS }; /* collective phase types */
enum { AK_BUNDLE, AK_PROCESSED, AK_RECV_NOW };

/* A logical ring: the ranks of one phase in ring order (shared, read-only). */
typedef struct ring {
	uint32_t n;
	uint32_t *rank;
	bool local;     /* a sub-group ring: fixed 10 ns endpoint delay ("Fast") */
	bool symmetric; /* every neighbour pair has the same hop count */
} ring;

typedef struct phase_plan {
	uint8_t type, impl; /* CT_*, the algorithm's row (system/algo/algo_table.c) */
	uint8_t dim;        /* queue = dimension */
	uint8_t anticlockwise;
	int window;    /* direct window, -1 = all peers */
	uint64_t size; /* input size of the phase */
	uint8_t seq;   /* parity of the phases made on its logical topology before
	                * this collective's (doc/astra-sim.md D.21) */
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
	uint8_t type;
	bool closed, done;
	const struct algo_row *row; /* the phase's algorithm (system/algo/algo.h) */
	uint32_t n, idx;            /* ring size, my index */
	const ring *rg;
	uint64_t msg_size;
	int stream_count, parallel_reduce, zero, nonzero, free_packets;
	int total_received, middle_point;
	bool toggle, anticlockwise;
	int rank_offset, mult_up;    /* HD: offset, multiplier 2 (up) or 0.5 */
	uint32_t recv_idx, send_idx; /* current receiver/sender ring index */
	uint64_t d;                  /* endpoint delay of this phase */
	/* a tree (double_binary_tree.c): its step, which tree, reductions done */
	uint8_t tree_state, tree_reduced;
	bool tree_min;
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

/* A collective message's mailbox key, the one place it is packed: (the
 * collective, chunk, phase) and (src, dst). A chunk index fits in 24 bits
 * (at most 4096 chunks, cfg.c) and a phase in 8 (2 * CFG_MAXDIM). */
static inline uint64_t msg_key(const stream *st)
{
	return (uint64_t)st->rc->c->id << 32 | (uint64_t)st->chunk << 8 | st->phase;
}
static inline uint64_t msg_ends(uint32_t src, uint32_t dst)
{
	return (uint64_t)src << 32 | dst;
}
static inline uint32_t msg_key_coll(uint64_t key)
{
	return (uint32_t)(key >> 32);
}
static inline uint32_t msg_key_chunk(uint64_t key)
{
	return (uint32_t)(key >> 8) & 0xffffff;
}

typedef struct squeue {
	stream *head;
	uint32_t running;
} squeue;

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
/* A tree row's count of the phases made per dimension (ring_topology.c). */
void topo_count(sim *s, coll *c, uint32_t first, int list);

#endif
