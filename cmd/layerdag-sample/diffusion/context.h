/* What the diffusion model's three networks see besides the graph
 * encoder's pooled vector (encoder.h): the context vector, and the node
 * features of the graph built so far.
 *
 * The context (LD_CTX values) carries the label y, standardized with the
 * corpus's mean and deviation of asinh(y) (the labels of the corpus span
 * 1 .. 26 and are skewed; a raw y in a sinusoid of frequencies 10000^(−2i/D)
 * left neighbouring labels all but equal), then sines of it at six
 * frequencies (0.5 .. 16) so that a head can tell labels apart finely; the
 * diffusion step t/T with three sines; the layer index l (l/16, at most 8:
 * an ET rank's 7,000 layers would otherwise be an input of 450, and
 * log(1 + l)); the size of the whole prefix (windowed or not), the width of the layer before and
 * the width of the new layer; and whether the new layer is the last (the sizer decides it with the
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
 * layer's width.
 *
 * A model may see only a window of the prefix: the layers l − window ..
 * l − 1 (window 0: all of them). A Chakra ET rank is thousands of layers
 * deep, and every layer re-encodes what the networks see: the whole prefix
 * made fitting and sampling quadratic in the depth (hours for one ResNet
 * rank). With a window the graph must be in layer order (node ids never go
 * down a layer, edges sorted by their dependant: ld_dag_layer_sort, and
 * the sampler grows graphs so), so that the window is a range of nodes and
 * of edges, found by bisection: a view costs the window, not the graph. In the corpus an
 * attribute's out-degree is all but fixed (an op reads its operands), and without the arity the
 * widths drawn did not match the layer before: out-degrees spread by ±1 around each attribute's
 * own. */
#ifndef LAYERDAG_SAMPLE_DIFFUSION_CONTEXT_H
#define LAYERDAG_SAMPLE_DIFFUSION_CONTEXT_H

#include "layerdag-sample/ld.h"

enum { LD_CTX = 27, LD_NODE_EXTRA = 9, LD_DIST = 5 };

typedef struct ld_cond {
	double ymu, ysd; /* of asinh(y) over the corpus */
	/* [vocab], or NULL: each attribute's mean out-degree in the corpus
	 * (nodes before their graph's last layer); owned by the model */
	const double *arity;
	uint32_t window; /* the layers of the prefix the networks see; 0: all */
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
	uint32_t lo, hi;     /* the graph's nodes [lo, hi) hold the view's */
	uint32_t elo, ehi;   /* the graph's edges [elo, ehi) hold the view's */
	uint32_t *ix;        /* [hi − lo]: view index of node lo + i, or UINT32_MAX */
	uint32_t *node;      /* [n]: the graph's node of each view index */
	double *X;           /* [n × F] */
	uint8_t *front;      /* [n] */
	uint32_t (*E)[2];    /* the prefix's edges, room for extra more */
	size_t ne;
	uint32_t prefix; /* the graph's nodes before layer l, in the view or not */
	uint32_t wprev;  /* nodes of layer l − 1 */
	double demand;   /* the arities of layer l − 1 summed: its nodes' operands */
	uint32_t *od;    /* [n]: successors within the prefix */
} ld_view;

/* The view of g for layer l under c's window (c->arity for the features);
 * pair_room: E has room for every (prefix, new) pair as an edge more. */
void ld_view_build(ld_view *v, const ld_dag *g, const uint32_t *layer, uint32_t l, bool with_new,
                   uint32_t vocab, const ld_cond *c, bool pair_room);
/* Node u's view index, or UINT32_MAX when the view does not hold it. */
uint32_t ld_view_ix(const ld_view *v, uint32_t u);
/* The first node of the window of layer l in a graph of n nodes in layer
 * order (0 without a window): the prefix candidates are [it, layer l). */
uint32_t ld_window_lo(const uint32_t *layer, uint32_t n, uint32_t l, uint32_t window);
/* The attribute one-hot of view node i set to attr (a new node's noisy one). */
void ld_view_set_attr(ld_view *v, uint32_t i, uint32_t attr, uint32_t vocab, const double *arity);
void ld_view_free(ld_view *v);

#endif
