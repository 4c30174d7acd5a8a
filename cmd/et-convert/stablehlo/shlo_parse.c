/* shlo_parse: one operation, pretty or generic, and its regions
 * (shlo_parse.h).
 *
 * The two forms are read by one scan: tokens up to the signature's ':'
 * at the op's own level, where %values are operands, `key = value` are
 * attributes, `{` opens a region or an attribute dictionary (told apart by
 * what follows), `<{` a property dictionary, and other brackets are
 * skipped whole. Then the signature (`(T, U) -> V` or `T, U`), then the
 * regions a pretty op writes after it (`cond {...} do {...}`,
 * `reducer(...) {...}`, and an `attributes {...}` dictionary). An op without a signature (a bare
 * return) ends at a '}', a block label, or a token that starts a line and an op. */
#include "et-convert/stablehlo/shlo_parse.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_mem.h"

#include <string.h>

/* Results per op at most: values are allocated per result. */
#define MAX_RESULTS (1u << 20)

void shlo_ps_push_u32(uint32_t **v, size_t *n, size_t *cap, uint32_t x)
{
	ET_GROW(*v, *cap, (size_t)*n + 1);
	(*v)[(*n)++] = x;
}

uint32_t shlo_ps_sym(shlo_ps *ps, const shlo_tok *t, uint32_t *idx)
{
	const char *s = t->p + 1;
	size_t n = t->n - 1, hash = n;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '#') {
			hash = i;
			break;
		}
	for (size_t i = hash + 1; i < n && v < UINT32_MAX; i++) {
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > UINT32_MAX)
			v = UINT32_MAX;
	}
	*idx = (uint32_t)v;
	return et_strmap_intern(&ps->p->syms, s, hash);
}

static int next(shlo_ps *ps)
{
	return shlo_lex_next(&ps->l);
}

static bool is(shlo_ps *ps, char c)
{
	return shlo_is(&ps->l, c);
}

static int peek(shlo_ps *ps, shlo_tok *t)
{
	return shlo_lex_peek(&ps->l, t);
}

static bool tok_punct(const shlo_tok *t, char c)
{
	return t->kind == SHLO_T_PUNCT && t->p[0] == c;
}

/* The two tokens after cur. */
static int peek2(shlo_ps *ps, shlo_tok *a, shlo_tok *b)
{
	shlo_mark m = shlo_lex_save(&ps->l);
	size_t shard = ps->l.shard_off;
	int r = next(ps);
	*a = ps->l.cur;
	if (r == 0)
		r = next(ps);
	*b = ps->l.cur;
	shlo_lex_restore(&ps->l, m);
	ps->l.shard_off = shard;
	return r;
}

bool shlo_ps_stmt_start(shlo_ps *ps)
{
	const shlo_tok *t = &ps->l.cur;
	shlo_tok n;
	if (t->kind != SHLO_T_VAL && t->kind != SHLO_T_STR && t->kind != SHLO_T_WORD)
		return false;
	if (peek(ps, &n) < 0)
		return true; /* the error comes again when the next op reads it */
	if (t->kind == SHLO_T_VAL)
		return tok_punct(&n, '=') || tok_punct(&n, ':');
	if (t->kind == SHLO_T_STR)
		return tok_punct(&n, '(');
	bool opname = memchr(t->p, '.', t->n) || shlo_tok_is(t, "return") ||
	              shlo_tok_is(t, "call") || shlo_tok_is(t, "module");
	return opname && !tok_punct(&n, '=');
}

static int add_use(shlo_ps *ps)
{
	shlo_use u;
	u.off = ps->l.cur.off;
	u.sym = shlo_ps_sym(ps, &ps->l.cur, &u.idx);
	ET_GROW(ps->ustk, ps->capustk, (size_t)ps->nustk + 1);
	ps->ustk[ps->nustk++] = u;
	return next(ps);
}

static void add_attr(shlo_ps *ps, const shlo_tok *key, size_t val)
{
	shlo_attr a = {key->off, key->n, val};
	if (key->kind == SHLO_T_STR && key->n >= 2) {
		a.key++;
		a.klen -= 2;
	}
	ET_GROW(ps->astk, ps->capastk, (size_t)ps->nastk + 1);
	ps->astk[ps->nastk++] = a;
}

int shlo_ps_skip_to_comma(shlo_ps *ps)
{
	bool any = false;
	for (;;) {
		const shlo_tok *t = &ps->l.cur;
		char c = t->kind == SHLO_T_PUNCT ? t->p[0] : 0;
		if (t->kind == SHLO_T_EOF)
			return shlo_fail(&ps->l, "unexpected end of input");
		if (c == ',' || c == '}' || c == ')' || c == ']' || c == '>')
			return any ? 0 : shlo_fail(&ps->l, "expected a value");
		if (c == '(' || c == '[' || c == '{' || c == '<') {
			if (shlo_skip_balanced(&ps->l) < 0)
				return -1;
		} else if (next(ps) < 0) {
			return -1;
		}
		any = true;
	}
}

int shlo_ps_dict(shlo_ps *ps)
{
	if (next(ps) < 0)
		return -1;
	while (!is(ps, '}')) {
		shlo_tok key = ps->l.cur;
		if (key.kind == SHLO_T_PUNCT || key.kind == SHLO_T_EOF || key.kind == SHLO_T_ARROW)
			return shlo_fail(&ps->l, "expected an attribute name");
		if (next(ps) < 0)
			return -1;
		size_t val = SIZE_MAX;
		if (is(ps, '=')) {
			if (next(ps) < 0)
				return -1;
			val = ps->l.cur.off;
			if (shlo_ps_skip_to_comma(ps) < 0)
				return -1;
		}
		add_attr(ps, &key, val);
		if (shlo_sep(&ps->l, '}', " in an attribute dictionary") < 0)
			return -1;
	}
	return next(ps);
}

int shlo_ps_attributes(shlo_ps *ps)
{
	if (!shlo_is_word(&ps->l, "attributes"))
		return 0;
	if (next(ps) < 0)
		return -1;
	if (!is(ps, '{'))
		return shlo_fail(&ps->l, "expected '{' after attributes");
	return shlo_ps_dict(ps) < 0 ? -1 : 1;
}

/* Whether the '{' at cur opens a region rather than a dictionary: a region
 * starts with a value, a label, or an op's name. */
static int brace_is_region(shlo_ps *ps, int *region)
{
	shlo_tok a, b;
	if (peek2(ps, &a, &b) < 0)
		return -1;
	*region = 0;
	if (a.kind == SHLO_T_VAL || a.kind == SHLO_T_LABEL)
		*region = 1;
	else if (a.kind == SHLO_T_WORD || a.kind == SHLO_T_STR)
		*region = !tok_punct(&b, '=') && !tok_punct(&b, ',') && !tok_punct(&b, '}');
	else if (!tok_punct(&a, '}'))
		*region = -1; /* neither: skipped */
	return 0;
}

static int region_here(shlo_ps *ps, size_t pb)
{
	uint32_t rid;
	if (shlo_ps_region(ps, pb, &rid) < 0)
		return -1;
	shlo_ps_push_u32(&ps->rstk, &ps->nrstk, &ps->caprstk, rid);
	return 0;
}

static int brace(shlo_ps *ps, size_t pb)
{
	int region;
	if (brace_is_region(ps, &region) < 0)
		return -1;
	if (region > 0)
		return region_here(ps, pb);
	return region == 0 ? shlo_ps_dict(ps) : shlo_skip_balanced(&ps->l);
}

/* (...) of a pretty op: operands, block arguments (`%a: T`, `%a = %b`),
 * and the regions of a generic op. */
static int parens(shlo_ps *ps, size_t pb)
{
	size_t open = ps->l.cur.off;
	if (next(ps) < 0)
		return -1;
	for (;;) {
		const shlo_tok *t = &ps->l.cur;
		char c = t->kind == SHLO_T_PUNCT ? t->p[0] : 0;
		shlo_tok n;
		if (t->kind == SHLO_T_EOF)
			return shlo_fail_at(ps->l.e, ps->l.name, ps->l.s, open,
			                    "this '(' is not closed");
		if (c == ')')
			return next(ps);
		if (c == '{') {
			if (brace(ps, pb) < 0)
				return -1;
		} else if (c == '(' || c == '[' || c == '<') {
			if (shlo_skip_balanced(&ps->l) < 0)
				return -1;
		} else if (t->kind == SHLO_T_VAL) {
			if (peek(ps, &n) < 0)
				return -1;
			if (tok_punct(&n, ':') || tok_punct(&n, '=')) {
				uint32_t idx;
				shlo_ps_push_u32(&ps->pend, &ps->npend, &ps->cappend,
				                 shlo_ps_sym(ps, t, &idx));
				if (next(ps) < 0)
					return -1;
			} else if (add_use(ps) < 0) {
				return -1;
			}
		} else if (c == '}' || c == ']' || c == '>') {
			return shlo_fail(&ps->l, "expected ')', not '%c'", c);
		} else if (next(ps) < 0) {
			return -1;
		}
	}
}

static int one_type(shlo_ps *ps, bool dims)
{
	shlo_type t;
	if (shlo_type_parse(&ps->l, dims ? &ps->p->dims : NULL, &t) < 0)
		return -1;
	shlo_prog *p = ps->p;
	ET_GROW(p->ty, p->capty, (size_t)p->nty + 1);
	p->ty[p->nty++] = t;
	return 0;
}

/* Types separated by commas, up to a ')' (not consumed) when in_parens,
 * else up to the first token after a type that is not a comma. */
static int type_list(shlo_ps *ps, bool dims, bool in_parens)
{
	while (!in_parens || !is(ps, ')')) {
		if (one_type(ps, dims) < 0)
			return -1;
		if (!is(ps, ','))
			break;
		if (next(ps) < 0)
			return -1;
	}
	return 0;
}

/* `: (T, U) -> V`, `: (T) -> (U, V)` or `: T, U`; cur is ':'. */
static int signature(shlo_ps *ps, shlo_op *o)
{
	bool dims = shlo_op_needs_dims(o->kind);
	o->ty = (uint32_t)ps->p->nty;
	if (next(ps) < 0)
		return -1;
	if (is(ps, '(')) {
		if (next(ps) < 0 || type_list(ps, dims, true) < 0 || shlo_expect(&ps->l, ')') < 0)
			return -1;
		o->nin = (uint32_t)(ps->p->nty - o->ty);
		if (ps->l.cur.kind != SHLO_T_ARROW)
			return shlo_fail(&ps->l, "expected '->' and the result types");
		if (next(ps) < 0)
			return -1;
		if (is(ps, '(')) {
			if (next(ps) < 0 || type_list(ps, dims, true) < 0 ||
			    shlo_expect(&ps->l, ')') < 0)
				return -1;
		} else if (one_type(ps, dims) < 0) {
			return -1;
		}
	} else {
		o->list_sig = true;
		if (type_list(ps, dims, false) < 0)
			return -1;
		o->nin = (uint32_t)(ps->p->nty - o->ty);
	}
	o->nty = (uint32_t)(ps->p->nty - o->ty);
	return 0;
}

static bool is_region_keyword(shlo_ps *ps)
{
	return shlo_is_word(&ps->l, "cond") || shlo_is_word(&ps->l, "do") ||
	       shlo_is_word(&ps->l, "reducer");
}

/* Regions after a pretty op's signature: `cond {...} do {...}`,
 * `reducer(%a: T, %b: T) (...) {...}`. */
static int trailing(shlo_ps *ps, size_t pb)
{
	for (;;) {
		int a = shlo_ps_attributes(ps); /* while's `: T attributes {...}` */
		if (a < 0)
			return -1;
		if (a)
			continue;
		if (!is_region_keyword(ps))
			return 0;
		if (next(ps) < 0)
			return -1;
		while (is(ps, '('))
			if (parens(ps, pb) < 0)
				return -1;
		if (!is(ps, '{'))
			return shlo_fail(&ps->l, "expected '{' and a region");
		if (region_here(ps, pb) < 0)
			return -1;
	}
}

static int word(shlo_ps *ps)
{
	shlo_tok key = ps->l.cur, n;
	if (peek(ps, &n) < 0 || next(ps) < 0)
		return -1;
	if (!tok_punct(&n, '='))
		return 0;
	if (next(ps) < 0)
		return -1;
	add_attr(ps, &key, ps->l.cur.off);
	return 0;
}

static void callee(shlo_op *o, const shlo_tok *t)
{
	if (o->slen)
		return;
	o->sym = t->off + 1;
	o->slen = t->n - 1;
	if (t->n >= 3 && t->p[1] == '"') {
		o->sym++;
		o->slen -= 2;
	}
}

/* One token of an op's scan; *done when the op ends (signature read). */
static int scan_one(shlo_ps *ps, shlo_op *o, size_t pb, bool *done)
{
	const shlo_tok *t = &ps->l.cur;
	char c = t->kind == SHLO_T_PUNCT ? t->p[0] : 0;
	shlo_tok n;
	switch (c) {
	case ':':
		*done = true;
		return signature(ps, o) < 0 ? -1 : trailing(ps, pb);
	case '(':
		return parens(ps, pb);
	case '{':
		return brace(ps, pb);
	case '[':
		return shlo_skip_balanced(&ps->l);
	case '<':
		if (peek(ps, &n) < 0)
			return -1;
		if (!tok_punct(&n, '{'))
			return shlo_skip_balanced(&ps->l);
		if (next(ps) < 0 || shlo_ps_dict(ps) < 0)
			return -1;
		return shlo_expect(&ps->l, '>');
	case ')':
	case ']':
	case '>':
		return shlo_fail(&ps->l, "unexpected '%c'", c);
	default:
		break;
	}
	if (t->kind == SHLO_T_VAL)
		return add_use(ps);
	if (t->kind == SHLO_T_WORD)
		return word(ps);
	if (t->kind == SHLO_T_SYM)
		callee(o, t);
	return next(ps);
}

/* The rest of an op after its name, up to its end. */
static int body(shlo_ps *ps, shlo_op *o, size_t pb)
{
	for (bool done = false; !done;) {
		const shlo_tok *t = &ps->l.cur;
		if (t->kind == SHLO_T_EOF || t->kind == SHLO_T_LABEL || tok_punct(t, '}'))
			return 0;
		if (t->nl && shlo_ps_stmt_start(ps))
			return 0;
		if (scan_one(ps, o, pb, &done) < 0)
			return -1;
	}
	return 0;
}

/* %a, %b:2 = */
static int results(shlo_ps *ps, shlo_op *o)
{
	shlo_prog *p = ps->p;
	o->res = (uint32_t)p->nres;
	if (ps->l.cur.kind != SHLO_T_VAL)
		return 0;
	for (;;) {
		const shlo_tok *t = &ps->l.cur;
		if (t->kind != SHLO_T_VAL || memchr(t->p, '#', t->n))
			return shlo_fail(&ps->l, "expected a result name (%%name)");
		uint32_t idx;
		shlo_res r = {0, 1};
		r.sym = shlo_ps_sym(ps, t, &idx);
		if (next(ps) < 0)
			return -1;
		if (is(ps, ':')) {
			if (next(ps) < 0)
				return -1;
			const shlo_tok *k = &ps->l.cur;
			uint64_t v = 0;
			for (uint32_t i = 0; k->kind == SHLO_T_NUM && i < k->n && v <= MAX_RESULTS;
			     i++)
				v = k->p[i] >= '0' && k->p[i] <= '9'
				        ? v * 10 + (uint64_t)(k->p[i] - '0')
				        : MAX_RESULTS + 1;
			if (k->kind != SHLO_T_NUM || v == 0 || v > MAX_RESULTS)
				return shlo_fail(&ps->l, "expected a result count from 1 to %u",
				                 MAX_RESULTS);
			r.n = (uint32_t)v;
			if (next(ps) < 0)
				return -1;
		}
		if (o->nval + r.n > MAX_RESULTS)
			return shlo_fail(&ps->l, "more than %u results", MAX_RESULTS);
		o->nval += r.n;
		ET_GROW(p->res, p->capres, (size_t)p->nres + 1);
		p->res[p->nres++] = r;
		o->nres++;
		if (!is(ps, ','))
			break;
		if (next(ps) < 0)
			return -1;
	}
	return shlo_expect(&ps->l, '=');
}

static int opname(shlo_ps *ps, shlo_op *o)
{
	const shlo_tok *t = &ps->l.cur;
	if (t->kind == SHLO_T_STR && t->n > 2) {
		o->generic = true;
		o->name = t->off + 1;
		o->nlen = t->n - 2;
	} else if (t->kind == SHLO_T_WORD) {
		o->name = t->off;
		o->nlen = t->n;
	} else {
		return shlo_fail(&ps->l, "expected an operation");
	}
	o->kind = (uint16_t)shlo_op_kind(ps->l.s + o->name, o->nlen);
	return next(ps);
}

/* Copies what the op put on the stacks into the program. */
static void finish(shlo_ps *ps, shlo_op *o, size_t ub, size_t ab, size_t rb, size_t pb)
{
	shlo_prog *p = ps->p;
	size_t nu = ps->nustk - ub, na = ps->nastk - ab, nr = ps->nrstk - rb;
	ET_GROW(p->use, p->capuse, (size_t)p->nuse + nu);
	ET_GROW(p->attr, p->capattr, (size_t)p->nattr + na);
	ET_GROW(p->regl, p->capregl, (size_t)p->nregl + nr);
	if (nu)
		memcpy(p->use + p->nuse, ps->ustk + ub, nu * sizeof *p->use);
	if (na)
		memcpy(p->attr + p->nattr, ps->astk + ab, na * sizeof *p->attr);
	if (nr)
		memcpy(p->regl + p->nregl, ps->rstk + rb, nr * sizeof *p->regl);
	o->use = (uint32_t)p->nuse;
	o->nuse = (uint32_t)nu;
	o->attr = (uint32_t)p->nattr;
	o->nattr = (uint32_t)na;
	o->reg = (uint32_t)p->nregl;
	o->nreg = (uint32_t)nr;
	p->nuse += nu;
	p->nattr += na;
	p->nregl += nr;
	ps->nustk = ub;
	ps->nastk = ab;
	ps->nrstk = rb;
	ps->npend = pb;
}

/* A generic module's or function's name is its sym_name attribute. */
static void generic_names(shlo_ps *ps, shlo_op *o)
{
	const shlo_attr *a = shlo_find_attr(ps->p, o, "sym_name");
	shlo_lex l = ps->l;
	if (a && a->val != SIZE_MAX && shlo_lex_seek(&l, a->val) == 0 && l.cur.kind == SHLO_T_STR &&
	    l.cur.n >= 2) {
		o->sym = l.cur.off + 1;
		o->slen = l.cur.n - 2;
	}
	a = shlo_find_attr(ps->p, o, "sym_visibility");
	l = ps->l;
	o->priv = a && a->val != SIZE_MAX && shlo_lex_seek(&l, a->val) == 0 &&
	          !shlo_tok_is(&l.cur, "\"public\"");
}

static int stmt_rest(shlo_ps *ps, shlo_op *o, size_t pb)
{
	if (o->kind == SHLO_OP_FUNC && !o->generic)
		return shlo_ps_func(ps, o);
	if (o->kind == SHLO_OP_MODULE && !o->generic)
		return shlo_ps_module(ps, o);
	return body(ps, o, pb);
}

int shlo_ps_stmt(shlo_ps *ps, uint32_t *id)
{
	shlo_prog *p = ps->p;
	shlo_op o;
	memset(&o, 0, sizeof o);
	o.off = ps->l.cur.off;
	o.first = (uint32_t)p->nop;
	o.shard = SIZE_MAX;
	size_t ub = ps->nustk, ab = ps->nastk, rb = ps->nrstk, pb = ps->npend;
	if (results(ps, &o) < 0 || opname(ps, &o) < 0)
		return -1;
	size_t shard = ps->l.shard_off;
	if (o.kind == SHLO_OP_MODULE)
		ps->l.shard_off = SIZE_MAX;
	if (stmt_rest(ps, &o, pb) < 0)
		return -1;
	if (o.kind == SHLO_OP_MODULE) {
		o.shard = ps->l.shard_off;
		ps->l.shard_off = shard < o.shard ? shard : o.shard;
	}
	finish(ps, &o, ub, ab, rb, pb);
	if (o.generic && (o.kind == SHLO_OP_MODULE || o.kind == SHLO_OP_FUNC))
		generic_names(ps, &o);
	o.end = ps->l.cur.off;
	ET_GROW(p->op, p->capop, (size_t)p->nop + 1);
	*id = (uint32_t)p->nop;
	p->op[p->nop++] = o;
	return 0;
}
