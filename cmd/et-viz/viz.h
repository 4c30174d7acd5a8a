/* et-viz: shared types. The tool reads the selected ranks into et_graphs
 * (load.c), marks the nodes to draw (select.c), folds runs into vertices
 * (collapse.c), derives the edges between vertices (edges.c; indirect.c
 * for paths through hidden nodes; links.c) and hands that picture model to
 * cgraph/gvc (draw.c, render.c). Timelines (timeline*.c, sched.c,
 * gantt.c) share only the loading. */
#ifndef ET_VIZ_VIZ_H
#define ET_VIZ_VIZ_H

#include "app/et_cli.h"
#include "et_err.h"
#include "et_graph.h"
#include "et_input.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>

#define VIZ_NONE UINT32_MAX
#define VIZ_NO_ATTR INT64_MIN /* a tid/stream attribute that is absent */

typedef enum viz_fmt { FMT_AUTO, FMT_DOT, FMT_SVG, FMT_PNG, FMT_PDF, FMT_JSON } viz_fmt;
typedef enum viz_cluster { CL_AUTO, CL_THREAD, CL_RANK, CL_NONE } viz_cluster;

typedef struct id_range {
	uint64_t lo, hi;
} id_range;

typedef struct conf {
	et_cli cli;
	et_cli_in in; /* input options; in.ranks: the ranks to read */
	viz_fmt fmt;
	/* selection */
	bool around_set;
	uint64_t around;
	uint32_t depth, hub;
	id_range *ids;
	int n_ids;
	size_t cap_ids;
	const char *match, *collapse;
	regex_t match_re, collapse_re;
	bool critical, only_critical;
	uint64_t max_nodes;
	/* look */
	bool link, no_legend;
	int reduce; /* -1 never (--all-edges), 0 when too costly, 1 always (--reduce) */
	viz_cluster cluster;
	const char *rankdir;
	/* timeline */
	bool timeline;
	const char *schedule;
} conf;

/* One rank as read: its graph plus what et_graph does not keep. */
typedef struct vrank {
	uint32_t rank;
	const char *input; /* display name of its input (owned by the model) */
	et_graph *g;
	int64_t *tid, *stream; /* per node; VIZ_NO_ATTR when absent */
	uint8_t *sel;          /* per node: drawn */
	uint32_t *crit;        /* per node: 1 + position on the critical path, 0 = off it */
	uint32_t *vert;        /* per node: its vertex, VIZ_NONE if not drawn */
} vrank;

/* A drawn node: one trace node, or a folded run of them. */
typedef struct vvert {
	uint32_t r;           /* index into model.ranks */
	uint32_t first, last; /* node indices of the run (first == last: one node) */
	uint32_t count;
	uint64_t dur; /* sum of duration_micros */
	bool crit;
} vvert;

/* EK_INDIRECT: a dependency through hidden nodes (indirect.c). Lower kinds
 * win when two edges join the same pair (edges.c). */
typedef enum edge_kind { EK_DATA, EK_CTRL, EK_INDIRECT, EK_COLL, EK_P2P, EK_KINDS } edge_kind;

typedef struct vedge {
	uint32_t from, to;
	uint8_t kind; /* edge_kind */
	bool crit;
	uint32_t hidden; /* EK_INDIRECT: hidden nodes on the shortest such path */
} vedge;

typedef struct model {
	vrank *ranks;
	uint32_t n_ranks;
	size_t cap_ranks;
	vvert *v;
	uint32_t nv;
	size_t capv;
	vedge *e;
	uint32_t ne;
	size_t cape;
	uint64_t n_selected; /* trace nodes drawn (before folding) */
	char **inputs;       /* input display names, owned */
	uint32_t n_inputs;
	size_t cap_inputs;
	uint32_t *eh, eh_mask; /* edges.c: (from, to) -> edge index + 1 */
	uint32_t implied;      /* edges left out by viz_reduce */
} model;

/* load.c */
int viz_load(const conf *c, int argc, char **argv, model *m, et_error *e);
/* The --max-nodes refusal (ET_EXIT_USAGE) for n nodes to draw; reading:
 * the count is of the nodes read so far (viz_load stops there). */
int viz_too_many(const conf *c, uint64_t n, bool reading, et_error *e);
void viz_model_free(model *m);

/* select.c: fills sel[] and crit[] of every rank. */
int viz_select(const conf *c, model *m, et_error *e);

/* collapse.c: vertices from the selected nodes (folding runs). */
void viz_collapse(const conf *c, model *m);
/* The cluster key of a node: streams > 0 are device streams, else the
 * thread. Returns true when the node has a key at all. */
bool viz_group_key(const vrank *vr, uint32_t i, int64_t *key, bool *is_stream);

/* edges.c: dependency edges between vertices, one per pair. */
void viz_edges(model *m);
void viz_edge_add(model *m, uint32_t from, uint32_t to, edge_kind k);
void viz_edges_done(model *m);
/* An EK_INDIRECT edge through `hidden` hidden nodes (the fewest kept). */
void viz_edge_add_indirect(model *m, uint32_t from, uint32_t to, uint32_t hidden);

/* indirect.c: an EK_INDIRECT edge from each drawn node to each drawn node
 * that depends on it through hidden nodes only; a hidden node carries at
 * most VIZ_NEAR_CAP nearest drawn ancestors (et-viz(1) says so). */
#define VIZ_NEAR_CAP 32
void viz_indirect(model *m);

/* links.c: collective / send-recv pairs across ranks. */
void viz_links(model *m);

/* draw.c + render.c */
int viz_draw(const conf *c, model *m, et_error *e);

/* reduce.c: layout cost (virtual nodes dot would make) and transitive
 * reduction, of every edge or (indirect) of the EK_INDIRECT ones only;
 * returns the number of edges dropped. */
uint64_t viz_layout_cost(const model *m);
uint32_t viz_reduce(model *m, bool indirect);

/* ids.c */
int viz_ids_parse(conf *c, const char *s);
bool viz_ids_has(const conf *c, uint64_t id);

#endif
