/* net_dims: where two ranks meet on the network's dimensions (doc/astra-sim.md
 * A.2): the coordinate of rank r in dimension d (dimension 0 fastest), the
 * first dimension where two ranks differ (-1 when equal), and the hops
 * between them there. Every backend on dimensions, and the logical rings'
 * symmetry test, share them; inline, as they run on every message. */
#ifndef ET_SIM_NET_NET_DIMS_H
#define ET_SIM_NET_NET_DIMS_H
#include "et-sim/config/cfg.h"
#include <stdint.h>

static inline uint32_t net_coord(const cfg *cf, uint32_t r, int d)
{
	return (r / cf->stride[d]) % cf->npus[d];
}

static inline int net_first_dim(const cfg *cf, uint32_t src, uint32_t dst)
{
	for (int d = 0; d < cf->ndims; d++)
		if (net_coord(cf, src, d) != net_coord(cf, dst, d))
			return d;
	return -1;
}

static inline int net_hops(const cfg *cf, uint32_t src, uint32_t dst)
{
	int d = net_first_dim(cf, src, dst);
	if (d < 0)
		return 0;
	if (cf->net.topo[d] == TOPO_FC)
		return 1;
	if (cf->net.topo[d] == TOPO_SWITCH)
		return 2;
	int64_t delta = (int64_t)net_coord(cf, src, d) - (int64_t)net_coord(cf, dst, d);
	if (delta < 0)
		delta = -delta;
	int64_t other = (int64_t)cf->npus[d] - delta;
	return (int)(delta < other ? delta : other);
}

#endif
