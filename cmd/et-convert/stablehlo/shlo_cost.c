/* shlo_cost: FLOPs, bytes and GEMM extents of compute ops (shlo.h gives
 * the formulas). Types come from each op's own signature. */
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_sat.h"

#include <string.h>

static uint64_t sum_in(const shlo_b *b, const shlo_op *o, bool elems)
{
	uint64_t s = 0;
	for (uint32_t i = 0; i < o->nuse; i++) {
		const shlo_type *t = shlo_in_type(b->p, o, i);
		if (t)
			s = et_sat_add(s, elems ? t->elems : t->bytes);
	}
	return s;
}

static uint64_t sum_out(const shlo_b *b, const shlo_op *o, bool elems)
{
	uint64_t s = 0;
	for (uint32_t j = 0; j < o->nval; j++) {
		const shlo_type *t = shlo_out_type(b->p, o, j);
		if (t)
			s = et_sat_add(s, elems ? t->elems : t->bytes);
	}
	return s;
}

static uint64_t in_elems(const shlo_b *b, const shlo_op *o, uint32_t i)
{
	const shlo_type *t = i < o->nuse ? shlo_in_type(b->p, o, i) : NULL;
	return t ? t->elems : 0;
}

static bool dynamic(const shlo_b *b, const shlo_op *o)
{
	for (uint32_t i = 0; i < o->nty; i++)
		if (b->p->ty[o->ty + i].dynamic)
			return true;
	return false;
}

/* The shaped type of operand i, with its dimensions. */
static int operand(shlo_b *b, const shlo_op *o, uint32_t i, const shlo_type **t)
{
	*t = i < o->nuse ? shlo_in_type(b->p, o, i) : NULL;
	if (!*t || ((*t)->rank == 0 && (*t)->elems > 1))
		return shlo_b_fail(b, o->off, "expected the type of operand %u (a signature)", i);
	return 0;
}

static const uint64_t *dims(const shlo_b *b, const shlo_type *t)
{
	return b->p->dims.v + t->dim;
}

/* Product of t's dimensions listed in sel, or of those not in a nor c
 * (sel NULL). */
static int dims_product(shlo_b *b, const shlo_op *o, const shlo_type *t, const shlo_i64s *sel,
                        const shlo_i64s *a, const shlo_i64s *c, uint64_t *out)
{
	const shlo_i64s *lists[] = {sel, a, c};
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; lists[k] && i < lists[k]->n; i++)
			if (lists[k]->v[i] < 0 || (uint64_t)lists[k]->v[i] >= t->rank)
				return shlo_b_fail(b, o->off,
				                   "dimension %lld out of range (rank %u)",
				                   (long long)lists[k]->v[i], t->rank);
	uint64_t p = 1;
	for (uint32_t d = 0; d < t->rank; d++) {
		bool in_a = false, in_c = false, in_sel = false;
		for (size_t i = 0; sel && i < sel->n; i++)
			in_sel |= sel->v[i] == d;
		for (size_t i = 0; a && i < a->n; i++)
			in_a |= a->v[i] == d;
		for (size_t i = 0; c && i < c->n; i++)
			in_c |= c->v[i] == d;
		if (sel ? in_sel : !in_a && !in_c)
			p = et_sat_mul(p, dims(b, t)[d]);
	}
	*out = p;
	return 0;
}

static int dot_dims(shlo_b *b, const shlo_op *o, shlo_dotdims *d)
{
	const shlo_attr *a = shlo_find_attr(b->p, o, "dot_dimension_numbers");
	if (a && a->val != SIZE_MAX)
		return shlo_attr_dot(&b->l, a->val, d);
	a = shlo_find_attr(b->p, o, "contracting_dims");
	if (a && a->val != SIZE_MAX && shlo_attr_list_pair(&b->l, a->val, &d->lc, &d->rc) < 0)
		return -1;
	a = shlo_find_attr(b->p, o, "batching_dims");
	if (a && a->val != SIZE_MAX && shlo_attr_list_pair(&b->l, a->val, &d->lb, &d->rb) < 0)
		return -1;
	return 0;
}

static int dot_general(shlo_b *b, const shlo_op *o, xir_op *xo)
{
	const shlo_type *l, *r;
	shlo_dotdims d;
	memset(&d, 0, sizeof d);
	int rc = operand(b, o, 0, &l) < 0 || operand(b, o, 1, &r) < 0 || dot_dims(b, o, &d) < 0;
	uint64_t m = 0, n = 0, k = 0, batch = 0;
	if (!rc)
		rc = dims_product(b, o, l, &d.lc, NULL, NULL, &k) < 0 ||
		     dims_product(b, o, l, &d.lb, NULL, NULL, &batch) < 0 ||
		     dims_product(b, o, l, NULL, &d.lb, &d.lc, &m) < 0 ||
		     dims_product(b, o, r, NULL, &d.rb, &d.rc, &n) < 0 ||
		     dims_product(b, o, r, &d.rc, NULL, NULL, &(uint64_t){0}) < 0;
	shlo_dotdims_free(&d);
	if (rc)
		return -1;
	xo->flops = et_sat_mul(et_sat_mul(2, sum_out(b, o, true)), k);
	xo->gemm[0] = m;
	xo->gemm[1] = n;
	xo->gemm[2] = k;
	xo->gemm[3] = batch;
	return 0;
}

/* dot: [m x k] or [k] times [k x n] or [k]. */
static int dot(shlo_b *b, const shlo_op *o, xir_op *xo)
{
	const shlo_type *l, *r;
	if (operand(b, o, 0, &l) < 0 || operand(b, o, 1, &r) < 0)
		return -1;
	if (l->rank < 1 || l->rank > 2 || r->rank < 1 || r->rank > 2)
		return shlo_b_fail(b, o->off, "dot takes vectors or matrices");
	uint64_t k = dims(b, l)[l->rank - 1];
	xo->gemm[0] = l->rank == 2 ? dims(b, l)[0] : 1;
	xo->gemm[1] = r->rank == 2 ? dims(b, r)[1] : 1;
	xo->gemm[2] = k;
	xo->gemm[3] = 1;
	xo->flops = et_sat_mul(et_sat_mul(2, sum_out(b, o, true)), k);
	return 0;
}

static int conv(shlo_b *b, const shlo_op *o, xir_op *xo)
{
	const shlo_type *kt;
	const shlo_attr *a = shlo_find_attr(b->p, o, "dim_numbers");
	if (!a)
		a = shlo_find_attr(b->p, o, "dimension_numbers");
	if (!a || a->val == SIZE_MAX)
		return shlo_b_fail(b, o->off, "expected the convolution's dimension numbers");
	shlo_convdims c;
	if (operand(b, o, 1, &kt) < 0 || shlo_attr_conv(&b->l, a->val, &c) < 0)
		return -1;
	uint64_t f = et_sat_mul(2, sum_out(b, o, true));
	if ((uint64_t)c.kin >= kt->rank)
		return shlo_b_fail(b, o->off, "kernel dimension %lld out of range (rank %u)",
		                   (long long)c.kin, kt->rank);
	f = et_sat_mul(f, dims(b, kt)[c.kin]);
	for (uint32_t i = 0; i < c.nksp; i++) {
		if (c.ksp[i] < 0 || (uint64_t)c.ksp[i] >= kt->rank)
			return shlo_b_fail(b, o->off,
			                   "kernel dimension %lld out of range (rank %u)",
			                   (long long)c.ksp[i], kt->rank);
		f = et_sat_mul(f, dims(b, kt)[c.ksp[i]]);
	}
	xo->flops = f;
	return 0;
}

/* The product of window_dimensions (1 without). */
static int window(shlo_b *b, const shlo_op *o, uint64_t *w)
{
	const shlo_attr *a = shlo_find_attr(b->p, o, "window_dimensions");
	*w = 1;
	if (!a || a->val == SIZE_MAX)
		return 0;
	if (shlo_attr_list(&b->l, a->val, &b->m) < 0)
		return -1;
	for (size_t i = 0; i < b->m.n; i++)
		*w = et_sat_mul(*w, b->m.v[i] > 0 ? (uint64_t)b->m.v[i] : 0);
	return 0;
}

static int flops(shlo_b *b, const shlo_op *o, xir_op *xo)
{
	uint64_t w;
	switch (o->kind) {
	case SHLO_OP_ELEM:
	case SHLO_OP_ADD:
	case SHLO_OP_SUB:
	case SHLO_OP_COMPARE:
		xo->flops = sum_out(b, o, true);
		return 0;
	case SHLO_OP_DOT:
		return dot(b, o, xo);
	case SHLO_OP_DOT_GENERAL:
		return dot_general(b, o, xo);
	case SHLO_OP_CONV:
		return conv(b, o, xo);
	case SHLO_OP_REDUCE:
		xo->flops = in_elems(b, o, 0);
		return 0;
	case SHLO_OP_RWINDOW:
		if (window(b, o, &w) < 0)
			return -1;
		xo->flops = et_sat_mul(sum_out(b, o, true), w);
		return 0;
	case SHLO_OP_SELSCAT:
		if (window(b, o, &w) < 0)
			return -1;
		xo->flops = et_sat_mul(in_elems(b, o, 1), w);
		return 0;
	case SHLO_OP_SCATTER:
		xo->flops = o->nuse ? in_elems(b, o, o->nuse - 1) : 0;
		return 0;
	case SHLO_OP_BNORM:
		xo->flops = in_elems(b, o, 0);
		return 0;
	default:
		return 0;
	}
}

int shlo_cost(shlo_b *b, uint32_t id, xir_op *xo)
{
	const shlo_op *o = &b->p->op[id];
	xo->kind = XIR_COMP;
	xo->bytes = et_sat_add(sum_in(b, o, false), sum_out(b, o, false));
	if (!b->warned_dynamic && dynamic(b, o)) {
		b->warned_dynamic = true;
		shlo_b_warn(b, o->off, "dynamic dimensions ('?') counted as 1");
	}
	return flops(b, o, xo);
}
