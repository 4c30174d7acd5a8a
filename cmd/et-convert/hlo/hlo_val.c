/* hlo_val: the builder's values (hlo_val.h). Values may share elements
 * (tuple(%t, %t)), so every walk marks what it visited (seen = the walk's
 * generation) and reuses what it made for it (fwd): no walk visits a value
 * twice, however they are shared. */
#include "et-convert/hlo/hlo_val.h"
#include "et-convert/hlo/hlo_mod.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

void hlo_vals_init(hlo_vals *vs)
{
	memset(vs, 0, sizeof *vs);
	hlo_dset none;
	none.n = 0;                    /* no initializer: it would clear all of v */
	(void)hlo_val_leaf(vs, &none); /* handle 0: no dependency */
}

void hlo_vals_free(hlo_vals *vs)
{
	free(vs->v);
	free(vs->items);
	free(vs->tmp);
	memset(vs, 0, sizeof *vs);
}

void hlo_dset_add(hlo_dset *d, uint32_t op)
{
	uint32_t lo = 0, hi = d->n;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (d->v[mid] < op)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->n && d->v[lo] == op)
		return;
	if (d->n == HLO_VAL_DEPS) { /* full: keep the highest */
		if (lo == 0)
			return;
		memmove(d->v, d->v + 1, (lo - 1) * sizeof *d->v);
		d->v[lo - 1] = op;
		return;
	}
	memmove(d->v + lo + 1, d->v + lo, (d->n - lo) * sizeof *d->v);
	d->v[lo] = op;
	d->n++;
}

static uint32_t new_val(hlo_vals *vs, uint8_t tuple, uint32_t n, uint8_t depth)
{
	ET_GROW(vs->v, vs->cap, (size_t)vs->n + 1);
	ET_GROW(vs->items, vs->capitems, (size_t)vs->nitems + n);
	vs->v[vs->n] =
	    (hlo_val){.off = (uint32_t)vs->nitems, .n = n, .tuple = tuple, .depth = depth};
	vs->nitems += n;
	vs->work += 1 + n;
	return (uint32_t)vs->n++;
}

uint32_t hlo_val_leaf(hlo_vals *vs, const hlo_dset *d)
{
	uint32_t h = new_val(vs, 0, d->n, 0);
	if (d->n)
		memcpy(vs->items + vs->v[h].off, d->v, d->n * sizeof *d->v);
	return h;
}

/* A new walk; on the (theoretical) wrap of the counter every mark is
 * cleared, so that no stale mark matches. */
static void next_gen(hlo_vals *vs)
{
	if (++vs->gen == 0) {
		for (size_t k = 0; k < vs->n; k++)
			vs->v[k].seen = 0;
		vs->gen = 1;
	}
}

static void deps_walk(hlo_vals *vs, uint32_t h, hlo_dset *d)
{
	hlo_val *v = &vs->v[h];
	if (v->seen == vs->gen)
		return;
	v->seen = vs->gen;
	vs->work += 1 + v->n;
	for (uint32_t k = 0; k < v->n; k++) {
		uint32_t it = vs->items[v->off + k];
		if (v->tuple)
			deps_walk(vs, it, d); /* depth <= HLO_VAL_DEPTH */
		else
			hlo_dset_add(d, it);
	}
}

void hlo_val_deps(hlo_vals *vs, uint32_t h, hlo_dset *d)
{
	next_gen(vs);
	deps_walk(vs, h, d);
}

uint32_t hlo_val_tuple(hlo_vals *vs, const uint32_t *kids, uint32_t n)
{
	uint8_t depth = 1;
	for (uint32_t k = 0; k < n; k++) {
		uint8_t kd = vs->v[kids[k]].depth;
		if (kd + 1 > depth)
			depth = kd + 1 > HLO_VAL_DEPTH ? HLO_VAL_DEPTH : (uint8_t)(kd + 1);
	}
	uint32_t h = new_val(vs, 1, n, depth);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t kid = kids[k];
		if (vs->v[kid].depth >= HLO_VAL_DEPTH) { /* too deep: its ops, flat */
			hlo_dset d;
			d.n = 0; /* no initializer: it would clear all of v */
			hlo_val_deps(vs, kid, &d);
			kid = hlo_val_leaf(vs, &d);
		}
		vs->items[vs->v[h].off + k] = kid;
	}
	return h;
}

uint32_t hlo_val_elem(const hlo_vals *vs, uint32_t h, int64_t k)
{
	const hlo_val *v = &vs->v[h];
	if (!v->tuple || k < 0 || k >= (int64_t)v->n)
		return h;
	return vs->items[v->off + (uint32_t)k];
}

static uint32_t with_walk(hlo_vals *vs, uint32_t h, const hlo_dset *d)
{
	if (vs->v[h].seen == vs->gen)
		return vs->v[h].fwd;
	vs->v[h].seen = vs->gen;
	uint32_t r;
	if (!vs->v[h].tuple) {
		hlo_dset u; /* only the first n of v are set */
		u.n = d->n;
		memcpy(u.v, d->v, d->n * sizeof *d->v);
		for (uint32_t k = 0; k < vs->v[h].n; k++)
			hlo_dset_add(&u, vs->items[vs->v[h].off + k]);
		r = hlo_val_leaf(vs, &u);
	} else {
		uint32_t n = vs->v[h].n;
		r = new_val(vs, 1, n, vs->v[h].depth);
		for (uint32_t k = 0; k < n; k++) {
			uint32_t kid = with_walk(vs, vs->items[vs->v[h].off + k], d);
			vs->items[vs->v[r].off + k] = kid;
		}
	}
	vs->v[r].seen = vs->gen; /* made in this walk: not to be walked again */
	vs->v[r].fwd = r;
	vs->v[h].fwd = r;
	return r;
}

uint32_t hlo_val_with(hlo_vals *vs, uint32_t h, const hlo_dset *d)
{
	if (d->n == 0)
		return h;
	next_gen(vs);
	return with_walk(vs, h, d);
}

/* tmp records, children first: leaf = 0, n, ops...; tuple = 1, n, refs...
 * with a ref = (0, old handle) below the mark or (1, record number). */
static void tmp_push(hlo_vals *vs, uint32_t x)
{
	ET_GROW(vs->tmp, vs->captmp, (size_t)vs->ntmp + 1);
	vs->tmp[vs->ntmp++] = x;
}

static uint32_t export_walk(hlo_vals *vs, uint32_t h, size_t mark, uint32_t *nrec)
{
	if (vs->v[h].seen == vs->gen)
		return vs->v[h].fwd;
	vs->v[h].seen = vs->gen;
	uint32_t n = vs->v[h].n;
	if (vs->v[h].tuple)
		for (uint32_t k = 0; k < n; k++) {
			uint32_t kid = vs->items[vs->v[h].off + k];
			if (kid >= mark)
				(void)export_walk(vs, kid, mark, nrec);
		}
	tmp_push(vs, vs->v[h].tuple);
	tmp_push(vs, n);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t it = vs->items[vs->v[h].off + k];
		if (vs->v[h].tuple && it >= mark) {
			tmp_push(vs, 1);
			it = vs->v[it].fwd;
		} else if (vs->v[h].tuple) {
			tmp_push(vs, 0);
		}
		tmp_push(vs, it);
	}
	vs->v[h].fwd = (*nrec)++;
	return vs->v[h].fwd;
}

uint32_t hlo_val_keep(hlo_vals *vs, uint32_t h, hlo_vmark mark)
{
	if (h < mark.n) {
		vs->n = mark.n;
		vs->nitems = mark.nitems;
		return h;
	}
	uint32_t nrec = 0;
	vs->ntmp = 0;
	next_gen(vs);
	(void)export_walk(vs, h, mark.n, &nrec);
	vs->n = mark.n;
	vs->nitems = mark.nitems;
	for (size_t k = 0; k < vs->ntmp;) {
		uint8_t tuple = (uint8_t)vs->tmp[k];
		uint32_t n = vs->tmp[k + 1], depth = 0;
		k += 2;
		uint32_t r = new_val(vs, tuple, n, 0);
		for (uint32_t j = 0; j < n; j++) {
			uint32_t it = tuple ? (vs->tmp[k] ? (uint32_t)mark.n + vs->tmp[k + 1]
			                                  : vs->tmp[k + 1])
			                    : vs->tmp[k];
			k += tuple ? 2 : 1;
			vs->items[vs->v[r].off + j] = it;
			if (tuple && vs->v[it].depth + 1u > depth)
				depth = vs->v[it].depth + 1u;
		}
		vs->v[r].depth = (uint8_t)(depth > HLO_VAL_DEPTH ? HLO_VAL_DEPTH : depth);
	}
	return (uint32_t)vs->n - 1;
}
