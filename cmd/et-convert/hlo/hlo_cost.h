/* hlo_cost: what one instruction costs as one op, what a computation costs
 * when it runs once, and the loop and branch facts the builder needs.
 *
 * FLOPs (doc/compiler-ir.md, "Mapping to Chakra"):
 * - dot: 2 * result elements * product of the contracting dimensions; gemm
 *   = M (lhs free dims), N (rhs free dims), K (contracting), batch;
 * - custom-call __cublas$... (GPU matrix products after optimization): the
 *   same, with the dimension numbers read from backend_config;
 * - convolution: 2 * result elements * kernel spatial size * kernel input
 *   features (the kernel's input-feature dimension is already divided by
 *   feature_group_count, so groups are respected); gemm is the implicit
 *   GEMM (M = result elements / output features, N = output features,
 *   K = spatial size * input features);
 * - reduce: the elements of its inputs; reduce-window: result elements *
 *   window size;
 * - fusion: the FLOPs of its body (a kCustom fusion holding a dot counts
 *   the dot), gemm that of the body's most expensive matrix product;
 * - data movement (broadcast, reshape, transpose, copy, slice, concatenate,
 *   pad, gather, iota, ...) and other custom-calls: 0;
 * - every other opcode: one FLOP per result element.
 * Bytes: operand bytes + result bytes, except slice and dynamic-slice (the
 * window read and written: 2 * result + index operands) and
 * dynamic-update-slice (2 * update + index operands), which touch only
 * part of their big operand; for communication, the bytes sent: the sum of
 * the operands (the first only for an in-place collective-permute and for
 * ragged-all-to-all; a recv: what it receives). Sums saturate. */
#ifndef ET_CONVERT_HLO_HLO_COST_H
#define ET_CONVERT_HLO_HLO_COST_H

#include "et-convert/hlo/hlo_mod.h"

typedef struct hlo_cost {
	uint64_t flops, bytes, gemm[4];
	uint64_t gflops; /* the FLOPs of the matrix product gemm describes */
} hlo_cost;

/* Instruction i as one op (for control flow: 0). Fails on dimension
 * numbers that do not fit the operands, or on a fusion body that calls
 * itself. */
int hlo_inst_cost(hlo_module *m, uint32_t i, hlo_cost *c, et_error *e);

/* Fills m->comp[c].flops, bytes and gemm: the computation run once, calls
 * and conditionals (their most expensive branch) included, loops times their
 * trip count (1 when unknown, at most opts.max_unroll). */
int hlo_comp_cost(hlo_module *m, uint32_t c, et_error *e);

/* The branch conditional i runs in the program: its most expensive one
 * (most FLOPs, then most bytes, then the first). */
int hlo_pick_branch(hlo_module *m, uint32_t i, uint32_t *branch, et_error *e);

/* hlo_loop.c: the trip count of while instruction w: known_trip_count from
 * backend_config, or inferred for a counted loop (a tuple element starting
 * from a constant, +1 per iteration, compared LT, LE or NE with a constant).
 * Returns false when unknown. */
bool hlo_trip_count(const hlo_module *m, uint32_t w, uint64_t *trip);

/* hlo_cost_json.c: in text range r, the integers of the list (JSON array,
 * numbers quoted or not) following key; false when the key or the list is
 * missing. At most max integers. */
bool hlo_json_ints(const hlo_module *m, hlo_range r, const char *key, int64_t *v, uint32_t max,
                   uint32_t *n);
/* In range r, the first integer after key and then after `then` (e.g.
 * known_trip_count, then n). */
bool hlo_json_int_after(const hlo_module *m, hlo_range r, const char *key, const char *then,
                        int64_t *v);

#endif
