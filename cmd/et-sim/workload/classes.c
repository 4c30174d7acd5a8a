/* classes: colour refinement to the coarsest equitable partition of the
 * ranks. A rank's signature is its colour and, node by node, for a
 * collective the view of its group from its place in the ring (the delay
 * signatures to the members after it, in ring order) and, when the group
 * holds several colours, the colours of the members after it; for a send
 * or a receive the peer's colour and the delay signature to it. Colours
 * are split by signature until no class splits; then every member of a
 * class is compared with its representative item by item, so that a hash
 * collision can only refuse a fold, never make a wrong one. */
#include "et-sim/workload/classes.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_pg.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

typedef struct finder {
	const cls_in *in;
	uint64_t *off;   /* world + 1: rank r's items are fixed[off[r], off[r+1]) */
	uint32_t *fixed; /* per item: what does not change between rounds, as an
	                  * id: 4 bytes an item, not 8 (131,072 ranks hold
	                  * about 10^8 items) */
	et_hmap sigs;    /* a message's delay signature -> its id in fixed */
	uint32_t nsig;
	uint32_t **view;    /* per group used: per member, the id of its view */
	uint32_t (*def)[2]; /* per view id: the (group, member) that defined it */
	size_t capdef;
	uint32_t nview;
	et_hmap views;  /* (hash, size) -> view id */
	uint64_t **rot; /* per group used, when it holds several colours: per
	                 * member, a hash of the colours after it in ring order */
	uint32_t *c, *nc;
	uint32_t ncol;
	const char *why;
} finder;

static uint32_t ring_at(const comm_group *g, uint32_t i, uint32_t k)
{
	return g->mem[(i + k) % g->n];
}

/* Member i's view of group g: its delay signatures to i+1, i+2, ... */
static uint64_t view_hash(const finder *f, const comm_group *g, uint32_t i)
{
	uint64_t h = g->n;
	for (uint32_t k = 1; k < g->n && f->in->sig; k++)
		h = mix(h, f->in->sig(f->in->ctx, g->mem[i], ring_at(g, i, k)));
	return h;
}

static bool view_equal(const finder *f, const comm_group *g, uint32_t i, const comm_group *h,
                       uint32_t j)
{
	if (g->n != h->n)
		return false;
	for (uint32_t k = 1; k < g->n && f->in->sig; k++)
		if (f->in->sig(f->in->ctx, g->mem[i], ring_at(g, i, k)) !=
		    f->in->sig(f->in->ctx, h->mem[j], ring_at(h, j, k)))
			return false;
	return true;
}

/* The views of group gi's members, interned: equal ids are equal views. */
static void group_views(finder *f, int gi)
{
	const comm_group *g = &f->in->groups[gi];
	f->view[gi] = et_xcalloc(g->n + 1, sizeof *f->view[gi]);
	/* every member sees the same sigs: member 0's view is everyone's */
	bool same = f->in->uniform && f->in->uniform(f->in->ctx, g->mem, g->n);
	for (uint32_t i = 0; i < g->n; i++) {
		if (same && i > 0) {
			f->view[gi][i] = f->view[gi][0];
			continue;
		}
		uint64_t *id = et_hmap_put(&f->views, view_hash(f, g, i), g->n, UINT64_MAX);
		if (*id == UINT64_MAX) {
			ET_GROW(f->def, f->capdef, (size_t)f->nview + 1);
			f->def[f->nview][0] = (uint32_t)gi;
			f->def[f->nview][1] = i;
			*id = f->nview++;
		}
		const uint32_t *d = f->def[*id];
		if (!view_equal(f, g, i, &f->in->groups[d[0]], d[1]))
			f->why = "two different group views hash alike";
		f->view[gi][i] = (uint32_t)*id;
	}
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration doubles the
 * correct low bits each step: 3, 6, 12, 24, 48, 96). */
static uint64_t inverse(uint64_t p)
{
	uint64_t x = p;
	for (int k = 0; k < 5; k++)
		x *= 2 - p * x;
	return x;
}

/* Member i's colour sequence of group g, as sum over k of the colour of
 * member i+k (ring order) times P^k, for every i in O(n): from member i to
 * i+1 the sum loses member i+1's term at P^1, gains member i's at P^n and
 * shifts down one power. A group of one colour gets none (NULL): every
 * member sees the same sequence, its own colour repeated. */
static void group_colours(finder *f, int gi)
{
	const uint64_t P = 0x100000001b3ULL; /* odd, so invertible */
	const comm_group *g = &f->in->groups[gi];
	uint32_t n = g->n, c0 = f->c[g->mem[0]];
	uint32_t i = 1;
	while (i < n && f->c[g->mem[i]] == c0)
		i++;
	if (i == n) {
		free(f->rot[gi]);
		f->rot[gi] = NULL;
		return;
	}
	if (!f->rot[gi])
		f->rot[gi] = et_xcalloc(n, sizeof *f->rot[gi]);
	uint64_t *h = f->rot[gi], pk = 1, pn, inv = inverse(P), sum = 0;
	for (uint32_t k = 1; k < n; k++) {
		pk *= P;
		sum += ((uint64_t)f->c[g->mem[k]] + 1) * pk;
	}
	pn = pk * P;
	h[0] = sum;
	for (i = 0; i + 1 < n; i++) {
		sum +=
		    ((uint64_t)f->c[g->mem[i]] + 1) * pn - ((uint64_t)f->c[g->mem[i + 1]] + 1) * P;
		sum *= inv;
		h[i + 1] = sum;
	}
}

/* Whether member i of g and member j of h see the same colours after them. */
static bool colours_equal(const finder *f, const comm_group *g, uint32_t i, const comm_group *h,
                          uint32_t j)
{
	for (uint32_t k = 1; k < g->n; k++)
		if (f->c[ring_at(g, i, k)] != f->c[ring_at(h, j, k)])
			return false;
	return true;
}

/* A delay signature's id: equal ids, equal signatures. */
static uint32_t sig_id(finder *f, uint64_t sig)
{
	uint64_t *id = et_hmap_put(&f->sigs, sig, 0, f->nsig);
	if (*id == f->nsig)
		f->nsig++;
	return (uint32_t)*id;
}

/* Items' fixed parts: a collective's view, a message's delay signature. */
static int prepare(finder *f)
{
	const cls_in *in = f->in;
	f->off = et_xcalloc((size_t)in->world + 1, sizeof *f->off);
	for (uint32_t r = 0; r < in->world; r++)
		f->off[r + 1] = f->off[r] + in->nitems[r];
	f->fixed = et_xcalloc(f->off[in->world] + 1, sizeof *f->fixed);
	f->view = et_xcalloc((size_t)in->ngroups + 1, sizeof *f->view);
	f->rot = et_xcalloc((size_t)in->ngroups + 1, sizeof *f->rot);
	for (uint32_t r = 0; r < in->world && !f->why; r++)
		for (uint64_t k = f->off[r]; k < f->off[r + 1] && !f->why; k++) {
			const cls_item *it = &in->items[r][k - f->off[r]];
			if (it->kind != CLS_COLL) {
				if (it->v < 0 || (uint32_t)it->v >= in->world)
					f->why = "a send or receive names no rank of the trace";
				else if (in->sig)
					f->fixed[k] =
					    sig_id(f, in->sig(in->ctx, r, (uint32_t)it->v));
				continue;
			}
			if (it->v < 0)
				continue;
			if (it->v >= in->ngroups) {
				f->why = "a collective names no comm group";
				continue;
			}
			const comm_group *g = &in->groups[it->v];
			size_t pos = et_pg_ranks_find(g->mem, g->n, r);
			if (pos == g->n) {
				f->why = "a rank issues a collective on a group it is not in";
				continue;
			}
			if (!f->view[it->v])
				group_views(f, it->v);
			f->fixed[k] = f->view[it->v][pos];
		}
	return f->why ? -1 : 0;
}

/* Colours as 0, 1, ... in order of their first rank. */
static uint32_t dense(const uint32_t *in, uint32_t *out, uint32_t n)
{
	et_hmap m = {0};
	uint32_t next = 0;
	for (uint32_t r = 0; r < n; r++) {
		uint64_t *v = et_hmap_put(&m, in[r], 0, next);
		if (*v == next)
			next++;
		out[r] = (uint32_t)*v;
	}
	et_hmap_free(&m);
	return next;
}

/* The rule the fold needs on the current colours, which only gets harder
 * to meet as colours split, so a failure is final; and the colour
 * sequences of the groups for the next round. */
static int check_colls(finder *f)
{
	const cls_in *in = f->in;
	for (uint32_t r = 0; r < in->world && f->ncol > 1; r++)
		for (uint32_t j = 0; j < in->nitems[r]; j++)
			if (in->items[r][j].kind == CLS_COLL && in->items[r][j].v < 0) {
				f->why =
				    "a collective over every rank, with ranks of several classes";
				return -1;
			}
	for (int gi = 0; gi < in->ngroups; gi++)
		if (f->view[gi])
			group_colours(f, gi);
	return 0;
}

/* A collective item's colour sequence (0 for a group of one colour). */
static uint64_t item_colours(const finder *f, uint32_t r, const cls_item *it)
{
	if (it->v < 0 || !f->rot[it->v])
		return 0;
	const comm_group *g = &f->in->groups[it->v];
	return f->rot[it->v][et_pg_ranks_find(g->mem, g->n, r)];
}

static uint64_t signature(const finder *f, uint32_t r)
{
	const cls_in *in = f->in;
	uint64_t h = f->c[r];
	for (uint32_t j = 0; j < in->nitems[r]; j++) {
		const cls_item *it = &in->items[r][j];
		h = mix(h, it->kind);
		if (it->kind != CLS_COLL)
			h = mix(h, f->c[it->v]);
		else
			h = mix(h, item_colours(f, r, it));
		h = mix(h, f->fixed[f->off[r] + j]);
	}
	return h;
}

/* One round: 1 if a colour split, 0 if the colouring is stable. */
static int refine(finder *f)
{
	et_hmap m = {0};
	uint32_t next = 0;
	for (uint32_t r = 0; r < f->in->world; r++) {
		uint64_t *v = et_hmap_put(&m, f->c[r], signature(f, r), next);
		if (*v == next)
			next++;
		f->nc[r] = (uint32_t)*v;
	}
	et_hmap_free(&m);
	if (next == f->ncol)
		return 0;
	uint32_t *t = f->c;
	f->c = f->nc;
	f->nc = t;
	f->ncol = next;
	return 1;
}

/* Whether rank r's collective x and rank s's y see the same colours after
 * them in their groups (their views, compared already, have one size). */
static bool same_colours(const finder *f, uint32_t r, const cls_item *x, uint32_t s,
                         const cls_item *y)
{
	if (x->v < 0 || y->v < 0 || (!f->rot[x->v] && !f->rot[y->v]))
		return true;
	const comm_group *g = &f->in->groups[x->v], *h = &f->in->groups[y->v];
	return colours_equal(f, g, (uint32_t)et_pg_ranks_find(g->mem, g->n, r), h,
	                     (uint32_t)et_pg_ranks_find(h->mem, h->n, s));
}

/* Whether ranks r and s have the same signature, item by item. */
static bool same(const finder *f, uint32_t r, uint32_t s)
{
	const cls_in *in = f->in;
	uint64_t a = f->off[r], b = f->off[s], n = in->nitems[r];
	if (f->c[r] != f->c[s] || in->nitems[s] != n)
		return false;
	for (uint64_t k = 0; k < n; k++) {
		const cls_item *x = &in->items[r][k], *y = &in->items[s][k];
		if (x->kind != y->kind || f->fixed[a + k] != f->fixed[b + k])
			return false;
		if (x->kind != CLS_COLL && f->c[x->v] != f->c[y->v])
			return false;
		if (x->kind == CLS_COLL && !same_colours(f, r, x, s, y))
			return false;
	}
	return true;
}

static int peer_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* A rank that sends to (or receives from) two ranks of one class: both
 * messages would meet in the representatives' one mailbox. */
static bool ambiguous(const finder *f, uint32_t r, uint64_t (*buf)[2])
{
	const cls_in *in = f->in;
	uint64_t n = 0;
	for (uint32_t j = 0; j < in->nitems[r]; j++) {
		const cls_item *it = &in->items[r][j];
		if (it->kind == CLS_COLL)
			continue;
		buf[n][0] = (uint64_t)it->kind << 32 | f->c[it->v];
		buf[n++][1] = (uint32_t)it->v;
	}
	qsort(buf, n, sizeof *buf, peer_cmp);
	for (uint64_t k = 1; k < n; k++)
		if (buf[k][0] == buf[k - 1][0] && buf[k][1] != buf[k - 1][1])
			return true;
	return false;
}

/* A group of several classes is simulated member by member where its
 * members are all representatives (the engine steps it as unfolded), and
 * not at all where none is (an equitable partition gives it the same
 * colours, in ring order, as such a group); a mix of both could not be
 * simulated, as a representative's peers would not be. */
static bool all_or_no_reps(const rank_classes *rc, const comm_group *g)
{
	uint32_t reps = 0;
	for (uint32_t i = 0; i < g->n; i++)
		reps += rc->rep[rc->of[g->mem[i]]] == g->mem[i];
	return reps == 0 || reps == g->n;
}

static int verify(finder *f, rank_classes *rc)
{
	const cls_in *in = f->in;
	rc->n = dense(f->c, f->nc, in->world);
	rc->of = et_xcalloc(in->world + 1, sizeof *rc->of);
	rc->rep = et_xcalloc(rc->n + 1, sizeof *rc->rep);
	memcpy(rc->of, f->nc, (size_t)in->world * sizeof *rc->of);
	for (uint32_t r = in->world; r-- > 0;)
		rc->rep[rc->of[r]] = r;
	uint64_t most = 0;
	for (uint32_t r = 0; r < in->world; r++)
		if (in->nitems[r] > most)
			most = in->nitems[r];
	uint64_t(*buf)[2] = et_xcalloc(most + 1, sizeof *buf);
	for (uint32_t r = 0; r < in->world && !f->why; r++) {
		if (!same(f, r, rc->rep[rc->of[r]]))
			f->why = "two different signatures hash alike";
		else if (ambiguous(f, r, buf))
			f->why = "a rank sends to (or receives from) two ranks of one class";
	}
	free(buf);
	for (int gi = 0; gi < in->ngroups && !f->why; gi++)
		if (f->rot[gi] && !all_or_no_reps(rc, &in->groups[gi]))
			f->why = "a comm group holds ranks of several classes, some of them "
			         "simulated and some not";
	return f->why ? -1 : 0;
}

static void finder_free(finder *f)
{
	for (int gi = 0; f->view && gi < f->in->ngroups; gi++)
		free(f->view[gi]);
	for (int gi = 0; f->rot && gi < f->in->ngroups; gi++)
		free(f->rot[gi]);
	void *arrays[] = {f->view, f->rot, f->off, f->fixed, f->def, f->c, f->nc};
	for (size_t k = 0; k < sizeof arrays / sizeof *arrays; k++)
		free(arrays[k]);
	et_hmap_free(&f->sigs);
	et_hmap_free(&f->views);
}

int classes_find(rank_classes *rc, const cls_in *in)
{
	memset(rc, 0, sizeof *rc);
	finder f = {.in = in};
	f.c = et_xcalloc(in->world + 1, sizeof *f.c);
	f.nc = et_xcalloc(in->world + 1, sizeof *f.nc);
	f.ncol = dense(in->colour, f.c, in->world);
	int rc_ = prepare(&f);
	while (rc_ == 0 && (rc_ = check_colls(&f)) == 0 && refine(&f))
		;
	if (rc_ == 0)
		rc_ = verify(&f, rc);
	if (rc_ < 0) {
		classes_free(rc);
		rc->why = f.why;
	}
	finder_free(&f);
	return rc_;
}

void classes_free(rank_classes *rc)
{
	free(rc->of);
	free(rc->rep);
	memset(rc, 0, sizeof *rc);
}
