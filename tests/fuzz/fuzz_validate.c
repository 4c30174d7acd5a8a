/* Fuzz target: et-validate's checks, end to end, on one input read by
 * et_input (any format it sniffs: seeds are small JSONL traces with every
 * kind of defect, whose ids, dependencies, ranks and attributes the fuzzer
 * mutates). Linked with et-validate's library; the reading is libcommon's
 * et_load, as in the tool.
 *
 * The first byte sets the options: bit 0 --for astra-sim, bit 1 --stats,
 * bit 2 --strict, bit 3 -T 1 (a reading thread), bits 4-5 --max-per-code
 * 0..3. The rest is the input.
 *
 * Invariants (a violation traps):
 * - an input that cannot be read fails with the et_error filled in;
 * - otherwise the exit status is 0 or 1, and the JSON report parses, with
 *   as many nodes and ranks as were read and per-code counts that add up to
 *   its errors, warnings and info. */
#include "et-validate/read.h"
#include "et-validate/report/report.h"
#include "et-validate/report/summary.h"
#include "fuzz_util.h"

#include <cjson/cJSON.h>

static double num(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	FUZZ_CHECK(cJSON_IsNumber(x));
	return x->valuedouble;
}

static void check_report(const vctx *v, int status)
{
	FUZZ_CHECK(status == ET_EXIT_OK || status == ET_EXIT_FOUND);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	FUZZ_CHECK(f != NULL);
	report_write(f, v);
	FUZZ_CHECK(fclose(f) == 0);
	cJSON *j = cJSON_Parse(text);
	FUZZ_CHECK(j != NULL);
	FUZZ_CHECK(num(j, "nodes") == (double)v->n_nodes);
	FUZZ_CHECK(num(j, "ranks") == (double)v->n_ranks);
	double sev[3] = {0, 0, 0};
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "codes"))
	{
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(c, "severity");
		FUZZ_CHECK(cJSON_IsString(s));
		int k = !strcmp(s->valuestring, "error")     ? 0
		        : !strcmp(s->valuestring, "warning") ? 1
		                                             : 2;
		FUZZ_CHECK(k < 2 || !strcmp(s->valuestring, "info"));
		sev[k] += num(c, "count");
	}
	FUZZ_CHECK(sev[0] == num(j, "errors") && sev[1] == num(j, "warnings") &&
	           sev[2] == num(j, "info"));
	cJSON_Delete(j);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	vopts o = {0};
	o.astra = data[0] & 1;
	o.want_stats = data[0] & 2;
	o.strict = data[0] & 4;
	o.threads = (data[0] & 8) ? 1 : 0;
	o.max_per_code = (size_t)(data[0] >> 4 & 3);
	o.json = true;
	o.progress = -1;
	vctx v;
	vctx_init(&v, &o);
	et_input_opts io;
	et_input_opts_init(&io);
	char *argv[] = {(char *)fuzz_file(data + 1, size - 1)};
	et_error e = {0};
	if (read_all(&v, 1, argv, &io, NULL, &e) < 0) {
		fuzz_check_error(&e);
	} else {
		check_cross(&v);
		check_deadlock(&v);
		check_report(&v, report_status(&v));
	}
	vctx_free(&v);
	return 0;
}
