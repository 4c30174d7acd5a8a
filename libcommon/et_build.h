/* et_build: nodes built in arena memory, for the tools and tests that make
 * traces rather than read them.
 *
 * Attributes are added in the order the reference generators add them
 * (is_cpu_op first, then comm_type or comm_src/dst/tag, then comm_size) and
 * with the members et_attr_set_known_int picks, so that a node built here
 * encodes to the same bytes as the reference generators' node. Every node,
 * attribute and dependency list lives in the arena: nothing is freed
 * separately, and allocation failure ends the process (et_arena's policy).
 * Names are not copied: they must outlive the node's encoding. */
#ifndef ET_BUILD_H
#define ET_BUILD_H

#include "et_arena.h"
#include "et_codec.h"

#include <stdbool.h>
#include <stdint.h>

/* A node with only id, name and type (an ET_NODE_* value) set. */
et_node *et_build_node(et_arena *a, uint64_t id, const char *name, int type);
/* ET_NODE_COMP with duration_micros and is_cpu_op. */
et_node *et_build_comp(et_arena *a, uint64_t id, const char *name, uint64_t dur_us, bool cpu);
/* ET_NODE_COLL with is_cpu_op false, comm_type (an ET_COLL_* value) and
 * comm_size. */
et_node *et_build_coll(et_arena *a, uint64_t id, const char *name, int ctype, int64_t size);
/* ET_NODE_SEND (send) or ET_NODE_RECV with is_cpu_op false, comm_src,
 * comm_dst, comm_tag and comm_size. */
et_node *et_build_p2p(et_arena *a, uint64_t id, const char *name, bool send, int32_t src,
                      int32_t dst, int32_t tag, int64_t size);
/* Appends dep to the node's data (ctrl) dependencies unless it is there
 * already; the list keeps the order of first addition. */
void et_build_data_dep(et_arena *a, et_node *n, uint64_t dep);
void et_build_ctrl_dep(et_arena *a, et_node *n, uint64_t dep);

#endif
