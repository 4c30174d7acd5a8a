/* Building the cgraph graph (draw.c, clusters.c), its title and legend
 * (legend.c), and laying it out and rendering it with gvc (render.c). */
#ifndef ET_VIZ_DRAW_DRAW_H
#define ET_VIZ_DRAW_DRAW_H

#include "et-viz/viz.h"

#include <gvc.h>

/* The graph (or cluster) a vertex is created in. */
typedef struct clusters clusters;
clusters *viz_clusters_new(const conf *c, const model *m, Agraph_t *root);
Agraph_t *viz_cluster_of(clusters *cl, const model *m, const vvert *v);
void viz_clusters_free(clusters *cl);

/* Title and legend as the graph's HTML-like label (no extra nodes, so the
 * node and edge counts of the output are those of the selection). */
void viz_legend(const conf *c, const model *m, Agraph_t *g);

int viz_render(const conf *c, Agraph_t *g, et_error *e);

#endif
