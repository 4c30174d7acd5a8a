/* xir: a compiler's per-device program, the form et-convert's XLA HLO and
 * StableHLO readers build and its emitter (xir_emit.h) turns into one ET
 * per rank (doc/compiler-ir.md, "Mapping to Chakra").
 *
 * Every rank runs the same program, so ops are listed once, in program
 * order, with their data dependencies on earlier ops. What differs per rank
 * is only which group a collective's rank belongs to and which peers a
 * point-to-point op talks to: collectives name a group set, point-to-point
 * ops a pair set, both in flattened device ids (replica * partitions +
 * partition; the reader applies its format's group rules, e.g. StableHLO's
 * cross-replica and cross-partition modes, before it adds a set).
 *
 * A reader has already done the mapping's program-level work: entry
 * computation only, calls inlined, loops unrolled, zero-cost ops elided
 * with their dependencies passed through, fusions as one op, an async
 * start/done pair as one collective. Ops carry the numbers the ET needs.
 *
 * Memory: everything belongs to the xir (names in its arena); allocation
 * failure ends the process (the suite's policy, et_mem.h). */
#ifndef ET_CONVERT_XIR_XIR_H
#define ET_CONVERT_XIR_XIR_H

#include "et_arena.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum xir_kind {
	XIR_COMP,    /* compute: flops, bytes, gemm */
	XIR_COLL,    /* a collective over the groups of `set` (coll: ET_COLL_*) */
	XIR_PERMUTE, /* collective-permute: each rank sends to its targets and
	              * receives from its sources in pair set `set` */
	XIR_SEND,    /* send: rank s sends to t for each pair (s, t) of `set` */
	XIR_RECV,    /* recv: rank t receives from s for each pair (s, t) of `set` */
};

typedef struct xir_op {
	uint8_t kind;       /* enum xir_kind */
	const char *name;   /* the instruction's name ("fusion.12"), unique in the program */
	const char *opcode; /* as the source names it: "dot", "fusion", "all-reduce",
	                     * "stablehlo.dot_general", ... */
	uint64_t flops;     /* XIR_COMP: 2 per multiply-accumulate (doc/compiler-ir.md) */
	uint64_t bytes;     /* XIR_COMP: bytes read + written; others: the bytes sent
	                     * (a collective: its operand's bytes) */
	uint64_t gemm[4];   /* XIR_COMP matrix products: M, N, K, batch; all 0 otherwise */
	int coll;           /* XIR_COLL: ET_COLL_ALL_REDUCE, _ALL_GATHER, _REDUCE_SCATTER,
	                     * _ALL_TO_ALL, _BROADCAST */
	uint32_t set;       /* XIR_COLL: a group set; XIR_PERMUTE/SEND/RECV: a pair set */
	int64_t channel;    /* the channel id (the p2p comm_tag), -1 when none */
	uint32_t dep_off;   /* its dependencies: deps[dep_off .. dep_off + n_deps) */
	uint32_t n_deps;
} xir_op;

/* A group set (size > 0: n groups of `size` members each, or size 0: one
 * group of every rank, n = 1) or a pair set (size 2: n (source, target)
 * pairs), members[off ..]. A rank in no group of a set does not take part
 * in the collective. */
typedef struct xir_set {
	uint32_t n, size, off;
} xir_set;

typedef struct xir {
	char *module;                  /* the program's name (arena) */
	uint32_t replicas, partitions; /* ranks = replicas * partitions; 0 = not said */
	xir_op *op;
	size_t nop, capop;
	uint32_t *deps;
	size_t ndeps, capdeps;
	xir_set *set;
	uint64_t *set_hash; /* [set]: a hash of its members, to find equal sets fast */
	uint32_t nset;
	size_t capset;
	uint32_t *members;
	size_t nmem, capmem;
	et_arena *arena;
} xir;

void xir_init(xir *x);
void xir_free(xir *x);
/* A copy of s[0..n) in x's arena (n = SIZE_MAX: strlen). */
const char *xir_str(xir *x, const char *s, size_t n);
/* Appends op (its dep_off/n_deps ignored) depending on deps[0..n) (indices
 * of earlier ops; repeats are dropped); returns its index. */
uint32_t xir_add(xir *x, const xir_op *op, const uint32_t *deps, uint32_t n);
/* The index of a group set of ngroups groups of `size` members (ids[g * size
 * + k]), or of "every rank" when size is 0; equal sets share one index. */
uint32_t xir_groups(xir *x, uint32_t ngroups, uint32_t size, const uint32_t *ids);
/* The index of a pair set (pairs[2 * i] -> pairs[2 * i + 1]). */
uint32_t xir_pairs(xir *x, uint32_t npairs, const uint32_t *pairs);
/* How a collective's written groups name devices: XLA's CollectiveOpGroupMode
 * and StableHLO's process-group rules, one vocabulary for both readers.
 * Ids as written are replica ids (cross-replica: a copy of every group in
 * each partition), partition ids (cross-partition: a copy in each replica),
 * replica ids spanning every partition (replica-and-partition: each group
 * of replicas takes all their partitions), or flattened ids. */
enum xir_gmode {
	XIR_CROSS_REPLICA,
	XIR_CROSS_PARTITION,
	XIR_REPLICA_AND_PARTITION,
	XIR_FLATTENED,
};
/* How many ids the written groups of a mode number (R, P or R * P). */
uint32_t xir_gmode_ids(enum xir_gmode m, uint32_t replicas, uint32_t partitions);
/* ng groups of `size` written ids (each below xir_gmode_ids) in flattened
 * ids (replica * partitions + partition): *ng2 groups of *size2, in out
 * (room for ng * size * the partitions (cross-replica, replica-and-
 * partition), the replicas (cross-partition) or 1 (flattened): the caller
 * checks that product against its limits before calling). */
void xir_gmode_flatten(enum xir_gmode m, const uint32_t *ids, uint32_t ng, uint32_t size,
                       uint32_t replicas, uint32_t partitions, uint32_t *out, uint32_t *ng2,
                       uint32_t *size2);
/* xir_groups of flattened groups, or of "every rank" when they are one
 * group of every rank (in any order). */
uint32_t xir_groups_flat(xir *x, uint32_t ngroups, uint32_t size, const uint32_t *ids);
/* The ranks of the program (replicas * partitions, at least 1). */
uint32_t xir_ranks(const xir *x);
/* A text dump for tests and debugging: a header line, then one line per op
 * ("index kind name opcode flops bytes gemm coll set channel deps...") and
 * one per set. */
void xir_dump(FILE *f, const xir *x);

#endif
