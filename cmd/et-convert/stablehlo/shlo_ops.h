/* shlo_ops: what the StableHLO reader does with each operation, decided
 * from its name alone. stablehlo.X and mhlo.X are the same op X; chlo ops
 * are elementwise; func, sdy, interpreter and check ops have their own
 * kinds; any other name is an op of unknown cost (bytes only).
 *
 * Zero-cost ops (elided, dependencies passed through): constant, reshape,
 * bitcast_convert, tuple, get_tuple_element, optimization_barrier,
 * after_all, create_token, replica_id, partition_id, get_dimension_size,
 * sdy.sharding_constraint / sdy.reshard / sdy.propagation_barrier,
 * interpreter.probe, and the check dialect's assertions. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_OPS_H
#define ET_CONVERT_STABLEHLO_SHLO_OPS_H

#include <stddef.h>
#include <stdint.h>

enum shlo_opk {
	/* compute ops (XIR_COMP), by their FLOP formula */
	SHLO_OP_OTHER,   /* 0 FLOPs: unknown ops, custom_call, fft, sort... */
	SHLO_OP_MOVE,    /* 0 FLOPs: data movement (broadcast, transpose, slice...) */
	SHLO_OP_ELEM,    /* result elements */
	SHLO_OP_ADD,     /* elementwise, and a counted loop's step */
	SHLO_OP_SUB,     /* elementwise, and a counted loop's step */
	SHLO_OP_COMPARE, /* elementwise, and a counted loop's test */
	SHLO_OP_DOT,     /* 2 * result * K, a GEMM */
	SHLO_OP_DOT_GENERAL,
	SHLO_OP_CONV,    /* 2 * result * kernel spatial * kernel input features */
	SHLO_OP_REDUCE,  /* input elements */
	SHLO_OP_RWINDOW, /* result elements * window elements */
	SHLO_OP_SELSCAT, /* source elements * window elements */
	SHLO_OP_SCATTER, /* update elements */
	SHLO_OP_BNORM,   /* operand elements */
	/* zero-cost */
	SHLO_OP_CONST, /* no dependencies; a scalar integer is remembered */
	SHLO_OP_NODEP, /* no dependencies: replica_id, partition_id, create_token */
	SHLO_OP_PASS,  /* results depend on what the operands depended on */
	SHLO_OP_TUPLE,
	SHLO_OP_GTE,
	SHLO_OP_BARRIER, /* result i passes operand i */
	SHLO_OP_CHECK,   /* assertions: nothing */
	/* structure and control */
	SHLO_OP_RETURN,
	SHLO_OP_CALL,
	SHLO_OP_COMPOSITE,
	SHLO_OP_CUSTOM_CALL,
	SHLO_OP_WHILE,
	SHLO_OP_CASE,
	SHLO_OP_IF,
	SHLO_OP_MANUAL,   /* sdy.manual_computation: its body inlined */
	SHLO_OP_PARALLEL, /* interpreter.run_parallel */
	SHLO_OP_MODULE,
	SHLO_OP_FUNC,
	/* communication */
	SHLO_OP_ALL_REDUCE,
	SHLO_OP_ALL_GATHER,
	SHLO_OP_REDUCE_SCATTER,
	SHLO_OP_ALL_TO_ALL,
	SHLO_OP_BROADCAST,
	SHLO_OP_PERMUTE,
	SHLO_OP_SEND,
	SHLO_OP_RECV,
};

/* The kind of the op named name[0..n) ("stablehlo.add", "func.call"). */
int shlo_op_kind(const char *name, size_t n);
/* Whether ops of kind k carry their operands' and results' dimensions
 * (the parser keeps them only for these). */
int shlo_op_needs_dims(int k);
/* Whether kind k is a collective, permute, send or recv. */
int shlo_op_communicates(int k);

#endif
