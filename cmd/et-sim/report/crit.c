/* crit: walk back from the last node to finish. A node started when the node
 * recorded in cause[] ended (its last dependency, or the node that freed
 * its resource); a collective ended when its last member joined, a receive
 * when its send arrived (xcause[]), which is where the path crosses ranks. */
#include "et-sim/report/crit.h"
#include "et-sim/report/report.h"
#include "et_attr.h"
#include "et_mem.h"
#include "et_types.h"
#include <stdlib.h>

typedef struct hop {
	uint32_t rank, node; /* a trace rank (folded: a simulated one) */
} hop;

static bool last_node(const sim *s, hop *h)
{
	uint64_t best = 0;
	bool found = false;
	for (uint32_t k = 0; k < s->nranks; k++) {
		const rank_st *r = &s->r[k];
		for (uint32_t i = 0; i < r->g->n; i++)
			if (r->end[i] != UINT64_MAX && (!found || r->end[i] > best)) {
				best = r->end[i];
				*h = (hop){r->rank, i};
				found = true;
			}
	}
	return found;
}

/* The node before h on the critical path, or false at the start. */
static bool prev(const sim *s, hop *h)
{
	const rank_st *r = report_rank(s, h->rank);
	uint64_t x = r->xcause ? r->xcause[h->node] : UINT64_MAX;
	if (x != UINT64_MAX && !s->folded) {
		hop o = {(uint32_t)(x >> 32), (uint32_t)x};
		const rank_st *ro = report_rank(s, o.rank);
		if (o.rank != h->rank && ro->start[o.node] > r->start[h->node]) {
			*h = o;
			return true;
		}
	}
	uint64_t c = r->cause ? r->cause[h->node] : UINT64_MAX;
	if (c == UINT64_MAX)
		return false;
	*h = (hop){(uint32_t)(c >> 32), (uint32_t)c};
	return true;
}

/* The critical path, first to last; returns its length (0: nothing ran). */
static uint64_t crit_path(const sim *s, hop **out)
{
	hop h;
	*out = NULL;
	if (!last_node(s, &h))
		return 0;
	uint64_t total = 0;
	for (uint32_t k = 0; k < s->nranks; k++)
		total += s->r[k].g->n;
	hop *path = et_xmalloc((total + 1) * sizeof *path);
	uint64_t n = 0;
	do
		path[n++] = h;
	while (n <= total && prev(s, &h));
	*out = path;
	return n;
}

void crit_print(FILE *f, const sim *s)
{
	hop *path;
	uint64_t n = crit_path(s, &path);
	if (!n)
		return;
	fprintf(f, "critical path (%llu nodes, first to last):\n", (unsigned long long)n);
	for (uint64_t k = n; k-- > 0;) {
		const rank_st *r = report_rank(s, path[k].rank);
		uint32_t i = path[k].node;
		const char *tn = et_node_type_name(r->g->type[i]);
		fprintf(f, "  rank %u node %llu %s %s [%llu, %llu] ns\n", r->rank,
		        (unsigned long long)r->g->id[i], tn ? tn : "?", sg_name(r->g, i),
		        (unsigned long long)r->start[i], (unsigned long long)r->end[i]);
	}
	free(path);
}

void crit_json(et_jsonw *j, const sim *s)
{
	hop *path;
	uint64_t n = crit_path(s, &path);
	if (!n)
		return;
	/* one node a line */
	et_jsonw_nl(j);
	et_jsonw_karr(j, "critical_path");
	for (uint64_t k = n; k-- > 0;) {
		const rank_st *r = &s->r[path[k].rank];
		uint32_t i = path[k].node;
		et_jsonw_nl(j);
		et_jsonw_obj(j);
		et_jsonw_kuint(j, "rank", r->rank);
		et_jsonw_kuint(j, "id", r->g->id[i]);
		et_jsonw_kstr(j, "name", sg_name(r->g, i));
		et_jsonw_kuint(j, "start_ns", r->start[i]);
		et_jsonw_kuint(j, "end_ns", r->end[i]);
		et_jsonw_end(j);
	}
	et_jsonw_nl(j);
	et_jsonw_end(j);
	free(path);
}
