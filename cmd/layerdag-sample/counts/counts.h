/* The counts model: LayerDAG's layerwise factorisation with back-off count
 * tables instead of networks.
 *
 * Fitting reads each corpus graph's Kahn layers and counts, per label
 * bucket (quantiles of y):
 *   - the plans: each graph's sequence of layer widths, with its label;
 *   - attributes by layer position (first, last, and relative depth in
 *     POS_MID buckets) and label bucket, backed off to position only, then
 *     to the corpus marginal;
 *   - per attribute, the in-degree and out-degree profiles, and which
 *     attributes its predecessors have;
 *   - the layer span of edges;
 *   - the sink roles: attributes that never have a successor;
 *   - each attribute's roles (ld.h: never a sink, never a source, sink
 *     role), learnt from the plans, so that a model file of version 2
 *     written before them has them too.
 * Sampling for a label y draws a plan first (a corpus graph's widths and
 * attributes, among the nearest labels), then layer by layer the
 * attributes (the plan's, each replaced with probability CM_REDRAW by a
 * draw in the plan node's role: the plan's own attributes of that role,
 * backed off to the corpus's), their in-degrees and out-degree budgets (the
 * plan's, a redrawn node's too), then each new node's predecessors: one in
 * the layer before (the Kahn invariant), the others by their span's rate
 * (edges per pair of nodes at that span), all weighted by the remaining
 * out-degree budget of the candidates and their attributes' affinity; sink
 * roles are never predecessors. The roles hold in every sample: an attribute never a
 * source is not drawn in the first layer, one never a sink not in the last,
 * and a redrawn attribute has the role of the plan's node (a sink stays
 * one; a node with successors gets an attribute that has some); a node of
 * an attribute never a sink still without a successor when the graph is
 * done takes one in the layer after it (an edge given way, in-degrees
 * kept). Same model and seed, same graphs. */
#ifndef LAYERDAG_SAMPLE_COUNTS_COUNTS_H
#define LAYERDAG_SAMPLE_COUNTS_COUNTS_H

#include "et_rng.h"
#include "layerdag-sample/corpus/etdag.h"
#include "layerdag-sample/ld.h"

#define CM_REDRAW 0.2
enum { CM_POS_MID = 6, CM_NPOS = CM_POS_MID + 2, CM_DEG = 21, CM_SPAN = 11 };

typedef struct cm_model {
	uint32_t vocab, nyb;
	double *ybound; /* [nyb - 1]: a label below ybound[b] is in bucket <= b */
	/* plans, sorted by label */
	size_t nplan;
	double *plan_y;
	uint32_t *plan_off; /* [nplan + 1] into plan_w */
	uint32_t *plan_w;
	uint32_t *plan_aoff; /* [nplan + 1] into plan_a */
	uint32_t *plan_a;    /* each plan's attributes, layer by layer */
	uint32_t *plan_od;   /* and their out-degrees (capped at CM_DEG - 1) */
	uint32_t *plan_id;   /* and in-degrees (capped likewise) */
	/* counts */
	double *attr_py;  /* [CM_NPOS][nyb][vocab] */
	double *attr_p;   /* [CM_NPOS][vocab] */
	double *attr_all; /* [vocab] */
	double *indeg;    /* [vocab][CM_DEG] (nodes with a predecessor) */
	double *outdeg;   /* [vocab][CM_DEG] (nodes before the last layer) */
	double *pred;     /* [vocab (child)][vocab (parent)] */
	double span[CM_SPAN];
	uint8_t *sink; /* [vocab] */
	uint8_t *role; /* [vocab]: LD_ROLE_* bits, from the plans (cm_roles) */
	/* from the plans too (cm_roles), so no model file needs them:
	 * [CM_NPOS][2][vocab] the attributes by position and whether the node
	 * has a successor; */
	double *attr_role;
	/* [CM_SPAN] the pairs of nodes at each layer span */
	double span_pairs[CM_SPAN];
	ld_etmap et; /* fitted on Chakra ETs: what each attribute stands for */
} cm_model;

void cm_fit(const ld_corpus *c, uint32_t nyb, cm_model *m);
/* m->role, m->attr_role and m->span_pairs from m's plans (cm_fit and
 * cm_read call it). */
void cm_roles(cm_model *m);
void cm_free(cm_model *m);
/* Sample one graph for label y. used[nplan] counts how often each plan served the batch so far
 * (the caller zeroes it before the first graph of a batch); cm_sample updates it. */
void cm_sample(const cm_model *m, double y, uint32_t *used, et_rng *r, ld_dag *g);

/* The model file: text, "layerdag-sample counts 2" then the tables
 * (layerdag-sample(1) documents it). Errors as the corpus reader's. */
int cm_write(const cm_model *m, FILE *f);
int cm_read(cm_model *m, const char *path, et_error *e);

#endif
