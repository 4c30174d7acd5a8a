/* net_unaware: ASTRA-sim's congestion-unaware network (doc/astra-sim.md
 * A.1-A.3): a message takes floor(hops·latency + bytes/bandwidth) in the
 * first dimension where its ends differ, whatever else is in flight (the
 * dimensions' geometry is net_dims.h). */
#include "et-sim/net/net.h"
#include "et-sim/net/net_dims.h"
#include "et_sat.h"

uint64_t net_delay(const net_env *env, uint32_t src, uint32_t dst, uint64_t bytes)
{
	const cfg *cf = env->cf;
	int d = net_first_dim(cf, src, dst);
	if (d < 0)
		return 0;
	if (et_sat_is(bytes))
		return UINT64_MAX;
	double link = net_hops(cf, src, dst) * cf->net.lat[d];
	double ser = (double)bytes / cf->net.bpns[d];
	return et_sat_from_double(link + ser);
}

static void unaware_init(net_env *env)
{
	(void)env;
}

/* The arrival is scheduled now, at its closed-form time. */
static void unaware_send(net_env *env, uint32_t src, uint32_t dst, uint64_t bytes,
                         const net_done *done, uint32_t node, const char *what)
{
	uint64_t t = net_after(env, net_delay(env, src, dst, bytes), src, node, what);
	env->done_at(env->eng, t, done);
}

static void unaware_event(net_env *env, uint64_t a, uint64_t b)
{
	(void)env, (void)a, (void)b;
}

static void unaware_free(net_env *env)
{
	(void)env;
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
