/* evq: 4-ary min-heap on (tick, sequence number): half the levels of a
 * binary heap, and the four children of a node share cache lines. */
#include "et-sim/engine/evq.h"
#include "et_mem.h"
#include <stdlib.h>

static int ev_less(const ev *x, const ev *y)
{
	return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

uint64_t evq_chain(uint64_t pc, uint64_t t)
{
	/* splitmix64's finalizer over both words: every bit of each moves */
	uint64_t x = pc ^ (t + 0x9e3779b97f4a7c15u + (pc << 6) + (pc >> 2));
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return x ^ (x >> 31);
}

void evq_push(evq *q, uint64_t t, uint32_t type, uint32_t rank, uint64_t a, uint64_t b)
{
	ET_GROW(q->h, q->cap, (size_t)q->n + 1);
	ev e = {t, q->seq++, q->chain, a, b, type, rank};
	uint64_t i = q->n++;
	while (i > 0) {
		uint64_t p = (i - 1) / 4;
		if (!ev_less(&e, &q->h[p]))
			break;
		q->h[i] = q->h[p];
		i = p;
	}
	q->h[i] = e;
}

int evq_pop(evq *q, ev *out)
{
	if (q->n == 0)
		return 0;
	*out = q->h[0];
	q->now = out->t;
	q->now_pc = out->pc;
	q->chain = evq_chain(out->pc, out->t);
	ev last = q->h[--q->n];
	uint64_t i = 0;
	for (;;) {
		uint64_t c = 4 * i + 1;
		if (c >= q->n)
			break;
		uint64_t end = c + 4 < q->n ? c + 4 : q->n;
		for (uint64_t k = c + 1; k < end; k++)
			if (ev_less(&q->h[k], &q->h[c]))
				c = k;
		if (!ev_less(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
	}
	if (q->n)
		q->h[i] = last;
	return 1;
}

void evq_free(evq *q)
{
	free(q->h);
	q->h = NULL;
	q->n = q->cap = 0;
}
