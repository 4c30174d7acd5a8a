/* Fuzz target: et-sim's reader of nccl-tests / rccl-tests output and of
 * etkit's hardware tables (calib/ncclt.c), then the band fit of what it read
 * (calib/fit.c), as et-sim --calibrate runs them.
 *
 * Invariants (a violation traps):
 * - a refusal fills its et_error: code ET_EXIT_DATA and a one-line message
 *   (no control character) that names the input;
 * - a log that reads has 1 to NCCLT_MAX_ROWS rows of strictly ascending,
 *   finite sizes and finite times above 0, at least 2 ranks and 1 node;
 * - the fit of those rows has 1 to CAL_BANDS bands over them, in order and
 *   covering every row once, each with finite alpha >= 0 and x >= 0, and
 *   finite errors (mean <= max). */
#include "et-sim/calib/fit.h"
#include "et-sim/calib/ncclt.h"
#include "fuzz_util.h"

#include <math.h>

static void check_error(const et_error *e)
{
	FUZZ_CHECK(e->code == ET_EXIT_DATA);
	FUZZ_CHECK(strncmp(e->msg, "f: ", 3) == 0);
	for (const char *p = e->msg; *p; p++)
		FUZZ_CHECK((unsigned char)*p >= 0x20);
}

static void check_fit(const ncclt_log *l)
{
	double *S = malloc(l->n * sizeof *S), *t = malloc(l->n * sizeof *t);
	for (size_t i = 0; i < l->n; i++)
		S[i] = l->row[i].size, t[i] = l->row[i].t_us;
	cal_fit f;
	int rc = cal_fit_rows(S, t, l->n, CAL_BANDS, &f);
	FUZZ_CHECK(rc == (l->n < CAL_BAND_MIN_ROWS ? -1 : 0));
	if (rc == 0) {
		FUZZ_CHECK(f.nb >= 1 && f.nb <= CAL_BANDS);
		size_t rows = 0;
		for (int k = 0; k < f.nb; k++) {
			const cal_band *b = &f.band[k];
			FUZZ_CHECK(isfinite(b->alpha_us) && b->alpha_us >= 0);
			FUZZ_CHECK(isfinite(b->x_us_b) && b->x_us_b >= 0);
			FUZZ_CHECK(b->lo == S[rows] && b->hi == S[rows + b->rows - 1]);
			rows += b->rows;
		}
		FUZZ_CHECK(rows == l->n);
		FUZZ_CHECK(isfinite(f.mean) && isfinite(f.max) && f.mean <= f.max + 1e-12);
	}
	free(S);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ncclt_log l;
	et_error e = {0};
	if (ncclt_parse((const char *)data, size, "f", &l, &e) < 0) {
		check_error(&e);
		return 0;
	}
	FUZZ_CHECK(l.n >= 1 && l.n <= NCCLT_MAX_ROWS && l.ranks >= 2 && l.nodes >= 1);
	for (size_t i = 0; i < l.n; i++) {
		FUZZ_CHECK(isfinite(l.row[i].size) && isfinite(l.row[i].t_us) && l.row[i].t_us > 0);
		FUZZ_CHECK(i == 0 || l.row[i].size > l.row[i - 1].size);
	}
	check_fit(&l);
	ncclt_free(&l);
	return 0;
}
