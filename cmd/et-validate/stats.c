/* --stats: nodes by type, dependency counts, comm bytes by collective
 * type, total and critical-path duration, depth and width, per rank and in
 * total (sums; depth, width and critical path as maxima). */
#include "stats.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

enum { T_SEND = 5, T_COLL = 7 };

stats *stats_new(void)
{
	return et_xcalloc(1, sizeof(stats));
}

void stats_free(stats *st)
{
	if (st)
		free(st->r);
	free(st);
}

void stats_add_rank(vctx *v)
{
	stats *st = v->st;
	const et_graph *g = v->g;
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->r = et_xrealloc(st->r, st->cap * sizeof *st->r);
	}
	rank_stats *r = &st->r[st->n++];
	memset(r, 0, sizeof *r);
	r->rank = v->ri.rank;
	r->nodes = g->n;
	for (uint32_t i = 0; i < g->n; i++) {
		r->by_type[g->type[i] < ET_NODE_TYPE_COUNT ? g->type[i] : ST_TYPES - 1]++;
		r->total_duration += g->duration_micros[i];
		if ((g->flags[i] & ET_GF_CPU) || !(g->flags[i] & ET_GF_COMM_SIZE))
			continue;
		uint64_t bytes =
		    et_graph_comm_at(g, i)->size > 0 ? (uint64_t)et_graph_comm_at(g, i)->size : 0;
		if (g->type[i] == T_COLL) {
			int32_t t = et_graph_comm_at(g, i)->type;
			int k = (g->flags[i] & ET_GF_COMM_TYPE) && t >= 0 && t < ET_COLL_TYPE_COUNT
			            ? t
			            : ST_COLLS - 1;
			r->coll_bytes[k] += bytes;
			r->coll_count[k]++;
		} else if (g->type[i] == T_SEND) {
			r->p2p_bytes += bytes;
			r->p2p_sends++;
		}
	}
	r->data_deps = g->n_data_deps;
	r->ctrl_deps = g->n_ctrl_deps;
	r->dangling = g->n_dangling;
	r->self_deps = g->n_selfs;
	r->fwd_deps = g->fwd_data + g->fwd_ctrl;
	uint32_t *chain;
	r->critical_duration = et_graph_critical_path(g, &chain, &r->critical_nodes);
	free(chain);
	r->depth = g->depth;
	r->max_width = g->max_width;
	r->unordered = g->n - g->n_ordered;
	r->graph_bytes = et_graph_bytes(g);
}

static void total(const stats *st, rank_stats *t)
{
	memset(t, 0, sizeof *t);
	for (size_t k = 0; k < st->n; k++) {
		const rank_stats *r = &st->r[k];
		t->nodes += r->nodes;
		for (int i = 0; i < ST_TYPES; i++)
			t->by_type[i] += r->by_type[i];
		for (int i = 0; i < ST_COLLS; i++) {
			t->coll_bytes[i] += r->coll_bytes[i];
			t->coll_count[i] += r->coll_count[i];
		}
		t->data_deps += r->data_deps;
		t->ctrl_deps += r->ctrl_deps;
		t->dangling += r->dangling;
		t->self_deps += r->self_deps;
		t->fwd_deps += r->fwd_deps;
		t->p2p_bytes += r->p2p_bytes;
		t->p2p_sends += r->p2p_sends;
		t->total_duration += r->total_duration;
		t->unordered += r->unordered;
		if (r->critical_duration >= t->critical_duration) {
			t->critical_duration = r->critical_duration;
			t->critical_nodes = r->critical_nodes;
		}
		if (r->depth > t->depth)
			t->depth = r->depth;
		if (r->max_width > t->max_width)
			t->max_width = r->max_width;
		if (r->graph_bytes > t->graph_bytes)
			t->graph_bytes = r->graph_bytes; /* the peak: one graph at a time */
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

static void text_one(FILE *f, const char *label, const rank_stats *r)
{
	fprintf(f, "%s: %llu nodes (", label, (unsigned long long)r->nodes);
	int first = 1;
	for (int i = 0; i < ST_TYPES; i++)
		if (r->by_type[i]) {
			fprintf(f, "%s%s %llu", first ? "" : ", ", type_key(i),
			        (unsigned long long)r->by_type[i]);
			first = 0;
		}
	fprintf(f, ")\n  deps: %llu data, %llu ctrl (%llu dangling, %llu self, %llu forward)\n",
	        (unsigned long long)r->data_deps, (unsigned long long)r->ctrl_deps,
	        (unsigned long long)r->dangling, (unsigned long long)r->self_deps,
	        (unsigned long long)r->fwd_deps);
	fprintf(f, "  comm bytes:");
	first = 1;
	for (int i = 0; i < ST_COLLS; i++)
		if (r->coll_count[i]) {
			fprintf(f, "%s %s %llu (%llu)", first ? "" : ",", coll_key(i),
			        (unsigned long long)r->coll_bytes[i],
			        (unsigned long long)r->coll_count[i]);
			first = 0;
		}
	if (r->p2p_sends)
		fprintf(f, "%s SEND %llu (%llu)", first ? "" : ",",
		        (unsigned long long)r->p2p_bytes, (unsigned long long)r->p2p_sends);
	else if (first)
		fprintf(f, " none");
	fprintf(f,
	        "\n  duration: %llu us total, critical path %llu us over %u nodes; depth %u, "
	        "max width %u",
	        (unsigned long long)r->total_duration, (unsigned long long)r->critical_duration,
	        r->critical_nodes, r->depth, r->max_width);
	if (r->unordered)
		fprintf(f, " (%u nodes in or behind cycles left out)", r->unordered);
	fputc('\n', f);
}

void stats_text(FILE *f, const stats *st)
{
	char label[32];
	for (size_t k = 0; k < st->n; k++) {
		snprintf(label, sizeof label, "rank %u", st->r[k].rank);
		text_one(f, label, &st->r[k]);
	}
	if (st->n > 1) {
		rank_stats t;
		total(st, &t);
		text_one(f, "total", &t);
	}
}

static void json_one(et_buf *b, const rank_stats *r, bool with_rank)
{
	et_buf_putc(b, '{');
	if (with_rank)
		et_buf_printf(b, "\"rank\": %u, ", r->rank);
	et_buf_printf(b, "\"nodes\": %llu, \"nodes_by_type\": {", (unsigned long long)r->nodes);
	int first = 1;
	for (int i = 0; i < ST_TYPES; i++)
		if (r->by_type[i]) {
			et_buf_printf(b, "%s\"%s\": %llu", first ? "" : ", ", type_key(i),
			              (unsigned long long)r->by_type[i]);
			first = 0;
		}
	et_buf_printf(b,
	              "}, \"data_deps\": %llu, \"ctrl_deps\": %llu, \"dangling_deps\": %llu, "
	              "\"self_deps\": %llu, \"forward_deps\": %llu, \"comm_bytes\": {",
	              (unsigned long long)r->data_deps, (unsigned long long)r->ctrl_deps,
	              (unsigned long long)r->dangling, (unsigned long long)r->self_deps,
	              (unsigned long long)r->fwd_deps);
	first = 1;
	for (int i = 0; i < ST_COLLS; i++)
		if (r->coll_count[i]) {
			et_buf_printf(b, "%s\"%s\": %llu", first ? "" : ", ", coll_key(i),
			              (unsigned long long)r->coll_bytes[i]);
			first = 0;
		}
	if (r->p2p_sends)
		et_buf_printf(b, "%s\"SEND\": %llu", first ? "" : ", ",
		              (unsigned long long)r->p2p_bytes);
	et_buf_printf(b,
	              "}, \"total_duration_micros\": %llu, \"critical_path_micros\": %llu, "
	              "\"critical_path_nodes\": %u, \"depth\": %u, \"max_width\": %u, "
	              "\"unordered_nodes\": %u, \"graph_bytes\": %llu}",
	              (unsigned long long)r->total_duration,
	              (unsigned long long)r->critical_duration, r->critical_nodes, r->depth,
	              r->max_width, r->unordered, (unsigned long long)r->graph_bytes);
}

void stats_json(et_buf *b, const stats *st)
{
	et_buf_puts(b, "{\"ranks\": [");
	for (size_t k = 0; k < st->n; k++) {
		if (k)
			et_buf_puts(b, ", ");
		json_one(b, &st->r[k], true);
	}
	rank_stats t;
	total(st, &t);
	et_buf_puts(b, "], \"total\": ");
	json_one(b, &t, false);
	et_buf_putc(b, '}');
}
