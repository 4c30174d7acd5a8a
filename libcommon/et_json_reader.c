/* The JSON/JSONL reader: window primitives, positions for messages, and the
 * public calls, which hand over to the document or the JSONL half. */
#include "et_json_rd.h"
#include "et_jsonscan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 64 * 1024 };

const char *rd_win(const et_json_reader *r)
{
	return (const char *)et_src_data(r->src);
}

uint64_t rd_offset(const et_json_reader *r)
{
	return et_src_offset(r->src);
}

/* Lines are counted as bytes leave the window, so a position needs only
 * the bytes still in it. */
void rd_consume(et_json_reader *r, size_t n)
{
	const char *p = rd_win(r), *q = p, *end = p + n;
	while ((q = memchr(q, '\n', (size_t)(end - q)))) {
		r->line++;
		q++;
		r->line_start = rd_offset(r) + (uint64_t)(q - p);
	}
	et_src_consume(r->src, n);
}

static void line_col(const et_json_reader *r, size_t pos, unsigned long *line, unsigned long *col)
{
	const char *p = rd_win(r);
	unsigned long l = r->line;
	uint64_t start = r->line_start, base = rd_offset(r);
	size_t avail = et_src_avail(r->src);
	for (size_t i = 0; i < pos && i < avail; i++)
		if (p[i] == '\n') {
			l++;
			start = base + i + 1;
		}
	*line = l;
	*col = (unsigned long)(base + pos - start) + 1;
}

static int fail_v(et_json_reader *r, size_t pos, et_error *e, const char *fmt, va_list ap)
{
	char what[sizeof e->msg], rank[32] = "";
	vsnprintf(what, sizeof what, fmt, ap);
	unsigned long line, col;
	line_col(r, pos, &line, &col);
	if (r->in_rank)
		snprintf(rank, sizeof rank, "rank %u: ", r->ri.rank);
	return et_fail(e, ET_EXIT_DATA, "%s: %sline %lu, column %lu: %s", et_src_name(r->src), rank,
	               line, col, what);
}

int rd_fail(et_json_reader *r, size_t pos, et_error *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(r, pos, e, fmt, ap);
	va_end(ap);
	return -1;
}

int rd_fail_msg(et_json_reader *r, size_t pos, et_error *e)
{
	char m[sizeof e->msg];
	memcpy(m, e->msg, sizeof m);
	return rd_fail(r, pos, e, "%s", m);
}

int rd_skip_ws(et_json_reader *r, et_error *e)
{
	for (;;) {
		size_t a = et_src_avail(r->src);
		if (a == 0) {
			int64_t got = et_src_fill(r->src, CHUNK, e);
			if (got <= 0)
				return (int)got;
			a = (size_t)got;
		}
		size_t n = et_jsonscan_ws(rd_win(r), a, 0);
		rd_consume(r, n);
		if (n < a)
			return 1;
	}
}

int rd_peek(et_json_reader *r, const char *expected, et_error *e)
{
	int w = rd_skip_ws(r, e);
	if (w < 0)
		return -1;
	if (w == 0)
		return rd_fail(r, 0, e, "unexpected end of input (expected %s)", expected);
	return (unsigned char)rd_win(r)[0];
}

int rd_expect(et_json_reader *r, char c, const char *what, et_error *e)
{
	int got = rd_peek(r, what, e);
	if (got < 0)
		return -1;
	if (got != (unsigned char)c)
		return rd_fail(r, 0, e, "expected %s", what);
	rd_consume(r, 1);
	return 0;
}

int rd_value(et_json_reader *r, size_t *len, et_error *e)
{
	int w = rd_skip_ws(r, e);
	if (w <= 0)
		return w;
	for (;;) {
		size_t a = et_src_avail(r->src), bad = 0;
		size_t end = et_jsonscan_value_end_ex(rd_win(r), a, 0, &bad);
		if (end == (size_t)-1) {
			char what[48];
			et_json_syntax_what(rd_win(r), a, bad, what);
			return rd_fail(r, bad, e, "%s", what);
		}
		if (end) {
			*len = end;
			return 1;
		}
		if (a >= r->max_text)
			return rd_fail(r, 0, e, "JSON value longer than %llu bytes",
			               (unsigned long long)r->max_text);
		int64_t got = et_src_fill(r->src, a < CHUNK ? a + CHUNK : 2 * a, e);
		if (got < 0)
			return -1;
		if ((size_t)got == a)
			return rd_fail(r, a, e, "unexpected end of input inside a value");
	}
}

cJSON *rd_parse(et_json_reader *r, size_t len, et_error *e)
{
	size_t pos = 0;
	cJSON *j = et_json_parse(rd_win(r), len, &r->scratch, &pos);
	if (!j) {
		char what[48];
		et_json_syntax_what(rd_win(r), len, pos, what);
		rd_fail(r, pos, e, "%s", what);
	}
	return j;
}

/* JSON of other tools, told by its first key, and what reads it. */
static const struct {
	const char *key, *what;
} foreign[] = {
    {"\"schema\"", "a PyTorch host execution trace: convert it first, et-convert --from pytorch "
                   "FILE (with --kineto KINETO.json for GPU times)"},
    {"\"traceEvents\"", "a Kineto (Chrome trace-event) trace: it is read with its host trace, "
                        "et-convert --from pytorch HOST.json --kineto FILE"},
    {"\"schemaVersion\"", "a Kineto (Chrome trace-event) trace: it is read with its host "
                          "trace, et-convert --from pytorch HOST.json --kineto FILE"},
    {"\"deviceProperties\"", "a Kineto (Chrome trace-event) trace: it is read with its host "
                             "trace, et-convert --from pytorch HOST.json --kineto FILE"},
    {"\"distributedInfo\"", "a Kineto (Chrome trace-event) trace: it is read with its host "
                            "trace, et-convert --from pytorch HOST.json --kineto FILE"},
    {"\"workload_graph\"", "Chakra's {\"workload_graph\": ...} JSON, which no etkit tool "
                           "reads: etkit reads Chakra ETs, its own JSON (et-convert --to json) "
                           "and PyTorch traces"},
};

static int foreign_json(et_json_reader *r, const char *p, size_t n, et_error *e)
{
	for (size_t k = 0; k < sizeof foreign / sizeof *foreign; k++) {
		size_t m = strlen(foreign[k].key);
		if (n >= m && memcmp(p, foreign[k].key, m) == 0)
			return rd_fail(r, 0, e, "not etkit's JSON but %s", foreign[k].what);
	}
	return 0;
}

/* Sniff the first key: a document starts {"ranks": ...}, JSONL with a
 * header line; the first key of another tool's JSON names it. */
static int sniff(et_json_reader *r, et_error *e)
{
	if (rd_peek(r, "a JSON object", e) < 0)
		return -1;
	if (rd_win(r)[0] != '{')
		return rd_fail(r, 0, e, "expected a JSON object (our JSON or JSONL)");
	int64_t a = et_src_fill(r->src, 4096, e);
	if (a < 0)
		return -1;
	const char *p = rd_win(r);
	size_t i = et_jsonscan_ws(p, (size_t)a, 1);
	if (foreign_json(r, p + i, (size_t)a - i, e) < 0)
		return -1;
	r->jsonl = !((size_t)a - i >= 7 && memcmp(p + i, "\"ranks\"", 7) == 0);
	if (r->jsonl)
		return 0;
	rd_consume(r, i + 7);
	if (rd_expect(r, ':', "':' after \"ranks\"", e) < 0)
		return -1;
	return rd_expect(r, '[', "'[' (the list of ranks)", e);
}

int et_json_reader_open(et_json_reader **out, et_src *src, const et_input_opts *o, et_error *e)
{
	et_json_reader *r = et_xcalloc(1, sizeof *r);
	*out = r;
	r->src = src;
	r->arena = et_arena_new();
	r->max_msg = o && o->max_msg ? o->max_msg : 256u << 20;
	/* Text may be several times its encoding (base64, escapes). */
	r->max_text = r->max_msg > (UINT64_MAX - CHUNK) / 8 ? UINT64_MAX : 8 * r->max_msg + CHUNK;
	r->line = 1;
	r->line_start = rd_offset(r);
	r->state = RD_RANKS;
	return sniff(r, e);
}

void et_json_reader_close(et_json_reader *r)
{
	if (!r)
		return;
	et_buf_free(&r->scratch);
	et_buf_free(&r->msg);
	et_buf_free(&r->meta);
	et_arena_free(r->arena);
	free(r);
}

int et_json_reader_next_rank(et_json_reader *r, et_rank_info *ri, et_error *e)
{
	et_msg m;
	int got;
	while (r->in_rank) /* the rest of the previous rank, still checked */
		if ((got = et_json_reader_next_msg(r, &m, e)) < 0)
			return -1;
	if (r->state == RD_END)
		return 0;
	got = r->jsonl ? rd_jsonl_next_rank(r, e) : rd_doc_next_rank(r, e);
	if (got == 1)
		*ri = r->ri;
	return got;
}

int et_json_reader_next_msg(et_json_reader *r, et_msg *m, et_error *e)
{
	if (!r->in_rank)
		return 0;
	if (r->meta_pending) {
		r->meta_pending = false;
		*m = (et_msg){r->meta.data, r->meta.len, r->meta_off, 0};
		return 1;
	}
	int got = 0;
	if (r->state == RD_NODES)
		got = r->jsonl ? rd_jsonl_next_node(r, e) : rd_doc_next_node(r, e);
	else if (r->state == RD_CLOSED) {
		r->state = RD_RANKS;
	}
	if (got < 0)
		return -1;
	if (got == 0) {
		r->in_rank = false;
		return 0;
	}
	*m = (et_msg){r->msg.data, r->msg.len, r->msg_off, ++r->index};
	return 1;
}
