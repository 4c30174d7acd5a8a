/* sim_gen: synthetic workloads for timing et-sim.
 *
 *   sim_gen RANKS NODES EVERY SIZE COMP_US OUT.etz [VARY]
 *
 * Each rank is a chain: node k depends on node k-1; every EVERY-th node is
 * an ALL_REDUCE of SIZE bytes over all ranks, the others are GPU COMP nodes
 * of COMP_US microseconds. With VARY = 1 rank r's COMP nodes last
 * COMP_US + r % 3 us, so ranks differ (no folding, collectives whose
 * members arrive at different ticks: the event path). Deterministic. */
#include "bench_write.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_stream.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct gen {
	uint32_t ranks, nodes, every, vary;
	uint64_t size, comp_us;
	et_arena *a;
} gen;

static et_node *make(gen *g, uint32_t r, uint32_t k)
{
	et_node *n = et_node_new(g->a);
	n->id = k + 1;
	if (k) {
		uint64_t *d = et_arena_alloc(g->a, sizeof *d);
		d[0] = k;
		n->data_deps = d;
		n->n_data_deps = 1;
	}
	et_attr_set_bool(g->a, n, "is_cpu_op", false);
	if ((k + 1) % g->every == 0) {
		n->name = (char *)"all_reduce";
		n->type = 7;
		et_attr_set_int64(g->a, n, "comm_type", 0);
		et_attr_set_int64(g->a, n, "comm_size", (int64_t)g->size);
		return n;
	}
	n->name = (char *)"comp";
	n->type = 4;
	n->duration_micros = g->comp_us + (g->vary ? r % 3 : 0);
	return n;
}

static et_node *make_any(void *g, uint32_t r, uint32_t k)
{
	return make(g, r, k);
}

int main(int argc, char **argv)
{
	if (argc != 7 && argc != 8) {
		fprintf(stderr, "usage: sim_gen RANKS NODES EVERY SIZE COMP_US OUT.etz [VARY]\n");
		return 2;
	}
	gen g = {(uint32_t)atoi(argv[1]),
	         (uint32_t)atoi(argv[2]),
	         (uint32_t)atoi(argv[3]),
	         argc == 8 ? (uint32_t)atoi(argv[7]) : 0,
	         strtoull(argv[4], NULL, 10),
	         strtoull(argv[5], NULL, 10),
	         et_arena_new()};
	if (!g.ranks || !g.nodes || !g.every) {
		fprintf(stderr, "sim_gen: RANKS, NODES and EVERY must be > 0\n");
		return 2;
	}
	int rc = bench_write_file("sim_gen", argv[6], g.ranks, g.nodes, g.a, make_any, &g);
	et_arena_free(g.a);
	return rc;
}
