#include "et-convert/pytorch/pt_jr.h"
#include "et_jsonscan.h"

#include <stdio.h>
#include <string.h>

int pt_jr_fail(pt_jr *w, size_t at, const char *what)
{
	const char *p = (const char *)et_src_data(w->src);
	uint64_t line = w->line, start = w->line_start, base = et_src_offset(w->src);
	for (size_t i = 0; i < at; i++)
		if (p[i] == '\n') {
			line++;
			start = base + i + 1;
		}
	return et_fail(w->e, ET_EXIT_DATA, "%s: line %llu, column %llu: %s", w->name,
	               (unsigned long long)line, (unsigned long long)(base + at - start + 1), what);
}

void pt_jr_consume(pt_jr *w, size_t n)
{
	const char *p = (const char *)et_src_data(w->src);
	uint64_t base = et_src_offset(w->src);
	for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + n - q))) != NULL; q++) {
		w->line++;
		w->line_start = base + (uint64_t)(q - p) + 1;
	}
	et_src_consume(w->src, n);
}

/* Skip white space; returns the next byte, -2 at end of data, -1 on error. */
int pt_jr_peek(pt_jr *w)
{
	for (;;) {
		int64_t a = et_src_fill(w->src, 1, w->e);
		if (a < 0)
			return -1;
		if (a == 0)
			return -2;
		const char *p = (const char *)et_src_data(w->src);
		size_t i = et_jsonscan_ws(p, (size_t)a, 0);
		pt_jr_consume(w, i);
		if (i < (size_t)a)
			return (unsigned char)p[i];
	}
}

int pt_jr_expect(pt_jr *w, char c, const char *what)
{
	int got = pt_jr_peek(w);
	if (got == -1)
		return -1;
	if (got != c)
		return pt_jr_fail(w, 0, got == -2 ? "unexpected end of JSON" : what);
	pt_jr_consume(w, 1);
	return 0;
}

/* The span of the value at the window start, growing the window until it
 * is complete. */
int pt_jr_value(pt_jr *w, pj_span *v)
{
	/* Scan what the window already holds; ask for more only when the value
	 * runs past it (asking every time would compact the window per value). */
	size_t want = et_src_avail(w->src) ? 0 : 1 << 16;
	for (;;) {
		int64_t a = want ? et_src_fill(w->src, want, w->e) : (int64_t)et_src_avail(w->src);
		if (a < 0)
			return -1;
		const char *p = (const char *)et_src_data(w->src);
		size_t bad = 0;
		size_t end = et_jsonscan_value_end_ex(p, (size_t)a, 0, &bad);
		if (end == (size_t)-1)
			return pt_jr_fail(w, bad, "malformed JSON");
		if (end > 0) {
			*v = (pj_span){p, end};
			return 0;
		}
		if (want && (size_t)a < want)
			return pt_jr_fail(w, (size_t)a, "unexpected end of JSON");
		want = (size_t)a * 2 > (1u << 16) ? (size_t)a * 2 : 1u << 16;
	}
}

int pt_jr_object(pt_jr *w, pj_members *m, size_t *end)
{
	size_t want = et_src_avail(w->src) ? 0 : 1 << 16;
	for (;;) {
		int64_t a = want ? et_src_fill(w->src, want, w->e) : (int64_t)et_src_avail(w->src);
		if (a < 0)
			return -1;
		size_t bad = 0;
		int r = pj_scan_object((const char *)et_src_data(w->src), (size_t)a, m, end, &bad);
		if (r == 1)
			return 0;
		if (r < 0) {
			/* Report a malformed value as the whole-value scan does; if the
			 * value is complete, rescan it (the window may have moved) for the
			 * members before the break. */
			pj_span v;
			if (pt_jr_value(w, &v) < 0)
				return -1;
			if (pj_scan_object(v.p, v.n, m, end, &bad) == 0)
				m->bad = v.n;
			*end = v.n;
			return 1;
		}
		if (want && (size_t)a < want)
			return pt_jr_fail(w, (size_t)a, "unexpected end of JSON");
		want = (size_t)a * 2 > (1u << 16) ? (size_t)a * 2 : 1u << 16;
	}
}

int pt_jr_members(pt_jr *w, int (*member)(void *ctx, pj_span key), void *ctx)
{
	if (pt_jr_expect(w, '{', "expected a JSON object") < 0)
		return -1;
	int ch = pt_jr_peek(w);
	while (ch != '}') {
		if (ch == -1)
			return -1;
		if (ch != '"')
			return pt_jr_fail(w, 0,
			                  ch == -2 ? "unexpected end of JSON" : "expected a key");
		pj_span key;
		if (pt_jr_value(w, &key) < 0)
			return -1;
		char kbuf[64];
		size_t kn = key.n - 2 < 63 ? key.n - 2 : 63;
		memcpy(kbuf, key.p + 1, kn);
		kbuf[kn] = 0;
		pt_jr_consume(w, key.n);
		if (pt_jr_expect(w, ':', "expected ':'") < 0 ||
		    member(ctx, (pj_span){kbuf, kn}) < 0)
			return -1;
		ch = pt_jr_peek(w);
		if (ch == ',') {
			pt_jr_consume(w, 1);
			ch = pt_jr_peek(w);
		} else if (ch != '}') {
			return ch == -1   ? -1
			       : ch == -2 ? pt_jr_fail(w, 0, "unexpected end of JSON")
			                  : pt_jr_fail(w, 0, "expected ',' or '}'");
		}
	}
	pt_jr_consume(w, 1);
	return 0;
}

int pt_jr_each(pt_jr *w, const char *array, const char *elem, int (*each)(void *ctx), void *ctx)
{
	char what[96];
	snprintf(what, sizeof what, "expected the \"%s\" array", array);
	if (pt_jr_expect(w, '[', what) < 0)
		return -1;
	int ch = pt_jr_peek(w);
	if (ch == ']') {
		pt_jr_consume(w, 1);
		return 0;
	}
	for (;;) {
		if (ch < 0)
			return ch == -1 ? -1 : pt_jr_fail(w, 0, "unexpected end of JSON");
		if (each(ctx) < 0)
			return -1;
		ch = pt_jr_peek(w);
		if (ch == ']') {
			pt_jr_consume(w, 1);
			return 0;
		}
		if (ch != ',') {
			snprintf(what, sizeof what, "expected ',' or ']' after a %s", elem);
			return ch == -1
			           ? -1
			           : pt_jr_fail(w, 0, ch == -2 ? "unexpected end of JSON" : what);
		}
		pt_jr_consume(w, 1);
		ch = pt_jr_peek(w);
	}
}
