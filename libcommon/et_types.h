/* et_types: the Chakra node and collective types, by name, for every tool.
 *
 * The values are the generated protobuf-c enums (proto/et_def.proto), given
 * short names here; no tool writes a type as a number. Names and parsing
 * come from the generated descriptors, so they cannot drift from the
 * schema. */
#ifndef ET_TYPES_H
#define ET_TYPES_H

#include "proto/et_def.pb-c.h"
#include <stdbool.h>

/* Macros, not a new enum: they keep the generated enum types, so that
 * comparing a node's type with them is comparing like with like. */
#define ET_NODE_INVALID CHAKRA_PROTO_MSG__NODE_TYPE__INVALID_NODE
#define ET_NODE_METADATA CHAKRA_PROTO_MSG__NODE_TYPE__METADATA_NODE
#define ET_NODE_MEM_LOAD CHAKRA_PROTO_MSG__NODE_TYPE__MEM_LOAD_NODE
#define ET_NODE_MEM_STORE CHAKRA_PROTO_MSG__NODE_TYPE__MEM_STORE_NODE
#define ET_NODE_COMP CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE
#define ET_NODE_SEND CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE
#define ET_NODE_RECV CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE
#define ET_NODE_COLL CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE
/* node types the schema defines: 0 .. COUNT-1 */
#define ET_NODE_TYPE_COUNT (ET_NODE_COLL + 1)

#define ET_COLL_ALL_REDUCE CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_REDUCE
#define ET_COLL_REDUCE CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE
#define ET_COLL_ALL_GATHER CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_GATHER
#define ET_COLL_GATHER CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__GATHER
#define ET_COLL_SCATTER CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__SCATTER
#define ET_COLL_BROADCAST CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__BROADCAST
#define ET_COLL_ALL_TO_ALL CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_TO_ALL
#define ET_COLL_REDUCE_SCATTER CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER
#define ET_COLL_REDUCE_SCATTER_BLOCK CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER_BLOCK
#define ET_COLL_BARRIER CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__BARRIER
/* collective types the schema defines: 0 .. COUNT-1 */
#define ET_COLL_TYPE_COUNT (ET_COLL_BARRIER + 1)

/* Schema names ("COMP_NODE", "ALL_REDUCE"); NULL when the value is not one
 * the schema defines. */
const char *et_node_type_name(int t);
const char *et_coll_type_name(int t);
/* The schema name, case-insensitively and ignoring '_' and '-', or the
 * short form ("comp", "all_reduce", "allreduce", "AllReduce"); -1 when
 * unknown. */
int et_node_type_parse(const char *s);
int et_coll_type_parse(const char *s);

/* The node types that communicate (COMM_SEND, COMM_RECV, COMM_COLL). */
static inline bool et_node_is_comm(int t)
{
	return t == ET_NODE_SEND || t == ET_NODE_RECV || t == ET_NODE_COLL;
}
static inline bool et_node_is_mem(int t)
{
	return t == ET_NODE_MEM_LOAD || t == ET_NODE_MEM_STORE;
}

/* Whether ASTRA-sim simulates a collective of this comm_type: ALL_REDUCE,
 * ALL_TO_ALL, ALL_GATHER, REDUCE_SCATTER and BROADCAST (which it replays
 * from duration_micros). Every other value, REDUCE_SCATTER_BLOCK and
 * values outside the schema included, makes its workload layer throw
 * "Unsupported collective comm type" (doc/astra-sim.md, section F). */
bool et_astra_supports_coll(int ctype);

#endif
