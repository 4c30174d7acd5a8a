/* shlo_build: the builder that walks the AST from the entry function and
 * appends the per-device program to an xir (shlo.h states the mapping).
 * Its files: shlo_build.c (values, scopes, emitting, blocks), shlo_name.c
 * (op names), shlo_run.c (one op: elided, emitted or control),
 * shlo_cost.c (compute ops), shlo_coll.c (collectives and their groups),
 * shlo_ctl.c (calls, loops, branches, shard_map bodies, run_parallel),
 * shlo_trip.c (counted loops), shlo_read.c (the entry point).
 *
 * Values: every SSA value the walk meets is a shlo_val, the xir ops it
 * depends on (an elided op's value carries its operands' dependencies)
 * plus, for a tuple, its elements' and, for an integer scalar constant,
 * its value. Names are bound to values in scopes: a region, a call or a
 * loop iteration opens one (shlo_b_mark) and closes it keeping only the
 * values it yields (shlo_b_unwind), so memory follows the nesting, not
 * the number of ops unrolled.
 *
 * Dry runs (b->dry > 0) weigh a case branch: ops add their FLOPs and bytes
 * to b->dry_flops / dry_bytes instead of going into the xir.
 *
 * The estimate (b->est, a dry run of the whole entry function before the
 * real walk) counts the ops the walk would visit without expanding: a loop
 * runs its first iteration and counts it trip-count times, a function runs
 * on its first call and counts what that cost on every later call. So a
 * program that unrolls or inlines past max_ops is refused in time and
 * memory of its text, not of its expansion. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_BUILD_H
#define ET_CONVERT_STABLEHLO_SHLO_BUILD_H

#include "et-convert/stablehlo/shlo.h"
#include "et-convert/stablehlo/shlo_ast.h"
#include "et-convert/stablehlo/shlo_attr.h"

typedef struct shlo_val {
	uint32_t dep, ndep; /* b->dep[dep ..] */
	uint32_t el, nel;   /* a tuple's elements: b->el[el ..] */
	int64_t cst;
	bool has_cst;
} shlo_val;

typedef struct shlo_el {
	uint32_t dep, ndep;
} shlo_el;

typedef struct shlo_undo {
	uint32_t sym, val, n;
} shlo_undo;

typedef struct shlo_scope {
	size_t nval, ndep, nel, nundo;
} shlo_scope;

typedef struct shlo_b {
	xir *x;
	shlo_prog *p;
	shlo_lex l; /* reads attribute values again */
	et_error *e;
	const shlo_opts *o;
	uint32_t mod;      /* the module op, SHLO_NONE: the top level */
	et_strmap funcs;   /* the module's functions by name */
	uint32_t *func_op; /* per function id: its op */
	uint32_t *bind;    /* per symbol: its first value, SHLO_NONE unbound */
	uint32_t *bindn;   /* per symbol: how many values */
	shlo_undo *undo;
	size_t nundo, capundo;
	shlo_val *val;
	size_t nval, capval;
	uint32_t *dep;
	size_t ndep, capdep;
	shlo_el *el;
	size_t nel, capel;
	uint32_t *stk; /* value ids handed between regions */
	size_t nstk, capstk;
	uint32_t *tmp; /* a dependency union being built */
	size_t ntmp, captmp;
	uint32_t *save; /* values kept across an unwind */
	size_t nsave, capsave;
	unsigned depth;
	unsigned dry;
	uint64_t dry_flops, dry_bytes;
	uint64_t visited, max_ops, max_deps;
	bool est;         /* the estimate run */
	uint64_t *est_fn; /* per AST op (a function): ops a call costs + 1, 0 unknown */
	char *pfx;        /* name prefix of inlined code */
	size_t npfx, cappfx;
	char *nbuf;
	size_t capnbuf;
	et_strmap names, bases;
	uint32_t *next_suffix; /* per base name */
	size_t capsuffix;
	const char **opcode; /* per AST op, interned lazily in the xir */
	uint32_t replicas, partitions;
	bool grid_set; /* by interpreter.run_parallel */
	shlo_i64s m;   /* scratch for attribute reads */
	uint32_t *ids;
	size_t nids, capids;
	bool warned_dynamic;
} shlo_b;

int shlo_b_init(shlo_b *b, xir *x, shlo_prog *p, uint32_t mod, const shlo_opts *o, et_error *e);
void shlo_b_free(shlo_b *b);

/* Fails when b->visited is past max_ops (off: the op, for the message). */
int shlo_b_count(shlo_b *b, size_t off);
/* Errors and warnings at an offset of the text. */
int shlo_b_fail(shlo_b *b, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void shlo_b_warn(shlo_b *b, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

shlo_scope shlo_b_mark(const shlo_b *b);
/* Closes scopes back to m, keeping values ids[0..n) (rewritten in place). */
void shlo_b_unwind(shlo_b *b, shlo_scope m, uint32_t *ids, uint32_t n);
/* A new value with no dependencies. */
uint32_t shlo_b_val(shlo_b *b);
/* Pushes value v onto b->stk (v is read before the stack grows). */
void shlo_b_push(shlo_b *b, uint32_t v);
/* The value of operand i of op o. */
int shlo_b_use(shlo_b *b, const shlo_op *o, uint32_t i, uint32_t *vid);
/* Pushes operand values of o onto b->stk. */
int shlo_b_push_uses(shlo_b *b, const shlo_op *o);
/* Binds o's results to copies of vals[0..o->nval). */
void shlo_b_bind_results(shlo_b *b, const shlo_op *o, const uint32_t *vals);
/* Binds each of o's results to a new copy of *v. */
void shlo_b_bind_all(shlo_b *b, const shlo_op *o, const shlo_val *v);
/* Binds o's results to new values with no dependencies. */
void shlo_b_bind_empty(shlo_b *b, const shlo_op *o);
void shlo_b_bind(shlo_b *b, uint32_t sym, uint32_t first, uint32_t n);

/* Value and dependency internals shared by shlo_build.c and shlo_run.c. */
uint32_t shlo_b_val_add(shlo_b *b, const shlo_val *v);
/* Appends d[0..n) to the dependency pool; returns where they start. */
uint32_t shlo_b_deps_add(shlo_b *b, const uint32_t *d, uint32_t n);
/* b->tmp = the union of the dependencies of operands [from, to) of o,
 * sorted and unique (b->ntmp of them). */
int shlo_b_gather(shlo_b *b, const shlo_op *o, uint32_t from, uint32_t to);
/* Fails when `more` dependencies would pass the limit. */
int shlo_b_check_deps(shlo_b *b, const shlo_op *o, size_t more);
/* Binds o's results (an elided op) to the union of operands [from, to)'s
 * dependencies. */
int shlo_b_bind_union(shlo_b *b, const shlo_op *o, uint32_t from, uint32_t to);
/* shlo_name.c: o's unique name and its opcode, in the xir's arena. */
const char *shlo_b_name(shlo_b *b, const shlo_op *o);
const char *shlo_b_opcode(shlo_b *b, uint32_t id);

/* Runs block blk with its arguments bound to args[0..nargs) (read before
 * anything else: args may point into b->stk); what its terminator returns
 * is pushed on b->stk, *nret values. off: the op, for messages. */
int shlo_b_block(shlo_b *b, uint32_t blk, const uint32_t *args, uint32_t nargs, size_t off,
                 uint32_t *nret);
/* The first block of region k of op o. */
uint32_t shlo_b_region_block(const shlo_b *b, const shlo_op *o, uint32_t k);
/* shlo_run.c: runs one op. */
int shlo_b_op(shlo_b *b, uint32_t id);
/* Appends compute or communication op xo made of AST op id (its deps are
 * its operands'), binding its results to values that depend on it. */
int shlo_b_emit(shlo_b *b, uint32_t id, xir_op *xo);
/* Name prefix stack: push returns the length to pop back to. */
size_t shlo_b_pfx_push(shlo_b *b, const char *seg, size_t n, const char *suffix);
void shlo_b_pfx_pop(shlo_b *b, size_t len);
/* The text of a result symbol (without '%'). */
const char *shlo_b_sym(const shlo_b *b, uint32_t sym);

/* shlo_cost.c: xo filled for a compute op. */
int shlo_cost(shlo_b *b, uint32_t id, xir_op *xo);
/* shlo_coll.c: xo filled for a communication op; *skip when it is a host
 * transfer or a send/recv without peers (elided with a warning). */
int shlo_coll(shlo_b *b, uint32_t id, xir_op *xo, bool *skip);
/* shlo_ctl.c */
int shlo_ctl_call(shlo_b *b, uint32_t id, size_t sym, uint32_t slen);
int shlo_ctl_while(shlo_b *b, uint32_t id);
int shlo_ctl_case(shlo_b *b, uint32_t id);
int shlo_ctl_manual(shlo_b *b, uint32_t id);
int shlo_ctl_parallel(shlo_b *b, uint32_t id);
/* shlo_trip.c: a counted loop's trip count; false when it is not one.
 * init: the loop's initial values. */
bool shlo_trip(shlo_b *b, uint32_t id, const uint32_t *init, uint64_t *n);

#endif
