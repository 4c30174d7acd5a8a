/* shlo_trip: the trip count of a counted while loop, read from its regions
 * without running them: the cond block returns compare(counter, bound)
 * with counter a loop argument whose initial value is a constant, bound a
 * constant (in the cond block or outside) or an argument the body passes
 * through unchanged with a constant initial value, and the body returns
 * for the counter add(counter, step) / add(step, counter) /
 * subtract(counter, step) with a constant step (shlo_build.h). */
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"

enum { T_NONE, T_ARG, T_CST };

/* The op of block blk defining symbol sym, SHLO_NONE if none. */
static uint32_t def_in(const shlo_b *b, uint32_t blk, uint32_t sym)
{
	const shlo_block *k = &b->p->blk[blk];
	const uint32_t *ops = shlo_block_ops(b->p, k);
	for (uint32_t i = 0; i < k->nop; i++) {
		const shlo_op *o = &b->p->op[ops[i]];
		for (uint32_t g = 0; g < o->nres; g++)
			if (b->p->res[o->res + g].sym == sym)
				return ops[i];
	}
	return SHLO_NONE;
}

/* What operand u of a region op is: argument *arg of block blk, or the
 * constant *c. */
static int term(shlo_b *b, uint32_t blk, const shlo_use *u, uint32_t *arg, int64_t *c)
{
	const shlo_block *k = &b->p->blk[blk];
	for (uint32_t i = 0; i < k->narg; i++)
		if (b->p->u32[k->arg + i] == u->sym) {
			*arg = i;
			return u->idx == 0 ? T_ARG : T_NONE;
		}
	uint32_t d = def_in(b, blk, u->sym);
	if (d != SHLO_NONE) {
		const shlo_op *o = &b->p->op[d];
		const shlo_attr *a = shlo_find_attr(b->p, o, "value");
		bool ok = false;
		if (o->kind != SHLO_OP_CONST ||
		    shlo_attr_scalar(&b->l, a && a->val != SIZE_MAX ? a->val : o->name, c, &ok) < 0)
			return T_NONE;
		return ok ? T_CST : T_NONE;
	}
	uint32_t v = b->bind[u->sym];
	if (v == SHLO_NONE || u->idx >= b->bindn[u->sym] || !b->val[v + u->idx].has_cst)
		return T_NONE;
	*c = b->val[v + u->idx].cst;
	return T_CST;
}

/* The block's terminator, if it returns. */
static const shlo_op *terminator(const shlo_b *b, uint32_t blk)
{
	const shlo_block *k = &b->p->blk[blk];
	if (k->nop == 0)
		return NULL;
	const shlo_op *o = &b->p->op[shlo_block_ops(b->p, k)[k->nop - 1]];
	return o->kind == SHLO_OP_RETURN ? o : NULL;
}

static int swap_dir(int d)
{
	switch (d) {
	case SHLO_CMP_LT:
		return SHLO_CMP_GT;
	case SHLO_CMP_LE:
		return SHLO_CMP_GE;
	case SHLO_CMP_GT:
		return SHLO_CMP_LT;
	case SHLO_CMP_GE:
		return SHLO_CMP_LE;
	default:
		return d;
	}
}

static void swap(int t[2], uint32_t a[2], int64_t v[2])
{
	int tt = t[0];
	uint32_t aa = a[0];
	int64_t vv = v[0];
	t[0] = t[1];
	a[0] = a[1];
	v[0] = v[1];
	t[1] = tt;
	a[1] = aa;
	v[1] = vv;
}

/* Iterations of for (i = c0; i DIR bound; i += s). */
static bool count(int dir, int64_t c0, int64_t bound, int64_t s, uint64_t *n)
{
	bool up = s > 0;
	uint64_t m = up ? (uint64_t)s : (uint64_t)0 - (uint64_t)s;
	uint64_t diff = up ? (uint64_t)bound - (uint64_t)c0 : (uint64_t)c0 - (uint64_t)bound;
	bool ahead = up ? bound > c0 : c0 > bound; /* the bound lies in the step's direction */
	bool reached = up ? bound >= c0 : c0 >= bound;
	if (s == 0)
		return false;
	switch (dir) {
	case SHLO_CMP_LT:
	case SHLO_CMP_GT:
		if (up != (dir == SHLO_CMP_LT))
			return false;
		*n = ahead ? diff / m + (diff % m != 0) : 0;
		return true;
	case SHLO_CMP_LE:
	case SHLO_CMP_GE:
		if (up != (dir == SHLO_CMP_LE))
			return false;
		*n = reached ? diff / m + 1 : 0;
		return true;
	case SHLO_CMP_NE:
		if (!reached || diff % m)
			return false;
		*n = diff / m;
		return true;
	default:
		return false;
	}
}

/* The step of argument k: body returns add(k, s), add(s, k), sub(k, s). */
static bool step(shlo_b *b, uint32_t body, uint32_t k, int64_t *s)
{
	const shlo_op *ret = terminator(b, body);
	if (!ret || ret->nuse <= k)
		return false;
	uint32_t d = def_in(b, body, b->p->use[ret->use + k].sym);
	if (d == SHLO_NONE)
		return false;
	const shlo_op *o = &b->p->op[d];
	if ((o->kind != SHLO_OP_ADD && o->kind != SHLO_OP_SUB) || o->nuse != 2)
		return false;
	uint32_t a0 = 0, a1 = 0;
	int64_t c0 = 0, c1 = 0;
	int t0 = term(b, body, &b->p->use[o->use], &a0, &c0);
	int t1 = term(b, body, &b->p->use[o->use + 1], &a1, &c1);
	if (t0 == T_ARG && a0 == k && t1 == T_CST) {
		*s = o->kind == SHLO_OP_SUB ? (int64_t)((uint64_t)0 - (uint64_t)c1) : c1;
		return o->kind == SHLO_OP_ADD || c1 != INT64_MIN;
	}
	if (o->kind == SHLO_OP_ADD && t1 == T_ARG && a1 == k && t0 == T_CST) {
		*s = c0;
		return true;
	}
	return false;
}

/* Argument j passes through the body unchanged. */
static bool invariant(const shlo_b *b, uint32_t body, uint32_t j)
{
	const shlo_op *ret = terminator(b, body);
	const shlo_block *k = &b->p->blk[body];
	if (!ret || ret->nuse <= j || k->narg <= j)
		return false;
	const shlo_use *u = &b->p->use[ret->use + j];
	return u->idx == 0 && u->sym == b->p->u32[k->arg + j];
}

/* The compare the cond block returns: its direction and its two terms. */
static const shlo_op *test(shlo_b *b, uint32_t cond, int *dir)
{
	const shlo_op *ret = terminator(b, cond);
	if (!ret || ret->nuse != 1)
		return NULL;
	uint32_t d = def_in(b, cond, b->p->use[ret->use].sym);
	const shlo_op *o = d == SHLO_NONE ? NULL : &b->p->op[d];
	if (!o || o->kind != SHLO_OP_COMPARE || o->nuse != 2)
		return NULL;
	const shlo_attr *a = shlo_find_attr(b->p, o, "comparison_direction");
	*dir = shlo_attr_direction(&b->l, a && a->val != SIZE_MAX ? a->val : o->name);
	return o;
}

bool shlo_trip(shlo_b *b, uint32_t id, const uint32_t *init, uint64_t *n)
{
	const shlo_op *o = &b->p->op[id];
	uint32_t cond = shlo_b_region_block(b, o, 0), body = shlo_b_region_block(b, o, 1);
	int dir;
	const shlo_op *c = test(b, cond, &dir);
	if (!c)
		return false;
	uint32_t a[2] = {0, 0};
	int64_t v[2] = {0, 0}, s;
	int t[2];
	for (int i = 0; i < 2; i++)
		t[i] = term(b, cond, &b->p->use[c->use + i], &a[i], &v[i]);
	/* the counter goes left: "bound DIR counter" is turned round */
	bool turn = t[0] != T_ARG ||
	            (t[1] == T_ARG && invariant(b, body, a[0]) && !invariant(b, body, a[1]));
	if (turn) {
		if (t[1] != T_ARG)
			return false;
		swap(t, a, v);
		dir = swap_dir(dir);
	}
	if (t[1] == T_ARG) { /* a bound carried through the loop */
		if (a[1] >= o->nuse || !invariant(b, body, a[1]) || !b->val[init[a[1]]].has_cst)
			return false;
		v[1] = b->val[init[a[1]]].cst;
		t[1] = T_CST;
	}
	if (t[1] != T_CST || a[0] >= o->nuse || !b->val[init[a[0]]].has_cst ||
	    !step(b, body, a[0], &s))
		return false;
	return count(dir, b->val[init[a[0]]].cst, v[1], s, n);
}
