/* The call tree of a host trace: children of each node (CSR, ascending id)
 * and the node classes both conversions share. */
#ifndef ET_CONVERT_PYTORCH_PT_TREE_H
#define ET_CONVERT_PYTORCH_PT_TREE_H

#include "et-convert/pytorch/pt.h"

typedef struct pt_tree {
	uint32_t *off;   /* n+1 offsets into kid */
	uint32_t *kid;   /* child node indices, ascending id within a parent */
	int64_t *parent; /* parent node index or -1 */
	uint32_t *by_id; /* all node indices, ascending id (equal ids: by index) */
} pt_tree;

void pt_tree_build(pt_tree *tr, const pt_trace *t);
void pt_tree_free(pt_tree *tr);

static inline bool pt_is_gpu(const pt_node *n)
{
	return n->cat != PT_NONE;
}
bool pt_is_root_name(const char *name);
bool pt_is_metadata_name(const char *name);

/* Data dependencies under construction: up to eight per node, in order. */
typedef struct pt_deps {
	int64_t (*dep)[8];
	uint8_t *n;
} pt_deps;
void pt_deps_init(pt_deps *d, uint32_t n);
void pt_deps_free(pt_deps *d);
/* Append id to node i's deps unless present; false if the node is full. */
bool pt_deps_add(pt_deps *d, uint32_t i, int64_t id);

/* The reference converter's data-dependency walk from root over the nodes
 * with in_map[i]: CPU ops are chained in depth-first order (children by
 * ascending id), each GPU op depends on the last op before it, and a CPU
 * op also depends on its inter-thread dep when keep_itd(ctx, i) says so.
 * stack and visit hold n entries; gen marks this walk's visits (a new
 * value per walk). Returns -1, or the index of a node whose deps overflow
 * (more than eight). */
int64_t pt_chain_walk(const pt_trace *t, const pt_tree *tr, const bool *in_map, pt_deps *deps,
                      uint32_t root, uint32_t *stack, uint32_t *visit, uint32_t gen,
                      bool (*keep_itd)(void *ctx, uint32_t i), void *ctx);

/* Check the emitted graph (nodes with keep[i]): every data dep names a kept
 * node, and there is no cycle (printed as a path of names). */
int pt_check_graph(const pt_trace *t, const bool *keep, const pt_deps *d, et_error *e);

#endif
