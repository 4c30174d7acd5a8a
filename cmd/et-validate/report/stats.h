/* --stats: per-rank and total statistics. Each rank's graph statistics
 * (libcommon's et_graph_get_stats) are kept in a fixed-size record before
 * the graph is reset; the totals and the report are et-validate's own. */
#ifndef ET_VALIDATE_REPORT_STATS_H
#define ET_VALIDATE_REPORT_STATS_H

#include "et-validate/validate.h"
#include "et_buf.h"
#include "et_graph.h"
#include <stdio.h>

typedef struct rank_stats {
	uint32_t rank;
	uint32_t input; /* index into stats.inputs: the file it came from */
	et_graph_stats g;
	uint64_t graph_bytes; /* et_graph_bytes: the graph's memory */
} rank_stats;

struct stats {
	rank_stats *r;
	size_t n, cap;
	char **inputs; /* input names, for the warnings (one per file, not per rank) */
	uint32_t n_inputs;
	size_t cap_inputs;
};

stats *stats_new(void);
void stats_free(stats *st);
void stats_add_rank(vctx *v);
/* Sums saturate at 2^64-1 instead of wrapping (et_sat.h). In the reports
 * a saturated number is marked ("(saturated)" after it in text, its key in
 * the object's "saturated" list in JSON). */
void stats_text(FILE *f, const stats *st);
void stats_json(et_jsonw *j, const stats *st);
/* One warning line on stderr per statistic that saturates, naming the
 * first rank it saturates in (or the total over ranks). */
void stats_warn_saturated(const stats *st);

#endif
