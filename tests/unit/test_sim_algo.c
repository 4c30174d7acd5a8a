/* et-sim's collective algorithms (system/algo/) on hand-computed phases:
 * the messages one rank queues (peer and bytes, step by step) written from
 * each algorithm's definition (doc/astra-sim.md D.14-D.16), and the closed
 * forms on spec E's network (Ring, 50 GB/s, 500 ns, local-mem-bw 1600,
 * endpoint 10): T(m) = floor(h*500 + m/53.6870912), p(m) = 3*floor(m/1600). */
#include "et-sim/system/algo/algo.h"
#include "et-sim/workload/load.h"
#include "et-sim/workload/workload.h"
#include "sim_fixture.h"
#include "tmpdir.h"
#include <stdlib.h>

enum { S = 262144, MAXSTEP = 64 }; /* spec E's chunk: 1 MiB in 4 splits */

/* The logical ring 0..n-1. */
static ring make_ring(uint32_t n, uint32_t *ranks)
{
	for (uint32_t i = 0; i < n; i++)
		ranks[i] = i;
	return (ring){.n = n, .rank = ranks, .symmetric = true};
}

static const algo_row *row_named(const char *name)
{
	uint8_t impl;
	bool one;
	int w;
	CHECK(algo_parse(name, &impl, &one, &w) == 0);
	return algo_row_of(impl);
}

/* The messages rank idx queues in phase (type, size), in order: what the
 * packet machine does on each insert (peer and size, then next_peers),
 * stream_count times. Returns the count. */
static int steps(const algo_row *row, uint32_t n, uint32_t idx, int type, uint64_t size, int window,
                 uint32_t *peer, uint64_t *bytes)
{
	uint32_t ranks[64];
	ring rg = make_ring(n, ranks);
	algo a = {.type = (uint8_t)type, .row = row, .rg = &rg, .n = n, .idx = idx};
	phase_plan p = {.type = (uint8_t)type, .window = window, .size = size};
	a.parallel_reduce = 1;
	row->setup(&a, &p);
	int k;
	for (k = 0; k < a.stream_count && k < MAXSTEP; k++) {
		peer[k] = rg.rank[a.recv_idx];
		bytes[k] = a.msg_size;
		if (row->next_peers)
			row->next_peers(&a);
	}
	return k;
}

static void expect(const algo_row *row, uint32_t n, uint32_t idx, int type, uint64_t size,
                   int nwant, const uint32_t *want_peer, const uint64_t *want_bytes)
{
	uint32_t peer[MAXSTEP];
	uint64_t bytes[MAXSTEP];
	int k = steps(row, n, idx, type, size, -1, peer, bytes);
	CHECK(k == nwant);
	for (int i = 0; i < k && i < nwant; i++) {
		if (peer[i] != want_peer[i] || bytes[i] != want_bytes[i])
			fprintf(stderr, "%s n=%u idx=%u type=%d step %d: peer %u bytes %llu\n",
			        row->name, n, idx, type, i, peer[i], (unsigned long long)bytes[i]);
		CHECK(peer[i] == want_peer[i] && bytes[i] == want_bytes[i]);
	}
}

/* Ring: every message to the next rank, S/n each (the all-gather's input
 * S is one rank's share, sent whole); all-reduce 2(n-1) steps, RS and AG
 * n-1, all-to-all n(n-1)/2 (relayed round the ring). */
static void test_ring_steps(void)
{
	const algo_row *r = row_named("ring");
	uint32_t nx[6] = {2, 2, 2, 2, 2, 2};
	uint64_t q[6] = {S / 4, S / 4, S / 4, S / 4, S / 4, S / 4};
	expect(r, 4, 1, CT_AR, S, 6, nx, q);
	expect(r, 4, 1, CT_RS, S, 3, nx, q);
	expect(r, 4, 1, CT_A2A, S, 6, nx, q);
	uint64_t whole[3] = {S, S, S};
	expect(r, 4, 1, CT_AG, S, 3, nx, whole);
	uint32_t wrap[3] = {0, 0, 0};
	expect(r, 4, 3, CT_RS, S, 3, wrap, q);
}

/* Direct: S/n to each other rank in turn (1, 2, 3 from rank 0), all n-1
 * in flight (parallel_reduce n-1, or the window); all-reduce twice round. */
static void test_direct_steps(void)
{
	const algo_row *r = row_named("direct");
	uint32_t peers0[6] = {1, 2, 3, 1, 2, 3}, peers2[3] = {3, 0, 1};
	uint64_t q[6] = {S / 4, S / 4, S / 4, S / 4, S / 4, S / 4};
	expect(r, 4, 0, CT_AR, S, 6, peers0, q);
	expect(r, 4, 0, CT_A2A, S, 3, peers0, q);
	expect(r, 4, 2, CT_RS, S, 3, peers2, q);
	uint32_t ranks[4];
	ring rg = make_ring(4, ranks);
	algo a = {.type = CT_AR, .row = r, .rg = &rg, .n = 4, .parallel_reduce = 1};
	phase_plan p = {.type = CT_AR, .window = -1, .size = S};
	r->setup(&a, &p);
	CHECK(a.parallel_reduce == 3);
	p.window = 2;
	r->setup(&a, &p);
	CHECK(a.parallel_reduce == 2);
}

/* HalvingDoubling on 8 = 2^3: reduce-scatter with partners at distance
 * 1, 2, 4 (towards my block: rank 3's are 2, 1, 7), S/2, S/4, S/8; the
 * all-reduce then mirrors it; all-gather from distance 4 down, S, 2S, 4S. */
static void test_hd_steps(void)
{
	const algo_row *r = row_named("halvingDoubling");
	uint32_t p0[6] = {1, 2, 4, 4, 2, 1}, p3[6] = {2, 1, 7, 7, 1, 2};
	uint64_t ar[6] = {S / 2, S / 4, S / 8, S / 8, S / 4, S / 2};
	expect(r, 8, 0, CT_AR, S, 6, p0, ar);
	expect(r, 8, 3, CT_AR, S, 6, p3, ar);
	expect(r, 8, 3, CT_RS, S, 3, p3, ar);
	uint32_t g0[3] = {4, 2, 1}, g5[3] = {1, 7, 4};
	uint64_t ag[3] = {S, 2 * (uint64_t)S, 4 * (uint64_t)S};
	expect(r, 8, 0, CT_AG, S, 3, g0, ag);
	expect(r, 8, 5, CT_AG, S, 3, g5, ag);
	CHECK(r->caps & ALGO_CAP_POW2);
	CHECK(!(r->types & ALGO_TYPE(CT_A2A)));
}

/* Closed forms on n ranks of spec E's ring, phase input S, d = 10. */
static uint64_t closed(const char *name, uint32_t n, int type, uint64_t size, bool *ok)
{
	const char *const sets[] = {"topology=Ring",
	                            n == 4 ? "npus-count=4" : "npus-count=8",
	                            "bandwidth=50",
	                            "latency=500",
	                            "local-mem-bw=1600",
	                            "preferred-dataset-splits=4",
	                            NULL};
	cfg c;
	CHECK(fx_cfg(&c, sets) == 0);
	sim s;
	fx_net_open(&s, &c, net_backend_parse("unaware"));
	uint32_t ranks[8];
	ring rg = make_ring(n, ranks);
	const algo_row *row = row_named(name);
	phase_plan p = {.type = (uint8_t)type, .window = -1, .size = size};
	algo a = {.type = (uint8_t)type, .row = row, .rg = &rg, .n = n, .parallel_reduce = 1};
	row->setup(&a, &p);
	uint64_t t = row->closed(&s, &p, &rg, 0, 10);
	*ok = !row->closed_ok || row->closed_ok(&s, &p, &a);
	fx_net_close(&s);
	cfg_free(&c);
	return t;
}

static void test_closed_forms(void)
{
	bool ok;
	/* spec E's check: 15*10 + 14*1110 + 7*60 (x 4 chunks = 64,440) */
	CHECK(closed("ring", 8, CT_AR, S, &ok) == 16110 && ok);
	/* RS on 4: m = 65536, T = floor(500 + 1220.703125) = 1720, p = 120:
	 * 4*10 + 3*(1720 + 120) (x 4 chunks = spec E's 22,240) */
	CHECK(closed("ring", 4, CT_RS, S, &ok) == 5560);
	/* Direct RS on a ring of 4: the slowest peer is 2 hops away,
	 * T = floor(1000 + 1220.703125) = 2220: 2*10 + 2220 + 120 */
	CHECK(closed("direct", 4, CT_RS, S, &ok) == 2360 && ok);
	/* AR: 3*10 + 2*2220 + 120, but peers are not equally slow: not exact */
	CHECK(closed("direct", 4, CT_AR, S, &ok) == 4590 && !ok);
	/* HD AR on 8: d, then steps d + T at distance 1, 2, 4 with S/2, S/4,
	 * S/8 (2951, 2230, 2620), p(S/4) + p(S/8) = 120 + 60, then the same
	 * steps mirrored: 10 + 7801 + 180 + 7801 */
	CHECK(closed("halvingDoubling", 8, CT_AR, S, &ok) == 15792 && ok);
}

/* doubleBinaryTree, doc/astra-sim.md D's worked example: 8 ranks on spec
 * E's ring, one 1 MiB all-reduce in one chunk, tree MAX (7 -> 3; 3 -> 1, 5;
 * 1 -> 0, 2; 5 -> 4, 6). T = 20031, 20531, 21531 for 1, 2, 4 hops, p =
 * 1965: leaves send at 10; 1 and 5 reduce both children by 22016; 3 by
 * 44522; the top 7 gets it at 66053 and sends back at 68028; 3 at 91534;
 * 1 and 5 at 114040; the leaves get it at 134071 and end at 134081. */
static void test_dbt_run(void)
{
	const char *path = tmpdir_path("dbt.jsonl");
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	for (uint32_t r = 0; f && r < 8; r++)
		fprintf(
		    f,
		    "{\"rank\":%u,\"world_size\":8,\"name\":\"t\",\"metadata\":{\"version\":"
		    "\"0.0.4\"}}\n{\"rank\":%u,\"id\":1,\"name\":\"c\",\"type\":\"COMM_COLL_NODE\","
		    "\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_type\","
		    "\"int64Val\":0},{\"name\":\"comm_size\",\"int64Val\":1048576}]}\n",
		    r, r);
	if (f)
		fclose(f);
	const char *const sets[] = {"topology=Ring",
	                            "npus-count=8",
	                            "bandwidth=50",
	                            "latency=500",
	                            "local-mem-bw=1600",
	                            "preferred-dataset-splits=1",
	                            "all-reduce-implementation=doubleBinaryTree",
	                            NULL};
	cfg c;
	CHECK(fx_cfg(&c, sets) == 0);
	workload w;
	sim_opts op = {.closed_form = false, .progress = -1};
	sim s;
	CHECK(fx_sim_open(&s, &c, &op, &w, path) == 0);
	et_error e = {0};
	CHECK(sim_run(&s, &e) == SIM_DONE);
	const uint64_t want[8] = {134081, 114040, 134081, 91534, 134081, 114040, 134081, 68028};
	for (uint32_t r = 0; r < 8; r++) {
		if (!s.r[r].finished || s.r[r].finish != want[r])
			fprintf(stderr, "doubleBinaryTree rank %u: %llu, want %llu\n", r,
			        (unsigned long long)s.r[r].finish, (unsigned long long)want[r]);
		CHECK(s.r[r].finished && s.r[r].finish == want[r]);
	}
	sim_free(&s);
	workload_free(&w);
	cfg_free(&c);
	const algo_row *row = row_named("doubleBinaryTree");
	CHECK((row->caps & ALGO_CAP_POW2) && (row->caps & ALGO_CAP_TREE) && !row->closed);
	CHECK(!(row->types & ALGO_TYPE(CT_A2A)));
}

int main(void)
{
	test_ring_steps();
	test_direct_steps();
	test_hd_steps();
	test_closed_forms();
	test_dbt_run();
	return check_failures();
}
