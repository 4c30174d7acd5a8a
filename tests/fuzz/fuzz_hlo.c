/* Fuzz et-convert's XLA HLO reader (hlo_read) on the raw bytes (not NUL
 * terminated, so a read past the end is an ASan finding), with loops capped
 * at 64 iterations and programs at 65,536 ops so that every input runs fast.
 * Invariants: a refusal fills the error (exit code 3, one line
 * "f.hlo: line L, column C: ...") and prints nothing; a program that reads
 * has ops whose dependencies come earlier, collectives and point-to-point
 * ops whose sets exist and name ranks of the program (a group set: n groups
 * of `size`, or every rank; a pair set: size 2), unique op names, no more
 * ops than the cap, and reads again to the same dump. */
#include "et-convert/hlo/hlo.h"
#include "fuzz_util.h"

static char *dump(const xir *x, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	FUZZ_CHECK(f != NULL);
	xir_dump(f, x);
	fclose(f);
	return buf;
}

static void check_sets(const xir *x)
{
	uint32_t ranks = xir_ranks(x);
	for (uint32_t s = 0; s < x->nset; s++) {
		const xir_set *st = &x->set[s];
		FUZZ_CHECK(st->size > 0 || st->n == 1);
		FUZZ_CHECK(st->off + (size_t)st->n * st->size <= x->nmem);
		for (size_t k = 0; k < (size_t)st->n * st->size; k++)
			FUZZ_CHECK(x->members[st->off + k] < ranks);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void check_ops(const xir *x, uint64_t max_ops)
{
	FUZZ_CHECK(x->nop <= max_ops && x->module != NULL);
	FUZZ_CHECK(x->replicas >= 1 && x->partitions >= 1);
	const char **names = malloc((x->nop + 1) * sizeof *names);
	for (size_t i = 0; i < x->nop; i++) {
		const xir_op *o = &x->op[i];
		FUZZ_CHECK(o->kind <= XIR_RECV && o->name && o->opcode);
		FUZZ_CHECK(o->dep_off + (size_t)o->n_deps <= x->ndeps);
		for (uint32_t k = 0; k < o->n_deps; k++)
			FUZZ_CHECK(x->deps[o->dep_off + k] < i);
		if (o->kind == XIR_COMP) {
			FUZZ_CHECK(o->coll == -1);
		} else {
			FUZZ_CHECK(o->set < x->nset && o->flops == 0);
			if (o->kind != XIR_COLL)
				FUZZ_CHECK(x->set[o->set].size == 2 && o->coll == -1);
		}
		if (o->kind == XIR_COLL)
			FUZZ_CHECK(o->coll >= 0 && o->coll < ET_COLL_TYPE_COUNT);
		names[i] = o->name;
	}
	qsort(names, x->nop, sizeof *names, cmp_str);
	for (size_t i = 1; i < x->nop; i++)
		FUZZ_CHECK(strcmp(names[i - 1], names[i]) != 0);
	free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hlo_opts o;
	hlo_opts_init(&o);
	o.max_unroll = 64;
	o.max_ops = 1 << 16;
	o.quiet = true;
	/* a copy of exactly size bytes: ASan sees a read past the end */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	xir x;
	et_error e = {0};
	xir_init(&x);
	int r = hlo_read(&x, "f.hlo", text, size, &o, &e);
	if (r < 0) {
		fuzz_check_error(&e);
		FUZZ_CHECK(e.code == ET_EXIT_DATA && strchr(e.msg, '\n') == NULL);
		FUZZ_CHECK(strstr(e.msg, "f.hlo: line ") == e.msg && strstr(e.msg, ", column "));
	} else {
		check_ops(&x, o.max_ops);
		check_sets(&x);
		size_t n1, n2;
		char *d1 = dump(&x, &n1);
		xir y;
		xir_init(&y);
		FUZZ_CHECK(hlo_read(&y, "f.hlo", text, size, &o, &e) == r);
		char *d2 = dump(&y, &n2);
		FUZZ_CHECK(n1 == n2 && memcmp(d1, d2, n1) == 0);
		free(d1);
		free(d2);
		xir_free(&y);
	}
	xir_free(&x);
	free(text);
	return 0;
}
