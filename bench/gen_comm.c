/* gen_comm: a multi-rank stream with communication, for timing et-validate's
 * cross-rank and deadlock checks (e.g. 1,024 ranks x 10,000 nodes).
 *
 * Each rank is a chain of COMP nodes (each with data deps on the one or two
 * before it); every --coll-every-th node is an ALL_REDUCE on all ranks and
 * every --p2p-every-th position a ring exchange: a SEND to rank r+1 then a
 * RECV from rank r-1 (both depending on the previous node), which is
 * deadlock-free. With DROP_RANK, that rank issues no collectives (they become
 * COMP nodes), so every other rank blocks at its first ALL_REDUCE: a
 * deadlock for et-validate to find. Deterministic: same arguments, same
 * bytes. */
#include "bench_write.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gen {
	uint32_t ranks, nodes, coll_every, p2p_every;
	int64_t drop_rank; /* this rank's collectives become COMP nodes (-1: none) */
	et_arena *a;
} gen;

static et_node *node(gen *g, uint64_t id, int type, const char *name, uint64_t dep1, uint64_t dep2)
{
	et_node *n = et_node_new(g->a);
	n->id = id;
	n->name = (char *)name;
	n->type = type;
	uint64_t *d = et_arena_alloc(g->a, 2 * sizeof *d);
	size_t k = 0;
	if (dep1)
		d[k++] = dep1;
	if (dep2 && dep2 != dep1)
		d[k++] = dep2;
	n->data_deps = d;
	n->n_data_deps = k;
	et_attr_set_bool(g->a, n, "is_cpu_op", false);
	return n;
}

static void p2p_attrs(gen *g, et_node *n, uint32_t src, uint32_t dst, int32_t tag)
{
	et_attr_set_int32(g->a, n, "comm_src", (int32_t)src);
	et_attr_set_int32(g->a, n, "comm_dst", (int32_t)dst);
	et_attr_set_int32(g->a, n, "comm_tag", tag);
	et_attr_set_int64(g->a, n, "comm_size", 65536);
}

/* Node k of rank r (ids 1..nodes); returns the node to encode. */
static et_node *make(gen *g, uint32_t r, uint32_t k)
{
	uint64_t id = k + 1, prev = k ? k : 0, prev2 = k > 1 ? k - 1 : 0;
	if (k && k % g->coll_every == 0 && (int64_t)r != g->drop_rank) {
		et_node *n = node(g, id, 7, "all_reduce", prev, 0);
		et_attr_set_int64(g->a, n, "comm_type", 0);
		et_attr_set_int64(g->a, n, "comm_size", 1048576 + (int64_t)(k % 7) * 4096);
		return n;
	}
	if (g->p2p_every && k > 1 && k % g->p2p_every == 0 && k + 1 < g->nodes &&
	    (k + 1) % g->coll_every != 0) {
		et_node *n = node(g, id, 5, "send_next", prev, 0);
		p2p_attrs(g, n, r, (r + 1) % g->ranks, (int32_t)k);
		return n;
	}
	if (g->p2p_every && k > 2 && k % g->p2p_every == 1 && (k - 1) % g->coll_every != 0) {
		et_node *n = node(g, id, 6, "recv_prev", prev2, 0);
		p2p_attrs(g, n, (r + g->ranks - 1) % g->ranks, r, (int32_t)(k - 1));
		return n;
	}
	et_node *n = node(g, id, 4, "comp", prev, prev2);
	n->duration_micros = 1 + k % 13;
	return n;
}

static et_node *make_any(void *g, uint32_t r, uint32_t k)
{
	return make(g, r, k);
}

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7) {
		fprintf(stderr,
		        "usage: gen_comm RANKS NODES COLL_EVERY P2P_EVERY OUT.etz [DROP_RANK]\n");
		return 2;
	}
	gen g = {0};
	g.ranks = (uint32_t)atoi(argv[1]);
	g.nodes = (uint32_t)atoi(argv[2]);
	g.coll_every = (uint32_t)atoi(argv[3]);
	g.p2p_every = (uint32_t)atoi(argv[4]);
	g.drop_rank = argc == 7 ? atoll(argv[6]) : -1;
	g.a = et_arena_new();
	if (!g.ranks || !g.nodes || !g.coll_every) {
		fprintf(stderr, "gen_comm: RANKS, NODES and COLL_EVERY must be > 0\n");
		return 2;
	}
	int rc = bench_write_file("gen_comm", argv[5], g.ranks, g.nodes, g.a, make_any, &g);
	et_arena_free(g.a);
	return rc;
}
