/* Unit tests of the streaming JSON/JSONL reader over an et_src: ranks,
 * messages (canonical bytes worked out by hand), offsets, indexes, values
 * larger than the read window, and error messages with line and column. */
#include "check.h"
#include "et_json.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rd {
	char path[64];
	et_src *src;
	et_json_reader *r;
	et_error e;
	int open_rc;
} rd;

static void rd_open(rd *t, const char *text, size_t len)
{
	memset(t, 0, sizeof *t);
	strcpy(t->path, "/tmp/et-test-json-XXXXXX");
	int fd = mkstemp(t->path);
	CHECK(fd >= 0 && write(fd, text, len) == (ssize_t)len);
	close(fd);
	CHECK(et_src_open(&t->src, t->path, &t->e) == 0);
	et_src_set_mode(t->src, ET_SRC_RAW);
	t->open_rc = et_json_reader_open(&t->r, t->src, NULL, &t->e);
}

static void rd_close(rd *t)
{
	et_json_reader_close(t->r);
	et_src_close(t->src);
	unlink(t->path);
}

static bool msg_is(const et_msg *m, const void *bytes, size_t n, uint64_t off, uint64_t idx)
{
	bool ok = m->len == n && (n == 0 || memcmp(m->data, bytes, n) == 0) && m->offset == off &&
	          m->index == idx;
	if (!ok)
		fprintf(stderr, "msg: len %zu offset %llu index %llu\n", m->len,
		        (unsigned long long)m->offset, (unsigned long long)m->index);
	return ok;
}

static uint64_t offset_of(const char *text, const char *needle)
{
	return (uint64_t)(strstr(text, needle) - text);
}

static void test_document(void)
{
	const char *doc =
	    "{\"ranks\": [\n"
	    "{\"rank\":1,\"world_size\":2,\"name\":\"w\",\"metadata\":{\"version\":\"v\"},"
	    "\"nodes\":[\n"
	    "{\"id\":1},\n"
	    "{\"id\":2,\"rank\":1}\n"
	    "]},\n"
	    " {\"rank\" : 0 , \"metadata\":{} , \"nodes\" : [ ] }\n"
	    "]}\n";
	rd t;
	rd_open(&t, doc, strlen(doc));
	CHECK(t.open_rc == 0);
	et_rank_info ri;
	et_msg m;
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 1);
	CHECK(ri.rank == 1 && ri.world_size == 2 && strcmp(ri.name, "w") == 0 &&
	      ri.format == ET_FMT_JSON && strcmp(ri.input, t.path) == 0);
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	CHECK(msg_is(&m, "\x0a\x01v", 3, offset_of(doc, "{\"version"), 0));
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	CHECK(msg_is(&m, "\x08\x01", 2, offset_of(doc, "{\"id\":1}"), 1));
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	CHECK(msg_is(&m, "\x08\x02", 2, offset_of(doc, "{\"id\":2"), 2));
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 0);
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 0);
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 1);
	CHECK(ri.rank == 0 && ri.world_size == 0 && ri.name[0] == 0);
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	CHECK(msg_is(&m, "", 0, offset_of(doc, "{} ,"), 0)); /* empty GlobalMetadata */
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 0);
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 0);
	rd_close(&t);
}

/* JSONL, with a node line far larger than the 64 KiB read chunk, and a rank
 * skipped without reading its nodes. */
static void test_jsonl(void)
{
	enum { BIG = 200000 };
	et_buf b = {0};
	et_buf_puts(
	    &b, "{\"rank\":0,\"world_size\":2,\"name\":\"n\",\"metadata\":{\"version\":\"v\"}}\n");
	et_buf_puts(&b, "{\"rank\":0,\"id\":1}\n{\"rank\":0,\"id\":2,\"name\":\"");
	for (int i = 0; i < BIG; i++)
		et_buf_putc(&b, 'x');
	et_buf_puts(&b,
	            "\"}\n\n{\"rank\":1,\"world_size\":2,\"metadata\":{}}\n{\"rank\":1,\"id\":7}");
	et_buf_putc(&b, 0);
	const char *text = (const char *)b.data;
	rd t;
	rd_open(&t, text, b.len - 1);
	CHECK(t.open_rc == 0);
	et_rank_info ri;
	et_msg m;
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 1);
	CHECK(ri.rank == 0 && ri.world_size == 2 && strcmp(ri.name, "n") == 0);
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	CHECK(msg_is(&m, "\x0a\x01v", 3, 0, 0)); /* JSONL: the header line's offset */
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	CHECK(msg_is(&m, "\x08\x01", 2, offset_of(text, "{\"rank\":0,\"id\":1"), 1));
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1);
	/* 08 02, then name: 12, varint(200000) = c0 9a 0c, the bytes */
	CHECK(m.len == 2 + 1 + 3 + BIG && m.index == 2);
	CHECK(m.len > 6 && memcmp(m.data, "\x08\x02\x12\xc0\x9a\x0c", 6) == 0);
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 0);
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 1);
	CHECK(ri.rank == 1 && ri.world_size == 2);
	/* rank 1's nodes are left unread */
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 0);
	rd_close(&t);

	rd_open(&t, text, b.len - 1);
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 1 && ri.rank == 0);
	CHECK(et_json_reader_next_rank(t.r, &ri, &t.e) == 1 && ri.rank == 1); /* skips rank 0 */
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1 && m.len == 0);
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 1 &&
	      msg_is(&m, "\x08\x07", 2, offset_of(text, "{\"rank\":1,\"id\""), 1));
	CHECK(et_json_reader_next_msg(t.r, &m, &t.e) == 0);
	rd_close(&t);
	et_buf_free(&b);
}

/* Read everything; the first error's message must be exactly want (after
 * the input name and ": "). */
static bool fails_with(const char *text, const char *want)
{
	rd t;
	rd_open(&t, text, strlen(text));
	int rc = t.open_rc;
	et_rank_info ri;
	et_msg m;
	while (rc == 0 && (rc = et_json_reader_next_rank(t.r, &ri, &t.e)) == 1)
		while ((rc = et_json_reader_next_msg(t.r, &m, &t.e)) == 1)
			;
	size_t pl = strlen(t.path);
	bool ok = rc == -1 && t.e.code == ET_EXIT_DATA && strncmp(t.e.msg, t.path, pl) == 0 &&
	          strncmp(t.e.msg + pl, ": ", 2) == 0 && strcmp(t.e.msg + pl + 2, want) == 0;
	if (!ok)
		fprintf(stderr, "rc %d, got \"%s\"\nwant \"%s\"\n", rc, t.e.msg + (rc ? pl + 2 : 0),
		        want);
	rd_close(&t);
	return ok;
}

static void test_errors(void)
{
	CHECK(fails_with(
	    "{\"rank\":0,\"metadata\":{}}\n{\"rank\":1,\"id\":1}\n",
	    "rank 0: line 2, column 1: a node line of rank 1 among the lines of rank 0"));
	CHECK(fails_with("{\"rank\":0,\"metadata\":{}}\n{\"rank\":0,\"id\":1,}\n",
	                 "rank 0: line 2, column 18: malformed JSON at '}'"));
	CHECK(
	    fails_with("{\"rank\":0,\"metadata\":{}}\n\n  {\"id\":1,\"dataDeps\":[\"a\"]}\n",
	               "rank 0: line 3, column 3: node: key \"dataDeps\"[0]: expected an integer"));
	CHECK(fails_with("{\"id\":1}\n",
	                 "line 1, column 1: a node line before any rank header line"));
	CHECK(fails_with("{\"rank\":0,\"metadata\":{},\"nme\":\"x\"}\n",
	                 "line 1, column 1: key \"nme\": unknown key in a rank header"));
	CHECK(fails_with("{\"rank\":-1,\"metadata\":{}}\n",
	                 "line 1, column 1: key \"rank\": integer out of range"));
	CHECK(
	    fails_with("{\"rank\":0,\"metadata\":{}}\n{\"rank\":0,\"id\":1}\n{\"rank\":0,\"id\":2",
	               "rank 0: line 3, column 17: unexpected end of input inside a value"));
	CHECK(fails_with("[1]", "line 1, column 1: expected a JSON object (our JSON or JSONL)"));
	CHECK(fails_with("{\"ranks\":[]} x", "line 1, column 14: data after the end of the JSON "
	                                     "document"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"nodes\":[]}]}",
	                 "line 1, column 29: rank 0: header without \"metadata\""));
	CHECK(
	    fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{},\"nodes\":[{\"id\":1}",
	               "rank 0: line 1, column 52: unexpected end of input (expected a node object "
	               "or ']')"));
	CHECK(fails_with(
	    "{\"ranks\":[{\"rank\":0,\"metadata\":{},\"nodes\":[\n{\"id\":1}\n{\"id\":2}]}]}",
	    "rank 0: line 3, column 1: expected ',' or ']' after a node"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{},\"nodes\":[\n{\"id\":1},\n{"
	                 "\"id\":\"x\"}\n]}]}",
	                 "rank 0: line 3, column 1: node: key \"id\": expected an integer"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{},\"nodes\":[],\"more\":1}]}",
	                 "rank 0: line 1, column 45: expected '}' closing the rank (no keys may "
	                 "follow \"nodes\")"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{\"version\":[]},\"nodes\":[]}]}",
	                 "line 1, column 32: metadata: key \"version\": expected a string"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{}}{}]}",
	                 "line 1, column 35: expected ',' or ']' after a rank"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{}},]}",
	                 "line 1, column 36: expected a rank object after ','"));
	CHECK(fails_with("{\"ranks\":[{\"rank\":0,\"metadata\":{\"a\":[}}]}",
	                 "line 1, column 38: malformed JSON at '}}]}'"));
}

int main(void)
{
	test_document();
	test_jsonl();
	test_errors();
	return check_failures();
}
