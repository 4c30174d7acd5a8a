/* Process groups: the registry and the two ways groups get defined. */
#include "et-validate/checks/pgroups.h"
#include "et_buf.h"
#include "et_mem.h"
#include "et_pg.h"
#include "et_sgroups.h"
#include "et_strmap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* g[gid] is the group whose pg_name has id gid in names: a group is added
 * exactly when its name is first interned, so the two stay in step. */
struct groups {
	group *g;
	size_t n, cap;
	et_strmap names;
};

static uint32_t add_group(groups *gs)
{
	ET_GROW(gs->g, gs->cap, (size_t)gs->n + 1);
	group *g = &gs->g[gs->n];
	memset(g, 0, sizeof *g);
	g->def_rank = -1;
	return (uint32_t)gs->n++;
}

groups *groups_new(void)
{
	groups *gs = et_xcalloc(1, sizeof *gs);
	et_strmap_intern_str(&gs->names, "");
	uint32_t all = add_group(gs);
	gs->g[all].all = gs->g[all].defined = true;
	return gs;
}

void groups_free(groups *gs)
{
	if (!gs)
		return;
	for (size_t i = 0; i < gs->n; i++)
		free(gs->g[i].ranks);
	free(gs->g);
	et_strmap_free(&gs->names);
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

const char *groups_name(const groups *gs, uint32_t gid)
{
	return et_strmap_key(&gs->names, gid);
}

/* Names that ASTRA-sim reads as one group id ("1", "1.0", " 1") are one
 * group, named by the id; other names are themselves. */
uint32_t groups_id(groups *gs, const char *name)
{
	if (!name || !*name)
		return 0;
	int32_t id;
	char canon[16];
	if (et_pg_id(name, &id)) {
		if (id == 0)
			return 0;
		snprintf(canon, sizeof canon, "%d", (int)id);
		name = canon;
	}
	uint32_t gid = et_strmap_intern_str(&gs->names, name);
	if (gid == gs->n)
		add_group(gs);
	return gid;
}

uint32_t groups_scope(groups *gs, const et_dims *d, uint8_t active, uint32_t base)
{
	char name[96];
	size_t len = (size_t)snprintf(name, sizeof name, "0[dims ");
	for (int k = 0, first = 1; k < d->n; k++)
		if (active >> k & 1) {
			len += (size_t)snprintf(name + len, sizeof name - len, "%s%d",
			                        first ? "" : ",", k);
			first = 0;
		}
	snprintf(name + len, sizeof name - len, " from rank %u]", base);
	uint32_t gid = et_strmap_intern_str(&gs->names, name);
	if (gid < gs->n)
		return gid;
	add_group(gs);
	group *g = &gs->g[gid];
	g->defined = true;
	g->n_ranks = et_dims_scope_size(d, active);
	g->ranks = et_xmalloc(g->n_ranks * sizeof *g->ranks);
	for (uint32_t k = 0; k < g->n_ranks; k++) /* ascending, as groups keep them */
		g->ranks[k] = et_dims_scope_rank(d, active, base, k);
	return gid;
}

bool groups_has_rank(const group *g, uint32_t rank)
{
	if (g->all)
		return true;
	return et_pg_ranks_find(g->ranks, g->n_ranks, rank) < g->n_ranks;
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
	if (n) { /* sorted and unique, so comparisons are exact */
		r = et_xmalloc(n * sizeof *r);
		memcpy(r, ranks, n * sizeof *r);
		n = et_pg_ranks_unique(r, n);
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

void groups_from_stream(groups *gs, const et_rank_info *ri)
{
	size_t pos = 0;
	et_sgroup g;
	uint32_t *r = NULL;
	size_t cap = 0;
	char name[256];
	while (et_sgroups_next(ri->groups, ri->groups_len, &pos, &g)) {
		memcpy(name, g.name, g.name_len);
		name[g.name_len] = 0;
		const group *have = groups_get(gs, groups_id(gs, name));
		if (have->defined)
			continue; /* expand each group once, not once per member */
		ET_GROW(r, cap, (size_t)g.n_members);
		et_sgroups_members(&g, r);
		uint32_t gid;
		groups_define(gs, name, r, g.n_members, true, GROUPS_FROM_STREAM, &gid);
	}
	free(r);
}

int groups_load_file(groups *gs, const char *path, et_error *e)
{
	et_pg_list l;
	if (et_pg_file_read(path, &l, e) < 0)
		return -1;
	if (l.warning)
		et_warn("%s", l.warning);
	for (size_t i = 0; i < l.n; i++) {
		uint32_t gid;
		groups_define(gs, l.g[i].name, l.g[i].ranks, l.g[i].n_ranks, true, -1, &gid);
	}
	et_pg_list_free(&l);
	return 0;
}

int pg_parse_values(const char *values, pg_def_fn def, void *ctx)
{
	et_pg_list l;
	if (et_pg_values_parse(values, &l) < 0)
		return -1;
	int count = (int)l.n;
	for (size_t i = 0; i < l.n; i++)
		def(ctx, l.g[i].name, l.g[i].ranks, l.g[i].n_ranks);
	et_pg_list_free(&l);
	return count;
}
