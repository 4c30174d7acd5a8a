/* Fuzz layerdag-sample's counts-model reader: what it refuses fills the
 * error (exit 3, one line); what it reads samples valid graphs and writes
 * back to a model that reads again. */
#include "fuzz_util.h"
#include "layerdag-sample/counts/counts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cm_model m;
	et_error e = {0};
	if (cm_read(&m, fuzz_file(data, size), &e) < 0) {
		fuzz_check_error(&e);
		FUZZ_CHECK(e.code == ET_EXIT_DATA && strchr(e.msg, '\n') == NULL);
		return 0;
	}
	et_rng r;
	et_rng_seed(&r, 1, 0);
	uint32_t *used = et_xcalloc(m.nplan, sizeof *used);
	for (int i = 0; i < 3; i++) {
		ld_dag g;
		cm_sample(&m, m.plan_y[i % m.nplan], used, &r, &g);
		FUZZ_CHECK(ld_valid(&g));
		ld_dag_free(&g);
	}
	free(used);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	FUZZ_CHECK(f && cm_write(&m, f) == 0);
	fclose(f);
	cm_model back;
	FUZZ_CHECK(cm_read(&back, fuzz_file((const uint8_t *)buf, len), &e) == 0);
	FUZZ_CHECK(back.nplan == m.nplan && back.vocab == m.vocab);
	cm_free(&back);
	free(buf);
	cm_free(&m);
	return 0;
}
