/* evq: the discrete-event queue. Events at the same tick run in the order
 * they were scheduled, as in ASTRA-sim's analytical event queue.
 *
 * That order is the order of the events' ancestries: an event pushed while
 * event P runs comes after one pushed while an earlier P' runs. So two
 * events at one tick run in the order of their parents' ticks, then of
 * their grandparents' ticks, and so on; only when every ancestor's tick is
 * equal does the order come from who pushed first at the start. Each event
 * carries a hash of its ancestors' ticks (pc): a folded run, which replays
 * only one rank per class, uses it to tell an order that ticks decide
 * (the same in the folded and in the full run) from one they do not. */
#ifndef ET_SIM_ENGINE_EVQ_H
#define ET_SIM_ENGINE_EVQ_H
#include <stdint.h>

typedef struct ev {
	uint64_t t, seq;
	uint64_t pc; /* hash of the ticks of the events it descends from */
	uint64_t a, b;
	uint32_t type, rank;
} ev;

typedef struct evq {
	ev *h;
	uint64_t n, cap, seq;
	uint64_t now;    /* the tick of the last event popped */
	uint64_t now_pc; /* its ancestry hash (pc) */
	uint64_t chain;  /* that hash with its own tick: what it pushes get */
} evq;

/* The ancestry hash an event at tick t with ancestry pc passes to what it
 * pushes. Equal ancestries give equal hashes; unequal ones, equal hashes
 * with probability about 2^-64 (a folded run then unfolds: never wrong). */
uint64_t evq_chain(uint64_t pc, uint64_t t);

void evq_push(evq *q, uint64_t t, uint32_t type, uint32_t rank, uint64_t a, uint64_t b);
int evq_pop(evq *q, ev *out); /* 1 = popped, 0 = empty */
void evq_free(evq *q);

#endif
