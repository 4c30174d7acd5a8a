/* et-sim's network backends on hand-computed delays (doc/astra-sim.md A.1-A.2,
 * doc/astra-sim-aware.md): B = GB/s * 2^30 / 1e9 bytes per ns, so 50 GB/s
 * is 53.6870912 B/ns and 1 MiB takes 19,531.25 ns to serialise. */
#include "et-sim/engine/sim.h" /* links libet-sim.a (the Makefile looks here) */
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

int main(void)
{
	test_unaware_ring();
	test_unaware_dims();
	test_aware();
	return check_failures();
}
