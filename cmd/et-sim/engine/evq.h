/* evq: the discrete-event queue. Events at the same tick run in the order
 * they were scheduled, as in ASTRA-sim's analytical event queue. */
#ifndef ET_SIM_ENGINE_EVQ_H
#define ET_SIM_ENGINE_EVQ_H
#include <stdint.h>

typedef struct ev {
	uint64_t t, seq;
	uint64_t pt; /* the tick it was scheduled at (the last popped event's) */
	uint64_t a, b;
	uint32_t type, rank;
} ev;

typedef struct evq {
	ev *h;
	uint64_t n, cap, seq;
	uint64_t now; /* the tick of the last event popped */
} evq;

void evq_push(evq *q, uint64_t t, uint32_t type, uint32_t rank, uint64_t a, uint64_t b);
int evq_pop(evq *q, ev *out); /* 1 = popped, 0 = empty */
void evq_free(evq *q);

#endif
