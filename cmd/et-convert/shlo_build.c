/* shlo_build: values, scopes, names and the op dispatch (shlo_build.h). */
#include "shlo_build.h"
#include "et_mem.h"
#include "et_sat.h"
#include "shlo_ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROW(v, n, cap, more) shlo_reserve((void **)&(v), &(cap), (n), (more), sizeof *(v))

int shlo_b_fail(shlo_b *b, size_t off, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return shlo_fail_at(b->e, b->p->name, b->p->s, off, "%s", what);
}

void shlo_b_warn(shlo_b *b, size_t off, const char *fmt, ...)
{
	if (b->o->quiet)
		return;
	char what[512], msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	size_t line, col;
	shlo_line_col(b->p->s, off, &line, &col);
	snprintf(msg, sizeof msg, "%s: line %zu, column %zu: %s", b->p->name, line, col, what);
	et_msg_one_line(msg);
	if (b->o->warn)
		fprintf(b->o->warn, "warning: %s\n", msg);
	else
		et_warn("%s", msg);
}

int shlo_b_init(shlo_b *b, xir *x, shlo_prog *p, uint32_t mod, const shlo_opts *o, et_error *e)
{
	memset(b, 0, sizeof *b);
	b->x = x;
	b->p = p;
	b->e = e;
	b->o = o;
	b->mod = mod;
	b->replicas = b->partitions = 1;
	b->max_ops = o->max_ops ? o->max_ops : SHLO_MAX_OPS;
	b->max_deps = et_sat_mul(b->max_ops, 4);
	uint32_t nsym = et_strmap_count(&p->syms);
	b->bind = et_xmalloc((nsym + 1) * sizeof *b->bind);
	b->bindn = et_xcalloc(nsym + 1, sizeof *b->bindn);
	memset(b->bind, 0xff, (nsym + 1) * sizeof *b->bind);
	b->opcode = et_xcalloc(p->nop + 1, sizeof *b->opcode);
	/* never null: offsets into them are taken even when nothing is there */
	GROW(b->stk, 0, b->capstk, 16);
	GROW(b->val, 0, b->capval, 16);
	GROW(b->dep, 0, b->capdep, 16);
	GROW(b->el, 0, b->capel, 16);
	return shlo_lex_init(&b->l, p->name, p->s, p->len, e);
}

void shlo_b_free(shlo_b *b)
{
	et_strmap_free(&b->funcs);
	free(b->func_op);
	free(b->bind);
	free(b->bindn);
	free(b->undo);
	free(b->val);
	free(b->dep);
	free(b->el);
	free(b->stk);
	free(b->tmp);
	free(b->save);
	free(b->pfx);
	free(b->nbuf);
	et_strmap_free(&b->names);
	et_strmap_free(&b->bases);
	free(b->next_suffix);
	free(b->opcode);
	shlo_i64s_free(&b->m);
	free(b->ids);
	memset(b, 0, sizeof *b);
}

const char *shlo_b_sym(const shlo_b *b, uint32_t sym)
{
	return et_strmap_key(&b->p->syms, sym);
}

/* ---- values and scopes ---- */

shlo_scope shlo_b_mark(const shlo_b *b)
{
	return (shlo_scope){b->nval, b->ndep, b->nel, b->nundo};
}

static uint32_t val_add(shlo_b *b, const shlo_val *v)
{
	GROW(b->val, b->nval, b->capval, 1);
	b->val[b->nval] = *v;
	return (uint32_t)b->nval++;
}

uint32_t shlo_b_val(shlo_b *b)
{
	shlo_val v = {0};
	return val_add(b, &v);
}

void shlo_b_bind(shlo_b *b, uint32_t sym, uint32_t first, uint32_t n)
{
	GROW(b->undo, b->nundo, b->capundo, 1);
	b->undo[b->nundo++] = (shlo_undo){sym, b->bind[sym], b->bindn[sym]};
	b->bind[sym] = first;
	b->bindn[sym] = n;
}

/* Copies of the values ids[0..n) made at or after m go to b->save as
 * (ndep, nel, cst lo, cst hi, has_cst, deps..., per element: ndep, deps...). */
static void save_vals(shlo_b *b, shlo_scope m, const uint32_t *ids, uint32_t n)
{
	b->nsave = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (ids[i] < m.nval)
			continue;
		const shlo_val *v = &b->val[ids[i]];
		size_t need = 5 + v->ndep + v->nel;
		for (uint32_t k = 0; k < v->nel; k++)
			need += b->el[v->el + k].ndep;
		GROW(b->save, b->nsave, b->capsave, need);
		uint32_t *s = b->save + b->nsave;
		*s++ = v->ndep;
		*s++ = v->nel;
		*s++ = (uint32_t)((uint64_t)v->cst & 0xffffffffu);
		*s++ = (uint32_t)((uint64_t)v->cst >> 32);
		*s++ = v->has_cst;
		if (v->ndep)
			memcpy(s, b->dep + v->dep, v->ndep * sizeof *s);
		s += v->ndep;
		for (uint32_t k = 0; k < v->nel; k++) {
			const shlo_el *el = &b->el[v->el + k];
			*s++ = el->ndep;
			if (el->ndep)
				memcpy(s, b->dep + el->dep, el->ndep * sizeof *s);
			s += el->ndep;
		}
		b->nsave = (size_t)(s - b->save);
	}
}

static uint32_t deps_add(shlo_b *b, const uint32_t *d, uint32_t n)
{
	GROW(b->dep, b->ndep, b->capdep, n);
	if (n)
		memcpy(b->dep + b->ndep, d, n * sizeof *d);
	b->ndep += n;
	return (uint32_t)(b->ndep - n);
}

static const uint32_t *restore_val(shlo_b *b, const uint32_t *s, uint32_t *id)
{
	shlo_val v = {0};
	v.ndep = s[0];
	v.nel = s[1];
	v.cst = (int64_t)((uint64_t)s[2] | (uint64_t)s[3] << 32);
	v.has_cst = s[4];
	s += 5;
	v.dep = deps_add(b, s, v.ndep);
	s += v.ndep;
	GROW(b->el, b->nel, b->capel, v.nel);
	v.el = (uint32_t)b->nel;
	for (uint32_t k = 0; k < v.nel; k++) {
		shlo_el el = {0, s[0]};
		el.dep = deps_add(b, s + 1, el.ndep);
		s += 1 + el.ndep;
		b->el[b->nel++] = el;
	}
	*id = val_add(b, &v);
	return s;
}

void shlo_b_unwind(shlo_b *b, shlo_scope m, uint32_t *ids, uint32_t n)
{
	save_vals(b, m, ids, n);
	while (b->nundo > m.nundo) {
		const shlo_undo *u = &b->undo[--b->nundo];
		b->bind[u->sym] = u->val;
		b->bindn[u->sym] = u->n;
	}
	b->nval = m.nval;
	b->ndep = m.ndep;
	b->nel = m.nel;
	const uint32_t *s = b->save;
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] >= m.nval)
			s = restore_val(b, s, &ids[i]);
}

int shlo_b_use(shlo_b *b, const shlo_op *o, uint32_t i, uint32_t *vid)
{
	const shlo_use *u = &b->p->use[o->use + i];
	uint32_t first = b->bind[u->sym];
	if (first == SHLO_NONE)
		return shlo_b_fail(b, u->off, "%%%s is not defined here", shlo_b_sym(b, u->sym));
	if (u->idx >= b->bindn[u->sym])
		return shlo_b_fail(b, u->off, "%%%s has %u results, not #%u", shlo_b_sym(b, u->sym),
		                   b->bindn[u->sym], u->idx);
	*vid = first + u->idx;
	return 0;
}

void shlo_b_push(shlo_b *b, uint32_t v)
{
	GROW(b->stk, b->nstk, b->capstk, 1);
	b->stk[b->nstk++] = v;
}

int shlo_b_push_uses(shlo_b *b, const shlo_op *o)
{
	GROW(b->stk, b->nstk, b->capstk, o->nuse);
	for (uint32_t i = 0; i < o->nuse; i++)
		if (shlo_b_use(b, o, i, &b->stk[b->nstk++]) < 0)
			return -1;
	return 0;
}

void shlo_b_bind_results(shlo_b *b, const shlo_op *o, const uint32_t *vals)
{
	uint32_t k = 0;
	for (uint32_t g = 0; g < o->nres; g++) {
		const shlo_res *r = &b->p->res[o->res + g];
		uint32_t first = (uint32_t)b->nval;
		for (uint32_t j = 0; j < r->n; j++) {
			shlo_val v = vals ? b->val[vals[k++]] : (shlo_val){0};
			val_add(b, &v);
		}
		shlo_b_bind(b, r->sym, first, r->n);
	}
}

void shlo_b_bind_empty(shlo_b *b, const shlo_op *o)
{
	shlo_b_bind_results(b, o, NULL);
}

/* ---- dependency unions ---- */

static int cmp_u32(const void *a, const void *c)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)c;
	return (x > y) - (x < y);
}

/* b->tmp = the union of the dependencies of operands [from, to) of o,
 * sorted and unique. */
static int gather(shlo_b *b, const shlo_op *o, uint32_t from, uint32_t to)
{
	b->ntmp = 0;
	for (uint32_t i = from; i < to && i < o->nuse; i++) {
		uint32_t vid;
		if (shlo_b_use(b, o, i, &vid) < 0)
			return -1;
		const shlo_val *v = &b->val[vid];
		if (b->ntmp + v->ndep > b->max_deps)
			return shlo_b_fail(b, o->off, "more than %llu dependencies",
			                   (unsigned long long)b->max_deps);
		if (v->ndep == 0)
			continue;
		GROW(b->tmp, b->ntmp, b->captmp, v->ndep);
		memcpy(b->tmp + b->ntmp, b->dep + v->dep, v->ndep * sizeof *b->tmp);
		b->ntmp += v->ndep;
	}
	if (b->ntmp > 1) {
		qsort(b->tmp, b->ntmp, sizeof *b->tmp, cmp_u32);
		size_t k = 1;
		for (size_t i = 1; i < b->ntmp; i++)
			if (b->tmp[i] != b->tmp[k - 1])
				b->tmp[k++] = b->tmp[i];
		b->ntmp = k;
	}
	return 0;
}

static int check_deps(shlo_b *b, const shlo_op *o, size_t more)
{
	if (b->ndep + more > b->max_deps || b->x->ndeps + more > b->max_deps)
		return shlo_b_fail(b, o->off, "more than %llu dependencies",
		                   (unsigned long long)b->max_deps);
	return 0;
}

/* Results of an elided op: each depends on operands [from, to). */
static int bind_union(shlo_b *b, const shlo_op *o, uint32_t from, uint32_t to)
{
	if (gather(b, o, from, to) < 0 || check_deps(b, o, b->ntmp) < 0)
		return -1;
	shlo_val v = {0};
	v.dep = deps_add(b, b->tmp, (uint32_t)b->ntmp);
	v.ndep = (uint32_t)b->ntmp;
	if (o->nuse == 1 && o->nval == 1 && o->kind != SHLO_OP_GTE) { /* keeps a constant known */
		uint32_t vid;
		if (shlo_b_use(b, o, 0, &vid) < 0)
			return -1;
		v.cst = b->val[vid].cst;
		v.has_cst = b->val[vid].has_cst;
		v.el = b->val[vid].el;
		v.nel = b->val[vid].nel;
	}
	for (uint32_t g = 0; g < o->nres; g++) {
		const shlo_res *r = &b->p->res[o->res + g];
		uint32_t first = (uint32_t)b->nval;
		for (uint32_t j = 0; j < r->n; j++)
			val_add(b, &v);
		shlo_b_bind(b, r->sym, first, r->n);
	}
	return 0;
}

/* ---- names ---- */

static void pfx_append(shlo_b *b, const char *s, size_t n)
{
	GROW(b->pfx, b->npfx, b->cappfx, n + 1);
	memcpy(b->pfx + b->npfx, s, n);
	b->npfx += n;
	b->pfx[b->npfx] = 0;
}

size_t shlo_b_pfx_push(shlo_b *b, const char *seg, size_t n, const char *suffix)
{
	size_t len = b->npfx;
	pfx_append(b, seg, n);
	pfx_append(b, suffix, strlen(suffix));
	pfx_append(b, "/", 1);
	return len;
}

void shlo_b_pfx_pop(shlo_b *b, size_t len)
{
	b->npfx = len;
	if (b->pfx)
		b->pfx[len] = 0;
}

/* The op's mnemonic: its name after the last '.'. */
static void mnemonic(const shlo_b *b, const shlo_op *o, const char **s, size_t *n)
{
	const char *name = b->p->s + o->name;
	size_t k = o->nlen;
	while (k > 0 && name[k - 1] != '.')
		k--;
	*s = name + k;
	*n = o->nlen - k;
	if (*n == 0) { /* "a." has none: the whole name (never empty) */
		*s = name;
		*n = o->nlen;
	}
}

static void nbuf_set(shlo_b *b, const char *s, size_t n, size_t at)
{
	if (at + n + 1 > b->capnbuf) {
		b->capnbuf = 2 * (at + n + 1) + 64;
		b->nbuf = et_xrealloc(b->nbuf, b->capnbuf);
	}
	memcpy(b->nbuf + at, s, n);
	b->nbuf[at + n] = 0;
}

/* PREFIX MNEMONIC.RESULT, made unique with a "~N" suffix. */
static const char *op_name(shlo_b *b, const shlo_op *o)
{
	const char *m;
	size_t mn, len;
	mnemonic(b, o, &m, &mn);
	nbuf_set(b, b->pfx ? b->pfx : "", b->npfx, 0);
	nbuf_set(b, m, mn, b->npfx);
	len = b->npfx + mn;
	if (o->nres) {
		const char *r = shlo_b_sym(b, b->p->res[o->res].sym);
		nbuf_set(b, ".", 1, len);
		nbuf_set(b, r, strlen(r), len + 1);
		len += 1 + strlen(r);
	}
	uint32_t before = et_strmap_count(&b->names);
	uint32_t id = et_strmap_intern(&b->names, b->nbuf, len);
	if (et_strmap_count(&b->names) == before) {
		/* taken: BASE~N from the base's own counter */
		uint32_t nb = et_strmap_count(&b->bases);
		uint32_t base = et_strmap_intern(&b->bases, b->nbuf, len);
		GROW(b->next_suffix, base, b->capsuffix, 1);
		if (et_strmap_count(&b->bases) > nb)
			b->next_suffix[base] = 2;
		for (;;) {
			char suf[16];
			int k = snprintf(suf, sizeof suf, "~%u", b->next_suffix[base]++);
			nbuf_set(b, suf, (size_t)k, len);
			before = et_strmap_count(&b->names);
			id = et_strmap_intern(&b->names, b->nbuf, len + (size_t)k);
			if (et_strmap_count(&b->names) > before)
				break;
		}
	}
	return xir_str(b->x, et_strmap_key(&b->names, id), SIZE_MAX);
}

static const char *opcode(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	if (!b->opcode[id])
		b->opcode[id] = xir_str(b->x, b->p->s + o->name, o->nlen);
	return b->opcode[id];
}

/* ---- emitting ---- */

int shlo_b_emit(shlo_b *b, uint32_t id, xir_op *xo)
{
	const shlo_op *o = &b->p->op[id];
	if (b->dry) {
		b->dry_flops = et_sat_add(b->dry_flops, xo->flops);
		b->dry_bytes = et_sat_add(b->dry_bytes, xo->bytes);
		shlo_b_bind_empty(b, o);
		return 0;
	}
	if (gather(b, o, 0, o->nuse) < 0 || check_deps(b, o, b->ntmp + 1) < 0)
		return -1;
	xo->name = op_name(b, o);
	xo->opcode = opcode(b, id);
	uint32_t k = xir_add(b->x, xo, b->tmp, (uint32_t)b->ntmp);
	shlo_val v = {0};
	v.dep = deps_add(b, &k, 1);
	v.ndep = 1;
	for (uint32_t g = 0; g < o->nres; g++) {
		const shlo_res *r = &b->p->res[o->res + g];
		uint32_t first = (uint32_t)b->nval;
		for (uint32_t j = 0; j < r->n; j++)
			val_add(b, &v);
		shlo_b_bind(b, r->sym, first, r->n);
	}
	return 0;
}

/* ---- elided ops ---- */

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
	for (uint32_t g = 0; g < o->nres; g++) {
		const shlo_res *r = &b->p->res[o->res + g];
		uint32_t first = (uint32_t)b->nval;
		for (uint32_t j = 0; j < r->n; j++)
			val_add(b, &v);
		shlo_b_bind(b, r->sym, first, r->n);
	}
	return 0;
}

static int tuple(shlo_b *b, const shlo_op *o)
{
	if (gather(b, o, 0, o->nuse) < 0 || check_deps(b, o, 2 * b->ntmp) < 0)
		return -1;
	shlo_val v = {0};
	v.dep = deps_add(b, b->tmp, (uint32_t)b->ntmp);
	v.ndep = (uint32_t)b->ntmp;
	GROW(b->el, b->nel, b->capel, o->nuse);
	v.el = (uint32_t)b->nel;
	v.nel = o->nuse;
	for (uint32_t i = 0; i < o->nuse; i++) {
		uint32_t vid;
		if (shlo_b_use(b, o, i, &vid) < 0)
			return -1;
		b->el[b->nel++] = (shlo_el){b->val[vid].dep, b->val[vid].ndep};
	}
	if (o->nres)
		shlo_b_bind(b, b->p->res[o->res].sym, val_add(b, &v), 1);
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
		return o->nuse != 1 ? bind_union(b, o, 0, o->nuse) : -1;
	const shlo_val *t = &b->val[vid];
	if (k < 0 || (uint64_t)k >= t->nel)
		return bind_union(b, o, 0, 1);
	shlo_val v = {0};
	v.dep = b->el[t->el + k].dep;
	v.ndep = b->el[t->el + k].ndep;
	if (o->nres)
		shlo_b_bind(b, b->p->res[o->res].sym, val_add(b, &v), 1);
	return 0;
}

/* optimization_barrier: result i is operand i. */
static int barrier(shlo_b *b, const shlo_op *o)
{
	if (o->nuse != o->nval)
		return bind_union(b, o, 0, o->nuse);
	GROW(b->stk, b->nstk, b->capstk, o->nuse);
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

static int compute(shlo_b *b, uint32_t id)
{
	xir_op xo;
	memset(&xo, 0, sizeof xo);
	xo.channel = -1;
	if (shlo_cost(b, id, &xo) < 0)
		return -1;
	return shlo_b_emit(b, id, &xo);
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
		return bind_union(b, &b->p->op[id], 0, b->p->op[id].nuse);
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
	if (++b->visited > b->max_ops)
		return shlo_b_fail(b, o->off, "more than %llu ops after unrolling",
		                   (unsigned long long)b->max_ops);
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
		return bind_union(b, o, 0, o->nuse);
	case SHLO_OP_TUPLE:
		return tuple(b, o);
	case SHLO_OP_GTE:
		return gte(b, o);
	case SHLO_OP_BARRIER:
		return barrier(b, o);
	case SHLO_OP_CUSTOM_CALL:
		return sharding_call(b, o) ? bind_union(b, o, 0, o->nuse) : compute(b, id);
	default:
		break;
	}
	if (shlo_op_communicates(o->kind))
		return communicate(b, id);
	if (o->kind >= SHLO_OP_RETURN)
		return control(b, id);
	return compute(b, id);
}

uint32_t shlo_b_region_block(const shlo_b *b, const shlo_op *o, uint32_t k)
{
	if (k >= o->nreg)
		return SHLO_NONE;
	const shlo_region *r = &b->p->reg[b->p->regl[o->reg + k]];
	return r->nblk ? r->blk : SHLO_NONE;
}

int shlo_b_block(shlo_b *b, uint32_t blk, const uint32_t *args, uint32_t nargs, size_t off,
                 uint32_t *nret)
{
	const shlo_block *k = &b->p->blk[blk];
	*nret = 0;
	if (k->narg != nargs)
		return shlo_b_fail(b, off, "the region takes %u arguments, the op gives %u",
		                   k->narg, nargs);
	for (uint32_t i = 0; i < nargs; i++)
		shlo_b_bind(b, b->p->u32[k->arg + i], args[i], 1);
	const uint32_t *ops = shlo_block_ops(b->p, k);
	for (uint32_t i = 0; i < k->nop; i++) {
		const shlo_op *o = &b->p->op[ops[i]];
		if (o->kind == SHLO_OP_RETURN) {
			*nret = o->nuse;
			return shlo_b_push_uses(b, o);
		}
		if (shlo_b_op(b, ops[i]) < 0)
			return -1;
	}
	return 0;
}
