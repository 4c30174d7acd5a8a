/* shlo_attr: attribute values read again from the text (shlo_attr.h). */
#include "et-convert/stablehlo/shlo_attr.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

/* Matrices (replica groups, pairs) above this many elements are refused. */
#define MAX_MATRIX (1u << 24)

void shlo_i64s_push(shlo_i64s *a, int64_t x)
{
	ET_GROW(a->v, a->cap, (size_t)a->n + 1);
	a->v[a->n++] = x;
}

void shlo_i64s_free(shlo_i64s *a)
{
	free(a->v);
	memset(a, 0, sizeof *a);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool shlo_tok_int(const shlo_tok *t, int64_t *v)
{
	if (t->kind == SHLO_T_WORD && (shlo_tok_is(t, "true") || shlo_tok_is(t, "false"))) {
		*v = shlo_tok_is(t, "true");
		return true;
	}
	if (t->kind != SHLO_T_NUM)
		return false;
	bool neg = t->p[0] == '-';
	uint32_t i = neg;
	bool hex = t->n > i + 2 && t->p[i] == '0' && (t->p[i + 1] == 'x' || t->p[i + 1] == 'X');
	unsigned base = hex ? 16 : 10;
	uint64_t u = 0;
	for (i += hex ? 2 : 0; i < t->n; i++) {
		int d = hexval(t->p[i]);
		if (d < 0 || (unsigned)d >= base || u > (UINT64_MAX - (unsigned)d) / base)
			return false;
		u = u * base + (unsigned)d;
	}
	if (u > (uint64_t)INT64_MAX + neg)
		return false;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return true;
}

static int next(shlo_lex *l)
{
	return shlo_lex_next(l);
}

/* An integer at cur, consumed. */
static int cur_int(shlo_lex *l, int64_t *v)
{
	if (!shlo_tok_int(&l->cur, v))
		return shlo_fail(l, "expected an integer");
	return next(l);
}

/* Integers up to `close` (left at cur), comma-separated; at most MAX_MATRIX
 * in v, so a long list cannot grow memory without bound. */
static int cur_ints(shlo_lex *l, shlo_i64s *v, char close)
{
	while (!shlo_is(l, close)) {
		int64_t x;
		if (v->n >= MAX_MATRIX)
			return shlo_fail(l, "more than %u elements", MAX_MATRIX);
		if (cur_int(l, &x) < 0)
			return -1;
		shlo_i64s_push(v, x);
		if (shlo_sep(l, close, "") < 0)
			return -1;
	}
	return 0;
}

/* [a, b, ...] at cur. */
static int cur_list(shlo_lex *l, shlo_i64s *v)
{
	if (shlo_expect(l, '[') < 0 || cur_ints(l, v, ']') < 0)
		return -1;
	return next(l);
}

/* [[...], [...]] or [...] at cur: rows of equal length. */
static int cur_rows(shlo_lex *l, shlo_i64s *m, uint32_t *rows, uint32_t *cols)
{
	*rows = *cols = 0;
	if (shlo_expect(l, '[') < 0)
		return -1;
	if (!shlo_is(l, '[')) { /* one row */
		if (cur_ints(l, m, ']') < 0)
			return -1;
		*rows = m->n ? 1 : 0;
		*cols = (uint32_t)m->n;
		return next(l);
	}
	while (shlo_is(l, '[')) {
		size_t before = m->n;
		if (cur_list(l, m) < 0)
			return -1;
		uint32_t n = (uint32_t)(m->n - before);
		if (*rows && n != *cols)
			return shlo_fail(l, "rows of different lengths (%u and %u)", *cols, n);
		*cols = n;
		(*rows)++;
		if (shlo_is(l, ',') && next(l) < 0)
			return -1;
	}
	return shlo_expect(l, ']');
}

/* Little-endian elements of width w bytes from a "0x..." token. */
static int hex_elems(shlo_lex *l, const shlo_tok *t, uint64_t w, shlo_i64s *m)
{
	const char *h = t->p + 3; /* past "0x */
	size_t nd = t->n >= 4 ? t->n - 4 : 0;
	if (t->n < 4 || t->p[1] != '0' || (t->p[2] != 'x' && t->p[2] != 'X') || nd % 2 || w == 0 ||
	    w > 8 || (nd / 2) % w)
		return shlo_fail(l, "expected hexadecimal elements \"0x...\" of %llu bytes each",
		                 (unsigned long long)w);
	size_t n = nd / 2 / w;
	if (n > MAX_MATRIX)
		return shlo_fail(l, "a matrix larger than %u elements", MAX_MATRIX);
	for (size_t e = 0; e < n; e++) {
		uint64_t u = 0;
		for (size_t b = w; b-- > 0;) {
			int hi = hexval(h[2 * (e * w + b)]), lo = hexval(h[2 * (e * w + b) + 1]);
			if (hi < 0 || lo < 0)
				return shlo_fail(l, "expected hexadecimal digits");
			u = u << 8 | (uint64_t)(hi << 4 | lo);
		}
		if (w < 8 && (u >> (8 * w - 1)) & 1) /* sign-extend */
			u |= ~(uint64_t)0 << (8 * w);
		shlo_i64s_push(m, (int64_t)u);
	}
	return 0;
}

typedef struct dense {
	int form; /* 0 list, 1 splat, 2 hex, 3 empty */
	int64_t splat;
	shlo_tok hex;
	uint32_t rows, cols;
} dense;

static int dense_body(shlo_lex *l, shlo_i64s *m, dense *d)
{
	if (!shlo_is_word(l, "dense"))
		return shlo_fail(l, "expected dense<...>");
	if (next(l) < 0 || shlo_expect(l, '<') < 0)
		return -1;
	if (shlo_is(l, '[')) {
		d->form = 0;
		if (cur_rows(l, m, &d->rows, &d->cols) < 0)
			return -1;
	} else if (l->cur.kind == SHLO_T_STR) {
		d->form = 2;
		d->hex = l->cur;
		if (next(l) < 0)
			return -1;
	} else if (shlo_is(l, '>')) {
		d->form = 3;
	} else {
		d->form = 1;
		if (cur_int(l, &d->splat) < 0)
			return -1;
	}
	return shlo_expect(l, '>');
}

/* The shape and element width of the ": tensor<...>" after a dense. */
static int dense_type(shlo_lex *l, uint32_t *r, uint32_t *c, uint64_t *w, bool *typed)
{
	*typed = shlo_is(l, ':');
	if (!*typed)
		return 0;
	shlo_dims dims = {0};
	shlo_type t;
	int rc = next(l) < 0 ? -1 : shlo_type_parse(l, &dims, &t);
	if (rc == 0 && (t.rank > 2 || t.elems > MAX_MATRIX))
		rc = shlo_fail(l, "expected a 2-D integer matrix of at most %u elements",
		               MAX_MATRIX);
	if (rc == 0) {
		*r = t.rank == 2 ? (uint32_t)dims.v[t.dim] : 1;
		*c = t.rank == 2   ? (uint32_t)dims.v[t.dim + 1]
		     : t.rank == 1 ? (uint32_t)dims.v[t.dim]
		                   : 1;
		*w = t.elems ? t.bytes / t.elems : 0;
		if (t.elems == 0)
			*r = *c = 0;
	}
	shlo_dims_free(&dims);
	return rc;
}

int shlo_attr_matrix(shlo_lex *l, size_t off, shlo_i64s *m, uint32_t *rows, uint32_t *cols)
{
	dense d = {0};
	uint32_t tr = 0, tc = 0;
	uint64_t w = 0;
	bool typed;
	m->n = 0;
	if (shlo_lex_seek(l, off) < 0 || dense_body(l, m, &d) < 0 ||
	    dense_type(l, &tr, &tc, &w, &typed) < 0)
		return -1;
	*rows = typed ? tr : d.rows;
	*cols = typed ? tc : d.cols;
	if (d.form == 3 || *rows == 0 || *cols == 0) {
		*rows = *cols = 0;
		m->n = 0;
		return 0;
	}
	if (d.form == 1)
		for (uint64_t i = 0; i < (uint64_t)*rows * *cols; i++)
			shlo_i64s_push(m, d.splat);
	if (d.form == 2) {
		if (!typed)
			return shlo_fail(l, "expected the type of hexadecimal elements");
		if (hex_elems(l, &d.hex, w, m) < 0)
			return -1;
		if (m->n == 1)
			for (uint64_t i = 1; i < (uint64_t)*rows * *cols; i++)
				shlo_i64s_push(m, m->v[0]);
	}
	if (m->n != (uint64_t)*rows * *cols)
		return shlo_fail_at(l->e, l->name, l->s, off,
		                    "%zu elements where the type says %u x %u", m->n, *rows, *cols);
	return 0;
}

int shlo_attr_list(shlo_lex *l, size_t off, shlo_i64s *v)
{
	v->n = 0;
	if (shlo_lex_seek(l, off) < 0)
		return -1;
	if (shlo_is(l, '['))
		return cur_list(l, v);
	if (shlo_is_word(l, "array")) { /* array<i64: 1, 2> */
		if (next(l) < 0 || shlo_expect(l, '<') < 0 || next(l) < 0)
			return -1;
		if (shlo_is(l, ':') && next(l) < 0)
			return -1;
		return cur_ints(l, v, '>');
	}
	uint32_t r, c;
	return shlo_attr_matrix(l, off, v, &r, &c);
}

int shlo_attr_list_pair(shlo_lex *l, size_t off, shlo_i64s *a, shlo_i64s *b)
{
	a->n = b->n = 0;
	if (shlo_lex_seek(l, off) < 0 || cur_list(l, a) < 0)
		return -1;
	if (!shlo_is_word(l, "x"))
		return shlo_fail(l, "expected 'x' between the two lists");
	return next(l) < 0 ? -1 : cur_list(l, b);
}

int shlo_attr_int(shlo_lex *l, size_t off, int64_t *v)
{
	if (shlo_lex_seek(l, off) < 0)
		return -1;
	return cur_int(l, v);
}

/* key = int pairs up to the closing c ('>' or '}'): the one named key. */
static int int_fields(shlo_lex *l, char c, const char *key, int64_t *v)
{
	while (!shlo_is(l, c)) {
		bool mine = shlo_is_word(l, key);
		int64_t x;
		if (l->cur.kind != SHLO_T_WORD)
			return shlo_fail(l, "expected a field name");
		if (next(l) < 0 || shlo_expect(l, '=') < 0 || cur_int(l, &x) < 0)
			return -1;
		if (mine)
			*v = x;
		if (shlo_is(l, ':') && (next(l) < 0 || next(l) < 0)) /* ": i64" */
			return -1;
		if (shlo_is(l, ',') && next(l) < 0)
			return -1;
	}
	return 0;
}

int shlo_attr_channel(shlo_lex *l, size_t off, int64_t *handle)
{
	*handle = 0;
	if (shlo_lex_seek(l, off) < 0)
		return -1;
	if (l->cur.kind == SHLO_T_ATTR) {
		if (next(l) < 0 || shlo_expect(l, '<') < 0)
			return -1;
		return int_fields(l, '>', "handle", handle);
	}
	if (shlo_is(l, '{'))
		return next(l) < 0 ? -1 : int_fields(l, '}', "handle", handle);
	return shlo_fail(l, "expected a channel handle");
}

void shlo_dotdims_free(shlo_dotdims *d)
{
	shlo_i64s_free(&d->lb);
	shlo_i64s_free(&d->rb);
	shlo_i64s_free(&d->lc);
	shlo_i64s_free(&d->rc);
}

static shlo_i64s *dot_field(shlo_lex *l, shlo_dotdims *d)
{
	if (shlo_is_word(l, "lhs_batching_dimensions"))
		return &d->lb;
	if (shlo_is_word(l, "rhs_batching_dimensions"))
		return &d->rb;
	if (shlo_is_word(l, "lhs_contracting_dimensions"))
		return &d->lc;
	if (shlo_is_word(l, "rhs_contracting_dimensions"))
		return &d->rc;
	return NULL;
}

int shlo_attr_dot(shlo_lex *l, size_t off, shlo_dotdims *d)
{
	if (shlo_lex_seek(l, off) < 0)
		return -1;
	if (l->cur.kind != SHLO_T_ATTR)
		return shlo_fail(l, "expected #stablehlo.dot<...>");
	if (next(l) < 0 || shlo_expect(l, '<') < 0)
		return -1;
	while (!shlo_is(l, '>')) {
		shlo_i64s *v = dot_field(l, d), skip = {0};
		if (l->cur.kind != SHLO_T_WORD)
			return shlo_fail(l, "expected a dimension field");
		if (next(l) < 0 || shlo_expect(l, '=') < 0)
			return -1;
		int r = cur_list(l, v ? v : &skip);
		shlo_i64s_free(&skip);
		if (r < 0)
			return -1;
		if (shlo_is(l, ',') && next(l) < 0)
			return -1;
	}
	return 0;
}

/* [0, 1, i, o]: the kernel's layout, each position a dimension. */
static int kernel_layout(shlo_lex *l, shlo_convdims *c)
{
	if (shlo_expect(l, '[') < 0)
		return -1;
	for (int64_t pos = 0; !shlo_is(l, ']'); pos++) {
		const shlo_tok *t = &l->cur;
		if (pos >= SHLO_MAX_RANK)
			return shlo_fail(l, "a kernel of more than %d dimensions", SHLO_MAX_RANK);
		if (t->kind == SHLO_T_NUM)
			c->ksp[c->nksp++] = pos;
		else if (shlo_tok_is(t, "i"))
			c->kin = pos;
		else if (!shlo_tok_is(t, "o"))
			return shlo_fail(l, "expected a kernel dimension (a digit, i or o)");
		if (next(l) < 0)
			return -1;
		if (shlo_is(l, ',') && next(l) < 0)
			return -1;
	}
	return next(l);
}

/* [b, 0, f]x[0, i, o]->[b, 0, f] at cur. */
static int conv_compact(shlo_lex *l, shlo_convdims *c)
{
	if (!shlo_is(l, '['))
		return shlo_fail(l,
		                 "expected convolution dimension numbers [b, 0, f]x[0, i, o]->...");
	if (shlo_skip_balanced(l) < 0)
		return -1;
	if (!shlo_is_word(l, "x"))
		return shlo_fail(l, "expected 'x' and the kernel's layout");
	return next(l) < 0 ? -1 : kernel_layout(l, c);
}

/* #stablehlo.conv<raw kernel_input_feature_dimension = 2, ...>. */
static int conv_raw(shlo_lex *l, shlo_convdims *c)
{
	while (!shlo_is(l, '>')) {
		bool kin = shlo_is_word(l, "kernel_input_feature_dimension");
		bool ksp = shlo_is_word(l, "kernel_spatial_dimensions");
		if (l->cur.kind != SHLO_T_WORD)
			return shlo_fail(l, "expected a dimension field");
		if (next(l) < 0 || shlo_expect(l, '=') < 0)
			return -1;
		if (shlo_is(l, '[')) {
			shlo_i64s v = {0};
			int r = cur_list(l, &v);
			for (size_t i = 0; r == 0 && ksp && i < v.n && i < SHLO_MAX_RANK; i++)
				c->ksp[c->nksp++] = v.v[i];
			shlo_i64s_free(&v);
			if (r < 0)
				return -1;
		} else {
			int64_t x;
			if (cur_int(l, &x) < 0)
				return -1;
			if (kin)
				c->kin = x;
		}
		if (shlo_is(l, ',') && next(l) < 0)
			return -1;
	}
	return 0;
}

int shlo_attr_conv(shlo_lex *l, size_t off, shlo_convdims *c)
{
	memset(c, 0, sizeof *c);
	c->kin = -1;
	if (shlo_lex_seek(l, off) < 0)
		return -1;
	int r;
	if (l->cur.kind == SHLO_T_ATTR) {
		if (next(l) < 0 || shlo_expect(l, '<') < 0)
			return -1;
		if (shlo_is_word(l, "raw"))
			r = next(l) < 0 ? -1 : conv_raw(l, c);
		else
			r = conv_compact(l, c);
	} else {
		r = conv_compact(l, c);
	}
	if (r == 0 && c->kin < 0)
		return shlo_fail_at(l->e, l->name, l->s, off,
		                    "expected the kernel's input feature dimension");
	return r;
}

int shlo_attr_direction(shlo_lex *l, size_t off)
{
	static const char *const dir[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
	if (shlo_lex_seek(l, off) < 0)
		return SHLO_CMP_NONE;
	for (int k = 0; k < 6 && l->cur.kind != SHLO_T_EOF; k++) {
		for (int d = 0; d < 6; d++)
			if (shlo_is_word(l, dir[d]))
				return SHLO_CMP_EQ + d;
		if (next(l) < 0)
			return SHLO_CMP_NONE;
	}
	return SHLO_CMP_NONE;
}

int shlo_attr_scalar(shlo_lex *l, size_t off, int64_t *v, bool *ok)
{
	*ok = false;
	if (shlo_lex_seek(l, off) < 0)
		return -1;
	for (int k = 0; k < 4 && !shlo_is_word(l, "dense"); k++) {
		if (l->cur.kind == SHLO_T_EOF)
			return 0;
		if (next(l) < 0)
			return -1;
	}
	if (!shlo_is_word(l, "dense") || next(l) < 0 || !shlo_is(l, '<') || next(l) < 0)
		return 0;
	int64_t x;
	if (!shlo_tok_int(&l->cur, &x) || shlo_is_word(l, "true") || shlo_is_word(l, "false"))
		return 0;
	if (next(l) < 0)
		return -1;
	*ok = shlo_is(l, '>');
	*v = x;
	return 0;
}

int shlo_attr_programs(shlo_lex *l, size_t off, uint32_t *rows, uint32_t *cols, bool *same,
                       size_t *sym, uint32_t *slen)
{
	*rows = *cols = 0;
	*same = true;
	*slen = 0;
	if (shlo_lex_seek(l, off) < 0 || shlo_expect(l, '[') < 0)
		return -1;
	while (shlo_is(l, '[')) {
		uint32_t n = 0;
		if (next(l) < 0)
			return -1;
		while (!shlo_is(l, ']')) {
			const shlo_tok *t = &l->cur;
			if (t->kind != SHLO_T_SYM)
				return shlo_fail(l, "expected a function (@name)");
			if (!*slen) {
				*sym = t->off + 1;
				*slen = t->n - 1;
			} else if (t->n - 1 != *slen || memcmp(t->p + 1, l->s + *sym, *slen) != 0) {
				*same = false;
			}
			n++;
			if (next(l) < 0)
				return -1;
			if (shlo_is(l, ',') && next(l) < 0)
				return -1;
		}
		if (*rows && n != *cols)
			return shlo_fail(l, "rows of different lengths (%u and %u)", *cols, n);
		*cols = n;
		(*rows)++;
		if (next(l) < 0)
			return -1;
		if (shlo_is(l, ',') && next(l) < 0)
			return -1;
	}
	return shlo_expect(l, ']');
}
