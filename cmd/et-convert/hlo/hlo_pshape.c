/* hlo_pshape: shapes (hlo_parse.h).
 *
 *   shape ::= '(' [shape (',' shape)*] ')'            a tuple
 *           | type '[' [dim (',' dim)*] ']' [layout]  an array (token[] too)
 *   dim   ::= N | '<=' N | '?'                         '<=N' is a bounded
 *                                                      dynamic size, counted as N;
 *                                                      '?' is unbounded, counted as 0
 *
 * Element sizes: pred 8 bits, bf16 16, c64 64, c128 128, token and opaque 0,
 * and sN / uN / fN... (f8e4m3fn, f4e2m1fn, ...) N bits. Bytes are
 * ceil(elements * bits / 8). Layouts ({1,0:T(8,128)}, right after the ']', as
 * XLA prints them) are skipped. */
#include "et-convert/hlo/hlo_parse.h"
#include "et_mem.h"
#include "et_sat.h"

#include <stdlib.h>
#include <string.h>

/* Bits per element of the type word w[0..n), or -1 when it is none. */
static int type_bits(const char *w, size_t n)
{
	static const struct {
		const char *w;
		int bits;
	} named[] = {{"pred", 8},   {"bf16", 16}, {"c64", 64},
	             {"c128", 128}, {"token", 0}, {"opaque", 0}};
	for (size_t k = 0; k < sizeof named / sizeof *named; k++)
		if (strlen(named[k].w) == n && memcmp(named[k].w, w, n) == 0)
			return named[k].bits;
	if (n < 2 || (w[0] != 's' && w[0] != 'u' && w[0] != 'f'))
		return -1;
	int bits = 0;
	size_t k = 1;
	for (; k < n && w[k] >= '0' && w[k] <= '9' && bits <= 128; k++)
		bits = bits * 10 + (w[k] - '0');
	if (k == 1 || bits == 0 || bits > 128)
		return -1;
	/* only floating types have a suffix (f8e4m3fn) */
	for (size_t j = k; j < n; j++)
		if (w[0] != 'f' || !((w[j] >= 'a' && w[j] <= 'z') || (w[j] >= '0' && w[j] <= '9')))
			return -1;
	return bits;
}

bool hlo_p_at_shape(const hlo_parser *p)
{
	if (p->t.kind == HLO_T_LPAREN)
		return true;
	return p->t.kind == HLO_T_WORD && type_bits(p->lx.s + p->t.off, p->t.len) >= 0 &&
	       hlo_p_peek(p).kind == HLO_T_LBRACK;
}

static uint32_t add_shape(hlo_module *m, const hlo_shape *s)
{
	ET_GROW(m->shape, m->capshape, (size_t)m->nshape + 1);
	m->shape[m->nshape] = *s;
	return (uint32_t)m->nshape++;
}

/* One dimension into *d. */
static int parse_dim(hlo_parser *p, uint64_t *d)
{
	int64_t v;
	if (p->t.kind == HLO_T_OTHER && p->lx.s[p->t.off] == '?') {
		*d = 0;
		return hlo_p_next(p);
	}
	if (p->t.kind == HLO_T_LE && hlo_p_next(p) < 0)
		return -1;
	if (!hlo_tok_int(&p->lx, &p->t, &v) || v < 0)
		return hlo_p_expected(p, "a dimension size");
	*d = (uint64_t)v;
	return hlo_p_next(p);
}

static int parse_array(hlo_parser *p, uint32_t *id)
{
	hlo_module *m = p->m;
	hlo_shape s = {.kind = HLO_SH_ARRAY, .off = (uint32_t)m->ndims, .elems = 1};
	s.bits = (uint8_t)type_bits(p->lx.s + p->t.off, p->t.len);
	if (hlo_p_next(p) < 0 || hlo_p_eat(p, HLO_T_LBRACK, "'[' after the element type") < 0)
		return -1;
	while (p->t.kind != HLO_T_RBRACK) {
		uint64_t d = 0;
		if (s.rank == HLO_MAX_RANK)
			return hlo_fail(m, p->e, p->t.off, "more than %d dimensions", HLO_MAX_RANK);
		if (parse_dim(p, &d) < 0)
			return -1;
		ET_GROW(m->dims, m->capdims, (size_t)m->ndims + 1);
		m->dims[m->ndims++] = d;
		s.rank++;
		s.elems = et_sat_mul(s.elems, d);
		if (p->t.kind == HLO_T_COMMA) {
			if (hlo_p_next(p) < 0)
				return -1;
		} else if (p->t.kind != HLO_T_RBRACK) {
			return hlo_p_expected(p, "',' or ']' in the dimensions");
		}
	}
	size_t end = p->t.off + 1;
	if (hlo_p_next(p) < 0)
		return -1;
	uint64_t bits = et_sat_mul(s.elems, s.bits);
	s.bytes = et_sat_is(bits) ? bits : bits / 8 + (bits % 8 != 0);
	/* a layout follows the ']' at once; "-> f32[] {" opens a body */
	if (p->t.kind == HLO_T_LBRACE && p->t.off == end && hlo_p_skip_group(p) < 0)
		return -1;
	*id = add_shape(m, &s);
	return 0;
}

/* The children of a tuple are gathered on a stack (kids pushed by nested
 * tuples are popped before the outer one pushes its next child), then
 * copied to m->kids in one piece. */
typedef struct kid_stack {
	uint32_t *v;
	size_t n, cap;
} kid_stack;

static int parse_shape(hlo_parser *p, uint32_t *id, kid_stack *ks, int depth);

static int parse_tuple(hlo_parser *p, uint32_t *id, kid_stack *ks, int depth)
{
	hlo_module *m = p->m;
	size_t base = ks->n;
	if (hlo_p_next(p) < 0)
		return -1;
	while (p->t.kind != HLO_T_RPAREN) {
		uint32_t kid;
		if (parse_shape(p, &kid, ks, depth + 1) < 0)
			return -1;
		ET_GROW(ks->v, ks->cap, (size_t)ks->n + 1);
		ks->v[ks->n++] = kid;
		if (p->t.kind == HLO_T_COMMA) {
			if (hlo_p_next(p) < 0)
				return -1;
		} else if (p->t.kind != HLO_T_RPAREN) {
			return hlo_p_expected(p, "',' or ')' in a tuple shape");
		}
	}
	hlo_shape s = {
	    .kind = HLO_SH_TUPLE, .n = (uint32_t)(ks->n - base), .off = (uint32_t)m->nkids};
	ET_GROW(m->kids, m->capkids, (size_t)m->nkids + s.n);
	for (size_t k = base; k < ks->n; k++) {
		const hlo_shape *c = &m->shape[ks->v[k]];
		s.elems = et_sat_add(s.elems, c->elems);
		s.bytes = et_sat_add(s.bytes, c->bytes);
		m->kids[m->nkids++] = ks->v[k];
	}
	ks->n = base;
	*id = add_shape(m, &s);
	return hlo_p_next(p);
}

static int parse_shape(hlo_parser *p, uint32_t *id, kid_stack *ks, int depth)
{
	if (depth >= HLO_MAX_DEPTH)
		return hlo_fail(p->m, p->e, p->t.off, "shapes nested deeper than %d",
		                HLO_MAX_DEPTH);
	if (p->t.kind == HLO_T_LPAREN)
		return parse_tuple(p, id, ks, depth);
	if (p->t.kind != HLO_T_WORD || type_bits(p->lx.s + p->t.off, p->t.len) < 0)
		return hlo_p_expected(p, "a shape");
	return parse_array(p, id);
}

int hlo_p_shape(hlo_parser *p, uint32_t *id)
{
	kid_stack ks = {0};
	int r = parse_shape(p, id, &ks, 0);
	free(ks.v);
	return r;
}
