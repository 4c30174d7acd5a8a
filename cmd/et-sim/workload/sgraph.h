/* sgraph: the compact, read-only graph the simulator replays. Ranks whose
 * graphs are byte-for-byte identical share one sgraph; ranks whose graphs
 * differ only in their own names (pg names, peers) hold a view: the shared
 * graph's arrays but for src, dst and pg, 12 bytes a node.
 *
 * Memory per node: 8 id + 1 type + 1 flags + 8 duration + 4 comm type +
 * 8 comm size + 12 src/dst/tag + 4 pg + 8 num_ops + 8 tensor_size +
 * 24 gemm M/N/K + 4 name + 4 deps + 4 child offset = 106 bytes, plus 4 bytes
 * per dependency edge and the names. */
#ifndef ET_SIM_WORKLOAD_SGRAPH_H
#define ET_SIM_WORKLOAD_SGRAPH_H
#include "et_graph.h"
#include <stdbool.h>
#include <stdint.h>

enum { SG_CPU = 1, SG_INVOLVED = 2 };

typedef struct sgraph {
	uint32_t n;
	uint64_t *id;
	uint8_t *type, *flags;
	uint64_t *dur_us;
	int32_t *comm_type;
	int64_t *comm_size;
	int32_t *src, *dst, *tag;
	int32_t *pg; /* string pool offset of pg_name, 0 = none */
	int64_t *num_ops;
	uint64_t *tensor_size;
	uint64_t *gemm;    /* 3 per node: M, N, K (0 = unknown) */
	uint8_t *involved; /* per node bitmask of involved dims (bit set = involved) */
	uint32_t *name;
	uint32_t *ndeps;
	uint32_t *out_off, *out;
	char *names;
	uint64_t names_len;
	char *pgnames;             /* where pg[] points (a body: names) */
	const struct sgraph *body; /* a view: the graph it shares; NULL: owns all */
	uint64_t hash;
	uint64_t n_dangling, n_cycle_nodes;
} sgraph;

/* Build from a finished et_graph (gemm comes from a side array). */
sgraph *sgraph_from(const et_graph *g, const uint64_t *gemm);
/* Equal but for the ranks' own names: pg names and peers (src, dst). */
bool sgraph_same_shape(const sgraph *a, const sgraph *b);
/* Whether graphs of one shape have the same pg names and peers too. */
bool sgraph_same_own(const sgraph *a, const sgraph *b);
/* A view of body with the pg names and peers of s (of body's shape). */
sgraph *sgraph_view(const sgraph *body, const sgraph *s);
void sgraph_free(sgraph *g);
static inline const char *sg_name(const sgraph *g, uint32_t i)
{
	return g->names + g->name[i];
}
static inline const char *sg_pg(const sgraph *g, uint32_t i)
{
	return g->pg[i] ? g->pgnames + g->pg[i] : NULL;
}

#endif
