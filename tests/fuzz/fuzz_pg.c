/* Fuzz et_pg: bit 0 of the first byte picks a process-group node's
 * inputs.values (0) or a comm-group file (1); the rest is the text.
 * Invariants: a definition list that parses has a name for every definition
 * and ranks that read as ranks; a file's groups reach the callback with
 * ranks sorted, unique and non-empty; a failed file parse filled the error
 * with exit code 3 and a one-line message. */
#include "et_pg.h"
#include "fuzz_util.h"

static void check_values(const char *text)
{
	et_pg_form form;
	cJSON *root = et_pg_values_parse(text, &form);
	if (!root)
		return;
	FUZZ_CHECK(form == ET_PG_JSON || form == ET_PG_PYREPR || form == ET_PG_JSON_LIST);
	FUZZ_CHECK(cJSON_IsArray(root) && root->child);
	for (const cJSON *o = root->child; o; o = o->next) {
		char num[32];
		FUZZ_CHECK(et_pg_def_name(o, num, sizeof num) != NULL);
		uint32_t *r;
		long n = et_pg_ranks(cJSON_GetObjectItemCaseSensitive(o, "ranks"), &r);
		FUZZ_CHECK(n >= 0 && r != NULL);
		FUZZ_CHECK(et_pg_ranks_unique(r, (size_t)n) <= (size_t)n);
		free(r);
	}
	cJSON_Delete(root);
}

static int on_group(void *ctx, const char *id, const uint32_t *ranks, size_t n, et_error *e)
{
	(void)e;
	FUZZ_CHECK(id != NULL && n >= 1);
	for (size_t k = 1; k < n; k++)
		FUZZ_CHECK(ranks[k - 1] < ranks[k]);
	++*(size_t *)ctx;
	return 0;
}

static void check_file(const char *text, size_t len)
{
	et_error e = {0};
	size_t groups = 0;
	if (et_pg_file_parse(text, len, "g.json", on_group, &groups, &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && e.msg[0]);
		FUZZ_CHECK(strchr(e.msg, '\n') == NULL);
	}
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
