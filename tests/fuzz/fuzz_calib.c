/* Fuzz target: et-sim's reader of calibration files (calib/calib_file.c,
 * etkit-calib(5)), as --calib runs it; the input is the file's text.
 *
 * Invariants (a violation traps):
 * - a refusal fills its et_error: ET_EXIT_DATA and a one-line message that
 *   names the input;
 * - a file that reads has fits with a collective, ranks >= 2, nodes >= 1
 *   and 1 to CAL_BANDS bands, ascending and apart, each with finite
 *   alpha_us and 1/beta >= 0; predicting any size from them is finite and
 *   >= 0. */
#include "et-sim/calib/calib_file.h"
#include "fuzz_util.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	calib_set s;
	et_error e = {0};
	if (calib_parse(text, size, "f", &s, &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && strncmp(e.msg, "f: ", 3) == 0);
		for (const char *p = e.msg; *p; p++)
			FUZZ_CHECK((unsigned char)*p >= 0x20);
		free(text);
		return 0;
	}
	for (size_t i = 0; i < s.n; i++) {
		const calib_entry *c = &s.e[i];
		FUZZ_CHECK(c->ranks >= 2 && c->nodes >= 1);
		FUZZ_CHECK(c->fit.nb >= 1 && c->fit.nb <= CAL_BANDS);
		for (int k = 0; k < c->fit.nb; k++) {
			const cal_band *b = &c->fit.band[k];
			FUZZ_CHECK(isfinite(b->alpha_us) && b->alpha_us >= 0);
			FUZZ_CHECK(isfinite(b->x_us_b) && b->x_us_b >= 0);
			FUZZ_CHECK(b->lo <= b->hi && (k == 0 || b->lo > c->fit.band[k - 1].hi));
		}
		const double sizes[] = {0, 1, 8, 1e3, 1e6, 1e9, 1e12};
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			double p = cal_predict(&c->fit, sizes[k]);
			FUZZ_CHECK(p >= 0 && !isnan(p));
		}
		FUZZ_CHECK(calib_find(&s, c->collective, c->ranks, c->nodes) != NULL);
	}
	calib_set_free(&s);
	free(text);
	return 0;
}
