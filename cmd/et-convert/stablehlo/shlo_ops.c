/* shlo_ops: op names to kinds (shlo_ops.h). */
#include "et-convert/stablehlo/shlo_ops.h"

#include <stdlib.h>
#include <string.h>

typedef struct entry {
	const char *name;
	int kind;
} entry;

/* StableHLO/MHLO mnemonics, sorted for bsearch. Missing ones are OTHER. */
static const entry mnemonics[] = {
    {"abs", SHLO_OP_ELEM},
    {"add", SHLO_OP_ADD},
    {"after_all", SHLO_OP_PASS},
    {"all_gather", SHLO_OP_ALL_GATHER},
    {"all_reduce", SHLO_OP_ALL_REDUCE},
    {"all_to_all", SHLO_OP_ALL_TO_ALL},
    {"and", SHLO_OP_ELEM},
    {"atan2", SHLO_OP_ELEM},
    {"batch_norm_grad", SHLO_OP_BNORM},
    {"batch_norm_inference", SHLO_OP_BNORM},
    {"batch_norm_training", SHLO_OP_BNORM},
    {"bitcast_convert", SHLO_OP_PASS},
    {"broadcast", SHLO_OP_MOVE},
    {"broadcast_in_dim", SHLO_OP_MOVE},
    {"case", SHLO_OP_CASE},
    {"cbrt", SHLO_OP_ELEM},
    {"ceil", SHLO_OP_ELEM},
    {"cholesky", SHLO_OP_OTHER},
    {"clamp", SHLO_OP_ELEM},
    {"collective_broadcast", SHLO_OP_BROADCAST},
    {"collective_permute", SHLO_OP_PERMUTE},
    {"compare", SHLO_OP_COMPARE},
    {"complex", SHLO_OP_ELEM},
    {"composite", SHLO_OP_COMPOSITE},
    {"concatenate", SHLO_OP_MOVE},
    {"constant", SHLO_OP_CONST},
    {"convert", SHLO_OP_ELEM},
    {"convolution", SHLO_OP_CONV},
    {"copy", SHLO_OP_MOVE},
    {"cosine", SHLO_OP_ELEM},
    {"count_leading_zeros", SHLO_OP_ELEM},
    {"create_token", SHLO_OP_NODEP},
    {"cross-replica-sum", SHLO_OP_ALL_REDUCE},
    {"custom_call", SHLO_OP_CUSTOM_CALL},
    {"divide", SHLO_OP_ELEM},
    {"dot", SHLO_OP_DOT},
    {"dot_general", SHLO_OP_DOT_GENERAL},
    {"dynamic_broadcast_in_dim", SHLO_OP_MOVE},
    {"dynamic_gather", SHLO_OP_MOVE},
    {"dynamic_pad", SHLO_OP_MOVE},
    {"dynamic_reshape", SHLO_OP_PASS},
    {"dynamic_slice", SHLO_OP_MOVE},
    {"dynamic_update_slice", SHLO_OP_MOVE},
    {"einsum", SHLO_OP_OTHER},
    {"erf", SHLO_OP_ELEM},
    {"exponential", SHLO_OP_ELEM},
    {"exponential_minus_one", SHLO_OP_ELEM},
    {"fft", SHLO_OP_OTHER},
    {"floor", SHLO_OP_ELEM},
    {"gather", SHLO_OP_MOVE},
    {"get_dimension_size", SHLO_OP_NODEP},
    {"get_tuple_element", SHLO_OP_GTE},
    {"if", SHLO_OP_IF},
    {"imag", SHLO_OP_ELEM},
    {"iota", SHLO_OP_MOVE},
    {"is_finite", SHLO_OP_ELEM},
    {"log", SHLO_OP_ELEM},
    {"log_plus_one", SHLO_OP_ELEM},
    {"logistic", SHLO_OP_ELEM},
    {"map", SHLO_OP_ELEM},
    {"maximum", SHLO_OP_ELEM},
    {"minimum", SHLO_OP_ELEM},
    {"multiply", SHLO_OP_ELEM},
    {"negate", SHLO_OP_ELEM},
    {"not", SHLO_OP_ELEM},
    {"optimization_barrier", SHLO_OP_BARRIER},
    {"or", SHLO_OP_ELEM},
    {"pad", SHLO_OP_MOVE},
    {"partition_id", SHLO_OP_NODEP},
    {"popcnt", SHLO_OP_ELEM},
    {"power", SHLO_OP_ELEM},
    {"real", SHLO_OP_ELEM},
    {"real_dynamic_slice", SHLO_OP_MOVE},
    {"recv", SHLO_OP_RECV},
    {"reduce", SHLO_OP_REDUCE},
    {"reduce_precision", SHLO_OP_ELEM},
    {"reduce_scatter", SHLO_OP_REDUCE_SCATTER},
    {"reduce_window", SHLO_OP_RWINDOW},
    {"remainder", SHLO_OP_ELEM},
    {"replica_id", SHLO_OP_NODEP},
    {"reshape", SHLO_OP_PASS},
    {"return", SHLO_OP_RETURN},
    {"reverse", SHLO_OP_MOVE},
    {"rng", SHLO_OP_ELEM},
    {"rng_bit_generator", SHLO_OP_MOVE},
    {"round_nearest_afz", SHLO_OP_ELEM},
    {"round_nearest_even", SHLO_OP_ELEM},
    {"rsqrt", SHLO_OP_ELEM},
    {"scatter", SHLO_OP_SCATTER},
    {"select", SHLO_OP_ELEM},
    {"select_and_scatter", SHLO_OP_SELSCAT},
    {"send", SHLO_OP_SEND},
    {"set_dimension_size", SHLO_OP_PASS},
    {"shift_left", SHLO_OP_ELEM},
    {"shift_right_arithmetic", SHLO_OP_ELEM},
    {"shift_right_logical", SHLO_OP_ELEM},
    {"sign", SHLO_OP_ELEM},
    {"sine", SHLO_OP_ELEM},
    {"slice", SHLO_OP_MOVE},
    {"sort", SHLO_OP_OTHER},
    {"sqrt", SHLO_OP_ELEM},
    {"subtract", SHLO_OP_SUB},
    {"tan", SHLO_OP_ELEM},
    {"tanh", SHLO_OP_ELEM},
    {"torch_index_select", SHLO_OP_MOVE},
    {"transpose", SHLO_OP_MOVE},
    {"triangular_solve", SHLO_OP_OTHER},
    {"tuple", SHLO_OP_TUPLE},
    {"uniform_dequantize", SHLO_OP_ELEM},
    {"uniform_quantize", SHLO_OP_ELEM},
    {"while", SHLO_OP_WHILE},
    {"xor", SHLO_OP_ELEM},
};

/* Other dialects' ops the reader knows by their full name (sorted). */
static const entry full_names[] = {
    {"builtin.module", SHLO_OP_MODULE},
    {"call", SHLO_OP_CALL},
    {"func.call", SHLO_OP_CALL},
    {"func.func", SHLO_OP_FUNC},
    {"func.return", SHLO_OP_RETURN},
    {"interpreter.probe", SHLO_OP_PASS},
    {"interpreter.run_parallel", SHLO_OP_PARALLEL},
    {"module", SHLO_OP_MODULE},
    {"return", SHLO_OP_RETURN},
    {"sdy.manual_computation", SHLO_OP_MANUAL},
    {"sdy.propagation_barrier", SHLO_OP_PASS},
    {"sdy.reshard", SHLO_OP_PASS},
    {"sdy.return", SHLO_OP_RETURN},
    {"sdy.sharding_constraint", SHLO_OP_PASS},
};

typedef struct key {
	const char *s;
	size_t n;
} key;

static int cmp(const void *a, const void *b)
{
	const key *k = a;
	const entry *e = b;
	size_t n = strlen(e->name);
	int c = memcmp(k->s, e->name, k->n < n ? k->n : n);
	return c ? c : (k->n > n) - (k->n < n);
}

static int lookup(const entry *t, size_t n, const char *s, size_t len, int dflt)
{
	key k = {s, len};
	const entry *e = bsearch(&k, t, n, sizeof *t, cmp);
	return e ? e->kind : dflt;
}

static int prefixed(const char *name, size_t n, const char *pfx)
{
	size_t p = strlen(pfx);
	return n > p && memcmp(name, pfx, p) == 0 ? (int)p : 0;
}

int shlo_op_kind(const char *name, size_t n)
{
	int p = prefixed(name, n, "stablehlo.");
	if (!p)
		p = prefixed(name, n, "mhlo.");
	if (p)
		return lookup(mnemonics, sizeof mnemonics / sizeof *mnemonics, name + p,
		              n - (size_t)p, SHLO_OP_OTHER);
	if (prefixed(name, n, "chlo."))
		return SHLO_OP_ELEM;
	if (prefixed(name, n, "check."))
		return SHLO_OP_CHECK;
	return lookup(full_names, sizeof full_names / sizeof *full_names, name, n, SHLO_OP_OTHER);
}

int shlo_op_needs_dims(int k)
{
	return k == SHLO_OP_DOT || k == SHLO_OP_DOT_GENERAL || k == SHLO_OP_CONV;
}

int shlo_op_communicates(int k)
{
	return k >= SHLO_OP_ALL_REDUCE;
}
