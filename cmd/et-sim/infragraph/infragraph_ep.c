/* infragraph_ep: an edge endpoint's text resolved to an ig_ep. The syntax
 * is InfraGraph's: an instance "NAME" or "NAME[SEL]", then a component path
 * of such segments joined by '.', each segment but the last a nested device
 * component. SEL is a Python index or slice: "i", or "start:stop" or
 * "start:stop:step" with any part left out. Where Python would count from
 * the end or clamp, et-sim refuses (negative indices, an index or a bound
 * beyond the count, a selection of nothing): InfraGraph itself would
 * invent components that do not exist, so the file meant something else. */
#include "et-sim/infragraph/infragraph.h"
#include <stdio.h>
#include <string.h>

enum sel_err { SEL_OK, SEL_BAD, SEL_NEG, SEL_STEP0, SEL_RANGE, SEL_EMPTY };

/* A plain non-negative integer; -1 when it is not one, -2 when it is a
 * negative one. Huge values stop at 2^32 (beyond every count). */
static int64_t index_of(const char *s, size_t n)
{
	if (n > 1 && s[0] == '-' && s[1] >= '0' && s[1] <= '9')
		return -2;
	if (n == 0)
		return -1;
	int64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > (int64_t)UINT32_MAX)
			v = (int64_t)UINT32_MAX + 1;
	}
	return v;
}

/* One part of a slice, def when left out. */
static enum sel_err part(const char *s, size_t n, int64_t def, int64_t *v)
{
	*v = n ? index_of(s, n) : def;
	return *v == -2 ? SEL_NEG : *v < 0 ? SEL_BAD : SEL_OK;
}

/* s[0..n): "i" or "a:b" or "a:b:c" (parts may be empty), against count. */
static enum sel_err sel_parse(const char *s, size_t n, uint32_t count, ig_sel *out)
{
	const char *c1 = memchr(s, ':', n);
	if (!c1) {
		int64_t i;
		enum sel_err r = part(s, n, -1, &i);
		if (r != SEL_OK)
			return r;
		if (i >= count)
			return SEL_RANGE;
		*out = (ig_sel){(uint32_t)i, (uint32_t)i + 1, 1};
		return SEL_OK;
	}
	const char *end = s + n, *c2 = memchr(c1 + 1, ':', (size_t)(end - c1 - 1));
	if (c2 && memchr(c2 + 1, ':', (size_t)(end - c2 - 1)))
		return SEL_BAD;
	const char *stop_end = c2 ? c2 : end;
	int64_t a, b, st = 1;
	enum sel_err r = part(s, (size_t)(c1 - s), 0, &a);
	if (r == SEL_OK)
		r = part(c1 + 1, (size_t)(stop_end - c1 - 1), count, &b);
	if (r == SEL_OK && c2)
		r = part(c2 + 1, (size_t)(end - c2 - 1), 1, &st);
	if (r != SEL_OK)
		return r;
	if (st == 0)
		return SEL_STEP0;
	if (a > count || b > count)
		return SEL_RANGE;
	if (a >= b)
		return SEL_EMPTY;
	/* a step beyond the span selects start alone, as the count does */
	*out = (ig_sel){(uint32_t)a, (uint32_t)b, (uint32_t)(st < count ? st : count)};
	return SEL_OK;
}

/* One "NAME" or "NAME[SEL]" of s[0..n): the name's length, the selection's
 * text (NULL when none); false when the brackets are wrong. */
static bool seg_split(const char *s, size_t n, size_t *nlen, const char **sel, size_t *slen)
{
	const char *open = memchr(s, '[', n);
	*sel = NULL;
	*slen = 0;
	*nlen = open ? (size_t)(open - s) : n;
	if (memchr(s, ']', *nlen))
		return false;
	if (!open)
		return true;
	if (n < *nlen + 2 || s[n - 1] != ']')
		return false;
	*sel = open + 1;
	*slen = n - *nlen - 2;
	return !memchr(*sel, '[', *slen) && !memchr(*sel, ']', *slen);
}

/* The id of the n-byte name s in m, or ET_STRMAP_NONE. */
static uint32_t find(const et_strmap *m, const char *s, size_t n)
{
	char nm[IG_MAX_NAME + 1];
	if (n > IG_MAX_NAME)
		return ET_STRMAP_NONE;
	memcpy(nm, s, n);
	nm[n] = 0;
	return et_strmap_find(m, nm);
}

typedef struct epmsg {
	const ig_ctx *c;
	const ig_val *at;
	char q[120];
} epmsg;

static int sel_fail(const epmsg *m, enum sel_err r, const char *what, int nlen, const char *name,
                    uint32_t count)
{
	if (r == SEL_NEG)
		return ig_fail(m->c, m->at, "%s: negative indices are not supported", m->q);
	if (r == SEL_STEP0)
		return ig_fail(m->c, m->at, "%s: a slice step of 0", m->q);
	if (r == SEL_RANGE)
		return ig_fail(m->c, m->at, "%s: out of range: %s %.*s has count %u", m->q, what,
		               nlen, name, count);
	if (r == SEL_EMPTY)
		return ig_fail(m->c, m->at, "%s: the slice selects nothing", m->q);
	return ig_fail(m->c, m->at,
	               "%s: not NAME, NAME[i], NAME[a:b] or NAME[a:b:c] (i, a, b, c from 0)", m->q);
}

/* Segment s[0..n) of the path, in device dev: ep->seg[k] and its
 * device. */
static int seg_parse(const epmsg *m, const ig_doc *d, uint32_t *dev, const char *s, size_t n,
                     bool last, ig_seg *seg)
{
	size_t nlen, slen;
	const char *sel;
	if (!seg_split(s, n, &nlen, &sel, &slen) || nlen == 0)
		return sel_fail(m, SEL_BAD, "", 0, "", 0);
	const ig_dev *dv = &d->dev[*dev];
	uint32_t ci = find(&dv->cname, s, nlen);
	if (ci == ET_STRMAP_NONE)
		return ig_fail(m->c, m->at, "%s: device %s has no component %.*s", m->q, dv->name,
		               (int)nlen, s);
	const ig_comp *cp = &dv->comp[ci];
	seg->comp = ci;
	seg->sel = (ig_sel){0, cp->count, 1};
	enum sel_err r = sel ? sel_parse(sel, slen, cp->count, &seg->sel) : SEL_OK;
	if (r != SEL_OK)
		return sel_fail(m, r, "component", (int)nlen, s, cp->count);
	if (!last && cp->kind != IG_DEVICE)
		return ig_fail(m->c, m->at, "%s: %s is not a nested device (choice device)", m->q,
		               cp->name);
	if (last && cp->kind == IG_DEVICE)
		return ig_fail(m->c, m->at,
		               "%s: %s is a nested device: name one of its components (%s[i].NAME)",
		               m->q, cp->name, cp->name);
	*dev = cp->kind == IG_DEVICE ? cp->dev : *dev;
	return 0;
}

static int inst_parse(const ig_ctx *c, const ig_doc *d, const ig_val *inst, ig_ep *ep)
{
	epmsg m = {.c = c, .at = inst};
	const char *s = inst->text, *sel;
	size_t n = strlen(s), nlen, slen;
	et_quote(s, m.q, sizeof m.q);
	if (!seg_split(s, n, &nlen, &sel, &slen) || nlen == 0)
		return sel_fail(&m, SEL_BAD, "", 0, "", 0);
	ep->inst = find(&d->iname, s, nlen);
	if (ep->inst == ET_STRMAP_NONE)
		return ig_fail(c, inst, "%s: no instance %.*s", m.q, (int)nlen, s);
	uint32_t count = d->inst[ep->inst].count;
	ep->isel = (ig_sel){0, count, 1};
	enum sel_err r = sel ? sel_parse(sel, slen, count, &ep->isel) : SEL_OK;
	if (r != SEL_OK)
		return sel_fail(&m, r, "instance", (int)nlen, s, count);
	ep->n = ig_sel_len(ep->isel);
	return 0;
}

int ig_ep_parse(const ig_ctx *c, const ig_doc *d, uint32_t dev, const ig_val *inst,
                const char *comp_text, const ig_val *comp, ig_ep *ep)
{
	memset(ep, 0, sizeof *ep);
	ep->inst = UINT32_MAX;
	ep->n = 1;
	if (inst && inst_parse(c, d, inst, ep) < 0)
		return -1;
	if (inst)
		dev = d->inst[ep->inst].dev;
	epmsg m = {.c = c, .at = comp};
	et_quote(comp_text, m.q, sizeof m.q);
	uint32_t nseg = 1;
	for (const char *p = comp_text; *p; p++)
		nseg += *p == '.';
	if (nseg > IG_MAX_NEST)
		return ig_fail(c, comp, "%s: a path through more than %d devices", m.q,
		               IG_MAX_NEST);
	ep->seg = et_arena_alloc(c->a, nseg * sizeof *ep->seg);
	ep->nseg = nseg;
	const char *s = comp_text;
	for (uint32_t k = 0; k < nseg; k++) {
		const char *dot = strchr(s, '.');
		size_t n = dot ? (size_t)(dot - s) : strlen(s);
		if (seg_parse(&m, d, &dev, s, n, k + 1 == nseg, &ep->seg[k]) < 0)
			return -1;
		ep->n = ig_sat_mul(ep->n, ig_sel_len(ep->seg[k].sel));
		s += n + 1;
	}
	return 0;
}
