/* shlo_type: types as sizes (shlo_type.h). A tensor's inside is read
 * character by character: "4x8xbf16" is one token to the lexer. */
#include "et-convert/stablehlo/shlo_type.h"
#include "et_mem.h"
#include "et_sat.h"

#include <stdlib.h>
#include <string.h>

void shlo_dims_free(shlo_dims *d)
{
	free(d->v);
	memset(d, 0, sizeof *d);
}

static void dims_push(shlo_dims *d, uint64_t v)
{
	ET_GROW(d->v, d->cap, (size_t)d->n + 1);
	d->v[d->n++] = v;
}

static bool eq(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* The N of "iN", "siN", "uiN", "uN" (prefix already skipped); 0 if not. */
static unsigned bit_width(const char *w, size_t n)
{
	unsigned v = 0;
	if (n == 0 || n > 5)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (w[i] < '0' || w[i] > '9')
			return 0;
		v = v * 10 + (unsigned)(w[i] - '0');
	}
	return v;
}

static uint64_t int_bytes(unsigned bits, bool *ok)
{
	*ok = bits > 0;
	return bits <= 8 ? 1 : (bits + 7) / 8;
}

uint64_t shlo_elem_bytes(const char *w, size_t n, bool *ok)
{
	*ok = true;
	if (eq(w, n, "index"))
		return 8;
	if (n >= 2 && w[0] == 'i')
		return int_bytes(bit_width(w + 1, n - 1), ok);
	if (n >= 3 && (w[0] == 's' || w[0] == 'u') && w[1] == 'i')
		return int_bytes(bit_width(w + 2, n - 2), ok);
	if (n >= 2 && w[0] == 'u') /* quant storage types: u8 */
		return int_bytes(bit_width(w + 1, n - 1), ok);
	if (eq(w, n, "f16") || eq(w, n, "bf16"))
		return 2;
	if (eq(w, n, "f32") || eq(w, n, "tf32"))
		return 4;
	if (eq(w, n, "f64"))
		return 8;
	if (eq(w, n, "f80"))
		return 10;
	if (eq(w, n, "f128"))
		return 16;
	/* f4E2M1FN, f6E2M3FN, f6E3M2FN, f8E4M3FN, f8E5M2, f8E8M0FNU, ... */
	if (n > 2 && w[0] == 'f' && (w[1] == '4' || w[1] == '6' || w[1] == '8') && w[2] == 'E')
		return 1;
	*ok = false;
	return 0;
}

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static size_t skip_sp(const shlo_lex *l, size_t i)
{
	while (i < l->len &&
	       (l->s[i] == ' ' || l->s[i] == '\t' || l->s[i] == '\n' || l->s[i] == '\r'))
		i++;
	return i;
}

/* Past the '>' matching the '<' at s[i]; SIZE_MAX when there is none.
 * Strings and "->" are not brackets. */
static size_t angle_end(const shlo_lex *l, size_t i)
{
	size_t depth = 0;
	for (; i < l->len; i++) {
		char c = l->s[i];
		if (c == '"') {
			for (i++; i < l->len && l->s[i] != '"'; i++)
				if (l->s[i] == '\\')
					i++;
		} else if (c == '<') {
			depth++;
		} else if (c == '>' && l->s[i - 1] != '-' && --depth == 0) {
			return i + 1;
		}
	}
	return SIZE_MAX;
}

static int fail_at(shlo_lex *l, size_t off, const char *what)
{
	return shlo_fail_at(l->e, l->name, l->s, off, "%s", what);
}

static size_t word_end(const shlo_lex *l, size_t i, bool dots)
{
	while (i < l->len && (alnum(l->s[i]) || (dots && l->s[i] == '.')))
		i++;
	return i;
}

/* !quant.uniform<STORAGE...> or another dialect type at s[i] == '!'. */
static int dialect_elem(shlo_lex *l, size_t *i, uint64_t *eb)
{
	size_t start = *i, k = word_end(l, *i + 1, true);
	bool quant = k - start > 7 && memcmp(l->s + start, "!quant.", 7) == 0;
	*eb = 0;
	if (k < l->len && l->s[k] == '<') {
		size_t end = angle_end(l, k);
		if (end == SIZE_MAX)
			return fail_at(l, start, "unterminated '<' in a type");
		if (quant) {
			size_t w = skip_sp(l, k + 1), we = word_end(l, w, false);
			bool ok;
			*eb = shlo_elem_bytes(l->s + w, we - w, &ok);
			if (!ok)
				return fail_at(l, w,
				               "expected a quantized storage type (i8, u8, ...)");
		}
		k = end;
	}
	*i = k;
	return 0;
}

/* An element type at s[*i]: its bytes per element. */
static int elem(shlo_lex *l, size_t *i, uint64_t *eb)
{
	size_t start = *i;
	if (start < l->len && l->s[start] == '!')
		return dialect_elem(l, i, eb);
	size_t k = word_end(l, start, false);
	bool ok = false;
	if (k - start == 7 && memcmp(l->s + start, "complex", 7) == 0 && k < l->len &&
	    l->s[k] == '<') {
		size_t w = skip_sp(l, k + 1), we = word_end(l, w, false);
		*eb = et_sat_mul(2, shlo_elem_bytes(l->s + w, we - w, &ok));
		we = skip_sp(l, we);
		if (!ok || we >= l->len || l->s[we] != '>')
			return fail_at(l, w, "expected complex<f32> or complex<f64>");
		*i = we + 1;
		return 0;
	}
	*eb = shlo_elem_bytes(l->s + start, k - start, &ok);
	if (!ok)
		return fail_at(l, start, "expected an element type (f32, bf16, i8, ...)");
	*i = k;
	return 0;
}

/* The dimensions of a shape "4x?x8x" from s[*i]. */
static int shape(shlo_lex *l, size_t *i, shlo_dims *dims, shlo_type *t)
{
	size_t k = *i;
	for (;;) {
		k = skip_sp(l, k);
		if (k >= l->len)
			return fail_at(l, k, "unexpected end of input in a tensor type");
		char c = l->s[k];
		uint64_t v = 1;
		if (c >= '0' && c <= '9') {
			v = 0;
			for (; k < l->len && l->s[k] >= '0' && l->s[k] <= '9'; k++)
				v = et_sat_add(et_sat_mul(v, 10), (uint64_t)(l->s[k] - '0'));
		} else if (c == '?' || c == '*') {
			t->dynamic = true;
			k++;
		} else {
			break;
		}
		if (k >= l->len || l->s[k] != 'x')
			return fail_at(l, k, "expected 'x' after a dimension");
		k++;
		if (c == '*')
			continue;
		if (++t->rank > SHLO_MAX_RANK)
			return fail_at(l, *i, "tensor rank above 64");
		t->elems = et_sat_mul(t->elems, v);
		if (dims)
			dims_push(dims, v);
	}
	*i = k;
	return 0;
}

/* tensor<...> / vector<...> / memref<...>: the word is cur, '<' next. */
static int tensor(shlo_lex *l, shlo_dims *dims, shlo_type *t)
{
	size_t open = skip_sp(l, l->pos);
	if (open >= l->len || l->s[open] != '<')
		return fail_at(l, open, "expected '<' after a shaped type's name");
	size_t i = open + 1;
	t->dim = dims ? (uint32_t)dims->n : 0;
	uint64_t eb;
	if (shape(l, &i, dims, t) < 0 || elem(l, &i, &eb) < 0)
		return -1;
	if (!dims)
		t->rank = 0;
	t->bytes = et_sat_mul(t->elems, eb);
	i = skip_sp(l, i);
	if (i < l->len && l->s[i] == ',') { /* an encoding: bounds, sparsity */
		size_t end = angle_end(l, open);
		if (end == SIZE_MAX)
			return fail_at(l, open, "unterminated '<' in a type");
		i = end - 1;
	}
	if (i >= l->len || l->s[i] != '>')
		return fail_at(l, i, "expected '>' to end the tensor type");
	return shlo_lex_seek(l, i + 1);
}

/* A type that is not a tuple, at cur. */
static int single(shlo_lex *l, shlo_dims *dims, shlo_type *t)
{
	const shlo_tok *c = &l->cur;
	memset(t, 0, sizeof *t);
	t->elems = 1;
	if (c->kind == SHLO_T_WORD &&
	    (shlo_tok_is(c, "tensor") || shlo_tok_is(c, "vector") || shlo_tok_is(c, "memref")))
		return tensor(l, dims, t);
	if (c->kind == SHLO_T_TYPE) {
		size_t i = c->off;
		bool token = shlo_tok_is(c, "!stablehlo.token") || shlo_tok_is(c, "!mhlo.token");
		if (dialect_elem(l, &i, &t->bytes) < 0)
			return -1;
		t->elems = token ? 0 : 1;
		return shlo_lex_seek(l, i);
	}
	if (c->kind == SHLO_T_WORD) {
		size_t i = c->off;
		if (shlo_tok_is(c, "none") || shlo_tok_is(c, "token")) {
			t->elems = 0;
			return shlo_lex_next(l);
		}
		if (elem(l, &i, &t->bytes) < 0)
			return -1;
		return shlo_lex_seek(l, i);
	}
	return shlo_fail(l, "expected a type");
}

bool shlo_type_starts(const shlo_lex *l)
{
	return l->cur.kind == SHLO_T_WORD || l->cur.kind == SHLO_T_TYPE;
}

static bool tuple_open(shlo_lex *l)
{
	size_t k = skip_sp(l, l->pos);
	return shlo_is_word(l, "tuple") && k < l->len && l->s[k] == '<';
}

static void add(shlo_type *sum, const shlo_type *t)
{
	sum->elems = et_sat_add(sum->elems, t->elems);
	sum->bytes = et_sat_add(sum->bytes, t->bytes);
	sum->dynamic |= t->dynamic;
}

/* tuple<...> with tuples inside, kept as a depth count: no recursion. */
static int tuple(shlo_lex *l, shlo_dims *dims, shlo_type *t)
{
	unsigned depth = 0;
	memset(t, 0, sizeof *t);
	for (;;) {
		while (tuple_open(l)) {
			if (++depth > SHLO_MAX_NEST)
				return shlo_fail(l, "tuple types nested deeper than %d",
				                 SHLO_MAX_NEST);
			if (shlo_lex_seek(l, skip_sp(l, l->pos) + 1) < 0)
				return -1;
		}
		if (!shlo_is(l, '>')) {
			shlo_type m;
			if (single(l, dims, &m) < 0)
				return -1;
			add(t, &m);
		}
		for (;;) {
			if (shlo_is(l, ',')) {
				if (shlo_lex_next(l) < 0)
					return -1;
				break;
			}
			if (!shlo_is(l, '>'))
				return shlo_fail(l, "expected ',' or '>' in a tuple type");
			if (shlo_lex_next(l) < 0)
				return -1;
			if (--depth == 0) {
				t->rank = 0;
				return 0;
			}
		}
	}
}

int shlo_type_parse(shlo_lex *l, shlo_dims *dims, shlo_type *t)
{
	if (tuple_open(l))
		return tuple(l, dims, t);
	return single(l, dims, t);
}
