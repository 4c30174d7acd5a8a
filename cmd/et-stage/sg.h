/* The stage-graph builder: one pipeline stage's graph (what every rank of
 * the stage runs, up to pg_name and peers), built tensor by tensor.
 *
 * A tensor is an sgv handle. A COMP candidate whose num_ops is 0 is not
 * made into a node: its handle stands for its parents, so that consumers
 * depend on them instead (STAGE's zero-op removal, transitive by
 * construction). Collectives over a dimension of size 1 are not made
 * either: the handle of their input is returned. Memory is the builder's
 * (allocation failure ends the process, the suite's policy for small
 * builders); sg_free releases it. */
#ifndef ET_STAGE_SG_H
#define ET_STAGE_SG_H

#include "et-stage/stage.h"
#include "et_arena.h"

#include <stddef.h>
#include <stdint.h>

typedef int32_t sgv;
#define SG_NONE (-1)

/* op_type values of COMP nodes, as STAGE names them */
enum { OP_M, OP_E, OP_E2, OP_A, OP_SLICE, OP_B, OP_R, OP_CUSTOM, OP_GATHER, OP_SCATTER, NOPS };
extern const char *const sg_op_name[NOPS];

/* What a node's rank-dependent field is: none, the pg_name of a group over
 * a spatial dimension, or the peer of a send (dst) or receive (src). */
enum { VAR_NONE, VAR_PG, VAR_DST, VAR_SRC };

typedef struct sg_node {
	const char *name;
	const char *key; /* the tensor it makes (memory attributes) */
	long double ops, size;
	uint32_t dep_off, n_deps; /* node indices, in g->pool */
	uint32_t in_off, n_in;    /* input tensors: handles, in g->pool */
	uint8_t type, op, var, dim;
	int ctype;
	int32_t peer_stage; /* SEND/RECV */
	int32_t tag;
	const char *wkey; /* a weight it reads (matrix products), or NULL */
	long double wsize;
} sg_node;

typedef struct sg_val {
	uint32_t off, n;  /* the nodes a consumer depends on (g->pool) */
	int32_t node;     /* the node that made it, -1 for a removed one */
	long double size; /* elements */
} sg_val;

typedef struct sg {
	const stage_conf *c;
	const stage_layout *l;
	int stage;
	sg_node *n;
	size_t nn, capn;
	uint32_t *pool;
	size_t npool, cappool;
	sg_val *v;
	size_t nv, capv;
	et_arena *arena; /* names */
	int32_t tag_base;
	uint32_t (*ctrl)[2]; /* control edges (from, to), node indices */
	size_t nctrl, capctrl;
	uint32_t *mark; /* per node: the stamp of the dependency list that took it */
	size_t capmark;
	uint32_t stamp;
} sg;

void sg_init(sg *g, const stage_conf *c, const stage_layout *l, int stage, int32_t tag_base);
void sg_free(sg *g);

/* A name from a format, in the builder's memory. */
const char *sg_name(sg *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A COMP candidate making tensor `name` (node name NAME_COMP). wkey/wsize:
 * the weight a matrix product reads, for the memory attributes. */
sgv sg_comp(sg *g, const char *name, int op, long double ops, long double size, const sgv *deps,
            int n_deps);
sgv sg_comp_w(sg *g, const char *name, int op, long double ops, long double size, const sgv *deps,
              int n_deps, const char *wkey, long double wsize);
/* The k-th collective (from 1) of the chain that converts tensor `name`
 * (comm_size: size, the producer's local elements) over dimension dim. */
sgv sg_coll(sg *g, const char *name, int k, int ctype, int dim, long double size, sgv in);
/* A pipeline send of `name` to stage peer, and its receive from stage peer
 * (no dependencies); tag_id must be the same at both ends. */
sgv sg_send(sg *g, const char *name, int peer, long double size, sgv in, int32_t tag_id);
sgv sg_recv(sg *g, const char *name, int peer, long double size, int32_t tag_id);

/* A memory node (MEM_LOAD, or MEM_STORE when store) of `bytes`. */
sgv sg_mem(sg *g, const char *name, bool store, long double bytes, const sgv *deps, int n_deps);
/* Node `to` runs after node `from` (indices into g->n). */
void sg_ctrl(sg *g, uint32_t from, uint32_t to);
/* Every node of [lo, g->nn) none of whose data dependencies is in that
 * range runs after node `from`: how a schedule orders its operations. */
void sg_after(sg *g, uint32_t from, uint32_t lo);
/* The collectives of each group in one chain of control dependencies, in
 * program order: by pos[i], then i (pos NULL: by i, the build order). A
 * pair already joined by a data dependency gets no control edge. pos must
 * be an order every edge of g goes forward in, so the graph stays acyclic;
 * both builders' build orders are. */
void sg_chain_collectives(sg *g, const uint32_t *pos);

/* Convenience: a dependency list literal. */
#define SGD(...) (const sgv[]){__VA_ARGS__}, (int)(sizeof((sgv[]){__VA_ARGS__}) / sizeof(sgv))

#endif
