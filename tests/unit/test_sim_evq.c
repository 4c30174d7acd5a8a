/* et-sim's event queue (engine/evq.c): events pop in time order, and
 * events at the same tick in the order they were pushed (ASTRA-sim's
 * analytical event queue keeps a FIFO list per tick, doc/astra-sim.md). */
#include "check.h"
#include "et-sim/engine/evq.h"
#include <stdint.h>

/* A small deterministic generator: the order must not depend on libc. */
static uint64_t rng(uint64_t *x)
{
	*x = *x * 6364136223846793005ull + 1442695040888963407ull;
	return *x >> 33;
}

static void test_order_and_ties(void)
{
	evq q = {0};
	evq_push(&q, 30, 1, 0, 300, 0);
	evq_push(&q, 10, 1, 0, 100, 0);
	evq_push(&q, 20, 1, 0, 200, 0);
	evq_push(&q, 10, 1, 0, 101, 0); /* same tick as 100, pushed later */
	evq_push(&q, 10, 1, 0, 102, 0);
	uint64_t want[] = {100, 101, 102, 200, 300};
	ev e;
	for (int i = 0; i < 5; i++) {
		CHECK(evq_pop(&q, &e) == 1);
		CHECK(e.a == want[i]);
	}
	CHECK(evq_pop(&q, &e) == 0);
	evq_free(&q);
}

/* An event pushed while its tick is being run goes after those already
 * there: a zero-delay event never overtakes. */
static void test_push_during_tick(void)
{
	evq q = {0};
	evq_push(&q, 5, 1, 0, 1, 0);
	evq_push(&q, 5, 1, 0, 2, 0);
	ev e;
	CHECK(evq_pop(&q, &e) == 1 && e.a == 1);
	evq_push(&q, 5, 1, 0, 3, 0);
	CHECK(evq_pop(&q, &e) == 1 && e.a == 2);
	CHECK(evq_pop(&q, &e) == 1 && e.a == 3);
	evq_free(&q);
}

/* 10,000 events on 50 ticks: popped by (tick, push order), whatever the
 * heap does inside; the fields come back unchanged. */
static void test_many(void)
{
	evq q = {0};
	uint64_t x = 42;
	enum { N = 10000 };
	for (uint64_t i = 0; i < N; i++)
		evq_push(&q, rng(&x) % 50, (uint32_t)(i % 7), (uint32_t)i, i, ~i);
	ev e;
	uint64_t last_t = 0, last_a = 0, n = 0;
	while (evq_pop(&q, &e)) {
		CHECK(e.t > last_t || (e.t == last_t && (n == 0 || e.a > last_a)));
		CHECK(e.b == ~e.a && e.type == e.a % 7 && e.rank == (uint32_t)e.a);
		last_t = e.t, last_a = e.a, n++;
	}
	CHECK(n == N);
	evq_free(&q);
}

/* What an event pushes carries the ticks of its ancestry (ev.pc): equal for
 * two events whose ancestors ran at the same ticks, different when any
 * ancestor's tick differs, and the start's pushes have ancestry 0. */
static void test_ancestry(void)
{
	evq q = {0};
	evq_push(&q, 10, 1, 0, 1, 0);
	evq_push(&q, 10, 1, 1, 2, 0);
	evq_push(&q, 15, 1, 2, 3, 0);
	ev a, b, c;
	CHECK(evq_pop(&q, &a) == 1 && a.a == 1 && a.pc == 0);
	CHECK(q.now_pc == 0 && q.chain == evq_chain(0, 10));
	evq_push(&q, 20, 1, 0, 11, 0);
	CHECK(evq_pop(&q, &b) == 1 && b.a == 2 && b.pc == 0);
	evq_push(&q, 20, 1, 1, 12, 0);
	CHECK(evq_pop(&q, &c) == 1 && c.a == 3);
	evq_push(&q, 20, 1, 2, 13, 0);
	ev x, y, z;
	CHECK(evq_pop(&q, &x) == 1 && evq_pop(&q, &y) == 1 && evq_pop(&q, &z) == 1);
	CHECK(x.a == 11 && y.a == 12 && z.a == 13);
	CHECK(x.pc == y.pc); /* both parents at 10, from the start */
	CHECK(x.pc != z.pc); /* parent at 15 */
	CHECK(q.now_pc == z.pc);
	/* one level deeper: a tick two generations back still tells apart */
	CHECK(evq_chain(evq_chain(0, 10), 20) != evq_chain(evq_chain(0, 15), 20));
	CHECK(evq_chain(0, 0) != 0);
	evq_free(&q);
}

int main(void)
{
	test_ancestry();
	test_order_and_ties();
	test_push_during_tick();
	test_many();
	return check_failures();
}
