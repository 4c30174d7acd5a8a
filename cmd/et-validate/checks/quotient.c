/* Rank classes for the deadlock check (see quotient.h). */
#include "et-validate/checks/quotient.h"
#include "et_hmap.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64's finaliser over h + v: order-sensitive and well spread. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	uint64_t z = h + v * 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

typedef struct refine {
	const xsum *xs;
	uint32_t *col; /* per slot: its class */
	uint32_t ncol;
	uint64_t *gsig;  /* per group: hash of its (class, place) set */
	uint32_t **mpat; /* per group, per member: the pat its list is of */
	/* per group: its set of (class << 32 | pat), sorted, unique (CSR) */
	uint64_t *set;
	uint32_t *set_off;
} refine;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The pat whose list seq is (NULL: none), by its offset in the template. */
static uint32_t pat_of_seq(const sum_tpl *t, const uint32_t *seq)
{
	if (!seq)
		return GID_NONE;
	uint32_t off = (uint32_t)(seq - t->gseq), lo = 0, hi = t->n_gpat;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (t->gseq_off[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void member_pats(refine *f)
{
	const xsum *xs = f->xs;
	f->mpat = et_xcalloc(xs->n_xg + 1, sizeof *f->mpat);
	for (size_t g = 0; g < xs->n_xg; g++) {
		const xgroup *xg = &xs->xg[g];
		f->mpat[g] = et_xmalloc(((size_t)xg->n_members + 1) * sizeof **f->mpat);
		for (uint32_t m = 0; m < xg->n_members; m++)
			f->mpat[g][m] = pat_of_seq(xs->r[xg->slots[m]].t, xg->seq[m]);
	}
}

/* Every group's set of (class, pat) of its members under the current
 * classes, and its hash. */
static void group_sets(refine *f)
{
	const xsum *xs = f->xs;
	size_t total = 0;
	for (size_t g = 0; g < xs->n_xg; g++)
		total += xs->xg[g].n_members;
	free(f->set);
	free(f->set_off);
	f->set = et_xmalloc((total + 1) * sizeof *f->set);
	f->set_off = et_xmalloc((xs->n_xg + 1) * sizeof *f->set_off);
	size_t w = 0;
	for (size_t g = 0; g < xs->n_xg; g++) {
		const xgroup *xg = &xs->xg[g];
		f->set_off[g] = (uint32_t)w;
		uint64_t *a = f->set + w;
		for (uint32_t m = 0; m < xg->n_members; m++)
			a[m] = (uint64_t)f->col[xg->slots[m]] << 32 | f->mpat[g][m];
		qsort(a, xg->n_members, sizeof *a, cmp_u64);
		uint32_t u = 0;
		for (uint32_t m = 0; m < xg->n_members; m++)
			if (u == 0 || a[u - 1] != a[m])
				a[u++] = a[m];
		uint64_t h = mix(0, u);
		for (uint32_t m = 0; m < u; m++)
			h = mix(h, a[m]);
		f->gsig[g] = h;
		w += u;
	}
	f->set_off[xs->n_xg] = (uint32_t)w;
}

/* What a slot sees: per pat its group's set, per p2p node its
 * counterpart's class and place (or how it is unmatched). */
static uint64_t slot_sig(const refine *f, uint32_t s)
{
	const rank_sum *r = &f->xs->r[s];
	const sum_tpl *t = r->t;
	uint64_t h = mix(f->col[s], t->n_gpat);
	for (uint32_t p = 0; p < t->n_gpat; p++)
		h = mix(h, r->gmap[p] == GID_NONE ? UINT64_MAX : f->gsig[r->gmap[p]]);
	for (uint32_t k = 0; k < t->n_p2p; k++) {
		uint32_t ms = r->match[2 * k], mi = r->match[2 * k + 1];
		h = mix(h, (uint64_t)(ms == ET_GRAPH_NONE ? UINT32_MAX : f->col[ms]) << 32 | mi);
	}
	return h;
}

/* Split classes by what their slots see until none splits; returns the
 * number of classes. Classes are numbered by their first slot, so the same
 * count is the same partition. */
static uint32_t refine_all(refine *f)
{
	const xsum *xs = f->xs;
	uint32_t *next = et_xmalloc((xs->n + 1) * sizeof *next);
	for (;;) {
		group_sets(f);
		et_hmap ids = {0};
		uint32_t n = 0;
		for (uint32_t s = 0; s < xs->n; s++) {
			uint64_t *id = et_hmap_put(&ids, f->col[s], slot_sig(f, s), n);
			if (*id == n)
				n++;
			next[s] = (uint32_t)*id;
		}
		et_hmap_free(&ids);
		memcpy(f->col, next, xs->n * sizeof *next);
		if (n == f->ncol)
			break;
		f->ncol = n;
	}
	free(next);
	group_sets(f);
	return f->ncol;
}

/* Exact ids of the groups' sets (a hash collision fails the fold). */
static int set_ids(const refine *f, uint32_t *gset, uint32_t *nset)
{
	const xsum *xs = f->xs;
	et_hmap m = {0};
	uint32_t n = 0;
	int rc = 0;
	for (size_t g = 0; g < xs->n_xg && rc == 0; g++) {
		uint32_t a = f->set_off[g], len = f->set_off[g + 1] - a;
		gset[g] = GID_NONE;
		if (len == 0)
			continue;
		uint64_t *id = et_hmap_put(&m, f->gsig[g], len, g);
		const uint32_t b = f->set_off[*id];
		if (*id != g && memcmp(f->set + a, f->set + b, len * sizeof *f->set) != 0)
			rc = -1;
		else
			gset[g] = *id == g ? n++ : gset[*id];
	}
	et_hmap_free(&m);
	*nset = n;
	return rc;
}

/* Every slot sees exactly what its class's first slot sees. */
static bool verify(const refine *f, const uint32_t *rep, const uint32_t *gset)
{
	const xsum *xs = f->xs;
	for (uint32_t s = 0; s < xs->n; s++) {
		const rank_sum *r = &xs->r[s], *q = &xs->r[rep[f->col[s]]];
		const sum_tpl *t = r->t;
		if (t != q->t)
			return false;
		for (uint32_t p = 0; p < t->n_gpat; p++) {
			uint32_t a = r->gmap[p], b = q->gmap[p];
			if ((a == GID_NONE) != (b == GID_NONE) ||
			    (a != GID_NONE && gset[a] != gset[b]))
				return false;
		}
		for (uint32_t k = 0; k < 2 * t->n_p2p; k += 2) {
			uint32_t a = r->match[k], b = q->match[k];
			if ((a == ET_GRAPH_NONE) != (b == ET_GRAPH_NONE) ||
			    (a != ET_GRAPH_NONE && f->col[a] != f->col[b]) ||
			    r->match[k + 1] != q->match[k + 1])
				return false;
		}
	}
	return true;
}

/* The representatives as the summary q. */
static void build(const refine *f, const uint32_t *rep, const uint32_t *gset, uint32_t nset,
                  xsum *q)
{
	const xsum *xs = f->xs;
	memset(q, 0, sizeof *q);
	q->n = f->ncol;
	q->r = et_xcalloc(q->n + 1, sizeof *q->r);
	for (uint32_t c = 0; c < q->n; c++) {
		const rank_sum *o = &xs->r[rep[c]];
		const sum_tpl *t = o->t;
		rank_sum *r = &q->r[c];
		r->rank = o->rank;
		r->t = t;
		r->gmap = et_xmalloc(((size_t)t->n_gpat + t->n_ppat + 1) * sizeof *r->gmap);
		r->pmap = r->gmap + t->n_gpat;
		for (uint32_t p = 0; p < t->n_gpat; p++)
			r->gmap[p] = o->gmap[p] == GID_NONE ? GID_NONE : gset[o->gmap[p]];
		if (t->n_ppat)
			memcpy(r->pmap, o->pmap, t->n_ppat * sizeof *r->pmap);
		r->match = et_xmalloc(((size_t)t->n_p2p * 2 + 1) * sizeof *r->match);
		for (uint32_t k = 0; k < 2 * t->n_p2p; k += 2) {
			uint32_t ms = o->match[k];
			r->match[k] = ms == ET_GRAPH_NONE ? ET_GRAPH_NONE : f->col[ms];
			r->match[k + 1] = o->match[k + 1];
		}
	}
	q->n_xg = nset;
	q->xg = et_xcalloc(nset + 1, sizeof *q->xg);
	for (size_t g = 0; g < xs->n_xg; g++) {
		if (gset[g] == GID_NONE || q->xg[gset[g]].slots)
			continue;
		xgroup *x = &q->xg[gset[g]];
		uint32_t a = f->set_off[g], n = f->set_off[g + 1] - a;
		x->n_members = n;
		x->slots = et_xmalloc(((size_t)n + 1) * sizeof *x->slots);
		x->seq = et_xcalloc((size_t)n + 1, sizeof *x->seq);
		x->len = et_xcalloc((size_t)n + 1, sizeof *x->len);
		for (uint32_t m = 0; m < n; m++) {
			uint32_t c = (uint32_t)(f->set[a + m] >> 32), p = (uint32_t)f->set[a + m];
			const sum_tpl *t = q->r[c].t;
			x->slots[m] = c;
			if (p == GID_NONE)
				continue;
			x->seq[m] = t->gseq + t->gseq_off[p];
			x->len[m] = t->gseq_off[p + 1] - t->gseq_off[p];
			if (x->len[m] > x->max_len)
				x->max_len = x->len[m];
		}
	}
}

static void refine_free(refine *f)
{
	for (size_t g = 0; f->mpat && g < f->xs->n_xg; g++)
		free(f->mpat[g]);
	free(f->mpat);
	free(f->col);
	free(f->gsig);
	free(f->set);
	free(f->set_off);
}

/* First colours: one per template, by first slot. */
static void first_colours(refine *f)
{
	const xsum *xs = f->xs;
	et_hmap m = {0};
	for (uint32_t s = 0; s < xs->n; s++) {
		uint64_t *id = et_hmap_put(&m, (uint64_t)(uintptr_t)xs->r[s].t, 0, f->ncol);
		if (*id == f->ncol)
			f->ncol++;
		f->col[s] = (uint32_t)*id;
	}
	et_hmap_free(&m);
}

int xsum_quotient(const xsum *xs, xsum *q)
{
	refine f = {.xs = xs};
	f.col = et_xmalloc((xs->n + 1) * sizeof *f.col);
	f.gsig = et_xcalloc(xs->n_xg + 1, sizeof *f.gsig);
	first_colours(&f);
	member_pats(&f);
	int rc = -1;
	if (refine_all(&f) < xs->n) {
		uint32_t *rep = et_xmalloc(((size_t)f.ncol + 1) * sizeof *rep);
		uint32_t *gset = et_xmalloc((xs->n_xg + 1) * sizeof *gset);
		for (uint32_t s = xs->n; s-- > 0;)
			rep[f.col[s]] = s;
		uint32_t nset = 0;
		if (set_ids(&f, gset, &nset) == 0 && verify(&f, rep, gset)) {
			build(&f, rep, gset, nset, q);
			rc = 0;
		}
		free(rep);
		free(gset);
	}
	refine_free(&f);
	return rc;
}

void xsum_quotient_free(xsum *q)
{
	for (size_t k = 0; k < q->n; k++) {
		free(q->r[k].gmap);
		free(q->r[k].match);
	}
	free(q->r);
	for (size_t k = 0; k < q->n_xg; k++) {
		free(q->xg[k].slots);
		free(q->xg[k].seq);
		free(q->xg[k].len);
	}
	free(q->xg);
	memset(q, 0, sizeof *q);
}
