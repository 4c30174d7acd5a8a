/* hlo_pgroups: replica groups, source-target pairs and integer lists
 * (hlo_parse.h). replica_groups has three syntaxes:
 *
 *   {{0,1},{2,3}}             groups listed ({} = every participant)
 *   [G,S]<=[d0,d1,...]T(p...) iota(d0*d1*...) reshaped to d, transposed by p
 *                             (T(...) optional), read as G groups of S
 *   mesh['a'=2,'b'=4] {'b'}   groups along the listed mesh axes (a sub-axis
 *                             'a':(pre)size takes size devices out of a, every
 *                             pre-th), optionally ", device_ids=(...)" after
 *                             the axes to number the mesh's devices
 *
 * A mesh becomes the iota form XLA itself derives from it (replica_group.cc,
 * MeshAxesReplicaGroupList): the mesh reshaped so that every listed axis or
 * sub-axis is a dimension, those dimensions transposed last. */
#include "et-convert/hlo/hlo_parse.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

/* '{' [int (',' int)*] '}' appended to m->ints; *n counts them. */
static int int_braces(hlo_parser *p, uint8_t open, uint8_t close, uint32_t *n)
{
	size_t at = p->t.off;
	*n = 0;
	if (hlo_p_eat(p, open,
	              open == HLO_T_LBRACE   ? "'{'"
	              : open == HLO_T_LBRACK ? "'['"
	                                     : "'('") < 0)
		return -1;
	while (p->t.kind != close) {
		int64_t v;
		if (*n == HLO_MAX_IDS)
			return hlo_fail(p->m, p->e, at, "a list of more than %u numbers",
			                HLO_MAX_IDS);
		if (hlo_p_int(p, &v, "an integer") < 0)
			return -1;
		hlo_ints(p->m, &v, 1);
		++*n;
		if (hlo_p_sep(p, close,
		              close == HLO_T_RBRACE   ? "',' or '}'"
		              : close == HLO_T_RBRACK ? "',' or ']'"
		                                      : "',' or ')'") < 0)
			return -1;
	}
	return hlo_p_next(p);
}

int hlo_p_int_list(hlo_parser *p, hlo_list *l)
{
	l->off = (uint32_t)p->m->nints;
	return int_braces(p, HLO_T_LBRACE, HLO_T_RBRACE, &l->n);
}

/* {{a,b},...}: each inner list of `size` numbers (0: as the first one;
 * exact: *size and no other); *count counts the lists. */
static int nested_lists(hlo_parser *p, uint32_t *size, bool exact, uint32_t *count,
                        const char *what)
{
	size_t total = 0;
	*count = 0;
	if (hlo_p_eat(p, HLO_T_LBRACE, "'{'") < 0)
		return -1;
	while (p->t.kind != HLO_T_RBRACE) {
		uint32_t n;
		size_t at = p->t.off;
		if (int_braces(p, HLO_T_LBRACE, HLO_T_RBRACE, &n) < 0)
			return -1;
		if (n == 0)
			return hlo_fail(p->m, p->e, at, "an empty %s", what);
		if (*size && n != *size && exact)
			return hlo_fail(p->m, p->e, at, "a %s of %u ids", what, n);
		if (*size && n != *size)
			return hlo_fail(p->m, p->e, at,
			                "%s of %u members after ones of %u (et-convert "
			                "needs them all the same size)",
			                what, n, *size);
		*size = n;
		total += n;
		if (total > HLO_MAX_IDS)
			return hlo_fail(p->m, p->e, at, "more than %u ids", HLO_MAX_IDS);
		++*count;
		if (hlo_p_sep(p, HLO_T_RBRACE, "',' or '}'") < 0)
			return -1;
	}
	return hlo_p_next(p);
}

int hlo_p_pairs(hlo_parser *p, hlo_list *pairs)
{
	uint32_t size = 2, count;
	pairs->off = (uint32_t)p->m->nints;
	if (nested_lists(p, &size, true, &count, "source-target pair") < 0)
		return -1;
	pairs->n = 2 * count;
	return 0;
}

static int list_form(hlo_parser *p, hlo_groups *g)
{
	hlo_tok after = hlo_p_peek(p);
	if (after.kind == HLO_T_RBRACE) {
		g->form = HLO_G_ALL;
		return hlo_p_next(p) < 0 ? -1 : hlo_p_next(p);
	}
	g->form = HLO_G_LIST;
	g->ids.off = (uint32_t)p->m->nints;
	g->size = 0;
	if (nested_lists(p, &g->size, false, &g->ngroups, "replica group") < 0)
		return -1;
	g->ids.n = g->ngroups * g->size;
	return 0;
}

/* Checks an iota form: dims positive, perm a permutation, G*S = prod(dims). */
int hlo_p_check_iota(hlo_parser *p, const hlo_groups *g, size_t at)
{
	const int64_t *d = hlo_ints_at(p->m, g->dims.off), *perm = hlo_ints_at(p->m, g->perm.off);
	uint64_t n = 1;
	bool seen[HLO_MAX_RANK] = {false};
	if (g->dims.n == 0 || g->dims.n > HLO_MAX_RANK || g->perm.n != g->dims.n)
		return hlo_fail(p->m, p->e, at,
		                "an iota form needs 1 to %d dimensions and as many "
		                "in T(...)",
		                HLO_MAX_RANK);
	for (uint32_t k = 0; k < g->dims.n; k++) {
		if (d[k] < 1 || d[k] > (int64_t)HLO_MAX_IDS || perm[k] < 0 ||
		    perm[k] >= (int64_t)g->dims.n || seen[perm[k]])
			return hlo_fail(p->m, p->e, at,
			                "an iota form with bad dimensions or T(...)");
		seen[perm[k]] = true;
		n *= (uint64_t)d[k];
		if (n > HLO_MAX_IDS)
			return hlo_fail(p->m, p->e, at, "more than %u ids", HLO_MAX_IDS);
	}
	if ((uint64_t)g->ngroups * g->size != n)
		return hlo_fail(p->m, p->e, at, "[%u,%u] groups from %llu ids", g->ngroups, g->size,
		                (unsigned long long)n);
	return 0;
}

/* '[' dims ']' '<=' '[' reshape ']' ['T' '(' perm ')'] into dims and perm of
 * g (identity perm when T is absent); the leading dims into *lead. */
int hlo_p_iota_tail(hlo_parser *p, hlo_groups *g, hlo_list *lead)
{
	lead->off = (uint32_t)p->m->nints;
	if (int_braces(p, HLO_T_LBRACK, HLO_T_RBRACK, &lead->n) < 0 ||
	    hlo_p_eat(p, HLO_T_LE, "'<=' in an iota form") < 0)
		return -1;
	g->dims.off = (uint32_t)p->m->nints;
	if (int_braces(p, HLO_T_LBRACK, HLO_T_RBRACK, &g->dims.n) < 0)
		return -1;
	g->perm.off = (uint32_t)p->m->nints;
	if (hlo_p_is(p, "T") && hlo_p_peek(p).kind == HLO_T_LPAREN) {
		if (hlo_p_next(p) < 0)
			return -1;
		return int_braces(p, HLO_T_LPAREN, HLO_T_RPAREN, &g->perm.n);
	}
	for (uint32_t k = 0; k < g->dims.n && k < HLO_MAX_RANK; k++) {
		int64_t v = k;
		hlo_ints(p->m, &v, 1);
	}
	g->perm.n = g->dims.n;
	return 0;
}

static int iota_form(hlo_parser *p, hlo_groups *g)
{
	hlo_list lead;
	size_t at = p->t.off;
	g->form = HLO_G_IOTA;
	if (hlo_p_iota_tail(p, g, &lead) < 0)
		return -1;
	const int64_t *l = hlo_ints_at(p->m, lead.off);
	if (lead.n != 2 || l[0] < 1 || l[1] < 1 || l[0] > (int64_t)HLO_MAX_IDS ||
	    l[1] > (int64_t)HLO_MAX_IDS)
		return hlo_fail(p->m, p->e, at, "expected [groups,size] before '<='");
	g->ngroups = (uint32_t)l[0];
	g->size = (uint32_t)l[1];
	return hlo_p_check_iota(p, g, at);
}

int hlo_p_groups(hlo_parser *p, hlo_groups *g)
{
	g->pos = (uint32_t)p->t.off;
	if (p->t.kind == HLO_T_LBRACE)
		return list_form(p, g);
	if (p->t.kind == HLO_T_LBRACK)
		return iota_form(p, g);
	if (hlo_p_is(p, "mesh"))
		return hlo_p_mesh(p, g);
	return hlo_p_expected(p, "replica groups ({{0,1},{2,3}}, [G,S]<=[N] or mesh[...] {...})");
}
