/* fit: a collective's time against its size as t(S) = alpha + S / beta in
 * up to CAL_BANDS size bands (a band stands for one of NCCL's algorithm and
 * protocol choices), fitted by least squares on the relative error (each
 * row scaled by 1/t, solved with LAPACKE's dgels) with Huber reweighting
 * against a noisy row; the band count is the one with the least BIC
 * (n ln(SSE/n) + p ln n, p = 3 per band less one), every split point tried.
 * doc/hardware.md, "Calibration", is the method. Pure: no printing,
 * no exit. */
#ifndef ET_SIM_CALIB_FIT_H
#define ET_SIM_CALIB_FIT_H

#include <stddef.h>

#define CAL_BANDS 3
#define CAL_BAND_MIN_ROWS 3 /* rows a band needs (two parameters and one check) */

typedef struct cal_band {
	double lo, hi;   /* sizes (bytes) of the band's first and last row */
	double alpha_us; /* latency, >= 0 */
	double x_us_b;   /* microseconds per byte (1 / beta), >= 0 */
	size_t rows;
} cal_band;

typedef struct cal_fit {
	cal_band band[CAL_BANDS];
	int nb;
	size_t rows;
	double mean, geomean, max; /* relative error of the fit on its rows */
} cal_fit;

/* Fits n rows (sizes S ascending, times t in microseconds, all > 0), at
 * most max_bands bands. Returns 0, or -1 when n is below
 * CAL_BAND_MIN_ROWS (f untouched). */
int cal_fit_rows(const double *S, const double *t, size_t n, int max_bands, cal_fit *f);
/* The fitted time of size S: its band's line; between two bands' rows,
 * the band whose edge is nearer on a log scale. */
double cal_predict(const cal_fit *f, double S);
/* Relative errors of f on rows (S, t): mean, geometric mean (of the
 * absolute relative errors, each at least 1e-6) and max. */
void cal_errors(const cal_fit *f, const double *S, const double *t, size_t n, double *mean,
                double *geomean, double *max);

#endif
