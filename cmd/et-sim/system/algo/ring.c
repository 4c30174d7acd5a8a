/* ring: ASTRA-sim's Ring (doc/astra-sim.md D.14): n - 1 steps around the
 * logical ring per pass (two passes for an all-reduce), each message 1/n
 * of the phase's data, sent to the next rank and received from the
 * previous one. */
#include "et-sim/system/algo/algo.h"
#include "et_sat.h"

void algo_ring_setup(algo *a, const phase_plan *p)
{
	int n = (int)a->n;
	a->stream_count = p->type == CT_AR    ? 2 * (n - 1)
	                  : p->type == CT_A2A ? n * (n - 1) / 2
	                                      : n - 1;
	a->msg_size = p->type == CT_AG ? p->size : et_sat_div(p->size, a->n);
	a->recv_idx = algo_step(a->n, a->idx, 1, a->anticlockwise);
	a->send_idx = algo_step(a->n, a->idx, 1, !a->anticlockwise); /* my sender */
}

static int ring_nonzero(const algo *a)
{
	return (int)(a->n - 1) * a->parallel_reduce;
}

#define ADD et_sat_add
#define MUL et_sat_mul

static uint64_t ring_closed(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d)
{
	uint64_t n = rg->n, S = p->size;
	uint32_t nb = algo_step(rg->n, idx, 1, p->anticlockwise);
	uint64_t m = et_sat_div(S, n), t = algo_cf_delay(s, rg, idx, nb, m), pr = algo_reduce(s, m);
	switch (p->type) {
	case CT_AR:
		return ADD(ADD(MUL(2 * n - 1, d), MUL(2 * n - 2, t)), MUL(n - 1, pr));
	case CT_RS:
		return ADD(MUL(n, d), MUL(n - 1, ADD(t, pr)));
	case CT_AG:
		return ADD(MUL(n, d), MUL(n - 1, algo_cf_delay(s, rg, idx, nb, S)));
	default:
		return ADD(d, MUL(n * (n - 1) / 2, ADD(t, d)));
	}
}

const algo_row algo_ring = {
    .name = "ring",
    .caps = ALGO_CAP_ONE | ALGO_CAP_CF_LOCAL,
    .types = ALGO_TYPES_ALL,
    ALGO_PM_STEPS,
    .setup = algo_ring_setup,
    .nonzero = ring_nonzero,
    .closed = ring_closed,
};
