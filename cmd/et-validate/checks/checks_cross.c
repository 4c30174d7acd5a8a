/* Cross-rank checks over the per-rank summaries: group membership, the
 * sequence of collectives per communicator group, send/receive pairing. */
#include "et-validate/checks/pgroups.h"
#include "et-validate/report/summary.h"
#include "et_buf.h"
#include "et_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Present members of a group: all ranks for group 0, the defined ranks
 * that are in the input; undefined groups already hold their users. */
static void members(vctx *v, uint32_t gid, xgroup *xg)
{
	xsum *xs = v->xs;
	const group *g = groups_get(v->grp, gid);
	if (!g->defined && !g->all)
		return;
	/* sized by the group: a world-sized array each would touch a page per
	 * group (600 MB for the 147,584 groups of 131,072 ranks) */
	size_t cap = g->all ? xs->n : g->n_ranks;
	xg->slots = et_xmalloc((cap + 1) * sizeof *xg->slots);
	if (g->all) {
		for (uint32_t s = 0; s < xs->n; s++)
			xg->slots[xg->n_members++] = s;
		return;
	}
	for (size_t k = 0; k < g->n_ranks; k++) {
		uint32_t s = xsum_slot(xs, g->ranks[k]);
		if (s == ET_GRAPH_NONE)
			xg->n_absent++;
		else
			xg->slots[xg->n_members++] = s;
	}
}

static void not_member(vctx *v, const rank_sum *r, const coll_ent *c, uint32_t gid)
{
	const group *g = groups_get(v->grp, gid);
	char rl[128];
	fmt_ranks(rl, sizeof rl, g->ranks, g->n_ranks);
	finding *f = find_add(&v->fs, C_COLL_NOT_MEMBER, r->rank, ET_GRAPH_NONE);
	if (f) {
		find_set(f, true, c->node_id, xsum_name(v->xs, c->name),
		         "%s on process group \"%.60s\" (ranks %s), which rank %u is not in",
		         coll_name(c->type), groups_name(v->grp, gid), rl, r->rank);
		find_x_group(f, groups_name(v->grp, gid));
	}
}

/* Whether a rank's pat-th group is a defined group it is not in. */
static bool outside(vctx *v, const rank_sum *r, uint32_t p)
{
	uint32_t gid = r->gmap[p];
	if (gid == GID_NONE)
		return false;
	const group *g = groups_get(v->grp, gid);
	return g->defined && !g->all && !groups_has_rank(g, r->rank);
}

/* A rank's collectives on defined groups it is not in: a finding each, in
 * file order, and then nobody waits for them (GID_NONE). */
static void check_membership(vctx *v, rank_sum *r)
{
	const sum_tpl *t = r->t;
	bool any = false;
	for (uint32_t p = 0; p < t->n_gpat && !any; p++)
		any = outside(v, r, p);
	if (!any)
		return;
	bool *out = et_xcalloc((size_t)t->n_gpat + 1, sizeof *out);
	for (uint32_t p = 0; p < t->n_gpat; p++)
		out[p] = outside(v, r, p);
	for (uint32_t k = 0; k < t->n_coll; k++)
		if (out[t->coll[k].pat])
			not_member(v, r, &t->coll[k], r->gmap[t->coll[k].pat]);
	for (uint32_t p = 0; p < t->n_gpat; p++)
		if (out[p])
			r->gmap[p] = GID_NONE;
	free(out);
}

/* Pass 1: membership findings, users of undefined groups (slots come in
 * ascending order, so "last" dedupes). */
static void count_entries(vctx *v)
{
	xsum *xs = v->xs;
	size_t ng = xs->n_xg;
	uint32_t *last = et_xmalloc(ng * sizeof *last);
	size_t *cap = et_xcalloc(ng, sizeof *cap); /* users grow as found */
	memset(last, 0xff, ng * sizeof *last);
	for (uint32_t s = 0; s < xs->n; s++) {
		rank_sum *r = &xs->r[s];
		check_membership(v, r);
		for (uint32_t p = 0; p < r->t->n_gpat; p++) {
			uint32_t gid = r->gmap[p];
			if (gid == GID_NONE || r->t->gseq_off[p + 1] == r->t->gseq_off[p])
				continue;
			const group *g = groups_get(v->grp, gid);
			xgroup *xg = &xs->xg[gid];
			if (!g->defined && last[gid] != s) {
				last[gid] = s;
				ET_GROW(xg->slots, cap[gid], (size_t)xg->n_members + 1);
				xg->slots[xg->n_members++] = s;
			}
		}
	}
	free(last);
	free(cap);
}

/* Pass 2: each member's collectives in the group, its template's list for
 * the pat the group has in it (members in slot order). */
static void build_groups(vctx *v)
{
	xsum *xs = v->xs;
	size_t ng = groups_count(v->grp);
	xs->xg = et_xcalloc(ng, sizeof *xs->xg);
	xs->n_xg = ng;
	uint32_t *mp = et_xcalloc(ng, sizeof *mp);
	count_entries(v);
	for (uint32_t gid = 0; gid < ng; gid++) {
		xgroup *xg = &xs->xg[gid];
		members(v, gid, xg);
		xg->seq = et_xcalloc((size_t)xg->n_members + 1, sizeof *xg->seq);
		xg->len = et_xcalloc((size_t)xg->n_members + 1, sizeof *xg->len);
	}
	for (uint32_t s = 0; s < xs->n; s++) {
		const rank_sum *r = &xs->r[s];
		for (uint32_t p = 0; p < r->t->n_gpat; p++) {
			uint32_t gid = r->gmap[p], n = r->t->gseq_off[p + 1] - r->t->gseq_off[p];
			if (gid == GID_NONE || n == 0)
				continue;
			xgroup *xg = &xs->xg[gid];
			while (xg->slots[mp[gid]] != s) /* members before s issue none */
				mp[gid]++;
			xg->seq[mp[gid]] = r->t->gseq + r->t->gseq_off[p];
			xg->len[mp[gid]] = n;
			if (n > xg->max_len)
				xg->max_len = n;
		}
	}
	free(mp);
}

/* What member m issues at position p: NULL if it issues nothing there. */
static const coll_ent *at(const xsum *xs, const xgroup *xg, uint32_t m, uint32_t p)
{
	if (p >= xg->len[m])
		return NULL;
	return &xs->r[xg->slots[m]].t->coll[xg->seq[m][p]];
}

static bool same(const coll_ent *a, const coll_ent *b)
{
	if (!a || !b)
		return a == b;
	return a->type == b->type && a->size == b->size;
}

typedef struct vote {
	const coll_ent *c;
	uint32_t m;
} vote;

static int cmp_vote(const void *x, const void *y)
{
	const vote *a = x, *b = y;
	int ha = a->c != NULL, hb = b->c != NULL;
	if (ha != hb)
		return hb - ha;
	if (ha && a->c->type != b->c->type)
		return a->c->type < b->c->type ? -1 : 1;
	if (ha && a->c->size != b->c->size)
		return a->c->size < b->c->size ? -1 : 1;
	return a->m < b->m ? -1 : a->m > b->m;
}

static void describe(char *buf, size_t cap, const xsum *xs, const coll_ent *c)
{
	if (!c)
		snprintf(buf, cap, "nothing");
	else
		snprintf(buf, cap, "%s of %lld B (node %llu \"%.60s\")", coll_name(c->type),
		         (long long)c->size, (unsigned long long)c->node_id,
		         xsum_name(xs, c->name));
}

/* The most common value at position p (ties: the smallest after sorting). */
static const coll_ent *majority(const xsum *xs, const xgroup *xg, uint32_t p)
{
	vote *vt = et_xmalloc(xg->n_members * sizeof *vt);
	for (uint32_t m = 0; m < xg->n_members; m++)
		vt[m] = (vote){at(xs, xg, m, p), m};
	qsort(vt, xg->n_members, sizeof *vt, cmp_vote);
	uint32_t best = 0, best_len = 0;
	for (uint32_t a = 0, b; a < xg->n_members; a = b) {
		for (b = a + 1; b < xg->n_members && same(vt[a].c, vt[b].c);)
			b++;
		if (b - a > best_len)
			best = a, best_len = b - a;
	}
	const coll_ent *want = vt[best].c;
	free(vt);
	return want;
}

/* The members that agree with the majority at p, and those that do not. */
typedef struct split {
	const coll_ent *want, *got; /* majority value; the first odd member's */
	uint32_t *agree, *odd, na, no;
	uint32_t first_odd; /* member index */
} split;

static void split_members(const xsum *xs, const xgroup *xg, uint32_t p, split *sp)
{
	sp->want = majority(xs, xg, p);
	sp->agree = et_xmalloc(xg->n_members * sizeof *sp->agree);
	sp->odd = et_xmalloc(xg->n_members * sizeof *sp->odd);
	sp->na = sp->no = 0;
	sp->first_odd = ET_GRAPH_NONE;
	for (uint32_t m = 0; m < xg->n_members; m++) {
		uint32_t rank = xs->r[xg->slots[m]].rank;
		if (same(at(xs, xg, m, p), sp->want)) {
			sp->agree[sp->na++] = rank;
			continue;
		}
		sp->odd[sp->no++] = rank;
		if (sp->first_odd == ET_GRAPH_NONE)
			sp->first_odd = m;
	}
	sp->got = at(xs, xg, sp->first_odd, p);
}

static void mismatch_text(vctx *v, finding *f, uint32_t gid, uint32_t p, uint32_t ndiff,
                          const split *sp)
{
	const xsum *xs = v->xs;
	const xgroup *xg = &xs->xg[gid];
	char ra[256], ro[256], dw[160], dg[160];
	fmt_ranks(ra, sizeof ra, sp->agree, sp->na);
	fmt_ranks(ro, sizeof ro, sp->odd, sp->no);
	describe(dw, sizeof dw, xs, sp->want);
	describe(dg, sizeof dg, xs, sp->got);
	uint32_t len = xg->len[sp->first_odd];
	bool many_odd = sp->no > 1, many_agree = sp->na > 1;
	find_set(f, sp->got != NULL, sp->got ? sp->got->node_id : 0,
	         sp->got ? xsum_name(xs, sp->got->name) : NULL,
	         "group \"%.60s\" (%u ranks), collective #%u: rank%s %s issue%s %s where "
	         "rank%s %s issue%s %s; %u of %u positions differ, rank %u issues %u "
	         "collective%s in the group",
	         gid ? groups_name(v->grp, gid) : "0", xg->n_members, p, many_odd ? "s" : "", ro,
	         many_odd ? "" : "s", dg, many_agree ? "s" : "", ra, many_agree ? "" : "s", dw,
	         ndiff, xg->max_len, xs->r[xg->slots[sp->first_odd]].rank, len,
	         len == 1 ? "" : "s");
}

static void mismatch_json(vctx *v, finding *f, uint32_t gid, uint32_t p, uint32_t ndiff,
                          const split *sp)
{
	find_x x;
	et_jsonw *j = find_x_open(&x);
	et_jsonw_kstr(j, "group", groups_name(v->grp, gid));
	et_jsonw_kuint(j, "position", p);
	et_jsonw_karr(j, "ranks");
	for (uint32_t k = 0; k < sp->no; k++)
		et_jsonw_uint(j, sp->odd[k]);
	et_jsonw_end(j);
	et_jsonw_kuint(j, "agreeing_ranks", sp->na);
	et_jsonw_kuint(j, "differing_positions", ndiff);
	if (sp->want) {
		et_jsonw_kobj(j, "expected");
		et_jsonw_kstr(j, "comm_type", coll_name(sp->want->type));
		et_jsonw_kint(j, "comm_size", sp->want->size);
		et_jsonw_end(j);
	}
	find_x_close(&x, f);
}

/* One finding per group: the first position that differs, the majority
 * value there and the ranks that differ from it. */
static void report_mismatch(vctx *v, uint32_t gid, uint32_t p, uint32_t ndiff)
{
	const xsum *xs = v->xs;
	const xgroup *xg = &xs->xg[gid];
	split sp;
	split_members(xs, xg, p, &sp);
	uint32_t rank = xs->r[xg->slots[sp.first_odd]].rank;
	finding *f = find_add(&v->fs, C_COLL_MISMATCH, rank, ET_GRAPH_NONE);
	if (f) {
		mismatch_text(v, f, gid, p, ndiff, &sp);
		mismatch_json(v, f, gid, p, ndiff, &sp);
	}
	free(sp.agree);
	free(sp.odd);
}

/* Every member issues its template's very list of member 0 (the members
 * of one shape): the sequences agree without comparing them. */
static bool same_lists(const xgroup *xg)
{
	for (uint32_t m = 1; m < xg->n_members; m++)
		if (xg->seq[m] != xg->seq[0] || xg->len[m] != xg->len[0])
			return false;
	return true;
}

static void check_sequences(vctx *v)
{
	const xsum *xs = v->xs;
	for (uint32_t gid = 0; gid < xs->n_xg; gid++) {
		const xgroup *xg = &xs->xg[gid];
		uint32_t first = ET_GRAPH_NONE, ndiff = 0;
		if (xg->n_members < 2 || same_lists(xg))
			continue;
		for (uint32_t p = 0; p < xg->max_len; p++) {
			const coll_ent *ref = at(xs, xg, 0, p);
			for (uint32_t m = 1; m < xg->n_members; m++)
				if (!same(at(xs, xg, m, p), ref)) {
					ndiff++;
					if (first == ET_GRAPH_NONE)
						first = p;
					break;
				}
		}
		if (first != ET_GRAPH_NONE)
			report_mismatch(v, gid, first, ndiff);
	}
}

static void check_partial(vctx *v)
{
	const xsum *xs = v->xs;
	if (v->max_world > xs->n) {
		finding *f = find_add(&v->fs, C_PARTIAL_INPUT, -1, ET_GRAPH_NONE);
		if (f)
			find_set(f, false, 0, NULL,
			         "world size is %u but the input has %zu rank%s: collectives and "
			         "sends to absent ranks are not checked",
			         v->max_world, xs->n, xs->n == 1 ? "" : "s");
	}
	for (uint32_t gid = 1; gid < xs->n_xg; gid++) {
		if (!xs->xg[gid].n_absent)
			continue;
		finding *f = find_add(&v->fs, C_PARTIAL_INPUT, -1, ET_GRAPH_NONE);
		if (f)
			find_set(f, false, 0, NULL,
			         "process group \"%.60s\": %u of its ranks are not in the input",
			         groups_name(v->grp, gid), xs->xg[gid].n_absent);
	}
}

void p2p_match(vctx *v); /* checks_p2p.c */

void check_cross(vctx *v)
{
	xsum_seal(v->xs);
	build_groups(v);
	check_partial(v);
	check_sequences(v);
	p2p_match(v);
}
