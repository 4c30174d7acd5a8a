/* Unit test of et-convert's StableHLO reader (shlo.h): every StableHLO file
 * of tests/data/compiler (counts derived independently, see each test),
 * and small modules for each construct: loops, branches, calls, tuples,
 * the group rules, send/recv, FLOPs, types, limits and errors.
 * argv[1]: the tests/data folder (default: tests/data). */
#include "check.h"
#include "et-convert/stablehlo/shlo.h"
#include "et-convert/xir/xir.h"
#include "et_err.h"
#include "et_strmap.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *data_dir = "tests/data";

static char *slurp(const char *file, size_t *n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/compiler/%s", data_dir, file);
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	char *s = malloc((size_t)len + 1);
	*n = fread(s, 1, (size_t)len, f);
	s[*n] = 0;
	fclose(f);
	return s;
}

/* Warnings (et_warn, through the library's warning sink) go to a memory
 * stream the tests read. */
static char *warn_buf;
static size_t warn_len;
static FILE *warn_f;

static void take_warning(const char *msg)
{
	fprintf(warn_f, "warning: %s\n", msg);
}

static void opts(shlo_opts *o)
{
	shlo_opts_init(o);
	if (warn_f)
		fclose(warn_f);
	free(warn_buf);
	warn_buf = NULL;
	warn_f = open_memstream(&warn_buf, &warn_len);
	et_set_warn_sink(take_warning);
}

static const char *warnings(void)
{
	fflush(warn_f);
	return warn_buf ? warn_buf : "";
}

static int read_file(xir *x, const char *file, const shlo_opts *o, et_error *e)
{
	size_t n;
	char *s = slurp(file, &n);
	int r = shlo_read(x, file, s, n, o, e);
	free(s);
	return r;
}

static int read_text(xir *x, const char *text, const shlo_opts *o, et_error *e)
{
	return shlo_read(x, "t.mlir", text, strlen(text), o, e);
}

static size_t count_kind(const xir *x, int kind)
{
	size_t n = 0;
	for (size_t i = 0; i < x->nop; i++)
		n += x->op[i].kind == kind;
	return n;
}

static const xir_op *op_named(const xir *x, const char *name)
{
	for (size_t i = 0; i < x->nop; i++)
		if (strcmp(x->op[i].name, name) == 0)
			return &x->op[i];
	return NULL;
}

/* The xir_dump text of x. */
static char *dump(const xir *x)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	xir_dump(f, x);
	fclose(f);
	return buf;
}

static bool dump_is(const xir *x, const char *want)
{
	char *got = dump(x);
	bool same = strcmp(got, want) == 0;
	if (!same)
		fprintf(stderr, "--- want\n%s--- got\n%s---\n", want, got);
	free(got);
	return same;
}

/* Set s is n groups of size members, ids. */
static bool set_is(const xir *x, uint32_t s, uint32_t n, uint32_t size, const uint32_t *ids)
{
	if (s >= x->nset || x->set[s].n != n || x->set[s].size != size)
		return false;
	for (uint32_t i = 0; i < n * size; i++)
		if (x->members[x->set[s].off + i] != ids[i])
			return false;
	return true;
}

/* Names unique, dependencies on earlier ops, sets in range. */
static void check_wellformed(const xir *x)
{
	et_strmap names = {0};
	for (size_t i = 0; i < x->nop; i++) {
		const xir_op *o = &x->op[i];
		uint32_t before = et_strmap_count(&names);
		et_strmap_intern_str(&names, o->name);
		CHECK(et_strmap_count(&names) == before + 1);
		for (uint32_t k = 0; k < o->n_deps; k++)
			CHECK(x->deps[o->dep_off + k] < i);
		if (o->kind != XIR_COMP)
			CHECK(o->set < x->nset);
	}
	for (uint32_t s = 0; s < x->nset; s++)
		for (uint32_t k = 0; k < x->set[s].n * x->set[s].size; k++)
			CHECK(x->members[x->set[s].off + k] < xir_ranks(x));
	et_strmap_free(&names);
}

/* ---- loops ---- */

/* JAX's fori_loop form: counter from 0, +1, LT 5. */
static const char *const loop_pretty =
    "module @loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {\n"
    "  func.func public @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
    "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, "
    "tensor<8xf32>\n"
    "     cond {\n"
    "      %c_1 = stablehlo.constant dense<BOUND> : tensor<i32>\n"
    "      %1 = stablehlo.compare  DIR, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> "
    "tensor<i1>\n"
    "      stablehlo.return %1 : tensor<i1>\n"
    "    } do {\n"
    "      %1 = stablehlo.multiply %iterArg_0, %iterArg_0 : tensor<8xf32>\n"
    "      %2 = \"stablehlo.all_reduce\"(%1) <{replica_groups = dense<[[0, 1]]> : "
    "tensor<1x2xi64>}> ({\n"
    "      ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "        %s = stablehlo.add %a, %b : tensor<f32>\n"
    "        stablehlo.return %s : tensor<f32>\n"
    "      }) : (tensor<8xf32>) -> tensor<8xf32>\n"
    "      %c_2 = stablehlo.constant dense<STEP> : tensor<i32>\n"
    "      %3 = stablehlo.add %iterArg, %c_2 : tensor<i32>\n"
    "      stablehlo.return %3, %2 : tensor<i32>, tensor<8xf32>\n"
    "    }\n"
    "    %4 = stablehlo.negate %0#1 : tensor<8xf32>\n"
    "    return %4 : tensor<8xf32>\n"
    "  }\n"
    "}\n";

/* text with BOUND, DIR and STEP replaced. */
static void loop_text(char *out, size_t cap, const char *bound, const char *dir, const char *step)
{
	const char *from[] = {"BOUND", "DIR", "STEP"}, *to[] = {bound, dir, step};
	size_t n = 0;
	for (const char *s = loop_pretty; *s && n + 16 < cap;) {
		int k = 0;
		while (k < 3 && strncmp(s, from[k], strlen(from[k])) != 0)
			k++;
		if (k < 3) {
			n += (size_t)snprintf(out + n, cap - n, "%s", to[k]);
			s += strlen(from[k]);
		} else {
			out[n++] = *s++;
		}
	}
	out[n] = 0;
}

/* The loop with bound, direction and step filled in: its op count (3 per
 * iteration + the negate). */
static size_t loop_ops(const char *bound, const char *dir, const char *step, uint64_t cap,
                       const char **warn)
{
	char text[4096];
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	o.max_trip = cap;
	loop_text(text, sizeof text, bound, dir, step);
	xir_init(&x);
	size_t n = read_text(&x, text, &o, &e) == 0 ? x.nop : SIZE_MAX;
	if (n == SIZE_MAX)
		fprintf(stderr, "%s\n", e.msg);
	else
		check_wellformed(&x);
	*warn = warnings();
	xir_free(&x);
	return n;
}

static void test_while(void)
{
	const char *w;
	CHECK(loop_ops("5", "LT", "1", 0, &w) == 3 * 5 + 1 && !*w);
	CHECK(loop_ops("5", "LE", "1", 0, &w) == 3 * 6 + 1);
	CHECK(loop_ops("10", "LT", "3", 0, &w) == 3 * 4 + 1); /* 0 3 6 9 */
	CHECK(loop_ops("10", "NE", "2", 0, &w) == 3 * 5 + 1);
	CHECK(loop_ops("0", "LT", "1", 0, &w) == 1);           /* never runs */
	CHECK(loop_ops("-4", "GT", "-1", 0, &w) == 3 * 4 + 1); /* 0 -1 -2 -3 */
	CHECK(loop_ops("9", "NE", "2", 0, &w) == 3 * 1 + 1);   /* 0 2 4 ... never 9 */
	CHECK(strstr(w, "t.mlir: line 4, column 5: while loop: trip count unknown (not a counted "
	                "loop): unrolled once"));
	CHECK(loop_ops("5", "GT", "1", 0, &w) == 3 * 1 + 1); /* the counter moves away */
	CHECK(loop_ops("100", "LT", "1", 7, &w) == 3 * 7 + 1);
	CHECK(strstr(w, "while loop of 100 iterations unrolled 7 times (the cap)"));
	CHECK(loop_ops("1000", "LT", "1", 0, &w) == 3 * 1000 + 1);
	{ /* `attributes {...}` between a pretty while's types and its regions */
		char text[4096], with[4200];
		xir x;
		et_error e = {0};
		shlo_opts o;
		opts(&o);
		loop_text(text, sizeof text, "3", "LT", "1");
		const char *at = strstr(text, "\n     cond {");
		snprintf(with, sizeof with,
		         "%.*s attributes {mhlo.frontend_attributes = {x = \"1\"}}%s",
		         (int)(at - text), text, at);
		xir_init(&x);
		CHECK(read_text(&x, with, &o, &e) == 0 && x.nop == 3 * 3 + 1);
		xir_free(&x);
	}

	/* iteration i's multiply depends on iteration i-1's all-reduce */
	char text[4096];
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	loop_text(text, sizeof text, "2", "LT", "1");
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0);
	CHECK(dump_is(&x,
	              "module loop replicas 2 partitions 1 ops 7 sets 1\n"
	              "0 comp while.0[0]/multiply.1 stablehlo.multiply 8 96 0,0,0,0 0 0 -1\n"
	              "1 coll while.0[0]/all_reduce.2 stablehlo.all_reduce 0 32 0,0,0,0 0 0 -1 0\n"
	              "2 comp while.0[0]/add.3 stablehlo.add 1 12 0,0,0,0 0 0 -1\n"
	              "3 comp while.0[1]/multiply.1 stablehlo.multiply 8 96 0,0,0,0 0 0 -1 1\n"
	              "4 coll while.0[1]/all_reduce.2 stablehlo.all_reduce 0 32 0,0,0,0 0 0 -1 3\n"
	              "5 comp while.0[1]/add.3 stablehlo.add 1 12 0,0,0,0 0 0 -1 2\n"
	              "6 comp negate.4 stablehlo.negate 8 64 0,0,0,0 0 0 -1 4\n"
	              "set 0 n 1 size 0:\n"));
	xir_free(&x);
}

/* Generic form: i from 10, i - 3 while i > limit, the limit an argument the
 * body passes through: 10 7 4 (3 iterations); and the bound as the compare's
 * left operand. */
static void test_while_generic(void)
{
	static const char *const text =
	    "\"builtin.module\"() <{sym_name = \"g\"}> ({\n"
	    "  \"func.func\"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "
	    "\"main\"}> ({\n"
	    "  ^bb0(%arg0: tensor<4xf32>):\n"
	    "    %0 = \"stablehlo.constant\"() <{value = dense<10> : tensor<i64>}> : () -> "
	    "tensor<i64>\n"
	    "    %1 = \"stablehlo.constant\"() <{value = dense<1> : tensor<i64>}> : () -> "
	    "tensor<i64>\n"
	    "    %2:3 = \"stablehlo.while\"(%0, %1, %arg0) ({\n"
	    "    ^bb0(%i: tensor<i64>, %lim: tensor<i64>, %x: tensor<4xf32>):\n"
	    "      %c = \"stablehlo.compare\"(%lim, %i) <{comparison_direction = "
	    "#stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>\n"
	    "      \"stablehlo.return\"(%c) : (tensor<i1>) -> ()\n"
	    "    }, {\n"
	    "    ^bb0(%i: tensor<i64>, %lim: tensor<i64>, %x: tensor<4xf32>):\n"
	    "      %t = \"stablehlo.tanh\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
	    "      %three = \"stablehlo.constant\"() <{value = dense<3> : tensor<i64>}> : () -> "
	    "tensor<i64>\n"
	    "      %n = \"stablehlo.subtract\"(%i, %three) : (tensor<i64>, tensor<i64>) -> "
	    "tensor<i64>\n"
	    "      \"stablehlo.return\"(%n, %lim, %t) : (tensor<i64>, tensor<i64>, tensor<4xf32>) "
	    "-> "
	    "()\n"
	    "    }) : (tensor<i64>, tensor<i64>, tensor<4xf32>) -> (tensor<i64>, tensor<i64>, "
	    "tensor<4xf32>)\n"
	    "    \"func.return\"(%2#2) : (tensor<4xf32>) -> ()\n"
	    "  }) : () -> ()\n"
	    "}) : () -> ()\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0);
	CHECK(x.nop == 6 && strcmp(x.module, "g") == 0);
	CHECK(op_named(&x, "while.2[2]/tanh.t") && !op_named(&x, "while.2[3]/tanh.t"));
	CHECK(x.op[2].n_deps == 1 && x.deps[x.op[2].dep_off] == 0);
	CHECK(!*warnings());
	xir_free(&x);
}

/* A bound computed outside the loop from constants (2 * 3), compared with
 * no type keyword; the loop's ops read it as a known constant. */
static void test_while_folded(void)
{
	static const char *const text =
	    "func.func @main(%arg0: tensor<36xf64>) -> tensor<f64> {\n"
	    "  %c = stablehlo.constant dense<0> : tensor<i64>\n"
	    "  %c_0 = stablehlo.constant dense<1> : tensor<i64>\n"
	    "  %c_2 = stablehlo.constant dense<2> : tensor<i32>\n"
	    "  %c_3 = stablehlo.constant dense<3> : tensor<i32>\n"
	    "  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>\n"
	    "  %m = stablehlo.multiply %c_2, %c_3 : tensor<i32>\n"
	    "  %0 = stablehlo.convert %m : (tensor<i32>) -> tensor<i64>\n"
	    "  %1:2 = stablehlo.while(%iterArg = %c, %iterArg_1 = %cst) : tensor<i64>, "
	    "tensor<f64>\n"
	    "  cond {\n"
	    "    %4 = stablehlo.compare LT, %iterArg, %0 : (tensor<i64>, tensor<i64>) -> "
	    "tensor<i1>\n"
	    "    stablehlo.return %4 : tensor<i1>\n"
	    "  } do {\n"
	    "    %4 = stablehlo.dynamic_slice %arg0, %iterArg, sizes = [1] : (tensor<36xf64>, "
	    "tensor<i64>) -> tensor<1xf64>\n"
	    "    %5 = stablehlo.reshape %4 : (tensor<1xf64>) -> tensor<f64>\n"
	    "    %6 = stablehlo.add %iterArg_1, %5 : tensor<f64>\n"
	    "    %7 = stablehlo.add %iterArg, %c_0 : tensor<i64>\n"
	    "    stablehlo.return %7, %6 : tensor<i64>, tensor<f64>\n"
	    "  }\n"
	    "  return %1#1 : tensor<f64>\n"
	    "}\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0 && x.nop == 2 + 6 * 3 && !*warnings());
	CHECK(op_named(&x, "while.1[5]/add.7") && !op_named(&x, "while.1[6]/add.7"));
	xir_free(&x);
}

/* ---- branches, calls, tuples ---- */

static const char *const branches =
    "module @c attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {\n"
    "  func.func public @main(%p: tensor<i32>, %x: tensor<16x16xf32>) -> tensor<16x16xf32> {\n"
    "    %t = stablehlo.tuple %x, %p : tuple<tensor<16x16xf32>, tensor<i32>>\n"
    "    %g = stablehlo.get_tuple_element %t[0] : (tuple<tensor<16x16xf32>, tensor<i32>>) -> "
    "tensor<16x16xf32>\n"
    "    %0 = \"stablehlo.case\"(%p) ({\n"
    "      %1 = stablehlo.add %g, %g : tensor<16x16xf32>\n"
    "      stablehlo.return %1 : tensor<16x16xf32>\n"
    "    }, {\n"
    "      %1 = stablehlo.dot_general %g, %g, contracting_dims = [1] x [0] : "
    "(tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>\n"
    "      %2 = \"stablehlo.all_gather\"(%1) <{all_gather_dim = 0 : i64, channel_handle = "
    "#stablehlo.channel_handle<handle = 3, type = 1>, replica_groups = dense<[[0, 1]]> : "
    "tensor<1x2xi64>, use_global_device_ids}> : (tensor<16x16xf32>) -> tensor<32x16xf32>\n"
    "      %3 = stablehlo.slice %2 [0:16, 0:16] : (tensor<32x16xf32>) -> tensor<16x16xf32>\n"
    "      stablehlo.return %3 : tensor<16x16xf32>\n"
    "    }, {\n"
    "      stablehlo.return %g : tensor<16x16xf32>\n"
    "    }) : (tensor<i32>) -> tensor<16x16xf32>\n"
    "    %r = call @f(%0) : (tensor<16x16xf32>) -> tensor<16x16xf32>\n"
    "    %s = func.call @f(%r) : (tensor<16x16xf32>) -> tensor<16x16xf32>\n"
    "    %u = stablehlo.composite \"my.op\" %s {decomposition = @f} : (tensor<16x16xf32>) -> "
    "tensor<16x16xf32>\n"
    "    return %u : tensor<16x16xf32>\n"
    "  }\n"
    "  func.func private @f(%a: tensor<16x16xf32>) -> tensor<16x16xf32> {\n"
    "    %0 = stablehlo.exponential %a : tensor<16x16xf32>\n"
    "    %1 = \"stablehlo.collective_permute\"(%0) <{channel_handle = "
    "#stablehlo.channel_handle<handle = 2, type = 1>, source_target_pairs = dense<[[0, 1], [1, "
    "0]]> : tensor<2x2xi64>}> : (tensor<16x16xf32>) -> tensor<16x16xf32>\n"
    "    return %1 : tensor<16x16xf32>\n"
    "  }\n"
    "}\n";

/* case takes the branch of most FLOPs (the dot, 2 * 16^3); calls and the
 * composite are inlined under "callee.RESULT/". */
static void test_case_calls(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, branches, &o, &e) == 0);
	CHECK(dump_is(&x,
	              "module c replicas 1 partitions 2 ops 9 sets 2\n"
	              "0 comp case.0[1]/dot_general.1 stablehlo.dot_general 8192 3072 "
	              "16,16,16,1 0 0 -1\n"
	              "1 coll case.0[1]/all_gather.2 stablehlo.all_gather 0 1024 0,0,0,0 2 0 3 0\n"
	              "2 comp case.0[1]/slice.3 stablehlo.slice 0 3072 0,0,0,0 0 0 -1 1\n"
	              "3 comp f.r/exponential.0 stablehlo.exponential 256 2048 0,0,0,0 0 0 -1 2\n"
	              "4 permute f.r/collective_permute.1 stablehlo.collective_permute 0 1024 "
	              "0,0,0,0 0 1 2 3\n"
	              "5 comp f.s/exponential.0 stablehlo.exponential 256 2048 0,0,0,0 0 0 -1 4\n"
	              "6 permute f.s/collective_permute.1 stablehlo.collective_permute 0 1024 "
	              "0,0,0,0 0 1 2 5\n"
	              "7 comp f.u/exponential.0 stablehlo.exponential 256 2048 0,0,0,0 0 0 -1 6\n"
	              "8 permute f.u/collective_permute.1 stablehlo.collective_permute 0 1024 "
	              "0,0,0,0 0 1 2 7\n"
	              "set 0 n 1 size 0:\n"
	              "set 1 n 2 size 2: 0 1 1 0\n"));
	CHECK(ET_COLL_ALL_GATHER == 2);
	xir_free(&x);
}

/* tuple / get_tuple_element keep each element's own dependencies;
 * optimization_barrier passes operand i to result i; reshape, convert of
 * nothing, after_all pass theirs through. */
static void test_tuples(void)
{
	static const char *const text =
	    "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
	    "  %0 = stablehlo.sine %a : tensor<4xf32>\n"
	    "  %1 = stablehlo.cosine %b : tensor<4xf32>\n"
	    "  %t = \"stablehlo.tuple\"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> "
	    "tuple<tensor<4xf32>, tensor<4xf32>>\n"
	    "  %e = \"stablehlo.get_tuple_element\"(%t) <{index = 1 : i32}> : "
	    "(tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>\n"
	    "  %2 = stablehlo.negate %e : tensor<4xf32>\n"
	    "  %3:2 = stablehlo.optimization_barrier %0, %2 : tensor<4xf32>, tensor<4xf32>\n"
	    "  %4 = stablehlo.reshape %3#1 : (tensor<4xf32>) -> tensor<2x2xf32>\n"
	    "  %5 = stablehlo.abs %4 : tensor<2x2xf32>\n"
	    "  %6 = stablehlo.add %3#0, %t : tensor<4xf32>\n"
	    "  return %6 : tensor<4xf32>\n"
	    "}\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0);
	CHECK(x.nop == 5 && strcmp(x.module, "t.mlir") == 0 && x.replicas == 1);
	const xir_op *neg = op_named(&x, "negate.2"), *abs = op_named(&x, "abs.5");
	const xir_op *add = op_named(&x, "add.6");
	CHECK(neg && neg->n_deps == 1 && x.deps[neg->dep_off] == 1); /* cosine only */
	CHECK(abs && abs->n_deps == 1 && x.deps[abs->dep_off] == 2); /* the negate */
	CHECK(add && add->n_deps == 2 && x.deps[add->dep_off] == 0 &&
	      x.deps[add->dep_off + 1] == 1);
	xir_free(&x);
}

/* ---- groups ---- */

/* One collective op on 2 replicas x 2 partitions; its set's groups. */
static int one_coll(const char *op, const char *attrs, const char *types, xir *x, et_error *e)
{
	char text[2048];
	shlo_opts o;
	opts(&o);
	snprintf(text, sizeof text,
	         "module @m attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 2 : "
	         "i32} {\n"
	         "  func.func @main(%%x: tensor<8xf32>) -> tensor<8xf32> {\n"
	         "    %%0 = \"stablehlo.%s\"(%%x) <{%s}> : %s\n"
	         "    return %%0 : tensor<8xf32>\n"
	         "  }\n"
	         "}\n",
	         op, attrs, types);
	xir_init(x);
	return read_text(x, text, &o, e);
}

static bool groups_are(const char *op, const char *attrs, uint32_t n, uint32_t size,
                       const uint32_t *ids)
{
	xir x;
	et_error e = {0};
	bool ok = one_coll(op, attrs, "(tensor<8xf32>) -> tensor<8xf32>", &x, &e) == 0 &&
	          x.nop == 1 && set_is(&x, x.op[0].set, n, size, ids);
	if (!ok)
		fprintf(stderr, "%s {%s}: %s\n", op, attrs, e.msg);
	xir_free(&x);
	return ok;
}

static bool coll_fails(const char *op, const char *attrs, const char *msg)
{
	xir x;
	et_error e = {0};
	bool ok = one_coll(op, attrs, "(tensor<8xf32>) -> tensor<8xf32>", &x, &e) < 0 &&
	          strcmp(e.msg, msg) == 0;
	if (!ok)
		fprintf(stderr, "want: %s\ngot:  %s\n", msg, e.msg);
	xir_free(&x);
	return ok;
}

static void test_groups(void)
{
	/* no channel: replica groups within each partition: (r0,p0)(r1,p0), (r0,p1)(r1,p1) */
	CHECK(groups_are("all_reduce", "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>", 2, 2,
	                 (uint32_t[]){0, 2, 1, 3}));
	/* channel > 0: each replica group x every partition, partition-major */
	CHECK(groups_are("all_reduce",
	                 "channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
	                 "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>",
	                 1, 0, NULL)); /* {0, 2, 1, 3}: every rank, a set (xir_groups_flat) */
	CHECK(groups_are("all_gather",
	                 "all_gather_dim = 0 : i64, channel_handle = "
	                 "#stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = "
	                 "dense<[[1], [0]]> : tensor<2x1xi64>",
	                 2, 2, (uint32_t[]){2, 3, 0, 1}));
	/* flattened ids */
	CHECK(groups_are("reduce_scatter",
	                 "scatter_dimension = 0 : i64, channel_handle = "
	                 "#stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = "
	                 "dense<[[0, 3], [1, 2]]> : tensor<2x2xi64>, use_global_device_ids",
	                 2, 2, (uint32_t[]){0, 3, 1, 2}));
	/* all_to_all and collective_broadcast: channel > 0 = partitions in each replica */
	CHECK(groups_are("all_to_all",
	                 "split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : "
	                 "i64, channel_handle = #stablehlo.channel_handle<handle = 4, type = 1>, "
	                 "replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>",
	                 2, 2, (uint32_t[]){1, 0, 3, 2}));
	CHECK(groups_are("collective_broadcast",
	                 "replica_groups = dense<[[1, 0]]> : tensor<1x2xi64>", 2, 2,
	                 (uint32_t[]){2, 0, 3, 1}));
	/* empty = everyone (within each partition without a channel); -1 padding;
	 * a splat; hexadecimal elements */
	CHECK(groups_are("all_reduce", "replica_groups = dense<> : tensor<0x0xi64>", 2, 2,
	                 (uint32_t[]){0, 2, 1, 3}));
	CHECK(groups_are("all_reduce",
	                 "replica_groups = dense<[[0, -1], [-1, 1]]> : tensor<2x2xi64>", 4, 1,
	                 (uint32_t[]){0, 1, 2, 3}));
	CHECK(groups_are("all_reduce", "replica_groups = dense<1> : tensor<1x1xi64>", 2, 1,
	                 (uint32_t[]){2, 3}));
	CHECK(groups_are("all_reduce",
	                 "use_global_device_ids = true, channel_handle = "
	                 "#stablehlo.channel_handle<handle = 9, type = 1>, replica_groups = "
	                 "dense<\"0x03000000000000000100000000000000\"> : tensor<1x2xi64>",
	                 1, 2, (uint32_t[]){3, 1}));
	CHECK(coll_fails("all_reduce", "replica_groups = dense<[[0, 2]]> : tensor<1x2xi64>",
	                 "t.mlir: line 3, column 5: replica id 2 out of range: the program has 2 "
	                 "(2 replicas x 2 partitions)"));
	CHECK(coll_fails("all_reduce",
	                 "replica_groups = dense<[[0, 1], [-1, 1]]> : tensor<2x2xi64>",
	                 "t.mlir: line 3, column 56: replica_groups: groups of different sizes (2 "
	                 "and 1)"));
	CHECK(coll_fails("all_reduce", "replica_groups = dense<[[0, 1], [2]]> : tensor<2x2xi64>",
	                 "t.mlir: line 3, column 74: rows of different lengths (2 and 1)"));
	/* a list's elements need their commas, in every list syntax */
	CHECK(coll_fails("all_reduce", "replica_groups = dense<[0 1]> : tensor<1x2xi64>",
	                 "t.mlir: line 3, column 65: expected ',' or ']'"));
	/* permute: channel <= 0 pairs replicas in each partition, else partitions */
	CHECK(groups_are("collective_permute",
	                 "source_target_pairs = dense<[[0, 1]]> : tensor<1x2xi64>", 2, 2,
	                 (uint32_t[]){0, 2, 1, 3}));
	CHECK(groups_are("collective_permute",
	                 "channel_handle = #stablehlo.channel_handle<handle = 5, type = 1>, "
	                 "source_target_pairs = dense<[[1, 0]]> : tensor<1x2xi64>",
	                 2, 2, (uint32_t[]){1, 0, 3, 2}));
}

/* send / recv with source_target_pairs; host transfers skipped. */
static void test_send_recv(void)
{
	static const char *const text =
	    "module @p attributes {mhlo.num_partitions = 4 : i32} {\n"
	    "  func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
	    "    %t = stablehlo.create_token : !stablehlo.token\n"
	    "    %s = \"stablehlo.send\"(%x, %t) <{channel_handle = "
	    "#stablehlo.channel_handle<handle "
	    "= 7, type = 1>, is_host_transfer = false, source_target_pairs = dense<[[0, 1], [1, "
	    "2]]> : tensor<2x2xi64>}> : (tensor<2x3xf32>, !stablehlo.token) -> !stablehlo.token\n"
	    "    %r:2 = \"stablehlo.recv\"(%s) <{channel_handle = "
	    "#stablehlo.channel_handle<handle = 7, type = 1>, is_host_transfer = false, "
	    "source_target_pairs = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>}> : "
	    "(!stablehlo.token) -> (tensor<2x3xf32>, !stablehlo.token)\n"
	    "    %h = \"stablehlo.send\"(%r#0, %r#1) <{channel_handle = "
	    "#stablehlo.channel_handle<handle = 8, type = 2>, is_host_transfer = true}> : "
	    "(tensor<2x3xf32>, !stablehlo.token) -> !stablehlo.token\n"
	    "    %y = stablehlo.add %r#0, %r#0 : tensor<2x3xf32>\n"
	    "    return %y : tensor<2x3xf32>\n"
	    "  }\n"
	    "}\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0);
	CHECK(dump_is(&x, "module p replicas 1 partitions 4 ops 3 sets 1\n"
	                  "0 send send.s stablehlo.send 0 24 0,0,0,0 0 0 7\n"
	                  "1 recv recv.r stablehlo.recv 0 24 0,0,0,0 0 0 7 0\n"
	                  "2 comp add.y stablehlo.add 6 72 0,0,0,0 0 0 -1 1\n"
	                  "set 0 n 2 size 2: 0 1 1 2\n"));
	CHECK(strstr(warnings(), "t.mlir: line 6, column 5: send skipped: a host transfer"));
	xir_free(&x);
}

/* ---- FLOPs and types ---- */

static const xir_op *only_op(xir *x, const char *body, et_error *e)
{
	char text[4096];
	shlo_opts o;
	opts(&o);
	snprintf(text, sizeof text,
	         "func.func @main(%%a: tensor<f32>, %%b: tensor<f32>, %%k: tensor<f32>, %%p: "
	         "tensor<f32>, %%z: tensor<f32>, %%t: tensor<f32>) {\n%s\n  return\n}\n",
	         body);
	xir_init(x);
	if (read_text(x, text, &o, e) < 0) {
		fprintf(stderr, "%s\n", e->msg);
		return NULL;
	}
	return x->nop ? &x->op[x->nop - 1] : NULL;
}

static void flops_are(const char *body, uint64_t flops, uint64_t bytes)
{
	xir x;
	et_error e = {0};
	const xir_op *p = only_op(&x, body, &e);
	CHECK(p && p->flops == flops && p->bytes == bytes);
	if (p && (p->flops != flops || p->bytes != bytes))
		fprintf(stderr, "%s: flops %llu bytes %llu\n", body, (unsigned long long)p->flops,
		        (unsigned long long)p->bytes);
	xir_free(&x);
}

static void test_flops(void)
{
	/* 3x3 convolution, 8 -> 16 features, on 2x10x10x8 f32 -> 2x8x8x16:
	 * 2 * 2048 * 3 * 3 * 8; bytes (1600 + 1152 + 2048) * 4 */
	flops_are("  %0 = stablehlo.convolution(%a, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, "
	          "o]->[b, 0, 1, f], window = {stride = [1, 1]} {batch_group_count = 1 : i64, "
	          "feature_group_count = 1 : i64} : (tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) "
	          "-> tensor<2x8x8x16xf32>",
	          2 * 2048 * 9 * 8, (1600 + 1152 + 2048) * 4);
	/* depthwise (feature_group_count = 8, kernel 3x3x1x8, NCHW/OIHW in the raw
	 * generic form): each output sums 3 * 3 * 1 products */
	flops_are("  %0 = \"stablehlo.convolution\"(%a, %k) <{dimension_numbers = "
	          "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 1, "
	          "input_spatial_dimensions = [2, 3], kernel_input_feature_dimension = 1, "
	          "kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2, 3], "
	          "output_batch_dimension = 0, output_feature_dimension = 1, "
	          "output_spatial_dimensions = [2, 3]>, feature_group_count = 8 : i64, "
	          "batch_group_count = 1 : i64}> : (tensor<1x8x10x10xbf16>, tensor<8x1x3x3xbf16>) "
	          "-> tensor<1x8x8x8xbf16>",
	          2 * 512 * 9, (800 + 72 + 512) * 2);
	flops_are("  %0 = \"stablehlo.convolution\"(%a, %k) <{dimension_numbers = "
	          "#stablehlo.conv<[b, f, 0]x[o, i, 0]->[b, f, 0]>}> : (tensor<1x4x9xf32>, "
	          "tensor<6x4x3xf32>) -> tensor<1x6x7xf32>",
	          2 * 42 * 3 * 4, (36 + 72 + 42) * 4);
	/* batched dot_general: [4, 32, 64] x [4, 64, 16] over batch 0, contracting 2 x 1 */
	xir x;
	et_error e = {0};
	const xir_op *p =
	    only_op(&x,
	            "  %0 = \"stablehlo.dot_general\"(%a, %b) <{dot_dimension_numbers = "
	            "#stablehlo.dot<lhs_batching_dimensions = [0], "
	            "rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], "
	            "rhs_contracting_dimensions = [1]>}> : (tensor<4x32x64xbf16>, "
	            "tensor<4x64x16xbf16>) -> tensor<4x32x16xbf16>",
	            &e);
	CHECK(p && p->flops == 2ull * 4 * 32 * 16 * 64 && p->gemm[0] == 32 && p->gemm[1] == 16 &&
	      p->gemm[2] == 64 && p->gemm[3] == 4);
	xir_free(&x);
	p = only_op(&x,
	            "  %0 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], "
	            "contracting_dims = [2] x [1] : (tensor<4x32x64xf32>, tensor<4x64x16xf32>) -> "
	            "tensor<4x32x16xf32>",
	            &e);
	CHECK(p && p->flops == 2ull * 4 * 32 * 16 * 64 && p->gemm[3] == 4);
	xir_free(&x);
	p = only_op(&x,
	            "  %0 = \"stablehlo.dot\"(%a, %b) : (tensor<3x5xf32>, tensor<5x7xf32>) -> "
	            "tensor<3x7xf32>",
	            &e);
	CHECK(p && p->flops == 2 * 3 * 7 * 5 && p->gemm[0] == 3 && p->gemm[1] == 7 &&
	      p->gemm[2] == 5 && p->gemm[3] == 1);
	xir_free(&x);
	/* elementwise, reduce (input elements), reduce_window (result x window) */
	flops_are("  %0 = stablehlo.maximum %a, %b : tensor<3x5xf32>", 15, 3 * 60);
	flops_are("  %0 = stablehlo.select %p, %a, %b : tensor<3x5xi1>, tensor<3x5xf32>", 15,
	          15 + 3 * 60);
	flops_are("  %0 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = "
	          "[1] : (tensor<6x7xf32>, tensor<f32>) -> tensor<6xf32>",
	          42, 168 + 4 + 24);
	flops_are("  %0 = \"stablehlo.reduce_window\"(%a, %z) <{window_dimensions = array<i64: 1, "
	          "2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({\n"
	          "  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
	          "    %m = stablehlo.maximum %x, %y : tensor<f32>\n"
	          "    stablehlo.return %m : tensor<f32>\n"
	          "  }) : (tensor<1x4x4x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>",
	          12 * 4, 192 + 4 + 48);
	flops_are("  %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<3x5xf32>) -> "
	          "tensor<5x3xf32>",
	          0, 120);
	/* bytes of each element type */
	flops_are("  %0 = stablehlo.negate %a : tensor<2x3xbf16>", 6, 24);
	flops_are("  %0 = stablehlo.not %a : tensor<7xi1>", 7, 14);
	flops_are("  %0 = stablehlo.convert %a : (tensor<4xui4>) -> tensor<4xf8E4M3FN>", 4, 8);
	flops_are("  %0 = stablehlo.real %a : (tensor<2xcomplex<f64>>) -> tensor<2xf64>", 2, 48);
	flops_are("  %0 = stablehlo.uniform_dequantize %a : (tensor<16x!quant.uniform<i8:f32, "
	          "0.5:-3>>) -> tensor<16xf32>",
	          16, 16 + 64);
	flops_are("  %0 = stablehlo.add %a, %b : tensor<?x4xf32>", 4, 48);
	CHECK(strstr(warnings(), "dynamic dimensions ('?') counted as 1"));
	flops_are("  %0 = stablehlo.custom_call @foo(%a, %t) {backend_config = \"x\"} : "
	          "(tuple<tensor<2xf32>, tuple<tensor<3xi64>>>, !stablehlo.token) -> tensor<i32>",
	          0, 8 + 24 + 4);
}

/* ---- what the text may hold ---- */

/* loc(...) suffixes, #loc lines, comments, {-# #-} metadata, attribute
 * dictionaries with nested braces and strings, a block label with
 * arguments, a sharding custom call (elided), unit attributes. */
static void test_syntax(void)
{
	static const char *const text =
	    "#loc1 = loc(\"a.py\":1:2)\n"
	    "// a comment \"with a quote\n"
	    "module @s attributes {mhlo.num_replicas = 2 : i32, mhlo.frontend_attributes = {x = "
	    "\"{}\\\"(\"}} {\n"
	    "  func.func public @main(%arg0: tensor<4xf32> {mhlo.sharding = \"{replicated}\"} "
	    "loc(\"x\"(#loc1))) -> (tensor<4xf32> {jax.result_info = \"\"}) {\n"
	    "    %0 = stablehlo.custom_call @Sharding(%arg0) {mhlo.sharding = \"{replicated}\"} : "
	    "(tensor<4xf32>) -> tensor<4xf32> loc(#loc1)\n"
	    "    %1 = \"stablehlo.all_reduce\"(%0) ({\n"
	    "    ^bb0(%a: tensor<f32> loc(unknown), %b: tensor<f32>):\n"
	    "      %2 = \"stablehlo.add\"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>\n"
	    "      \"stablehlo.return\"(%2) : (tensor<f32>) -> ()\n"
	    "    }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> "
	    "tensor<4xf32> loc(\"y\")\n"
	    "    return %1 : tensor<4xf32> loc(#loc1)\n"
	    "  } loc(#loc1)\n"
	    "} loc(#loc1)\n"
	    "#loc2 = loc(\"b\"(\"c\":3:4 to 5:6))\n"
	    "{-#\n  dialect_resources: {builtin: {r: \"0x04\"}}\n#-}\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0);
	CHECK(x.nop == 1 && x.op[0].kind == XIR_COLL && x.op[0].bytes == 16);
	CHECK(x.replicas == 2 && set_is(&x, x.op[0].set, 1, 0, NULL));
	xir_free(&x);
}

/* Names stay unique: two shard_map bodies with the same value names. */
static void test_names(void)
{
	static const char *const text =
	    "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
	    "  %0 = sdy.manual_computation(%a) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, "
	    "[{}]>] manual_axes={\"x\"} (%b: tensor<4xf32>) {\n"
	    "    %1 = stablehlo.tanh %b : tensor<4xf32>\n"
	    "    sdy.return %1 : tensor<4xf32>\n"
	    "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
	    "  %2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{}]>] out_shardings=[<@mesh, "
	    "[{}]>] manual_axes={\"x\"} (%b: tensor<4xf32>) {\n"
	    "    %1 = stablehlo.tanh %b : tensor<4xf32>\n"
	    "    sdy.return %1 : tensor<4xf32>\n"
	    "  } : (tensor<4xf32>) -> tensor<4xf32>\n"
	    "  \"check.expect_eq\"(%2, %2) : (tensor<4xf32>, tensor<4xf32>) -> ()\n"
	    "  return %2 : tensor<4xf32>\n"
	    "}\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, text, &o, &e) == 0);
	CHECK(x.nop == 2 && strcmp(x.op[0].name, "tanh.1") == 0 &&
	      strcmp(x.op[1].name, "tanh.1~2") == 0);
	CHECK(x.op[1].n_deps == 1 && x.deps[x.op[1].dep_off] == 0);
	xir_free(&x);
}

/* The entry function: @main, the one named, else the only public one. */
static void test_entry(void)
{
	static const char *const two =
	    "func.func @a() {\n  %0 = stablehlo.iota dim = 0 : tensor<4xf32>\n  return\n}\n"
	    "func.func @b() {\n  %0 = stablehlo.iota dim = 0 : tensor<8xf32>\n  return\n}\n"
	    "func.func private @c() {\n  return\n}\n";
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, two, &o, &e) < 0);
	CHECK(strcmp(e.msg, "t.mlir: line 1, column 1: no @main and 2 public functions: name the "
	                    "entry function") == 0);
	xir_free(&x);
	o.entry = "b";
	xir_init(&x);
	CHECK(read_text(&x, two, &o, &e) == 0 && x.nop == 1 && x.op[0].bytes == 32);
	xir_free(&x);
	o.entry = "z";
	xir_init(&x);
	CHECK(read_text(&x, two, &o, &e) < 0 && strstr(e.msg, "no function @z"));
	xir_free(&x);
	o.entry = NULL;
	xir_init(&x);
	CHECK(read_text(&x, strstr(two, "func.func @b"), &o, &e) == 0 && x.nop == 1 &&
	      x.op[0].bytes == 32);
	xir_free(&x);
}

/* ---- errors ---- */

static void fails_with(const char *text, const char *msg)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	o.max_ops = 1000;
	xir_init(&x);
	int r = read_text(&x, text, &o, &e);
	CHECK(r < 0 && e.code == ET_EXIT_DATA && strcmp(e.msg, msg) == 0);
	if (r == 0 || strcmp(e.msg, msg) != 0)
		fprintf(stderr, "want: %s\ngot:  %s\n", msg, r ? e.msg : "(no error)");
	xir_free(&x);
}

static void test_errors(void)
{
	fails_with("func.func @main() {\n  %1 = stablehlo.add %0, %0 : tensor<f32>\n  return\n}\n",
	           "t.mlir: line 2, column 22: %0 is not defined here");
	fails_with("func.func @main() {\n  %1:2 = stablehlo.iota dim = 0 : tensor<f32>\n"
	           "  %2 = stablehlo.abs %1#2 : tensor<f32>\n  return\n}\n",
	           "t.mlir: line 3, column 22: %1 has 2 results, not #2");
	fails_with("func.func @main() {\n  %0 = stablehlo.constant dense<\"abc> : tensor<f32>\n}\n",
	           "t.mlir: line 2, column 33: unterminated string (it may not hold a line "
	           "break)");
	fails_with("func.func @main() {\n  %0 = stablehlo.abs %a : tensor<4xfoo>\n}\n",
	           "t.mlir: line 2, column 36: expected an element type (f32, bf16, i8, ...)");
	fails_with("func.func @main() {\n  %0 = stablehlo.abs %a : tensor<4>\n}\n",
	           "t.mlir: line 2, column 35: expected 'x' after a dimension");
	fails_with(
	    "func.func @main() {\n  %0 = \"stablehlo.abs\"(%a) : (tensor<f32>) tensor<f32>\n}\n",
	    "t.mlir: line 2, column 44: expected '->' and the result types");
	fails_with("func.func @main() {\n  %0 = stablehlo.abs %a : tensor<f32>\n",
	           "t.mlir: line 1, column 19: this region is not closed (expected '}')");
	fails_with("func.func @main() {\n  %0:0 = stablehlo.abs %a : tensor<f32>\n}\n",
	           "t.mlir: line 2, column 6: expected a result count from 1 to 1048576");
	fails_with("func.func @main() {\n  %0 = stablehlo.abs %a : tensor<f32> ]\n}\n",
	           "t.mlir: line 2, column 39: expected an operation");
	fails_with("func.func @main() {\n  \x01\n}\n",
	           "t.mlir: line 2, column 3: unexpected byte 0x01");
	{ /* a NUL inside a string (fuzz_shlo: an op named "stablehlo.\0...") */
		static const char nul[] =
		    "func.func @main() {\n  %0 = \"a.\0b\"() : () -> tensor<f32>\n}\n";
		xir x;
		et_error e = {0};
		xir_init(&x);
		CHECK(shlo_read(&x, "t.mlir", nul, sizeof nul - 1, NULL, &e) < 0);
		CHECK(strcmp(e.msg, "t.mlir: line 2, column 11: a string may not hold byte 0x00") ==
		      0);
		xir_free(&x);
	}
	fails_with(
	    "func.func @main() {\n  %0 = stablehlo.dot_general %a, %b, contracting_dims = "
	    "[2] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n  return\n}\n",
	    "t.mlir: line 2, column 3: dimension 2 out of range (rank 2)");
	fails_with("func.func @main() {\n  %0 = call @nope() : () -> tensor<f32>\n  return\n}\n",
	           "t.mlir: line 2, column 3: no function @nope in the module");
	fails_with(
	    "func.func @main() {\n  %0 = call @main() : () -> tensor<f32>\n  return\n}\n",
	    "t.mlir: line 2, column 3: calls and regions nested deeper than 256 (a recursive "
	    "call?)");
	fails_with("func.func @f() -> tensor<f32> {\n  %0 = stablehlo.iota dim = 0 : tensor<f32>\n"
	           "  return %0, %0 : tensor<f32>, tensor<f32>\n}\n"
	           "func.func @main() {\n  %0 = call @f() : () -> tensor<f32>\n  return\n}\n",
	           "t.mlir: line 6, column 3: the function returns 2 values for 1 results");
	/* not partitioned: mhlo.sharding (GSPMD), 2 partitions, no collectives */
	fails_with(
	    "module @m attributes {mhlo.num_partitions = 2 : i32} {\n"
	    "  func.func @main(%a: tensor<8xf32> {mhlo.sharding = \"{devices=[2]0,1}\"}) {\n"
	    "    %0 = stablehlo.abs %a : tensor<8xf32>\n    return\n  }\n}\n",
	    "t.mlir: line 2, column 38: sharding annotations and no collectives: the program "
	    "is not partitioned yet; dump the partitioned HLO with "
	    "XLA_FLAGS=--xla_dump_to=DIR and convert DIR/*.after_spmd_partitioner.txt with "
	    "--from hlo");
	fails_with("module @m attributes {mhlo.num_partitions = 0 : i32} {\n}\n",
	           "t.mlir: line 1, column 45: mhlo.num_partitions must be from 1 to 1048576");
	/* the gspmd program's third stage, HLO after the SPMD partitioner */
	fails_with("HloModule jit_gspmd, entry_computation_layout={(bf16[4096,512]{1,0}, "
	           "bf16[512,14336]{1,0})->bf16[4096,14336]{1,0}}\n\nFileNames\n",
	           "t.mlir: line 1, column 1: XLA HLO text, not StableHLO: convert it with --from "
	           "hlo");
	/* the ops limit (1,000 here) counts ops after unrolling, estimated
	 * before expanding: 400 trips of 4 ops and 3 outside */
	char text[4096];
	loop_text(text, sizeof text, "400", "LT", "1");
	fails_with(text, "t.mlir: line 4, column 5: unrolling loops and inlining calls would make "
	                 "about 1603 ops, more than 1000 (estimated before expanding: trip count "
	                 "times the first iteration, calls times the first call)");
	/* the input size limit is checked before anything is read */
	xir x;
	et_error e = {0};
	xir_init(&x);
	CHECK(shlo_read(&x, "big.mlir", "", SHLO_MAX_INPUT + 1, NULL, &e) < 0);
	CHECK(strcmp(e.msg, "big.mlir: 1073741825 bytes: larger than the 1 GiB a StableHLO file "
	                    "may have") == 0);
	xir_free(&x);
}

/* Nesting beyond SHLO_MAX_NEST: brackets in an attribute, tuple types,
 * regions; each refused with an error, never a crash. */
static void test_nesting(void)
{
	size_t cap = 64 * 1024, n;
	char *t = malloc(cap);
	/* 300 brackets */
	n = (size_t)snprintf(t, cap, "func.func @main() {\n  %%0 = stablehlo.iota {a = ");
	for (int i = 0; i < 300; i++)
		t[n++] = '[';
	strcpy(t + n, "\n");
	fails_with(t, "t.mlir: line 2, column 284: brackets nested deeper than 256");
	/* 300 tuples */
	n = (size_t)snprintf(t, cap, "func.func @main() {\n  %%0 = stablehlo.iota dim = 0 : ");
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(t + n, cap - n, "tuple<");
	strcpy(t + n, "f32\n");
	fails_with(t, "t.mlir: line 2, column 1569: tuple types nested deeper than 256");
	/* 300 regions */
	n = (size_t)snprintf(t, cap, "func.func @main() {\n");
	for (int i = 0; i < 300; i++)
		n += (size_t)snprintf(t + n, cap - n, "%%%d = \"x.y\"() ({\n", i);
	strcpy(t + n, "\n");
	fails_with(t, "t.mlir: line 257, column 17: regions nested deeper than 256");
	/* 255 regions deep is fine: each x.y op is an op of unknown cost */
	n = (size_t)snprintf(t, cap, "func.func @main() {\n");
	for (int i = 0; i < 250; i++)
		n += (size_t)snprintf(t + n, cap - n, "%%v%d = \"x.y\"() ({\n", i);
	for (int i = 0; i < 250; i++)
		n += (size_t)snprintf(t + n, cap - n, "}) : () -> tensor<f32>\n");
	strcpy(t + n, "return\n}\n");
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_text(&x, t, &o, &e) == 0 && x.nop == 1 && x.op[0].bytes == 4);
	xir_free(&x);
	free(t);
}

/* ---- the corpus files ---- */

/* The Hespas ResNet-50 training step, 4 replicas. Independent counts:
 *   grep -c '"stablehlo.all_reduce"' hespas_resnet50_train_4dev.mlir      -> 375
 *   python3 tests/data/compiler/shlo_counts.py \
 *       tests/data/compiler/hespas_resnet50_train_4dev.mlir
 *     -> ops 9069, all_reduce 375 bytes 102865576,
 *        convolution 158 flops 7223648452608, dot_general 3 flops 3145728000 */
static void test_resnet(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(read_file(&x, "hespas_resnet50_train_4dev.mlir", &o, &e) == 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("hespas_resnet50_train_4dev.mlir (1.09 MB): read in %.3f s\n", secs);
	CHECK(secs < 5); /* ~0.03 s in a release build; sanitizers and valgrind are slower */
	CHECK(strcmp(x.module, "pmap__unnamed_wrapped_function_") == 0);
	CHECK(x.replicas == 4 && x.partitions == 1);
	CHECK(x.nop == 9069);
	CHECK(count_kind(&x, XIR_COLL) == 375);
	CHECK(count_kind(&x, XIR_COMP) == 8694);
	uint64_t ar = 0, conv = 0, dot = 0;
	size_t nconv = 0, ndot = 0;
	for (size_t i = 0; i < x.nop; i++) {
		const xir_op *p = &x.op[i];
		if (p->kind == XIR_COLL) {
			CHECK(p->coll == ET_COLL_ALL_REDUCE && p->channel == -1);
			CHECK(set_is(&x, p->set, 1, 0, NULL)); /* [[0, 1, 2, 3]]: everyone */
			ar += p->bytes;
		}
		if (strcmp(p->opcode, "stablehlo.convolution") == 0) {
			conv += p->flops;
			nconv++;
		}
		if (strcmp(p->opcode, "stablehlo.dot_general") == 0) {
			dot += p->flops;
			ndot++;
		}
	}
	CHECK(ar == 102865576);
	CHECK(nconv == 158 && conv == 7223648452608ull);
	CHECK(ndot == 3 && dot == 3145728000ull);
	/* by hand: %24, 256x224x224x3 (*) 7x7x3x64 -> 256x112x112x64 f16:
	 * 2 * 205,520,896 * 7 * 7 * 3; bytes (150,528 * 256 * 2) + 18,816 + 411,041,792 */
	const xir_op *c = op_named(&x, "convolution.24");
	CHECK(c && c->flops == 60423143424ull && c->bytes == 488130944);
	/* %3795: 256x2048 . 2048x1000: 2 * 256 * 1000 * 2048 */
	const xir_op *d = op_named(&x, "dot_general.3795");
	CHECK(d && d->flops == 1048576000 && d->gemm[0] == 256 && d->gemm[1] == 1000 &&
	      d->gemm[2] == 2048 && d->gemm[3] == 1);
	/* %4208 contracts dimension 0 of both: M 1000, N 2048, K 256 */
	d = op_named(&x, "dot_general.4208");
	CHECK(d && d->gemm[0] == 1000 && d->gemm[1] == 2048 && d->gemm[2] == 256);
	/* reduce_window 3x3 over 256x112x112x64 -> 256x56x56x64: 51,380,224 * 9 */
	CHECK(op_named(&x, "reduce_window.95") &&
	      op_named(&x, "reduce_window.95")->flops == 462422016);
	/* @relu_0 is called five times: five maximum ops, each under its call */
	CHECK(op_named(&x, "relu_0.163/maximum.1") && op_named(&x, "relu_0.234/maximum.1"));
	check_wellformed(&x);
	CHECK(strcmp(warnings(), "") == 0);
	xir_free(&x);
}

/* The Hespas MLP (pmap export, 1 replica):
 *   python3 tests/data/compiler/shlo_counts.py hespas_jax_pmap_mlp_train.mlir
 *     -> ops 125, all_reduce 6 bytes 7454760, dot_general 8 flops 1224212480 */
static void test_mlp(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_file(&x, "hespas_jax_pmap_mlp_train.mlir", &o, &e) == 0);
	CHECK(x.nop == 125 && count_kind(&x, XIR_COLL) == 6);
	CHECK(x.replicas == 1 && x.partitions == 1);
	uint64_t ar = 0, dot = 0;
	for (size_t i = 0; i < x.nop; i++) {
		if (x.op[i].kind == XIR_COLL) {
			ar += x.op[i].bytes;
			CHECK(set_is(&x, x.op[i].set, 1, 0, NULL)); /* dense<0> : 1x1 on 1 device */
		}
		if (strcmp(x.op[i].opcode, "stablehlo.dot_general") == 0)
			dot += x.op[i].flops;
	}
	CHECK(ar == 7454760 && dot == 1224212480);
	/* %8: 128x784 . 784x1024 */
	const xir_op *d = op_named(&x, "dot_general.8");
	CHECK(d && d->flops == 2ull * 128 * 1024 * 784 && d->gemm[0] == 128 && d->gemm[1] == 1024 &&
	      d->gemm[2] == 784);
	check_wellformed(&x);
	xir_free(&x);
}

/* Two all-reduces: [[0, 1], [2, 3]] then [[0, 1, 2, 3]] on 4 replicas. */
static void test_split_groups(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_file(&x, "hespas_split_replica_groups.mlir", &o, &e) == 0);
	/* dot: 2 * 128 * 512 * 256 FLOPs, (128*256 + 256*512 + 128*512) * 4 bytes */
	CHECK(dump_is(&x, "module test_split_replica_groups replicas 4 partitions 1 ops 5 sets 2\n"
	                  "0 comp dot_general.0 stablehlo.dot_general 33554432 917504 "
	                  "128,512,256,1 0 0 -1\n"
	                  "1 coll all_reduce.1 stablehlo.all_reduce 0 262144 0,0,0,0 0 0 -1 0\n"
	                  "2 comp tanh.2 stablehlo.tanh 65536 524288 0,0,0,0 0 0 -1 1\n"
	                  "3 coll all_reduce.3 stablehlo.all_reduce 0 262144 0,0,0,0 0 1 -1 2\n"
	                  "4 comp negate.4 stablehlo.negate 65536 524288 0,0,0,0 0 0 -1 3\n"
	                  "set 0 n 2 size 2: 0 1 2 3\n"
	                  "set 1 n 1 size 0:\n"));
	CHECK(ET_COLL_ALL_REDUCE == 0);
	xir_free(&x);
}

/* openxla's interpreter test: two modules; @main runs @collective_permute
 * on 5 replicas (channel 0: pairs of replicas), then on 5 partitions
 * (channel 1: pairs of partitions). A file of several modules converts the
 * one named, else the first with a warning. */
static void test_permute(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_file(&x, "stablehlo_interpret_collective_permute.mlir", &o, &e) == 0);
	CHECK(dump_is(&x,
	              "module cross_replica_with_self_loops replicas 5 partitions 1 ops 1 sets 1\n"
	              "0 permute collective_permute.result stablehlo.collective_permute 0 32 "
	              "0,0,0,0 0 0 -1\n"
	              "set 0 n 4 size 2: 0 1 1 2 3 3 4 4\n"));
	CHECK(
	    strstr(warnings(), "2 modules in the file: converting @cross_replica_with_self_loops"));
	xir_free(&x);
	opts(&o);
	o.module = "cross_partition_with_self_loops";
	xir_init(&x);
	CHECK(read_file(&x, "stablehlo_interpret_collective_permute.mlir", &o, &e) == 0);
	CHECK(dump_is(&x, "module cross_partition_with_self_loops replicas 1 partitions 5 ops 1 "
	                  "sets 1\n"
	                  "0 permute collective_permute.result stablehlo.collective_permute 0 32 "
	                  "0,0,0,0 0 0 1\n"
	                  "set 0 n 4 size 2: 0 1 1 2 3 3 4 4\n"));
	xir_free(&x);
	opts(&o);
	o.module = "nope";
	xir_init(&x);
	CHECK(read_file(&x, "stablehlo_interpret_collective_permute.mlir", &o, &e) < 0);
	CHECK(strcmp(e.msg, "stablehlo_interpret_collective_permute.mlir: line 1, column 1: no "
	                    "module @nope in the file") == 0);
	xir_free(&x);
}

/* openxla's all_to_all interpreter test: five modules of 2 processes. */
static void test_all_to_all(void)
{
	static const struct {
		const char *module;
		uint32_t replicas, partitions;
		uint64_t bytes;
		int64_t channel;
		uint32_t size, ids[2];
	} cases[] = {
	    {"cross_replica", 2, 1, 64, -1, 0, {0, 0}},
	    {"cross_replica_issue_2433", 2, 1, 64, -1, 0, {0, 0}}, /* [[1, 0]]: every rank */
	    {"cross_partition", 1, 2, 64, 1, 0, {0, 0}},
	    {"same_split_concat_dim", 2, 1, 64, -1, 0, {0, 0}},
	    {"cross_replica_variaidic", 2, 1, 64 + 48, -1, 0, {0, 0}}, /* 2x4xi64 + 3x4xi32 */
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		xir x;
		et_error e = {0};
		shlo_opts o;
		opts(&o);
		o.module = cases[k].module;
		xir_init(&x);
		CHECK(read_file(&x, "stablehlo_interpret_all_to_all.mlir", &o, &e) == 0);
		CHECK(x.nop == 1 && x.op[0].kind == XIR_COLL && x.op[0].coll == ET_COLL_ALL_TO_ALL);
		CHECK(x.replicas == cases[k].replicas && x.partitions == cases[k].partitions);
		CHECK(x.op[0].bytes == cases[k].bytes && x.op[0].channel == cases[k].channel);
		CHECK(set_is(&x, x.op[0].set, 1, cases[k].size, cases[k].ids));
		xir_free(&x);
	}
}

/* clarkechong's gspmd export: sdy.sharding and no collectives on 8
 * partitions, refused with how to get a partitioned program. */
static void test_gspmd_refused(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_file(&x, "clarkechong_gspmd.stablehlo.mlir", &o, &e) < 0);
	CHECK(e.code == ET_EXIT_DATA);
	CHECK(strcmp(e.msg, "clarkechong_gspmd.stablehlo.mlir: line 5, column 57: sharding "
	                    "annotations and no collectives: the program is not partitioned yet; "
	                    "dump the partitioned HLO with XLA_FLAGS=--xla_dump_to=DIR and convert "
	                    "DIR/*.after_spmd_partitioner.txt with --from hlo") == 0);
	xir_free(&x);
}

/* clarkechong's shard_map export: the manual computation's body, local
 * shapes: 4096x512 . 512x14336 bf16, then a psum over the 8 devices
 * (channel 1, use_global_device_ids: flattened ids). */
static void test_shardmap(void)
{
	xir x;
	et_error e = {0};
	shlo_opts o;
	opts(&o);
	xir_init(&x);
	CHECK(read_file(&x, "clarkechong_shardmap.stablehlo.mlir", &o, &e) == 0);
	/* 2 * 4096 * 14336 * 512 FLOPs; (4096*512 + 512*14336 + 4096*14336) * 2 bytes;
	 * the all-reduce sends 4096 * 14336 * 2 bytes */
	CHECK(dump_is(&x, "module jit_shardmap replicas 1 partitions 8 ops 2 sets 1\n"
	                  "0 comp dot_general.1 stablehlo.dot_general 60129542144 136314880 "
	                  "4096,14336,512,1 0 0 -1\n"
	                  "1 coll all_reduce.2 stablehlo.all_reduce 0 117440512 0,0,0,0 0 0 1 0\n"
	                  "set 0 n 1 size 0:\n"));
	xir_free(&x);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		data_dir = argv[1];
	test_resnet();
	test_mlp();
	test_split_groups();
	test_permute();
	test_all_to_all();
	test_gspmd_refused();
	test_shardmap();
	test_while();
	test_while_generic();
	test_while_folded();
	test_case_calls();
	test_tuples();
	test_groups();
	test_send_recv();
	test_flops();
	test_syntax();
	test_names();
	test_entry();
	test_errors();
	test_nesting();
	if (warn_f)
		fclose(warn_f);
	free(warn_buf);
	return check_failures();
}
