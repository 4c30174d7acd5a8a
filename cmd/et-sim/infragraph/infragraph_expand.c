/* infragraph_expand: the document as devices and edges. Nothing is looked
 * up by name here: a leaf component's device number follows from counts.
 * Per device (memoized, nesting and cycles checked on the way) we know
 * how many xpu and other leaves one instance holds and where each
 * component's leaves start among them; the NPUs are numbered first, so a
 * leaf's number is its class's base (0 for xpu, nnpu for the others) plus
 * the offsets along its path. Every count is saturated, so the limits are
 * checked from the counts before a device or edge is made. */
#include "et-sim/infragraph/infragraph.h"
#include "et_buf.h"
#include "et_mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dinfo {
	uint64_t nx, no;   /* xpu / other leaves in one instance */
	uint64_t ne;       /* edges of one instance, before self pairs and repeats are dropped */
	uint64_t *cx, *co; /* per component: where its leaves start among the device's */
	int state;         /* 0 not seen, 1 being analyzed (a cycle if met again), 2 done */
	int depth;         /* levels of devices, itself included */
} dinfo;

typedef struct expander {
	const ig_ctx *c;
	const ig_doc *d;
	netgraph *g;
	dinfo *di;
	uint64_t *ibx, *ibo; /* per instance: its first leaves' numbers */
	uint64_t nedge_max;
	/* names */
	et_buf path;
	uint64_t nextx, nexto;
	size_t name_bytes;
	/* edges */
	uint32_t *ida, *idb; /* an endpoint's devices */
	uint32_t *slot;      /* open addressing: edge index + 1 by its pair, 0 = empty */
	uint64_t mask;
	int shift;
} expander;

/* Leaves one item of component cp holds, xpu and other. */
static uint64_t item_x(const expander *x, const ig_comp *cp)
{
	return cp->kind == IG_DEVICE ? x->di[cp->dev].nx : cp->kind == IG_XPU;
}

static uint64_t item_o(const expander *x, const ig_comp *cp)
{
	return cp->kind == IG_DEVICE ? x->di[cp->dev].no : cp->kind != IG_XPU;
}

static uint64_t pairs(const ig_edge *e)
{
	return e->many ? ig_sat_mul(e->ep[0].n, e->ep[1].n) : e->ep[0].n;
}

static const char *count_text(uint64_t v, char *buf, size_t n)
{
	if (v >= IG_SAT)
		snprintf(buf, n, "over %llu", (unsigned long long)IG_SAT);
	else
		snprintf(buf, n, "%llu", (unsigned long long)v);
	return buf;
}

/* ---- counts ---- */

/* Device dv met at nesting level `level` (an instance's device is 1). */
static int analyze(expander *x, uint32_t dv, int level)
{
	const ig_dev *D = &x->d->dev[dv];
	dinfo *i = &x->di[dv];
	if (i->state == 1)
		return ig_fail(x->c, D->at, "device %s contains itself", D->name);
	if (level > IG_MAX_NEST || (i->state == 2 && level + i->depth - 1 > IG_MAX_NEST))
		return ig_fail(x->c, D->at, "devices nested more than %d deep (device %s here)",
		               IG_MAX_NEST, D->name);
	if (i->state == 2)
		return 0;
	i->state = 1;
	i->depth = 1;
	i->cx = et_arena_alloc(x->c->a, (D->ncomp + 1) * sizeof *i->cx);
	i->co = et_arena_alloc(x->c->a, (D->ncomp + 1) * sizeof *i->co);
	for (uint32_t k = 0; k < D->ncomp; k++) {
		const ig_comp *cp = &D->comp[k];
		if (cp->kind == IG_DEVICE) {
			if (analyze(x, cp->dev, level + 1) < 0)
				return -1;
			const dinfo *e = &x->di[cp->dev];
			i->depth = e->depth + 1 > i->depth ? e->depth + 1 : i->depth;
			i->ne = ig_sat_add(i->ne, ig_sat_mul(cp->count, e->ne));
		}
		i->cx[k] = i->nx;
		i->co[k] = i->no;
		i->nx = ig_sat_add(i->nx, ig_sat_mul(cp->count, item_x(x, cp)));
		i->no = ig_sat_add(i->no, ig_sat_mul(cp->count, item_o(x, cp)));
	}
	for (uint32_t k = 0; k < D->nedge; k++)
		i->ne = ig_sat_add(i->ne, pairs(&D->edge[k]));
	i->state = 2;
	return 0;
}

/* The instances' bases and the totals, against the limits. */
static int totals(expander *x, uint64_t *nx, uint64_t *no)
{
	const ig_doc *d = x->d;
	uint64_t ne = 0;
	char b1[32];
	*nx = *no = 0;
	for (uint32_t k = 0; k < d->ninst; k++) {
		const ig_inst *I = &d->inst[k];
		if (analyze(x, I->dev, 1) < 0)
			return -1;
		const dinfo *i = &x->di[I->dev];
		x->ibx[k] = *nx;
		x->ibo[k] = *no;
		*nx = ig_sat_add(*nx, ig_sat_mul(I->count, i->nx));
		*no = ig_sat_add(*no, ig_sat_mul(I->count, i->no));
		ne = ig_sat_add(ne, ig_sat_mul(I->count, i->ne));
	}
	for (uint32_t k = 0; k < d->nedge; k++)
		ne = ig_sat_add(ne, pairs(&d->edge[k]));
	uint64_t ndev = ig_sat_add(*nx, *no);
	if (ndev > IG_MAX_DEV)
		return ig_fail(x->c, NULL,
		               "the instances expand to %s devices, more than the %u et-sim takes",
		               count_text(ndev, b1, sizeof b1), IG_MAX_DEV);
	if (*nx == 0)
		return ig_fail(x->c, NULL, "no NPU: no instance holds a component with choice xpu");
	if (ne > IG_MAX_EDGE)
		return ig_fail(
		    x->c, NULL,
		    "the edges expand to %s, more than the %u et-sim takes (counted before "
		    "self pairs and repeated pairs are dropped)",
		    count_text(ne, b1, sizeof b1), IG_MAX_EDGE);
	for (uint32_t k = 0; k < d->ninst; k++)
		x->ibo[k] += *nx;
	x->nedge_max = ne;
	return 0;
}

/* ---- names ---- */

static int name_leaf(expander *x, bool xpu)
{
	size_t n = x->path.len;
	x->name_bytes += n + 1;
	if (x->name_bytes > IG_MAX_NAME_BYTES)
		return ig_fail(x->c, NULL, "the device names take more than %zu MiB",
		               IG_MAX_NAME_BYTES >> 20);
	char *s = et_xmalloc(n + 1);
	memcpy(s, x->path.data, n);
	s[n] = 0;
	x->g->dev[xpu ? x->nextx++ : x->nexto++] = s;
	return 0;
}

/* The leaves of one item of device dv, named after x->path; in the order
 * of the numbering, so the two counters give each its number. */
static int name_dev(expander *x, uint32_t dv)
{
	const ig_dev *D = &x->d->dev[dv];
	for (uint32_t k = 0; k < D->ncomp; k++) {
		const ig_comp *cp = &D->comp[k];
		if (item_x(x, cp) + item_o(x, cp) == 0)
			continue; /* a nested device without components */
		for (uint32_t j = 0; j < cp->count; j++) {
			size_t mark = x->path.len;
			et_buf_printf(&x->path, ".%s.%u", cp->name, j);
			int r = cp->kind == IG_DEVICE ? name_dev(x, cp->dev)
			                              : name_leaf(x, cp->kind == IG_XPU);
			x->path.len = mark;
			if (r < 0)
				return -1;
		}
	}
	return 0;
}

static int names(expander *x)
{
	x->nextx = 0;
	x->nexto = x->g->nnpu;
	for (uint32_t k = 0; k < x->d->ninst; k++) {
		const ig_inst *I = &x->d->inst[k];
		const dinfo *i = &x->di[I->dev];
		for (uint32_t j = 0; i->nx + i->no && j < I->count; j++) {
			x->path.len = 0;
			et_buf_printf(&x->path, "%s.%u", I->name, j);
			if (name_dev(x, I->dev) < 0)
				return -1;
		}
	}
	return 0;
}

static void links(expander *x)
{
	const ig_doc *d = x->d;
	netgraph *g = x->g;
	g->nlink = d->nlink;
	g->link_name = et_xcalloc(d->nlink + 1, sizeof *g->link_name);
	g->link_nobw = et_xcalloc(d->nlink + 1, sizeof *g->link_nobw);
	for (uint32_t k = 0; k < d->nlink; k++) {
		const ig_link *l = &d->link[k];
		const char *dev = l->dev == UINT32_MAX ? NULL : d->dev[l->dev].name;
		size_t n = strlen(l->name) + (dev ? strlen(dev) + 1 : 0) + 1;
		g->link_name[k] = et_xmalloc(n);
		snprintf(g->link_name[k], n, "%s%s%s", dev ? dev : "", dev ? "." : "", l->name);
		g->link_nobw[k] = l->nobw;
	}
}

/* ---- edges ---- */

/* The leaves that ep's segments k.. name from device dv, whose leaves
 * start at xb (xpu) and ob (others). */
static void ep_walk(const expander *x, const ig_ep *ep, uint32_t k, uint32_t dv, uint64_t xb,
                    uint64_t ob, uint32_t *out, size_t *n)
{
	const ig_seg *s = &ep->seg[k];
	const ig_comp *cp = &x->d->dev[dv].comp[s->comp];
	const dinfo *i = &x->di[dv];
	bool last = k + 1 == ep->nseg;
	for (uint64_t j = s->sel.start; j < s->sel.stop; j += s->sel.step) {
		if (!last) {
			const dinfo *e = &x->di[cp->dev];
			ep_walk(x, ep, k + 1, cp->dev, xb + i->cx[s->comp] + j * e->nx,
			        ob + i->co[s->comp] + j * e->no, out, n);
		} else {
			uint64_t id =
			    cp->kind == IG_XPU ? xb + i->cx[s->comp] + j : ob + i->co[s->comp] + j;
			out[(*n)++] = (uint32_t)id;
		}
	}
}

/* The devices ep names, in order: instance index, then its path. */
static size_t ep_ids(const expander *x, const ig_ep *ep, uint32_t dv, uint64_t xb, uint64_t ob,
                     uint32_t *out)
{
	size_t n = 0;
	if (ep->inst == UINT32_MAX) {
		ep_walk(x, ep, 0, dv, xb, ob, out, &n);
		return n;
	}
	const ig_inst *I = &x->d->inst[ep->inst];
	const dinfo *i = &x->di[I->dev];
	for (uint64_t j = ep->isel.start; j < ep->isel.stop; j += ep->isel.step)
		ep_walk(x, ep, 0, I->dev, x->ibx[ep->inst] + j * i->nx,
		        x->ibo[ep->inst] + j * i->no, out, &n);
	return n;
}

/* g->edge holds nedge_max (the bound checked): no growth, no copy. */
static void push(expander *x, uint32_t a, uint32_t b, uint32_t link)
{
	netgraph *g = x->g;
	const ig_link *l = &x->d->link[link];
	g->edge[g->nedge++] =
	    (ng_edge){.a = a, .b = b, .link = link, .bpns = l->bpns, .lat_ns = l->lat_ns};
}

/* One edge a-b of e: none for a self pair, none again for a pair already
 * joined by the same link (InfraGraph's graph is simple: a pair is one
 * edge), an error for a pair already joined by another link. */
static int add(expander *x, const ig_edge *e, uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
	uint64_t k = ((((uint64_t)lo << 32) | hi) * 0x9E3779B97F4A7C15ull) >> x->shift;
	for (;; k = (k + 1) & x->mask) {
		uint32_t s = x->slot[k];
		if (!s) {
			x->slot[k] = (uint32_t)x->g->nedge + 1;
			push(x, a, b, e->link);
			return 0;
		}
		const ng_edge *f = &x->g->edge[s - 1];
		if ((f->a == a && f->b == b) || (f->a == b && f->b == a)) {
			if (f->link == e->link)
				return 0;
			char **ln = x->g->link_name, **dn = x->g->dev;
			return ig_fail(x->c, e->at,
			               "joins %s and %s again, by link %s (first by %s)", dn[a],
			               dn[b], ln[e->link], ln[f->link]);
		}
	}
}

/* Edge e of device dv, whose leaves start at xb and ob. */
static int emit(expander *x, const ig_edge *e, uint32_t dv, uint64_t xb, uint64_t ob)
{
	size_t na = ep_ids(x, &e->ep[0], dv, xb, ob, x->ida);
	size_t nb = ep_ids(x, &e->ep[1], dv, xb, ob, x->idb);
	for (size_t i = 0; i < na; i++)
		for (size_t j = e->many ? 0 : i; j < (e->many ? nb : i + 1); j++)
			if (add(x, e, x->ida[i], x->idb[j]) < 0)
				return -1;
	return 0;
}

/* The edges inside one item of device dv: its own, then its nested
 * devices' (InfraGraph's order). */
static int emit_dev(expander *x, uint32_t dv, uint64_t xb, uint64_t ob)
{
	const ig_dev *D = &x->d->dev[dv];
	const dinfo *i = &x->di[dv];
	for (uint32_t k = 0; k < D->nedge; k++)
		if (emit(x, &D->edge[k], dv, xb, ob) < 0)
			return -1;
	for (uint32_t k = 0; k < D->ncomp; k++) {
		const ig_comp *cp = &D->comp[k];
		const dinfo *e = cp->kind == IG_DEVICE ? &x->di[cp->dev] : NULL;
		for (uint32_t j = 0; e && e->ne && j < cp->count; j++)
			if (emit_dev(x, cp->dev, xb + i->cx[k] + j * e->nx,
			             ob + i->co[k] + j * e->no) < 0)
				return -1;
	}
	return 0;
}

static int edges(expander *x)
{
	const ig_doc *d = x->d;
	uint64_t size = 16;
	x->shift = 60;
	while (size < 2 * x->nedge_max)
		size *= 2, x->shift--;
	x->mask = size - 1;
	x->slot = et_xcalloc(size, sizeof *x->slot);
	x->g->edge = et_xmalloc((x->nedge_max + 1) * sizeof *x->g->edge);
	x->ida = et_xmalloc((x->g->ndev + 1) * sizeof *x->ida);
	x->idb = et_xmalloc((x->g->ndev + 1) * sizeof *x->idb);
	for (uint32_t k = 0; k < d->ninst; k++) {
		const ig_inst *I = &d->inst[k];
		const dinfo *i = &x->di[I->dev];
		for (uint32_t j = 0; i->ne && j < I->count; j++)
			if (emit_dev(x, I->dev, x->ibx[k] + j * i->nx, x->ibo[k] + j * i->no) < 0)
				return -1;
	}
	for (uint32_t k = 0; k < d->nedge; k++)
		if (emit(x, &d->edge[k], 0, 0, 0) < 0)
			return -1;
	/* give back what self pairs and repeats left unused (not ET_GROW: a
	 * final shrink to fit) */
	if (x->g->nedge < x->nedge_max / 2)
		x->g->edge = et_xrealloc(x->g->edge, (x->g->nedge + 1) * sizeof *x->g->edge);
	return 0;
}

int ig_expand(const ig_ctx *c, const ig_doc *d, netgraph *g)
{
	expander x = {.c = c, .d = d, .g = g};
	memset(g, 0, sizeof *g);
	x.di = et_arena_alloc(c->a, (d->ndev + 1) * sizeof *x.di);
	memset(x.di, 0, (d->ndev + 1) * sizeof *x.di);
	x.ibx = et_arena_alloc(c->a, (d->ninst + 1) * sizeof *x.ibx);
	x.ibo = et_arena_alloc(c->a, (d->ninst + 1) * sizeof *x.ibo);
	uint64_t nx, no;
	int r = totals(&x, &nx, &no);
	if (r == 0) {
		g->name = et_xstrdup(d->name);
		g->nnpu = (uint32_t)nx;
		g->ndev = (uint32_t)(nx + no);
		g->dev = et_xcalloc(g->ndev, sizeof *g->dev);
		links(&x);
		r = names(&x);
	}
	if (r == 0)
		r = edges(&x);
	et_buf_free(&x.path);
	free(x.slot);
	free(x.ida);
	free(x.idb);
	if (r < 0)
		netgraph_free(g);
	return r;
}
