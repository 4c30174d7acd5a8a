/* Sampling a DAG with the diffusion model's three networks, LayerDAG's way:
 * layer by layer, its size and whether it is the last from the classifier,
 * then its attributes by T reverse steps from the marginal through the
 * posterior q(x_{t−1} | x_t, x̂_0) (a layer that is not the last keeps a
 * node that may have successors: if none was drawn, the likeliest non-sink
 * attribute of the last step's x̂_0 takes one node), then its edges to every
 * earlier node the same way from the Bernoulli marginal. A new node left without a
 * predecessor in the layer before gets its most likely one there (which
 * keeps the Kahn layers); nodes of a sink role are never predecessors.
 * The roles' rules hold (ld.h): a drawn attribute that breaks one (a
 * source never a source in the first layer, a sink never a sink in the
 * last) gives way to the likeliest of x̂_0 that breaks none, and a node of
 * the layer before whose attribute is never a sink and that got no
 * successor takes the new node it is likeliest a predecessor of, in place of
 * that node's least likely other predecessor that has successors to spare.
 * With a window (context.h) the networks see, and the edges come from, the
 * last window layers only. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_DIFFSAMPLE_H
#define LAYERDAG_SAMPLE_DIFFUSION_DIFFSAMPLE_H

#include "layerdag-sample/corpus/etdag.h"
#include "layerdag-sample/diffusion/attrdiff.h"
#include "layerdag-sample/diffusion/edgediff.h"
#include "layerdag-sample/diffusion/sizer.h"

typedef struct ld_diffusion {
	ld_sizer z;
	ld_attrdiff a;
	ld_edgediff e;
	uint8_t *role;       /* [vocab]: LD_ROLE_* bits, the corpus's roles (ld.h) */
	double *arity;       /* [vocab]: mean out-degree (context.h); the nets point here */
	uint32_t max_layers; /* the corpus's deepest graph: samples stop there */
	ld_etmap et;         /* fitted on Chakra ETs: each attribute's class; else empty */
} ld_diffusion;

/* A graph for label y, at most max_layers layers. */
void ld_diff_sample(ld_diffusion *m, double y, et_rng *r, uint32_t max_layers, ld_dag *out);

#endif
