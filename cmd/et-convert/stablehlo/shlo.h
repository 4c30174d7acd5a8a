/* shlo: et-convert's StableHLO reader (`--from stablehlo`): MLIR text,
 * pretty or generic form, to the per-device program xir (xir.h).
 *
 * Input: one module (`module @m attributes {mhlo.num_replicas = R,
 * mhlo.num_partitions = P} {...}`, absent numbers = 1), or functions at
 * the top level; a file of several modules (split-input `// -----` tests)
 * converts the one named, else the first (with a warning). loc(...) and
 * #loc lines are ignored, unknown attributes skipped.
 *
 * The program is the entry function's (shlo_opts.entry, else @main, else
 * the only public function), in program order:
 * - func.call / call and stablehlo.composite are inlined, and
 *   sdy.manual_computation bodies (shard_map), which hold local shapes;
 *   interpreter.run_parallel(programs = [[@f, ...], ...]) runs @f as the
 *   per-device program on a grid of rows replicas x columns partitions;
 * - while is unrolled by its trip count when it is a counted loop (a
 *   counter from a constant, stepped by a constant add or subtract, tested
 *   LT/LE/GT/GE/NE against a constant or a loop-invariant argument;
 *   constants may be computed outside the loop by integer add, subtract,
 *   multiply or convert), else once with a warning; the cond region is not
 *   emitted; at most max_trip iterations (a warning when capped);
 * - case / if: the branch with the most FLOPs (then bytes, then the first)
 *   is emitted; the predicate adds no dependency;
 * - zero-cost ops are elided, their dependencies passed through:
 *   constant, reshape, bitcast_convert, tuple / get_tuple_element (by
 *   element), optimization_barrier (by operand), after_all, create_token,
 *   replica_id, partition_id, get_dimension_size, the sharding custom calls
 *   (@Sharding, @SPMDFullToShardShape, @SPMDShardToFullShape, xla.sdy.*),
 *   sdy.sharding_constraint / reshard, check.* and interpreter.probe;
 * - compute ops are XIR_COMP: bytes = operand bytes + result bytes; FLOPs:
 *   dot / dot_general 2 * result elements * product of the contracting
 *   dimensions (gemm = M, N, K, batch), convolution 2 * result elements *
 *   kernel spatial elements * kernel input features (the kernel's input
 *   feature dimension is already per group, so feature_group_count and
 *   batch_group_count need no factor), elementwise ops (arithmetic,
 *   compare, select, clamp, convert, chlo.*) result elements, reduce its
 *   first input's elements, reduce_window result elements * window
 *   elements, select_and_scatter source elements * window elements, scatter
 *   update elements, batch_norm_* operand elements; data movement
 *   (broadcast_in_dim, transpose, slice, concatenate, pad, gather, iota,
 *   dynamic_slice, ...), sort, fft, custom_call and unknown ops 0;
 * - all_reduce, all_gather, reduce_scatter, all_to_all,
 *   collective_broadcast are XIR_COLL (ET_COLL_*), bytes = their operands'
 *   bytes, groups by the StableHLO rules in flattened ids (replica *
 *   partitions + partition): use_global_device_ids -> the ids as written;
 *   all_reduce / all_gather / reduce_scatter with channel_id > 0 -> each
 *   replica group x every partition, else (channel_id <= 0 or none) the
 *   replica groups within each partition; all_to_all and
 *   collective_broadcast channel_id > 0 -> partition groups within each
 *   replica; empty groups = everyone; -1 padding dropped (groups must then
 *   be of one size); collective_permute is XIR_PERMUTE, send / recv
 *   XIR_SEND / XIR_RECV (with source_target_pairs; host transfers and
 *   pairless ones are skipped with a warning): channel_id <= 0 -> pairs
 *   of replicas within each partition, else pairs of partitions within each
 *   replica; channel = the channel handle when > 0, else -1; a set of
 *   one group holding every device in order is xir's "everyone" set.
 *
 * Op names: MNEMONIC.RESULT ("all_reduce.38"), prefixed by what inlined
 * them ("relu_0.163/", "while.3[2]/", "case.5[1]/"), made unique by "~2",
 * "~3"...; opcodes as the source spells them ("stablehlo.dot_general").
 *
 * Refused (ET_EXIT_DATA, one line "NAME: line L, column C: what was
 * expected"): a module with sharding annotations (mhlo.sharding,
 * sdy.sharding) and no collectives over more than one device (not yet
 * partitioned; the message says how to get the partitioned HLO); XLA HLO
 * text (HloModule ..., for --from hlo);
 * inputs above SHLO_MAX_INPUT bytes; brackets, types or regions nested
 * deeper than SHLO_MAX_NEST, calls deeper than SHLO_MAX_NEST; more than
 * max_ops ops visited after unrolling (an op of several results counts
 * one per result); more than SHLO_MAX_DEVICES devices or SHLO_MAX_MEMBERS
 * group members; ids outside the device grid. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_H
#define ET_CONVERT_STABLEHLO_SHLO_H

#include "et-convert/xir/xir.h"
#include "et_err.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SHLO_MAX_INPUT ((size_t)1 << 30)
#define SHLO_MAX_OPS ((uint64_t)16 << 20)
/* Devices (replicas x partitions) at most, and group members (all the
 * groups and pairs of the program's distinct sets) at most. */
#define SHLO_MAX_DEVICES (1u << 20)
#define SHLO_MAX_MEMBERS (1u << 26)

typedef struct shlo_opts {
	const char *entry;  /* entry function without '@'; NULL: main, else the only public one */
	const char *module; /* module without '@' in a file of several; NULL: the first */
	uint64_t max_trip;  /* loop unrolling cap (0: none) */
	uint64_t max_ops;   /* ops visited after unrolling, elided ones too (0: SHLO_MAX_OPS) */
	bool quiet;         /* no warnings */
} shlo_opts;

void shlo_opts_init(shlo_opts *o);

/* Reads text[0..len) (name for messages) into x, which xir_init prepared.
 * 0, or -1 with e set (ET_EXIT_DATA) and x holding what was built. */
int shlo_read(xir *x, const char *name, const char *text, size_t len, const shlo_opts *o,
              et_error *e);

#endif
