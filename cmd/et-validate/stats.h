/* --stats: per-rank and total statistics. Each rank's graph statistics
 * (libcommon's et_graph_get_stats) are kept in a fixed-size record before
 * the graph is reset; the totals and the report are et-validate's own. */
#ifndef ET_VALIDATE_STATS_H
#define ET_VALIDATE_STATS_H

#include "et_buf.h"
#include "et_graph.h"
#include "validate.h"
#include <stdio.h>

typedef struct rank_stats {
	uint32_t rank;
	et_graph_stats g;
	uint64_t graph_bytes; /* et_graph_bytes: the graph's memory */
} rank_stats;

struct stats {
	rank_stats *r;
	size_t n, cap;
};

stats *stats_new(void);
void stats_free(stats *st);
void stats_add_rank(vctx *v);
void stats_text(FILE *f, const stats *st);
void stats_json(et_buf *b, const stats *st);

#endif
