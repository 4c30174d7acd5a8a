/* shlo_read: the StableHLO reader's entry point (shlo.h): limits, the
 * module and entry function, the device grid, the refusal of programs not
 * yet partitioned, and the walk from the entry function. */
#include "et-convert/stablehlo/shlo.h"
#include "et-convert/stablehlo/shlo_build.h"
#include "et-convert/stablehlo/shlo_ops.h"
#include "et_mem.h"

#include <string.h>

void shlo_opts_init(shlo_opts *o)
{
	memset(o, 0, sizeof *o);
}

static bool sym_is(const shlo_prog *p, const shlo_op *o, const char *name)
{
	return o->slen == strlen(name) && memcmp(p->s + o->sym, name, o->slen) == 0;
}

/* The module to convert (SHLO_NONE: functions at the top level), and how
 * many the file holds. */
static int pick_module(const shlo_prog *p, const shlo_opts *o, et_error *e, uint32_t *mod,
                       uint32_t *count)
{
	const shlo_block *top = &p->blk[p->top];
	const uint32_t *ops = shlo_block_ops(p, top);
	*mod = SHLO_NONE;
	*count = 0;
	for (uint32_t i = 0; i < top->nop; i++) {
		const shlo_op *m = &p->op[ops[i]];
		if (m->kind != SHLO_OP_MODULE)
			continue;
		(*count)++;
		if (*mod == SHLO_NONE && (!o->module || sym_is(p, m, o->module)))
			*mod = ops[i];
	}
	if (o->module && *mod == SHLO_NONE)
		return shlo_fail_at(e, p->name, p->s, 0, "no module @%.200s in the file",
		                    o->module);
	return 0;
}

/* mhlo.num_replicas / mhlo.num_partitions (absent: 1). */
static int grid_attr(shlo_b *b, const char *key, uint32_t *v)
{
	const shlo_attr *a =
	    b->mod == SHLO_NONE ? NULL : shlo_find_attr(b->p, &b->p->op[b->mod], key);
	int64_t x;
	*v = 1;
	if (!a || a->val == SIZE_MAX)
		return 0;
	if (shlo_attr_int(&b->l, a->val, &x) < 0)
		return -1;
	if (x < 1 || x > SHLO_MAX_DEVICES)
		return shlo_b_fail(b, a->val, "%s must be from 1 to %u", key, SHLO_MAX_DEVICES);
	*v = (uint32_t)x;
	return 0;
}

static int grid(shlo_b *b)
{
	if (grid_attr(b, "mhlo.num_replicas", &b->replicas) < 0 ||
	    grid_attr(b, "mhlo.num_partitions", &b->partitions) < 0)
		return -1;
	if ((uint64_t)b->replicas * b->partitions > SHLO_MAX_DEVICES)
		return shlo_b_fail(b, b->p->op[b->mod].off, "more than %u devices",
		                   SHLO_MAX_DEVICES);
	b->x->replicas = b->replicas;
	b->x->partitions = b->partitions;
	return 0;
}

/* The block holding the module's functions. */
static uint32_t module_block(const shlo_b *b)
{
	return b->mod == SHLO_NONE ? b->p->top : shlo_b_region_block(b, &b->p->op[b->mod], 0);
}

static void index_functions(shlo_b *b)
{
	uint32_t blk = module_block(b);
	if (blk == SHLO_NONE)
		return;
	const shlo_block *k = &b->p->blk[blk];
	const uint32_t *ops = shlo_block_ops(b->p, k);
	b->func_op = et_xmalloc((k->nop + 1) * sizeof *b->func_op);
	for (uint32_t i = 0; i < k->nop; i++) {
		const shlo_op *f = &b->p->op[ops[i]];
		if (f->kind != SHLO_OP_FUNC || f->slen == 0)
			continue;
		uint32_t n = et_strmap_count(&b->funcs);
		uint32_t id = et_strmap_intern(&b->funcs, b->p->s + f->sym, f->slen);
		if (et_strmap_count(&b->funcs) > n) /* the first of a name wins */
			b->func_op[id] = ops[i];
	}
}

static uint32_t find(const shlo_b *b, const char *name)
{
	uint32_t f = et_strmap_find(&b->funcs, name);
	return f == ET_STRMAP_NONE ? SHLO_NONE : b->func_op[f];
}

/* The entry function: the one named, else @main, else the only public one. */
static int entry(shlo_b *b, uint32_t *f)
{
	size_t off = b->mod == SHLO_NONE ? 0 : b->p->op[b->mod].off;
	*f = find(b, b->o->entry ? b->o->entry : "main");
	if (*f != SHLO_NONE)
		return 0;
	if (b->o->entry)
		return shlo_b_fail(b, off, "no function @%.200s", b->o->entry);
	uint32_t pub = 0;
	for (uint32_t i = 0; i < et_strmap_count(&b->funcs); i++)
		if (!b->p->op[b->func_op[i]].priv) {
			pub++;
			*f = b->func_op[i];
		}
	if (pub != 1)
		return shlo_b_fail(
		    b, off, "no @main and %u public functions: name the entry function", pub);
	return 0;
}

/* Sharding annotations and no collectives: the program still has to go
 * through XLA's SPMD partitioner. */
static int refuse_unpartitioned(shlo_b *b)
{
	const shlo_prog *p = b->p;
	size_t shard = b->mod == SHLO_NONE ? p->shard : p->op[b->mod].shard;
	uint32_t from = b->mod == SHLO_NONE ? 0 : p->op[b->mod].first;
	uint32_t to = b->mod == SHLO_NONE ? (uint32_t)p->nop : b->mod;
	if (shard == SIZE_MAX || (uint64_t)b->replicas * b->partitions <= 1)
		return 0;
	for (uint32_t i = from; i < to; i++)
		if (shlo_op_communicates(p->op[i].kind))
			return 0;
	return shlo_b_fail(
	    b, shard,
	    "sharding annotations and no collectives: the program is not partitioned "
	    "yet; dump the partitioned HLO with XLA_FLAGS=--xla_dump_to=DIR and "
	    "convert DIR/*.after_spmd_partitioner.txt with --from hlo");
}

/* The estimate run (shlo_build.h) over the entry block, whose arguments
 * are b->stk[0..narg); leaves b as it found it (warnings it would have
 * given are the real walk's). */
static int estimate(shlo_b *b, uint32_t blk, uint32_t narg, size_t off)
{
	shlo_scope m = shlo_b_mark(b);
	uint32_t nret;
	b->est = true;
	b->dry++;
	int rc = shlo_b_block(b, blk, b->stk, narg, off, &nret);
	b->dry--;
	b->est = false;
	if (rc < 0)
		return -1;
	shlo_b_unwind(b, m, NULL, 0);
	b->nstk = narg;
	b->visited = 0;
	b->depth = 0;
	b->warned_dynamic = false;
	for (size_t i = 0; i < b->p->nop; i++)
		b->p->op[i].seen = 0;
	return 0;
}

static int run(shlo_b *b, uint32_t mods)
{
	uint32_t f, nret;
	if (mods > 1)
		shlo_b_warn(b, b->p->op[b->mod].off, "%u modules in the file: converting @%.*s",
		            mods, (int)(b->p->op[b->mod].slen < 200 ? b->p->op[b->mod].slen : 200),
		            b->p->s + b->p->op[b->mod].sym);
	if (grid(b) < 0 || refuse_unpartitioned(b) < 0)
		return -1;
	index_functions(b);
	if (entry(b, &f) < 0)
		return -1;
	uint32_t blk = shlo_b_region_block(b, &b->p->op[f], 0);
	if (blk == SHLO_NONE)
		return shlo_b_fail(b, b->p->op[f].off, "the entry function has no body");
	uint32_t narg = b->p->blk[blk].narg;
	for (uint32_t i = 0; i < narg; i++)
		shlo_b_push(b, shlo_b_val(b));
	if (estimate(b, blk, narg, b->p->op[f].off) < 0)
		return -1;
	return shlo_b_block(b, blk, b->stk, narg, b->p->op[f].off, &nret);
}

static void module_name(xir *x, const shlo_prog *p, uint32_t mod, const char *name)
{
	if (mod != SHLO_NONE && p->op[mod].slen)
		x->module = (char *)xir_str(x, p->s + p->op[mod].sym, p->op[mod].slen);
	else
		x->module = (char *)xir_str(x, name, SIZE_MAX);
}

int shlo_read(xir *x, const char *name, const char *text, size_t len, const shlo_opts *o,
              et_error *e)
{
	shlo_opts dflt;
	shlo_prog p;
	shlo_b b;
	uint32_t mod, mods;
	if (!o) {
		shlo_opts_init(&dflt);
		o = &dflt;
	}
	if (len > SHLO_MAX_INPUT)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: %zu bytes: larger than the 1 GiB a StableHLO file "
		               "may have",
		               name, len);
	int rc = shlo_parse(&p, name, text, len, e);
	if (rc == 0)
		rc = pick_module(&p, o, e, &mod, &mods);
	if (rc == 0) {
		module_name(x, &p, mod, name);
		rc = shlo_b_init(&b, x, &p, mod, o, e);
		if (rc == 0)
			rc = run(&b, mods);
		shlo_b_free(&b);
	}
	shlo_prog_free(&p);
	return rc;
}
