/* hlo_cost: FLOPs, bytes and GEMM extents (hlo_cost.h). */
#include "et-convert/hlo/hlo_cost.h"
#include "et_sat.h"

#include <string.h>

static const hlo_shape *array_of(const hlo_module *m, uint32_t i)
{
	const hlo_shape *s = hlo_shape_of(m, i);
	return s->kind == HLO_SH_ARRAY ? s : NULL;
}

static uint64_t opnd_bytes(const hlo_module *m, const hlo_inst *in, uint32_t from, uint32_t to)
{
	uint64_t b = 0;
	for (uint32_t k = from; k < to && k < in->nopnd; k++)
		b = et_sat_add(b, hlo_shape_of(m, hlo_opnd(m, in, k))->bytes);
	return b;
}

/* Element 0 of a tuple shape (custom-call results, recv), else the shape. */
static const hlo_shape *first_elem(const hlo_module *m, const hlo_shape *s)
{
	return s->kind == HLO_SH_TUPLE && s->n ? &m->shape[m->kids[s->off]] : s;
}

/* The output of an X-start: copy-start copies its operand; the generic
 * ((operands), outputs, state) tuple holds its outputs second. */
static uint64_t start_result_bytes(const hlo_module *m, const hlo_inst *in)
{
	const hlo_shape *s = &m->shape[in->shape];
	if (in->op == HLO_OP_COPY)
		return opnd_bytes(m, in, 0, 1);
	if (s->kind == HLO_SH_TUPLE && s->n >= 2 && m->shape[m->kids[s->off]].kind == HLO_SH_TUPLE)
		return m->shape[m->kids[s->off + 1]].bytes;
	return s->bytes;
}

typedef struct dot_dims {
	const int64_t *d[4]; /* lhs contracting, rhs contracting, lhs batch, rhs batch */
	uint32_t n[4];
} dot_dims;

static bool listed(const int64_t *l, uint32_t n, uint32_t j)
{
	for (uint32_t k = 0; k < n; k++)
		if (l[k] == (int64_t)j)
			return true;
	return false;
}

/* M, N, K, batch of a matrix product; false if a dimension number is out
 * of range. */
static bool dot_extents(const hlo_module *m, const hlo_shape *l, const hlo_shape *r,
                        const dot_dims *d, uint64_t g[4])
{
	const uint64_t *ld = m->dims ? m->dims + l->off : NULL,
	               *rd = m->dims ? m->dims + r->off : NULL;
	for (int k = 0; k < 4; k++)
		for (uint32_t j = 0; j < d->n[k]; j++)
			if (d->d[k][j] < 0 || d->d[k][j] >= (k % 2 ? r->rank : l->rank))
				return false;
	g[0] = g[1] = g[2] = g[3] = 1;
	for (uint32_t j = 0; j < l->rank; j++) {
		bool c = listed(d->d[0], d->n[0], j), b = listed(d->d[2], d->n[2], j);
		int which = c ? 2 : b ? 3 : 0;
		g[which] = et_sat_mul(g[which], ld[j]);
	}
	for (uint32_t j = 0; j < r->rank; j++)
		if (!listed(d->d[1], d->n[1], j) && !listed(d->d[3], d->n[3], j))
			g[1] = et_sat_mul(g[1], rd[j]);
	return true;
}

/* A matrix product of operands 0 and 1 with result shape res. */
static int product_cost(const hlo_module *m, const hlo_inst *in, const hlo_shape *res,
                        const dot_dims *d, hlo_cost *c, et_error *e)
{
	const hlo_shape *l = in->nopnd >= 2 ? array_of(m, hlo_opnd(m, in, 0)) : NULL;
	const hlo_shape *r = in->nopnd >= 2 ? array_of(m, hlo_opnd(m, in, 1)) : NULL;
	if (!l || !r) { /* operand shapes not written: K unknown */
		c->flops = et_sat_mul(2, res->elems);
		return 0;
	}
	if (!dot_extents(m, l, r, d, c->gemm))
		return hlo_fail(m, e, in->pos,
		                "dot dimension numbers beyond the operands' %u and %u "
		                "dimensions",
		                l->rank, r->rank);
	c->flops = et_sat_mul(et_sat_mul(2, res->elems), c->gemm[2]);
	c->gflops = c->flops;
	return 0;
}

static int dot_cost(const hlo_module *m, const hlo_inst *in, hlo_cost *c, et_error *e)
{
	const hlo_attr *a = hlo_attr_of(m, in);
	dot_dims d = {{NULL}, {0}};
	if (a) {
		const hlo_list *l[4] = {&a->lc, &a->rc, &a->lb, &a->rb};
		for (int k = 0; k < 4; k++) {
			d.d[k] = hlo_ints_at(m, l[k]->off);
			d.n[k] = l[k]->n;
		}
	}
	return product_cost(m, in, &m->shape[in->shape], &d, c, e);
}

/* custom-call __cublas$lt$matmul, __cublas$gemm, ...: a dot whose
 * dimension numbers are in backend_config's dot_dimension_numbers. */
static int custom_call_cost(const hlo_module *m, const hlo_inst *in, hlo_cost *c, et_error *e)
{
	static const char *const keys[4] = {"lhs_contracting_dimensions",
	                                    "rhs_contracting_dimensions", "lhs_batch_dimensions",
	                                    "rhs_batch_dimensions"};
	const hlo_attr *a = hlo_attr_of(m, in);
	int64_t v[4][HLO_MAX_RANK];
	dot_dims d;
	if (!a || a->target.len < 10 || memcmp(m->text + a->target.off, "\"__cublas$", 10) != 0)
		return 0;
	for (int k = 0; k < 4; k++) {
		d.d[k] = v[k];
		if (!hlo_json_ints(m, a->backend, keys[k], v[k], HLO_MAX_RANK, &d.n[k]) && k < 2)
			return 0; /* no dimension numbers: not a product we can count */
	}
	return product_cost(m, in, first_elem(m, &m->shape[in->shape]), &d, c, e);
}

/* convolution: 2 * result elements * kernel spatial size * input features. */
static int conv_cost(const hlo_module *m, const hlo_inst *in, hlo_cost *c, et_error *e)
{
	const hlo_attr *a = hlo_attr_of(m, in);
	const hlo_shape *k = in->nopnd >= 2 ? array_of(m, hlo_opnd(m, in, 1)) : NULL;
	const hlo_shape *res = &m->shape[in->shape];
	if (!k || k->rank < 2) {
		c->flops = res->elems;
		return 0;
	}
	const uint64_t *kd = m->dims + k->off;
	uint64_t spatial = 1, kin = kd[k->rank - 2], kout = kd[k->rank - 1];
	if (a && a->labels.len) {
		if (a->labels.len != k->rank)
			return hlo_fail(m, e, a->labels.off,
			                "dim_labels for a kernel of %u dimensions", k->rank);
		for (uint32_t j = 0; j < k->rank; j++) {
			char l = m->text[a->labels.off + j];
			if (l >= '0' && l <= '9')
				spatial = et_sat_mul(spatial, kd[j]);
			else if (l == 'i')
				kin = kd[j];
			else if (l == 'o')
				kout = kd[j];
			else
				return hlo_fail(m, e, a->labels.off,
				                "kernel dim_labels other than digits, i "
				                "and o");
		}
	} else {
		for (uint32_t j = 0; j + 2 < k->rank; j++)
			spatial = et_sat_mul(spatial, kd[j]);
	}
	c->gemm[0] = kout ? res->elems / kout : 0;
	c->gemm[1] = kout;
	c->gemm[2] = et_sat_mul(spatial, kin);
	c->gemm[3] = 1;
	c->flops = et_sat_mul(et_sat_mul(2, res->elems), c->gemm[2]);
	c->gflops = c->flops;
	return 0;
}

static uint64_t reduce_flops(const hlo_module *m, const hlo_inst *in)
{
	uint32_t inputs = in->nopnd >= 2 ? in->nopnd / 2 : in->nopnd;
	uint64_t f = 0;
	for (uint32_t k = 0; k < inputs; k++)
		f = et_sat_add(f, hlo_shape_of(m, hlo_opnd(m, in, k))->elems);
	return f;
}

static int comp_cost(hlo_module *m, uint32_t c, et_error *e, int depth);

static int fusion_cost(hlo_module *m, const hlo_inst *in, hlo_cost *c, et_error *e, int depth)
{
	const hlo_attr *a = hlo_attr_of(m, in);
	if (!a || !a->comps.n)
		return 0;
	uint32_t body = m->refs[a->comps.off].id;
	if (comp_cost(m, body, e, depth + 1) < 0)
		return -1;
	c->flops = m->comp[body].flops;
	memcpy(c->gemm, m->comp[body].gemm, sizeof c->gemm);
	c->gflops = m->comp[body].gemm_flops;
	return 0;
}

/* The bytes an op reads and writes, or sends. */
static uint64_t op_bytes(const hlo_module *m, const hlo_inst *in)
{
	uint64_t res =
	    (in->flags & HLO_F_START) ? start_result_bytes(m, in) : m->shape[in->shape].bytes;
	switch (in->op) {
	case HLO_OP_WINDOW_MOVE:
		return et_sat_add(opnd_bytes(m, in, 1, in->nopnd), et_sat_mul(2, res));
	case HLO_OP_DUS:
		return et_sat_add(opnd_bytes(m, in, 2, in->nopnd),
		                  et_sat_mul(2, opnd_bytes(m, in, 1, 2)));
	case HLO_OP_COLL_PERMUTE:
		return opnd_bytes(m, in, 0, (in->flags & HLO_F_SLICES) ? 1 : in->nopnd);
	case HLO_OP_RAGGED_ALL_TO_ALL:
	case HLO_OP_SEND:
		return opnd_bytes(m, in, 0, 1);
	case HLO_OP_RECV:
		return first_elem(m, &m->shape[in->shape])->bytes;
	case HLO_OP_ALL_REDUCE:
	case HLO_OP_ALL_GATHER:
	case HLO_OP_REDUCE_SCATTER:
	case HLO_OP_ALL_TO_ALL:
	case HLO_OP_COLL_BROADCAST:
		return opnd_bytes(m, in, 0, in->nopnd);
	default:
		return et_sat_add(opnd_bytes(m, in, 0, in->nopnd), res);
	}
}

static int inst_cost(hlo_module *m, uint32_t i, hlo_cost *c, et_error *e, int depth)
{
	const hlo_inst *in = &m->inst[i];
	memset(c, 0, sizeof *c);
	if (hlo_op_elided(in->op) || in->op == HLO_OP_CALL || in->op == HLO_OP_WHILE ||
	    in->op == HLO_OP_CONDITIONAL || in->op == HLO_OP_ASYNC_START)
		return 0;
	c->bytes = op_bytes(m, in);
	const hlo_attr *a = hlo_attr_of(m, in);
	switch (in->op) {
	case HLO_OP_DOT:
		return dot_cost(m, in, c, e);
	case HLO_OP_CUSTOM_CALL:
		return custom_call_cost(m, in, c, e);
	case HLO_OP_CONVOLUTION:
		return conv_cost(m, in, c, e);
	case HLO_OP_FUSION:
		return fusion_cost(m, in, c, e, depth);
	case HLO_OP_REDUCE:
		c->flops = reduce_flops(m, in);
		return 0;
	case HLO_OP_REDUCE_WINDOW:
		c->flops = et_sat_mul(m->shape[in->shape].elems, a && a->window ? a->window : 1);
		return 0;
	case HLO_OP_OTHER:
	case HLO_OP_COMPARE:
		c->flops = m->shape[in->shape].elems;
		return 0;
	default: /* data movement, communication */
		return 0;
	}
}

int hlo_inst_cost(hlo_module *m, uint32_t i, hlo_cost *c, et_error *e)
{
	return inst_cost(m, i, c, e, 0);
}

/* Adds computation c's cost (times n) to *c2. */
static void add_comp(const hlo_module *m, uint32_t c, uint64_t n, hlo_cost *c2)
{
	const hlo_comp *cp = &m->comp[c];
	c2->flops = et_sat_mul(cp->flops, n);
	c2->bytes = et_sat_mul(cp->bytes, n);
	memcpy(c2->gemm, cp->gemm, sizeof c2->gemm);
	c2->gflops = cp->gemm_flops;
}

static int pick_branch(hlo_module *m, uint32_t i, uint32_t *branch, et_error *e, int depth);

/* Instruction i as it runs: control flow takes its computations' cost. */
static int run_cost(hlo_module *m, uint32_t i, hlo_cost *c, et_error *e, int depth)
{
	const hlo_inst *in = &m->inst[i];
	const hlo_attr *a = hlo_attr_of(m, in);
	uint32_t callee = HLO_NONE;
	uint64_t times = 1;
	memset(c, 0, sizeof *c);
	if ((in->op == HLO_OP_CALL || in->op == HLO_OP_ASYNC_START) && a && a->comps.n)
		callee = m->refs[a->comps.off].id;
	if (in->op == HLO_OP_WHILE && a && a->body != HLO_NONE) {
		callee = m->refs[a->body].id;
		if (!hlo_trip_count(m, i, &times))
			times = 1;
		times = times < m->opts.max_unroll ? times : m->opts.max_unroll;
	}
	if (in->op == HLO_OP_CONDITIONAL && a && a->comps.n) {
		uint32_t b;
		if (pick_branch(m, i, &b, e, depth) < 0)
			return -1;
		callee = m->refs[a->comps.off + b].id;
	}
	if (callee == HLO_NONE)
		return inst_cost(m, i, c, e, depth);
	if (comp_cost(m, callee, e, depth + 1) < 0)
		return -1;
	add_comp(m, callee, times, c);
	return 0;
}

static int comp_cost(hlo_module *m, uint32_t c, et_error *e, int depth)
{
	hlo_comp *cp = &m->comp[c];
	if (cp->mark == 2)
		return 0;
	if (cp->mark == 1)
		return hlo_fail(m, e, cp->pos, "computation %s calls itself",
		                hlo_name(m, cp->name));
	if (depth >= HLO_MAX_DEPTH)
		return hlo_fail(m, e, cp->pos, "computations nested deeper than %d", HLO_MAX_DEPTH);
	cp->mark = 1;
	hlo_cost sum = {0};
	for (uint32_t i = cp->first; i < cp->first + cp->n; i++) {
		hlo_cost ic;
		if (run_cost(m, i, &ic, e, depth) < 0) {
			cp->mark = 0;
			return -1;
		}
		sum.flops = et_sat_add(sum.flops, ic.flops);
		sum.bytes = et_sat_add(sum.bytes, ic.bytes);
		if (ic.gflops > sum.gflops) {
			memcpy(sum.gemm, ic.gemm, sizeof sum.gemm);
			sum.gflops = ic.gflops;
		}
	}
	cp->flops = sum.flops;
	cp->bytes = sum.bytes;
	memcpy(cp->gemm, sum.gemm, sizeof cp->gemm);
	cp->gemm_flops = sum.gflops;
	cp->mark = 2;
	return 0;
}

int hlo_comp_cost(hlo_module *m, uint32_t c, et_error *e)
{
	return comp_cost(m, c, e, 0);
}

static int pick_branch(hlo_module *m, uint32_t i, uint32_t *branch, et_error *e, int depth)
{
	const hlo_attr *a = hlo_attr_of(m, &m->inst[i]);
	if (!a || !a->comps.n)
		return hlo_fail(m, e, m->inst[i].pos, "a conditional without branch computations");
	*branch = 0;
	for (uint32_t b = 0; b < a->comps.n; b++) {
		uint32_t c = m->refs[a->comps.off + b].id;
		if (comp_cost(m, c, e, depth + 1) < 0)
			return -1;
		const hlo_comp *cb = &m->comp[c],
		               *best = &m->comp[m->refs[a->comps.off + *branch].id];
		if (cb->flops > best->flops ||
		    (cb->flops == best->flops && cb->bytes > best->bytes))
			*branch = b;
	}
	return 0;
}

int hlo_pick_branch(hlo_module *m, uint32_t i, uint32_t *branch, et_error *e)
{
	return pick_branch(m, i, branch, e, 0);
}
