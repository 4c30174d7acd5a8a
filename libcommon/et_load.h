/* et_load: read every selected rank of an input into an et_graph, calling
 * the tool back rank by rank: the one loader of et-validate, et-sim and
 * et-viz. Decoding runs on et_reader (et_reader.h), on a second thread when
 * asked; the callbacks all run on the calling thread, in input order,
 * whatever the threading, so a tool's results never depend on it.
 *
 * For each rank that et_input selects (et_input_opts.ranks):
 *   rank_begin(ctx, ri, &g, e)  the tool sets g to a graph of its own;
 *                               et_load empties it (et_graph_reset), so a
 *                               tool may hand the same graph every rank
 *   msg(ctx, m, e)              optional: each message read in full,
 *                               GlobalMetadata included, in file order,
 *                               before the nodes it holds are added
 *   node(ctx, g, i, n, e)       optional: n was just added to g as index i;
 *                               n lives until the callback returns (a tool
 *                               checks its own limits here, as nodes arrive)
 *   rank_end(ctx, g, r, e)      the rank's nodes are all in g, finished
 *                               (et_graph_finish)
 * A callback that returns -1 (with e set) stops the load, which returns
 * -1 with that error.
 *
 * What the caller may rely on:
 *  - Graphs are always the caller's: et_load never allocates, keeps or
 *    frees one. After a failure the graph of the rank being read is left
 *    unfinished, holding the nodes added before the failure (node was
 *    called for those), and rank_end is not called for it; the
 *    caller frees it like any other.
 *  - Adding a node cannot fail: et_reader stops a rank with too many
 *    messages for one graph with an error first.
 *  - Errors are et_input's and et_reader's, one line each, naming the
 *    input, the rank and the byte offset; bad data is ET_EXIT_DATA. Only
 *    the messages read in full before the error were passed to msg.
 *  - Progress (et_progress: "rank k of N (P%), M nodes, T s, about L s
 *    left", M counted over all ranks) is on stderr as the mode says, and
 *    erased at the end. */
#ifndef ET_LOAD_H
#define ET_LOAD_H

#include "et_graph.h"
#include "et_input.h"
#include "et_reader.h"
#include <stdbool.h>
#include <stdint.h>

/* What rank_end learns about the rank (besides its graph). */
typedef struct et_load_rank {
	et_rank_info ri;   /* as rank_begin saw it; ri.input valid during the call */
	uint64_t n_msgs;   /* messages read, GlobalMetadata included */
	bool meta_is_node; /* message 0 was read as a node (see et_reader.h) */
} et_load_rank;

typedef struct et_load_hooks {
	void *ctx;
	int (*rank_begin)(void *ctx, const et_rank_info *ri, et_graph **g, et_error *e);
	int (*msg)(void *ctx, const et_msg *m, et_error *e);
	int (*node)(void *ctx, et_graph *g, uint32_t i, const et_node *n, et_error *e);
	int (*rank_end)(void *ctx, et_graph *g, const et_load_rank *r, et_error *e);
} et_load_hooks;

typedef struct et_load_opts {
	bool threaded; /* decode on a second thread too (-T 1) */
	int progress;  /* et_progress mode: -1 never, 0 on a terminal, 1 always */
} et_load_opts;

/* What a load did, filled in whether or not it succeeded. */
typedef struct et_load_stats {
	uint64_t ranks, nodes; /* ranks begun, nodes added */
	bool threaded;         /* a second thread did read */
	et_reader_times times; /* see et_reader_stop() */
} et_load_stats;

/* Reads in to its end (in stays the caller's). st may be NULL. Returns 0,
 * or -1 with e set. */
int et_load(et_input *in, const et_load_opts *o, const et_load_hooks *h, et_load_stats *st,
            et_error *e);

/* et_input_open(argc, argv, io), et_load, et_input_close. When io selects
 * ranks and none of them is in the input, that is an error too:
 * "--ranks matches none of the input's ranks" (ET_EXIT_DATA). */
int et_load_args(int argc, char *const argv[], const et_input_opts *io, const et_load_opts *o,
                 const et_load_hooks *h, et_load_stats *st, et_error *e);

#endif
