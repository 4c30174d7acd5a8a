/* net_unaware: ASTRA-sim's congestion-unaware network (doc/astra-sim.md
 * A.1-A.3): a message takes floor(hops·latency + bytes/bandwidth) in the
 * first dimension where its ends differ, whatever else is in flight. */
#include "et-sim/engine/sim.h"
#include "et-sim/net/net.h"
#include "et_sat.h"
#include <math.h>

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

uint64_t net_delay(sim *s, uint32_t src, uint32_t dst, uint64_t bytes)
{
	const cfg *cf = s->cf;
	int d = net_first_dim(cf, src, dst);
	if (d < 0)
		return 0;
	if (et_sat_is(bytes))
		return UINT64_MAX;
	double link = net_hops(cf, src, dst) * cf->net.lat[d];
	double ser = (double)bytes / cf->net.bpns[d];
	return et_sat_from_double(link + ser);
}

uint64_t net_reduce(sim *s, uint64_t bytes)
{
	if (et_sat_is(bytes))
		return UINT64_MAX;
	double t = (double)bytes / (s->cf->local_mem_bw * 1e9) * 1e9;
	return et_sat_mul(3, et_sat_from_double(floor(t)));
}

static void unaware_init(sim *s)
{
	(void)s;
}

/* The arrival is scheduled now, at its closed-form time. */
static void unaware_send(sim *s, uint32_t src, uint32_t dst, uint64_t bytes, const net_done *done,
                         uint32_t node, const char *what)
{
	uint64_t t = sim_after(s, net_delay(s, src, dst, bytes), src, node, what);
	evq_push(&s->q, t, done->type, done->rank, done->a, done->b);
}

static void unaware_event(sim *s, const ev *e)
{
	(void)s, (void)e;
}

static void unaware_free(sim *s)
{
	(void)s;
}

const net_backend net_unaware = {
    .name = "unaware",
    .help = "default; ASTRA-sim's analytical model",
    .caps = NET_CAP_CLOSED_FORM | NET_CAP_FOLD,
    .init = unaware_init,
    .send = unaware_send,
    .delay = net_delay,
    .event = unaware_event,
    .link_stats = NULL,
    .free = unaware_free,
};
