/* et-sim's network backends on hand-computed delays (doc/astra-sim.md A.1-A.2,
 * doc/astra-sim-aware.md): B = GB/s * 2^30 / 1e9 bytes per ns, so 50 GB/s
 * is 53.6870912 B/ns and 1 MiB takes 19,531.25 ns to serialise. */
#include "et-sim/engine/sim.h" /* links libet-sim.a (the Makefile looks here) */
#include "et-sim/net/net_dims.h"
#include "sim_fixture.h"

enum { MIB = 1048576 };

static const char *const ring8[] = {
    "topology=Ring",
    "npus-count=8",
    "bandwidth=50",
    "latency=500",
    "local-mem-bw=1600",
    "preferred-dataset-splits=1",
    NULL,
};

/* Unaware: T = floor(h * latency + m / B), h on the first differing dimension. */
static void test_unaware_ring(void)
{
	cfg c;
	CHECK(fx_cfg(&c, ring8) == 0);
	int u = net_backend_parse("unaware");
	sim s;
	fx_net_open(&s, &c, u);
	/* 3 hops either way round: floor(1500 + 19531.25) */
	CHECK(s.net->delay(&s.nenv, 0, 3, MIB) == 21031);
	CHECK(s.net->delay(&s.nenv, 0, 5, MIB) == 21031);
	/* 1 hop: floor(500 + 19531.25); 0 bytes: the latency alone */
	CHECK(s.net->delay(&s.nenv, 1, 0, MIB) == 20031);
	CHECK(s.net->delay(&s.nenv, 0, 1, 0) == 500);
	/* 32 KiB: floor(500 + 610.3515625), spec E's T for 8 ranks */
	CHECK(s.net->delay(&s.nenv, 0, 1, 32768) == 1110);
	CHECK(s.net->delay(&s.nenv, 4, 4, MIB) == 0);
	fx_net_close(&s);
	/* sent: arrives at the delay, whatever else is in flight */
	CHECK(fx_alone(&c, u, 0, 3, MIB) == 21031);
	fx_net_open(&s, &c, u);
	fx_send(&s, 0, 1, MIB);
	fx_send(&s, 0, 1, MIB);
	CHECK(fx_quiet(&s) == 20031);
	fx_net_close(&s);
	cfg_free(&c);
}

/* Two dimensions: a Ring of 4 (dimension 0, stride 1) by a Switch of 2
 * (100 GB/s = 107.3741824 B/ns, 1000 ns, h = 2): ranks 0 and 4 differ only
 * in dimension 1. */
static void test_unaware_dims(void)
{
	const char *const sets[] = {
	    "topology=Ring,Switch",
	    "npus-count=4,2",
	    "bandwidth=50,100",
	    "latency=500,1000",
	    "local-mem-bw=1600",
	    "preferred-dataset-splits=1",
	    NULL,
	};
	cfg c;
	CHECK(fx_cfg(&c, sets) == 0);
	sim s;
	fx_net_open(&s, &c, net_backend_parse("unaware"));
	/* floor(2 * 1000 + 9765.625) */
	CHECK(s.net->delay(&s.nenv, 0, 4, MIB) == 11765);
	/* 1 and 6 differ in dimension 0 first: 1 hop there, floor(500 + 19531.25) */
	CHECK(s.net->delay(&s.nenv, 1, 6, MIB) == 20031);
	fx_net_close(&s);
	cfg_free(&c);
}

/* Groups evenly around a Ring dimension (net_ring_even): on a Ring of 4
 * by a Switch of 2, {4, 5, 6, 7} and {0, 2}, {1, 3} are; {0, 1}, {0, 1,
 * 2} (3 steps of 1 on a ring of 4) and {0, 5} (one step of 1 in
 * dimension 0: 2 around) are not; on one Ring of 8, {1, 3, 5, 7} and {0,
 * 4} are, {0, 2, 4} and {0, 6} (one step of 6: 12 around) not; on a Ring
 * of 2 by a Ring of 4, {0, 2, 4, 6} is (dimension 1 evenly, dimension 0
 * all 0) and {0, 2, 5, 7} is not (dimension 1 evenly, but 5 and 7 sit at
 * 1 in dimension 0). */
static void test_ring_even(void)
{
	const char *const sets[] = {"topology=Ring,Switch", "npus-count=4,2", "bandwidth=50,100",
	                            "latency=500,1000", NULL};
	cfg c;
	CHECK(fx_cfg(&c, sets) == 0);
	const uint32_t a[] = {4, 5, 6, 7}, b[] = {0, 2}, e[] = {1, 3}, f[] = {0, 1},
	               g[] = {0, 1, 2}, h[] = {0, 5};
	CHECK(net_ring_even(&c, a, 4, 0));
	CHECK(net_ring_even(&c, b, 2, 0) && net_ring_even(&c, e, 2, 0));
	CHECK(!net_ring_even(&c, f, 2, 0) && !net_ring_even(&c, g, 3, 0));
	CHECK(!net_ring_even(&c, h, 2, 0));
	cfg_free(&c);
	cfg r;
	CHECK(fx_cfg(&r, ring8) == 0);
	const uint32_t odd[] = {1, 3, 5, 7}, two[] = {0, 4}, three[] = {0, 2, 4}, far[] = {0, 6};
	CHECK(net_ring_even(&r, odd, 4, 0) && net_ring_even(&r, two, 2, 0));
	CHECK(!net_ring_even(&r, three, 3, 0) && !net_ring_even(&r, far, 2, 0));
	cfg_free(&r);
	const char *const rr[] = {"topology=Ring,Ring", "npus-count=2,4", "bandwidth=50,50",
	                          "latency=500,500", NULL};
	CHECK(fx_cfg(&r, rr) == 0);
	const uint32_t even[] = {0, 2, 4, 6}, mixed[] = {0, 2, 5, 7};
	CHECK(net_ring_even(&r, even, 4, 1) && !net_ring_even(&r, mixed, 4, 1));
	cfg_free(&r);
}

/* Aware: each hop floor(latency + m/B), store and forward; a link serves
 * one chunk at a time and is free floor(m/B) after it starts. */
static void test_aware(void)
{
	cfg c;
	CHECK(fx_cfg(&c, ring8) == 0);
	int a = net_backend_parse("aware");
	CHECK(net_backend_of(a)->delay == NULL);
	CHECK(fx_alone(&c, a, 0, 1, MIB) == 20031);
	/* two hops: 2 * floor(500 + 19531.25) */
	CHECK(fx_alone(&c, a, 0, 2, MIB) == 40062);
	/* two chunks on one link: the second starts when the first has been
	 * serialised (19,531) and arrives 20,031 later */
	sim s;
	fx_net_open(&s, &c, a);
	fx_send(&s, 0, 1, MIB);
	fx_send(&s, 0, 1, MIB);
	CHECK(fx_quiet(&s) == 39562);
	fx_net_close(&s);
	cfg_free(&c);
}

/* A backend needs nothing but its net_env: here a hand-made one, no
 * engine, whose callbacks record what the backend asks for in a small
 * queue (earliest first, then in order of scheduling, as evq). */
typedef struct mini_ev {
	uint64_t t;
	bool own;
	net_done d;
} mini_ev;

typedef struct mini {
	uint64_t now;
	mini_ev q[16];
	int n, fails;
	net_done last;    /* the last completion run */
	uint64_t last_at; /* and when */
	uint64_t fail_dt;
	uint32_t fail_rank, fail_node;
	const char *fail_what;
} mini;

static void mini_push(mini *m, uint64_t t, bool own, net_done d)
{
	CHECK(m->n < 16 && (t >= m->now || m->fails)); /* after a failure t is not used */
	if (m->n < 16)
		m->q[m->n++] = (mini_ev){t, own, d};
}

static void mini_done_at(void *eng, uint64_t t, const net_done *d)
{
	mini_push(eng, t, false, *d);
}

static void mini_own_at(void *eng, uint64_t t, uint32_t rank, uint64_t a, uint64_t b)
{
	mini_push(eng, t, true, (net_done){0, rank, a, b});
}

static void mini_dispatch(void *eng, const net_done *d)
{
	mini *m = eng;
	m->last = *d;
	m->last_at = m->now;
}

static void mini_fail(void *eng, uint64_t dt, uint32_t rank, uint32_t node, const char *what)
{
	mini *m = eng;
	if (!m->fails++) /* the first: a backend may ask again before the engine stops */
		m->fail_dt = dt, m->fail_rank = rank, m->fail_node = node, m->fail_what = what;
}

/* Pops until the queue is empty (the backend's own events to it). */
static void mini_run(mini *m, const net_backend *b, net_env *env)
{
	while (m->n) {
		int k = 0;
		for (int i = 1; i < m->n; i++)
			k = m->q[i].t < m->q[k].t ? i : k;
		mini_ev e = m->q[k];
		memmove(&m->q[k], &m->q[k + 1], (size_t)(m->n - k - 1) * sizeof m->q[0]);
		m->n--;
		m->now = e.t;
		if (e.own)
			b->event(env, e.d.a, e.d.b);
		else
			mini_dispatch(m, &e.d);
	}
}

static void test_env_alone(void)
{
	cfg c;
	CHECK(fx_cfg(&c, ring8) == 0);
	/* 0 -> 3 is 3 hops: unaware floor(1500 + 19531.25), aware 3 * floor(500 + 19531.25) */
	const struct {
		const char *name;
		uint64_t t;
	} want[] = {{"unaware", 21031}, {"aware", 60093}};
	for (int k = 0; k < 2; k++) {
		const net_backend *b = net_backend_of(net_backend_parse(want[k].name));
		mini m = {0};
		net_env env = {.cf = &c,
		               .now = &m.now,
		               .tmax = UINT64_MAX - 1,
		               .eng = &m,
		               .done_at = mini_done_at,
		               .dispatch = mini_dispatch,
		               .own_at = mini_own_at,
		               .after_fail = mini_fail};
		b->init(&env);
		net_done done = {0xfe, 3, 42, 43};
		b->send(&env, 0, 3, MIB, &done, 7, "communication time");
		mini_run(&m, b, &env);
		CHECK(m.fails == 0 && m.last_at == want[k].t);
		CHECK(m.last.type == 0xfe && m.last.rank == 3 && m.last.a == 42 && m.last.b == 43);
		/* a time beyond the env's tmax (not beyond 2^64): the env's failure,
		 * with the sending rank and node, and the step's delay (which itself
		 * fits) */
		env.tmax = 1000000;
		m.now = env.tmax - 100;
		b->send(&env, 1, 2, MIB, &done, 7, "communication time");
		CHECK(m.fails >= 1 && m.fail_dt == 20031 && m.fail_rank == 1 && m.fail_node == 7 &&
		      m.fail_what && strcmp(m.fail_what, "communication time") == 0);
		b->free(&env);
	}
	cfg_free(&c);
}

int main(void)
{
	test_unaware_ring();
	test_unaware_dims();
	test_ring_even();
	test_aware();
	test_env_alone();
	return check_failures();
}
