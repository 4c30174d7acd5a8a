/* closed: closed-form phase durations (doc/astra-sim.md D.14-D.16), used only where they
 * are exact: every member of the phase entered it at the same tick, the
 * ring is symmetric (each member sees the same message delays), and the
 * queue runs one phase at a time (active-chunks-per-dimension = 1). The
 * decision is taken when the last member enters; members that entered
 * earlier (same tick) have only scheduled their first release, d >= 1 ns
 * ahead, so their event-path state is dropped without any effect. The
 * forms themselves are the algorithms' (algo_row.closed), over the
 * backend's delays (net_backend.delay). */
#include "et-sim/system/algo/algo.h"
#include "et_mem.h"
#include "et_sat.h"
#include <stdlib.h>

uint64_t algo_cf_delay(sim *s, const ring *rg, uint32_t a, uint32_t b, uint64_t m)
{
	return s->net->delay(&s->nenv, rg->rank[a], rg->rank[b], m);
}

uint64_t algo_cf_tmax(sim *s, const ring *rg, uint32_t idx, uint64_t m, bool *uniform)
{
	uint64_t mx = 0, first = 0;
	*uniform = true;
	for (uint32_t j = 0; j < rg->n; j++) {
		if (j == idx)
			continue;
		uint64_t t = algo_cf_delay(s, rg, idx, j, m);
		if (mx == 0 && first == 0)
			first = t;
		*uniform = *uniform && t == first;
		mx = t > mx ? t : mx;
	}
	return mx;
}

static uint64_t duration(sim *s, const stream *st)
{
	const algo *a = &st->a;
	return a->row->closed(s, &st->rc->c->ph[st->phase], a->rg, a->idx, a->d);
}

/* The rules every closed form needs, then the algorithm's own. */
static bool eligible(sim *s, const stream *st)
{
	const phase_plan *p = &st->rc->c->ph[st->phase];
	const algo *a = &st->a;
	if (s->cf->active_chunks != 1 || !a->rg->symmetric || !a->row->closed)
		return false;
	if (a->rg->local && !(a->row->caps & ALGO_CAP_CF_LOCAL))
		return false;
	return !a->row->closed_ok || a->row->closed_ok(s, p, a);
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
	sl->st[c->nsim == 1 ? 0 : st->rc->mpos] = st;
	if (sl->tick != s->now || !eligible(s, st))
		sl->bad = true;
	sl->started++;
	/* a folded class needs them; a group stepped member by member not */
	if (sl->bad && s->folded && c->nsim == 1 && c->nmem > 1)
		sim_unfold(s, "a collective phase without a closed form");
	if (sl->bad || sl->started < c->nsim)
		return false;
	go_closed(s, sl, c->nsim);
	return true;
}
