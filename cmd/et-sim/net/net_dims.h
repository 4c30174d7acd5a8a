/* net_dims: where two ranks meet on the network's dimensions (doc/astra-sim.md
 * A.2): the coordinate of rank r in dimension d (dimension 0 fastest), the
 * first dimension where two ranks differ (-1 when equal), and the hops
 * between them there. Every backend on dimensions, and the logical rings'
 * symmetry test, share them; inline, as they run on every message. */
#ifndef ET_SIM_NET_NET_DIMS_H
#define ET_SIM_NET_NET_DIMS_H
#include "et-sim/config/cfg.h"
#include <stdbool.h>
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

/* Whether the n >= 2 ranks mem, first differing in Ring dimension d
 * (agreeing below it), sit evenly around it: one step s apart in the
 * order given, with n s = the ring's size. Then the rank k places after
 * any one is k s steps away from it, whichever it is, so every member of
 * such a group sees the same hops to the members after it. */
static inline bool net_ring_even(const cfg *cf, const uint32_t *mem, uint32_t n, int d)
{
	uint32_t size = cf->npus[d], c0 = net_coord(cf, mem[0], d);
	uint32_t step = (net_coord(cf, mem[1], d) + size - c0) % size;
	if ((uint64_t)step * n != size)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		for (int k = 0; k < d; k++)
			if (net_coord(cf, mem[i], k) != net_coord(cf, mem[0], k))
				return false;
		if (net_coord(cf, mem[i], d) != (uint32_t)((c0 + (uint64_t)i * step) % size))
			return false;
	}
	return true;
}

#endif
