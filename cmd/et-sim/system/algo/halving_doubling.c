/* halving_doubling: ASTRA-sim's HalvingDoubling (doc/astra-sim.md D.16),
 * on a power-of-two ring of n = 2^L: a reduce-scatter exchanges with the
 * partner at distance 1, 2, 4, ... halving the message each step; an
 * all-gather at distance n/2, n/4, ... doubling it; an all-reduce is the
 * one then the other (2L steps). */
#include "et-sim/system/algo/algo.h"
#include "et_sat.h"

/* The partner at rank_offset, in the direction of my block. */
static void hd_target(algo *a)
{
	bool anti = a->rank_offset && (a->idx / (uint32_t)a->rank_offset) % 2;
	a->recv_idx = a->send_idx = algo_step(a->n, a->idx, (uint32_t)a->rank_offset, anti);
}

static void hd_setup(algo *a, const phase_plan *p)
{
	int L = __builtin_ctz(a->n);
	a->stream_count = p->type == CT_AR ? 2 * L : L;
	a->msg_size = p->type == CT_AG ? p->size : et_sat_div(p->size, 2);
	a->rank_offset = p->type == CT_AG ? (int)a->n / 2 : 1;
	a->mult_up = p->type != CT_AG;
	hd_target(a);
}

static int hd_nonzero(const algo *a)
{
	return (int)__builtin_ctz(a->n) - a->parallel_reduce;
}

/* Up: twice the distance, half the data; down: the reverse. An
 * all-reduce turns down at distance n. */
static void hd_next_peers(algo *a)
{
	if (a->mult_up) {
		a->rank_offset *= 2;
		a->msg_size = et_sat_div(a->msg_size, 2);
	} else {
		a->rank_offset /= 2;
		a->msg_size = et_sat_mul(a->msg_size, 2);
	}
	if ((uint32_t)a->rank_offset == a->n && a->type == CT_AR) {
		a->mult_up = 0;
		a->rank_offset /= 2;
		a->msg_size = et_sat_mul(a->msg_size, 2);
	}
	hd_target(a);
}

#define ADD et_sat_add
#define MUL et_sat_mul

/* One step: the endpoint delay, then m bytes to the partner at `off`. */
static uint64_t hd_step(sim *s, const ring *rg, uint32_t idx, int off, uint64_t m, uint64_t d)
{
	bool anti = (idx / (uint32_t)off) % 2;
	return ADD(d, algo_cf_delay(s, rg, idx, algo_step(rg->n, idx, (uint32_t)off, anti), m));
}

static uint64_t hd_closed(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d)
{
	int n = (int)rg->n, L = __builtin_ctz(rg->n);
	uint64_t S = p->size, t = d;
	if (p->type == CT_AG) {
		for (int k = 1; k <= L; k++)
			t = ADD(t, hd_step(s, rg, idx, n >> k, MUL(S, (uint64_t)1 << (k - 1)), d));
		return t;
	}
	for (int k = 1; k <= L; k++) {
		t = ADD(t, hd_step(s, rg, idx, 1 << (k - 1), et_sat_div(S, (uint64_t)1 << k), d));
		if (k >= 2)
			t = ADD(t, algo_reduce(s, et_sat_div(S, (uint64_t)1 << k)));
	}
	if (p->type == CT_AR)
		for (int j = 1; j <= L; j++)
			t = ADD(t, hd_step(s, rg, idx, n >> j,
			                   et_sat_div(S, (uint64_t)1 << (L - j + 1)), d));
	return t;
}

const algo_row algo_halving_doubling = {
    .name = "halvingDoubling",
    .caps = ALGO_CAP_ONE | ALGO_CAP_POW2,
    .types = ALGO_TYPE(CT_AR) | ALGO_TYPE(CT_AG) | ALGO_TYPE(CT_RS),
    ALGO_PM_STEPS,
    .setup = hd_setup,
    .nonzero = hd_nonzero,
    .next_peers = hd_next_peers,
    .packet_size = true,
    .closed = hd_closed,
};
