/* infragraph_doc: the tree read as InfraGraph schema 2.x (the OpenAPI
 * schema of Keysight/infragraph 2.4: Infrastructure, Device, Component,
 * Link, Instance, Infrastructure.Edge, Device.Edge). Every object is read
 * strictly, as et-sim's other inputs are: a key the schema does not have
 * is an error, not a silence, and so is a key given twice. The form that
 * infragraph's get_graph prints, {infrastructure: ..., annotations: ...},
 * is read too (the annotations are not). */
#include "et-sim/infragraph/infragraph.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKEYS(a) ((int)(sizeof a / sizeof *a))

static const char *const k_wrap[] = {"infrastructure", "annotations"};
static const char *const k_root[] = {"name",  "description", "devices",
                                     "links", "instances",   "edges"};
static const char *const k_dev[] = {"name", "description", "components", "links", "edges"};
/* the component's choices, in enum ig_ckind order, then its other keys */
static const char *const k_comp[] = {"custom", "device", "cpu",  "xpu",         "nic",   "memory",
                                     "port",   "switch", "name", "description", "count", "choice"};
enum { C_NAME = 8, C_DESC, C_COUNT, C_CHOICE };
static const char *const k_link[] = {"name", "description", "physical"};
static const char *const k_phys[] = {"bandwidth", "latency"};
static const char *const k_bw[] = {"choice", "gigabits_per_second", "gigabytes_per_second",
                                   "gigatransfers_per_second"};
static const char *const k_lat[] = {"choice", "ms", "us", "ns"};
static const char *const k_inst[] = {"name", "description", "device", "count"};
static const char *const k_edge[] = {"ep1", "ep2", "scheme", "link"};
static const char *const k_iep[] = {"instance", "component"};
static const char *const k_dep[] = {"device", "component"};

/* ---- values ---- */

static const char *kind_name(const ig_val *v)
{
	return v->kind == IG_MAP ? "a mapping" : v->kind == IG_SEQ ? "a list" : "a value";
}

/* The members of map m among keys[0..n), each once: out[i] the value of
 * keys[i], NULL when absent or null. */
static int members(const ig_ctx *c, const ig_val *m, const char *const *keys, int n,
                   const ig_val **out)
{
	const ig_val *seen[16] = {0};
	if (m->kind != IG_MAP)
		return ig_fail(c, m, "expected a mapping, got %s", kind_name(m));
	for (const ig_val *v = m->first; v; v = v->next) {
		int i = 0;
		while (i < n && strcmp(v->key, keys[i]) != 0)
			i++;
		if (i == n) {
			char list[400];
			size_t l = 0;
			for (int k = 0; k < n && l < sizeof list; k++)
				l += (size_t)snprintf(list + l, sizeof list - l, "%s%s",
				                      k ? ", " : "", keys[k]);
			return ig_fail(c, v, "unknown key (InfraGraph 2.x has %s here)", list);
		}
		if (seen[i] && seen[i]->line)
			return ig_fail(c, v, "given twice (first on line %u)", seen[i]->line);
		if (seen[i])
			return ig_fail(c, v, "given twice");
		seen[i] = v;
	}
	for (int i = 0; i < n; i++)
		out[i] = seen[i] && seen[i]->kind != IG_NULL ? seen[i] : NULL;
	return 0;
}

static int need(const ig_ctx *c, const ig_val *m, const ig_val *v, const char *key)
{
	return v ? 0 : ig_fail(c, m, "missing \"%s\"", key);
}

static int text_of(const ig_ctx *c, const ig_val *v, const char **s)
{
	*s = "";
	if (v->kind != IG_SCALAR)
		return ig_fail(c, v, "expected a string, got %s", kind_name(v));
	*s = v->text;
	return 0;
}

/* A list, or nothing (NULL): its item count. */
static int list_len(const ig_ctx *c, const ig_val *v, uint32_t *n)
{
	*n = 0;
	if (v && v->kind != IG_SEQ)
		return ig_fail(c, v, "expected a list, got %s", kind_name(v));
	*n = v ? v->n : 0;
	return 0;
}

/* Names become parts of dot names and of endpoint paths, so they hold what
 * InfraGraph's name pattern allows but the brackets (which endpoints
 * use). */
static int name_of(const ig_ctx *c, const ig_val *v, const char **s)
{
	if (text_of(c, v, s) < 0)
		return -1;
	size_t n = strlen(*s);
	if (n == 0 || n > IG_MAX_NAME)
		return ig_fail(c, v, "a name of 1 to %d characters", IG_MAX_NAME);
	for (const char *p = *s; *p; p++)
		if (!strchr("-_()<> ", *p) && !(*p >= '0' && *p <= '9') &&
		    !(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z'))
			return ig_fail(c, v,
			               "a name holds letters, digits, blanks and - _ ( ) < > only");
	return 0;
}

/* The infrastructure's name is free text, but one line: callers print it. */
static int title_of(const ig_ctx *c, const ig_val *v, const char **s)
{
	if (text_of(c, v, s) < 0)
		return -1;
	for (const unsigned char *p = (const unsigned char *)*s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return ig_fail(c, v, "a control character in the name");
	return 0;
}

/* A name, added to m: unique among its kind. */
static int name_in(const ig_ctx *c, const ig_val *v, et_strmap *m, const char *what, const char **s)
{
	if (name_of(c, v, s) < 0)
		return -1;
	uint32_t n = et_strmap_count(m);
	if (et_strmap_intern_str(m, *s) != n) {
		char q[96];
		return ig_fail(c, v, "%s %s given twice", what, et_quote(*s, q, sizeof q));
	}
	return 0;
}

static int count_of(const ig_ctx *c, const ig_val *v, uint32_t *out)
{
	const char *s;
	if (text_of(c, v, &s) < 0)
		return -1;
	size_t n = strspn(s, "0123456789");
	unsigned long long x = n && n <= 10 && !s[n] && s[0] != '0' ? strtoull(s, NULL, 10) : 0;
	if (x < 1 || x > 2147483647)
		return ig_fail(c, v, "a count is an integer from 1 to 2147483647");
	*out = (uint32_t)x;
	return 0;
}

/* A decimal number (no hex, inf or nan), finite. */
static int number_of(const ig_ctx *c, const ig_val *v, double *out)
{
	const char *s;
	if (text_of(c, v, &s) < 0)
		return -1;
	char *end;
	bool ok = s[0] && strspn(s, "0123456789+-.eE") == strlen(s) && strpbrk(s, "0123456789");
	*out = ok ? strtod(s, &end) : 0;
	if (!ok || *end || !isfinite(*out))
		return ig_fail(c, v, "expected a number");
	return 0;
}

/* ---- the pre-2.0 form ---- */

/* The key of map m (a device, component, link or edge) that marks the
 * older form, and what it shows; NULL when none. */
static const ig_val *legacy_in(const ig_val *m, const char **why)
{
	const ig_val *v;
	if ((v = ig_get(m, "connections")))
		*why = "dot-string \"connections\"";
	else if ((v = ig_get(m, "type")) && !ig_get(m, "choice"))
		*why = "components with \"type\"";
	else if ((v = ig_get(m, "external")))
		*why = "components with \"external\"";
	else if ((v = ig_get(m, "bandwidth")) && !ig_get(m, "physical") && ig_get(m, "name"))
		*why = "link \"bandwidth\" outside \"physical\"";
	else if ((v = ig_get(m, "many2many")) && !ig_get(m, "scheme"))
		*why = "edge \"many2many\" instead of \"scheme\"";
	else
		v = NULL;
	return v;
}

/* The first mark in the items of list k of m (and, for devices, in their
 * components and links). */
static const ig_val *legacy_list(const ig_val *m, const char *k, const char **why)
{
	const ig_val *l = ig_get(m, k), *at = NULL;
	bool dev = strcmp(k, "devices") == 0;
	for (const ig_val *v = l && l->kind == IG_SEQ ? l->first : NULL; v && !at; v = v->next) {
		if (dev && !(at = legacy_list(v, "components", why)))
			at = legacy_list(v, "links", why);
		if (!at)
			at = legacy_in(v, why);
	}
	return at;
}

/* In the infrastructure m (the root, or what it wraps). */
static const ig_val *legacy_under(const ig_val *m, const char **why)
{
	const ig_val *at = NULL;
	if (!m || m->kind != IG_MAP)
		return NULL;
	if (!(at = legacy_list(m, "devices", why)) && !(at = legacy_list(m, "links", why)) &&
	    !(at = legacy_list(m, "edges", why)) && (at = ig_get(m, "connections")))
		*why = "dot-string \"connections\"";
	return at;
}

static int legacy_check(const ig_ctx *c, const ig_val *root)
{
	const char *why = "top-level \"device:\"";
	const ig_val *at = ig_get(root, "device");
	if (!at && !(at = legacy_under(root, &why)))
		at = legacy_under(ig_get(root, "infrastructure"), &why);
	if (!at)
		return 0;
	return ig_fail(c, at,
	               "the pre-2.0 InfraGraph form (%s): et-sim reads schema 2.x; convert the "
	               "file with infragraph 2.x (components with \"choice\", edges with "
	               "ep1/ep2/scheme)",
	               why);
}

/* ---- links ---- */

/* A {choice, UNIT...} value: keys[0] is "choice", units keys[1..n). The
 * unit taken (1..n-1) and its value; 0 when the mapping is empty. */
static int choice_of(const ig_ctx *c, const ig_val *m, const char *const *keys, int n, int *unit,
                     double *x)
{
	const ig_val *v[4];
	if (members(c, m, keys, n, v) < 0)
		return -1;
	*unit = 0;
	for (int i = 1; i < n; i++)
		if (v[i] && !v[0] && *unit)
			return ig_fail(c, m, "\"%s\" and \"%s\" given, and no \"choice\"",
			               keys[*unit], keys[i]);
		else if (v[i] && !v[0])
			*unit = i;
	const char *s;
	if (v[0] && text_of(c, v[0], &s) < 0)
		return -1;
	for (int i = 1; v[0] && i < n; i++)
		*unit = strcmp(s, keys[i]) == 0 ? i : *unit;
	if (v[0] && !*unit)
		return ig_fail(c, v[0], "not a choice here (%s, %s or %s)", keys[1], keys[2],
		               keys[3]);
	for (int i = 1; v[0] && i < n; i++)
		if (v[i] && i != *unit)
			return ig_fail(c, v[i], "given beside choice %s", keys[*unit]);
	if (*unit && need(c, m, v[*unit], keys[*unit]) < 0)
		return -1;
	return *unit ? number_of(c, v[*unit], x) : 0;
}

static int bandwidth_of(const ig_ctx *c, const ig_val *m, ig_link *l)
{
	/* Giga is 1e9 and a byte 8 bits, so GB/s is B/ns. A transfer is
	 * taken as one bit (PCIe-style lanes: GT/s reads as Gb/s per lane). */
	static const double per_unit[] = {0, 0.125, 1, 0.125};
	int unit;
	double x;
	if (choice_of(c, m, k_bw, NKEYS(k_bw), &unit, &x) < 0)
		return -1;
	l->nobw = unit == 0;
	l->bpns = unit ? x * per_unit[unit] : 0;
	/* x > 0 so small that x / 8 is 0 is no bandwidth either */
	if (unit && !(l->bpns > 0))
		return ig_fail(c, m, "a bandwidth is more than 0");
	return 0;
}

static int latency_of(const ig_ctx *c, const ig_val *m, ig_link *l)
{
	static const double per_unit[] = {0, 1e6, 1e3, 1};
	int unit;
	double x;
	if (choice_of(c, m, k_lat, NKEYS(k_lat), &unit, &x) < 0)
		return -1;
	l->lat_ns = unit ? x * per_unit[unit] + 0.0 : 0; /* + 0.0: -0 becomes 0 */
	if (unit && !(x >= 0 && isfinite(l->lat_ns)))
		return ig_fail(c, m, "a latency is a finite number, 0 or more");
	return 0;
}

static int link_of(const ig_ctx *c, const ig_val *m, et_strmap *names, uint32_t dev, ig_link *l)
{
	const ig_val *v[3], *p[2] = {0};
	*l = (ig_link){.dev = dev, .nobw = true};
	if (members(c, m, k_link, 3, v) < 0 || need(c, m, v[0], "name") < 0 ||
	    name_in(c, v[0], names, "link", &l->name) < 0)
		return -1;
	if (v[2] && members(c, v[2], k_phys, 2, p) < 0)
		return -1;
	if (p[0] && bandwidth_of(c, p[0], l) < 0)
		return -1;
	return p[1] ? latency_of(c, p[1], l) : 0;
}

/* The links of list v into d->link from index *at on. */
static int links_of(const ig_ctx *c, ig_doc *d, const ig_val *v, et_strmap *names, uint32_t dev)
{
	for (const ig_val *x = v ? v->first : NULL; x; x = x->next)
		if (link_of(c, x, names, dev, &d->link[d->nlink++]) < 0)
			return -1;
	return 0;
}

/* ---- devices and instances ---- */

static int component_of(const ig_ctx *c, const ig_doc *d, ig_dev *dv, const ig_val *m, ig_comp *cp)
{
	const ig_val *v[NKEYS(k_comp)];
	const char *ch;
	char q[96];
	cp->at = m;
	if (members(c, m, k_comp, NKEYS(k_comp), v) < 0 || need(c, m, v[C_NAME], "name") < 0 ||
	    need(c, m, v[C_COUNT], "count") < 0 || need(c, m, v[C_CHOICE], "choice") < 0 ||
	    name_in(c, v[C_NAME], &dv->cname, "component", &cp->name) < 0 ||
	    count_of(c, v[C_COUNT], &cp->count) < 0 || text_of(c, v[C_CHOICE], &ch) < 0)
		return -1;
	int k = 0;
	while (k <= IG_SWITCH && strcmp(ch, k_comp[k]) != 0)
		k++;
	if (k > IG_SWITCH)
		return ig_fail(c, v[C_CHOICE],
		               "%s: not a choice (custom, device, cpu, xpu, nic, memory, port, "
		               "switch)",
		               et_quote(ch, q, sizeof q));
	for (int i = 0; i <= IG_SWITCH; i++)
		if (v[i] && v[i]->kind != IG_MAP)
			return ig_fail(c, v[i], "expected a mapping, got %s", kind_name(v[i]));
	cp->kind = (enum ig_ckind)k;
	cp->dev = k == IG_DEVICE ? et_strmap_find(&d->dname, cp->name) : UINT32_MAX;
	if (k == IG_DEVICE && cp->dev == ET_STRMAP_NONE)
		return ig_fail(c, v[C_NAME],
		               "choice device, but no device is named %s (a nested device's "
		               "component takes its name)",
		               et_quote(cp->name, q, sizeof q));
	return 0;
}

/* A device's components and links (its edges wait for every device). */
static int device_of(const ig_ctx *c, ig_doc *d, uint32_t di, const ig_val *m)
{
	ig_dev *dv = &d->dev[di];
	const ig_val *v[NKEYS(k_dev)];
	if (members(c, m, k_dev, NKEYS(k_dev), v) < 0 || need(c, m, v[2], "components") < 0 ||
	    list_len(c, v[2], &dv->ncomp) < 0 || list_len(c, v[3], &dv->nlink) < 0 ||
	    list_len(c, v[4], &dv->nedge) < 0)
		return -1;
	dv->comp = et_arena_alloc(c->a, (size_t)dv->ncomp * sizeof *dv->comp + 1);
	uint32_t i = 0;
	for (const ig_val *x = v[2]->first; x; x = x->next)
		if (component_of(c, d, dv, x, &dv->comp[i++]) < 0)
			return -1;
	dv->link0 = d->nlink;
	return links_of(c, d, v[3], &dv->lname, di);
}

static int instance_of(const ig_ctx *c, ig_doc *d, const ig_val *m, ig_inst *in)
{
	const ig_val *v[NKEYS(k_inst)];
	const char *dev;
	char q[96];
	in->at = m;
	if (members(c, m, k_inst, NKEYS(k_inst), v) < 0 || need(c, m, v[0], "name") < 0 ||
	    need(c, m, v[2], "device") < 0 || need(c, m, v[3], "count") < 0 ||
	    name_in(c, v[0], &d->iname, "instance", &in->name) < 0 || text_of(c, v[2], &dev) < 0 ||
	    count_of(c, v[3], &in->count) < 0)
		return -1;
	in->dev = et_strmap_find(&d->dname, dev);
	if (in->dev == ET_STRMAP_NONE)
		return ig_fail(c, v[2], "no device named %s", et_quote(dev, q, sizeof q));
	return 0;
}

/* ---- edges ---- */

/* Endpoint m of an edge in device dev (UINT32_MAX: the infrastructure). */
static int endpoint_of(const ig_ctx *c, const ig_doc *d, uint32_t dev, const ig_val *m, ig_ep *ep)
{
	const ig_val *v[2];
	const char *a = "", *b = "";
	bool top = dev == UINT32_MAX;
	if (members(c, m, top ? k_iep : k_dep, 2, v) < 0 ||
	    (top && need(c, m, v[0], "instance") < 0) || need(c, m, v[1], "component") < 0 ||
	    (v[0] && text_of(c, v[0], &a) < 0) || text_of(c, v[1], &b) < 0)
		return -1;
	if (top)
		return ig_ep_parse(c, d, 0, v[0], b, v[1], ep);
	/* a device endpoint's "device" is the path's first step */
	if (v[0]) {
		size_t la = strlen(a), lb = strlen(b);
		char *p = et_arena_alloc(c->a, la + lb + 2);
		memcpy(p, a, la);
		p[la] = '.';
		memcpy(p + la + 1, b, lb + 1);
		b = p;
	}
	return ig_ep_parse(c, d, dev, NULL, b, v[1], ep);
}

static int scheme_of(const ig_ctx *c, const ig_val *v, bool *many)
{
	const char *s;
	char q[96];
	if (text_of(c, v, &s) < 0)
		return -1;
	*many = strcmp(s, "many2many") == 0;
	if (*many || strcmp(s, "one2one") == 0)
		return 0;
	if (strcmp(s, "ring") == 0)
		return ig_fail(c, v,
		               "scheme ring is not supported (infragraph 2.x does not "
		               "expand it either): use one2one edges");
	return ig_fail(c, v, "%s: not a scheme (one2one or many2many)", et_quote(s, q, sizeof q));
}

static int link_ref(const ig_ctx *c, const ig_doc *d, uint32_t dev, const ig_val *v, uint32_t *link)
{
	const char *s;
	char q[96];
	if (text_of(c, v, &s) < 0)
		return -1;
	const et_strmap *m = dev == UINT32_MAX ? &d->lname : &d->dev[dev].lname;
	uint32_t i = et_strmap_find(m, s);
	if (i == ET_STRMAP_NONE && dev == UINT32_MAX)
		return ig_fail(c, v, "%s: no such link in the infrastructure's links",
		               et_quote(s, q, sizeof q));
	if (i == ET_STRMAP_NONE)
		return ig_fail(c, v, "%s: no such link in device %s's links",
		               et_quote(s, q, sizeof q), d->dev[dev].name);
	*link = i + (dev == UINT32_MAX ? 0 : d->dev[dev].link0);
	return 0;
}

static int edge_of(const ig_ctx *c, const ig_doc *d, uint32_t dev, const ig_val *m, ig_edge *e)
{
	const ig_val *v[4];
	e->at = m;
	if (members(c, m, k_edge, 4, v) < 0 || need(c, m, v[0], "ep1") < 0 ||
	    need(c, m, v[1], "ep2") < 0 || need(c, m, v[2], "scheme") < 0 ||
	    need(c, m, v[3], "link") < 0 || endpoint_of(c, d, dev, v[0], &e->ep[0]) < 0 ||
	    endpoint_of(c, d, dev, v[1], &e->ep[1]) < 0 || scheme_of(c, v[2], &e->many) < 0 ||
	    link_ref(c, d, dev, v[3], &e->link) < 0)
		return -1;
	if (!e->many && e->ep[0].n != e->ep[1].n)
		return ig_fail(c, m,
		               "one2one, but ep1 names %llu components and ep2 %llu (many2many "
		               "pairs every one with every one)",
		               (unsigned long long)e->ep[0].n, (unsigned long long)e->ep[1].n);
	return 0;
}

static int edges_of(const ig_ctx *c, const ig_doc *d, uint32_t dev, const ig_val *v, ig_edge **out,
                    uint32_t n)
{
	*out = et_arena_alloc(c->a, (size_t)n * sizeof **out + 1);
	uint32_t i = 0;
	for (const ig_val *x = v ? v->first : NULL; x; x = x->next)
		if (edge_of(c, d, dev, x, &(*out)[i++]) < 0)
			return -1;
	return 0;
}

/* ---- the document ---- */

/* The devices: names first, so that components may name any device. */
static int devices_of(const ig_ctx *c, ig_doc *d, const ig_val *v)
{
	uint32_t i = 0;
	d->dev = et_arena_alloc(c->a, (size_t)d->ndev * sizeof *d->dev + 1);
	memset(d->dev, 0, (size_t)d->ndev * sizeof *d->dev);
	for (const ig_val *x = v ? v->first : NULL; x; x = x->next, i++) {
		const ig_val *nm = ig_get(x, "name");
		d->dev[i].at = x;
		if (x->kind != IG_MAP)
			return ig_fail(c, x, "expected a mapping, got %s", kind_name(x));
		if (need(c, x, nm && nm->kind != IG_NULL ? nm : NULL, "name") < 0 ||
		    name_in(c, nm, &d->dname, "device", &d->dev[i].name) < 0)
			return -1;
	}
	for (i = 0; i < d->ndev; i++)
		if (device_of(c, d, i, d->dev[i].at) < 0)
			return -1;
	return 0;
}

/* Every link of the file: the infrastructure's, then each device's. */
static uint32_t links_in_all(const ig_val *devs, uint32_t ntop)
{
	uint32_t n = ntop;
	for (const ig_val *x = devs ? devs->first : NULL; x; x = x->next) {
		const ig_val *l = ig_get(x, "links");
		n += l && l->kind == IG_SEQ ? l->n : 0;
	}
	return n;
}

static int instances_of(const ig_ctx *c, ig_doc *d, const ig_val *v)
{
	uint32_t i = 0;
	d->inst = et_arena_alloc(c->a, (size_t)d->ninst * sizeof *d->inst + 1);
	for (const ig_val *x = v ? v->first : NULL; x; x = x->next)
		if (instance_of(c, d, x, &d->inst[i++]) < 0)
			return -1;
	return 0;
}

/* The infrastructure itself, or inside get_graph's wrapper. */
static int infrastructure_of(const ig_ctx *c, const ig_val *root, const ig_val **inf)
{
	const ig_val *w[2];
	*inf = root;
	if (!ig_get(root, "infrastructure"))
		return 0;
	if (members(c, root, k_wrap, 2, w) < 0 || need(c, root, w[0], "infrastructure") < 0)
		return -1;
	*inf = w[0];
	return 0;
}

int ig_doc_read(const ig_ctx *c, const ig_val *root, ig_doc *d)
{
	const ig_val *inf, *v[NKEYS(k_root)];
	if (legacy_check(c, root) < 0 || infrastructure_of(c, root, &inf) < 0 ||
	    members(c, inf, k_root, NKEYS(k_root), v) < 0)
		return -1;
	d->name = "";
	if ((v[0] && title_of(c, v[0], &d->name) < 0) || list_len(c, v[2], &d->ndev) < 0 ||
	    list_len(c, v[3], &d->ntoplink) < 0 || list_len(c, v[4], &d->ninst) < 0 ||
	    list_len(c, v[5], &d->nedge) < 0)
		return -1;
	uint32_t nl = links_in_all(v[2], d->ntoplink);
	d->link = et_arena_alloc(c->a, (size_t)nl * sizeof *d->link + 1);
	if (links_of(c, d, v[3], &d->lname, UINT32_MAX) < 0 || devices_of(c, d, v[2]) < 0 ||
	    instances_of(c, d, v[4]) < 0)
		return -1;
	for (uint32_t i = 0; i < d->ndev; i++) {
		ig_dev *dv = &d->dev[i];
		const ig_val *ev = ig_get(dv->at, "edges");
		if (edges_of(c, d, i, ev && ev->kind == IG_SEQ ? ev : NULL, &dv->edge, dv->nedge) <
		    0)
			return -1;
	}
	return edges_of(c, d, UINT32_MAX, v[5], &d->edge, d->nedge);
}

void ig_doc_free(ig_doc *d)
{
	for (uint32_t i = 0; d->dev && i < d->ndev; i++) {
		et_strmap_free(&d->dev[i].cname);
		et_strmap_free(&d->dev[i].lname);
	}
	et_strmap_free(&d->dname);
	et_strmap_free(&d->iname);
	et_strmap_free(&d->lname);
}
