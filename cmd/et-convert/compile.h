/* compile: et-convert's programs from elsewhere: XLA HLO and StableHLO text
 * (compiled, sharded programs: one program every device runs) and
 * ASTRA-sim 1.0 text workloads (layer tables), each read whole by its own
 * reader (hlo.h, shlo.h, astxt.h) and written as one ET per rank. */
#ifndef ET_CONVERT_COMPILE_H
#define ET_CONVERT_COMPILE_H

#include "et_err.h"
#include "et_input.h"
#include "et_writer.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct compile_opts {
	et_format format;    /* ET_FMT_HLO, ET_FMT_STABLEHLO or ET_FMT_ASTRA_TEXT */
	uint32_t world;      /* --world (0: the program's; astra-text needs it) */
	uint64_t max_unroll; /* --max-unroll (0: the reader's default) */
	double peak_tflops;  /* --peak-tflops and --mem-gbps: roofline durations */
	double mem_gbps;
	uint32_t passes;    /* --passes (astra-text; 0: 1) */
	bool compat;        /* --compat chakra (astra-text) */
	const char *groups; /* --write-comm-groups FILE */
	int progress;
	bool quiet;
} compile_opts;

/* The compiler format the first bytes of path show (skipping blank lines,
 * "//" and "#loc" lines): "HloModule" -> HLO; "module", "func.func" or
 * "\"builtin.module\"" -> StableHLO; a parallelism of ASTRA-sim's text
 * format (MICRO, DATA, MODEL, HYBRID_...) -> astra-text; else ET_FMT_AUTO
 * (standard input is never sniffed: it cannot be read twice). */
et_format compile_sniff(const char *path);
/* Reads path ("-": standard input) and writes its ranks through a writer
 * opened with wc. 0, or -1 with e set: the readers' ET_EXIT_DATA (one line
 * with the input's line and column), ET_EXIT_USAGE for options the program
 * contradicts (--world), ET_EXIT_IO; nothing is left on failure. */
int compile_run(const char *path, const compile_opts *o, const et_writer_cfg *wc, et_error *e);

#endif
