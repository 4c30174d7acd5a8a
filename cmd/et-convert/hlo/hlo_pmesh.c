/* hlo_pmesh: the mesh axes form of replica_groups (hlo_pgroups.c):
 *
 *   mesh[name=size, ...] [, device_ids=(ids)] {ref, ...}
 *   ref ::= name [':' '(' pre ')' size]       names quoted ('a') or bare
 *
 * turned into the iota form (hlo_groups): every mesh axis is a dimension,
 * an axis with sub-axes is split into [pre, size, rest] (several sub-axes of
 * one axis: sorted by pre, with filler dimensions between them), and the
 * referenced dimensions are transposed last, in the order listed. */
#include "et-convert/hlo/hlo_groups.h"
#include "et-convert/hlo/hlo_parse.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

typedef struct mesh_axis {
	hlo_range name;
	int64_t size;
} mesh_axis;

typedef struct mesh_ref {
	uint32_t axis;
	int64_t pre, size; /* pre 0: the whole axis */
} mesh_ref;

typedef struct mesh {
	mesh_axis ax[HLO_MAX_RANK];
	mesh_ref ref[HLO_MAX_RANK];
	uint32_t nax, nref;
	uint64_t devices;
	size_t at; /* position for messages */
} mesh;

static int axis_name(hlo_parser *p, hlo_range *r)
{
	if (p->t.kind == HLO_T_STR && p->t.len >= 2)
		*r = (hlo_range){(uint32_t)p->t.off + 1, (uint32_t)p->t.len - 2};
	else if (p->t.kind == HLO_T_WORD)
		*r = (hlo_range){(uint32_t)p->t.off, (uint32_t)p->t.len};
	else
		return hlo_p_expected(p, "a mesh axis name");
	return hlo_p_next(p);
}

static int comma_or(hlo_parser *p, uint8_t close, const char *what)
{
	if (p->t.kind == HLO_T_COMMA)
		return hlo_p_next(p);
	return p->t.kind == close ? 0 : hlo_p_expected(p, what);
}

/* '[' name '=' size (',' ...)* ']' */
static int parse_axes(hlo_parser *p, mesh *ms)
{
	ms->devices = 1;
	if (hlo_p_eat(p, HLO_T_LBRACK, "'[' after mesh") < 0)
		return -1;
	while (p->t.kind != HLO_T_RBRACK) {
		mesh_axis *a = &ms->ax[ms->nax];
		if (ms->nax == HLO_MAX_RANK)
			return hlo_fail(p->m, p->e, p->t.off, "more than %d mesh axes",
			                HLO_MAX_RANK);
		if (axis_name(p, &a->name) < 0 ||
		    hlo_p_eat(p, HLO_T_EQ, "'=' after the axis name") < 0)
			return -1;
		if (!hlo_tok_int(&p->lx, &p->t, &a->size) || a->size < 1 ||
		    a->size > (int64_t)HLO_MAX_IDS)
			return hlo_p_expected(p, "an axis size");
		ms->devices *= (uint64_t)a->size;
		if (ms->devices > HLO_MAX_IDS)
			return hlo_fail(p->m, p->e, ms->at, "a mesh of more than %u devices",
			                HLO_MAX_IDS);
		ms->nax++;
		if (hlo_p_next(p) < 0 || comma_or(p, HLO_T_RBRACK, "',' or ']' in the mesh") < 0)
			return -1;
	}
	return hlo_p_next(p);
}

static uint32_t find_axis(const hlo_parser *p, const mesh *ms, hlo_range r)
{
	for (uint32_t k = 0; k < ms->nax; k++)
		if (ms->ax[k].name.len == r.len &&
		    memcmp(p->lx.s + ms->ax[k].name.off, p->lx.s + r.off, r.len) == 0)
			return k;
	return HLO_NONE;
}

/* '{' ref (',' ref)* '}' */
static int parse_refs(hlo_parser *p, mesh *ms)
{
	if (hlo_p_eat(p, HLO_T_LBRACE, "'{' with the mesh axes of the groups") < 0)
		return -1;
	while (p->t.kind != HLO_T_RBRACE) {
		hlo_range name;
		size_t at = p->t.off;
		mesh_ref *r = &ms->ref[ms->nref];
		if (ms->nref == HLO_MAX_RANK)
			return hlo_fail(p->m, p->e, at, "more than %d mesh axes", HLO_MAX_RANK);
		if (axis_name(p, &name) < 0)
			return -1;
		if ((r->axis = find_axis(p, ms, name)) == HLO_NONE)
			return hlo_fail(p->m, p->e, at, "no such axis in the mesh");
		r->pre = 0;
		if (p->t.kind == HLO_T_COLON &&
		    (hlo_p_next(p) < 0 || hlo_p_eat(p, HLO_T_LPAREN, "'(' before a sub-axis") < 0 ||
		     hlo_p_int(p, &r->pre, "a sub-axis pre-size") < 0 ||
		     hlo_p_eat(p, HLO_T_RPAREN, "')' after the pre-size") < 0 ||
		     hlo_p_int(p, &r->size, "a sub-axis size") < 0))
			return -1;
		if (r->pre == 0)
			r->size = ms->ax[r->axis].size;
		else if (r->pre < 1 || r->size < 1 || r->pre > ms->ax[r->axis].size ||
		         r->size > ms->ax[r->axis].size ||
		         ms->ax[r->axis].size % (r->pre * r->size))
			return hlo_fail(p->m, p->e, at, "a sub-axis that does not divide its axis");
		ms->nref++;
		if (comma_or(p, HLO_T_RBRACE, "',' or '}' after a mesh axis") < 0)
			return -1;
	}
	return hlo_p_next(p);
}

/* device_ids=( [dims]<=[reshape]T(perm) | id, id, ... ): the device of
 * each mesh position, into g->map. */
static int parse_devices(hlo_parser *p, const mesh *ms, hlo_groups *g)
{
	hlo_module *m = p->m;
	size_t at = p->t.off;
	if (hlo_p_next(p) < 0 || hlo_p_next(p) < 0 ||
	    hlo_p_eat(p, HLO_T_EQ, "'=' after device_ids") < 0 ||
	    hlo_p_eat(p, HLO_T_LPAREN, "'(' before the device ids") < 0)
		return -1;
	g->map.off = (uint32_t)m->nints;
	if (p->t.kind == HLO_T_LBRACK) {
		hlo_groups t = {0};
		hlo_list lead;
		t.ngroups = 1;
		t.size = (uint32_t)ms->devices;
		if (hlo_p_iota_tail(p, &t, &lead) < 0 || hlo_p_check_iota(p, &t, at) < 0)
			return -1;
		uint64_t n = ms->devices;
		uint32_t *v = et_xmalloc(n * sizeof *v);
		hlo_iota_expand(hlo_ints_at(m, t.dims.off), hlo_ints_at(m, t.perm.off), t.dims.n,
		                v);
		g->map.off = (uint32_t)m->nints;
		for (uint64_t k = 0; k < n; k++) {
			int64_t id = v[k];
			hlo_ints(m, &id, 1);
		}
		free(v);
		g->map.n = (uint32_t)n;
	} else {
		while (p->t.kind != HLO_T_RPAREN) {
			int64_t id;
			if (hlo_p_int(p, &id, "a device id") < 0 ||
			    comma_or(p, HLO_T_RPAREN, "',' or ')' in the device ids") < 0)
				return -1;
			if (id < 0 || (uint64_t)id >= ms->devices || ++g->map.n > ms->devices)
				return hlo_fail(m, p->e, at, "device ids that do not fit the mesh");
			hlo_ints(m, &id, 1);
		}
		if (g->map.n != ms->devices)
			return hlo_fail(m, p->e, at, "device ids that do not fit the mesh");
	}
	return hlo_p_eat(p, HLO_T_RPAREN, "')' after the device ids");
}

static int push_dim(hlo_parser *p, const mesh *ms, int64_t *dims, uint32_t *nd, int64_t d)
{
	if (*nd == HLO_MAX_RANK)
		return hlo_fail(p->m, p->e, ms->at, "a mesh split into more than %d dimensions",
		                HLO_MAX_RANK);
	dims[(*nd)++] = d;
	return 0;
}

/* The dimensions axis a splits into, appended to dims; refdim[r] = the
 * dimension of each ref r on axis a. */
static int split_axis(hlo_parser *p, const mesh *ms, uint32_t a, int64_t *dims, uint32_t *nd,
                      uint32_t *refdim)
{
	uint32_t idx[HLO_MAX_RANK], n = 0;
	for (uint32_t r = 0; r < ms->nref; r++) {
		if (ms->ref[r].axis != a)
			continue;
		uint32_t k = n++; /* insertion sort by pre-size, stable */
		for (; k > 0 && ms->ref[idx[k - 1]].pre > ms->ref[r].pre; k--)
			idx[k] = idx[k - 1];
		idx[k] = r;
	}
	int64_t size = ms->ax[a].size, prefix = 1;
	if (n == 0 || (n == 1 && ms->ref[idx[0]].pre == 0)) {
		if (n)
			refdim[idx[0]] = *nd;
		return push_dim(p, ms, dims, nd, size);
	}
	for (uint32_t k = 0; k < n; k++) {
		const mesh_ref *r = &ms->ref[idx[k]];
		if (r->pre == 0 || r->pre < prefix || r->pre % prefix)
			return hlo_fail(p->m, p->e, ms->at, "mesh axes that overlap");
		if (r->pre > prefix && push_dim(p, ms, dims, nd, r->pre / prefix) < 0)
			return -1;
		prefix = r->pre;
		refdim[idx[k]] = *nd;
		if (push_dim(p, ms, dims, nd, r->size) < 0)
			return -1;
		prefix *= r->size;
	}
	if (size % prefix)
		return hlo_fail(p->m, p->e, ms->at, "mesh axes that overlap");
	return prefix < size ? push_dim(p, ms, dims, nd, size / prefix) : 0;
}

static int to_iota(hlo_parser *p, const mesh *ms, hlo_groups *g)
{
	int64_t dims[HLO_MAX_RANK], perm[HLO_MAX_RANK];
	uint32_t nd = 0, refdim[HLO_MAX_RANK], np = 0;
	bool grouped[HLO_MAX_RANK] = {false};
	for (uint32_t a = 0; a < ms->nax; a++)
		if (split_axis(p, ms, a, dims, &nd, refdim) < 0)
			return -1;
	uint64_t size = 1;
	for (uint32_t r = 0; r < ms->nref; r++) {
		if (grouped[refdim[r]])
			return hlo_fail(p->m, p->e, ms->at, "a mesh axis listed twice");
		grouped[refdim[r]] = true;
		size *= (uint64_t)dims[refdim[r]];
	}
	for (uint32_t d = 0; d < nd; d++)
		if (!grouped[d])
			perm[np++] = d;
	for (uint32_t r = 0; r < ms->nref; r++)
		perm[np++] = refdim[r];
	g->form = HLO_G_IOTA;
	g->dims = hlo_ints(p->m, dims, nd);
	g->perm = hlo_ints(p->m, perm, nd);
	g->size = (uint32_t)size;
	g->ngroups = (uint32_t)(ms->devices / size);
	return 0;
}

int hlo_p_mesh(hlo_parser *p, hlo_groups *g)
{
	mesh ms = {.at = p->t.off};
	if (hlo_p_next(p) < 0 || parse_axes(p, &ms) < 0)
		return -1;
	if (p->t.kind == HLO_T_COMMA) {
		hlo_tok nx = hlo_p_peek(p);
		if (nx.kind == HLO_T_WORD && nx.len == 10 &&
		    !memcmp(p->lx.s + nx.off, "device_ids", 10) && parse_devices(p, &ms, g) < 0)
			return -1;
	}
	if (parse_refs(p, &ms) < 0)
		return -1;
	return to_iota(p, &ms, g);
}
