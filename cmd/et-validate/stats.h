/* --stats: per-rank and total statistics, gathered from each rank's graph
 * before it is freed (a fixed-size record per rank). */
#ifndef ET_VALIDATE_STATS_H
#define ET_VALIDATE_STATS_H

#include "et_attr.h"
#include "et_buf.h"
#include "et_types.h"
#include "validate.h"
#include <stdio.h>

#define ST_TYPES (ET_NODE_TYPE_COUNT + 1) /* + unknown */
#define ST_COLLS (ET_COLL_TYPE_COUNT + 1) /* + no/unknown comm_type */

typedef struct rank_stats {
	uint32_t rank;
	uint64_t nodes, by_type[ST_TYPES];
	uint64_t data_deps, ctrl_deps, dangling, self_deps, fwd_deps;
	uint64_t coll_bytes[ST_COLLS], coll_count[ST_COLLS];
	uint64_t p2p_bytes, p2p_sends;
	uint64_t total_duration, critical_duration;
	uint32_t critical_nodes, depth, max_width, unordered;
	uint64_t graph_bytes;
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
