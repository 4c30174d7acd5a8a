/* et_jsonw: the one JSON writer (see et_jsonw.h). */
#include "et_jsonw.h"
#include "et_json.h"
#include "et_json_str.h"
#include "et_mem.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put(et_jsonw *w, const char *s, size_t n)
{
	if (w->f)
		fwrite(s, 1, n, w->f);
	else
		et_buf_append(w->b, s, n);
}

/* n copies of c (indentation): in blocks, not a byte at a time. */
static void put_n(et_jsonw *w, char c, size_t n)
{
	char t[64];
	memset(t, c, n < sizeof t ? n : sizeof t);
	for (size_t k; n; n -= k) {
		k = n < sizeof t ? n : sizeof t;
		put(w, t, k);
	}
}

void et_jsonw_init(et_jsonw *w, FILE *f, et_buf *b, et_jsonw_style style, unsigned str_flags)
{
	memset(w, 0, sizeof *w);
	w->f = f;
	w->b = b;
	w->style = style;
	w->str_flags = str_flags;
	w->indent = 2;
}

void et_jsonw_set_lines(et_jsonw *w, bool on)
{
	w->lines = on;
}

void et_jsonw_set_tree_ints(et_jsonw *w, bool on)
{
	w->tree_ints = on;
}

void et_jsonw_set_str_flags(et_jsonw *w, unsigned str_flags)
{
	w->str_flags = str_flags;
}

void et_jsonw_set_indent(et_jsonw *w, unsigned n)
{
	w->indent = n;
}

void et_jsonw_release(et_jsonw *w)
{
	free(w->open);
	et_buf_free(&w->tmp);
	w->open = NULL;
	w->depth = w->cap = 0;
}

int et_jsonw_done(et_jsonw *w)
{
	bool bad = w->bad || w->depth || w->after_key;
	free(w->open);
	et_buf_free(&w->tmp);
	w->open = NULL;
	w->depth = w->cap = 0;
	if (bad) {
		errno = EINVAL;
		return -1;
	}
	return w->f && ferror(w->f) ? -1 : 0;
}

static bool in_obj(const et_jsonw *w)
{
	return w->depth && w->open[w->depth - 1] == '{';
}

static void flush_nl(et_jsonw *w)
{
	put_n(w, '\n', w->nl);
	w->nl = 0;
}

/* The line break and indent that start an item of an open container. */
static void item_indent(et_jsonw *w)
{
	if (w->style == ET_JSONW_INDENT) {
		put(w, "\n", 1);
		put_n(w, ' ', (size_t)w->indent * w->depth);
	} else if (w->style == ET_JSONW_CJSON && in_obj(w)) {
		put_n(w, '\t', w->depth);
	}
}

/* Before an item (a member's key, or an array's element): the separator. */
static void sep(et_jsonw *w)
{
	if (!w->first) {
		bool cj_obj = w->style == ET_JSONW_CJSON && in_obj(w);
		put(w, ",", 1);
		if (cj_obj)
			put(w, "\n", 1);
		else if (w->style == ET_JSONW_SPACED || w->style == ET_JSONW_CJSON)
			put(w, " ", 1);
	}
	w->first = false;
	flush_nl(w);
	item_indent(w);
}

/* Before any value; false (and the writer marked bad) on misuse. */
static bool value_start(et_jsonw *w)
{
	if (w->bad)
		return false;
	if (w->after_key) {
		w->after_key = false;
		return true;
	}
	if (in_obj(w)) {
		w->bad = true;
		return false;
	}
	if (w->depth)
		sep(w);
	else
		flush_nl(w);
	return true;
}

/* After a complete value: a top-level one ends its line in JSONL. */
static void value_end(et_jsonw *w)
{
	if (!w->depth && w->lines)
		put(w, "\n", 1);
}

/* s escaped by et_json_str, quotes included. */
static void put_str(et_jsonw *w, const char *s)
{
	if (w->f) {
		w->tmp.len = 0;
		et_json_str(&w->tmp, s ? s : "", w->str_flags);
		fwrite(w->tmp.data, 1, w->tmp.len, w->f);
	} else {
		et_json_str(w->b, s ? s : "", w->str_flags);
	}
}

void et_jsonw_key(et_jsonw *w, const char *k)
{
	if (w->bad || !in_obj(w) || w->after_key) {
		w->bad = true;
		return;
	}
	sep(w);
	put_str(w, k);
	if (w->style == ET_JSONW_COMPACT)
		put(w, ":", 1);
	else
		put(w, w->style == ET_JSONW_CJSON ? ":\t" : ": ", 2);
	w->after_key = true;
}

static void open_(et_jsonw *w, char c)
{
	if (!value_start(w))
		return;
	put(w, &c, 1);
	ET_GROW(w->open, w->cap, w->depth + 1);
	w->open[w->depth++] = (uint8_t)c;
	w->first = true;
	if (c == '{' && w->style == ET_JSONW_CJSON)
		put(w, "\n", 1);
}

void et_jsonw_obj(et_jsonw *w)
{
	open_(w, '{');
}

void et_jsonw_arr(et_jsonw *w)
{
	open_(w, '[');
}

void et_jsonw_end(et_jsonw *w)
{
	if (w->bad || !w->depth || w->after_key) {
		w->bad = true;
		return;
	}
	char c = w->open[w->depth - 1] == '{' ? '}' : ']';
	bool empty = w->first;
	flush_nl(w);
	if (w->style == ET_JSONW_INDENT && !empty) {
		put(w, "\n", 1);
		put_n(w, ' ', (size_t)w->indent * (w->depth - 1));
	} else if (w->style == ET_JSONW_CJSON && c == '}') {
		if (!empty)
			put(w, "\n", 1);
		put_n(w, '\t', w->depth - 1);
	}
	put(w, &c, 1);
	w->depth--;
	w->first = false;
	value_end(w);
}

void et_jsonw_strn(et_jsonw *w, const char *s, size_t n)
{
	/* et_json_str reads a C string */
	char *z = et_xmalloc(n + 1);
	if (n)
		memcpy(z, s, n);
	z[n] = 0;
	et_jsonw_str(w, z);
	free(z);
}

void et_jsonw_str(et_jsonw *w, const char *s)
{
	if (!value_start(w))
		return;
	put_str(w, s);
	value_end(w);
}

/* A scalar already formatted. */
static void scalar(et_jsonw *w, const char *s, size_t n)
{
	if (!value_start(w))
		return;
	put(w, s, n);
	value_end(w);
}

void et_jsonw_raw(et_jsonw *w, const char *json, size_t n)
{
	scalar(w, json, n);
}

void et_jsonw_int(et_jsonw *w, int64_t v)
{
	char t[24];
	int n = snprintf(t, sizeof t, "%lld", (long long)v);
	scalar(w, t, (size_t)n);
}

void et_jsonw_uint(et_jsonw *w, uint64_t v)
{
	char t[24];
	int n = snprintf(t, sizeof t, "%llu", (unsigned long long)v);
	scalar(w, t, (size_t)n);
}

void et_jsonw_bool(et_jsonw *w, bool v)
{
	scalar(w, v ? "true" : "false", v ? 4 : 5);
}

void et_jsonw_null(et_jsonw *w)
{
	scalar(w, "null", 4);
}

void et_jsonw_g17(et_jsonw *w, double x)
{
	char t[40];
	int n = isfinite(x) ? snprintf(t, sizeof t, "%.17g", x) : snprintf(t, sizeof t, "null");
	scalar(w, t, (size_t)n);
}

void et_jsonw_fixed(et_jsonw *w, double x, int prec)
{
	if (!isfinite(x)) {
		et_jsonw_null(w);
		return;
	}
	/* the width %.*f needs: the integer digits (up to 309) and prec */
	char t[400];
	if (prec < 0 || prec > 60)
		prec = prec < 0 ? 0 : 60;
	int n = snprintf(t, sizeof t, "%.*f", prec, x);
	scalar(w, t, (size_t)n);
}

void et_jsonw_repr(et_jsonw *w, double x, bool as_f32)
{
	if (!isfinite(x)) {
		et_jsonw_null(w);
		return;
	}
	char t[ET_JSON_REAL_MAX];
	size_t n = et_json_fmt_real(x, as_f32, t);
	scalar(w, t, n);
}

/* cJSON (1.7.15) prints a number with "%1.15g" when that reads back
 * within DBL_EPSILON relative, else with "%1.17g"; NaN and infinities as
 * null. (Its valueint plays no part: -0.0 is "-0".) */
void et_jsonw_cjnum(et_jsonw *w, double x)
{
	char t[32];
	int n;
	if (!isfinite(x)) {
		n = snprintf(t, sizeof t, "null");
	} else {
		n = snprintf(t, sizeof t, "%1.15g", x);
		double back = strtod(t, NULL);
		double mx = fabs(back) > fabs(x) ? fabs(back) : fabs(x);
		if (!(fabs(back - x) <= mx * DBL_EPSILON))
			n = snprintf(t, sizeof t, "%1.17g", x);
	}
	scalar(w, t, (size_t)n);
}

void et_jsonw_us3(et_jsonw *w, uint64_t ns)
{
	char t[32];
	int n = snprintf(t, sizeof t, "%llu.%03llu", (unsigned long long)(ns / 1000),
	                 (unsigned long long)(ns % 1000));
	scalar(w, t, (size_t)n);
}

void et_jsonw_members(et_jsonw *w, const char *obj)
{
	size_t n = obj ? strlen(obj) : 0;
	if (w->bad || !in_obj(w) || w->after_key || n < 2 || obj[0] != '{' || obj[n - 1] != '}') {
		w->bad = true;
		return;
	}
	if (n == 2)
		return;
	sep(w);
	put(w, obj + 1, n - 2);
}

void et_jsonw_nl(et_jsonw *w)
{
	w->nl++;
}

void et_jsonw_kstr(et_jsonw *w, const char *k, const char *s)
{
	et_jsonw_key(w, k);
	et_jsonw_str(w, s);
}

void et_jsonw_kint(et_jsonw *w, const char *k, int64_t v)
{
	et_jsonw_key(w, k);
	et_jsonw_int(w, v);
}

void et_jsonw_kobj(et_jsonw *w, const char *k)
{
	et_jsonw_key(w, k);
	et_jsonw_obj(w);
}

void et_jsonw_karr(et_jsonw *w, const char *k)
{
	et_jsonw_key(w, k);
	et_jsonw_arr(w);
}

void et_jsonw_kuint(et_jsonw *w, const char *k, uint64_t v)
{
	et_jsonw_key(w, k);
	et_jsonw_uint(w, v);
}

void et_jsonw_kuints(et_jsonw *w, const char *const *k, const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		et_jsonw_kuint(w, k[i], v[i]);
}

void et_jsonw_kbool(et_jsonw *w, const char *k, bool v)
{
	et_jsonw_key(w, k);
	et_jsonw_bool(w, v);
}

void et_jsonw_cjson(et_jsonw *w, const cJSON *j)
{
	if (j->string && in_obj(w) && !w->after_key)
		et_jsonw_key(w, j->string);
	if (cJSON_IsObject(j) || cJSON_IsArray(j)) {
		if (cJSON_IsObject(j))
			et_jsonw_obj(w);
		else
			et_jsonw_arr(w);
		for (const cJSON *c = j->child; c; c = c->next)
			et_jsonw_cjson(w, c);
		et_jsonw_end(w);
	} else if (cJSON_IsString(j)) {
		et_jsonw_str(w, j->valuestring);
	} else if (cJSON_IsNumber(j)) {
		double v = j->valuedouble;
		if (w->tree_ints && v == floor(v) && fabs(v) < 9e15) {
			char t[24];
			scalar(w, t, (size_t)snprintf(t, sizeof t, "%.0f", v));
		} else {
			et_jsonw_cjnum(w, v);
		}
	} else if (cJSON_IsBool(j)) {
		et_jsonw_bool(w, cJSON_IsTrue(j));
	} else if (cJSON_IsRaw(j) && j->valuestring) {
		et_jsonw_raw(w, j->valuestring, strlen(j->valuestring));
	} else {
		et_jsonw_null(w);
	}
}
