/* hlo: et-convert's reader of XLA HLO text (`et-convert --from hlo`), the
 * per-device program that XLA dumps after SPMD partitioning or after
 * optimizations (doc/compiler-ir.md), turned into an xir (xir.h).
 *
 * What the caller may rely on:
 * - hlo_read never prints an error, never exits and never aborts on bad
 *   input: it returns -1 with e filled in (code ET_EXIT_DATA, a one-line
 *   message "NAME: line L, column C: what was expected"). Out of memory
 *   ends the process (et_mem.h), as everywhere in the suite.
 * - On success it returns the number of warnings it printed on stderr
 *   (0 or more; each one line, "et-convert: warning: NAME: ..."), which
 *   o->quiet suppresses (the count is the same).
 * - x must have been set up with xir_init. On success it holds the program;
 *   on failure it holds whatever had been added and the caller still frees it
 *   with xir_free. hlo_read keeps no pointer into text.
 * - text need not end with a NUL; it is read as len bytes.
 *
 * The mapping (entry computation only, calls and conditionals inlined,
 * loops unrolled, zero-cost instructions elided, fusions and async pairs as
 * one op, FLOP and byte rules) is described in hlo_build.c and in
 * et-convert(1). */
#ifndef ET_CONVERT_HLO_HLO_H
#define ET_CONVERT_HLO_HLO_H

#include "et-convert/xir/xir.h"
#include "et_err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Inputs larger than this are refused (1 GiB). */
#define HLO_MAX_INPUT ((size_t)1 << 30)
/* Default for hlo_opts.max_ops: the most ops a program may have after
 * unrolling (16 Mi); beyond it hlo_read fails and names --max-unroll. */
#define HLO_MAX_OPS ((uint64_t)1 << 24)
/* Default for hlo_opts.max_unroll. */
#define HLO_MAX_UNROLL 100000
/* Computations may call each other (call, while, conditional, fusion,
 * async) this deep, and shapes and attribute values nest this deep. */
#define HLO_MAX_DEPTH 64

typedef struct hlo_opts {
	/* The most iterations one while loop is unrolled to: a loop whose trip
	 * count is larger runs max_unroll times, with a warning. 0 = default
	 * (HLO_MAX_UNROLL). */
	uint64_t max_unroll;
	/* The most ops of the whole program (0 = default, HLO_MAX_OPS). */
	uint64_t max_ops;
	/* Override the module header's replica_count / num_partitions when not
	 * 0 (the header's, or 1, otherwise). */
	uint32_t replicas, partitions;
	bool quiet; /* print no warnings */
} hlo_opts;

void hlo_opts_init(hlo_opts *o);

/* Reads the HLO module text[0..len) into x. name names the input in
 * messages. o may be NULL (defaults). Returns the number of warnings (>= 0)
 * or -1. */
int hlo_read(xir *x, const char *name, const char *text, size_t len, const hlo_opts *o,
             et_error *e);

#endif
