/* et_pg: process-group definitions and comm-group files (see et_pg.h). */
#include "et_pg.h"
#include "et_buf.h"
#include "et_hmap.h"
#include "et_json_str.h"
#include "et_jsonfile.h"
#include "et_jsonw.h"
#include "et_mem.h"
#include "et_output.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void et_pg_list_free(et_pg_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->g[i].name);
		free(l->g[i].ranks);
	}
	free(l->g);
	free(l->warning);
	memset(l, 0, sizeof *l);
}

static void list_add(et_pg_list *l, const char *name, uint32_t *ranks, size_t n)
{
	ET_GROW(l->g, l->cap, l->n + 1);
	et_pg_group *g = &l->g[l->n++];
	size_t len = strlen(name);
	g->name = et_xmalloc(len + 1);
	memcpy(g->name, name, len + 1);
	g->ranks = ranks;
	g->n_ranks = n;
	g->id = 0;
}

static bool blank(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The JSON value filling p[0..n), blanks aside: nothing may follow it, as
 * ASTRA-sim's JSON parser allows nothing. */
static cJSON *parse_whole(const char *p, size_t n)
{
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithLengthOpts(p, n, &end, 0);
	while (j && end < p + n && blank(*end))
		end++;
	if (j && end != p + n) {
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

/* A JSON list of one string: the definitions are that string's text. */
static cJSON *from_json_list(const char *v, size_t n)
{
	cJSON *outer = parse_whole(v, n);
	const cJSON *s = cJSON_GetArrayItem(outer, 0);
	cJSON *in = cJSON_GetArraySize(outer) == 1 && cJSON_IsString(s)
	                ? parse_whole(s->valuestring, strlen(s->valuestring))
	                : NULL;
	cJSON_Delete(outer);
	return in;
}

static cJSON *values_json(const char *v, et_pg_form *form)
{
	size_t n = strlen(v);
	while (n && blank(v[n - 1]))
		n--;
	while (n && blank(*v))
		v++, n--;
	*form = ET_PG_JSON;
	if (n >= 4 && v[0] == '[' && (v[1] == '\'' || v[1] == '"') && v[n - 1] == ']' &&
	    v[n - 2] == v[1]) {
		if (v[1] == '"') {
			*form = ET_PG_JSON_LIST;
			return from_json_list(v, n);
		}
		*form = ET_PG_PYREPR;
		return parse_whole(v + 2, n - 4);
	}
	return parse_whole(v, n);
}

/* The ranks of a JSON array, in input order: returns their number with
 * *out malloc'ed (NULL when there are none), or -1 with *out NULL when arr
 * is not an array of ranks. */
static long json_ranks(const cJSON *arr, uint32_t **out)
{
	*out = NULL;
	if (!cJSON_IsArray(arr))
		return -1;
	long n = cJSON_GetArraySize(arr);
	if (n == 0)
		return 0;
	uint32_t *r = et_xmalloc((size_t)n * sizeof *r);
	long k = 0;
	for (const cJSON *x = arr->child; x; x = x->next) {
		double d = x->valuedouble;
		if (!cJSON_IsNumber(x) || !(d >= 0 && d <= UINT32_MAX) ||
		    d != (double)(uint32_t)d) {
			free(r);
			return -1;
		}
		r[k++] = (uint32_t)d;
	}
	*out = r;
	return k;
}

/* A definition's ranks, or -1 when o is not a definition. */
static long def_ranks(const cJSON *o, uint32_t **r)
{
	*r = NULL;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "pg_name");
	if (!cJSON_IsObject(o) || !(cJSON_IsString(name) || cJSON_IsNumber(name)))
		return -1;
	return json_ranks(cJSON_GetObjectItemCaseSensitive(o, "ranks"), r);
}

/* The definitions' JSON, or NULL when values is not a definition list. */
static cJSON *values_defs(const char *values, et_pg_form *form)
{
	if (!values || !*values)
		return NULL;
	cJSON *root = values_json(values, form);
	bool ok = cJSON_IsArray(root) && root->child;
	for (const cJSON *o = ok ? root->child : NULL; o && ok; o = o->next) {
		uint32_t *r;
		ok = def_ranks(o, &r) >= 0;
		free(r);
	}
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

int et_pg_values_parse(const char *values, et_pg_list *out)
{
	memset(out, 0, sizeof *out);
	et_pg_form form;
	cJSON *root = values_defs(values, &form);
	if (!root)
		return -1;
	out->form = form;
	for (const cJSON *o = root->child; o; o = o->next) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "pg_name");
		char num[32];
		if (!cJSON_IsString(name))
			snprintf(num, sizeof num, "%.0f", name->valuedouble);
		uint32_t *r;
		long n = def_ranks(o, &r);
		list_add(out, cJSON_IsString(name) ? name->valuestring : num, r, (size_t)n);
	}
	cJSON_Delete(root);
	return 0;
}

bool et_pg_whole_world(const uint32_t *ranks, size_t n, uint32_t world)
{
	if (n == 0)
		return true;
	if (n != world)
		return false;
	char *seen = et_xcalloc(world, 1);
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		ok = ranks[k] < world && !seen[ranks[k]];
		if (ok)
			seen[ranks[k]] = 1;
	}
	free(seen);
	return ok;
}

/* json.dumps layout of a cJSON value (integers as integers, not with
 * cJSON's exponent forms). */
static void dump(const cJSON *v, et_buf *b)
{
	et_jsonw j;
	et_jsonw_init(&j, NULL, b, ET_JSONW_SPACED, 0);
	et_jsonw_set_tree_ints(&j, true);
	et_jsonw_cjson(&j, v);
	et_jsonw_done(&j);
}

static void set_number(cJSON *o, const char *key, double v)
{
	cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
	if (cJSON_IsNumber(it))
		cJSON_SetNumberValue(it, v);
}

/* The definitions' text back in the form the values were written in. */
static char *rewrap(char *text, et_pg_form form)
{
	if (form == ET_PG_JSON)
		return text;
	et_buf b = {0};
	if (form == ET_PG_PYREPR) {
		et_buf_puts(&b, "['");
		et_buf_puts(&b, text);
		et_buf_puts(&b, "']");
	} else {
		et_jsonw j;
		et_jsonw_init(&j, NULL, &b, ET_JSONW_COMPACT, 0);
		et_jsonw_arr(&j);
		et_jsonw_str(&j, text);
		et_jsonw_end(&j);
		et_jsonw_done(&j);
	}
	et_buf_putc(&b, 0);
	free(text);
	return (char *)b.data;
}

char *et_pg_values_resize_world(const char *values, uint32_t old_world, uint32_t new_world)
{
	et_pg_form form;
	cJSON *root = values_defs(values, &form);
	if (!root)
		return NULL;
	for (cJSON *o = root->child; o; o = o->next) {
		uint32_t *r;
		long n = def_ranks(o, &r);
		bool whole = et_pg_whole_world(r, (size_t)n, old_world);
		free(r);
		if (!whole)
			continue;
		if (n) {
			cJSON *nr = cJSON_CreateArray();
			for (uint32_t k = 0; k < new_world; k++)
				cJSON_AddItemToArray(nr, cJSON_CreateNumber(k));
			cJSON_ReplaceItemInObjectCaseSensitive(o, "ranks", nr);
		}
		set_number(o, "group_size", new_world);
		set_number(o, "pg_size", new_world);
	}
	et_buf b = {0};
	dump(root, &b);
	et_buf_putc(&b, 0);
	cJSON_Delete(root);
	return rewrap((char *)b.data, form);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

size_t et_pg_ranks_find(const uint32_t *r, size_t n, uint32_t rank)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && r[lo] == rank ? lo : n;
}

size_t et_pg_ranks_unique(uint32_t *r, size_t n)
{
	if (n < 2)
		return n;
	qsort(r, n, sizeof *r, cmp_u32);
	size_t w = 1;
	for (size_t k = 1; k < n; k++)
		if (r[k] != r[w - 1])
			r[w++] = r[k];
	return w;
}

/* A comm-group file being read: the text (for lines), where it is, and
 * the member index of each id seen (a map: files may hold many groups). */
typedef struct gfile {
	const char *text, *name;
	size_t len;
	et_error *e;
	et_hmap seen;
} gfile;

/* "NAME: line L: group ID: what" about member k, exit 3. */
static int group_fail(const gfile *f, size_t k, const cJSON *g, const char *what)
{
	char id[96];
	return et_fail(f->e, ET_EXIT_DATA, "%s: line %lu: group %s%s", f->name,
	               et_jsonfile_line_of(f->text, f->len, k), et_quote(g->string, id, sizeof id),
	               what);
}

static int group_ranks(const gfile *f, size_t k, const cJSON *g, uint32_t **r)
{
	long n = json_ranks(g, r);
	char what[96];
	if (n < 0 && cJSON_IsArray(g))
		return group_fail(f, k, g, ": expected an array of ranks (integers 0..2^32-1)");
	if (n < 0) {
		snprintf(what, sizeof what, ": expected an array of ranks, got %s",
		         et_jsonfile_kind(g));
		return group_fail(f, k, g, what);
	}
	if (n == 0)
		return group_fail(f, k, g, " has no ranks");
	return (int)n;
}

/* Member k of a file: checked, normalised and added to out (group 0 is
 * only counted: *zero is the first one's member index). */
static int file_group(gfile *f, const cJSON *root, const cJSON *g, size_t k, et_pg_list *out,
                      long *zero)
{
	int32_t id;
	if (!et_pg_id(g->string, &id))
		return group_fail(
		    f, k, g,
		    ": an id must start with an integer within the int range (ASTRA-sim's "
		    "std::stoi aborts otherwise)");
	uint64_t *at = et_hmap_put(&f->seen, (uint64_t)(uint32_t)id, 0, k);
	if (*at != k) {
		size_t first = (size_t)*at;
		char what[160], q[96];
		const cJSON *fx = root->child;
		for (size_t j = 0; j < first; j++)
			fx = fx->next;
		snprintf(what, sizeof what, " is given twice (as %s on line %lu)",
		         et_quote(fx->string, q, sizeof q),
		         et_jsonfile_line_of(f->text, f->len, first));
		return group_fail(f, k, g, what);
	}
	uint32_t *r;
	int n = group_ranks(f, k, g, &r);
	if (n < 0)
		return -1;
	if (id == 0) {
		free(r);
		if (*zero < 0)
			*zero = (long)k;
		return 0;
	}
	list_add(out, g->string, r, et_pg_ranks_unique(r, (size_t)n));
	out->g[out->n - 1].id = id;
	return 0;
}

static void zero_warning(const gfile *f, size_t k, et_pg_list *out)
{
	char w[512];
	snprintf(w, sizeof w,
	         "%s: line %lu: group 0 is ignored: pg_name \"0\" (and \"\") means all ranks, as "
	         "in ASTRA-sim, which never uses a group 0",
	         f->name, et_jsonfile_line_of(f->text, f->len, k));
	out->warning = et_xmalloc(strlen(w) + 1);
	memcpy(out->warning, w, strlen(w) + 1);
}

static int file_groups(cJSON *root, gfile *f, et_pg_list *out)
{
	memset(out, 0, sizeof *out);
	if (!root)
		return -1;
	int rc = 0;
	long zero = -1;
	if (!cJSON_IsObject(root))
		rc =
		    et_fail(f->e, ET_EXIT_DATA,
		            "%s: expected a comm-group JSON object {\"<id>\": [rank, ...]}, got %s",
		            f->name, et_jsonfile_kind(root));
	size_t k = 0;
	for (const cJSON *g = rc ? NULL : root->child; g && rc == 0; g = g->next, k++)
		rc = file_group(f, root, g, k, out, &zero);
	cJSON_Delete(root);
	et_hmap_free(&f->seen);
	if (rc < 0)
		et_pg_list_free(out);
	else if (zero >= 0)
		zero_warning(f, (size_t)zero, out);
	return rc;
}

int et_pg_file_parse(const char *text, size_t len, const char *name, et_pg_list *out, et_error *e)
{
	gfile f = {text, name, len, e, {0}};
	return file_groups(et_jsonfile_parse(text, len, name, e), &f, out);
}

int et_pg_file_read(const char *path, et_pg_list *out, et_error *e)
{
	et_buf b = {0};
	int rc = et_buf_read_file(&b, path, ET_JSONFILE_MAX, e);
	if (rc == 0)
		rc = et_pg_file_parse(b.data ? (const char *)b.data : "", b.len, path, out, e);
	else
		memset(out, 0, sizeof *out);
	et_buf_free(&b);
	return rc;
}

/* A comm-group file at path: ASTRA-sim's {"id": [ranks]} in json.dumps'
 * layout, one line, its members written by body. */
static int write_groups(const char *path, void (*body)(et_jsonw *, const void *), const void *ctx,
                        et_error *e)
{
	et_output *o;
	if (et_output_open(&o, path, false, e) < 0)
		return -1;
	et_jsonw j;
	et_jsonw_init(&j, et_output_file(o), NULL, ET_JSONW_SPACED, 0);
	et_jsonw_set_lines(&j, true);
	et_jsonw_obj(&j);
	body(&j, ctx);
	et_jsonw_end(&j);
	et_jsonw_done(&j); /* f's errors: et_output_close_deferred's */
	return et_output_close_deferred(o, e);
}

typedef struct consecutive {
	uint32_t world, g;
} consecutive;

static void consecutive_body(et_jsonw *j, const void *ctx)
{
	const consecutive *c = ctx;
	for (uint32_t id = 0; id < c->world / c->g; id++) {
		char key[16];
		snprintf(key, sizeof key, "%u", id + 1);
		et_jsonw_karr(j, key);
		for (uint32_t k = 0; k < c->g; k++)
			et_jsonw_uint(j, id * c->g + k);
		et_jsonw_end(j);
	}
}

int et_pg_write_consecutive(const char *path, uint32_t world, uint32_t g, et_error *e)
{
	consecutive c = {world, g};
	return write_groups(path, consecutive_body, &c, e);
}

static void list_body(et_jsonw *j, const void *ctx)
{
	const et_pg_list *l = ctx;
	for (size_t i = 0; i < l->n; i++) {
		et_jsonw_karr(j, l->g[i].name);
		for (size_t k = 0; k < l->g[i].n_ranks; k++)
			et_jsonw_uint(j, l->g[i].ranks[k]);
		et_jsonw_end(j);
	}
}

int et_pg_write_list(const char *path, const et_pg_list *l, et_error *e)
{
	return write_groups(path, list_body, l, e);
}

bool et_pg_id(const char *s, int32_t *id)
{
	while (isspace((unsigned char)*s))
		s++;
	bool neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	int64_t v = 0;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return false;
	}
	v = neg ? -v : v;
	if (v > INT32_MAX || v < INT32_MIN)
		return false;
	*id = (int32_t)v;
	return true;
}

bool et_pg_is_all(const char *pg_name)
{
	int32_t id;
	return !pg_name || !*pg_name || (et_pg_id(pg_name, &id) && id == 0);
}
