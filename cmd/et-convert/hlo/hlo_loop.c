/* hlo_loop: the trip count of a while loop (hlo_cost.h).
 *
 * XLA writes backend_config={"known_trip_count":{"n":"32"}} when it knows
 * the count. MaxText's layer scans (and most jax.lax loops before XLA's
 * loop analysis) carry none, but they are counted loops:
 *
 *   init:      tuple(constant(S), ...)                       in the caller
 *   condition: ROOT compare(get-tuple-element(param, k), constant(L)),
 *              direction=LT (or LE, NE; the constant may come first)
 *   body:      ROOT tuple(..., add(get-tuple-element(param, k), constant(1)), ...)
 *                                                            element k
 *
 * which run L - S times (LT, NE) or L - S + 1 times (LE), 0 when L is
 * behind S (NE behind: never ends, so unknown). Nothing else is inferred:
 * other steps, directions or a counter that is not read straight from the
 * loop state leave the count unknown. */
#include "et-convert/hlo/hlo_cost.h"

#include <string.h>

static const hlo_inst *inst(const hlo_module *m, uint32_t i)
{
	return &m->inst[i];
}

/* Instruction i is constant(v) with an integer literal. */
static bool const_int(const hlo_module *m, uint32_t i, int64_t *v)
{
	const hlo_inst *in = inst(m, i);
	if (in->op != HLO_OP_CONSTANT || !(in->flags & HLO_F_INT))
		return false;
	*v = in->ival;
	return true;
}

/* Instruction i is get-tuple-element(parameter(0)), index k. */
static bool state_elem(const hlo_module *m, uint32_t i, int64_t *k)
{
	const hlo_inst *in = inst(m, i);
	if (in->op != HLO_OP_GTE || in->nopnd != 1)
		return false;
	const hlo_inst *p = inst(m, hlo_opnd(m, in, 0));
	if (p->op != HLO_OP_PARAMETER || p->ival != 0)
		return false;
	*k = in->ival;
	return true;
}

static uint8_t flip(uint8_t dir)
{
	switch (dir) {
	case HLO_DIR_LT:
		return HLO_DIR_GT;
	case HLO_DIR_LE:
		return HLO_DIR_GE;
	case HLO_DIR_GT:
		return HLO_DIR_LT;
	case HLO_DIR_GE:
		return HLO_DIR_LE;
	default:
		return dir;
	}
}

/* The condition: counter element *k compared (*dir) with *limit. */
static bool parse_cond(const hlo_module *m, uint32_t c, int64_t *k, uint8_t *dir, int64_t *limit)
{
	const hlo_inst *root = inst(m, m->comp[c].root);
	const hlo_attr *a = hlo_attr_of(m, root);
	if (root->op != HLO_OP_COMPARE || root->nopnd != 2 || !a)
		return false;
	uint32_t x = hlo_opnd(m, root, 0), y = hlo_opnd(m, root, 1);
	*dir = a->dir;
	if (state_elem(m, x, k) && const_int(m, y, limit))
		return true;
	*dir = flip(a->dir);
	return state_elem(m, y, k) && const_int(m, x, limit);
}

/* The body's root tuple sets element k to element k + 1. */
static bool steps_by_one(const hlo_module *m, uint32_t c, int64_t k)
{
	const hlo_inst *root = inst(m, m->comp[c].root);
	if (root->op != HLO_OP_TUPLE || k < 0 || k >= (int64_t)root->nopnd)
		return false;
	const hlo_inst *add = inst(m, hlo_opnd(m, root, (uint32_t)k));
	if (strcmp(hlo_name(m, add->opname), "add") != 0 || add->nopnd != 2)
		return false;
	int64_t j, one;
	for (uint32_t s = 0; s < 2; s++)
		if (state_elem(m, hlo_opnd(m, add, s), &j) && j == k &&
		    const_int(m, hlo_opnd(m, add, 1 - s), &one) && one == 1)
			return true;
	return false;
}

/* The loop's initial value of element k is a constant. */
static bool init_const(const hlo_module *m, uint32_t w, int64_t k, int64_t *start)
{
	const hlo_inst *in = inst(m, w);
	if (in->nopnd != 1)
		return false;
	const hlo_inst *t = inst(m, hlo_opnd(m, in, 0));
	if (t->op != HLO_OP_TUPLE || k < 0 || k >= (int64_t)t->nopnd)
		return false;
	return const_int(m, hlo_opnd(m, t, (uint32_t)k), start);
}

static bool counted(const hlo_module *m, uint32_t w, const hlo_attr *a, uint64_t *trip)
{
	int64_t k, limit, start;
	uint8_t dir;
	if (a->cond == HLO_NONE || a->body == HLO_NONE)
		return false;
	if (!parse_cond(m, m->refs[a->cond].id, &k, &dir, &limit) ||
	    !steps_by_one(m, m->refs[a->body].id, k) || !init_const(m, w, k, &start))
		return false;
	bool ahead = limit > start;
	uint64_t gap = ahead ? (uint64_t)limit - (uint64_t)start : 0;
	switch (dir) {
	case HLO_DIR_LT:
		*trip = gap;
		return true;
	case HLO_DIR_LE:
		*trip = limit < start ? 0 : gap == UINT64_MAX ? gap : gap + 1;
		return true;
	case HLO_DIR_NE:
		*trip = gap;
		return limit >= start;
	default:
		return false;
	}
}

bool hlo_trip_count(const hlo_module *m, uint32_t w, uint64_t *trip)
{
	const hlo_attr *a = hlo_attr_of(m, inst(m, w));
	int64_t n;
	if (!a)
		return false;
	if (a->backend.len && hlo_json_int_after(m, a->backend, "known_trip_count", "n", &n) &&
	    n >= 0) {
		*trip = (uint64_t)n;
		return true;
	}
	return counted(m, w, a, trip);
}
