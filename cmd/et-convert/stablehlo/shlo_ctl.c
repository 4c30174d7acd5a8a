/* shlo_ctl: calls, loops, branches, shard_map bodies and run_parallel,
 * inlined into the program (shlo.h). Each runs a block in a scope of its
 * own and keeps only what the block returns. */
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_sat.h"

#include <stdio.h>
#include <string.h>

static int enter(shlo_b *b, const shlo_op *o)
{
	if (++b->depth > SHLO_MAX_NEST)
		return shlo_b_fail(b, o->off,
		                   "calls and regions nested deeper than %d (a recursive call?)",
		                   SHLO_MAX_NEST);
	return 0;
}

/* The function named s[0..n) in the module, SHLO_NONE if none. */
static uint32_t function(shlo_b *b, size_t sym, uint32_t n)
{
	char name[256];
	if (n == 0 || n >= sizeof name)
		return SHLO_NONE;
	memcpy(name, b->p->s + sym, n);
	name[n] = 0;
	uint32_t f = et_strmap_find(&b->funcs, name);
	return f == ET_STRMAP_NONE ? SHLO_NONE : b->func_op[f];
}

/* Runs block blk on the values args (on b->stk from base) in a scope, then
 * binds o's results to what it returns; pops b->stk back to base. */
static int run_and_bind(shlo_b *b, const shlo_op *o, uint32_t blk, size_t base, uint32_t nargs,
                        const char *what)
{
	shlo_scope m = shlo_b_mark(b);
	uint32_t nret;
	if (shlo_b_block(b, blk, b->stk + base, nargs, o->off, &nret) < 0)
		return -1;
	if (nret != o->nval)
		return shlo_b_fail(b, o->off, "%s returns %u values for %u results", what, nret,
		                   o->nval);
	shlo_b_unwind(b, m, b->stk + base + nargs, nret);
	shlo_b_bind_results(b, o, b->stk + base + nargs);
	b->nstk = base;
	b->depth--;
	return 0;
}

int shlo_ctl_call(shlo_b *b, uint32_t id, size_t sym, uint32_t slen)
{
	const shlo_op *o = &b->p->op[id];
	uint32_t f = function(b, sym, slen);
	if (f == SHLO_NONE)
		return shlo_b_fail(b, o->off, "no function @%.*s in the module",
		                   (int)(slen < 200 ? slen : 200), b->p->s + sym);
	uint32_t blk = shlo_b_region_block(b, &b->p->op[f], 0);
	if (blk == SHLO_NONE)
		return shlo_b_fail(b, o->off, "@%.*s has no body", (int)(slen < 200 ? slen : 200),
		                   b->p->s + sym);
	if (b->est && b->est_fn[f]) { /* estimating: a later call costs the first one's */
		b->visited = et_sat_add(b->visited, b->est_fn[f] - 1);
		shlo_b_bind_empty(b, o);
		return shlo_b_count(b, o->off);
	}
	size_t base = b->nstk;
	uint64_t before = b->visited;
	if (enter(b, o) < 0 || shlo_b_push_uses(b, o) < 0)
		return -1;
	const char *r = o->nres ? shlo_b_sym(b, b->p->res[o->res].sym) : "";
	char suffix[64];
	snprintf(suffix, sizeof suffix, "%s%.40s", o->nres ? "." : "", r);
	size_t len = shlo_b_pfx_push(b, b->p->s + sym, slen < 200 ? slen : 200, suffix);
	int rc = run_and_bind(b, o, blk, base, o->nuse, "the function");
	shlo_b_pfx_pop(b, len);
	if (rc == 0 && b->est)
		b->est_fn[f] = et_sat_add(b->visited - before, 1);
	return rc;
}

int shlo_ctl_manual(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	uint32_t blk = shlo_b_region_block(b, o, 0);
	size_t base = b->nstk;
	if (blk == SHLO_NONE)
		return shlo_b_fail(b, o->off, "expected the shard_map body");
	if (enter(b, o) < 0 || shlo_b_push_uses(b, o) < 0)
		return -1;
	return run_and_bind(b, o, blk, base, o->nuse, "the body");
}

/* "NAME.RESULT[i]" for the prefix of a loop iteration or a branch. */
static size_t pfx_indexed(shlo_b *b, const shlo_op *o, uint64_t i)
{
	const char *m = b->p->s + o->name;
	size_t n = o->nlen;
	while (n > 0 && m[n - 1] != '.')
		n--;
	char suffix[96];
	snprintf(suffix, sizeof suffix, "%s%.40s[%llu]", o->nres ? "." : "",
	         o->nres ? shlo_b_sym(b, b->p->res[o->res].sym) : "", (unsigned long long)i);
	return shlo_b_pfx_push(b, m + n, o->nlen - n, suffix);
}

static int loop_count(shlo_b *b, shlo_op *o, uint32_t id, const uint32_t *init, uint64_t *n)
{
	if (!shlo_trip(b, id, init, n)) {
		if (!o->seen)
			shlo_b_warn(
			    b, o->off,
			    "while loop: trip count unknown (not a counted loop): unrolled once");
		o->seen = 1;
		*n = 1;
	}
	if (b->o->max_trip && *n > b->o->max_trip) {
		if (!o->seen)
			shlo_b_warn(b, o->off,
			            "while loop of %llu iterations unrolled %llu times (the cap)",
			            (unsigned long long)*n, (unsigned long long)b->o->max_trip);
		o->seen = 1;
		*n = b->o->max_trip;
	}
	return 0;
}

/* One iteration: the body on the carried values at stk[base ..], which it
 * replaces with what the body returns. */
static int iteration(shlo_b *b, const shlo_op *o, uint32_t body, size_t base, shlo_scope m,
                     uint64_t i)
{
	uint32_t n = o->nuse, nret;
	size_t len = pfx_indexed(b, o, i);
	int rc = shlo_b_block(b, body, b->stk + base, n, o->off, &nret);
	shlo_b_pfx_pop(b, len);
	if (rc < 0)
		return -1;
	if (nret != n)
		return shlo_b_fail(b, o->off, "the loop body returns %u values for %u", nret, n);
	shlo_b_unwind(b, m, b->stk + base + n, n);
	if (n)
		memmove(b->stk + base, b->stk + base + n, n * sizeof *b->stk);
	b->nstk = base + n;
	return 0;
}

int shlo_ctl_while(shlo_b *b, uint32_t id)
{
	shlo_op *o = &b->p->op[id];
	uint32_t body = shlo_b_region_block(b, o, 1);
	size_t base = b->nstk;
	uint64_t n;
	if (shlo_b_region_block(b, o, 0) == SHLO_NONE || body == SHLO_NONE)
		return shlo_b_fail(b, o->off, "expected the loop's cond and body regions");
	if (o->nuse != o->nval)
		return shlo_b_fail(b, o->off, "a loop of %u operands and %u results", o->nuse,
		                   o->nval);
	if (enter(b, o) < 0 || shlo_b_push_uses(b, o) < 0 ||
	    loop_count(b, o, id, b->stk + base, &n) < 0)
		return -1;
	shlo_scope m = shlo_b_mark(b);
	uint64_t before = b->visited;
	for (uint64_t i = 0; i < n; i++) {
		if (iteration(b, o, body, base, m, i) < 0)
			return -1;
		if (b->est) { /* estimating: every iteration costs the first one's */
			uint64_t more = et_sat_mul(b->visited - before, n - 1);
			b->visited = et_sat_add(b->visited, more);
			if (shlo_b_count(b, o->off) < 0)
				return -1;
			break;
		}
	}
	shlo_b_bind_results(b, o, b->stk + base);
	b->nstk = base;
	b->depth--;
	return 0;
}

/* FLOPs and bytes of branch k, run dry. */
static int weigh(shlo_b *b, const shlo_op *o, uint32_t k, uint64_t *flops, uint64_t *bytes)
{
	uint64_t f = b->dry_flops, y = b->dry_bytes;
	size_t base = b->nstk;
	shlo_scope m = shlo_b_mark(b);
	uint32_t nret;
	b->dry++;
	b->dry_flops = b->dry_bytes = 0;
	int rc = shlo_b_block(b, shlo_b_region_block(b, o, k), NULL, 0, o->off, &nret);
	*flops = b->dry_flops;
	*bytes = b->dry_bytes;
	b->dry--;
	b->dry_flops = f;
	b->dry_bytes = y;
	shlo_b_unwind(b, m, NULL, 0);
	b->nstk = base;
	return rc;
}

int shlo_ctl_case(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	uint32_t best = 0;
	uint64_t bf = 0, bb = 0;
	if (o->nreg == 0)
		return shlo_b_fail(b, o->off, "expected the branches' regions");
	for (uint32_t k = 0; k < o->nreg; k++)
		if (shlo_b_region_block(b, o, k) == SHLO_NONE)
			return shlo_b_fail(b, o->off, "branch %u has no block", k);
	if (enter(b, o) < 0)
		return -1;
	for (uint32_t k = 0; o->nreg > 1 && k < o->nreg; k++) {
		uint64_t f, y;
		if (weigh(b, o, k, &f, &y) < 0)
			return -1;
		if (k == 0 || f > bf || (f == bf && y > bb)) {
			best = k;
			bf = f;
			bb = y;
		}
	}
	size_t base = b->nstk, len = pfx_indexed(b, o, best);
	int rc = run_and_bind(b, o, shlo_b_region_block(b, o, best), base, 0, "the branch");
	shlo_b_pfx_pop(b, len);
	return rc;
}

/* interpreter.run_parallel(inputs...) {programs = [[@f, ...], ...]}: @f on
 * every process of a rows x columns (replicas x partitions) grid. */
int shlo_ctl_parallel(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	const shlo_attr *a = shlo_find_attr(b->p, o, "programs");
	uint32_t rows, cols, slen;
	size_t sym;
	bool same;
	if (!a || a->val == SIZE_MAX)
		return shlo_b_fail(b, o->off, "expected programs = [[@f, ...], ...]");
	if (shlo_attr_programs(&b->l, a->val, &rows, &cols, &same, &sym, &slen) < 0)
		return -1;
	if (!same || rows == 0 || cols == 0)
		return shlo_b_fail(b, a->val, "expected one program for every process (not %s)",
		                   same ? "none" : "several");
	if ((uint64_t)rows * cols > SHLO_MAX_DEVICES)
		return shlo_b_fail(b, a->val, "more than %u processes", SHLO_MAX_DEVICES);
	if (b->grid_set && (b->replicas != rows || b->partitions != cols))
		return shlo_b_fail(b, a->val, "a grid of %u x %u after one of %u x %u", rows, cols,
		                   b->replicas, b->partitions);
	b->grid_set = true;
	b->replicas = b->x->replicas = rows;
	b->partitions = b->x->partitions = cols;
	uint32_t f = function(b, sym, slen);
	uint32_t blk = f == SHLO_NONE ? SHLO_NONE : shlo_b_region_block(b, &b->p->op[f], 0);
	if (blk == SHLO_NONE)
		return shlo_b_fail(b, a->val, "no function @%.*s with a body",
		                   (int)(slen < 200 ? slen : 200), b->p->s + sym);
	/* process 0's inputs come first; the program is the same everywhere */
	uint32_t narg = b->p->blk[blk].narg, nret;
	size_t base = b->nstk;
	if (enter(b, o) < 0 || shlo_b_push_uses(b, o) < 0)
		return -1;
	for (uint32_t i = o->nuse; i < narg; i++)
		shlo_b_push(b, shlo_b_val(b));
	shlo_scope m = shlo_b_mark(b);
	if (shlo_b_block(b, blk, b->stk + base, narg, o->off, &nret) < 0)
		return -1;
	size_t ret = b->nstk - nret;
	shlo_b_unwind(b, m, b->stk + ret, nret);
	for (uint32_t j = 0; j < o->nval; j++) /* result j is process j / nret's */
		shlo_b_push(b, nret ? b->stk[ret + j % nret] : shlo_b_val(b));
	shlo_b_bind_results(b, o, b->stk + b->nstk - o->nval);
	b->nstk = base;
	b->depth--;
	return 0;
}
