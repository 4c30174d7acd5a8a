/* ncclt: collective timings as nccl-tests and rccl-tests print them on
 * standard output (a "#" header naming each rank's host and device, then
 * one row per size: size count type redop [root] and, out of place then in
 * place, time (us) algbw busbw #wrong), and etkit's hardware tables
 * (the .tsv files of tests/data/hw: "# key: value" lines, a "size_bytes" column line,
 * tab-separated rows with "-" for what the source does not give).
 *
 * Lines of neither kind (NCCL INFO logs interleaved with the rows, the
 * trailing "# Avg bus bandwidth") are skipped; a line that starts as a row
 * (two integer fields) but does not read as one is an error naming its line.
 * Pure: no printing, no exit. */
#ifndef ET_SIM_CALIB_NCCLT_H
#define ET_SIM_CALIB_NCCLT_H

#include "et_err.h"
#include <stddef.h>
#include <stdint.h>

/* Rows a log may hold: the band fit tries every split, O(rows^3); 256 rows
 * fit in about 1.4 s, and nccl-tests' sweeps by factors of 2 print about 32. */
#define NCCLT_MAX_ROWS 256

typedef struct ncclt_row {
	double size;  /* bytes */
	double t_us;  /* the smaller of the out-of-place and in-place times given
	               * (a table with busbw only: S * factor / busbw) */
	double algbw; /* GB/s of the same column pair, < 0 when not given */
	double busbw;
} ncclt_row;

typedef struct ncclt_log {
	ncclt_row *row; /* ascending sizes */
	size_t n;
	uint32_t ranks;      /* "# Rank" lines, or the table's gpus */
	uint32_t nodes;      /* distinct hosts, or the table's nodes */
	char device[96];     /* the first rank's device, or the table's gpu_model */
	char collective[24]; /* all_reduce, ..., or "" when it cannot be told */
	char redop[16];      /* of the first row */
	uint32_t dropped;    /* rows with a #wrong count above 0 */
} ncclt_log;

/* Reads len bytes of text (name names it in errors). 0 with *out set (free
 * with ncclt_free), or -1 with e set (ET_EXIT_DATA) and *out empty. */
int ncclt_parse(const char *text, size_t len, const char *name, ncclt_log *out, et_error *e);
void ncclt_free(ncclt_log *l);
/* nccl-tests' busbw / algbw factor of a collective over n ranks (its
 * doc/PERFORMANCE.md), 0 for an unknown name. */
double ncclt_bus_factor(const char *collective, uint32_t n);

#endif
