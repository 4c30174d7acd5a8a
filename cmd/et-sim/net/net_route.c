/* net_route: devices and routes of the congestion-aware network
 * (net_route.h). */
#include "et-sim/net/net_route.h"
#include "et-sim/net/net.h"
#include "et-sim/net/net_dims.h"
#include "et_mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- ASTRA-sim's dimensions ---------------------------------------------- */

/* The index of rank r's group in dimension d, groups ordered by their
 * lowest rank. */
static uint32_t group_of(const cfg *cf, uint32_t r, int d)
{
	uint32_t st = cf->stride[d];
	return r % st + r / (st * cf->npus[d]) * st;
}

/* The lowest rank of group g of dimension d. */
static uint32_t group_base(const cfg *cf, uint32_t g, int d)
{
	uint32_t st = cf->stride[d];
	return g % st + g / st * st * cf->npus[d];
}

/* The dimension of switch device sw. */
static int switch_dim(const net_route *r, uint32_t sw)
{
	const cfg *cf = r->cf;
	for (int d = cf->ndims - 1; d >= 0; d--)
		if (cf->net.topo[d] == TOPO_SWITCH && sw >= r->sw_base[d])
			return d;
	return 0; /* not reached: sw is a switch */
}

static void dims_init(net_route *r)
{
	const cfg *cf = r->cf;
	uint32_t next = r->nnpu;
	for (int d = 0; d < cf->ndims; d++)
		if (cf->net.topo[d] == TOPO_SWITCH) {
			r->sw_base[d] = next;
			next += r->nnpu / cf->npus[d];
		}
	r->ndev = next;
}

static uint32_t dims_next(const net_route *r, uint32_t at, uint32_t dst)
{
	const cfg *cf = r->cf;
	if (at >= r->nnpu) { /* a switch: down to dst's coordinate in its group */
		int d = switch_dim(r, at);
		uint32_t base = group_base(cf, at - r->sw_base[d], d);
		return base + net_coord(cf, dst, d) * cf->stride[d];
	}
	for (int d = 0; d < cf->ndims; d++) {
		uint32_t ca = net_coord(cf, at, d), cd = net_coord(cf, dst, d), n = cf->npus[d];
		if (ca == cd)
			continue;
		uint32_t home = at - ca * cf->stride[d];
		if (cf->net.topo[d] == TOPO_FC)
			return home + cd * cf->stride[d];
		if (cf->net.topo[d] == TOPO_SWITCH)
			return r->sw_base[d] + group_of(cf, at, d);
		uint32_t fwd = (cd + n - ca) % n; /* clockwise distance; a tie goes clockwise */
		uint32_t nc = fwd <= n - fwd ? (ca + 1) % n : (ca + n - 1) % n;
		return home + nc * cf->stride[d];
	}
	return dst; /* not reached: at != dst */
}

void net_route_link(const net_route *r, uint32_t from, uint32_t to, double *bpns, double *lat)
{
	const cfg *cf = r->cf;
	int d = from >= r->nnpu ? switch_dim(r, from)
	        : to >= r->nnpu ? switch_dim(r, to)
	                        : net_first_dim(cf, from, to);
	*bpns = cf->net.bpns[d];
	*lat = cf->net.lat[d];
}

/* --- a graph ------------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Neighbour lists, ascending, without repeats (parallel edges are one
 * neighbour: the link of the first edge carries the traffic). */
static void adjacency(const netgraph *g, uint32_t **off_out, uint32_t **adj_out)
{
	uint32_t *deg = et_xcalloc((size_t)g->ndev + 1, sizeof *deg);
	for (size_t k = 0; k < g->nedge; k++)
		deg[g->edge[k].a]++, deg[g->edge[k].b]++;
	uint32_t *off = et_xcalloc((size_t)g->ndev + 1, sizeof *off);
	for (uint32_t v = 0; v < g->ndev; v++)
		off[v + 1] = off[v] + deg[v];
	uint32_t *adj = et_xcalloc((size_t)off[g->ndev] + 1, sizeof *adj);
	memset(deg, 0, (size_t)g->ndev * sizeof *deg);
	for (size_t k = 0; k < g->nedge; k++) {
		uint32_t a = g->edge[k].a, b = g->edge[k].b;
		adj[off[a] + deg[a]++] = b;
		adj[off[b] + deg[b]++] = a;
	}
	uint32_t w = 0;
	for (uint32_t v = 0; v < g->ndev; v++) { /* sort, drop repeats, compact */
		uint32_t lo = off[v], hi = off[v + 1];
		qsort(adj + lo, hi - lo, sizeof *adj, cmp_u32);
		off[v] = w;
		for (uint32_t i = lo; i < hi; i++)
			if (i == lo || adj[i] != adj[i - 1])
				adj[w++] = adj[i];
	}
	off[g->ndev] = w;
	free(deg);
	*off_out = off;
	*adj_out = adj;
}

/* Hops from every device to `from` (UINT32_MAX: unreachable). */
static uint32_t *bfs(const uint32_t *off, const uint32_t *adj, uint32_t ndev, uint32_t from)
{
	uint32_t *dist = et_xmalloc((size_t)ndev * sizeof *dist);
	uint32_t *queue = et_xmalloc((size_t)ndev * sizeof *queue);
	memset(dist, 0xff, (size_t)ndev * sizeof *dist);
	uint32_t qh = 0, qt = 0;
	dist[from] = 0;
	queue[qt++] = from;
	while (qh < qt) {
		uint32_t v = queue[qh++];
		for (uint32_t i = off[v]; i < off[v + 1]; i++)
			if (dist[adj[i]] == UINT32_MAX) {
				dist[adj[i]] = dist[v] + 1;
				queue[qt++] = adj[i];
			}
	}
	free(queue);
	return dist;
}

static uint32_t graph_next(net_route *r, uint32_t at, uint32_t src, uint32_t dst)
{
	if (!r->dist[dst])
		r->dist[dst] = bfs(r->adj_off, r->adj, r->ndev, dst);
	const uint32_t *dd = r->dist[dst];
	uint32_t k = 0;
	for (uint32_t i = r->adj_off[at]; i < r->adj_off[at + 1]; i++)
		k += dd[r->adj[i]] + 1 == dd[at];
	uint32_t pick = (uint32_t)(((uint64_t)src + dst) % (k ? k : 1));
	for (uint32_t i = r->adj_off[at]; i < r->adj_off[at + 1]; i++)
		if (dd[r->adj[i]] + 1 == dd[at] && pick-- == 0)
			return r->adj[i];
	return dst; /* not reached: the graph is connected (net_route_connected) */
}

int net_route_connected(const netgraph *g, uint32_t *a, uint32_t *b)
{
	uint32_t *off, *adj;
	adjacency(g, &off, &adj);
	uint32_t *dist = bfs(off, adj, g->ndev, 0);
	int ok = 1;
	for (uint32_t v = 1; v < g->nnpu && ok; v++)
		if (dist[v] == UINT32_MAX) {
			*a = 0, *b = v;
			ok = 0;
		}
	free(dist);
	free(off);
	free(adj);
	return ok;
}

/* --- both ---------------------------------------------------------------- */

void net_route_init(net_route *r, const cfg *cf)
{
	memset(r, 0, sizeof *r);
	r->cf = cf;
	r->g = cf->net.graph;
	r->nnpu = cf->total;
	if (!r->g) {
		dims_init(r);
		return;
	}
	r->ndev = r->g->ndev;
	adjacency(r->g, &r->adj_off, &r->adj);
	r->dist = et_xcalloc(r->nnpu, sizeof *r->dist);
}

void net_route_free(net_route *r)
{
	for (uint32_t i = 0; r->dist && i < r->nnpu; i++)
		free(r->dist[i]);
	free(r->dist);
	free(r->adj_off);
	free(r->adj);
	memset(r, 0, sizeof *r);
}

uint32_t net_route_next(net_route *r, uint32_t at, uint32_t src, uint32_t dst)
{
	return r->g ? graph_next(r, at, src, dst) : dims_next(r, at, dst);
}

void net_route_name(const net_route *r, uint32_t dev, char *buf, size_t n)
{
	if (r->g) {
		snprintf(buf, n, "%s", r->g->dev[dev]);
	} else if (dev < r->nnpu) {
		snprintf(buf, n, "%u", dev);
	} else {
		int d = switch_dim(r, dev);
		snprintf(buf, n, "switch%d.%u", d, dev - r->sw_base[d]);
	}
}
