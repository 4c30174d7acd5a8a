/* Process groups: the registry and the two ways groups get defined. */
#include "pgroups.h"
#include "et_buf.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct groups {
	group *g;
	size_t n, cap;
	uint32_t *hash; /* gid + 1, 0 = empty */
	size_t hcap;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static void rehash(groups *gs)
{
	free(gs->hash);
	gs->hcap = gs->hcap ? gs->hcap * 2 : 64;
	gs->hash = et_xcalloc(gs->hcap, sizeof *gs->hash);
	for (size_t i = 0; i < gs->n; i++) {
		size_t h = str_hash(gs->g[i].name) & (gs->hcap - 1);
		while (gs->hash[h])
			h = (h + 1) & (gs->hcap - 1);
		gs->hash[h] = (uint32_t)i + 1;
	}
}

static uint32_t add_group(groups *gs, const char *name)
{
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? gs->cap * 2 : 16;
		gs->g = et_xrealloc(gs->g, gs->cap * sizeof *gs->g);
	}
	group *g = &gs->g[gs->n];
	memset(g, 0, sizeof *g);
	g->name = et_xstrdup(name);
	g->def_rank = -1;
	gs->n++;
	if (gs->n * 2 > gs->hcap)
		rehash(gs);
	else {
		size_t h = str_hash(name) & (gs->hcap - 1);
		while (gs->hash[h])
			h = (h + 1) & (gs->hcap - 1);
		gs->hash[h] = (uint32_t)gs->n;
	}
	return (uint32_t)gs->n - 1;
}

groups *groups_new(void)
{
	groups *gs = et_xcalloc(1, sizeof *gs);
	uint32_t all = add_group(gs, "");
	gs->g[all].all = gs->g[all].defined = true;
	return gs;
}

void groups_free(groups *gs)
{
	if (!gs)
		return;
	for (size_t i = 0; i < gs->n; i++) {
		free(gs->g[i].name);
		free(gs->g[i].ranks);
	}
	free(gs->g);
	free(gs->hash);
	free(gs);
}

size_t groups_count(const groups *gs)
{
	return gs->n;
}

const group *groups_get(const groups *gs, uint32_t gid)
{
	return &gs->g[gid];
}

uint32_t groups_id(groups *gs, const char *name)
{
	if (!name || !*name || strcmp(name, "0") == 0)
		return 0;
	size_t h = str_hash(name) & (gs->hcap - 1);
	for (; gs->hash[h]; h = (h + 1) & (gs->hcap - 1))
		if (strcmp(gs->g[gs->hash[h] - 1].name, name) == 0)
			return gs->hash[h] - 1;
	return add_group(gs, name);
}

bool groups_has_rank(const group *g, uint32_t rank)
{
	if (g->all)
		return true;
	size_t lo = 0, hi = g->n_ranks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (g->ranks[mid] < rank)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n_ranks && g->ranks[lo] == rank;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static bool same_members(const group *g, const uint32_t *r, size_t n)
{
	if (n == 0 || g->all)
		return n == 0 && g->all;
	return g->n_ranks == n && memcmp(g->ranks, r, n * sizeof *r) == 0;
}

int groups_define(groups *gs, const char *name, const uint32_t *ranks, size_t n, bool from_file,
                  int64_t by_rank, uint32_t *gid_out)
{
	uint32_t gid = groups_id(gs, name);
	*gid_out = gid;
	group *g = &gs->g[gid];
	uint32_t *r = NULL;
	if (n) { /* sort and drop repeats, so comparisons are exact */
		r = et_xmalloc(n * sizeof *r);
		memcpy(r, ranks, n * sizeof *r);
		qsort(r, n, sizeof *r, cmp_u32);
		size_t w = 1;
		for (size_t k = 1; k < n; k++)
			if (r[k] != r[w - 1])
				r[w++] = r[k];
		n = w;
	}
	int rc = 0;
	if (gid == 0) {
		/* "" and "0" are all ranks whatever a definition says. */
	} else if (g->defined) {
		rc = same_members(g, r, n) ? 0 : 1;
	} else {
		g->defined = true;
		g->from_file = from_file;
		g->def_rank = by_rank;
		g->all = n == 0;
		g->ranks = r;
		g->n_ranks = n;
		r = NULL;
	}
	free(r);
	return rc;
}

/* Ranks from a JSON array of non-negative integers; -1 if not one. */
static long json_ranks(const cJSON *a, uint32_t **out)
{
	*out = NULL;
	if (!cJSON_IsArray(a))
		return -1;
	int n = cJSON_GetArraySize(a);
	uint32_t *r = et_xmalloc(((size_t)n + 1) * sizeof *r);
	int k = 0;
	for (const cJSON *x = a->child; x; x = x->next) {
		if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > UINT32_MAX ||
		    x->valuedouble != (double)(uint32_t)x->valuedouble) {
			free(r);
			return -1;
		}
		r[k++] = (uint32_t)x->valuedouble;
	}
	*out = r;
	return k;
}

int groups_load_file(groups *gs, const char *path, et_error *e)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return et_fail(e, 4, "%s: cannot open: %s", path, strerror(errno));
	et_buf b = {0};
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && b.len < (64u << 20))
		et_buf_append(&b, chunk, got);
	bool bad_read = ferror(f);
	fclose(f);
	if (bad_read) {
		et_buf_free(&b);
		return et_fail(e, 4, "%s: read error", path);
	}
	cJSON *root = cJSON_ParseWithLength((const char *)b.data, b.len);
	et_buf_free(&b);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return et_fail(e, 3, "%s: not a comm-group JSON object {\"<id>\": [rank, ...]}",
		               path);
	}
	int rc = 0;
	for (const cJSON *x = root->child; x && !rc; x = x->next) {
		uint32_t *r, gid;
		long n = json_ranks(x, &r);
		if (n < 0) {
			rc = et_fail(e, 3, "%s: group \"%s\": expected an array of ranks", path,
			             x->string);
			break;
		}
		if (n == 0)
			rc = et_fail(e, 3, "%s: group \"%s\" has no ranks", path, x->string);
		else if (groups_define(gs, x->string, r, (size_t)n, true, -1, &gid))
			rc = et_fail(e, 3, "%s: group \"%s\" is defined twice", path, x->string);
		free(r);
	}
	cJSON_Delete(root);
	return rc;
}

/* The JSON inside a process-group node's inputs.values: ASTRA-sim strips
 * the Python repr's "['" and "']"; a JSON list holding the string (our
 * JSON form of the same value) and the bare JSON are accepted too. */
static cJSON *pg_json(const char *v)
{
	size_t n = strlen(v);
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\n'))
		n--;
	while (n && (*v == ' ' || *v == '\n'))
		v++, n--;
	if (n >= 4 && v[0] == '[' && (v[1] == '\'' || v[1] == '"') && v[n - 1] == ']' &&
	    v[n - 2] == v[1]) {
		if (v[1] == '"') { /* a JSON list of one string */
			cJSON *outer = cJSON_ParseWithLength(v, n);
			cJSON *s = cJSON_GetArrayItem(outer, 0);
			cJSON *in = cJSON_IsString(s) ? cJSON_Parse(s->valuestring) : NULL;
			cJSON_Delete(outer);
			return in;
		}
		return cJSON_ParseWithLength(v + 2, n - 4);
	}
	return cJSON_ParseWithLength(v, n);
}

int pg_parse_values(const char *values, pg_def_fn def, void *ctx)
{
	if (!values || !*values)
		return -1;
	cJSON *root = pg_json(values);
	if (!cJSON_IsArray(root) || !root->child) {
		cJSON_Delete(root);
		return -1;
	}
	/* Validate everything first, so a half-good list defines nothing. */
	for (const cJSON *o = root->child; o; o = o->next) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "pg_name");
		uint32_t *r;
		long n = json_ranks(cJSON_GetObjectItemCaseSensitive(o, "ranks"), &r);
		free(r);
		if (!cJSON_IsObject(o) || n < 0 ||
		    !(cJSON_IsString(name) || cJSON_IsNumber(name))) {
			cJSON_Delete(root);
			return -1;
		}
	}
	int count = 0;
	for (const cJSON *o = root->child; o; o = o->next, count++) {
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "pg_name");
		char num[32];
		const char *nm = name->valuestring;
		if (cJSON_IsNumber(name)) {
			snprintf(num, sizeof num, "%.0f", name->valuedouble);
			nm = num;
		}
		uint32_t *r;
		long n = json_ranks(cJSON_GetObjectItemCaseSensitive(o, "ranks"), &r);
		def(ctx, nm, r, (size_t)n);
		free(r);
	}
	cJSON_Delete(root);
	return count;
}
