/* shlo_run: one op of the walk (shlo_b_op): zero-cost ops elided with
 * their dependencies passed through (a tuple keeps each element's, an
 * optimization_barrier each operand's, a scalar integer constant its value
 * for counted loops), compute and communication ops emitted, control ops
 * handed to shlo_ctl.c (shlo_build.h). */
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_mem.h"

#include <string.h>

static int constant(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	const shlo_attr *a = shlo_find_attr(b->p, o, "value");
	shlo_val v = {0};
	bool ok = false;
	if (o->nval == 1 &&
	    shlo_attr_scalar(&b->l, a && a->val != SIZE_MAX ? a->val : o->name, &v.cst, &ok) < 0)
		return -1;
	v.has_cst = ok;
	shlo_b_bind_all(b, o, &v);
	return 0;
}

static int tuple(shlo_b *b, const shlo_op *o)
{
	if (shlo_b_gather(b, o, 0, o->nuse) < 0 || shlo_b_check_deps(b, o, 2 * b->ntmp) < 0)
		return -1;
	shlo_val v = {0};
	v.dep = shlo_b_deps_add(b, b->tmp, (uint32_t)b->ntmp);
	v.ndep = (uint32_t)b->ntmp;
	ET_GROW(b->el, b->capel, (size_t)b->nel + o->nuse);
	v.el = (uint32_t)b->nel;
	v.nel = o->nuse;
	for (uint32_t i = 0; i < o->nuse; i++) {
		uint32_t vid;
		if (shlo_b_use(b, o, i, &vid) < 0)
			return -1;
		b->el[b->nel++] = (shlo_el){b->val[vid].dep, b->val[vid].ndep};
	}
	if (o->nres)
		shlo_b_bind(b, b->p->res[o->res].sym, shlo_b_val_add(b, &v), 1);
	return 0;
}

/* The index of get_tuple_element: `index = N` or pretty `%t[N]`. */
static int gte_index(shlo_b *b, const shlo_op *o, int64_t *k)
{
	const shlo_attr *a = shlo_find_attr(b->p, o, "index");
	*k = -1;
	if (a && a->val != SIZE_MAX)
		return shlo_attr_int(&b->l, a->val, k);
	if (o->nuse && shlo_lex_seek(&b->l, b->p->use[o->use].off) == 0 &&
	    shlo_lex_next(&b->l) == 0 && shlo_is(&b->l, '[') && shlo_lex_next(&b->l) == 0 &&
	    !shlo_tok_int(&b->l.cur, k))
		*k = -1;
	return 0;
}

static int gte(shlo_b *b, const shlo_op *o)
{
	int64_t k;
	uint32_t vid;
	if (o->nuse != 1 || gte_index(b, o, &k) < 0 || shlo_b_use(b, o, 0, &vid) < 0)
		return o->nuse != 1 ? shlo_b_bind_union(b, o, 0, o->nuse) : -1;
	const shlo_val *t = &b->val[vid];
	if (k < 0 || (uint64_t)k >= t->nel)
		return shlo_b_bind_union(b, o, 0, 1);
	shlo_val v = {0};
	v.dep = b->el[t->el + k].dep;
	v.ndep = b->el[t->el + k].ndep;
	if (o->nres)
		shlo_b_bind(b, b->p->res[o->res].sym, shlo_b_val_add(b, &v), 1);
	return 0;
}

/* optimization_barrier: result i is operand i. */
static int barrier(shlo_b *b, const shlo_op *o)
{
	if (o->nuse != o->nval)
		return shlo_b_bind_union(b, o, 0, o->nuse);
	ET_GROW(b->stk, b->capstk, (size_t)b->nstk + o->nuse);
	size_t base = b->nstk;
	if (shlo_b_push_uses(b, o) < 0)
		return -1;
	shlo_b_bind_results(b, o, b->stk + base);
	b->nstk = base;
	return 0;
}

static bool sharding_call(const shlo_b *b, const shlo_op *o)
{
	static const char *const t[] = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape"};
	const char *s = b->p->s + o->sym;
	for (size_t k = 0; k < sizeof t / sizeof *t; k++)
		if (o->slen == strlen(t[k]) && memcmp(s, t[k], o->slen) == 0)
			return true;
	return o->slen > 8 && memcmp(s, "xla.sdy.", 8) == 0;
}

static bool named(const shlo_b *b, const shlo_op *o, const char *mnemonic)
{
	size_t n = strlen(mnemonic);
	return o->nlen > n && memcmp(b->p->s + o->name + o->nlen - n, mnemonic, n) == 0 &&
	       b->p->s[o->name + o->nlen - n - 1] == '.';
}

/* Integer arithmetic on known constants (add, subtract, multiply, convert)
 * is still emitted, but its result stays known: loop bounds are often
 * computed so (`%0 = stablehlo.add %c, %c_0` then `compare LT, %i, %0`). */
static void fold(shlo_b *b, const shlo_op *o)
{
	uint32_t v[2];
	if (o->nval != 1 || o->nuse < 1 || o->nuse > 2 ||
	    b->bind[b->p->res[o->res].sym] == SHLO_NONE)
		return;
	for (uint32_t i = 0; i < o->nuse; i++)
		if (shlo_b_use(b, o, i, &v[i]) < 0 || !b->val[v[i]].has_cst)
			return;
	int64_t x = b->val[v[0]].cst, y = o->nuse == 2 ? b->val[v[1]].cst : 0, r;
	bool ok;
	if (o->nuse == 1)
		ok = named(b, o, "convert") && (r = x, true);
	else if (o->kind == SHLO_OP_ADD)
		ok = !__builtin_add_overflow(x, y, &r);
	else if (o->kind == SHLO_OP_SUB)
		ok = !__builtin_sub_overflow(x, y, &r);
	else
		ok = named(b, o, "multiply") && !__builtin_mul_overflow(x, y, &r);
	if (ok) {
		shlo_val *res = &b->val[b->bind[b->p->res[o->res].sym]];
		res->cst = r;
		res->has_cst = true;
	}
}

static int compute(shlo_b *b, uint32_t id)
{
	xir_op xo;
	memset(&xo, 0, sizeof xo);
	xo.channel = -1;
	if (shlo_cost(b, id, &xo) < 0 || shlo_b_emit(b, id, &xo) < 0)
		return -1;
	fold(b, &b->p->op[id]);
	return 0;
}

static int communicate(shlo_b *b, uint32_t id)
{
	xir_op xo;
	bool skip = false;
	memset(&xo, 0, sizeof xo);
	xo.channel = -1;
	if (shlo_coll(b, id, &xo, &skip) < 0)
		return -1;
	if (skip)
		return shlo_b_bind_union(b, &b->p->op[id], 0, b->p->op[id].nuse);
	return shlo_b_emit(b, id, &xo);
}

static int control(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	const shlo_attr *a;
	switch (o->kind) {
	case SHLO_OP_CALL:
		return shlo_ctl_call(b, id, o->sym, o->slen);
	case SHLO_OP_COMPOSITE:
		a = shlo_find_attr(b->p, o, "decomposition");
		if (!a || a->val == SIZE_MAX || shlo_lex_seek(&b->l, a->val) < 0 ||
		    b->l.cur.kind != SHLO_T_SYM)
			return compute(b, id);
		return shlo_ctl_call(b, id, b->l.cur.off + 1, b->l.cur.n - 1);
	case SHLO_OP_WHILE:
		return shlo_ctl_while(b, id);
	case SHLO_OP_CASE:
	case SHLO_OP_IF:
		return shlo_ctl_case(b, id);
	case SHLO_OP_MANUAL:
		return shlo_ctl_manual(b, id);
	case SHLO_OP_PARALLEL:
		return shlo_ctl_parallel(b, id);
	default:
		return compute(b, id);
	}
}

int shlo_b_op(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	b->visited += o->nval > 1 ? o->nval : 1; /* values are allocated per result */
	if (shlo_b_count(b, o->off) < 0)
		return -1;
	switch (o->kind) {
	case SHLO_OP_CONST:
		return constant(b, id);
	case SHLO_OP_NODEP:
	case SHLO_OP_CHECK:
	case SHLO_OP_MODULE:
	case SHLO_OP_FUNC:
		shlo_b_bind_empty(b, o);
		return 0;
	case SHLO_OP_PASS:
		return shlo_b_bind_union(b, o, 0, o->nuse);
	case SHLO_OP_TUPLE:
		return tuple(b, o);
	case SHLO_OP_GTE:
		return gte(b, o);
	case SHLO_OP_BARRIER:
		return barrier(b, o);
	case SHLO_OP_CUSTOM_CALL:
		return sharding_call(b, o) ? shlo_b_bind_union(b, o, 0, o->nuse) : compute(b, id);
	default:
		break;
	}
	if (shlo_op_communicates(o->kind))
		return communicate(b, id);
	if (o->kind >= SHLO_OP_RETURN)
		return control(b, id);
	return compute(b, id);
}
