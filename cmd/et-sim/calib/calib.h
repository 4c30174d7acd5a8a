/* calib: et-sim --calibrate LOG...: each nccl-tests / rccl-tests output or
 * hardware table (ncclt.h) fitted by bands of t = alpha + S / beta
 * (fit.h), the fits written as a calibration file (etkit-calib(5): JSON,
 * "format": "etkit-calib", "version": 1, each fit with its source's name,
 * size and FNV-1a hash, its device, ranks and nodes), and one line per fit
 * on stderr with its bands and its mean, geometric-mean and max relative
 * error.
 *
 * With a calibration file (calib), the inputs are not fitted but predicted:
 * each by the file's fit of its collective, ranks and nodes (calib_find),
 * a table of size, measured and predicted time and relative error written
 * (tab-separated, a header line first), and one line per input on stderr
 * with its errors. */
#ifndef ET_SIM_CALIB_CALIB_H
#define ET_SIM_CALIB_CALIB_H

#include "et_err.h"
#include <stdbool.h>

typedef struct calib_conf {
	const char *const *files;
	int nfiles;
	const char *collective; /* NULL: told by the rows (ncclt.h) */
	const char *output;     /* NULL or "-": stdout */
	const char *calib;      /* --calib FILE: predict, do not fit */
	bool quiet;             /* no fit lines on stderr */
} calib_conf;

/* 0, or -1 with e set (3: a log that does not read or cannot be fitted;
 * 4: I/O). Writes the file whole or not at all. */
int calib_run(const calib_conf *c, et_error *e);

#endif
