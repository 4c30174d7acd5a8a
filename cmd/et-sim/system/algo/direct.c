/* direct: ASTRA-sim's Direct (its AllToAll class, a Ring that sends to
 * every peer at once; doc/astra-sim.md D.15): each rank exchanges 1/n of
 * the data with every other rank, at most `window` peers in flight; an
 * all-reduce first reduces (every receive in), then sends the result. */
#include "et-sim/system/algo/algo.h"
#include "et_sat.h"

static void direct_setup(algo *a, const phase_plan *p)
{
	int n = (int)a->n;
	algo_ring_setup(a, p);
	a->middle_point = n - 1;
	a->parallel_reduce = p->window < 0 || p->window > n - 1 ? n - 1 : p->window;
	if (p->type == CT_A2A)
		a->stream_count = n - 1;
}

static int direct_nonzero(const algo *a)
{
	return a->rg->local ? (int)(a->n - 1) * a->parallel_reduce : a->parallel_reduce;
}

/* The next peer each way, skipping myself. */
static uint32_t next_peer(const algo *a, uint32_t i, bool anti)
{
	i = algo_step(a->n, i, 1, anti);
	return i == a->idx ? algo_step(a->n, i, 1, anti) : i;
}

static void direct_next_peers(algo *a)
{
	a->recv_idx = next_peer(a, a->recv_idx, a->anticlockwise);
	a->send_idx = next_peer(a, a->send_idx, !a->anticlockwise);
}

/* An all-reduce's second half waits until every reduce-scatter message is in. */
static bool direct_hold(const algo *a)
{
	return a->type == CT_AR && a->stream_count <= a->middle_point;
}

#define ADD et_sat_add
#define MUL et_sat_mul

static uint64_t direct_closed(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d)
{
	uint64_t S = p->size, m = et_sat_div(S, rg->n);
	bool u;
	switch (p->type) {
	case CT_AR:
		return ADD(ADD(MUL(3, d), MUL(2, algo_cf_tmax(s, rg, idx, m, &u))),
		           algo_reduce(s, m));
	case CT_RS:
		return ADD(ADD(MUL(2, d), algo_cf_tmax(s, rg, idx, m, &u)), algo_reduce(s, m));
	case CT_AG:
		return ADD(MUL(2, d), algo_cf_tmax(s, rg, idx, S, &u));
	default:
		return ADD(MUL(2, d), algo_cf_tmax(s, rg, idx, m, &u));
	}
}

/* Exact when every peer is in flight at once, and, for an all-reduce whose
 * second half starts with the slowest receive, when all peers are equally
 * slow. */
static bool direct_closed_ok(sim *s, const phase_plan *p, const algo *a)
{
	if (p->window >= 0 && p->window < (int)a->n - 1)
		return false;
	bool uniform;
	algo_cf_tmax(s, a->rg, a->idx, p->size / a->n, &uniform);
	return p->type != CT_AR || uniform;
}

const algo_row algo_direct = {
    .name = "direct",
    .caps = ALGO_CAP_ONE | ALGO_CAP_WINDOW,
    .types = ALGO_TYPES_ALL,
    ALGO_PM_STEPS,
    .setup = direct_setup,
    .nonzero = direct_nonzero,
    .next_peers = direct_next_peers,
    .hold = direct_hold,
    .closed = direct_closed,
    .closed_ok = direct_closed_ok,
};
