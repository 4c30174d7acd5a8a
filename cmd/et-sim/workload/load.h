/* load: read every rank of the input into shared compact graphs. */
#ifndef ET_SIM_WORKLOAD_LOAD_H
#define ET_SIM_WORKLOAD_LOAD_H
#include "et-sim/workload/sgraph.h"
#include "et_input.h"
#include "et_pg.h"
#include <stdint.h>

typedef struct workload {
	uint32_t world;
	const sgraph **rank_graph; /* per rank: a graph of cls, or a view of one */
	sgraph **cls;              /* distinct graphs up to pg names and peers */
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

/* Returns 0 or -1 with e set (exit 3 for bad data). */
int load_workload(workload *w, int argc, char *const argv[], const et_input_opts *o, int progress,
                  et_error *e);
void workload_free(workload *w);

#endif
