/* Fuzz layerdag-sample's corpus parser. Invariants: a parse that fails
 * fills the error (exit code 3, one line naming the input and its line) and
 * adds no graph; one that succeeds gives graphs whose edges name their
 * nodes, and which written back as text parse again to the same graphs. */
#include "fuzz_util.h"
#include "layerdag-sample/ld.h"

static bool same(const ld_dag *a, const ld_dag *b)
{
	return a->n == b->n && a->ne == b->ne && a->y == b->y &&
	       memcmp(a->attr, b->attr, a->n * sizeof *a->attr) == 0 &&
	       (a->ne == 0 || memcmp(a->edge, b->edge, a->ne * sizeof *a->edge) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ld_corpus c = {0};
	et_error e = {0};
	if (ld_text_parse(&c, (const char *)data, size, "fuzz.txt", &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && e.msg[0] && strchr(e.msg, '\n') == NULL);
		FUZZ_CHECK(strstr(e.msg, "fuzz.txt: line ") == e.msg);
		ld_corpus_free(&c);
		return 0;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	FUZZ_CHECK(f != NULL);
	for (size_t i = 0; i < c.n; i++) {
		for (uint32_t k = 0; k < c.g[i].ne; k++)
			FUZZ_CHECK(c.g[i].edge[k][0] < c.g[i].n && c.g[i].edge[k][1] < c.g[i].n);
		ld_text_write(&c.g[i], i, f);
	}
	fclose(f);
	ld_corpus back = {0};
	FUZZ_CHECK(ld_text_parse(&back, buf, len, "again", &e) == 0 && back.n == c.n);
	for (size_t i = 0; i < c.n; i++)
		FUZZ_CHECK(same(&c.g[i], &back.g[i]));
	free(buf);
	ld_corpus_free(&back);
	ld_corpus_free(&c);
	return 0;
}
