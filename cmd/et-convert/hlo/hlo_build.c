/* hlo_build: the per-device program of an HLO module (hlo_mod.h) as an xir.
 *
 * The entry computation runs once; everything it reaches is inlined in
 * program order:
 * - call and async-start (calls=%c) run their computation on their operands;
 * - while runs its body trip-count times (hlo_loop.c: known_trip_count or a
 *   counted loop; unknown: once, with a warning; more than max_unroll: that
 *   many, with a warning); the condition computation adds no op;
 * - conditional runs its most expensive branch (hlo_cost.c: most FLOPs, then
 *   most bytes, then the first), its operand depending on the predicate too;
 * - fusion is one op (FLOPs of its body, bytes of its operands and result);
 * - an async pair (all-reduce-start/-done, all-gather-, collective-permute-,
 *   copy-start/-done, X-start/-done, async-start/-done) is one op, the
 *   -start; the -done passes its value on, so consumers depend on the op;
 * - parameter, constant, tuple, get-tuple-element, bitcast, partition-id,
 *   replica-id, after-all, add-dependency, opt-barrier, domain,
 *   get/set-dimension-size, rng-get-and-update-state, infeed, outfeed and
 *   send/recv with is_host_transfer (host I/O) are no op: their value passes
 *   their operands' dependencies on;
 * - send/recv become XIR_SEND/XIR_RECV with the pairs of frontend attribute
 *   _xla_send_recv_source_target_pairs; without it their peers are unknown
 *   and they are dropped, with a warning;
 * - every other instruction is one op: a collective, a collective-permute,
 *   or a computation with the FLOPs and bytes of hlo_cost.h.
 * An instruction that becomes an op more than once (unrolled loops, a
 * computation called from several places) is named NAME#K for its K-th
 * repeat (K = 1, 2, ...). */
#include "et-convert/hlo/hlo_cost.h"
#include "et-convert/hlo/hlo_groups.h"
#include "et-convert/hlo/hlo_val.h"
#include "et_mem.h"
#include "et_sat.h"
#include "et_types.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hlo_builder {
	hlo_module *m;
	xir *x;
	et_error *e;
	hlo_vals vs;
	uint32_t *slot; /* the values of the instructions of the running computations */
	size_t nslot, capslot;
	uint32_t *args; /* arguments of the running computations */
	size_t nargs, capargs;
	uint32_t *setmemo; /* per instruction: its set + 1, 0 = not yet */
	hlo_cost *cost;    /* per instruction, when costed[] */
	uint8_t *costed;
	const char **iname;  /* per instruction: its name in x's arena */
	uint32_t *reps;      /* per name id: ops named so far */
	const char **opname; /* per name id: the opcode's text in x's arena */
	uint8_t *active;     /* per computation: running (recursion is an error) */
	uint64_t steps;      /* instructions run, their operands, loop iterations */
	int warnings;
} hlo_builder;

/* Work allowed per op of the cap: loops of zero-cost instructions make no
 * op but still take time, so the work itself (steps, and the values made
 * and visited) is bounded too. */
#define HLO_WORK_PER_OP 64

static void warn(hlo_builder *b, uint32_t i, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void warn(hlo_builder *b, uint32_t i, const char *fmt, ...)
{
	hlo_inst *in = &b->m->inst[i];
	if (in->flags & HLO_F_WARNED)
		return;
	in->flags |= HLO_F_WARNED;
	b->warnings++;
	if (b->m->opts.quiet)
		return;
	char msg[512];
	size_t line, col;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hlo_line_col(b->m, in->pos, &line, &col);
	et_warn("%s: line %zu, column %zu: %s", b->m->name, line, col, msg);
}

static uint32_t val(const hlo_builder *b, size_t base, uint32_t comp_first, uint32_t j)
{
	return b->slot[base + (j - comp_first)];
}

/* Counts n steps of work at instruction i; fails past the bound. */
static int work(hlo_builder *b, uint32_t i, uint64_t n)
{
	const hlo_module *m = b->m;
	b->steps += n;
	uint64_t cap = m->opts.max_ops > UINT64_MAX / HLO_WORK_PER_OP
	                   ? UINT64_MAX
	                   : m->opts.max_ops * HLO_WORK_PER_OP;
	if (b->steps + b->vs.work <= cap)
		return 0;
	return hlo_fail(m, b->e, m->inst[i].pos,
	                "unrolling loops takes more than %llu steps (lower "
	                "--max-unroll, now %llu)",
	                (unsigned long long)cap, (unsigned long long)m->opts.max_unroll);
}

/* The name of the op instruction i becomes, unique in the program. */
static const char *op_name(hlo_builder *b, uint32_t i)
{
	const hlo_inst *in = &b->m->inst[i];
	if (!b->iname[i])
		b->iname[i] = xir_str(b->x, hlo_name(b->m, in->name), SIZE_MAX);
	uint32_t rep = b->reps[in->name]++;
	if (rep == 0)
		return b->iname[i];
	char digits[16]; /* "#rep", written backwards: snprintf is slow for this */
	size_t n = 0, len = strlen(b->iname[i]);
	do
		digits[n++] = (char)('0' + rep % 10);
	while ((rep /= 10) != 0);
	char *s = et_arena_alloc(b->x->arena, len + n + 2);
	memcpy(s, b->iname[i], len);
	s[len] = '#';
	for (size_t k = 0; k < n; k++)
		s[len + 1 + k] = digits[n - 1 - k];
	s[len + 1 + n] = 0;
	return s;
}

static int coll_of(uint16_t op)
{
	switch (op) {
	case HLO_OP_ALL_REDUCE:
		return ET_COLL_ALL_REDUCE;
	case HLO_OP_ALL_GATHER:
		return ET_COLL_ALL_GATHER;
	case HLO_OP_REDUCE_SCATTER:
		return ET_COLL_REDUCE_SCATTER;
	case HLO_OP_COLL_BROADCAST:
		return ET_COLL_BROADCAST;
	case HLO_OP_ALL_TO_ALL:
	case HLO_OP_RAGGED_ALL_TO_ALL:
		return ET_COLL_ALL_TO_ALL;
	default:
		return -1;
	}
}

static uint8_t kind_of(uint16_t op)
{
	if (coll_of(op) >= 0)
		return XIR_COLL;
	return op == HLO_OP_COLL_PERMUTE ? XIR_PERMUTE
	       : op == HLO_OP_SEND       ? XIR_SEND
	       : op == HLO_OP_RECV       ? XIR_RECV
	                                 : XIR_COMP;
}

/* The numbers of op o from instruction i: cost, set, channel. */
static int fill_op(hlo_builder *b, uint32_t i, xir_op *o)
{
	hlo_module *m = b->m;
	const hlo_inst *in = &m->inst[i];
	const hlo_attr *a = hlo_attr_of(m, in);
	if (!b->costed[i]) {
		if (hlo_inst_cost(m, i, &b->cost[i], b->e) < 0)
			return -1;
		b->costed[i] = 1;
	}
	const hlo_cost *c = &b->cost[i];
	o->kind = kind_of(in->op);
	o->flops = o->kind == XIR_COMP ? c->flops : 0;
	o->bytes = c->bytes;
	if (o->kind == XIR_COMP)
		memcpy(o->gemm, c->gemm, sizeof o->gemm);
	o->coll = coll_of(in->op);
	o->channel = a && (in->flags & HLO_F_CHANNEL) ? a->channel : -1;
	if (o->kind != XIR_COMP && !b->setmemo[i]) {
		uint32_t set;
		int r = o->kind == XIR_COLL ? hlo_group_set(m, i, b->x, &set, b->e)
		                            : hlo_pair_set(m, i, b->x, &set, b->e);
		if (r < 0)
			return -1;
		if (b->x->nmem > HLO_MAX_MEMBERS)
			return hlo_fail(m, b->e, in->pos,
			                "the program's groups and pairs hold more than "
			                "%u ids",
			                HLO_MAX_MEMBERS);
		b->setmemo[i] = set + 1;
	}
	o->set = o->kind == XIR_COMP ? 0 : b->setmemo[i] - 1;
	return 0;
}

/* Instruction i as one op depending on its operands' values. */
static int emit(hlo_builder *b, uint32_t i, size_t base, uint32_t first, uint32_t *out)
{
	hlo_module *m = b->m;
	const hlo_inst *in = &m->inst[i];
	if (b->x->nop >= m->opts.max_ops)
		return hlo_fail(m, b->e, in->pos,
		                "more than %llu ops after unrolling loops (lower "
		                "--max-unroll, now %llu)",
		                (unsigned long long)m->opts.max_ops,
		                (unsigned long long)m->opts.max_unroll);
	xir_op o = {0};
	if (fill_op(b, i, &o) < 0)
		return -1;
	if (!b->opname[in->opname])
		b->opname[in->opname] = xir_str(b->x, hlo_name(m, in->opname), SIZE_MAX);
	o.opcode = b->opname[in->opname];
	o.name = op_name(b, i);
	hlo_dset d;
	d.n = 0; /* no initializer: it would clear all of v */
	for (uint32_t k = 0; k < in->nopnd; k++)
		hlo_val_deps(&b->vs, val(b, base, first, hlo_opnd(m, in, k)), &d);
	hlo_dset self;
	self.v[0] = xir_add(b->x, &o, d.v, d.n);
	self.n = 1;
	*out = hlo_val_leaf(&b->vs, &self);
	return 0;
}

/* The dependencies of all of i's operands, as one value. */
static uint32_t pass_all(hlo_builder *b, const hlo_inst *in, size_t base, uint32_t first)
{
	hlo_dset d;
	d.n = 0; /* no initializer: it would clear all of v */
	for (uint32_t k = 0; k < in->nopnd; k++)
		hlo_val_deps(&b->vs, val(b, base, first, hlo_opnd(b->m, in, k)), &d);
	return d.n ? hlo_val_leaf(&b->vs, &d) : 0;
}

static int expand(hlo_builder *b, uint32_t c, size_t args, uint32_t nargs, int depth,
                  uint32_t *result);

/* Runs computation c on the values of operands [from, from + n) of in. */
static int run_on_operands(hlo_builder *b, const hlo_inst *in, uint32_t c, uint32_t from,
                           uint32_t n, size_t base, uint32_t first, int depth, uint32_t *out)
{
	size_t args = b->nargs;
	ET_GROW(b->args, b->capargs, (size_t)b->nargs + n);
	for (uint32_t k = 0; k < n; k++)
		b->args[b->nargs++] = val(b, base, first, hlo_opnd(b->m, in, from + k));
	int r = expand(b, c, args, n, depth + 1, out);
	b->nargs = args;
	return r;
}

static int callee(hlo_builder *b, uint32_t i, const char *what, uint32_t *c)
{
	const hlo_attr *a = hlo_attr_of(b->m, &b->m->inst[i]);
	if (!a || !a->comps.n)
		return hlo_fail(b->m, b->e, b->m->inst[i].pos, "a %s without its computation",
		                what);
	*c = b->m->refs[a->comps.off].id;
	return 0;
}

/* The loop's trip count, with its warnings. */
static uint64_t trips(hlo_builder *b, uint32_t i)
{
	const hlo_module *m = b->m;
	const char *name = hlo_name(m, m->inst[i].name);
	uint64_t n;
	if (!hlo_trip_count(m, i, &n)) {
		warn(b, i,
		     "while %s: trip count unknown (no known_trip_count, not a counted loop): "
		     "run once",
		     name);
		return 1;
	}
	if (n > m->opts.max_unroll) {
		warn(b, i, "while %s: %llu iterations, unrolled %llu times (--max-unroll)", name,
		     (unsigned long long)n, (unsigned long long)m->opts.max_unroll);
		return m->opts.max_unroll;
	}
	return n;
}

static int run_while(hlo_builder *b, uint32_t i, size_t base, uint32_t first, int depth,
                     uint32_t *out)
{
	hlo_module *m = b->m;
	const hlo_inst *in = &m->inst[i];
	const hlo_attr *a = hlo_attr_of(m, in);
	if (!a || a->body == HLO_NONE || in->nopnd != 1)
		return hlo_fail(m, b->e, in->pos, "a while needs one operand and a body");
	uint32_t body = m->refs[a->body].id, state = val(b, base, first, hlo_opnd(m, in, 0));
	uint64_t n = trips(b, i);
	hlo_vmark mark = hlo_vals_mark(&b->vs);
	for (uint64_t t = 0; t < n; t++) {
		uint32_t h;
		if (work(b, i, 1) < 0)
			return -1;
		size_t args = b->nargs;
		ET_GROW(b->args, b->capargs, (size_t)b->nargs + 1);
		b->args[b->nargs++] = state;
		int r = expand(b, body, args, 1, depth + 1, &h);
		b->nargs = args;
		if (r < 0)
			return -1;
		state = hlo_val_keep(&b->vs, h, mark);
	}
	*out = state;
	return 0;
}

static int run_conditional(hlo_builder *b, uint32_t i, size_t base, uint32_t first, int depth,
                           uint32_t *out)
{
	hlo_module *m = b->m;
	const hlo_inst *in = &m->inst[i];
	uint32_t br;
	if (hlo_pick_branch(m, i, &br, b->e) < 0)
		return -1;
	const hlo_attr *a = hlo_attr_of(m, in);
	if (in->nopnd != a->comps.n + 1)
		return hlo_fail(m, b->e, in->pos, "a conditional with %u operands for %u branches",
		                in->nopnd, a->comps.n);
	hlo_dset pred;
	pred.n = 0; /* no initializer: it would clear all of v */
	hlo_val_deps(&b->vs, val(b, base, first, hlo_opnd(m, in, 0)), &pred);
	uint32_t arg = hlo_val_with(&b->vs, val(b, base, first, hlo_opnd(m, in, br + 1)), &pred);
	size_t args = b->nargs;
	ET_GROW(b->args, b->capargs, (size_t)b->nargs + 1);
	b->args[b->nargs++] = arg;
	int r = expand(b, m->refs[a->comps.off + br].id, args, 1, depth + 1, out);
	b->nargs = args;
	return r;
}

/* send/recv: host transfers are no op; without pairs the peers are unknown. */
static bool p2p_dropped(hlo_builder *b, uint32_t i)
{
	const hlo_inst *in = &b->m->inst[i];
	const hlo_attr *a = hlo_attr_of(b->m, in);
	if (in->flags & HLO_F_HOST)
		return true;
	if (a && a->pairs.n)
		return false;
	warn(b, i, "%s %s: no _xla_send_recv_source_target_pairs: peers unknown, left out",
	     hlo_name(b->m, in->opname), hlo_name(b->m, in->name));
	return true;
}

/* The value of instruction i of the running computation. */
static int eval(hlo_builder *b, uint32_t i, size_t base, uint32_t first, size_t args,
                uint32_t nargs, int depth, uint32_t *out)
{
	hlo_module *m = b->m;
	const hlo_inst *in = &m->inst[i];
	uint32_t c = HLO_NONE, v0 = in->nopnd ? val(b, base, first, hlo_opnd(m, in, 0)) : 0;
	if (work(b, i, 1 + (uint64_t)in->nopnd) < 0)
		return -1;
	switch (in->op) {
	case HLO_OP_PARAMETER:
		*out = in->ival < (int64_t)nargs ? b->args[args + (size_t)in->ival] : 0;
		return 0;
	case HLO_OP_TUPLE: {
		uint32_t *kids = et_xmalloc(((size_t)in->nopnd + 1) * sizeof *kids);
		for (uint32_t k = 0; k < in->nopnd; k++)
			kids[k] = val(b, base, first, hlo_opnd(m, in, k));
		*out = hlo_val_tuple(&b->vs, kids, in->nopnd);
		free(kids);
		return 0;
	}
	case HLO_OP_GTE:
		*out = hlo_val_elem(&b->vs, v0, in->ival);
		return 0;
	case HLO_OP_BITCAST:
	case HLO_OP_OPT_BARRIER:
	case HLO_OP_DONE:
	case HLO_OP_DOMAIN:
		*out = v0;
		return 0;
	case HLO_OP_ADD_DEPENDENCY: {
		hlo_dset d;
		d.n = 0; /* no initializer: it would clear all of v */
		if (in->nopnd > 1)
			hlo_val_deps(&b->vs, val(b, base, first, hlo_opnd(m, in, 1)), &d);
		*out = hlo_val_with(&b->vs, v0, &d);
		return 0;
	}
	case HLO_OP_CALL:
	case HLO_OP_ASYNC_START:
		if (callee(b, i, in->op == HLO_OP_CALL ? "call" : "async-start", &c) < 0)
			return -1;
		return run_on_operands(b, in, c, 0, in->nopnd, base, first, depth, out);
	case HLO_OP_WHILE:
		return run_while(b, i, base, first, depth, out);
	case HLO_OP_CONDITIONAL:
		return run_conditional(b, i, base, first, depth, out);
	case HLO_OP_SEND:
	case HLO_OP_RECV:
		if (!p2p_dropped(b, i))
			return emit(b, i, base, first, out);
		*out = pass_all(b, in, base, first);
		return 0;
	default:
		if (!hlo_op_elided(in->op))
			return emit(b, i, base, first, out);
		*out = pass_all(b, in, base, first);
		return 0;
	}
}

static int expand(hlo_builder *b, uint32_t c, size_t args, uint32_t nargs, int depth,
                  uint32_t *result)
{
	hlo_module *m = b->m;
	const hlo_comp *cp = &m->comp[c];
	if (depth >= HLO_MAX_DEPTH)
		return hlo_fail(m, b->e, cp->pos, "computations nested deeper than %d",
		                HLO_MAX_DEPTH);
	if (b->active[c])
		return hlo_fail(m, b->e, cp->pos, "computation %s calls itself",
		                hlo_name(m, cp->name));
	b->active[c] = 1;
	hlo_vmark mark = hlo_vals_mark(&b->vs);
	size_t base = b->nslot;
	ET_GROW(b->slot, b->capslot, (size_t)b->nslot + cp->n);
	b->nslot += cp->n;
	int r = 0;
	for (uint32_t i = cp->first; i < cp->first + cp->n && r == 0; i++) {
		uint32_t v;
		r = eval(b, i, base, cp->first, args, nargs, depth, &v);
		b->slot[base + (i - cp->first)] = v;
	}
	if (r == 0)
		*result = hlo_val_keep(&b->vs, b->slot[base + (cp->root - cp->first)], mark);
	b->nslot = base;
	b->active[c] = 0;
	return r;
}

/* ---- the estimate: the walk's ops and steps counted before it runs ----
 *
 * Trip counts, callees and the branch taken are facts of the text, so what
 * computation c costs when it runs is the same everywhere: it is counted
 * once per computation (memo), products and sums saturating. A program
 * that would unroll past the limits is refused in the time and memory of
 * its text, before anything is expanded. */
typedef struct hlo_est {
	hlo_module *m;
	et_error *e;
	uint64_t *ops, *steps; /* per computation, when done[] */
	uint8_t *done;         /* 0 new, 1 in progress, 2 done */
	uint32_t over;         /* the first instruction past the op limit, HLO_NONE */
} hlo_est;

static void est_comp(hlo_est *s, uint32_t c, int depth);

/* Computation c run `times` times, added to *ops and *steps. */
static void est_add(hlo_est *s, uint32_t c, uint64_t times, int depth, uint64_t *ops,
                    uint64_t *steps)
{
	est_comp(s, c, depth + 1);
	if (s->done[c] != 2) /* recursion or too deep: the walk says so */
		return;
	*ops = et_sat_add(*ops, et_sat_mul(s->ops[c], times));
	*steps = et_sat_add(*steps, et_sat_mul(et_sat_add(s->steps[c], 1), times));
}

/* What instruction i adds when it runs (eval's cases). */
static void est_inst(hlo_est *s, uint32_t i, int depth, uint64_t *ops, uint64_t *steps)
{
	hlo_module *m = s->m;
	const hlo_inst *in = &m->inst[i];
	const hlo_attr *a = hlo_attr_of(m, in);
	uint64_t n;
	uint32_t br;
	*steps = et_sat_add(*steps, 1 + (uint64_t)in->nopnd);
	switch (in->op) {
	case HLO_OP_CALL:
	case HLO_OP_ASYNC_START:
		if (a && a->comps.n)
			est_add(s, m->refs[a->comps.off].id, 1, depth, ops, steps);
		return;
	case HLO_OP_WHILE:
		if (!a || a->body == HLO_NONE)
			return;
		if (!hlo_trip_count(m, i, &n))
			n = 1;
		est_add(s, m->refs[a->body].id, n < m->opts.max_unroll ? n : m->opts.max_unroll,
		        depth, ops, steps);
		return;
	case HLO_OP_CONDITIONAL:
		/* the walk picks the same branch; an error here is its error */
		if (a && a->comps.n && hlo_pick_branch(m, i, &br, s->e) == 0)
			est_add(s, m->refs[a->comps.off + br].id, 1, depth, ops, steps);
		return;
	case HLO_OP_SEND:
	case HLO_OP_RECV:
		if (!(in->flags & HLO_F_HOST) && a && a->pairs.n)
			*ops = et_sat_add(*ops, 1);
		return;
	default:
		if (!hlo_op_elided(in->op)) /* parameter, tuple, get-tuple-element too */
			*ops = et_sat_add(*ops, 1);
		return;
	}
}

static void est_comp(hlo_est *s, uint32_t c, int depth)
{
	const hlo_comp *cp = &s->m->comp[c];
	if (s->done[c] || depth >= HLO_MAX_DEPTH)
		return;
	s->done[c] = 1;
	uint64_t ops = 0, steps = 0;
	for (uint32_t i = cp->first; i < cp->first + cp->n; i++) {
		est_inst(s, i, depth, &ops, &steps);
		if (ops > s->m->opts.max_ops && s->over == HLO_NONE)
			s->over = i;
	}
	s->ops[c] = ops;
	s->steps[c] = steps;
	s->done[c] = 2;
}

/* Fails when running the entry would pass the op or the work limit. */
static int estimate(hlo_module *m, et_error *e)
{
	hlo_est s = {.m = m, .e = e, .over = HLO_NONE};
	s.ops = et_xcalloc(m->ncomp + 1, sizeof *s.ops);
	s.steps = et_xcalloc(m->ncomp + 1, sizeof *s.steps);
	s.done = et_xcalloc(m->ncomp + 1, 1);
	est_comp(&s, m->entry, 0);
	uint64_t ops = s.ops[m->entry], steps = s.steps[m->entry];
	uint64_t cap = et_sat_mul(m->opts.max_ops, HLO_WORK_PER_OP);
	uint32_t at = s.over != HLO_NONE ? s.over : m->comp[m->entry].first;
	free(s.ops);
	free(s.steps);
	free(s.done);
	if (ops <= m->opts.max_ops && steps <= cap)
		return 0;
	return hlo_fail(m, e, m->inst[at].pos,
	                "unrolling loops and inlining calls would make about %llu ops "
	                "and %llu steps, more than %llu ops or %llu steps (estimated before "
	                "expanding: trip counts times bodies; lower --max-unroll, now %llu)",
	                (unsigned long long)ops, (unsigned long long)steps,
	                (unsigned long long)m->opts.max_ops, (unsigned long long)cap,
	                (unsigned long long)m->opts.max_unroll);
}

int hlo_build(hlo_module *m, xir *x, et_error *e)
{
	if (estimate(m, e) < 0)
		return -1;
	hlo_builder b = {.m = m, .x = x, .e = e};
	size_t nnames = et_strmap_count(&m->names) + 1;
	hlo_vals_init(&b.vs);
	b.setmemo = et_xcalloc(m->ninst + 1, sizeof *b.setmemo);
	b.cost = et_xcalloc(m->ninst + 1, sizeof *b.cost);
	b.costed = et_xcalloc(m->ninst + 1, 1);
	b.iname = et_xcalloc(m->ninst + 1, sizeof *b.iname);
	b.reps = et_xcalloc(nnames, sizeof *b.reps);
	b.opname = et_xcalloc(nnames, sizeof *b.opname);
	b.active = et_xcalloc(m->ncomp + 1, 1);
	uint32_t root;
	int r = expand(&b, m->entry, 0, 0, 0, &root);
	hlo_vals_free(&b.vs);
	free(b.slot);
	free(b.args);
	free(b.setmemo);
	free(b.cost);
	free(b.costed);
	free(b.iname);
	free(b.reps);
	free(b.opname);
	free(b.active);
	return r < 0 ? -1 : b.warnings;
}
