/* What the diffusion model's three networks see besides the graph
 * encoder's pooled vector (encoder.h): the context vector, and the node
 * features of the graph built so far.
 *
 * The context (LD_CTX values) carries the label y, standardized with the
 * corpus's mean and deviation of asinh(y) (the labels of the corpus span
 * 1 .. 26 and are skewed; a raw y in a sinusoid of frequencies 10000^(−2i/D)
 * left neighbouring labels all but equal), then sines of it at six
 * frequencies (0.5 .. 16) so that a head can tell labels apart finely; the
 * diffusion step t/T with three sines; the layer index l; the size of the
 * prefix, the width of the layer before and the width of the new layer;
 * and whether the new layer is the last (the sizer decides it with the
 * size: the attribute denoiser then knows whether the layer needs a node
 * that may have successors).
 * These are concatenated to the pooled graph vector, not added to it.
 *
 * A view is the graph as one network sees it for layer l: the nodes of the
 * layers before l (in node order), then, if asked, the nodes of layer l
 * (in node order); node features: the attribute one-hot (vocab values),
 * the distance l − layer one-hot (0 .. 3, 4 or more), the relative depth
 * layer/l, the node's successors and predecessors within the prefix (/4),
 * and its attribute's arity (/4); the prefix's edges; and the front: the
 * nodes of layer l − 1, whose arities summed (the demand: how many
 * operands the layer before reads, in the context) say most about the new
 * layer's width. In the corpus an attribute's out-degree is all but fixed
 * (an op reads its operands), and without the arity the widths drawn did
 * not match the layer before: out-degrees spread by ±1 around each
 * attribute's own. */
#ifndef LD_CONTEXT_H
#define LD_CONTEXT_H

#include "layerdag-sample/ld.h"

enum { LD_CTX = 27, LD_NODE_EXTRA = 9, LD_DIST = 5 };

typedef struct ld_cond {
	double ymu, ysd; /* of asinh(y) over the corpus */
	/* [vocab], or NULL: each attribute's mean out-degree in the corpus
	 * (nodes before their graph's last layer); owned by the model */
	const double *arity;
} ld_cond;

/* The corpus's label statistics (0 and 1 for an empty corpus). */
void ld_cond_fit(ld_cond *c, const ld_corpus *cp);
/* The arity table of cp (vocab values, allocated). */
double *ld_arity_fit(const ld_corpus *cp, uint32_t vocab);
double ld_cond_y(const ld_cond *c, double y);

typedef struct ld_ctx_in {
	double y;
	int t, T; /* diffusion step of T; T = 0: none */
	uint32_t l, n, wprev, wnew;
	int last;      /* the new layer is the graph's last (the sizer said so) */
	double demand; /* Σ arity over the layer before (ld_view) */
} ld_ctx_in;

void ld_ctx(const ld_cond *c, const ld_ctx_in *in, double *out);

typedef struct ld_view {
	uint32_t n, B, w, F; /* nodes, of which prefix B and new w; features */
	uint32_t *ix;        /* [g->n]: view index, or UINT32_MAX */
	uint32_t *node;      /* [n]: the graph's node of each view index */
	double *X;           /* [n × F] */
	uint8_t *front;      /* [n] */
	uint32_t (*E)[2];    /* the prefix's edges, room for extra more */
	size_t ne;
	uint32_t wprev; /* nodes of layer l − 1 */
	double demand;  /* the arities of layer l − 1 summed: its nodes' operands */
	uint32_t *od;   /* [n]: successors within the prefix */
} ld_view;

void ld_view_build(ld_view *v, const ld_dag *g, const uint32_t *layer, uint32_t l, bool with_new,
                   uint32_t vocab, const double *arity, size_t extra);
/* The attribute one-hot of view node i set to attr (a new node's noisy one). */
void ld_view_set_attr(ld_view *v, uint32_t i, uint32_t attr, uint32_t vocab, const double *arity);
void ld_view_free(ld_view *v);

#endif
