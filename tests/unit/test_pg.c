/* Unit tests of et_pg: the three written forms of a process-group node's
 * definitions, what is not a definition, and the comm-group file reader's
 * normalisation and error messages (with et_jsonfile's, which it reads
 * through). */
#include "check.h"
#include "et_buf.h"
#include "et_jsonfile.h"
#include "et_pg.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Parses values; returns the form, or -1 when it is not a definition list,
 * and the first definition's name and ranks as "name:r,r,r". */
static int parse(const char *values, char *first, size_t cap)
{
	et_pg_form form;
	cJSON *root = et_pg_values_parse(values, &form);
	if (!root)
		return -1;
	char num[32];
	const char *name = et_pg_def_name(root->child, num, sizeof num);
	uint32_t *r;
	long n = et_pg_ranks(cJSON_GetObjectItemCaseSensitive(root->child, "ranks"), &r);
	size_t at = (size_t)snprintf(first, cap, "%s:", name);
	for (long k = 0; k < n && at < cap; k++)
		at += (size_t)snprintf(first + at, cap - at, k ? ",%u" : "%u", r[k]);
	free(r);
	cJSON_Delete(root);
	return (int)form;
}

static void test_forms(void)
{
	char got[128];
	/* as the PyTorch converter writes it */
	CHECK(parse("['[{\"pg_name\": \"1\", \"ranks\": [2, 0], \"group_size\": 2}]']", got,
	            sizeof got) == ET_PG_PYREPR);
	CHECK(strcmp(got, "1:2,0") == 0);
	CHECK(parse("[\"[{\\\"pg_name\\\": 7, \\\"ranks\\\": []}]\"]", got, sizeof got) ==
	      ET_PG_JSON_LIST);
	CHECK(strcmp(got, "7:") == 0);
	CHECK(parse("  [{\"pg_name\": \"x\", \"ranks\": [4294967295]}]\n", got, sizeof got) ==
	      ET_PG_JSON);
	CHECK(strcmp(got, "x:4294967295") == 0);
}

static void test_not_definitions(void)
{
	char got[128];
	const char *bad[] = {
	    NULL,
	    "",
	    "[]",
	    "['[]']",
	    "[{\"pg_name\": \"1\"}]",                          /* no ranks */
	    "[{\"ranks\": [0]}]",                              /* no name */
	    "[{\"pg_name\": true, \"ranks\": [0]}]",           /* name neither string nor number */
	    "[{\"pg_name\": \"1\", \"ranks\": [0.5]}]",        /* a fraction */
	    "[{\"pg_name\": \"1\", \"ranks\": [-1]}]",         /* negative */
	    "[{\"pg_name\": \"1\", \"ranks\": [4294967296]}]", /* beyond 32 bits */
	    "[{\"pg_name\": \"1\", \"ranks\": [\"0\"]}]",      /* a string */
	    "[{\"pg_name\": \"1\", \"ranks\": [0]}, 3]",       /* one good, one not: none */
	    "[\"a\", \"b\"]",                                  /* a JSON list of two strings */
	    "['[{\"pg_name\": \"1\", \"ranks\": [0]}]",        /* unclosed repr */
	    "[{\"pg_name\": \"1\", \"ranks\": [0]}] x",        /* text after the JSON */
	    "['[{\"pg_name\": \"1\", \"ranks\": [0]}]]']",     /* inside the repr too */
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++)
		CHECK(parse(bad[k], got, sizeof got) == -1);
}

static void test_unique(void)
{
	uint32_t r[] = {5, 1, 5, 3, 1, 1};
	CHECK(et_pg_ranks_unique(r, 6) == 3);
	CHECK(r[0] == 1 && r[1] == 3 && r[2] == 5);
	CHECK(et_pg_ranks_unique(r, 0) == 0);
}

/* Collects "id=r,r;" per group; fails on id "stop". */
static int collect(void *ctx, const char *id, const uint32_t *ranks, size_t n, et_error *e)
{
	if (strcmp(id, "stop") == 0)
		return et_fail(e, 3, "stopped at %s", id);
	et_buf *b = ctx;
	et_buf_printf(b, "%s=", id);
	for (size_t k = 0; k < n; k++)
		et_buf_printf(b, k ? ",%u" : "%u", ranks[k]);
	et_buf_putc(b, ';');
	return 0;
}

/* The groups of a file's text, or the error message. */
static void file(const char *text, size_t len, char *out, size_t cap)
{
	et_buf b = {0};
	et_error e = {0};
	if (et_pg_file_parse(text, len, "g.json", collect, &b, &e) < 0)
		snprintf(out, cap, "%d %s", e.code, e.msg);
	else
		snprintf(out, cap, "%.*s", (int)b.len, b.len ? (const char *)b.data : "");
	et_buf_free(&b);
}
#define FILE_IS(text, want)                                                                        \
	do {                                                                                       \
		char got_[1024];                                                                   \
		file((text), strlen(text), got_, sizeof got_);                                     \
		CHECK(strcmp(got_, (want)) == 0);                                                  \
		if (strcmp(got_, (want)) != 0)                                                     \
			fprintf(stderr, "  got: %s\n", got_);                                      \
	} while (0)

static void test_file(void)
{
	FILE_IS("{\"0\": [3, 1, 3], \"a b\": [0]}", "0=1,3;a b=0;");
	FILE_IS("{}", "");
	FILE_IS("{\"1\": [0],\n \"2\": [1,]}", "3 g.json: line 2, column 10: invalid JSON");
	FILE_IS("[[0, 1]]", "3 g.json: expected a comm-group JSON object {\"<id>\": [rank, ...]}");
	FILE_IS("{\"1\": \"zero\"}", "3 g.json: group \"1\": expected an array of ranks");
	FILE_IS("{\"1\": [1.5]}", "3 g.json: group \"1\": expected an array of ranks");
	FILE_IS("{\"1\": []}", "3 g.json: group \"1\" has no ranks");
	FILE_IS("{\"1\": [0], \"1\": [0]}", "3 g.json: group \"1\" is given twice");
	FILE_IS("{\"1\": [0], \"stop\": [1]}", "3 stopped at stop");
	FILE_IS("{\"1\": [0]} x", "3 g.json: line 1, column 12: invalid JSON");
	char nul[] = "{\"1\": [0]}\0 ";
	char got[1024];
	file(nul, sizeof nul - 1, got, sizeof got);
	CHECK(strcmp(got, "3 g.json: byte 10: a NUL byte: not JSON text") == 0);
}

static void test_file_read(void)
{
	et_error e = {0};
	et_buf b = {0};
	CHECK(et_pg_file_read("/nonexistent/g.json", collect, &b, &e) == -1);
	CHECK(e.code == 4 && strncmp(e.msg, "/nonexistent/g.json: cannot open", 32) == 0);
	/* a real file: read whole, and the size bound */
	char path[] = "/tmp/test_pg_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char text[] = "{\"2\": [1, 0]}\n";
	CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	close(fd);
	CHECK(et_pg_file_read(path, collect, &b, &e) == 0);
	CHECK(b.len == 6 && memcmp(b.data, "2=0,1;", 6) == 0);
	et_buf t = {0};
	CHECK(et_buf_read_file(&t, path, 8, &e) == -1);
	CHECK(e.code == 3 && strstr(e.msg, ": larger than 8 bytes") != NULL);
	t.len = 0;
	CHECK(et_buf_read_file(&t, path, sizeof text - 1, &e) == 0);
	CHECK(t.len == sizeof text - 1 && t.data[t.len] == '\0');
	et_buf_free(&t);
	cJSON *j = et_jsonfile_read(path, &e);
	CHECK(cJSON_IsObject(j));
	cJSON_Delete(j);
	unlink(path);
	et_buf_free(&b);
}

int main(void)
{
	test_forms();
	test_not_definitions();
	test_unique();
	test_file();
	test_file_read();
	return check_failures();
}
