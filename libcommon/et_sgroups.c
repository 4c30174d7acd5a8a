/* et_sgroups: the comm groups of stream section headers (see et_sgroups.h). */
#include "et_sgroups.h"
#include "et_codec.h"
#include "et_mem.h"
#include "et_strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

static void put_varint(et_buf *b, uint64_t v)
{
	uint8_t t[10];
	et_buf_append(b, t, (size_t)et_varint_put(t, v));
}

static void put_name(et_sgroups_w *w, const char *name)
{
	size_t n = strlen(name);
	put_varint(&w->body, n);
	et_buf_append(&w->body, name, n);
	w->n++;
}

static void put_run(et_buf *b, uint32_t first, uint32_t count, uint32_t stride)
{
	put_varint(b, first);
	put_varint(b, count);
	if (count >= 2)
		put_varint(b, stride);
}

void et_sgroups_w_reset(et_sgroups_w *w)
{
	w->body.len = 0;
	w->n = 0;
}

void et_sgroups_w_free(et_sgroups_w *w)
{
	et_buf_free(&w->body);
	w->n = 0;
}

void et_sgroups_w_ap(et_sgroups_w *w, const char *name, uint32_t first, uint32_t count,
                     uint32_t stride)
{
	put_name(w, name);
	put_varint(&w->body, 1);
	put_run(&w->body, first, count, count >= 2 ? stride : 0);
}

/* The greedy run that starts at r[i]: its length. */
static size_t run_len(const uint32_t *r, size_t n, size_t i)
{
	if (i + 1 >= n)
		return 1;
	uint32_t d = r[i + 1] - r[i];
	size_t c = 2;
	while (i + c < n && r[i + c] - r[i + c - 1] == d)
		c++;
	return c;
}

void et_sgroups_w_ranks(et_sgroups_w *w, const char *name, const uint32_t *r, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i += run_len(r, n, i))
		k++;
	put_name(w, name);
	put_varint(&w->body, k);
	for (size_t i = 0, c; i < n; i += c) {
		c = run_len(r, n, i);
		put_run(&w->body, r[i], (uint32_t)c, c >= 2 ? r[i + 1] - r[i] : 0);
	}
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void et_sgroups_w_append(et_sgroups_w *w, const et_sgroups_w *o)
{
	et_buf_append(&w->body, o->body.data, o->body.len);
	w->n += o->n;
}

void et_sgroups_w_payload(const et_sgroups_w *w, et_buf *out)
{
	out->len = 0;
	if (!w->n)
		return;
	put_varint(out, w->n);
	et_buf_append(out, w->body.data, w->body.len);
}

void et_sgroups_record(const uint8_t *payload, size_t n, et_buf *out)
{
	uint8_t hd[8];
	memcpy(hd, ET_SGROUPS_TAG, 4);
	put_le32(hd + 4, (uint32_t)n);
	out->len = 0;
	et_buf_append(out, hd, 8);
	et_buf_append(out, payload, n);
}

/* ---- reading ---- */

typedef struct rd {
	const uint8_t *p;
	size_t n, pos;
	bool overlong; /* the last get failed on a varint not in its shortest form */
} rd;

/* Varints in their shortest form only: the encoding stays canonical, so
 * that equal members are equal bytes. */
static int get(rd *r, uint64_t *v)
{
	int k = r->pos < r->n ? et_varint_get(r->p + r->pos, r->n - r->pos, v) : 0;
	if (k <= 0)
		return -1;
	if (k > 1 && r->p[r->pos + (size_t)k - 1] == 0) {
		r->overlong = true;
		return -1;
	}
	r->pos += (size_t)k;
	return 0;
}

/* why, or what an overlong varint makes of it */
static const char *vwhy(const rd *r, const char *why)
{
	return r->overlong ? "a varint longer than it needs to be" : why;
}

/* One group at r->pos into g; lim: members are below it, and a group has
 * at most lim. Returns 0, or -1 with *why set and r->pos at the fault. */
static int parse_group(rd *r, uint64_t lim, et_sgroup *g, const char **why)
{
	uint64_t nl, k;
	g->at = r->pos;
	if (get(r, &nl) < 0)
		return r->pos = g->at, *why = vwhy(r, "truncated group name"), -1;
	if (nl < 1 || nl > 255)
		return r->pos = g->at, *why = "group name length not in 1..255", -1;
	if (nl > r->n - r->pos)
		return r->pos = g->at, *why = "truncated group name", -1;
	g->name = (const char *)r->p + r->pos;
	g->name_len = (size_t)nl;
	if (memchr(g->name, 0, g->name_len))
		return *why = "NUL byte in a group name", -1;
	r->pos += (size_t)nl;
	size_t at = r->pos;
	if (get(r, &k) < 0)
		return *why = vwhy(r, "truncated run count"), -1;
	if (k < 1 || k > r->n - r->pos)
		return r->pos = at, *why = "run count not in 1..the bytes left", -1;
	g->runs = r->p + r->pos;
	uint64_t members = 0, prev_last = 0, prev_count = 0, prev_stride = 0;
	for (uint64_t i = 0; i < k; i++) {
		uint64_t first, count, stride = 0;
		at = r->pos;
		if (get(r, &first) < 0 || get(r, &count) < 0 || (count >= 2 && get(r, &stride) < 0))
			return r->pos = at, *why = vwhy(r, "truncated run"), -1;
		if (count < 1 || count > lim)
			return r->pos = at, *why = "run member count not in 1..the world size", -1;
		if (count >= 2 && (stride < 1 || stride >= lim))
			return r->pos = at, *why = "run stride not in 1..the world size", -1;
		if (first >= lim || (count - 1) * stride >= lim - first)
			return r->pos = at, *why = "member beyond the world", -1;
		if (i > 0 && prev_count < 2)
			return r->pos = at, *why = "a one-member run before another run", -1;
		if (i > 0 && (first <= prev_last || first == prev_last + prev_stride))
			return r->pos = at,
			       *why = "runs not ascending and maximal (the greedy split of the "
			              "members)",
			       -1;
		members += count;
		if (members > lim)
			return r->pos = at, *why = "more members than the world size", -1;
		prev_last = first + (count - 1) * stride;
		prev_count = count;
		prev_stride = stride;
	}
	g->runs_len = (size_t)(r->p + r->pos - g->runs);
	g->n_members = (uint32_t)members;
	return 0;
}

static bool same_name(const et_sgroup *a, const et_sgroup *b)
{
	return a->name_len == b->name_len && memcmp(a->name, b->name, a->name_len) == 0;
}

/* A GRPS payload. Names are compared pairwise: at most
 * ET_SGROUPS_MAX_GROUPS of them. */
static int check_groups(const uint8_t *p, size_t n, uint64_t lim, size_t *bad, const char **why)
{
	rd r = {p, n, 0, false};
	uint64_t cnt;
	if (get(&r, &cnt) < 0 || cnt < 1 || cnt > ET_SGROUPS_MAX_GROUPS)
		return *bad = 0, *why = vwhy(&r, "group count not in 1..1024"), -1;
	et_sgroup *seen = et_xmalloc((size_t)cnt * sizeof *seen);
	int rc = 0;
	for (uint64_t i = 0; i < cnt && rc == 0; i++) {
		if (parse_group(&r, lim, &seen[i], why) < 0) {
			*bad = r.pos;
			rc = -1;
		}
		for (uint64_t j = 0; j < i && rc == 0; j++)
			if (same_name(&seen[i], &seen[j])) {
				*bad = seen[i].at;
				*why = "a group named twice";
				rc = -1;
			}
	}
	free(seen);
	if (rc == 0 && r.pos != n)
		return *bad = r.pos, *why = "bytes after the last group", -1;
	return rc;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int et_sgroups_check(const uint8_t *ext, size_t n, uint32_t world, const char *where, uint64_t base,
                     const uint8_t **grp, size_t *grp_len, size_t *grp_at, et_error *e)
{
	*grp = NULL;
	*grp_len = *grp_at = 0;
	size_t pos = 0, bad = 0;
	const char *why = NULL;
	uint64_t lim = world && world <= ET_MAX_WORLD ? world : ET_MAX_WORLD;
	while (pos < n && !why) {
		bad = pos;
		uint32_t len = n - pos >= 8 ? le32(ext + pos + 4) : 0;
		if (n - pos < 8 || len > n - pos - 8) {
			why = "truncated header record";
		} else if (memcmp(ext + pos, ET_SGROUPS_TAG, 4) != 0) {
			pos += 8 + (size_t)len; /* a record of a later format: skipped */
		} else if (*grp) {
			why = "a second GRPS record";
		} else if (check_groups(ext + pos + 8, len, lim, &bad, &why) < 0) {
			bad += pos + 8;
		} else {
			*grp = ext + pos + 8;
			*grp_len = len;
			*grp_at = pos + 8;
			pos += 8 + (size_t)len;
		}
	}
	if (!why)
		return 0;
	*grp = NULL;
	*grp_len = *grp_at = 0;
	return et_fail(e, ET_EXIT_DATA, "%s: byte %llu: comm groups: %s", where,
	               (unsigned long long)(base + bad), why);
}

int et_sgroups_next(const uint8_t *grp, size_t len, size_t *pos, et_sgroup *g)
{
	if (!grp || !len)
		return 0;
	rd r = {grp, len, *pos, false};
	if (r.pos == 0) {
		uint64_t cnt;
		if (get(&r, &cnt) < 0)
			return 0;
	}
	if (r.pos >= len)
		return 0;
	const char *why;
	if (parse_group(&r, (uint64_t)ET_MAX_WORLD + 1, g, &why) < 0)
		return 0; /* not reached for a checked payload */
	*pos = r.pos;
	return 1;
}

void et_sgroups_members(const et_sgroup *g, uint32_t *out)
{
	rd r = {g->runs, g->runs_len, 0, false};
	size_t k = 0;
	while (r.pos < r.n) {
		uint64_t first, count, stride = 0;
		if (get(&r, &first) < 0 || get(&r, &count) < 0 ||
		    (count >= 2 && get(&r, &stride) < 0))
			return;
		for (uint64_t i = 0; i < count && k < g->n_members; i++)
			out[k++] = (uint32_t)(first + i * stride);
	}
}

/* ---- the world's groups ---- */

typedef struct acc_g {
	uint32_t input; /* the first rank that gave it: its input (in inputs) */
	uint32_t rank;  /* and rank */
	uint64_t at;    /* and the group's byte there */
	/* its runs in acc->runs: 32 bits hold them, as every run holds a
	 * member and takes at most 15 bytes, and the groups hold at most
	 * ET_SGROUPS_MAX_MEMBERS members in all (32 bytes a group, not 40: a
	 * stream of 131,072 ranks names 147,584 groups) */
	uint32_t runs_off, runs_len;
	uint32_t n_members;
} acc_g;

struct et_sgroups_acc {
	et_strmap names;  /* id = index in g */
	et_strmap inputs; /* the inputs' names */
	acc_g *g;
	size_t cap;
	et_buf runs;
	uint64_t members;
};

et_sgroups_acc *et_sgroups_acc_new(void)
{
	return et_xcalloc(1, sizeof(et_sgroups_acc));
}

void et_sgroups_acc_free(et_sgroups_acc *a)
{
	if (!a)
		return;
	et_strmap_free(&a->names);
	et_strmap_free(&a->inputs);
	free(a->g);
	et_buf_free(&a->runs);
	free(a);
}

size_t et_sgroups_acc_count(const et_sgroups_acc *a)
{
	return et_strmap_count(&a->names);
}

static int mismatch(const et_sgroups_acc *a, const et_rank_info *ri, const et_sgroup *g,
                    uint32_t id, et_error *e)
{
	char q[300];
	char name[256];
	memcpy(name, g->name, g->name_len);
	name[g->name_len] = 0;
	return et_fail(e, ET_EXIT_DATA,
	               "%s: rank %u: byte %llu: comm group %s: other members than %s rank %u "
	               "gives it (byte %llu)",
	               ri->input, ri->rank, (unsigned long long)(ri->groups_off + g->at),
	               et_quote(name, q, sizeof q), et_strmap_key(&a->inputs, a->g[id].input),
	               a->g[id].rank, (unsigned long long)a->g[id].at);
}

int et_sgroups_acc_add(et_sgroups_acc *a, const et_rank_info *ri, et_error *e)
{
	size_t pos = 0;
	et_sgroup g;
	int added = 0;
	uint32_t in = ri->groups_len ? et_strmap_intern_str(&a->inputs, ri->input) : 0;
	while (et_sgroups_next(ri->groups, ri->groups_len, &pos, &g)) {
		uint32_t n = et_strmap_count(&a->names);
		uint32_t id = et_strmap_intern(&a->names, g.name, g.name_len);
		if (id < n) {
			const acc_g *o = &a->g[id];
			if (o->runs_len != g.runs_len ||
			    memcmp(a->runs.data + o->runs_off, g.runs, g.runs_len) != 0)
				return mismatch(a, ri, &g, id, e);
			continue;
		}
		a->members += g.n_members;
		if (a->members > ET_SGROUPS_MAX_MEMBERS)
			return et_fail(e, ET_EXIT_DATA,
			               "%s: rank %u: byte %llu: comm groups: more than %u members "
			               "in all",
			               ri->input, ri->rank,
			               (unsigned long long)(ri->groups_off + g.at),
			               ET_SGROUPS_MAX_MEMBERS);
		ET_GROW(a->g, a->cap, (size_t)id + 1);
		a->g[id] = (acc_g){in,
		                   ri->rank,
		                   ri->groups_off + g.at,
		                   (uint32_t)a->runs.len,
		                   (uint32_t)g.runs_len,
		                   g.n_members};
		et_buf_append(&a->runs, g.runs, g.runs_len);
		added = 1;
	}
	return added;
}

typedef struct id_of {
	int32_t id;
	uint32_t k;
} id_of;

static int by_id(const void *x, const void *y)
{
	const id_of *a = x, *b = y;
	return a->id < b->id ? -1 : a->id > b->id ? 1 : a->k < b->k ? -1 : a->k > b->k;
}

static void add_warning(et_pg_list *l, const char *name, const char *why)
{
	if (l->warning)
		return; /* the first one says it */
	char q[300], w[512];
	snprintf(w, sizeof w, "stream comm group %s is ignored: %s", et_quote(name, q, sizeof q),
	         why);
	l->warning = et_xstrdup(w);
}

int et_sgroups_acc_list(const et_sgroups_acc *a, et_pg_list *out, et_error *e)
{
	memset(out, 0, sizeof *out);
	uint32_t n = et_strmap_count(&a->names);
	id_of *ids = et_xmalloc(((size_t)n + 1) * sizeof *ids);
	uint32_t m = 0;
	for (uint32_t k = 0; k < n; k++) {
		const char *name = et_strmap_key(&a->names, k);
		int32_t id;
		if (!et_pg_id(name, &id))
			add_warning(out, name, "its name has no group number, as ASTRA-sim needs");
		else if (id == 0)
			add_warning(
			    out, name,
			    "pg_name \"0\" (and \"\") means all ranks, as in ASTRA-sim, which "
			    "never uses a group 0");
		else
			ids[m++] = (id_of){id, k};
	}
	qsort(ids, m, sizeof *ids, by_id);
	for (uint32_t i = 1; i < m; i++)
		if (ids[i].id == ids[i - 1].id) {
			char q1[300], q2[300];
			const acc_g *g = &a->g[ids[i].k];
			et_fail(e, ET_EXIT_DATA,
			        "%s: rank %u: byte %llu: comm groups %s and %s are both group %d",
			        et_strmap_key(&a->inputs, g->input), g->rank,
			        (unsigned long long)g->at,
			        et_quote(et_strmap_key(&a->names, ids[i - 1].k), q1, sizeof q1),
			        et_quote(et_strmap_key(&a->names, ids[i].k), q2, sizeof q2),
			        (int)ids[i].id);
			free(ids);
			et_pg_list_free(out);
			return -1;
		}
	out->g = et_xcalloc((size_t)m + 1, sizeof *out->g);
	out->cap = (size_t)m + 1;
	for (uint32_t i = 0; i < m; i++) {
		const acc_g *g = &a->g[ids[i].k];
		et_sgroup sg = {.runs = a->runs.data + g->runs_off,
		                .runs_len = g->runs_len,
		                .n_members = g->n_members};
		et_pg_group *pg = &out->g[out->n++];
		pg->name = et_xstrdup(et_strmap_key(&a->names, ids[i].k));
		pg->id = ids[i].id;
		pg->n_ranks = g->n_members;
		pg->ranks = et_xmalloc((size_t)g->n_members * sizeof *pg->ranks);
		et_sgroups_members(&sg, pg->ranks);
	}
	free(ids);
	return 0;
}
