/* Fuzz et_pg: bit 0 of the first byte picks a process-group node's
 * inputs.values (0) or a comm-group file (1); the rest is the text.
 * Invariants: a definition list that parses has a name for every definition
 * and ranks that read as ranks, and can be rewritten to a new world size
 * (only what parses can); a file's groups have ranks sorted, unique and
 * non-empty; a failed parse leaves the list empty, and a failed file parse
 * filled the error with exit code 3 and a one-line message. */
#include "et_pg.h"
#include "fuzz_util.h"

static void check_values(const char *text)
{
	et_pg_list l;
	if (et_pg_values_parse(text, &l) < 0) {
		FUZZ_CHECK(l.n == 0 && l.g == NULL);
		FUZZ_CHECK(et_pg_values_resize_world(text, 2, 4) == NULL);
		return;
	}
	FUZZ_CHECK(l.form == ET_PG_JSON || l.form == ET_PG_PYREPR || l.form == ET_PG_JSON_LIST);
	FUZZ_CHECK(l.n >= 1);
	for (size_t i = 0; i < l.n; i++) {
		FUZZ_CHECK(l.g[i].name != NULL);
		FUZZ_CHECK((l.g[i].ranks != NULL) == (l.g[i].n_ranks != 0));
		FUZZ_CHECK(et_pg_ranks_unique(l.g[i].ranks, l.g[i].n_ranks) <= l.g[i].n_ranks);
	}
	/* what parses can be rewritten */
	char *w = et_pg_values_resize_world(text, 2, 4);
	FUZZ_CHECK(w != NULL);
	free(w);
	et_pg_list_free(&l);
}

static void check_file(const char *text, size_t len)
{
	et_error e = {0};
	et_pg_list l;
	if (et_pg_file_parse(text, len, "g.json", &l, &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && e.msg[0]);
		FUZZ_CHECK(strchr(e.msg, '\n') == NULL);
		FUZZ_CHECK(l.n == 0 && l.g == NULL);
		return;
	}
	for (size_t i = 0; i < l.n; i++) {
		FUZZ_CHECK(l.g[i].name != NULL && l.g[i].n_ranks >= 1);
		for (size_t k = 1; k < l.g[i].n_ranks; k++)
			FUZZ_CHECK(l.g[i].ranks[k - 1] < l.g[i].ranks[k]);
	}
	et_pg_list_free(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	/* Both parsers take NUL-terminated text. */
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (data[0] & 1)
		check_file(text, size - 1);
	else
		check_values(text);
	free(text);
	return 0;
}
