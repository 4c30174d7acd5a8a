/* closed: closed-form phase durations (doc/astra-sim.md D.14-D.16), used only where they
 * are exact: every member of the phase entered it at the same tick, the
 * ring is symmetric (each member sees the same message delays), and the
 * queue runs one phase at a time (active-chunks-per-dimension = 1). The
 * decision is taken when the last member enters; members that entered
 * earlier (same tick) have only scheduled their first release, d >= 1 ns
 * ahead, so their event-path state is dropped without any effect. */
#include "et-sim/system/system.h"
#include "et_mem.h"
#include "et_sat.h"
#include <stdlib.h>

static uint32_t step(uint32_t n, uint32_t idx, int off, bool anti)
{
	uint32_t o = (uint32_t)off % n;
	return anti ? (idx + n - o) % n : (idx + o) % n;
}

static uint64_t T(sim *s, const ring *rg, uint32_t a, uint32_t b, uint64_t m)
{
	return net_delay(s, rg->rank[a], rg->rank[b], m);
}

/* Slowest peer, and whether every peer is equally slow. */
static uint64_t tmax(sim *s, const ring *rg, uint32_t idx, uint64_t m, bool *uniform)
{
	uint64_t mx = 0, first = 0;
	*uniform = true;
	for (uint32_t j = 0; j < rg->n; j++) {
		if (j == idx)
			continue;
		uint64_t t = T(s, rg, idx, j, m);
		if (mx == 0 && first == 0)
			first = t;
		*uniform = *uniform && t == first;
		mx = t > mx ? t : mx;
	}
	return mx;
}

/* The closed forms saturate (et_sat.h): a phase whose time does not fit is
 * UINT64_MAX, which sim_after refuses. */
#define ADD et_sat_add
#define MUL et_sat_mul

static uint64_t ring_cf(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d)
{
	uint64_t n = rg->n, S = p->size;
	uint32_t nb = step(rg->n, idx, 1, p->anticlockwise);
	uint64_t m = et_sat_div(S, n), t = T(s, rg, idx, nb, m), pr = net_reduce(s, m);
	switch (p->type) {
	case CT_AR:
		return ADD(ADD(MUL(2 * n - 1, d), MUL(2 * n - 2, t)), MUL(n - 1, pr));
	case CT_RS:
		return ADD(MUL(n, d), MUL(n - 1, ADD(t, pr)));
	case CT_AG:
		return ADD(MUL(n, d), MUL(n - 1, T(s, rg, idx, nb, S)));
	default:
		return ADD(d, MUL(n * (n - 1) / 2, ADD(t, d)));
	}
}

static uint64_t direct_cf(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d)
{
	uint64_t S = p->size, m = et_sat_div(S, rg->n);
	bool u;
	switch (p->type) {
	case CT_AR:
		return ADD(ADD(MUL(3, d), MUL(2, tmax(s, rg, idx, m, &u))), net_reduce(s, m));
	case CT_RS:
		return ADD(ADD(MUL(2, d), tmax(s, rg, idx, m, &u)), net_reduce(s, m));
	case CT_AG:
		return ADD(MUL(2, d), tmax(s, rg, idx, S, &u));
	default:
		return ADD(MUL(2, d), tmax(s, rg, idx, m, &u));
	}
}

/* A halving-doubling step: partner at `off` in the direction of my block. */
static uint64_t hd_step(sim *s, const ring *rg, uint32_t idx, int off, uint64_t m, uint64_t d)
{
	bool anti = (idx / (uint32_t)off) % 2;
	return ADD(d, T(s, rg, idx, step(rg->n, idx, off, anti), m));
}

static uint64_t hd_cf(sim *s, const phase_plan *p, const ring *rg, uint32_t idx, uint64_t d)
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
			t = ADD(t, net_reduce(s, et_sat_div(S, (uint64_t)1 << k)));
	}
	if (p->type == CT_AR)
		for (int j = 1; j <= L; j++)
			t = ADD(t, hd_step(s, rg, idx, n >> j,
			                   et_sat_div(S, (uint64_t)1 << (L - j + 1)), d));
	return t;
}

static uint64_t duration(sim *s, const stream *st)
{
	const phase_plan *p = &st->rc->c->ph[st->phase];
	const algo *a = &st->a;
	if (p->impl == IMPL_HD)
		return hd_cf(s, p, a->rg, a->idx, a->d);
	if (p->impl == IMPL_DIRECT)
		return direct_cf(s, p, a->rg, a->idx, a->d);
	return ring_cf(s, p, a->rg, a->idx, a->d);
}

static bool eligible(sim *s, const stream *st)
{
	const phase_plan *p = &st->rc->c->ph[st->phase];
	const algo *a = &st->a;
	if (s->cf->active_chunks != 1 || !a->rg->symmetric)
		return false;
	if (p->impl == IMPL_RING)
		return true;
	if (a->rg->local)
		return false;
	if (p->impl == IMPL_HD)
		return true;
	if (p->window >= 0 && p->window < (int)a->n - 1)
		return false;
	bool uniform;
	tmax(s, a->rg, a->idx, p->size / a->n, &uniform);
	return p->type != CT_AR || uniform;
}

static void go_closed(sim *s, cf_slot *sl, uint32_t nsim)
{
	for (uint32_t k = 0; k < nsim; k++) {
		stream *st = sl->st[k];
		st->a.closed = true;
		st->rc->pend++;
		uint64_t t =
		    sim_after(s, duration(s, st), st->rc->rank, st->rc->node, "communication time");
		evq_push(&s->q, t, EV_PHASE_END, st->rc->rank, (uint64_t)(uintptr_t)st, 0);
	}
	s->st.closed_phases++;
}

bool closed_try(sim *s, stream *st)
{
	coll *c = st->rc->c;
	if ((!s->op->closed_form && !s->folded) || !(s->net->caps & NET_CAP_CLOSED_FORM))
		return false;
	cf_slot *sl = &c->cf[st->chunk * c->nphase + st->phase];
	if (!sl->st) {
		sl->st = et_xcalloc(c->nsim, sizeof *sl->st);
		sl->tick = s->now;
	}
	sl->st[s->folded ? 0 : st->rc->mpos] = st;
	if (sl->tick != s->now || !eligible(s, st))
		sl->bad = true;
	sl->started++;
	if (sl->bad && s->folded)
		sim_unfold(s); /* folding needs closed forms */
	if (sl->bad || sl->started < c->nsim)
		return false;
	go_closed(s, sl, c->nsim);
	return true;
}
