/* Every row of et-sim's two tables, whatever it is: each collective
 * algorithm (system/algo/algo_table.c) and each network backend
 * (net/net.c). A new row is tested here without a line added: an
 * algorithm must move the textbook number of bytes through the engine, a
 * backend must say by capability what it does and be monotonic in bytes. */
#include "et-sim/system/algo/algo.h"
#include "et-sim/workload/load.h"
#include "et-sim/workload/workload.h"
#include "sim_fixture.h"
#include "tmpdir.h"
#include <ctype.h>

enum { SIZE = 1048576 };

/* What every message of a run weighed: the unaware backend, counted. */
static net_backend counting;
static uint64_t sent_bytes, sent_msgs;

static void count_send(net_env *env, uint32_t src, uint32_t dst, uint64_t bytes,
                       const net_done *done, uint32_t node, const char *what)
{
	sent_bytes += bytes;
	sent_msgs++;
	net_backend_of(NET_DEFAULT)->send(env, src, dst, bytes, done, node, what);
}

/* n ranks, one collective of Chakra type ct and SIZE bytes each. */
static const char *write_coll(uint32_t n, int ct)
{
	const char *path = tmpdir_path("coll.jsonl");
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	for (uint32_t r = 0; f && r < n; r++)
		fprintf(
		    f,
		    "{\"rank\":%u,\"world_size\":%u,\"name\":\"t\",\"metadata\":{\"version\":"
		    "\"0.0.4\"}}\n{\"rank\":%u,\"id\":1,\"name\":\"c\",\"type\":\"COMM_COLL_NODE\","
		    "\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_type\","
		    "\"int64Val\":%d},{\"name\":\"comm_size\",\"int64Val\":%d}]}\n",
		    r, n, r, ct, SIZE);
	if (f)
		fclose(f);
	return path;
}

static const struct {
	int ct, chakra;
	const char *key;
} kinds[] = {
    {CT_AR, 0, "all-reduce-implementation"},
    {CT_AG, 2, "all-gather-implementation"},
    {CT_A2A, 6, "all-to-all-implementation"},
    {CT_RS, 7, "reduce-scatter-implementation"},
};

/* Runs the collective message by message; the bytes sent by all ranks,
 * or UINT64_MAX when the run did not end with every rank finished. */
static uint64_t run_coll(const char *impl, uint32_t n, int k)
{
	char np[32], im[128];
	snprintf(np, sizeof np, "npus-count=%u", n);
	snprintf(im, sizeof im, "%s=%s", kinds[k].key, impl);
	const char *const sets[] = {"topology=Ring",
	                            np,
	                            "bandwidth=50",
	                            "latency=500",
	                            "local-mem-bw=1600",
	                            "preferred-dataset-splits=1",
	                            im,
	                            NULL};
	cfg c;
	CHECK(fx_cfg(&c, sets) == 0);
	workload w;
	sim_opts op = {.closed_form = false, .progress = -1};
	sim s;
	CHECK(fx_sim_open(&s, &c, &op, &w, write_coll(n, kinds[k].chakra)) == 0);
	counting = *net_backend_of(NET_DEFAULT);
	counting.send = count_send;
	s.net = &counting;
	sent_bytes = sent_msgs = 0;
	et_error e = {0};
	bool ok = sim_run(&s, &e) == SIM_DONE;
	for (uint32_t r = 0; r < n; r++)
		ok = ok && s.r[r].finished;
	sim_free(&s);
	workload_free(&w);
	cfg_free(&c);
	return ok ? sent_bytes : UINT64_MAX;
}

/* The bytes all n ranks send, from the collective's definition: an
 * all-reduce moves 2(n-1)/n of the data per rank, a reduce-scatter
 * (n-1)/n, an all-gather n-1 shares (SIZE is one rank's share); an
 * all-to-all at least the n-1 shares that leave each rank. A row that
 * keeps the size (ALGO_CAP_TREE) all-reduces whatever the type: a
 * tree sends the whole input up and down its n-1 edges, 2(n-1) SIZE. */
static void check_bytes(const algo_row *row, uint32_t n, int k, uint64_t got)
{
	const char *name = row->name;
	bool ar = kinds[k].ct == CT_AR || (row->caps & ALGO_CAP_TREE);
	uint64_t m = n, want = ar                     ? 2 * (m - 1) * SIZE
	                       : kinds[k].ct == CT_AG ? m * (m - 1) * SIZE
	                                              : (m - 1) * SIZE;
	bool ok = kinds[k].ct == CT_A2A ? got >= want && got != UINT64_MAX : got == want;
	if (!ok)
		fprintf(stderr, "%s on %u ranks, %s: %llu bytes sent, want %llu\n", name, n,
		        kinds[k].key, (unsigned long long)got, (unsigned long long)want);
	CHECK(ok);
}

static void test_algo_row(unsigned i)
{
	const algo_row *row = algo_row_of(i);
	CHECK(row->name && row->name[0] && strcmp(algo_name(i), row->name) == 0);
	uint8_t impl = 0xff;
	bool one = true;
	int w;
	CHECK(algo_parse(row->name, &impl, &one, &w) == 0 && impl == i && !one && w == -1);
	char on[64];
	snprintf(on, sizeof on, "one%c%s", toupper((unsigned char)row->name[0]), row->name + 1);
	bool has_one = algo_parse(on, &impl, &one, &w) == 0 && impl == i && one;
	CHECK(has_one == !!(row->caps & ALGO_CAP_ONE));
	if (!row->types) /* named by the configuration, not simulated */
		return;
	CHECK(row->start && row->receive && row->event);
	CHECK(row->start != algo_pm_start || (row->setup && row->nonzero));
	for (uint32_t n = 4; n <= 8; n *= 2)
		for (int k = 0; k < 4; k++)
			if (row->types & ALGO_TYPE(kinds[k].ct))
				check_bytes(row, n, k, run_coll(row->name, n, k));
}

static void test_backend_row(int i, const cfg *ring8)
{
	const net_backend *b = net_backend_of(i);
	CHECK(b->name && b->name[0] && b->help && b->help[0]);
	CHECK(net_backend_parse(b->name) == i && net_backend_names()[i] == b->name);
	CHECK(b->init && b->send && b->event && b->free);
	/* capabilities say what the interface offers */
	CHECK(!(b->caps & NET_CAP_CLOSED_FORM) == !b->delay);
	CHECK(!(b->caps & NET_CAP_LINKS) == !b->link_stats);
	CHECK(!(b->caps & NET_CAP_FOLD) || (b->caps & NET_CAP_CLOSED_FORM));
	const uint64_t sizes[] = {0, 1, 4096, SIZE, 16 * (uint64_t)SIZE};
	for (uint32_t dst = 1; dst <= 4; dst += 3) {
		uint64_t last = 0;
		for (int k = 0; k < 5; k++) {
			uint64_t t = fx_alone(ring8, i, 0, dst, sizes[k]);
			CHECK(t >= last);
			last = t;
			if (b->delay) {
				sim s;
				fx_net_open(&s, ring8, i);
				CHECK(b->delay(&s.nenv, 0, dst, sizes[k]) == t);
				fx_net_close(&s);
			}
		}
		CHECK(last > fx_alone(ring8, i, 0, dst, 0));
	}
}

int main(void)
{
	if (!tmpdir_open("test_sim_tables"))
		return 1;
	for (unsigned i = 0; i < algo_count(); i++)
		test_algo_row(i);
	CHECK(algo_count() >= 3 && strcmp(algo_name(ALGO_DEFAULT), "ring") == 0);
	const char *const sets[] = {"topology=Ring",
	                            "npus-count=8",
	                            "bandwidth=50",
	                            "latency=500",
	                            "local-mem-bw=1600",
	                            "preferred-dataset-splits=1",
	                            NULL};
	cfg c;
	CHECK(fx_cfg(&c, sets) == 0);
	CHECK(net_backend_count() >= 2 && net_backend_names()[net_backend_count()] == NULL);
	for (int i = 0; i < net_backend_count(); i++)
		test_backend_row(i, &c);
	cfg_free(&c);
	tmpdir_clear();
	tmpdir_close();
	return check_failures();
}
