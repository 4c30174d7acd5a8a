/* load: read every rank of the input into shared compact graphs. */
#ifndef ET_SIM_WORKLOAD_LOAD_H
#define ET_SIM_WORKLOAD_LOAD_H
#include "et-sim/workload/sgraph.h"
#include "et_buf.h"
#include "et_input.h"
#include "et_pg.h"
#include <stdint.h>

/* A class rank kept packed: its graph's shape (a graph of cls), its value
 * pattern and a blob of its values and their pg names (sgraph_rule_blob);
 * about 100 bytes, where a view is 300. workload_graph makes its view
 * when a simulation needs it (a fold needs its classes' ranks only). */
typedef struct wl_packed {
	const sgraph *body; /* NULL: the rank is not packed */
	const cpat *cp;
	size_t blob; /* its offset in workload.blobs */
} wl_packed;

typedef struct workload {
	uint32_t world;
	/* per rank: a graph of cls, a view of one, or NULL: packed (pk[rank])
	 * until workload_graph */
	const sgraph **rank_graph;
	wl_packed *pk; /* per rank, or NULL when no rank is packed */
	size_t cappk;
	/* the packed ranks' blobs one after another (4-byte aligned): one
	 * buffer, not a malloc'ed block a rank with its header and rounding,
	 * as 131,072 ranks have one each; final once the load is done */
	et_buf blobs;
	struct wl_made *made; /* the views workload_graph made */
	sgraph **cls;         /* distinct graphs up to pg names and peers */
	uint32_t ncls;
	size_t capcls, caprank; /* of cls, of rank_graph */
	sgraph **views;         /* the views rank_graph holds (sgraph_view) */
	cpat_set pats;          /* the patterns of the packed graphs and views */
	uint32_t nviews;
	size_t capviews;
	uint64_t nodes;      /* over all ranks */
	uint32_t rule_ranks; /* class ranks built from their rules, not decoded */
	uint32_t said_world; /* the largest world a rank's header (or --world) gave; 0: none */
	char name[256];
	char input[256]; /* the INPUT operand as messages name it ("<stdin>" for -) */
	/* the comm groups the stream carries (etkit-stream(5)), checked
	 * rank by rank: the comm-group file's list, empty when it carries none */
	et_pg_list groups;
} workload;

/* Rank r's graph: rank_graph[r], or a view of its packed values made now
 * (and kept: the workload frees it). */
const sgraph *workload_graph(const workload *w, uint32_t r);
/* What classes need of rank r, packed or not, without making a view: its
 * shape (a graph of cls), value pattern (NULL: not packed), values and the
 * pool of their pg names. */
void workload_vals(const workload *w, uint32_t r, const sgraph **shape, const cpat **cp,
                   const int32_t **cv, const char **pgnames);

/* Returns 0 or -1 with e set (exit 3 for bad data). */
int load_workload(workload *w, int argc, char *const argv[], const et_input_opts *o, int progress,
                  et_error *e);
void workload_free(workload *w);

#endif
