/* et_pg: process-group definitions and comm-group files (see et_pg.h). */
#include "et_pg.h"
#include "et_buf.h"
#include "et_jsonfile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool is_def(const cJSON *o)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "pg_name");
	uint32_t *r;
	long n = et_pg_ranks(cJSON_GetObjectItemCaseSensitive(o, "ranks"), &r);
	free(r);
	return cJSON_IsObject(o) && n >= 0 && (cJSON_IsString(name) || cJSON_IsNumber(name));
}

cJSON *et_pg_values_parse(const char *values, et_pg_form *form)
{
	et_pg_form f;
	if (!values || !*values)
		return NULL;
	cJSON *root = values_json(values, &f);
	bool ok = cJSON_IsArray(root) && root->child;
	for (const cJSON *o = ok ? root->child : NULL; o && ok; o = o->next)
		ok = is_def(o);
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	if (form)
		*form = f;
	return root;
}

const char *et_pg_def_name(const cJSON *def, char *num, size_t cap)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(def, "pg_name");
	if (cJSON_IsString(name))
		return name->valuestring;
	snprintf(num, cap, "%.0f", cJSON_IsNumber(name) ? name->valuedouble : 0.0);
	return num;
}

long et_pg_ranks(const cJSON *arr, uint32_t **out)
{
	*out = NULL;
	if (!cJSON_IsArray(arr))
		return -1;
	long n = 0;
	for (const cJSON *x = arr->child; x; x = x->next)
		n++;
	uint32_t *r = et_xmalloc(((size_t)n + 1) * sizeof *r);
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

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
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

static bool seen_before(const cJSON *root, const cJSON *g)
{
	for (const cJSON *x = root->child; x != g; x = x->next)
		if (strcmp(x->string, g->string) == 0)
			return true;
	return false;
}

/* One group: checked, normalised and handed to fn. */
static int file_group(const cJSON *root, const cJSON *g, const char *name, et_pg_group_fn fn,
                      void *ctx, et_error *e)
{
	uint32_t *r;
	long n = et_pg_ranks(g, &r);
	int rc = 0;
	char id[96];
	if (n < 0)
		rc = et_fail(e, ET_EXIT_DATA, "%s: group %s: expected an array of ranks", name,
		             et_quote(g->string, id, sizeof id));
	else if (n == 0)
		rc = et_fail(e, ET_EXIT_DATA, "%s: group %s has no ranks", name,
		             et_quote(g->string, id, sizeof id));
	else if (seen_before(root, g))
		rc = et_fail(e, ET_EXIT_DATA, "%s: group %s is given twice", name,
		             et_quote(g->string, id, sizeof id));
	else
		rc = fn(ctx, g->string, r, et_pg_ranks_unique(r, (size_t)n), e) < 0 ? -1 : 0;
	free(r);
	return rc;
}

static int file_groups(cJSON *root, const char *name, et_pg_group_fn fn, void *ctx, et_error *e)
{
	if (!root)
		return -1;
	int rc = 0;
	if (!cJSON_IsObject(root))
		rc = et_fail(e, ET_EXIT_DATA,
		             "%s: expected a comm-group JSON object {\"<id>\": [rank, ...]}", name);
	for (const cJSON *g = rc ? NULL : root->child; g && rc == 0; g = g->next)
		rc = file_group(root, g, name, fn, ctx, e);
	cJSON_Delete(root);
	return rc;
}

int et_pg_file_parse(const char *text, size_t len, const char *name, et_pg_group_fn fn, void *ctx,
                     et_error *e)
{
	return file_groups(et_jsonfile_parse(text, len, name, e), name, fn, ctx, e);
}

int et_pg_file_read(const char *path, et_pg_group_fn fn, void *ctx, et_error *e)
{
	return file_groups(et_jsonfile_read(path, e), path, fn, ctx, e);
}
