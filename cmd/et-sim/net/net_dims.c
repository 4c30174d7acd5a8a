/* net_dims: where two ranks meet on the network's dimensions (doc/astra-sim.md
 * A.2): coordinates with dimension 0 fastest, the first dimension where two
 * ranks differ, and the hops between them there. Every backend on
 * dimensions, and the logical rings' symmetry test, share them. */
#include "et-sim/config/cfg.h"
#include "et-sim/net/net.h"
#include <stdint.h>

uint32_t net_coord(const cfg *cf, uint32_t r, int d)
{
	return (r / cf->stride[d]) % cf->npus[d];
}

int net_first_dim(const cfg *cf, uint32_t src, uint32_t dst)
{
	for (int d = 0; d < cf->ndims; d++)
		if (net_coord(cf, src, d) != net_coord(cf, dst, d))
			return d;
	return -1;
}

int net_hops(const cfg *cf, uint32_t src, uint32_t dst)
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
