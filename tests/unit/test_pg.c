/* Unit tests of et_pg: the three written forms of a process-group node's
 * definitions, what is not a definition, the world-size rewrite, the
 * comm-group file reader's normalisation and error messages (with
 * et_jsonfile's, which it reads through, and et_jsonfile_line_of, which
 * gives their lines), ASTRA-sim's std::stoi reading of ids and the
 * comm-group file writer. */
#include "check.h"
#include "et_buf.h"
#include "et_jsonfile.h"
#include "et_output.h"
#include "et_pg.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Parses values; returns the form, or -1 when it is not a definition list,
 * and the first definition's name and ranks as "name:r,r,r". */
static int parse(const char *values, char *first, size_t cap)
{
	et_pg_list l;
	if (et_pg_values_parse(values, &l) < 0) {
		CHECK(l.n == 0 && l.g == NULL); /* nothing to free on failure */
		return -1;
	}
	CHECK(l.n >= 1);
	const et_pg_group *g = &l.g[0];
	size_t at = (size_t)snprintf(first, cap, "%s:", g->name);
	for (size_t k = 0; k < g->n_ranks && at < cap; k++)
		at += (size_t)snprintf(first + at, cap - at, k ? ",%u" : "%u", g->ranks[k]);
	int form = (int)l.form;
	et_pg_list_free(&l);
	CHECK(l.n == 0 && l.g == NULL);
	return form;
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
	/* every definition is listed; input order and repeats are kept */
	et_pg_list l;
	CHECK(et_pg_values_parse("[{\"pg_name\": 2.0, \"ranks\": [3, 3, 1]}, "
	                         "{\"pg_name\": \"b\", \"ranks\": [], \"x\": 1}]",
	                         &l) == 0);
	CHECK(l.n == 2);
	if (l.n == 2) {
		CHECK(strcmp(l.g[0].name, "2") == 0 && l.g[0].n_ranks == 3);
		CHECK(l.g[0].ranks[0] == 3 && l.g[0].ranks[1] == 3 && l.g[0].ranks[2] == 1);
		CHECK(strcmp(l.g[1].name, "b") == 0 && l.g[1].n_ranks == 0 && !l.g[1].ranks);
	}
	et_pg_list_free(&l);
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

static void test_whole_world(void)
{
	uint32_t all4[] = {2, 0, 3, 1}, rep[] = {0, 1, 1, 3}, big[] = {0, 1, 2, 4};
	CHECK(et_pg_whole_world(NULL, 0, 8)); /* none: all ranks */
	CHECK(et_pg_whole_world(all4, 4, 4));
	CHECK(!et_pg_whole_world(all4, 4, 5));
	CHECK(!et_pg_whole_world(all4, 3, 4));
	CHECK(!et_pg_whole_world(rep, 4, 4));
	CHECK(!et_pg_whole_world(big, 4, 4));
}

/* et_pg_values_resize_world gives want (NULL: fails); the text is freed. */
static bool resized(const char *values, uint32_t from, uint32_t to, const char *want)
{
	char *got = et_pg_values_resize_world(values, from, to);
	bool ok = want ? got && strcmp(got, want) == 0 : got == NULL;
	if (!ok)
		fprintf(stderr, "  got: %s\n", got ? got : "(null)");
	free(got);
	return ok;
}

static void test_resize(void)
{
	/* a whole-world group moves, a subgroup and other members stay; the
	 * converter's repr form is kept, the JSON spaced as json.dumps does */
	CHECK(resized(
	    "['[{\"pg_name\":\"0\",\"ranks\":[1,0],\"group_size\":2,\"pg_desc\":\"x\"},"
	    "{\"pg_name\":\"1\",\"ranks\":[0],\"pg_size\":1}]']",
	    2, 4,
	    "['[{\"pg_name\": \"0\", \"ranks\": [0, 1, 2, 3], \"group_size\": 4, "
	    "\"pg_desc\": \"x\"}, {\"pg_name\": \"1\", \"ranks\": [0], \"pg_size\": 1}]']"));
	/* empty ranks stay empty (all ranks); the sizes still follow */
	CHECK(resized("[{\"pg_name\": 5, \"ranks\": [], \"pg_size\": 8}]", 8, 2,
	              "[{\"pg_name\": 5, \"ranks\": [], \"pg_size\": 2}]"));
	/* the JSON-list form is written back as a JSON list of one string */
	CHECK(resized("[\"[{\\\"pg_name\\\": \\\"a\\\", \\\"ranks\\\": [0]}]\"]", 1, 2,
	              "[\"[{\\\"pg_name\\\": \\\"a\\\", \\\"ranks\\\": [0, 1]}]\"]"));
	CHECK(resized("not a definition", 2, 4, NULL));
	CHECK(resized(NULL, 2, 4, NULL));
}

/* The groups of a file's text as "id=r,r;" per group, or the error
 * message. */
static void file(const char *text, size_t len, char *out, size_t cap)
{
	et_pg_list l;
	et_error e = {0};
	if (et_pg_file_parse(text, len, "g.json", &l, &e) < 0) {
		snprintf(out, cap, "%d %s", e.code, e.msg);
		CHECK(l.n == 0 && l.g == NULL);
		return;
	}
	et_buf b = {0};
	for (size_t i = 0; i < l.n; i++) {
		et_buf_printf(&b, "%s=", l.g[i].name);
		for (size_t k = 0; k < l.g[i].n_ranks; k++)
			et_buf_printf(&b, k ? ",%u" : "%u", l.g[i].ranks[k]);
		et_buf_putc(&b, ';');
	}
	snprintf(out, cap, "%.*s", (int)b.len, b.len ? (const char *)b.data : "");
	et_buf_free(&b);
	et_pg_list_free(&l);
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
	/* group 0 is left out (ASTRA-sim never uses it) */
	FILE_IS("{\"0\": [3, 1, 3], \"7 b\": [0]}", "7 b=0;");
	FILE_IS("{}", "");
	FILE_IS("{\"1\": [0],\n \"2\": [1,]}", "3 g.json: line 2, column 10: invalid JSON");
	FILE_IS(
	    "[[0, 1]]",
	    "3 g.json: expected a comm-group JSON object {\"<id>\": [rank, ...]}, got an array");
	FILE_IS("{\"1\": \"zero\"}",
	        "3 g.json: line 1: group \"1\": expected an array of ranks, got a string");
	FILE_IS("{\"1\": [1.5]}",
	        "3 g.json: line 1: group \"1\": expected an array of ranks (integers 0..2^32-1)");
	FILE_IS("{\"1\": []}", "3 g.json: line 1: group \"1\" has no ranks");
	FILE_IS("{\"1\": [0],\n\"1\": [0]}",
	        "3 g.json: line 2: group \"1\" is given twice (as \"1\" on line 1)");
	/* ids as ASTRA-sim's std::stoi reads them */
	FILE_IS("{\"1.0\": [0], \" 12abc\": [1], \"-3\": [2]}", "1.0=0; 12abc=1;-3=2;");
	FILE_IS("{\"1\": [0],\n\n\"+1.5\": [1]}",
	        "3 g.json: line 3: group \"+1.5\" is given twice (as \"1\" on line 1)");
	FILE_IS("{\"1\": [0],\n \"abc\": [1]}",
	        "3 g.json: line 2: group \"abc\": an id must start with an integer within the int "
	        "range (ASTRA-sim's std::stoi aborts otherwise)");
	FILE_IS("{\"2147483648\": [0]}",
	        "3 g.json: line 1: group \"2147483648\": an id must start with an integer within "
	        "the int range (ASTRA-sim's std::stoi aborts otherwise)");
	/* an error after good groups: the list is left empty all the same */
	FILE_IS("{\"1\": [0], \"2\": [1], \"3\": {}}",
	        "3 g.json: line 1: group \"3\": expected an array of ranks, got an object");
	FILE_IS("{\"1\": [0]} x", "3 g.json: line 1, column 12: invalid JSON");
	char nul[] = "{\"1\": [0]}\0 ";
	char got[1024];
	file(nul, sizeof nul - 1, got, sizeof got);
	CHECK(strcmp(got, "3 g.json: byte 10: a NUL byte: not JSON text") == 0);
	/* the warning for group 0, at its line */
	et_pg_list l;
	et_error e = {0};
	const char *t = "{\"1\": [0],\n \"0\": [0, 1]}";
	CHECK(et_pg_file_parse(t, strlen(t), "g.json", &l, &e) == 0 && l.n == 1 && l.g[0].id == 1);
	CHECK(l.warning && strcmp(l.warning, "g.json: line 2: group 0 is ignored: pg_name \"0\" "
	                                     "(and \"\") means all ranks, as in ASTRA-sim, which "
	                                     "never uses a group 0") == 0);
	et_pg_list_free(&l);
	CHECK(!l.warning);
	t = "{\"1\": [0]}";
	CHECK(et_pg_file_parse(t, strlen(t), "g.json", &l, &e) == 0 && !l.warning);
	et_pg_list_free(&l);
}

/* et_jsonfile_line_of: the line of a top-level member's key. */
static void test_line_of(void)
{
	const char *t = "{\"a\": 1,\n \"b\": [1,\n 2],\n\n \"a\": {\"x\": \"}\"}, \"c\": 3}";
	size_t n = strlen(t);
	CHECK(et_jsonfile_line_of(t, n, 0) == 1);
	CHECK(et_jsonfile_line_of(t, n, 1) == 2);
	CHECK(et_jsonfile_line_of(t, n, 2) == 5);
	CHECK(et_jsonfile_line_of(t, n, 3) == 5);
	CHECK(et_jsonfile_line_of(t, n, 4) == 0);
	CHECK(et_jsonfile_line_of("[1]", 3, 0) == 0);
	CHECK(et_jsonfile_line_of("{}", 2, 0) == 0);
	CHECK(et_jsonfile_line_of("\n\n{\"k\": 1}", 10, 0) == 3);
}

static void test_file_read(void)
{
	et_error e = {0};
	et_pg_list l;
	CHECK(et_pg_file_read("/nonexistent/g.json", &l, &e) == -1);
	CHECK(e.code == 4 && strncmp(e.msg, "/nonexistent/g.json: cannot open", 32) == 0);
	CHECK(l.n == 0 && l.g == NULL);
	/* a real file: read whole, and the size bound */
	char path[] = "/tmp/test_pg_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char text[] = "{\"2\": [1, 0]}\n";
	CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	close(fd);
	CHECK(et_pg_file_read(path, &l, &e) == 0);
	CHECK(l.n == 1 && strcmp(l.g[0].name, "2") == 0 && l.g[0].n_ranks == 2 &&
	      l.g[0].ranks[0] == 0 && l.g[0].ranks[1] == 1);
	et_pg_list_free(&l);
	et_buf t = {0};
	CHECK(et_buf_read_file(&t, path, 8, &e) == -1);
	CHECK(e.code == 3 && strstr(e.msg, ": larger than 8 bytes") != NULL);
	t.len = 0;
	CHECK(et_buf_read_file(&t, path, sizeof text - 1, &e) == 0);
	CHECK(t.len == sizeof text - 1 && t.data[t.len] == '\0');
	et_buf_free(&t);
	unlink(path);
}

/* The writer's text, that it reads back, and a path that cannot be made. */
static void test_write(void)
{
	char path[] = "/tmp/test_pg_w_XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	et_error e = {0};
	CHECK(et_pg_write_consecutive(path, 7, 3, &e) == 0); /* rank 6 is left out */
	CHECK(et_output_commit_all(&e) == 0);                /* with the trace it belongs to */
	et_buf t = {0};
	CHECK(et_buf_read_file(&t, path, 1024, &e) == 0);
	const char want[] = "{\"1\": [0, 1, 2], \"2\": [3, 4, 5]}\n";
	CHECK(t.len == sizeof want - 1 && memcmp(t.data, want, t.len) == 0);
	et_buf_free(&t);
	et_pg_list l;
	CHECK(et_pg_file_read(path, &l, &e) == 0 && l.n == 2 && l.g[1].n_ranks == 3);
	et_pg_list_free(&l);
	CHECK(et_pg_write_consecutive("/nonexistent/dir/g.json", 4, 2, &e) == -1);
	CHECK(e.code == 4 && strstr(e.msg, "/nonexistent/dir/g.json") != NULL);
	unlink(path);
}

/* std::stoi's reading of group ids */
static void test_id(void)
{
	static const struct {
		const char *s;
		bool ok;
		int32_t id;
	} t[] = {{"1", true, 1},
	         {"1.0", true, 1},
	         {" 12abc", true, 12},
	         {"+7", true, 7},
	         {"-3", true, -3},
	         {"0.0", true, 0},
	         {"2147483647", true, INT32_MAX},
	         {"2147483648", false, 0},
	         {"-2147483648", true, INT32_MIN},
	         {"99999999999999999999", false, 0},
	         {"abc", false, 0},
	         {"", false, 0},
	         {"-", false, 0},
	         {".5", false, 0}};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		int32_t id = 42;
		bool ok = et_pg_id(t[i].s, &id);
		CHECK(ok == t[i].ok);
		if (ok)
			CHECK(id == t[i].id);
	}
	CHECK(et_pg_is_all(NULL) && et_pg_is_all("") && et_pg_is_all("0") && et_pg_is_all("0.0"));
	CHECK(!et_pg_is_all("1") && !et_pg_is_all("dp_group"));
}

int main(void)
{
	test_id();
	test_forms();
	test_not_definitions();
	test_unique();
	test_whole_world();
	test_resize();
	test_file();
	test_line_of();
	test_file_read();
	test_write();
	return check_failures();
}
