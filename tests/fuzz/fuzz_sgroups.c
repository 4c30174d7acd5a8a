/* Fuzz the comm groups of stream section headers (et_sgroups): the first 4
 * bytes are the world size (LE, below 2^21), the rest the records after a
 * header's name. Invariants: a refusal is one line, exit code 3; a record
 * that passes walks to groups whose members ascend, lie below the world and
 * number what the group says, and that re-encode (et_sgroups_w_ranks) to
 * exactly their bytes (the encoding is canonical); a rank's groups added
 * twice are consistent with themselves, and the assembled list has sorted,
 * unique, non-empty ranks. */
#include "et_sgroups.h"
#include "fuzz_util.h"

static void check_group(const et_sgroup *g, const uint8_t *grp, uint32_t lim)
{
	FUZZ_CHECK(g->n_members >= 1 && g->n_members <= lim);
	uint32_t *m = malloc((size_t)g->n_members * sizeof *m);
	et_sgroups_members(g, m);
	for (uint32_t k = 0; k < g->n_members; k++) {
		FUZZ_CHECK(m[k] < lim);
		FUZZ_CHECK(k == 0 || m[k - 1] < m[k]);
	}
	char name[256];
	memcpy(name, g->name, g->name_len);
	name[g->name_len] = 0;
	et_sgroups_w w = {0};
	et_sgroups_w_ranks(&w, name, m, g->n_members);
	size_t len = (size_t)(g->runs + g->runs_len - (grp + g->at));
	FUZZ_CHECK(w.body.len == len && memcmp(w.body.data, grp + g->at, len) == 0);
	et_sgroups_w_free(&w);
	free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 4 || size - 4 > ET_STREAM_EXT_MAX)
		return 0;
	uint32_t world = (data[0] | data[1] << 8 | (uint32_t)data[2] << 16) & ((1u << 21) - 1);
	et_error e = {0};
	const uint8_t *grp;
	size_t len, at;
	if (et_sgroups_check(data + 4, size - 4, world, "f", 0, &grp, &len, &at, &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && e.msg[0] && !strchr(e.msg, '\n'));
		FUZZ_CHECK(grp == NULL && len == 0);
		return 0;
	}
	uint32_t lim = world && world <= ET_MAX_WORLD ? world : ET_MAX_WORLD;
	size_t pos = 0;
	et_sgroup g;
	while (et_sgroups_next(grp, len, &pos, &g))
		check_group(&g, grp, lim);
	FUZZ_CHECK(!grp || pos == len);
	et_rank_info ri = {.input = "f", .groups = grp, .groups_len = (uint32_t)len};
	et_sgroups_acc *a = et_sgroups_acc_new();
	int r = et_sgroups_acc_add(a, &ri, &e);
	if (r >= 0)
		FUZZ_CHECK(et_sgroups_acc_add(a, &ri, &e) == 0);
	else
		FUZZ_CHECK(e.code == ET_EXIT_DATA);
	et_pg_list l;
	if (r >= 0 && et_sgroups_acc_list(a, &l, &e) == 0) {
		for (size_t i = 0; i < l.n; i++) {
			FUZZ_CHECK(l.g[i].n_ranks >= 1);
			for (size_t k = 1; k < l.g[i].n_ranks; k++)
				FUZZ_CHECK(l.g[i].ranks[k - 1] < l.g[i].ranks[k]);
		}
		et_pg_list_free(&l);
	}
	et_sgroups_acc_free(a);
	return 0;
}
