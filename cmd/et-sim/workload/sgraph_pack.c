/* sgraph_pack: a graph's communicating values as distinct values and a
 * shared pattern (cpat.h), and the views of a class's rule ranks built
 * that way directly, without a pass over their nodes. */
#include "et-sim/workload/sgraph.h"
#include "et_mem.h"
#include <stdlib.h>
#include <string.h>

/* Node i's value as a view's cval has it: a peer, or a pg name's offset in
 * g->pgnames (0: none). */
static int32_t raw_val(const sgraph *g, uint32_t i)
{
	if (g->body)
		return sg_cval(g, i);
	return g->type[i] == ET_NODE_SEND   ? g->dst[i]
	       : g->type[i] == ET_NODE_RECV ? g->src[i]
	                                    : g->pg[i];
}

/* The key a value is told apart by (cpat_build_add): a peer, or the hash
 * of a pg name (NULL: none); two pg names of one key are compared too. */
static uint64_t val_key(uint8_t kind, int32_t peer, const char *pg)
{
	if (kind != ET_NODE_COLL)
		return (uint32_t)peer;
	return pg ? cpat_str_key(pg) : 0;
}

static bool same_pg(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const char *pg_at(const sgraph *g, int32_t off)
{
	return off ? g->pgnames + off : NULL;
}

void sgraph_pack(sgraph *g, cpat_set *set)
{
	cpat_build b = {0};
	int32_t *tab = NULL;
	size_t cap = 0;
	for (uint32_t i = 0; i < g->n && !b.over; i++) {
		if (g->cslot[i] == UINT32_MAX)
			continue;
		uint8_t kind = g->type[i];
		int32_t v = raw_val(g, i);
		bool fresh;
		uint32_t j = cpat_build_add(&b, kind, val_key(kind, v, pg_at(g, v)), &fresh);
		if (fresh) {
			ET_GROW(tab, cap, (size_t)j + 1);
			tab[j] = v;
		} else if (!b.over && kind == ET_NODE_COLL &&
		           !same_pg(pg_at(g, tab[j]), pg_at(g, v))) {
			b.over = true; /* two names of one hash: leave it unpacked */
		}
	}
	if (!b.over) {
		g->cp = cpat_intern(set, b.idx, b.n, b.kind, b.nval);
		/* exactly its values: a rank keeps this for the whole run */
		g->cv = et_xcalloc((size_t)b.nval + 1, sizeof *g->cv);
		if (b.nval)
			memcpy(g->cv, tab, (size_t)b.nval * sizeof *tab);
		if (g->body) {
			free(g->cval);
			g->cval = NULL;
		}
	}
	free(tab);
	cpat_build_free(&b);
}

/* The template's shared value for node i of like: its entry. */
static bool add_shared(sgraph_rtpl *t, cpat_build *b, const sgraph *like, uint32_t i, size_t *cap,
                       uint32_t *entry)
{
	uint8_t kind = like->type[i];
	int32_t peer = kind == ET_NODE_SEND   ? sg_dst(like, i)
	               : kind == ET_NODE_RECV ? sg_src(like, i)
	                                      : 0;
	const char *pg = kind == ET_NODE_COLL ? sg_pg(like, i) : NULL;
	bool fresh;
	uint32_t j = cpat_build_add(b, kind, val_key(kind, peer, pg), &fresh);
	if (b->over)
		return false;
	if (fresh) {
		size_t c2 = *cap;
		ET_GROW(t->spg, *cap, (size_t)j + 1);
		ET_GROW(t->speer, c2, (size_t)j + 1);
		t->spg[j] = pg;
		t->speer[j] = peer;
	} else if (kind == ET_NODE_COLL && !same_pg(t->spg[j], pg)) {
		return false;
	}
	*entry = t->n_slots + j;
	return true;
}

static uint8_t slot_type(uint8_t k)
{
	return k == ET_CRULE_PG ? ET_NODE_COLL : k == ET_CRULE_SRC ? ET_NODE_RECV : ET_NODE_SEND;
}

/* Entries in order of first use, and the pattern they give when distinct. */
static bool order_entries(sgraph_rtpl *t, const sgraph *body, cpat_set *set)
{
	t->order = et_xcalloc((size_t)t->n + 1, sizeof *t->order);
	t->pos = et_xmalloc(((size_t)t->n + 1) * sizeof *t->pos);
	memset(t->pos, 0xff, ((size_t)t->n + 1) * sizeof *t->pos);
	for (uint32_t k = 0; k < body->ncomm; k++)
		if (t->pos[t->entry[k]] == UINT32_MAX) {
			t->pos[t->entry[k]] = t->nused;
			t->order[t->nused++] = t->entry[k];
		}
	if (t->nused > CPAT_MAX_VALS)
		return false;
	uint16_t *idx = et_xmalloc(((size_t)body->ncomm + 1) * sizeof *idx);
	uint8_t *kind = et_xmalloc((size_t)t->nused + 1);
	for (uint32_t k = 0; k < body->ncomm; k++)
		idx[k] = (uint16_t)t->pos[t->entry[k]];
	for (uint32_t p = 0; p < t->nused; p++)
		kind[p] = t->kind[t->order[p]];
	t->plain = cpat_intern(set, idx, body->ncomm, kind, t->nused);
	free(idx);
	free(kind);
	return true;
}

bool sgraph_rtpl_make(sgraph_rtpl *t, const sgraph *body, const sgraph *like,
                      const et_crule_class *c, cpat_set *set)
{
	memset(t, 0, sizeof *t);
	t->n_slots = c->n_slots;
	t->entry = et_xcalloc((size_t)body->ncomm + 1, sizeof *t->entry);
	cpat_build b = {0};
	size_t cap = 0, j = 0, k = 0;
	bool ok = true;
	for (uint32_t i = 0; i < body->n && ok; i++) {
		if (body->cslot[i] == UINT32_MAX)
			continue;
		if (j < c->n && c->nodes[j].node == i)
			t->entry[k++] = c->nodes[j++].slot;
		else
			ok = add_shared(t, &b, like, i, &cap, &t->entry[k++]);
	}
	t->n = t->n_slots + b.nval;
	if (ok) {
		t->kind = et_xcalloc((size_t)t->n + 1, 1);
		for (uint32_t s = 0; s < t->n_slots; s++)
			t->kind[s] = slot_type(c->kind[s]);
		if (b.nval)
			memcpy(t->kind + t->n_slots, b.kind, b.nval);
		ok = order_entries(t, body, set);
	}
	cpat_build_free(&b);
	if (!ok)
		sgraph_rtpl_free(t);
	return ok;
}

void sgraph_rtpl_free(sgraph_rtpl *t)
{
	void *arrays[] = {t->entry, t->kind, t->spg, t->speer, t->order, t->pos};
	for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
		free(arrays[k]);
	cpat_build_free(&t->scratch);
	memset(t, 0, sizeof *t);
}

/* Entry e's value for a rank whose slots are vals. */
static void entry_val(const sgraph_rtpl *t, uint32_t e, const et_crule_val *vals, int32_t *peer,
                      const char **pg)
{
	if (e < t->n_slots) {
		*pg = t->kind[e] == ET_NODE_COLL ? vals[e].pg : NULL;
		*peer = t->kind[e] == ET_NODE_COLL ? 0 : vals[e].peer >= 0 ? vals[e].peer : -1;
	} else {
		*pg = t->spg[e - t->n_slots];
		*peer = t->speer[e - t->n_slots];
	}
}

/* Two entries of this rank have one value: its own pattern. */
static const cpat *merged(const sgraph *body, sgraph_rtpl *t, cpat_set *set)
{
	const cpat_build *b = &t->scratch;
	uint16_t *idx = et_xmalloc(((size_t)body->ncomm + 1) * sizeof *idx);
	for (uint32_t k = 0; k < body->ncomm; k++)
		idx[k] = b->idx[t->pos[t->entry[k]]];
	const cpat *p = cpat_intern(set, idx, body->ncomm, b->kind, b->nval);
	free(idx);
	return p;
}

/* The blob: the values, then the pool. */
static int32_t *make_blob(const int32_t *cv, uint32_t nval, const char *pool, size_t len)
{
	int32_t *b = et_xmalloc((size_t)nval * sizeof *cv + len + 1);
	if (nval)
		memcpy(b, cv, (size_t)nval * sizeof *cv);
	memcpy((char *)(b + nval), pool, len);
	return b;
}

int32_t *sgraph_rule_blob(const sgraph *body, sgraph_rtpl *t, const et_crule_val *vals,
                          cpat_set *set, const cpat **cp, size_t *bytes)
{
	cpat_build *b = &t->scratch;
	cpat_build_reset(b);
	int32_t cv[64], *v = t->nused <= 64 ? cv : et_xmalloc((size_t)t->nused * sizeof *v);
	char *pool = NULL;
	size_t len = 1, cap = 0; /* offset 0 is "no pg name" */
	ET_GROW(pool, cap, (size_t)64);
	pool[0] = 0;
	for (uint32_t p = 0; p < t->nused && !b->over; p++) {
		uint32_t e = t->order[p];
		int32_t peer;
		const char *pg;
		entry_val(t, e, vals, &peer, &pg);
		bool fresh;
		uint32_t ci = cpat_build_add(b, t->kind[e], val_key(t->kind[e], peer, pg), &fresh);
		if (fresh)
			v[ci] = pg ? sgraph_pool_put(&pool, &len, &cap, pg) : peer;
		else if (t->kind[e] == ET_NODE_COLL && !same_pg(v[ci] ? pool + v[ci] : NULL, pg))
			b->over = true; /* two names of one hash */
	}
	int32_t *blob = NULL;
	if (!b->over) {
		*cp = b->nval == t->nused ? t->plain : merged(body, t, set);
		blob = make_blob(v, b->nval, pool, len);
		if (bytes)
			*bytes = (size_t)b->nval * sizeof *v + len + 1;
	}
	if (v != cv)
		free(v);
	free(pool);
	return blob;
}

sgraph *sgraph_view_blob(const sgraph *body, const cpat *cp, int32_t *blob, bool own)
{
	size_t len, cap;
	sgraph *v = sgraph_view_new(body, &len, &cap);
	free(v->pgnames);
	v->cp = cp;
	v->cv = blob;
	v->pgnames = (char *)(blob + cp->nval);
	v->vals_mem = own ? SG_VALS_BLOB : SG_VALS_BORROWED;
	return v;
}

sgraph *sgraph_view_rule(const sgraph *body, sgraph_rtpl *t, const et_crule_val *vals,
                         cpat_set *set)
{
	const cpat *cp;
	int32_t *blob = sgraph_rule_blob(body, t, vals, set, &cp, NULL);
	return blob ? sgraph_view_blob(body, cp, blob, true) : NULL;
}
