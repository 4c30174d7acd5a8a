/* Fuzz target: et-sim's InfraGraph reader (netgraph_load_mem), YAML or
 * JSON as the text itself says (JSON when it starts with '{').
 *
 * Invariants (a violation traps):
 * - a failed load filled its et_error: ET_EXIT_DATA (the text is in
 *   memory, so never ET_EXIT_IO), a non-empty one-line message (no control
 *   character) naming the input ("fuzz: "), and left the graph zeroed;
 * - a graph that loads has 1 <= nnpu <= ndev <= NETGRAPH_MAX_DEV and at most
 *   NETGRAPH_MAX_EDGE edges; every edge joins two different devices below
 *   ndev, no pair twice, by a link below nlink; bandwidths and latencies
 *   are finite and >= 0, and a bandwidth is 0 exactly when its link gives
 *   none; device and link names are non-empty, one line, and unique. */
#include "et-sim/infragraph/netgraph.h"
#include "et_strmap.h"
#include "fuzz_util.h"

#include <math.h>

static void check_line(const char *s)
{
	FUZZ_CHECK(s != NULL);
	for (const char *p = s; *p; p++)
		FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void check_failure(const netgraph *g, const et_error *e)
{
	fuzz_check_error(e);
	FUZZ_CHECK(e->code == ET_EXIT_DATA);
	FUZZ_CHECK(strncmp(e->msg, "fuzz: ", 6) == 0);
	check_line(e->msg);
	FUZZ_CHECK(g->ndev == 0 && g->nedge == 0 && g->nlink == 0 && !g->dev && !g->edge &&
	           !g->link_name && !g->link_nobw && !g->name);
}

/* Non-empty, one line, unique: m counts them. */
static void check_names(char *const *names, uint32_t n)
{
	et_strmap m = {0};
	for (uint32_t i = 0; i < n; i++) {
		check_line(names[i]);
		FUZZ_CHECK(names[i][0] != 0);
		FUZZ_CHECK(et_strmap_intern_str(&m, names[i]) == i);
	}
	et_strmap_free(&m);
}

/* No pair twice: an open-addressing set of (min << 32 | max) + 1 (8 bytes
 * a slot, so that 16,777,216 edges stay within libFuzzer's memory). */
static void check_pairs(const netgraph *g)
{
	uint64_t size = 16;
	int bits = 4;
	while (size < 2 * (uint64_t)g->nedge)
		size *= 2, bits++;
	uint64_t *set = calloc(size, sizeof *set);
	FUZZ_CHECK(set != NULL);
	for (size_t i = 0; i < g->nedge; i++) {
		const ng_edge *x = &g->edge[i];
		uint64_t lo = x->a < x->b ? x->a : x->b, hi = x->a < x->b ? x->b : x->a;
		uint64_t key = (lo << 32 | hi) + 1,
		         k = (key * 0x9E3779B97F4A7C15ull) >> (64 - bits);
		while (set[k] && set[k] != key)
			k = (k + 1) & (size - 1);
		FUZZ_CHECK(set[k] == 0);
		set[k] = key;
	}
	free(set);
}

static void check_edges(const netgraph *g)
{
	for (size_t i = 0; i < g->nedge; i++) {
		const ng_edge *x = &g->edge[i];
		FUZZ_CHECK(x->a < g->ndev && x->b < g->ndev && x->a != x->b);
		FUZZ_CHECK(x->link < g->nlink);
		FUZZ_CHECK(isfinite(x->bpns) && x->bpns >= 0);
		FUZZ_CHECK(isfinite(x->lat_ns) && x->lat_ns >= 0);
		FUZZ_CHECK((x->bpns == 0) == g->link_nobw[x->link]);
	}
	check_pairs(g);
}

static void check_graph(const netgraph *g)
{
	FUZZ_CHECK(g->nnpu >= 1 && g->nnpu <= g->ndev && g->ndev <= NETGRAPH_MAX_DEV);
	FUZZ_CHECK(g->nedge <= NETGRAPH_MAX_EDGE);
	check_line(g->name);
	check_names(g->dev, g->ndev);
	check_names(g->link_name, g->nlink);
	check_edges(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	netgraph g;
	et_error e;
	memset(&e, 'X', sizeof e); /* a failure that fills nothing is caught */
	if (netgraph_load_mem(&g, "fuzz", (const char *)data, size, &e) < 0) {
		check_failure(&g, &e);
		return 0;
	}
	check_graph(&g);
	if (null && g.ndev + g.nedge <= 4096) /* printing millions of lines finds nothing */
		netgraph_dump(&g, null);
	netgraph_free(&g);
	return 0;
}
