/* shlo_build: values, scopes, names and the op dispatch (shlo_build.h). */
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_mem.h"
#include "et_sat.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int shlo_b_fail(shlo_b *b, size_t off, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return shlo_fail_at(b->e, b->p->name, b->p->s, off, "%s", what);
}

int shlo_b_count(shlo_b *b, size_t off)
{
	if (b->visited <= b->max_ops)
		return 0;
	if (!b->est)
		return shlo_b_fail(b, off, "more than %llu ops after unrolling",
		                   (unsigned long long)b->max_ops);
	return shlo_b_fail(b, off,
	                   "unrolling loops and inlining calls would make about %llu ops, more "
	                   "than %llu (estimated before expanding: trip count times the first "
	                   "iteration, calls times the first call)",
	                   (unsigned long long)b->visited, (unsigned long long)b->max_ops);
}

void shlo_b_warn(shlo_b *b, size_t off, const char *fmt, ...)
{
	if (b->o->quiet || b->est) /* the real walk warns */
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
	b->est_fn = et_xcalloc(p->nop + 1, sizeof *b->est_fn);
	/* never null: offsets into them are taken even when nothing is there */
	ET_GROW(b->stk, b->capstk, 16);
	ET_GROW(b->val, b->capval, 16);
	ET_GROW(b->dep, b->capdep, 16);
	ET_GROW(b->el, b->capel, 16);
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
	free(b->est_fn);
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

uint32_t shlo_b_val_add(shlo_b *b, const shlo_val *v)
{
	ET_GROW(b->val, b->capval, (size_t)b->nval + 1);
	b->val[b->nval] = *v;
	return (uint32_t)b->nval++;
}

uint32_t shlo_b_val(shlo_b *b)
{
	shlo_val v = {0};
	return shlo_b_val_add(b, &v);
}

void shlo_b_bind(shlo_b *b, uint32_t sym, uint32_t first, uint32_t n)
{
	ET_GROW(b->undo, b->capundo, (size_t)b->nundo + 1);
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
		ET_GROW(b->save, b->capsave, (size_t)b->nsave + need);
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

uint32_t shlo_b_deps_add(shlo_b *b, const uint32_t *d, uint32_t n)
{
	ET_GROW(b->dep, b->capdep, (size_t)b->ndep + n);
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
	v.dep = shlo_b_deps_add(b, s, v.ndep);
	s += v.ndep;
	ET_GROW(b->el, b->capel, (size_t)b->nel + v.nel);
	v.el = (uint32_t)b->nel;
	for (uint32_t k = 0; k < v.nel; k++) {
		shlo_el el = {0, s[0]};
		el.dep = shlo_b_deps_add(b, s + 1, el.ndep);
		s += 1 + el.ndep;
		b->el[b->nel++] = el;
	}
	*id = shlo_b_val_add(b, &v);
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
	ET_GROW(b->stk, b->capstk, (size_t)b->nstk + 1);
	b->stk[b->nstk++] = v;
}

int shlo_b_push_uses(shlo_b *b, const shlo_op *o)
{
	ET_GROW(b->stk, b->capstk, (size_t)b->nstk + o->nuse);
	for (uint32_t i = 0; i < o->nuse; i++)
		if (shlo_b_use(b, o, i, &b->stk[b->nstk++]) < 0)
			return -1;
	return 0;
}

/* Binds o's results to copies of vals' values, else of *same, else of an
 * empty value. */
static void bind_each(shlo_b *b, const shlo_op *o, const uint32_t *vals, const shlo_val *same)
{
	uint32_t k = 0;
	for (uint32_t g = 0; g < o->nres; g++) {
		const shlo_res *r = &b->p->res[o->res + g];
		uint32_t first = (uint32_t)b->nval;
		for (uint32_t j = 0; j < r->n; j++) {
			shlo_val v = vals ? b->val[vals[k++]] : same ? *same : (shlo_val){0};
			shlo_b_val_add(b, &v);
		}
		shlo_b_bind(b, r->sym, first, r->n);
	}
}

void shlo_b_bind_results(shlo_b *b, const shlo_op *o, const uint32_t *vals)
{
	bind_each(b, o, vals, NULL);
}

void shlo_b_bind_all(shlo_b *b, const shlo_op *o, const shlo_val *v)
{
	bind_each(b, o, NULL, v);
}

void shlo_b_bind_empty(shlo_b *b, const shlo_op *o)
{
	bind_each(b, o, NULL, NULL);
}

/* ---- dependency unions ---- */

static int cmp_u32(const void *a, const void *c)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)c;
	return (x > y) - (x < y);
}

/* b->tmp = the union of the dependencies of operands [from, to) of o,
 * sorted and unique. */
int shlo_b_gather(shlo_b *b, const shlo_op *o, uint32_t from, uint32_t to)
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
		ET_GROW(b->tmp, b->captmp, (size_t)b->ntmp + v->ndep);
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

int shlo_b_check_deps(shlo_b *b, const shlo_op *o, size_t more)
{
	if (b->ndep + more > b->max_deps || b->x->ndeps + more > b->max_deps)
		return shlo_b_fail(b, o->off, "more than %llu dependencies",
		                   (unsigned long long)b->max_deps);
	return 0;
}

/* Results of an elided op: each depends on operands [from, to). */
int shlo_b_bind_union(shlo_b *b, const shlo_op *o, uint32_t from, uint32_t to)
{
	if (shlo_b_gather(b, o, from, to) < 0 || shlo_b_check_deps(b, o, b->ntmp) < 0)
		return -1;
	shlo_val v = {0};
	v.dep = shlo_b_deps_add(b, b->tmp, (uint32_t)b->ntmp);
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
	shlo_b_bind_all(b, o, &v);
	return 0;
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
	if (shlo_b_gather(b, o, 0, o->nuse) < 0 || shlo_b_check_deps(b, o, b->ntmp + 1) < 0)
		return -1;
	xo->name = shlo_b_name(b, o);
	xo->opcode = shlo_b_opcode(b, id);
	uint32_t k = xir_add(b->x, xo, b->tmp, (uint32_t)b->ntmp);
	shlo_val v = {0};
	v.dep = shlo_b_deps_add(b, &k, 1);
	v.ndep = 1;
	shlo_b_bind_all(b, o, &v);
	return 0;
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
