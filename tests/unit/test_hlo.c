/* Unit test of et-convert's XLA HLO reader (hlo.h): the corpus modules'
 * op and collective counts against numbers derived independently, the
 * three replica-group syntaxes and the four group modes, async pairs as one
 * op, FLOPs and bytes against hand-computed values, loops (known, inferred,
 * unknown, capped), conditionals, elided instructions, and errors with
 * their line and column. argv[1]: the tests/data folder. */
#include "check.h"
#include "et-convert/hlo/hlo.h"
#include "et_types.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *data_dir = "tests/data";

static int rd_opts(xir *x, const char *text, hlo_opts *o, et_error *e)
{
	o->quiet = true;
	xir_init(x);
	memset(e, 0, sizeof *e);
	return hlo_read(x, "t.hlo", text, strlen(text), o, e);
}

static int rd(xir *x, const char *text, et_error *e)
{
	hlo_opts o;
	hlo_opts_init(&o);
	return rd_opts(x, text, &o, e);
}

static int find(const xir *x, const char *name)
{
	for (size_t i = 0; i < x->nop; i++)
		if (!strcmp(x->op[i].name, name))
			return (int)i;
	return -1;
}

/* Op `name`'s dependencies are exactly the ops named in the NULL-ended list. */
static bool deps_are(const xir *x, const char *name, ...)
{
	int i = find(x, name);
	if (i < 0)
		return false;
	const xir_op *o = &x->op[i];
	va_list ap;
	va_start(ap, name);
	uint32_t n = 0;
	bool ok = true;
	for (const char *d; (d = va_arg(ap, const char *)) != NULL; n++) {
		int j = find(x, d);
		bool hit = false;
		for (uint32_t k = 0; k < o->n_deps; k++)
			hit |= j >= 0 && x->deps[o->dep_off + k] == (uint32_t)j;
		ok &= hit;
	}
	va_end(ap);
	return ok && n == o->n_deps;
}

static bool set_is(const xir *x, uint32_t set, uint32_t n, uint32_t size, const uint32_t *ids)
{
	if (set >= x->nset)
		return false;
	const xir_set *s = &x->set[set];
	if (s->n != n || s->size != size)
		return false;
	return size == 0 || memcmp(x->members + s->off, ids, (size_t)n * size * sizeof *ids) == 0;
}

static size_t count(const xir *x, int kind, const char *opcode)
{
	size_t n = 0;
	for (size_t i = 0; i < x->nop; i++)
		n += (kind < 0 || x->op[i].kind == kind) &&
		     (!opcode || !strcmp(x->op[i].opcode, opcode));
	return n;
}

/* The error is at line:col and says `what`. */
static bool err_is(const et_error *e, int line, int col, const char *what)
{
	char head[64];
	snprintf(head, sizeof head, "t.hlo: line %d, column %d: ", line, col);
	bool ok = e->code == ET_EXIT_DATA && !strncmp(e->msg, head, strlen(head)) &&
	          strstr(e->msg, what) && !strchr(e->msg, '\n');
	if (!ok)
		fprintf(stderr, "  got: %s (wanted %s%s)\n", e->msg, head, what);
	return ok;
}

static bool fails(const char *text, int line, int col, const char *what)
{
	xir x;
	et_error e;
	bool ok = rd(&x, text, &e) == -1 && err_is(&e, line, col, what);
	xir_free(&x);
	return ok;
}

static char *slurp(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/compiler/%s", data_dir, name);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *t = malloc((size_t)n + 1);
	*len = fread(t, 1, (size_t)n, f);
	fclose(f);
	return t;
}

static int rd_file(xir *x, const char *name, et_error *e)
{
	size_t len;
	char *t = slurp(name, &len);
	hlo_opts o;
	hlo_opts_init(&o);
	o.quiet = true;
	xir_init(x);
	memset(e, 0, sizeof *e);
	int r = t ? hlo_read(x, name, t, len, &o, e) : -1;
	free(t);
	if (r < 0)
		fprintf(stderr, "%s: %s\n", name, e->msg);
	return r;
}

/* The corpus (tests/data/compiler, provenance in tests/data/README.md).
 * Expected counts come from tests/data/compiler/hlo_counts.py, a separate
 * line-based reading of the same mapping:
 *
 *   python3 tests/data/compiler/hlo_counts.py tests/data/compiler/FILE
 *
 * clarkechong_fsdp.after_spmd_partitioner.txt       total 2: all-gather 1, dot 1
 * clarkechong_gspmd.after_spmd_partitioner.txt      total 2: all-reduce 1, dot 1
 * clarkechong_gspmd.after_optimizations.txt         total 2: all-reduce-start 1, custom-call 1
 * clarkechong_shardmap.after_spmd_partitioner.txt   total 8: all-reduce 1, copy 6, dot 1
 * clarkechong_shardmap.after_optimizations.txt      total 2: all-reduce-start 1, custom-call 1
 * xla_llama3_8b_cp_bf16_1x4.hlo                     total 27876 (dot 934, ...)
 *
 * The Llama module's collectives, per training step: each of its two scan
 * loops (while.36: body %region_1.4_spmd, while.37: body %region_10.15_spmd)
 * runs 32 times (no known_trip_count; condition i < constant(32), counter
 * from constant(0), +1 per iteration). The static counts
 *   grep -c ' all-reduce(' FILE = 50, ' all-gather(' = 18, ' collective-permute(' = 11
 * split by computation,
 *   awk '/^[%A-Za-z]/ && /\{$/ {c = $1 == "ENTRY" ? $2 : $1}
 *        / all-reduce\(/ {ar[c]++} ...' FILE
 * as: entry 41 AR + 4 AG; %region_1.4_spmd 7 AG + 3 CP;
 * %region_10.15_spmd 9 AR + 7 AG + 8 CP; none in the conditional branches.
 * Per step: AR 41 + 32 * 9 = 329, AG 4 + 32 * (7 + 7) = 452, CP 32 * (3 + 8) = 352
 * (the figures of tests/data's SOURCES row). */
static void test_small_corpus(void)
{
	xir x;
	et_error e;
	int i;
	static const uint64_t mm8[4] = {128, 512, 512, 1}, mm[4] = {4096, 14336, 512, 1};

	CHECK(rd_file(&x, "clarkechong_fsdp.after_spmd_partitioner.txt", &e) == 0);
	CHECK(x.nop == 2 && x.replicas == 1 && x.partitions == 8 &&
	      !strcmp(x.module, "jit_sharding_fsdp"));
	CHECK((i = find(&x, "all-gather")) == 0);
	CHECK(x.op[0].kind == XIR_COLL && x.op[0].coll == ET_COLL_ALL_GATHER);
	CHECK(x.op[0].bytes == 64 * 512 * 2 && x.op[0].channel == 1);
	CHECK(set_is(&x, x.op[0].set, 1, 0, NULL)); /* mesh {'axis_0'} of 8 x 1: every rank */
	CHECK((i = find(&x, "dot")) == 1 && x.op[1].flops == 2ull * 128 * 512 * 512);
	CHECK(!memcmp(x.op[1].gemm, mm8, sizeof mm8));
	CHECK(x.op[1].bytes == (128 * 512 + 512 * 512 + 128 * 512) * 2);
	CHECK(deps_are(&x, "dot", "all-gather", NULL));
	xir_free(&x);

	CHECK(rd_file(&x, "clarkechong_gspmd.after_spmd_partitioner.txt", &e) == 0);
	CHECK(x.nop == 2 && x.partitions == 8);
	CHECK((i = find(&x, "dot")) >= 0 && x.op[i].flops == 2ull * 4096 * 14336 * 512);
	CHECK(i >= 0 && !memcmp(x.op[i].gemm, mm, sizeof mm));
	CHECK((i = find(&x, "all-reduce")) >= 0 && x.op[i].coll == ET_COLL_ALL_REDUCE);
	CHECK(i >= 0 && x.op[i].bytes == 4096ull * 14336 * 2 &&
	      set_is(&x, x.op[i].set, 1, 0, NULL));
	CHECK(deps_are(&x, "all-reduce", "dot", NULL));
	xir_free(&x);

	/* after optimizations: the dot is a __cublas$lt$matmul custom-call, the
	 * all-reduce an all-reduce-start/-done pair */
	CHECK(rd_file(&x, "clarkechong_gspmd.after_optimizations.txt", &e) == 0);
	CHECK(x.nop == 2);
	CHECK((i = find(&x, "custom-call.1")) >= 0 && x.op[i].flops == 2ull * 4096 * 14336 * 512);
	CHECK(i >= 0 && !memcmp(x.op[i].gemm, mm, sizeof mm));
	/* operands + the (result, workspace) tuple */
	CHECK(i >= 0 && x.op[i].bytes == 4194304ull + 14680064 + 117440512 + 79691776);
	CHECK((i = find(&x, "all-reduce-start")) >= 0 && x.op[i].kind == XIR_COLL);
	CHECK(i >= 0 && x.op[i].bytes == 117440512 && x.op[i].channel == 1);
	CHECK(deps_are(&x, "all-reduce-start", "custom-call.1", NULL));
	xir_free(&x);

	CHECK(rd_file(&x, "clarkechong_shardmap.after_spmd_partitioner.txt", &e) == 0);
	CHECK(x.nop == 8 && count(&x, XIR_COMP, "copy") == 6);
	CHECK(deps_are(&x, "dot_general.3", "copy", "copy.1", NULL));
	CHECK((i = find(&x, "psum_invariant.7")) >= 0 && set_is(&x, x.op[i].set, 1, 0, NULL));
	CHECK(deps_are(&x, "psum_invariant.7", "dot_general.3", NULL));
	CHECK(deps_are(&x, "copy.2", "shard_map.18", NULL));
	xir_free(&x);

	CHECK(rd_file(&x, "clarkechong_shardmap.after_optimizations.txt", &e) == 0);
	CHECK(x.nop == 2 && deps_are(&x, "all-reduce-start", "custom-call.1", NULL));
	xir_free(&x);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool names_unique(const xir *x)
{
	const char **v = malloc((x->nop + 1) * sizeof *v);
	for (size_t i = 0; i < x->nop; i++)
		v[i] = x->op[i].name;
	qsort(v, x->nop, sizeof *v, cmp_names);
	bool ok = true;
	for (size_t i = 1; i < x->nop; i++)
		ok &= strcmp(v[i - 1], v[i]) != 0;
	free(v);
	return ok;
}

static void test_llama(void)
{
	xir x;
	et_error e;
	struct timespec t0, t1;
	static const uint32_t ring[] = {0, 1, 1, 2, 2, 3, 3, 0};
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(rd_file(&x, "xla_llama3_8b_cp_bf16_1x4.hlo", &e) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	printf("xla_llama3_8b_cp_bf16_1x4.hlo (670 KB): %zu ops in %.1f ms\n", x.nop, ms);
	CHECK(x.replicas == 1 && x.partitions == 4 && !strcmp(x.module, "jit_train_step"));
	CHECK(x.nop == 27876);
	CHECK(count(&x, XIR_COLL, "all-reduce") == 329);
	CHECK(count(&x, XIR_COLL, "all-gather") == 452);
	CHECK(count(&x, XIR_PERMUTE, "collective-permute") == 352);
	CHECK(count(&x, XIR_COLL, NULL) == 329 + 452);
	CHECK(count(&x, XIR_COMP, NULL) == 27876 - 329 - 452 - 352);
	CHECK(count(&x, XIR_COMP, "dot") == 934 && count(&x, XIR_COMP, "custom-call") == 384);
	CHECK(x.nset == 2);
	int i = find(&x, "ppermute.3");
	CHECK(i >= 0 && x.op[i].channel == 4 && x.op[i].bytes == 2ull * 2048 * 2 * 8 * 128 * 2);
	CHECK(i >= 0 && set_is(&x, x.op[i].set, 4, 2, ring));
	/* the loop counter: iteration k depends on iteration k - 1 */
	CHECK(deps_are(&x, "add.150#31", "add.150#30", NULL));
	CHECK(find(&x, "add.150#32") < 0);
	CHECK(names_unique(&x));
	/* the one-hot embedding lookup: 2 * 2*2048*4096 * 128256 */
	CHECK((i = find(&x, "dot.34")) >= 0 && x.op[i].flops == 2ull * 2 * 2048 * 4096 * 128256);
	xir_free(&x);
}

static void test_corpus(void)
{
	test_small_corpus();
	test_llama();
}

/* A module of R replicas and P partitions whose entry is one collective
 * OPCODE with attributes ATTRS (an all-reduce or reduce-scatter gets
 * to_apply, an all-gather or all-to-all dimensions={0}). */
static const char *coll_module(int r, int p, const char *opcode, const char *attrs)
{
	static char buf[2048];
	bool reduces = !strcmp(opcode, "all-reduce") || !strcmp(opcode, "reduce-scatter");
	bool dims = !strcmp(opcode, "all-gather") || !strcmp(opcode, "all-to-all") ||
	            !strcmp(opcode, "reduce-scatter");
	snprintf(buf, sizeof buf,
	         "HloModule m, replica_count=%d, num_partitions=%d\n\n"
	         "%%add (a: f32[], b: f32[]) -> f32[] {\n"
	         "  %%a = f32[] parameter(0)\n"
	         "  %%b = f32[] parameter(1)\n"
	         "  ROOT %%s = f32[] add(%%a, %%b)\n"
	         "}\n\n"
	         "ENTRY %%e (p: f32[8]) -> f32[8] {\n"
	         "  %%p = f32[8]{0} parameter(0)\n"
	         "  ROOT %%c = f32[8]{0} %s(%%p), %s%s%s\n"
	         "}\n",
	         r, p, opcode, attrs, reduces ? ", to_apply=%add" : "",
	         dims ? ", dimensions={0}" : "");
	return buf;
}

/* The collective of coll_module has group set n x size ids (size 0: every
 * rank). */
static bool groups_are(int r, int p, const char *opcode, const char *attrs, uint32_t n,
                       uint32_t size, const uint32_t *ids)
{
	xir x;
	et_error e;
	bool ok = rd(&x, coll_module(r, p, opcode, attrs), &e) == 0 && x.nop == 1 &&
	          x.op[0].kind == XIR_COLL && set_is(&x, x.op[0].set, n, size, ids);
	if (!ok)
		fprintf(stderr, "  %s %s: %s\n", opcode, attrs, e.msg);
	xir_free(&x);
	return ok;
}

static bool groups_fail(int r, int p, const char *opcode, const char *attrs, const char *what)
{
	xir x;
	et_error e;
	bool ok = rd(&x, coll_module(r, p, opcode, attrs), &e) == -1 && strstr(e.msg, what) &&
	          e.code == ET_EXIT_DATA && !strncmp(e.msg, "t.hlo: line 11, column ", 23);
	if (!ok)
		fprintf(stderr, "  %s %s: got %s\n", opcode, attrs, e.msg);
	xir_free(&x);
	return ok;
}

#define FLAT "channel_id=1, use_global_device_ids=true, "
#define GLOBAL "use_global_device_ids=true, "
#define AR "all-reduce"

/* The three syntaxes, in flattened ids (channel_id + use_global_device_ids). */
static void test_groups(void)
{
	static const uint32_t pairs01_23[] = {0, 1, 2, 3}, pairs02_13[] = {0, 2, 1, 3};
	static const uint32_t by4[] = {0, 4, 1, 5, 2, 6, 3, 7}, halves[] = {0, 1, 2, 3, 4, 5, 6, 7};
	static const uint32_t t210[] = {0, 4, 2, 6, 1, 5, 3, 7}, sub2[] = {0, 2, 1, 3, 4, 6, 5, 7};
	static const uint32_t bits02[] = {0, 1, 4, 5, 2, 3, 6, 7}, mapped[] = {3, 2, 1, 0};
	/* a list, and {} for every replica */
	CHECK(groups_are(1, 4, AR, FLAT "replica_groups={{0,1},{2,3}}", 2, 2, pairs01_23));
	CHECK(groups_are(4, 1, AR, "replica_groups={}", 1, 0, NULL));
	CHECK(groups_are(4, 1, AR, "replica_groups={{0,1,2,3}}", 1, 0, NULL));
	CHECK(groups_are(1, 4, AR, FLAT "replica_groups={{0,2},{1,3}}", 2, 2, pairs02_13));
	/* iota: [G,S]<=[N] and [G,S]<=[dims]T(perm) */
	CHECK(groups_are(1, 4, AR, FLAT "replica_groups=[2,2]<=[4]", 2, 2, pairs01_23));
	CHECK(groups_are(1, 4, AR, FLAT "replica_groups=[2,2]<=[2,2]T(1,0)", 2, 2, pairs02_13));
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=[4,2]<=[2,4]T(1,0)", 4, 2, by4));
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=[2,4]<=[2,2,2]T(2,1,0)", 2, 4, t210));
	CHECK(groups_are(1, 4, AR, FLAT "replica_groups=[1,4]<=[4]", 1, 0, NULL));
	/* mesh axes: groups along the listed axes, quoted names or not */
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=mesh['a'=2,'b'=4] {'a'}", 4, 2, by4));
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=mesh['a'=2,'b'=4] {'b'}", 2, 4, halves));
	/* {b,a}: one group of every rank (in by4's order): every rank, a set */
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=mesh[a=2,b=4] {b,a}", 1, 0, NULL));
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=mesh['a'=2,'b'=4] {'a','b'}", 1, 0, NULL));
	/* sub-axes: x:(2)2 is the middle bit of x = 8, x:(1)2 the top one */
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=mesh['x'=8] {'x':(2)2}", 4, 2, sub2));
	CHECK(groups_are(1, 8, AR, FLAT "replica_groups=mesh['x'=8] {'x':(1)2,'x':(4)2}", 2, 4,
	                 bits02));
	/* explicit device ids number the mesh's positions */
	CHECK(groups_are(1, 4, AR,
	                 FLAT "replica_groups=mesh['a'=2,'b'=2], device_ids=(3,2,1,0) {'b'}", 2, 2,
	                 mapped));
	CHECK(groups_are(1, 4, AR,
	                 FLAT
	                 "replica_groups=mesh['a'=2,'b'=2], device_ids=([2,2]<=[2,2]T(1,0)) {'a'}",
	                 2, 2, pairs01_23));
	/* what is refused */
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups={{0,4}}", "beyond the 4"));
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups={{0,1},{1,2}}", "names 1 twice"));
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups={{0,1},{2}}", "same size"));
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups={}", "listed"));
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups=[2,3]<=[4]", "[2,3] groups from 4"));
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups=[2,2]<=[2,2]T(0,0)", "T(...)"));
	CHECK(groups_fail(1, 4, AR, FLAT "replica_groups=mesh['a'=4] {'b'}", "no such axis"));
	CHECK(groups_fail(1, 4, AR,
	                  FLAT
	                  "replica_groups=mesh['a'=2,'b'=2], device_ids=([2,2]<=[2,2]T(1,9)) {'a'}",
	                  "T(...)"));
	CHECK(groups_fail(1, 8, AR, FLAT "replica_groups=mesh['x'=8] {'x':(2)2,'x':(1)4}",
	                  "overlap"));
	CHECK(groups_fail(1, 4, AR, "use_global_device_ids=true, replica_groups={{0,1}}",
	                  "needs a channel_id"));
}

/* XLA's CollectiveOpGroupMode with 2 replicas x 2 partitions: flattened id =
 * replica * 2 + partition. */
static void test_modes(void)
{
	static const uint32_t across_replicas[] = {0, 2, 1, 3}, per_replica[] = {0, 1, 2, 3};
	static const uint32_t flat[] = {0, 3, 1, 2};
	/* no channel_id: replica ids, one group per partition */
	CHECK(groups_are(2, 2, AR, "replica_groups={{0,1}}", 2, 2, across_replicas));
	CHECK(groups_are(2, 2, AR, "replica_groups={}", 2, 2, across_replicas));
	CHECK(groups_are(2, 2, "all-to-all", "replica_groups={{0,1}}", 2, 2, across_replicas));
	/* channel_id without use_global_device_ids: replica ids x every partition */
	CHECK(groups_are(2, 2, AR, "channel_id=1, replica_groups={{0},{1}}", 2, 2, per_replica));
	CHECK(groups_are(2, 2, AR, "channel_id=1, replica_groups={{0,1}}", 1, 0, NULL));
	CHECK(groups_are(2, 2, "all-gather", "channel_id=1, replica_groups={}", 1, 0, NULL));
	/* channel_id, an opcode without use_global_device_ids: partition ids */
	CHECK(groups_are(2, 2, "all-to-all", "channel_id=1, replica_groups={{0,1}}", 2, 2,
	                 per_replica));
	CHECK(groups_are(2, 2, "all-to-all", "channel_id=1, replica_groups={}", 2, 2, per_replica));
	/* use_global_device_ids: flattened ids as written */
	CHECK(groups_are(2, 2, AR, FLAT "replica_groups={{0,3},{1,2}}", 2, 2, flat));
	/* the collective kinds */
	xir x;
	et_error e;
	static const struct {
		const char *opcode, *attrs;
		int coll;
	} kinds[] = {
	    {"all-reduce", GLOBAL "channel_id=7, replica_groups={{0,1,2,3}}", ET_COLL_ALL_REDUCE},
	    {"all-gather", GLOBAL "channel_id=7, replica_groups={{0,1,2,3}}", ET_COLL_ALL_GATHER},
	    {"reduce-scatter", GLOBAL "channel_id=7, replica_groups={{0,1,2,3}}",
	     ET_COLL_REDUCE_SCATTER},
	    {"all-to-all", "channel_id=7, replica_groups={{0,1,2,3}}", ET_COLL_ALL_TO_ALL},
	    {"collective-broadcast", "channel_id=7, replica_groups={}", ET_COLL_BROADCAST}};
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		CHECK(rd(&x, coll_module(1, 4, kinds[k].opcode, kinds[k].attrs), &e) == 0);
		CHECK(x.nop == 1 && x.op[0].coll == kinds[k].coll && x.op[0].bytes == 32);
		CHECK(x.nop == 1 && x.op[0].channel == 7 && x.op[0].flops == 0);
		CHECK(x.nop == 1 && set_is(&x, x.op[0].set, 1, 0, NULL));
		xir_free(&x);
	}
}

#define PAIRS                                                                                      \
	"channel_id=5, "                                                                           \
	"frontend_attributes={_xla_send_recv_source_target_pairs=\"{{0,1},{1,2},{2,3}}\"}"

/* A send and a recv with attributes ATTRS, 4 partitions. */
static const char *p2p_module(const char *attrs)
{
	static char buf[2048];
	snprintf(buf, sizeof buf,
	         "HloModule m, num_partitions=4\n"
	         "ENTRY %%e (p: f32[8]) -> f32[8] {\n"
	         "  %%p = f32[8]{0} parameter(0)\n"
	         "  %%tok = token[] after-all()\n"
	         "  %%s = (f32[8]{0}, u32[], token[]) send(%%p, %%tok), %s\n"
	         "  %%sd = token[] send-done(%%s), channel_id=5\n"
	         "  %%r = (f32[8]{0}, u32[], token[]) recv(%%tok), %s\n"
	         "  %%rd = (f32[8]{0}, token[]) recv-done(%%r), channel_id=5\n"
	         "  %%g = f32[8]{0} get-tuple-element(%%rd), index=0\n"
	         "  ROOT %%n = f32[8]{0} negate(%%g)\n"
	         "}\n",
	         attrs, attrs);
	return buf;
}

/* collective-permute pairs by mode, and send/recv pairs from their frontend
 * attribute. */
static void test_pairs(void)
{
	static const uint32_t by_partition[] = {0, 1, 1, 0, 2, 3, 3, 2},
	                      by_replica[] = {0, 2, 1, 3};
	static const uint32_t chain[] = {0, 1, 1, 2, 2, 3};
	xir x;
	et_error e;
	CHECK(rd(&x,
	         coll_module(2, 2, "collective-permute",
	                     "channel_id=1, source_target_pairs={{0,1},{1,0}}"),
	         &e) == 0);
	CHECK(x.nop == 1 && x.op[0].kind == XIR_PERMUTE && x.op[0].bytes == 32);
	CHECK(set_is(&x, x.op[0].set, 4, 2, by_partition));
	xir_free(&x);
	CHECK(rd(&x, coll_module(2, 2, "collective-permute", "source_target_pairs={{0,1}}"), &e) ==
	      0);
	CHECK(x.nop == 1 && set_is(&x, x.op[0].set, 2, 2, by_replica) && x.op[0].channel == -1);
	xir_free(&x);
	CHECK(groups_fail(2, 2, "collective-permute", "channel_id=1, source_target_pairs={{0,2}}",
	                  "beyond the 2 partitions"));
	CHECK(groups_fail(2, 2, "collective-permute", "source_target_pairs={{0,1,1}}",
	                  "a source-target pair of 3 ids"));

	CHECK(rd(&x, p2p_module(PAIRS), &e) == 0);
	CHECK(x.nop == 3 && count(&x, XIR_SEND, "send") == 1 && count(&x, XIR_RECV, "recv") == 1);
	int s = find(&x, "s"), r = find(&x, "r");
	CHECK(s >= 0 && x.op[s].bytes == 32 && x.op[s].channel == 5);
	CHECK(s >= 0 && set_is(&x, x.op[s].set, 3, 2, chain));
	CHECK(r >= 0 && s >= 0 && x.op[r].bytes == 32 && x.op[r].set == x.op[s].set);
	CHECK(deps_are(&x, "n", "r", NULL));
	xir_free(&x);
	/* without pairs: left out, with a warning each; host transfers: no op */
	CHECK(rd(&x, p2p_module("channel_id=5"), &e) == 2);
	CHECK(x.nop == 1 && deps_are(&x, "n", NULL));
	xir_free(&x);
	CHECK(rd(&x, p2p_module("channel_id=5, is_host_transfer=true"), &e) == 0 && x.nop == 1);
	xir_free(&x);
}

/* Async pairs are one op; consumers of the -done depend on it. */
static void test_async(void)
{
	static const char *text =
	    "HloModule m, num_partitions=4\n"
	    "%add (a: f32[], b: f32[]) -> f32[] {\n"
	    "  %a = f32[] parameter(0)\n"
	    "  %b = f32[] parameter(1)\n"
	    "  ROOT %s = f32[] add(%a, %b)\n"
	    "}\n"
	    "%ag_comp (x: f32[4]) -> f32[16] {\n"
	    "  %x = f32[4]{0} parameter(0)\n"
	    "  ROOT %ag = f32[16]{0} all-gather(%x), channel_id=3, replica_groups={{0,1,2,3}}, "
	    "dimensions={0}, use_global_device_ids=true\n"
	    "}\n"
	    "ENTRY %e (p: f32[4]) -> f32[16] {\n"
	    "  %p = f32[4]{0} parameter(0)\n"
	    "  %n = f32[4]{0} negate(%p)\n"
	    "  %ars = f32[4]{0} all-reduce-start(%n), channel_id=1, replica_groups=[1,4]<=[4], "
	    "use_global_device_ids=true, to_apply=%add\n"
	    "  %ard = f32[4]{0} all-reduce-done(%ars)\n"
	    "  %as = ((f32[4]{0}), f32[16]{0}) async-start(%ard), calls=%ag_comp\n"
	    "  %ad = f32[16]{0} async-done(%as)\n"
	    "  %cps = (f32[16]{0}, f32[16]{0}, u32[], u32[]) collective-permute-start(%ad), "
	    "channel_id=2, source_target_pairs={{0,1},{1,0}}\n"
	    "  %cpd = f32[16]{0} collective-permute-done(%cps)\n"
	    "  %rss = ((f32[16]{0}), f32[4]{0}) reduce-scatter-start(%cpd), channel_id=4, "
	    "replica_groups={{0,1,2,3}}, use_global_device_ids=true, dimensions={0}, "
	    "to_apply=%add\n"
	    "  %rsd = f32[4]{0} reduce-scatter-done(%rss)\n"
	    "  %cs = (f32[4]{0}, f32[4]{0}, u32[]) copy-start(%rsd)\n"
	    "  %cd = f32[4]{0} copy-done(%cs)\n"
	    "  ROOT %m = f32[4]{0} multiply(%cd, %cd)\n"
	    "}\n";
	static const uint32_t swap[] = {0, 1, 1, 0};
	xir x;
	et_error e;
	CHECK(rd(&x, text, &e) == 0);
	CHECK(x.nop == 7);
	CHECK(count(&x, XIR_COLL, NULL) == 3 && count(&x, XIR_PERMUTE, NULL) == 1);
	int i = find(&x, "ars");
	CHECK(i >= 0 && x.op[i].coll == ET_COLL_ALL_REDUCE && x.op[i].bytes == 16);
	CHECK(deps_are(&x, "ars", "n", NULL));
	/* the async-start runs its computation: the all-gather, bytes of its operand */
	CHECK((i = find(&x, "ag")) >= 0 && x.op[i].coll == ET_COLL_ALL_GATHER &&
	      x.op[i].bytes == 16);
	CHECK(i >= 0 && x.op[i].channel == 3 && set_is(&x, x.op[i].set, 1, 0, NULL));
	CHECK(deps_are(&x, "ag", "ars", NULL));
	CHECK((i = find(&x, "cps")) >= 0 && x.op[i].kind == XIR_PERMUTE && x.op[i].bytes == 64);
	CHECK(i >= 0 && set_is(&x, x.op[i].set, 2, 2, swap));
	CHECK(deps_are(&x, "cps", "ag", NULL));
	CHECK((i = find(&x, "rss")) >= 0 && x.op[i].coll == ET_COLL_REDUCE_SCATTER);
	CHECK(i >= 0 && x.op[i].bytes == 64 && !strcmp(x.op[i].opcode, "reduce-scatter-start"));
	CHECK(deps_are(&x, "rss", "cps", NULL));
	/* copy-start/-done: one copy, its operand read and written */
	CHECK((i = find(&x, "cs")) >= 0 && x.op[i].kind == XIR_COMP && x.op[i].bytes == 32);
	CHECK(deps_are(&x, "cs", "rss", NULL));
	CHECK(deps_are(&x, "m", "cs", NULL));
	CHECK(find(&x, "ard") < 0 && find(&x, "ad") < 0 && find(&x, "cpd") < 0);
	xir_free(&x);
}

/* FLOPs, bytes and GEMM extents against hand-computed values. */
static void test_flops(void)
{
	static const char *text =
	    "HloModule f\n"
	    "%add (a: f32[], b: f32[]) -> f32[] {\n"
	    "  %a = f32[] parameter(0)\n"
	    "  %b = f32[] parameter(1)\n"
	    "  ROOT %s = f32[] add(%a, %b)\n"
	    "}\n"
	    "%fb (a: f32[1024], b: f32[1024]) -> f32[1024] {\n"
	    "  %a = f32[1024]{0} parameter(0)\n"
	    "  %b = f32[1024]{0} parameter(1)\n"
	    "  %m = f32[1024]{0} multiply(%a, %b)\n"
	    "  ROOT %s = f32[1024]{0} add(%m, %a)\n"
	    "}\n"
	    "%cb (a: f32[64,128], b: f32[128,32]) -> f32[64,32] {\n"
	    "  %a = f32[64,128]{1,0} parameter(0)\n"
	    "  %b = f32[128,32]{1,0} parameter(1)\n"
	    "  ROOT %d = f32[64,32]{1,0} dot(%a, %b), lhs_contracting_dims={1}, "
	    "rhs_contracting_dims={0}\n"
	    "}\n"
	    "ENTRY %e {\n"
	    "  %x = f32[8,16,32]{2,1,0} parameter(0)\n"
	    "  %y = f32[8,32,64]{2,1,0} parameter(1)\n"
	    "  %bd = f32[8,16,64]{2,1,0} dot(%x, %y), lhs_batch_dims={0}, "
	    "lhs_contracting_dims={2}, "
	    "rhs_batch_dims={0}, rhs_contracting_dims={1}\n"
	    "  %img = f32[1,32,32,16]{3,2,1,0} parameter(2)\n"
	    "  %k = f32[3,3,16,64]{3,2,1,0} parameter(3)\n"
	    "  %conv = f32[1,32,32,64]{3,2,1,0} convolution(%img, %k), window={size=3x3 "
	    "pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n"
	    "  %dk = f32[3,3,1,16]{3,2,1,0} parameter(4)\n"
	    "  %dw = f32[1,32,32,16]{3,2,1,0} convolution(%img, %dk), window={size=3x3 "
	    "pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=16\n"
	    "  %ok = f32[64,16,3,3]{3,2,1,0} parameter(11)\n"
	    "  %oc = f32[1,32,32,64]{3,2,1,0} convolution(%img, %ok), window={size=3x3 "
	    "pad=1_1x1_1}, dim_labels=b01f_oi01->b01f\n"
	    "  %v = f32[1024]{0} parameter(5)\n"
	    "  %fu = f32[1024]{0} fusion(%v, %v), kind=kLoop, calls=%fb\n"
	    "  %ma = f32[64,128]{1,0} parameter(6)\n"
	    "  %mb = f32[128,32]{1,0} parameter(7)\n"
	    "  %cf = f32[64,32]{1,0} fusion(%ma, %mb), kind=kCustom, calls=%cb\n"
	    "  %z = f32[16,32]{1,0} parameter(8)\n"
	    "  %zero = f32[] constant(0)\n"
	    "  %r = f32[16]{0} reduce(%z, %zero), dimensions={1}, to_apply=%add\n"
	    "  %w = f32[8,8]{1,0} parameter(9)\n"
	    "  %rw = f32[4,4]{1,0} reduce-window(%w, %zero), window={size=2x2 stride=2x2}, "
	    "to_apply=%add\n"
	    "  %big = f32[32,1024]{1,0} parameter(10)\n"
	    "  %i = s32[] parameter(12)\n"
	    "  %ds = f32[1,1024]{1,0} dynamic-slice(%big, %i, %i), dynamic_slice_sizes={1,1024}\n"
	    "  %dus = f32[32,1024]{1,0} dynamic-update-slice(%big, %ds, %i, %i)\n"
	    "  %cc = (f32[64,32]{1,0}, s8[1024]{0}) custom-call(%ma, %mb), "
	    "custom_call_target=\"__cublas$lt$matmul\", backend_config={\"gemm_backend_config\":"
	    "{\"dot_dimension_numbers\":{\"lhs_contracting_dimensions\":[\"1\"],"
	    "\"rhs_contracting_dimensions\":[\"0\"],\"lhs_batch_dimensions\":[],"
	    "\"rhs_batch_dimensions\":[]}}}\n"
	    "  %cq = (f32[8,16,64]{2,1,0}, s8[4]{0}) custom-call(%x, %y), "
	    "custom_call_target=\"__cublas$gemm\", backend_config=\"{\\\"dot_dimension_numbers\\\":"
	    "{\\\"lhs_contracting_dimensions\\\":[\\\"2\\\"],\\\"rhs_contracting_dimensions\\\":"
	    "[\\\"1\\\"],\\\"lhs_batch_dimensions\\\":[\\\"0\\\"],\\\"rhs_batch_dimensions\\\":"
	    "[\\\"0\\\"]}}\"\n"
	    "  %other = f32[64,32]{1,0} custom-call(%ma, %mb), custom_call_target=\"my_kernel\"\n"
	    "  %h = f16[3,5]{1,0} parameter(13)\n"
	    "  %tr = f16[5,3]{0,1} transpose(%h), dimensions={1,0}\n"
	    "  %ex = f16[3,5]{1,0} exponential(%h)\n"
	    "  %pb = pred[7]{0} parameter(14)\n"
	    "  %nb = pred[7]{0} not(%pb)\n"
	    "  %s4 = s4[3]{0} parameter(15)\n"
	    "  %n4 = s4[3]{0} negate(%s4)\n"
	    "  ROOT %t = () tuple()\n"
	    "}\n";
	xir x;
	et_error e;
	CHECK(rd(&x, text, &e) == 0);
	int i;
#define OP(name) ((i = find(&x, name)) >= 0 ? &x.op[i] : &none)
	xir_op none = {0};
	static const uint64_t g_bd[4] = {16, 64, 32, 8}, g_conv[4] = {1024, 64, 144, 1};
	static const uint64_t g_dw[4] = {1024, 16, 9, 1}, g_mm[4] = {64, 32, 128, 1};
	/* dot with batch dims: 2 * (8*16*64) * 32 */
	CHECK(OP("bd")->flops == 524288 && !memcmp(OP("bd")->gemm, g_bd, sizeof g_bd));
	CHECK(OP("bd")->bytes == (8 * 16 * 32 + 8 * 32 * 64 + 8 * 16 * 64) * 4);
	/* convolution: 2 * (32*32*64) * 3*3 * 16; depthwise (16 groups): kernel
	 * input features 1: 2 * (32*32*16) * 9 * 1; labels oi01 */
	CHECK(OP("conv")->flops == 18874368 && !memcmp(OP("conv")->gemm, g_conv, sizeof g_conv));
	CHECK(OP("dw")->flops == 294912 && !memcmp(OP("dw")->gemm, g_dw, sizeof g_dw));
	CHECK(OP("oc")->flops == 18874368 && !memcmp(OP("oc")->gemm, g_conv, sizeof g_conv));
	/* fusion: its body's FLOPs (multiply + add of 1024), bytes of operands +
	 * result; a kCustom fusion holding a dot counts the dot */
	CHECK(OP("fu")->flops == 2048 && OP("fu")->bytes == 3 * 4096);
	CHECK(!strcmp(OP("fu")->opcode, "fusion") && OP("fu")->kind == XIR_COMP);
	CHECK(OP("cf")->flops == 2 * 64 * 32 * 128 && !memcmp(OP("cf")->gemm, g_mm, sizeof g_mm));
	CHECK(OP("cf")->bytes == (64 * 128 + 128 * 32 + 64 * 32) * 4);
	CHECK(find(&x, "m") < 0 && find(&x, "d") < 0); /* bodies are not ops of their own */
	/* reduce: input elements; reduce-window: result elements * window */
	CHECK(OP("r")->flops == 16 * 32 && OP("rw")->flops == 16 * 4);
	/* dynamic-slice / -update-slice touch the window only */
	CHECK(OP("ds")->flops == 0 && OP("ds")->bytes == 2 * 4096 + 8);
	CHECK(OP("dus")->bytes == 2 * 4096 + 8);
	/* GPU matrix products: JSON or JSON in a string */
	CHECK(OP("cc")->flops == 2 * 64 * 32 * 128 && !memcmp(OP("cc")->gemm, g_mm, sizeof g_mm));
	CHECK(OP("cq")->flops == 524288 && !memcmp(OP("cq")->gemm, g_bd, sizeof g_bd));
	CHECK(OP("other")->flops == 0 && OP("other")->bytes == 32768 + 16384 + 8192);
	/* data movement: no FLOPs; elementwise: one per element; element sizes */
	CHECK(OP("tr")->flops == 0 && OP("tr")->bytes == 60);
	CHECK(OP("ex")->flops == 15 && OP("ex")->bytes == 60);
	CHECK(OP("nb")->flops == 7 && OP("nb")->bytes == 14);
	CHECK(OP("n4")->bytes == 4);
	CHECK(deps_are(&x, "dus", "ds", NULL) && deps_are(&x, "fu", NULL));
	CHECK(x.nop == 17 && count(&x, XIR_COMP, NULL) == 17);
#undef OP
	xir_free(&x);
}

/* A counted loop: the counter starts at START, the condition is
 * COND (e.g. "%i, %lim), direction=LT"), the while has EXTRA attributes. */
static const char *loop_module(int start, int limit, const char *cond, const char *extra)
{
	static char buf[2048];
	snprintf(buf, sizeof buf,
	         "HloModule loops\n"
	         "%%cond (s: (s32[], f32[4])) -> pred[] {\n"
	         "  %%s = (s32[], f32[4]{0}) parameter(0)\n"
	         "  %%i = s32[] get-tuple-element(%%s), index=0\n"
	         "  %%lim = s32[] constant(%d)\n"
	         "  ROOT %%c = pred[] compare(%s\n"
	         "}\n"
	         "%%body (s: (s32[], f32[4])) -> (s32[], f32[4]) {\n"
	         "  %%s = (s32[], f32[4]{0}) parameter(0)\n"
	         "  %%i = s32[] get-tuple-element(%%s), index=0\n"
	         "  %%one = s32[] constant(1)\n"
	         "  %%i1 = s32[] add(%%i, %%one)\n"
	         "  %%v = f32[4]{0} get-tuple-element(%%s), index=1\n"
	         "  %%v1 = f32[4]{0} exponential(%%v)\n"
	         "  ROOT %%t = (s32[], f32[4]{0}) tuple(%%i1, %%v1)\n"
	         "}\n"
	         "ENTRY %%e (p: f32[4]) -> f32[4] {\n"
	         "  %%p = f32[4]{0} parameter(0)\n"
	         "  %%zero = s32[] constant(%d)\n"
	         "  %%init = (s32[], f32[4]{0}) tuple(%%zero, %%p)\n"
	         "  %%w = (s32[], f32[4]{0}) while(%%init), condition=%%cond, body=%%body%s\n"
	         "  %%r = f32[4]{0} get-tuple-element(%%w), index=1\n"
	         "  ROOT %%n = f32[4]{0} negate(%%r)\n"
	         "}\n",
	         limit, cond, start, extra);
	return buf;
}

/* The loop ran `trips` times (2 ops each, plus the negate after it) with
 * `warnings` warnings. */
static bool loop_ran(const char *text, hlo_opts *o, uint64_t trips, int warnings)
{
	xir x;
	et_error e;
	char last[32];
	int r = rd_opts(&x, text, o, &e);
	bool ok = r == warnings && x.nop == 2 * trips + 1;
	if (trips > 1) {
		snprintf(last, sizeof last, "v1#%llu", (unsigned long long)trips - 1);
		ok &= deps_are(&x, "n", last, NULL);
	}
	if (trips == 0)
		ok &= deps_are(&x, "n", NULL);
	if (!ok)
		fprintf(stderr, "  loop: %d ops %zu (%s)\n", r, x.nop, e.msg);
	xir_free(&x);
	return ok;
}

static void test_loops(void)
{
	hlo_opts o;
	hlo_opts_init(&o);
	/* inferred: LT, LE, NE, the constant first, a count of 0 */
	CHECK(loop_ran(loop_module(0, 5, "%i, %lim), direction=LT", ""), &o, 5, 0));
	CHECK(loop_ran(loop_module(0, 5, "%i, %lim), direction=LE", ""), &o, 6, 0));
	CHECK(loop_ran(loop_module(2, 5, "%i, %lim), direction=NE", ""), &o, 3, 0));
	CHECK(loop_ran(loop_module(-3, 5, "%lim, %i), direction=GT", ""), &o, 8, 0));
	CHECK(loop_ran(loop_module(7, 5, "%i, %lim), direction=LT", ""), &o, 0, 0));
	/* known_trip_count wins */
	CHECK(loop_ran(loop_module(0, 5, "%i, %lim), direction=LT",
	                           ", backend_config={\"known_trip_count\":{\"n\":\"3\"}}"),
	               &o, 3, 0));
	/* not a counted loop (GT on a counter that grows): once, with a warning */
	CHECK(loop_ran(loop_module(0, 5, "%i, %lim), direction=GT", ""), &o, 1, 1));
	CHECK(loop_ran(loop_module(0, 5, "%i, %i), direction=LT", ""), &o, 1, 1));
	/* max_unroll caps a loop, with a warning */
	o.max_unroll = 2;
	CHECK(loop_ran(loop_module(0, 5, "%i, %lim), direction=LT", ""), &o, 2, 1));
	/* the body: iteration k depends on iteration k - 1 */
	xir x;
	et_error e;
	hlo_opts_init(&o);
	CHECK(rd_opts(&x, loop_module(0, 3, "%i, %lim), direction=LT", ""), &o, &e) == 0);
	CHECK(deps_are(&x, "v1", NULL) && deps_are(&x, "v1#1", "v1", NULL));
	CHECK(deps_are(&x, "v1#2", "v1#1", NULL) && deps_are(&x, "i1#2", "i1#1", NULL));
	xir_free(&x);
	/* the op limit is checked on an estimate before anything is unrolled, the
	 * ops the walk makes (11 for 5 trips), and names --max-unroll */
	CHECK(rd_opts(&x, loop_module(0, 5, "%i, %lim), direction=LT", ""), &o, &e) == 0);
	CHECK(x.nop == 11);
	xir_free(&x);
	o.max_ops = 11;
	CHECK(rd_opts(&x, loop_module(0, 5, "%i, %lim), direction=LT", ""), &o, &e) == 0);
	xir_free(&x);
	o.max_ops = 10;
	CHECK(rd_opts(&x, loop_module(0, 5, "%i, %lim), direction=LT", ""), &o, &e) == -1);
	CHECK(err_is(&e, 23, 8,
	             "unrolling loops and inlining calls would make about 11 ops and 86 steps, "
	             "more than 10 ops or 640 steps (estimated before expanding: trip counts "
	             "times bodies; lower --max-unroll, now 100000)"));
	CHECK(x.nop == 0);
	xir_free(&x);
	/* a loop of zero-cost instructions makes no op but is bounded all the same */
	static const char *idle = "HloModule w\n"
	                          "%c (s: f32[]) -> pred[] {\n"
	                          "  %s = f32[] parameter(0)\n"
	                          "  ROOT %t = pred[] constant(true)\n"
	                          "}\n"
	                          "%b (p: f32[]) -> f32[] {\n"
	                          "  %p = f32[] parameter(0)\n"
	                          "  ROOT %r = f32[] bitcast(%p)\n"
	                          "}\n"
	                          "ENTRY %e (p: f32[]) -> f32[] {\n"
	                          "  %p = f32[] parameter(0)\n"
	                          "  ROOT %w = f32[] while(%p), condition=%c, body=%b, "
	                          "backend_config={\"known_trip_count\":{\"n\":\"1000\"}}\n"
	                          "}\n";
	hlo_opts_init(&o);
	CHECK(rd_opts(&x, idle, &o, &e) == 0 && x.nop == 0);
	xir_free(&x);
	o.max_ops = 10;
	CHECK(rd_opts(&x, idle, &o, &e) == -1 && e.code == ET_EXIT_DATA);
	CHECK(strstr(e.msg, "would make about 0 ops and 4003 steps, more than 10 ops or 640 "
	                    "steps") != NULL);
	xir_free(&x);
	/* a loop of 200,000 trips is capped at the default 100,000 */
	hlo_opts_init(&o);
	CHECK(loop_ran(loop_module(0, 200000, "%i, %lim), direction=LT", ""), &o, 100000, 1));
}

/* A conditional runs its most expensive branch; its ops depend on the
 * predicate. */
static void test_conditional(void)
{
	static const char *text =
	    "HloModule c\n"
	    "%t (a: f32[64]) -> f32[64] {\n"
	    "  %a = f32[64]{0} parameter(0)\n"
	    "  ROOT %x = f32[64]{0} exponential(%a)\n"
	    "}\n"
	    "%f (a: f32[64]) -> f32[64] {\n"
	    "  %a = f32[64]{0} parameter(0)\n"
	    "  %m = f32[64]{0} multiply(%a, %a)\n"
	    "  ROOT %y = f32[64]{0} add(%m, %a)\n"
	    "}\n"
	    "%g (a: f32[64]) -> f32[64] {\n"
	    "  %a = f32[64]{0} parameter(0)\n"
	    "  ROOT %z = f32[64]{0} broadcast(%a), dimensions={0}\n"
	    "}\n"
	    "ENTRY %e (p: f32[64], q: f32[]) -> f32[64] {\n"
	    "  %p = f32[64]{0} parameter(0)\n"
	    "  %q = f32[] parameter(1)\n"
	    "  %zero = f32[] constant(0)\n"
	    "  %pc = pred[] compare(%q, %zero), direction=GT\n"
	    "  %v = f32[64]{0} negate(%p)\n"
	    "  %c = f32[64]{0} conditional(%pc, %v, %v), true_computation=%t, "
	    "false_computation=%f\n"
	    "  %k = s32[] convert(%q)\n"
	    "  %b = f32[64]{0} conditional(%k, %c, %c, %c), branch_computations={%g, %t, %g}\n"
	    "  ROOT %r = f32[64]{0} sqrt(%b)\n"
	    "}\n";
	xir x;
	et_error e;
	CHECK(rd(&x, text, &e) == 0);
	/* false (128 FLOPs) over true (64); then %t (64) over %g (0) */
	CHECK(x.nop == 7 && find(&x, "m") >= 0 && find(&x, "y") >= 0 && find(&x, "x") >= 0);
	CHECK(deps_are(&x, "m", "v", "pc", NULL) && deps_are(&x, "y", "m", "v", "pc", NULL));
	CHECK(deps_are(&x, "x", "y", "k", NULL) && deps_are(&x, "r", "x", NULL));
	xir_free(&x);
}

/* Zero-cost instructions pass their dependencies on, element by element. */
static void test_elided(void)
{
	static const char *text = "HloModule z\n"
	                          "%callee (a: f32[4], b: f32[4]) -> (f32[4], f32[4]) {\n"
	                          "  %a = f32[4]{0} parameter(0)\n"
	                          "  %b = f32[4]{0} parameter(1)\n"
	                          "  %s = f32[4]{0} sine(%b)\n"
	                          "  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%s, %a)\n"
	                          "}\n"
	                          "ENTRY %e (p: f32[4], q: f32[4]) -> f32[4] {\n"
	                          "  %p = f32[4]{0} parameter(0)\n"
	                          "  %q = f32[4]{0} parameter(1)\n"
	                          "  %a = f32[4]{0} negate(%p)\n"
	                          "  %b = f32[4]{0} exponential(%q)\n"
	                          "  %t = (f32[4]{0}, f32[4]{0}) tuple(%a, %b)\n"
	                          "  %o = (f32[4]{0}, f32[4]{0}) opt-barrier(%t)\n"
	                          "  %g = f32[4]{0} get-tuple-element(%o), index=1\n"
	                          "  %bc = f32[4]{0} bitcast(%g)\n"
	                          "  %r = f32[4]{0} sqrt(%bc)\n"
	                          "  %pid = u32[] partition-id()\n"
	                          "  %tok = token[] after-all()\n"
	                          "  %ad = f32[4]{0} add-dependency(%r, %tok)\n"
	                          "  %cl = (f32[4]{0}, f32[4]{0}) call(%a, %ad), to_apply=%callee\n"
	                          "  %g0 = f32[4]{0} get-tuple-element(%cl), index=0\n"
	                          "  %g1 = f32[4]{0} get-tuple-element(%cl), index=1\n"
	                          "  %u = f32[4]{0} add(%g0, %g1)\n"
	                          "  %s = f32[4]{0} sine(%u)\n"
	                          "  %cl2 = (f32[4]{0}, f32[4]{0}) call(%s, %s), to_apply=%callee\n"
	                          "  ROOT %w = f32[4]{0} get-tuple-element(%cl2), index=0\n"
	                          "}\n";
	xir x;
	et_error e;
	CHECK(rd(&x, text, &e) == 0);
	CHECK(x.nop == 7);
	CHECK(deps_are(&x, "r", "b", NULL));
	/* the call is inlined: its sine depends on the argument's producer */
	CHECK(deps_are(&x, "s", "r", NULL) && deps_are(&x, "u", "s", "a", NULL));
	/* a second run of the callee, and the entry's own %s: named apart */
	CHECK(deps_are(&x, "s#1", "u", NULL) && deps_are(&x, "s#2", "s#1", NULL));
	xir_free(&x);
}

/* What real dumps contain: names without %, the FileNames ... StackFrames
 * tables, typed and untyped operands, index comments, quoted metadata with
 * parentheses, commas, -> and \' escapes, an empty attribute, MLIR-style
 * backend_config, empty tuples, zero-size arrays, dynamic dimensions,
 * tiled layouts, computations referred to before they are defined, a
 * computation with execution_thread, no ENTRY and no ROOT. */
static void test_syntax(void)
{
	static const char *text =
	    "HloModule m, is_scheduled=true, entry_computation_layout={(f32[4]{0})->f32[4]{0}}, "
	    "input_output_alias={ {0}: (0, {}, may-alias) }, num_partitions=2\n"
	    "\n"
	    "FileNames\n"
	    "1 \"a.py\"\n"
	    "\n"
	    "FunctionNames\n"
	    "1 \"f\"\n"
	    "\n"
	    "FileLocations\n"
	    "1 {file_name_id=1 function_name_id=1 line=1 end_line=1 column=1 end_column=1}\n"
	    "\n"
	    "StackFrames\n"
	    "1 {file_location_id=1 parent_frame_id=1}\n"
	    "\n"
	    "helper {\n"
	    "  x = f32[4]{0:T(128)} parameter(0)\n"
	    "  y = f32[4]{0} call(x), to_apply=leaf\n"
	    "  z = f32[4]{0} tanh(y)\n"
	    "}, execution_thread=\"main\"\n"
	    "\n"
	    "leaf (x: f32[4]) -> f32[4] {\n"
	    "  x = f32[4]{0} parameter(0)\n"
	    "  ROOT e = f32[4]{0} exponential(x)\n"
	    "}\n"
	    "\n"
	    "main (p: f32[4], q: ()) -> f32[4] {\n"
	    "  p = f32[4]{0} parameter(0)\n"
	    "  q = () parameter(1)\n"
	    "  z = bf16[0]{0} constant({})\n"
	    "  d = f32[<=4,?]{1,0} parameter(2)\n"
	    "  a = f32[4]{0} add(f32[4]{0} p, /*index=1*/p), metadata={op_name=\"x(y), z->w "
	    "\\'q\\'\" "
	    "stack_frame_id=1}, , backend_config={attn_heads = 32 : i64, scale = 1.0e+00 : f64}\n"
	    "  b = f32[4]{0} negate(a), sharding={devices=[2]<=[2]}\n"
	    "  dd = f32[<=4,?]{1,0} negate(d)\n"
	    "  zz = bf16[0]{0} negate(z)\n"
	    "  c = f32[4]{0} call(b), to_apply=helper\n"
	    "}\n";
	xir x;
	et_error e;
	CHECK(rd(&x, text, &e) == 0);
	CHECK(x.partitions == 2 && !strcmp(x.module, "m"));
	CHECK(x.nop == 6);
	CHECK(deps_are(&x, "a", NULL) && deps_are(&x, "b", "a", NULL));
	CHECK(deps_are(&x, "e", "b", NULL) && deps_are(&x, "z", "e", NULL));
	int i;
	CHECK((i = find(&x, "dd")) >= 0 && x.op[i].bytes == 0); /* [<=4,?]: ? counts 0 */
	CHECK((i = find(&x, "zz")) >= 0 && x.op[i].bytes == 0 && x.op[i].flops == 0);
	xir_free(&x);
}

/* A module nested n deep: "(((...f32[]...)))" as a parameter's shape. */
static char *deep_shape(int n)
{
	char *s = malloc((size_t)n * 2 + 256);
	int k = sprintf(s, "HloModule d\nENTRY %%e {\n  %%p = ");
	for (int j = 0; j < n; j++)
		s[k++] = '(';
	k += sprintf(s + k, "f32[]");
	for (int j = 0; j < n; j++)
		s[k++] = ')';
	sprintf(s + k, " parameter(0)\n}\n");
	return s;
}

/* Every error is one line "NAME: line L, column C: what", code 3. */
static void test_errors(void)
{
	CHECK(fails("", 1, 1, "expected a computation, found end of input"));
	CHECK(
	    fails("HloModule m\nENTRY %e {\n  %p = f32[] parameter(0)\n  %q f32[] negate(%p)\n}\n",
	          4, 6, "expected '=' after the instruction name, found \"f32\""));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0), metadata={op_name=\"abc}\n}\n", 2, 46,
	            "a string without its closing quote"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0) /* never closed\n}\n", 2, 27,
	            "a comment without its closing */"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0)\n  ROOT %n = f32[] negate(%zz)\n}\n", 3,
	            26, "operand zz is not defined before this instruction in computation e"));
	CHECK(fails(
	    "ENTRY %e {\n  %p = f32[] parameter(0)\n  ROOT %c = f32[] call(%p), to_apply=%nope\n"
	    "}\n",
	    3, 38, "no computation named nope"));
	CHECK(fails("ENTRY %e {\n  %p = f32[2 parameter(0)\n}\n", 2, 14,
	            "expected ',' or ']' in the dimensions"));
	CHECK(fails("ENTRY %e {\n  %p = f32[-2] parameter(0)\n}\n", 2, 12,
	            "expected a dimension size"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0), sharding={devices=[2]<=[2])\n}\n", 2,
	            54, "expected a matching closing bracket"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0)\n  %p = f32[] negate(%p)\n}\n", 3, 3,
	            "instruction p is defined twice"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0)\n", 1, 10,
	            "this computation is never closed"));
	CHECK(fails(
	    "ENTRY %e {\n  %p = f32[] parameter(0)\n}\nENTRY %f {\n  %q = f32[] parameter(0)\n}\n",
	    4, 1, "a second ENTRY computation"));
	CHECK(fails(
	    "%f (a: f32[]) -> f32[] {\n  %a = f32[] parameter(0)\n  ROOT %c = f32[] call(%a), "
	    "to_apply=%f\n}\nENTRY %e {\n  %p = f32[] parameter(0)\n  ROOT %c = f32[] call(%p), "
	    "to_apply=%f\n}\n",
	    1, 1, "computation f calls itself"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0)\n  ROOT %c = f32[] compare(%p, %p), "
	            "direction=XX\n}\n",
	            3, 46, "expected a comparison direction"));
	CHECK(fails("ENTRY %e {\n  %p = f32[] parameter(0), index=1x\n}\n", 2, 34,
	            "expected a tuple index"));
	CHECK(fails("HloModule m, num_partitions=0\nENTRY %e {\n  %p = f32[] parameter(0)\n}\n", 1,
	            29, "a partition count from 1"));
	CHECK(fails(
	    "HloModule m, num_partitions=65536, replica_count=65536\nENTRY %e {\n  %p = f32[] "
	    "parameter(0)\n}\n",
	    1, 1, "more than 16777216 devices"));
	CHECK(fails("ENTRY %e {\n  %p = f32[4] parameter(0)\n  ROOT %d = f32[4,4] dot(%p, %p), "
	            "lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
	            3, 8, "dot dimension numbers beyond the operands' 1 and 1 dimensions"));
	/* depth limits: 64 nested shapes are fine, 65 are not; brackets alike */
	char *ok = deep_shape(63), *deep = deep_shape(65);
	xir x;
	et_error e;
	CHECK(rd(&x, ok, &e) == 0);
	xir_free(&x);
	CHECK(fails(deep, 3, 72, "shapes nested deeper than 64"));
	free(ok);
	free(deep);
	char br[512];
	int k = sprintf(br, "ENTRY %%e {\n  %%p = f32[] parameter(0), metadata=");
	for (int j = 0; j < 65; j++)
		br[k++] = '{';
	sprintf(br + k, "}\n}\n");
	CHECK(fails(br, 2, 101, "brackets nested deeper than 64"));
	/* more than 1 GiB: refused before it is read */
	memset(&e, 0, sizeof e);
	xir_init(&x);
	CHECK(hlo_read(&x, "big.hlo", "", HLO_MAX_INPUT + 1, NULL, &e) == -1);
	CHECK(e.code == ET_EXIT_DATA && strstr(e.msg, "big.hlo: ") == e.msg &&
	      strstr(e.msg, "at most 1 GiB"));
	xir_free(&x);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		data_dir = argv[1];
	test_corpus();
	test_groups();
	test_modes();
	test_pairs();
	test_async();
	test_flops();
	test_loops();
	test_conditional();
	test_elided();
	test_syntax();
	test_errors();
	return check_failures();
}
