/* net_route: the devices of the congestion-aware network and the route a
 * message takes (doc/astra-sim-aware.md). Devices 0..N-1 are the NPUs
 * (ranks); then
 * - on ASTRA-sim's dimensions: one switch per group of every Switch
 *   dimension, numbered N, N+1, ... (dimension 0's groups first, groups in
 *   the order of their lowest rank). Routes are dimension-ordered: for
 *   d = 0, 1, ... where the current device's coordinate differs from the
 *   destination's, that dimension's basic route (Ring: the shorter way, a
 *   tie clockwise, i -> i+1; FullyConnected: direct; Switch: through the
 *   group's switch);
 * - on an InfraGraph graph: its other devices (netgraph.h). Routes are
 *   shortest by hop count; where several next devices are on a shortest
 *   path, they are ordered by device number and the message from src to
 *   dst takes the one at position (src + dst) mod k: flows spread over equal
 *   paths as ECMP hashing spreads them, deterministically.
 * The route is followed hop by hop (next device from where the message is),
 * which gives the route fixed at sending: every rule above depends only on
 * (current device, src, dst). */
#ifndef ET_SIM_NET_NET_ROUTE_H
#define ET_SIM_NET_NET_ROUTE_H
#include "et-sim/config/cfg.h"
#include "et-sim/infragraph/netgraph.h"
#include <stddef.h>
#include <stdint.h>

typedef struct net_route {
	const cfg *cf;
	const netgraph *g; /* NULL: ASTRA-sim's dimensions */
	uint32_t nnpu, ndev;
	uint32_t sw_base[CFG_MAXDIM]; /* dimensions: the first switch of dimension d */
	uint32_t *adj_off, *adj;      /* graph: neighbours of each device, ascending */
	uint32_t **dist;              /* graph: per destination NPU, hops from each device */
} net_route;

/* Devices and neighbour lists of cf's network (cfg_finish done). */
void net_route_init(net_route *r, const cfg *cf);
void net_route_free(net_route *r);
/* The device after `at` on the way from NPU src to NPU dst (at != dst). */
uint32_t net_route_next(net_route *r, uint32_t at, uint32_t src, uint32_t dst);
/* A link of ASTRA-sim's dimensions: its bandwidth (bytes per ns) and
 * latency (ns), those of the dimension the hop from -> to is in. */
void net_route_link(const net_route *r, uint32_t from, uint32_t to, double *bpns, double *lat);
/* A device's name: the rank for an NPU of ASTRA-sim's dimensions,
 * "switch<d>.<g>" for its switches, the dot name on a graph. */
void net_route_name(const net_route *r, uint32_t dev, char *buf, size_t n);
/* Whether every NPU of g reaches every other: 1, or 0 with *a and *b a pair
 * that does not. */
int net_route_connected(const netgraph *g, uint32_t *a, uint32_t *b);

#endif
