/* --stats: each rank's graph statistics (et_graph_get_stats) and their
 * total, as text or JSON. */
#include "stats.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>

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
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 16;
		st->r = et_xrealloc(st->r, st->cap * sizeof *st->r);
	}
	rank_stats *r = &st->r[st->n++];
	r->rank = v->ri.rank;
	et_graph_get_stats(v->g, &r->g);
	r->graph_bytes = et_graph_bytes(v->g);
}

/* Counts add up; the critical path, depth, width and graph bytes are the
 * largest of any rank (ranks run side by side; one graph is alive at a
 * time). */
static void add_to_total(et_graph_stats *t, const et_graph_stats *r)
{
	t->nodes += r->nodes;
	for (int i = 0; i < ET_GRAPH_STATS_TYPES; i++)
		t->by_type[i] += r->by_type[i];
	for (int i = 0; i < ET_GRAPH_STATS_COLLS; i++) {
		t->coll_bytes[i] += r->coll_bytes[i];
		t->coll_count[i] += r->coll_count[i];
	}
	t->data_deps += r->data_deps;
	t->ctrl_deps += r->ctrl_deps;
	t->dangling_deps += r->dangling_deps;
	t->self_deps += r->self_deps;
	t->forward_deps += r->forward_deps;
	t->send_bytes += r->send_bytes;
	t->send_count += r->send_count;
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

static void text_one(FILE *f, const char *label, const et_graph_stats *r)
{
	fprintf(f, "%s: %llu nodes (", label, (unsigned long long)r->nodes);
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
			fprintf(f, "%s %s %llu (%llu)", first ? "" : ",", coll_key(i),
			        (unsigned long long)r->coll_bytes[i],
			        (unsigned long long)r->coll_count[i]);
			first = 0;
		}
	if (r->send_count)
		fprintf(f, "%s SEND %llu (%llu)", first ? "" : ",",
		        (unsigned long long)r->send_bytes, (unsigned long long)r->send_count);
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
		text_one(f, label, &st->r[k].g);
	}
	if (st->n > 1) {
		rank_stats t;
		total(st, &t);
		text_one(f, "total", &t.g);
	}
}

/* rank < 0: the total, which has no "rank" key. */
static void json_one(et_buf *b, const et_graph_stats *r, int64_t rank, uint64_t graph_bytes)
{
	et_buf_putc(b, '{');
	if (rank >= 0)
		et_buf_printf(b, "\"rank\": %lld, ", (long long)rank);
	et_buf_printf(b, "\"nodes\": %llu, \"nodes_by_type\": {", (unsigned long long)r->nodes);
	int first = 1;
	for (int i = 0; i < ET_GRAPH_STATS_TYPES; i++)
		if (r->by_type[i]) {
			et_buf_printf(b, "%s\"%s\": %llu", first ? "" : ", ", type_key(i),
			              (unsigned long long)r->by_type[i]);
			first = 0;
		}
	et_buf_printf(b,
	              "}, \"data_deps\": %llu, \"ctrl_deps\": %llu, \"dangling_deps\": %llu, "
	              "\"self_deps\": %llu, \"forward_deps\": %llu, \"comm_bytes\": {",
	              (unsigned long long)r->data_deps, (unsigned long long)r->ctrl_deps,
	              (unsigned long long)r->dangling_deps, (unsigned long long)r->self_deps,
	              (unsigned long long)r->forward_deps);
	first = 1;
	for (int i = 0; i < ET_GRAPH_STATS_COLLS; i++)
		if (r->coll_count[i]) {
			et_buf_printf(b, "%s\"%s\": %llu", first ? "" : ", ", coll_key(i),
			              (unsigned long long)r->coll_bytes[i]);
			first = 0;
		}
	if (r->send_count)
		et_buf_printf(b, "%s\"SEND\": %llu", first ? "" : ", ",
		              (unsigned long long)r->send_bytes);
	et_buf_printf(b,
	              "}, \"total_duration_micros\": %llu, \"critical_path_micros\": %llu, "
	              "\"critical_path_nodes\": %u, \"depth\": %u, \"max_width\": %u, "
	              "\"unordered_nodes\": %u, \"graph_bytes\": %llu}",
	              (unsigned long long)r->total_duration,
	              (unsigned long long)r->critical_duration, r->critical_nodes, r->depth,
	              r->max_width, r->unordered, (unsigned long long)graph_bytes);
}

void stats_json(et_buf *b, const stats *st)
{
	et_buf_puts(b, "{\"ranks\": [");
	for (size_t k = 0; k < st->n; k++) {
		if (k)
			et_buf_puts(b, ", ");
		json_one(b, &st->r[k].g, st->r[k].rank, st->r[k].graph_bytes);
	}
	rank_stats t;
	total(st, &t);
	et_buf_puts(b, "], \"total\": ");
	json_one(b, &t.g, -1, t.graph_bytes);
	et_buf_putc(b, '}');
}
