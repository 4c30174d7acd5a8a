/* cfg: defaults, KEY=VALUE settings and the final consistency checks. Keys
 * are the names of ASTRA-sim's YAML and JSON files ('-' and '_' are the
 * same); a list value separates its elements with ',' or '/'. */
#include "et-sim/config/cfg.h"
#include "et-sim/infragraph/netgraph.h"
#include "et-sim/net/net.h"
#include "et-sim/system/algo/algo_table.h"
#include "et_err.h"
#include "et_pg.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cfg_defaults(cfg *c)
{
	memset(c, 0, sizeof *c);
	c->lifo = true;
	c->lba = true;
	c->active_chunks = 1;
	c->splits = 4;
	c->endpoint = 10;
	c->local_mem_bw = 1600;
	c->peak_perf = 900;
	for (int k = 0; k < CI_N; k++) {
		c->impl[k].n = 1;
		c->impl[k].v[0] = ALGO_DEFAULT;
		c->impl[k].window[0] = -1;
	}
	c->compute_model = CM_REPLAY;
	c->compute_scale = 1;

	c->sys_rows = c->sys_cols = 128;
	c->sys_arrays = 1;
	c->sys_clock_ghz = 1;
	c->sys_dataflow = DF_WS;
}

static int topo_parse(const char *s)
{
	if (strcmp(s, "Ring") == 0 || strcmp(s, "ring") == 0)
		return TOPO_RING;
	if (strcmp(s, "FullyConnected") == 0 || strcmp(s, "fullyconnected") == 0 ||
	    strcmp(s, "fully_connected") == 0)
		return TOPO_FC;
	if (strcmp(s, "Switch") == 0 || strcmp(s, "switch") == 0)
		return TOPO_SWITCH;
	return -1;
}

/* Split v on ',' or '/' into at most max items (each <= 63 chars). */
enum { SPLIT_TOO_MANY = -1, SPLIT_TOO_LONG = -2 };

/* Items of a "a,b,c" (or "a/b/c") value into items; their number, or
 * SPLIT_TOO_MANY / SPLIT_TOO_LONG. */
static int split(const char *v, char items[][64], int max)
{
	int n = 0;
	const char *p = v;
	while (*p) {
		const char *e = p + strcspn(p, ",/");
		if (e - p >= 64)
			return SPLIT_TOO_LONG;
		if (n == max)
			return SPLIT_TOO_MANY;
		while (p < e && isspace((unsigned char)*p))
			p++;
		size_t l = (size_t)(e - p);
		while (l && isspace((unsigned char)p[l - 1]))
			l--;
		memcpy(items[n], p, l);
		items[n++][l] = 0;
		p = *e ? e + 1 : e;
	}
	return n;
}

/* A number written as JSON and YAML files write them (sign, digits,
 * fraction, exponent): strtod alone would also take hex, "inf", "nan" and
 * leading blanks. */
static int num(const char *s, double *v)
{
	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s) || strchr("+eE", *s))
		return -1;
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return (!*end && errno == 0 && isfinite(*v)) ? 0 : -1;
}

static int set_net_list(cfg *c, const char *key, char items[][64], int n, et_error *e)
{
	const char *keys[] = {"topology", "npus_count", "bandwidth", "latency"};
	for (int k = 0; k < 4; k++)
		if (strcmp(key, keys[k]) == 0)
			c->net.netlen[k] = n;
	c->ndims = n > c->ndims ? n : c->ndims;
	for (int i = 0; i < n; i++) {
		double v;
		if (strcmp(key, "topology") == 0) {
			int t = topo_parse(items[i]);
			if (t < 0)
				return et_fail(
				    e, ET_EXIT_USAGE,
				    "unknown topology '%s' (Ring, FullyConnected or Switch)",
				    items[i]);
			c->net.topo[i] = (uint8_t)t;
			continue;
		}
		if (num(items[i], &v) < 0)
			return et_fail(e, ET_EXIT_USAGE, "%s: '%s' is not a number", key, items[i]);
		if (strcmp(key, "npus_count") == 0) {
			if (v < 1 || v > 1e7 || v != floor(v))
				return et_fail(e, ET_EXIT_USAGE,
				               "npus_count: '%s' is not a rank count", items[i]);
			c->npus[i] = (uint32_t)v;
		} else if (strcmp(key, "bandwidth") == 0) {
			if (v <= 0)
				return et_fail(e, ET_EXIT_USAGE, "bandwidth must be > 0, got %s",
				               items[i]);
			c->net.bw[i] = v;
		} else {
			if (v < 0)
				return et_fail(e, ET_EXIT_USAGE, "latency must be >= 0, got %s",
				               items[i]);
			c->net.lat[i] = v;
		}
	}
	return 0;
}

/* logical-dims=8,4: the ranks' dimensions on an InfraGraph network. */
static int set_logical(cfg *c, const char *key, const char *val, et_error *e)
{
	char items[CFG_MAXDIM + 1][64];
	int n = split(val, items, CFG_MAXDIM);
	if (n < 1)
		return et_fail(e, ET_EXIT_USAGE, "%s: expected 1 to %d rank counts", key,
		               CFG_MAXDIM);
	for (int i = 0; i < n; i++) {
		double v;
		if (num(items[i], &v) < 0 || v < 1 || v > 1e7 || v != floor(v))
			return et_fail(e, ET_EXIT_USAGE, "%s: '%s' is not a rank count", key,
			               items[i]);
		c->npus[i] = (uint32_t)v;
	}
	c->ndims = n;
	c->net.nlogical = n;
	return 0;
}

static void norm_key(const char *in, char *out, size_t n)
{
	size_t i = 0;
	for (; in[i] && i + 1 < n; i++)
		out[i] = in[i] == '_' ? '-' : in[i];
	out[i] = 0;
}

static int set_backend(cfg *c, const char *val, et_error *e)
{
	int b = net_backend_parse(val);
	if (b < 0) {
		char names[256];
		net_backend_list(names, sizeof names, false);
		return et_fail(e, ET_EXIT_USAGE, "backend: expected %s, got '%s'", names, val);
	}
	c->net.backend = b;
	return 0;
}

static int impl_index(const char *k)
{
	const char *names[] = {"all-reduce-implementation", "all-gather-implementation",
	                       "reduce-scatter-implementation", "all-to-all-implementation"};
	for (int i = 0; i < CI_N; i++)
		if (strcmp(k, names[i]) == 0)
			return i;
	return -1;
}

static int set_impl(cfg *c, int ci, char items[][64], int n, et_error *e)
{
	if (n < 1)
		return et_fail(e, ET_EXIT_USAGE, "an implementation list needs at least one entry");
	impl_list *l = &c->impl[ci];
	for (int i = 0; i < n; i++) {
		bool one;
		if (algo_parse(items[i], &l->v[i], &one, &l->window[i]) < 0) {
			char names[256];
			algo_names(names, sizeof names);
			return et_fail(e, ET_EXIT_USAGE,
			               "unknown collective implementation '%s' (%s)", items[i],
			               names);
		}
		if (i == 0)
			l->one = one;
	}
	l->n = n;
	return 0;
}

/* What a JSON file can say (0, 1, true, false), and nothing else, so that
 * --set takes the values the system file takes. */
static int set_bool(const char *v, bool *out)
{
	if (!strcmp(v, "1") || !strcmp(v, "true"))
		*out = true;
	else if (!strcmp(v, "0") || !strcmp(v, "false"))
		*out = false;
	else
		return -1;
	return 0;
}

/* The index of v in the NULL-terminated list m; -1 when it is not there. */
static int choice_of(const char *v, const char *const *m)
{
	for (int i = 0; m[i]; i++)
		if (strcmp(v, m[i]) == 0)
			return i;
	return -1;
}

/* set_choice, set_number: 0, -1 with e set, or 1 when k is none of their keys. */
static int set_choice(cfg *c, const char *k, const char *v, et_error *e)
{
	if (strcmp(k, "scheduling-policy") == 0) {
		if (strcmp(v, "LIFO") && strcmp(v, "FIFO"))
			return et_fail(e, ET_EXIT_USAGE,
			               "scheduling-policy: expected LIFO or FIFO, got '%s'", v);
		c->lifo = strcmp(v, "LIFO") == 0;
	} else if (strcmp(k, "collective-optimization") == 0) {
		if (strcmp(v, "baseline") && strcmp(v, "localBWAware"))
			return et_fail(
			    e, ET_EXIT_USAGE,
			    "collective-optimization: expected baseline or localBWAware, "
			    "got '%s'",
			    v);
		c->lba = strcmp(v, "localBWAware") == 0;
	} else if (strcmp(k, "compute-model") == 0) {
		static const char *const m[] = {"replay", "roofline", "systolic", NULL};
		int i = choice_of(v, m);
		if (i < 0)
			return et_fail(
			    e, ET_EXIT_USAGE,
			    "compute-model: expected replay, roofline or systolic, got '%s'", v);
		c->compute_model = i;
	} else if (strcmp(k, "systolic-dataflow") == 0) {
		static const char *const m[] = {"os", "ws", "is", NULL};
		int i = choice_of(v, m);
		if (i < 0)
			return et_fail(e, ET_EXIT_USAGE,
			               "systolic-dataflow: expected os, ws or is, got '%s'", v);
		c->sys_dataflow = i;
	} else {
		return 1;
	}
	return 0;
}

typedef struct numkey {
	const char *k;
	double min;
	int kind; /* 0 int64, 1 double, 2 int */
	size_t off;
} numkey;

#define OFF(f) offsetof(cfg, f)
#include <stddef.h>
static const numkey numkeys[] = {
    {"active-chunks-per-dimension", 1, 2, OFF(active_chunks)},
    {"preferred-dataset-splits", 1, 0, OFF(splits)},
    {"endpoint-delay", 0, 0, OFF(endpoint)},
    {"local-mem-bw", 0, 1, OFF(local_mem_bw)},
    {"peak-perf", 0, 1, OFF(peak_perf)},
    {"compute-scale", 0, 1, OFF(compute_scale)},
    {"mem-latency", 0, 0, OFF(mem_latency)},
    {"mem-bandwidth", 0, 1, OFF(mem_bw)},
    {"systolic-rows", 1, 0, OFF(sys_rows)},
    {"systolic-cols", 1, 0, OFF(sys_cols)},
    {"systolic-arrays", 1, 0, OFF(sys_arrays)},
    {"systolic-clock", 1e-9, 1, OFF(sys_clock_ghz)}, /* GHz: 0 would divide by 0 */
    {"systolic-a", 0, 1, OFF(sys_a)},
    {"systolic-b", -1e18, 1, OFF(sys_b)},
};

static int set_number(cfg *c, const char *k, const char *v, et_error *e)
{
	for (size_t i = 0; i < sizeof numkeys / sizeof *numkeys; i++) {
		const numkey *nk = &numkeys[i];
		if (strcmp(k, nk->k))
			continue;
		double d;
		if (num(v, &d) < 0 || d < nk->min || (nk->kind != 1 && d != floor(d)) || d > 1e18)
			return et_fail(e, ET_EXIT_USAGE, "%s: '%s' is not a valid value", k, v);
		char *p = (char *)c + nk->off;
		if (nk->kind == 0)
			*(int64_t *)p = (int64_t)d;
		else if (nk->kind == 1)
			*(double *)p = d;
		else
			*(int *)p = d > 1e9 ? 1000000000 : (int)d;
		return 0;
	}
	return 1;
}

/* cfg_set_kv's work: 0, -1 with e set, or 1 when et-sim has no such key. */
static int set_known_kv(cfg *c, const char *key, const char *val, et_error *e)
{
	char k[64];
	norm_key(key, k, sizeof k);
	char items[CFG_MAXDIM + 1][64];
	if (!strcmp(k, "topology") || !strcmp(k, "npus-count") || !strcmp(k, "bandwidth") ||
	    !strcmp(k, "latency")) {
		int n = split(val, items, CFG_MAXDIM);
		if (n == SPLIT_TOO_LONG)
			return et_fail(e, ET_EXIT_USAGE, "%s: a value is longer than 63 characters",
			               key);
		if (n < 1)
			return et_fail(e, ET_EXIT_USAGE, "%s: expected 1 to %d values", key,
			               CFG_MAXDIM);
		const char *nk = !strcmp(k, "npus-count") ? "npus_count" : k;
		return set_net_list(c, nk, items, n, e);
	}
	if (!strcmp(k, "logical-dims"))
		return set_logical(c, key, val, e);
	if (!strcmp(k, "backend"))
		return set_backend(c, val, e);
	size_t kl = strlen(k), sl = strlen("-implementation-custom");
	if (kl > sl && !strcmp(k + kl - sl, "-implementation-custom"))
		/* ASTRA-sim runs a custom collective's own ET instead of the built-in
		 * algorithm: ignoring the key would print the wrong times */
		return et_fail(e, ET_EXIT_USAGE,
		               "%s: custom collective implementations (ASTRA-sim's collective API) "
		               "are not supported yet: use %.*s with a built-in algorithm",
		               key, (int)(kl - strlen("-custom")), k);
	int ci = impl_index(k);
	if (ci >= 0) {
		int n = split(val, items, CFG_MAXDIM);
		if (n == SPLIT_TOO_LONG)
			return et_fail(e, ET_EXIT_USAGE,
			               "%s: an entry is longer than 63 characters", key);
		return n < 0
		           ? et_fail(e, ET_EXIT_USAGE, "%s: more than %d entries", key, CFG_MAXDIM)
		           : set_impl(c, ci, items, n, e);
	}
	if (!strcmp(k, "roofline-enabled") || !strcmp(k, "simulate-collectives")) {
		bool b;
		if (set_bool(val, &b) < 0)
			return et_fail(e, ET_EXIT_USAGE,
			               "%s: expected 0, 1, true or false, got '%s'", key, val);
		*(!strcmp(k, "roofline-enabled") ? &c->roofline : &c->extra_colls) = b;
		return 0;
	}
	int r = set_choice(c, k, val, e);
	if (r <= 0)
		return r;
	return set_number(c, k, val, e);
}

int cfg_set_kv(cfg *c, const char *key, const char *val, et_error *e)
{
	int r = set_known_kv(c, key, val, e);
	return r <= 0 ? r : et_fail(e, ET_EXIT_USAGE, "unknown key '%s'", key);
}

int cfg_set(cfg *c, const char *kv, et_error *e)
{
	const char *eq = strchr(kv, '=');
	if (!eq || eq == kv)
		return et_fail(e, ET_EXIT_USAGE, "expected KEY=VALUE, got '%s'", kv);
	char key[64];
	size_t l = (size_t)(eq - kv);
	if (l >= sizeof key)
		return et_fail(e, ET_EXIT_USAGE, "key too long in '%s'", kv);
	memcpy(key, kv, l);
	key[l] = 0;
	return cfg_set_kv(c, key, eq + 1, e);
}

void cfg_warn(cfg *c, const char *fmt, ...)
{
	if (c->nwarn == CFG_MAXWARN)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->warn[c->nwarn++], sizeof c->warn[0], fmt, ap);
	va_end(ap);
}

/* ASTRA-sim's network lists: one entry per dimension in each. */
static int check_net_lists(cfg *c, et_error *e)
{
	const char *keys[] = {"topology", "npus_count", "bandwidth", "latency"};
	if (c->net.nlogical)
		return et_fail(e, ET_EXIT_USAGE,
		               "logical-dims is for InfraGraph networks; this network's "
		               "dimensions are its npus_count");
	if (c->ndims < 1)
		return et_fail(e, ET_EXIT_USAGE,
		               "no network given (topology, npus_count, bandwidth, latency)");
	for (int k = 0; k < 4; k++)
		if (c->net.netlen[k] != c->ndims)
			return et_fail(e, ET_EXIT_USAGE,
			               "%s has %d entries, the network has %d dimensions", keys[k],
			               c->net.netlen[k], c->ndims);
	for (int d = 0; d < c->ndims; d++) {
		if (c->npus[d] < 1)
			return et_fail(e, ET_EXIT_USAGE, "npus_count of dimension %d must be >= 1",
			               d);
		if (c->net.bw[d] <= 0)
			return et_fail(e, ET_EXIT_USAGE,
			               "bandwidth of dimension %d is missing or not > 0", d);
	}
	return 0;
}

/* An InfraGraph network: its links carry their own bandwidths and
 * latencies; the ranks' dimensions are the logical-dims, whose product is
 * the number of NPUs (default: one dimension of them all). Only the aware
 * backend runs on a graph. */
static int check_graph(cfg *c, et_error *e)
{
	const netgraph *g = c->net.graph;
	for (int k = 0; k < 4; k++)
		if (c->net.netlen[k] && k != 1)
			return et_fail(
			    e, ET_EXIT_USAGE,
			    "the network is an InfraGraph graph: its links give bandwidth "
			    "and latency (no topology, bandwidth or latency lists)");
	if (c->net.netlen[1])
		return et_fail(e, ET_EXIT_USAGE,
		               "the network is an InfraGraph graph: give its dimensions as "
		               "logical-dims, not npus_count");
	if (!(net_backend_of(c->net.backend)->caps & NET_CAP_GRAPH))
		return et_fail(e, ET_EXIT_USAGE,
		               "an InfraGraph network needs the congestion-aware backend "
		               "(--backend %s): the %s model has no links to route on",
		               net_backend_of(net_backend_with(NET_CAP_GRAPH))->name,
		               net_backend_of(c->net.backend)->name);
	if (!c->net.nlogical) {
		c->ndims = 1;
		c->npus[0] = g->nnpu;
	}
	uint64_t p = 1;
	for (int d = 0; d < c->ndims; d++)
		p *= c->npus[d];
	if (p != g->nnpu)
		return et_fail(e, ET_EXIT_USAGE,
		               "logical-dims multiply to %llu ranks, the graph has %u NPUs",
		               (unsigned long long)p, g->nnpu);
	return 0;
}

static int check_impls(cfg *c, et_error *e)
{
	for (int k = 0; k < CI_N; k++) {
		const impl_list *l = &c->impl[k];
		if (!l->one && l->n > c->ndims)
			return et_fail(e, ET_EXIT_USAGE,
			               "%d implementations listed for a %d-dimensional network",
			               l->n, c->ndims);
	}
	return 0;
}

enum { CFG_MAX_SPLITS = 4096 };

int cfg_finish(cfg *c, et_error *e)
{
	if (c->endpoint <= 0)
		return et_fail(e, ET_EXIT_USAGE,
		               "endpoint-delay must be > 0 (ASTRA-sim crashes on 0)");
	if (c->splits < 1)
		return et_fail(e, ET_EXIT_USAGE, "preferred-dataset-splits must be >= 1");
	/* every chunk is simulated phase by phase: 10^8 chunks of an 8-rank
	 * all-reduce ran for more than ten minutes */
	if (c->splits > CFG_MAX_SPLITS)
		return et_fail(e, ET_EXIT_USAGE,
		               "preferred-dataset-splits %lld: at most %d chunks per collective",
		               (long long)c->splits, CFG_MAX_SPLITS);
	if (c->local_mem_bw <= 0)
		return et_fail(e, ET_EXIT_USAGE, "local-mem-bw must be > 0");
	if ((c->net.graph ? check_graph(c, e) : check_net_lists(c, e)) < 0 || check_impls(c, e) < 0)
		return -1;
	uint64_t total = 1;
	for (int d = 0; d < c->ndims; d++) {
		c->stride[d] = (uint32_t)total;
		total *= c->npus[d];
		if (total > 100000000)
			return et_fail(e, ET_EXIT_USAGE, "network too large (%llu ranks)",
			               (unsigned long long)total);
		if (!c->net.graph)
			c->net.bpns[d] = c->net.bw[d] * 1073741824.0 / 1e9;
	}
	c->total = (uint32_t)total;
	return 0;
}

void cfg_free(cfg *c)
{
	if (c->net.graph) {
		netgraph_free(c->net.graph);
		free(c->net.graph);
		c->net.graph = NULL;
	}
	for (int i = 0; i < c->ngroups; i++)
		free(c->groups[i].mem);
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
	free(c->group_ix);
	c->group_ix = NULL;
	c->capgroup_ix = 0;
}

const comm_group *cfg_group(const cfg *c, const char *pg, int *index)
{
	*index = -1;
	int32_t id;
	if (et_pg_is_all(pg) || !et_pg_id(pg, &id))
		return NULL;
	uint64_t key = (uint64_t)(uint32_t)id << 32;
	size_t lo = 0, hi = (size_t)c->ngroups;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (c->group_ix[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == (size_t)c->ngroups || c->group_ix[lo] >> 32 != key >> 32)
		return NULL;
	*index = (int)(uint32_t)c->group_ix[lo];
	return &c->groups[*index];
}

/* The presets of --compute: published numbers (et-sim(1) names the
 * sources). */
static const struct preset {
	const char *name;
	const char *keys;
} presets[] = {
    /* TPU v4: four 128x128 MXUs per TensorCore at 1,050 MHz, weight stationary */
    {"tpu-v4", "rows=128,cols=128,arrays=4,ghz=1.05,dataflow=ws"},
};

/* One KEY=V of a systolic spec, as its systolic-* key. */
static int set_systolic_kv(cfg *c, const char *kv, et_error *e)
{
	static const char *const keys[][2] = {{"rows", "systolic-rows"},
	                                      {"cols", "systolic-cols"},
	                                      {"dataflow", "systolic-dataflow"},
	                                      {"arrays", "systolic-arrays"},
	                                      {"ghz", "systolic-clock"},
	                                      {"a", "systolic-a"},
	                                      {"b", "systolic-b"}};
	const char *eq = strchr(kv, '=');
	size_t kl = eq ? (size_t)(eq - kv) : strlen(kv);
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (eq && strlen(keys[i][0]) == kl && strncmp(kv, keys[i][0], kl) == 0)
			return cfg_set_kv(c, keys[i][1], eq + 1, e);
	return et_fail(
	    e, ET_EXIT_USAGE,
	    "--compute: '%s': expected rows=, cols=, dataflow=, arrays=, ghz=, a= or b=", kv);
}

/* "k=v,k=v" (at most 15 items of 63 characters). */
static int set_systolic_list(cfg *c, const char *list, et_error *e)
{
	char items[16][64];
	char tmp[1024];
	snprintf(tmp, sizeof tmp, "%s", list);
	for (char *p = tmp; *p; p++) /* split() takes '/' too: keep only ',' */
		if (*p == '/')
			return et_fail(e, ET_EXIT_USAGE, "--compute: '%s': '/' is not a separator",
			               list);
	int n = split(tmp, items, 15);
	if (n < 0)
		return et_fail(e, ET_EXIT_USAGE, "--compute: '%s': too many or too long items",
		               list);
	for (int i = 0; i < n; i++)
		if (set_systolic_kv(c, items[i], e) < 0)
			return -1;
	return 0;
}

int cfg_set_compute(cfg *c, const char *spec, et_error *e)
{
	const char *colon = strchr(spec, ':');
	size_t hl = colon ? (size_t)(colon - spec) : strlen(spec);
	char head[32];
	if (hl >= sizeof head)
		return et_fail(e, ET_EXIT_USAGE, "--compute: unknown model '%s'", spec);
	memcpy(head, spec, hl);
	head[hl] = 0;
	for (size_t i = 0; i < sizeof presets / sizeof *presets; i++)
		if (strcmp(head, presets[i].name) == 0) {
			c->compute_model = CM_SYSTOLIC;
			if (set_systolic_list(c, presets[i].keys, e) < 0)
				return -1;
			return colon ? set_systolic_list(c, colon + 1, e) : 0;
		}
	if (strcmp(head, "systolic") == 0) {
		c->compute_model = CM_SYSTOLIC;
		return colon ? set_systolic_list(c, colon + 1, e) : 0;
	}
	if (colon)
		return et_fail(e, ET_EXIT_USAGE,
		               "--compute %s: only systolic models take parameters", spec);
	if (cfg_set_kv(c, "compute-model", head, e) == 0)
		return 0;
	return et_fail(e, ET_EXIT_USAGE,
	               "--compute: expected replay, roofline, systolic[:...] or tpu-v4, got '%s'",
	               spec);
}
