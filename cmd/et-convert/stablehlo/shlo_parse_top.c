/* shlo_parse_top: the file (alias lines, modules, functions at top level),
 * pretty module and func.func headers, and the AST's accessors
 * (shlo_ast.h, shlo_parse.h). */
#include "et-convert/stablehlo/shlo_ops.h"
#include "et-convert/stablehlo/shlo_parse.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

static int next(shlo_ps *ps)
{
	return shlo_lex_next(&ps->l);
}

static bool is(shlo_ps *ps, char c)
{
	return shlo_is(&ps->l, c);
}

static void set_sym(shlo_op *o, const shlo_tok *t)
{
	o->sym = t->off + 1;
	o->slen = t->n - 1;
	if (t->n >= 3 && t->p[1] == '"') {
		o->sym++;
		o->slen -= 2;
	}
}

/* func.func's arguments: (%a: T {attrs}, ...), each a pending argument. */
static int func_args(shlo_ps *ps)
{
	if (!is(ps, '('))
		return shlo_fail(&ps->l, "expected '(' and the function's arguments");
	if (next(ps) < 0)
		return -1;
	while (!is(ps, ')')) {
		uint32_t idx;
		if (ps->l.cur.kind != SHLO_T_VAL)
			return shlo_fail(&ps->l, "expected an argument (%%name: type)");
		shlo_ps_push_u32(&ps->pend, &ps->npend, &ps->cappend,
		                 shlo_ps_sym(ps, &ps->l.cur, &idx));
		if (next(ps) < 0 || shlo_expect(&ps->l, ':') < 0 || shlo_ps_skip_to_comma(ps) < 0)
			return -1;
		if (shlo_sep(&ps->l, ')', "") < 0)
			return -1;
	}
	return next(ps);
}

int shlo_ps_func(shlo_ps *ps, shlo_op *o)
{
	size_t pb = ps->npend;
	const shlo_tok *t = &ps->l.cur;
	if (shlo_is_word(&ps->l, "public") || shlo_is_word(&ps->l, "private") ||
	    shlo_is_word(&ps->l, "nested")) {
		o->priv = !shlo_tok_is(t, "public");
		if (next(ps) < 0)
			return -1;
	}
	if (t->kind != SHLO_T_SYM)
		return shlo_fail(&ps->l, "expected the function's @name");
	set_sym(o, t);
	if (next(ps) < 0 || func_args(ps) < 0)
		return -1;
	/* result types and `attributes {...}` up to the body */
	for (;;) {
		t = &ps->l.cur;
		if (is(ps, '{')) {
			uint32_t rid;
			if (shlo_ps_region(ps, pb, &rid) < 0)
				return -1;
			shlo_ps_push_u32(&ps->rstk, &ps->nrstk, &ps->caprstk, rid);
			return 0;
		}
		if (t->kind == SHLO_T_EOF || is(ps, '}') || (t->nl && shlo_ps_stmt_start(ps)))
			return 0; /* a declaration */
		int a = shlo_ps_attributes(ps);
		if (a < 0)
			return -1;
		if (a > 0)
			continue;
		if (is(ps, '(') || is(ps, '<') || is(ps, '[')) {
			if (shlo_skip_balanced(&ps->l) < 0)
				return -1;
		} else if (is(ps, ')') || is(ps, ']') || is(ps, '>')) {
			return shlo_fail(&ps->l, "unexpected '%c'", ps->l.cur.p[0]);
		} else if (next(ps) < 0) {
			return -1;
		}
	}
}

int shlo_ps_module(shlo_ps *ps, shlo_op *o)
{
	if (ps->l.cur.kind == SHLO_T_SYM) {
		set_sym(o, &ps->l.cur);
		if (next(ps) < 0)
			return -1;
	}
	if (shlo_ps_attributes(ps) < 0)
		return -1;
	if (!is(ps, '{'))
		return shlo_fail(&ps->l, "expected '{' and the module's body");
	uint32_t rid;
	if (shlo_ps_region(ps, ps->npend, &rid) < 0)
		return -1;
	shlo_ps_push_u32(&ps->rstk, &ps->nrstk, &ps->caprstk, rid);
	return 0;
}

/* #alias = value / !alias = type: skipped to the end of the line (a loc
 * value is already gone: the lexer drops loc(...)). */
static int alias(shlo_ps *ps)
{
	if (next(ps) < 0 || next(ps) < 0)
		return -1;
	while (ps->l.cur.kind != SHLO_T_EOF && !ps->l.cur.nl) {
		if (is(ps, '(') || is(ps, '[') || is(ps, '{') || is(ps, '<')) {
			if (shlo_skip_balanced(&ps->l) < 0)
				return -1;
		} else if (next(ps) < 0) {
			return -1;
		}
	}
	return 0;
}

static bool at_alias(shlo_ps *ps)
{
	shlo_tok n;
	if (ps->l.cur.kind != SHLO_T_ATTR && ps->l.cur.kind != SHLO_T_TYPE)
		return false;
	return shlo_lex_peek(&ps->l, &n) == 0 && n.kind == SHLO_T_PUNCT && n.p[0] == '=';
}

static int file(shlo_ps *ps)
{
	shlo_prog *p = ps->p;
	if (shlo_is_word(&ps->l, "HloModule")) /* the other text form XLA dumps */
		return shlo_fail(&ps->l, "XLA HLO text, not StableHLO: convert it with --from hlo");
	while (ps->l.cur.kind != SHLO_T_EOF) {
		uint32_t id;
		if (at_alias(ps)) {
			if (alias(ps) < 0)
				return -1;
			continue;
		}
		if (shlo_ps_stmt(ps, &id) < 0)
			return -1;
		shlo_ps_push_u32(&ps->stk, &ps->nstk, &ps->capstk, id);
	}
	/* the top-level block */
	ET_GROW(p->opl, p->capopl, (size_t)p->nopl + ps->nstk);
	if (ps->nstk)
		memcpy(p->opl + p->nopl, ps->stk, ps->nstk * sizeof *p->opl);
	ET_GROW(p->blk, p->capblk, (size_t)p->nblk + 1);
	p->blk[p->nblk] = (shlo_block){(uint32_t)p->nu32, 0, (uint32_t)p->nopl, (uint32_t)ps->nstk};
	p->top = (uint32_t)p->nblk++;
	p->nopl += ps->nstk;
	p->shard = ps->l.shard_off;
	return 0;
}

static void ps_free(shlo_ps *ps)
{
	free(ps->stk);
	free(ps->bstk);
	free(ps->pend);
	free(ps->ustk);
	free(ps->astk);
	free(ps->rstk);
}

int shlo_parse(shlo_prog *p, const char *name, const char *s, size_t len, et_error *e)
{
	memset(p, 0, sizeof *p);
	p->name = name;
	p->s = s;
	p->len = len;
	p->shard = SIZE_MAX;
	p->top = SHLO_NONE;
	shlo_ps ps;
	memset(&ps, 0, sizeof ps);
	ps.p = p;
	int r = shlo_lex_init(&ps.l, name, s, len, e);
	if (r == 0)
		r = file(&ps);
	ps_free(&ps);
	return r;
}

void shlo_prog_free(shlo_prog *p)
{
	free(p->op);
	free(p->res);
	free(p->use);
	free(p->ty);
	shlo_dims_free(&p->dims);
	free(p->attr);
	free(p->regl);
	free(p->reg);
	free(p->blk);
	free(p->u32);
	free(p->opl);
	et_strmap_free(&p->syms);
	memset(p, 0, sizeof *p);
}

const shlo_type *shlo_in_type(const shlo_prog *p, const shlo_op *o, uint32_t i)
{
	if (o->nty == 0)
		return NULL;
	if (!o->list_sig)
		return i < o->nin ? &p->ty[o->ty + i] : NULL;
	return &p->ty[o->ty + (i < o->nty ? i : o->nty - 1)];
}

const shlo_type *shlo_out_type(const shlo_prog *p, const shlo_op *o, uint32_t j)
{
	if (o->nty == 0)
		return NULL;
	if (!o->list_sig)
		return j < o->nty - o->nin ? &p->ty[o->ty + o->nin + j] : NULL;
	if (o->nval == o->nty && j < o->nty)
		return &p->ty[o->ty + j];
	return &p->ty[o->ty + o->nty - 1];
}

const shlo_attr *shlo_find_attr(const shlo_prog *p, const shlo_op *o, const char *key)
{
	size_t n = strlen(key);
	for (uint32_t i = 0; i < o->nattr; i++) {
		const shlo_attr *a = &p->attr[o->attr + i];
		if (a->klen == n && memcmp(p->s + a->key, key, n) == 0)
			return a;
	}
	return NULL;
}
