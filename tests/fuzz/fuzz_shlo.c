/* Fuzz et-convert's StableHLO reader (shlo.h): the input is one MLIR text
 * file. Invariants: a read that fails fills the error (exit code 3, one
 * line "fuzz.mlir: line L, column C: ..."); one that succeeds leaves a
 * well-formed program: ops with a unique non-empty name and an opcode,
 * dependencies on earlier ops only, every communicating op naming a set of
 * the right shape (pairs for permute/send/recv), every member a device of
 * the replicas x partitions grid. The ops limit is lowered to 65,536 so
 * that every input stays fast; warnings are off. */
#include "et-convert/stablehlo/shlo.h"
#include "et_strmap.h"
#include "fuzz_util.h"

static void check_program(const xir *x)
{
	et_strmap names = {0};
	uint32_t ranks = xir_ranks(x);
	FUZZ_CHECK(x->replicas >= 1 && x->partitions >= 1 && x->module);
	for (size_t i = 0; i < x->nop; i++) {
		const xir_op *o = &x->op[i];
		uint32_t before = et_strmap_count(&names);
		FUZZ_CHECK(o->name && o->name[0] && o->opcode);
		et_strmap_intern_str(&names, o->name);
		FUZZ_CHECK(et_strmap_count(&names) == before + 1);
		FUZZ_CHECK(o->kind <= XIR_RECV);
		for (uint32_t k = 0; k < o->n_deps; k++)
			FUZZ_CHECK(x->deps[o->dep_off + k] < i);
		if (o->kind == XIR_COMP)
			continue;
		FUZZ_CHECK(o->set < x->nset && o->flops == 0);
		if (o->kind != XIR_COLL)
			FUZZ_CHECK(x->set[o->set].size == 2);
	}
	for (uint32_t s = 0; s < x->nset; s++) {
		const xir_set *set = &x->set[s];
		FUZZ_CHECK(set->size || set->n == 1);
		for (size_t k = 0; k < (size_t)set->n * set->size; k++)
			FUZZ_CHECK(x->members[set->off + k] < ranks);
	}
	et_strmap_free(&names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	shlo_opts_init(&o);
	o.quiet = true;
	o.max_ops = 1 << 16;
	xir_init(&x);
	if (shlo_read(&x, "fuzz.mlir", (const char *)data, size, &o, &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && e.msg[0] && strchr(e.msg, '\n') == NULL);
		FUZZ_CHECK(strstr(e.msg, "fuzz.mlir: line ") == e.msg);
	} else {
		check_program(&x);
	}
	xir_free(&x);
	return 0;
}
