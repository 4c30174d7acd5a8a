/* Fuzz layerdag-sample's diffusion-model reader (diffmodel.h). Invariants:
 * what it refuses fills the error (exit 3, one line naming the file); what
 * it reads has no ET class or one per attribute, each within its bounds,
 * samples graphs that are valid DAGs (under its window, if any), and
 * writes back to the same bytes. Sampling is bounded to a few small layers
 * to keep runs short. */
#include "fuzz_util.h"
#include "layerdag-sample/diffusion/diffmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ld_diffusion m;
	et_error e = {0};
	const char *path = fuzz_file(data, size);
	if (ld_diff_read(&m, path, &e) < 0) {
		fuzz_check_error(&e);
		FUZZ_CHECK(e.code == ET_EXIT_DATA && strchr(e.msg, '\n') == NULL);
		return 0;
	}
	FUZZ_CHECK(m.et.n == 0 || m.et.n == m.a.vocab);
	for (size_t i = 0; i < m.et.n; i++)
		FUZZ_CHECK(m.et.c[i].nval <= LD_ET_KEEP && m.et.c[i].sizeb <= 31 &&
		           m.et.c[i].durb <= 31);
	if (m.z.S <= 16) {
		et_rng r;
		et_rng_seed(&r, 1, 0);
		ld_dag g;
		ld_diff_sample(&m, 1.0, &r, m.max_layers < 3 ? m.max_layers : 3, &g);
		FUZZ_CHECK(ld_valid(&g));
		ld_dag_free(&g);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	FUZZ_CHECK(f && ld_diff_write(&m, f) == 0);
	fclose(f);
	FUZZ_CHECK(len == size && memcmp(buf, data, size) == 0);
	free(buf);
	ld_diff_free(&m);
	return 0;
}
