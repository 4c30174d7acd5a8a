/* --stats: each rank's graph statistics (et_graph_get_stats) and their
 * total, as text or JSON. */
#include "et-validate/report/stats.h"
#include "et_err.h"
#include "et_mem.h"
#include "et_sat.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

stats *stats_new(void)
{
	return et_xcalloc(1, sizeof(stats));
}

void stats_free(stats *st)
{
	if (st) {
		free(st->r);
		for (uint32_t i = 0; i < st->n_inputs; i++)
			free(st->inputs[i]);
		free(st->inputs);
	}
	free(st);
}

/* Ranks arrive file by file: a name is new unless it is the last one. */
static uint32_t input_index(stats *st, const char *name)
{
	if (st->n_inputs && strcmp(st->inputs[st->n_inputs - 1], name) == 0)
		return st->n_inputs - 1;
	ET_GROW(st->inputs, st->cap_inputs, (size_t)st->n_inputs + 1);
	st->inputs[st->n_inputs] = et_xstrdup(name);
	return st->n_inputs++;
}

void stats_add_rank(vctx *v)
{
	stats *st = v->st;
	ET_GROW(st->r, st->cap, (size_t)st->n + 1);
	rank_stats *r = &st->r[st->n++];
	r->rank = v->ri.rank;
	r->input = input_index(st, v->ri.input ? v->ri.input : "<stdin>");
	et_graph_get_stats(v->g, &r->g);
	r->graph_bytes = et_graph_bytes(v->g);
}

/* Counts add up (saturating, as the per-rank sums do); the critical path,
 * depth, width and graph bytes are the largest of any rank (ranks run side
 * by side; one graph is alive at a time). */
static void add_to_total(et_graph_stats *t, const et_graph_stats *r)
{
	t->nodes = et_sat_add(t->nodes, r->nodes);
	for (int i = 0; i < ET_GRAPH_STATS_TYPES; i++)
		t->by_type[i] = et_sat_add(t->by_type[i], r->by_type[i]);
	for (int i = 0; i < ET_GRAPH_STATS_COLLS; i++) {
		t->coll_bytes[i] = et_sat_add(t->coll_bytes[i], r->coll_bytes[i]);
		t->coll_count[i] = et_sat_add(t->coll_count[i], r->coll_count[i]);
	}
	t->data_deps = et_sat_add(t->data_deps, r->data_deps);
	t->ctrl_deps = et_sat_add(t->ctrl_deps, r->ctrl_deps);
	t->dangling_deps = et_sat_add(t->dangling_deps, r->dangling_deps);
	t->self_deps = et_sat_add(t->self_deps, r->self_deps);
	t->forward_deps = et_sat_add(t->forward_deps, r->forward_deps);
	t->send_bytes = et_sat_add(t->send_bytes, r->send_bytes);
	t->send_count = et_sat_add(t->send_count, r->send_count);
	t->total_duration = et_sat_add(t->total_duration, r->total_duration);
	uint64_t u = (uint64_t)t->unordered + r->unordered;
	t->unordered = u > UINT32_MAX ? UINT32_MAX : (uint32_t)u;
	if (r->critical_duration >= t->critical_duration) {
		t->critical_duration = r->critical_duration;
		t->critical_nodes = r->critical_nodes;
	}
	if (r->depth > t->depth)
		t->depth = r->depth;
	if (r->max_width > t->max_width)
		t->max_width = r->max_width;
}

static void total(const stats *st, rank_stats *t)
{
	memset(t, 0, sizeof *t);
	for (size_t k = 0; k < st->n; k++) {
		add_to_total(&t->g, &st->r[k].g);
		if (st->r[k].graph_bytes > t->graph_bytes)
			t->graph_bytes = st->r[k].graph_bytes;
	}
}

static const char *type_key(int i)
{
	return i < ET_NODE_TYPE_COUNT ? et_node_type_name(i) : "UNKNOWN";
}

static const char *coll_key(int i)
{
	return i < ET_COLL_TYPE_COUNT ? et_coll_type_name(i) : "UNKNOWN";
}

/* The sums that can saturate: total duration, critical path, bytes per
 * collective type and of SENDs (counts of nodes and dependencies add up to
 * at most the nodes and edges read, far below 2^64). */
enum { SF_DUR, SF_CRIT, SF_COLL, SF_SEND = SF_COLL + ET_GRAPH_STATS_COLLS, SF_N };

static uint64_t sf_value(const et_graph_stats *r, int k)
{
	return k == SF_DUR    ? r->total_duration
	       : k == SF_CRIT ? r->critical_duration
	       : k == SF_SEND ? r->send_bytes
	                      : r->coll_bytes[k - SF_COLL];
}

/* What the warning says of field k ("total duration saturates at 2^64-1
 * us", "ALL_REDUCE bytes saturate at 2^64-1"). */
static void sf_says(int k, char *buf, size_t n)
{
	if (k == SF_DUR || k == SF_CRIT)
		snprintf(buf, n, "%s saturates at 2^64-1 us",
		         k == SF_DUR ? "total duration" : "critical path");
	else
		snprintf(buf, n, "%s bytes saturate at 2^64-1",
		         k == SF_SEND ? "SEND" : coll_key(k - SF_COLL));
}

/* Its key in the JSON object ("total_duration_micros",
 * "comm_bytes.ALL_REDUCE"). */
static void sf_key(int k, char *buf, size_t n)
{
	if (k == SF_DUR || k == SF_CRIT)
		snprintf(buf, n, "%s",
		         k == SF_DUR ? "total_duration_micros" : "critical_path_micros");
	else
		snprintf(buf, n, "comm_bytes.%s", k == SF_SEND ? "SEND" : coll_key(k - SF_COLL));
}

/* A number of the text report, marked when it saturated. */
static void text_num(FILE *f, uint64_t v)
{
	fprintf(f, "%llu%s", (unsigned long long)v, et_sat_is(v) ? " (saturated)" : "");
}

static void text_one(FILE *f, const char *label, const et_graph_stats *r)
{
	fprintf(f, "%s: %llu node%s (", label, (unsigned long long)r->nodes,
	        r->nodes == 1 ? "" : "s");
	int first = 1;
	for (int i = 0; i < ET_GRAPH_STATS_TYPES; i++)
		if (r->by_type[i]) {
			fprintf(f, "%s%s %llu", first ? "" : ", ", type_key(i),
			        (unsigned long long)r->by_type[i]);
			first = 0;
		}
	fprintf(f, ")\n  deps: %llu data, %llu ctrl (%llu dangling, %llu self, %llu forward)\n",
	        (unsigned long long)r->data_deps, (unsigned long long)r->ctrl_deps,
	        (unsigned long long)r->dangling_deps, (unsigned long long)r->self_deps,
	        (unsigned long long)r->forward_deps);
	fprintf(f, "  comm bytes:");
	first = 1;
	for (int i = 0; i < ET_GRAPH_STATS_COLLS; i++)
		if (r->coll_count[i]) {
			fprintf(f, "%s %s ", first ? "" : ",", coll_key(i));
			text_num(f, r->coll_bytes[i]);
			fprintf(f, " (%llu)", (unsigned long long)r->coll_count[i]);
			first = 0;
		}
	if (r->send_count) {
		fprintf(f, "%s SEND ", first ? "" : ",");
		text_num(f, r->send_bytes);
		fprintf(f, " (%llu)", (unsigned long long)r->send_count);
	} else if (first)
		fprintf(f, " none");
	fputs("\n  duration: ", f);
	if (r->total_duration == 0) {
		/* a path "over 1 node" of 0 us says nothing: say why */
		fputs("none (no node has duration_micros)", f);
	} else {
		text_num(f, r->total_duration);
		fputs(" us total, critical path ", f);
		text_num(f, r->critical_duration);
		fprintf(f, " us over %u node%s", r->critical_nodes,
		        r->critical_nodes == 1 ? "" : "s");
	}
	fprintf(f, "; depth %u, max width %u", r->depth, r->max_width);
	if (r->unordered)
		fprintf(f, " (%u nodes in or behind cycles left out)", r->unordered);
	fputc('\n', f);
}

void stats_text(FILE *f, const stats *st)
{
	char label[32];
	for (size_t k = 0; k < st->n; k++) {
		snprintf(label, sizeof label, "rank %u", st->r[k].rank);
		text_one(f, label, &st->r[k].g);
	}
	if (st->n > 1) {
		rank_stats t;
		total(st, &t);
		text_one(f, "total", &t.g);
	}
}

/* "saturated": the keys of the numbers that saturated, only when some did
 * (a comm_bytes key is "comm_bytes.TYPE"). */
static void json_saturated(et_jsonw *j, const et_graph_stats *r)
{
	int n = 0;
	char key[64];
	for (int k = 0; k < SF_N; k++)
		if (et_sat_is(sf_value(r, k))) {
			if (!n++) {
				et_jsonw_karr(j, "saturated");
			}
			sf_key(k, key, sizeof key);
			et_jsonw_str(j, key);
		}
	if (n)
		et_jsonw_end(j);
}

/* rank < 0: the total, which has no "rank" key. */
static void json_one(et_jsonw *j, const et_graph_stats *r, int64_t rank, uint64_t graph_bytes)
{
	et_jsonw_obj(j);
	if (rank >= 0)
		et_jsonw_kint(j, "rank", rank);
	et_jsonw_kuint(j, "nodes", r->nodes);
	et_jsonw_kobj(j, "nodes_by_type");
	for (int i = 0; i < ET_GRAPH_STATS_TYPES; i++)
		if (r->by_type[i])
			et_jsonw_kuint(j, type_key(i), r->by_type[i]);
	et_jsonw_end(j);
	static const char *const dep_keys[] = {"data_deps", "ctrl_deps", "dangling_deps",
	                                       "self_deps", "forward_deps"};
	const uint64_t deps[] = {r->data_deps, r->ctrl_deps, r->dangling_deps, r->self_deps,
	                         r->forward_deps};
	et_jsonw_kuints(j, dep_keys, deps, 5);
	et_jsonw_kobj(j, "comm_bytes");
	for (int i = 0; i < ET_GRAPH_STATS_COLLS; i++)
		if (r->coll_count[i])
			et_jsonw_kuint(j, coll_key(i), r->coll_bytes[i]);
	if (r->send_count)
		et_jsonw_kuint(j, "SEND", r->send_bytes);
	et_jsonw_end(j);
	static const char *const path_keys[] = {"total_duration_micros",
	                                        "critical_path_micros",
	                                        "critical_path_nodes",
	                                        "depth",
	                                        "max_width",
	                                        "unordered_nodes",
	                                        "graph_bytes"};
	const uint64_t path[] = {r->total_duration, r->critical_duration, r->critical_nodes,
	                         r->depth,          r->max_width,         r->unordered,
	                         graph_bytes};
	et_jsonw_kuints(j, path_keys, path, 7);
	json_saturated(j, r);
	et_jsonw_end(j);
}

void stats_json(et_jsonw *j, const stats *st)
{
	et_jsonw_obj(j);
	et_jsonw_karr(j, "ranks");
	for (size_t k = 0; k < st->n; k++)
		json_one(j, &st->r[k].g, st->r[k].rank, st->r[k].graph_bytes);
	et_jsonw_end(j);
	rank_stats t;
	total(st, &t);
	et_jsonw_key(j, "total");
	json_one(j, &t.g, -1, t.graph_bytes);
	et_jsonw_end(j);
}

void stats_warn_saturated(const stats *st)
{
	if (!st->n)
		return;
	rank_stats t;
	total(st, &t);
	for (int k = 0; k < SF_N; k++) {
		size_t n = 0, first = 0;
		for (size_t i = st->n; i-- > 0;)
			if (et_sat_is(sf_value(&st->r[i].g, k)))
				n++, first = i;
		if (!n && !et_sat_is(sf_value(&t.g, k)))
			continue;
		char what[80], where[64];
		sf_says(k, what, sizeof what);
		if (!n)
			snprintf(where, sizeof where, "the total over ranks");
		else if (n == 1)
			snprintf(where, sizeof where, "rank %u", st->r[first].rank);
		else
			snprintf(where, sizeof where, "rank %u and %zu more rank%s",
			         st->r[first].rank, n - 1, n == 2 ? "" : "s");
		et_warn("%s: --stats: %s in %s", st->inputs[st->r[first].input], what, where);
	}
}
