/* Checks of what nodes say they do: communication attributes, is_cpu_op,
 * work of COMP nodes (node by node, as they are added), pg_name
 * definitions (after the rank). */
#include "et-validate/checks/pgroups.h"
#include "et-validate/validate.h"
#include "et_buf.h"
#include "et_pg.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void missing_list(char *buf, size_t cap, uint16_t flags, const uint16_t *need,
                         const char *const *names, int n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int k = 0; k < n; k++)
		if (!(flags & need[k]) && len < cap)
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "",
			                        names[k]);
}

static void check_coll(vctx *v, const et_graph *g, uint32_t i)
{
	static const uint16_t need[] = {ET_GF_COMM_TYPE, ET_GF_COMM_SIZE};
	static const char *const names[] = {"comm_type", "comm_size"};
	uint16_t fl = g->flags[i];
	if ((fl & need[0]) == 0 || (fl & need[1]) == 0) {
		char miss[64];
		missing_list(miss, sizeof miss, fl, need, names, 2);
		find_node(&v->fs, C_COLL_MISSING_ATTR, v->ri.rank, g, i,
		          "COMM_COLL_NODE without %s", miss);
	}
	const et_graph_comm *c = et_graph_comm_at(g, i);
	int32_t t = c->type;
	/* A value outside the schema is COLL_BAD_TYPE only: ASTRA-sim would
	 * not run it either, but one finding says all there is to say. */
	if ((fl & ET_GF_COMM_TYPE) && (t < 0 || t >= ET_COLL_TYPE_COUNT))
		find_node(&v->fs, C_COLL_BAD_TYPE, v->ri.rank, g, i,
		          "comm_type %d is not a CollectiveCommType (0..%d)", t,
		          ET_COLL_TYPE_COUNT - 1);
	else if ((fl & ET_GF_COMM_TYPE) && !et_astra_supports_coll(t))
		find_node(&v->fs, C_COLL_UNSUPPORTED, v->ri.rank, g, i,
		          "%s: ASTRA-sim simulates ALL_REDUCE, ALL_GATHER, REDUCE_SCATTER and "
		          "ALL_TO_ALL, replays BROADCAST, and aborts on the others",
		          coll_name(t));
	if ((fl & ET_GF_COMM_SIZE) && c->size == 0)
		find_node(&v->fs, C_COLL_BAD_SIZE, v->ri.rank, g, i, "comm_size 0");
}

/* The peer, tag and size are required; the node's own end (a SEND's
 * comm_src, a RECV's comm_dst) is not: ASTRA-sim takes the node's rank for
 * it, and its MSCCL-derived custom-collective examples leave it out. */
static void check_p2p(vctx *v, const et_graph *g, uint32_t i)
{
	static const uint16_t need_send[] = {ET_GF_COMM_DST, ET_GF_COMM_TAG, ET_GF_COMM_SIZE};
	static const uint16_t need_recv[] = {ET_GF_COMM_SRC, ET_GF_COMM_TAG, ET_GF_COMM_SIZE};
	static const char *const send_names[] = {"comm_dst", "comm_tag", "comm_size"};
	static const char *const recv_names[] = {"comm_src", "comm_tag", "comm_size"};
	uint16_t fl = g->flags[i];
	bool send = g->type[i] == ET_NODE_SEND;
	char miss[96];
	missing_list(miss, sizeof miss, fl, send ? need_send : need_recv,
	             send ? send_names : recv_names, 3);
	if (miss[0])
		find_node(&v->fs, C_P2P_MISSING_ATTR, v->ri.rank, g, i, "%s without %s",
		          send ? "COMM_SEND_NODE" : "COMM_RECV_NODE", miss);
	uint16_t own = send ? ET_GF_COMM_SRC : ET_GF_COMM_DST;
	const et_graph_comm *c = et_graph_comm_at(g, i);
	int32_t who = send ? c->src : c->dst;
	if ((fl & own) && (who < 0 || (uint32_t)who != v->ri.rank))
		find_node(&v->fs, C_P2P_NOT_SELF, v->ri.rank, g, i, "%s with %s %d in rank %u",
		          send ? "COMM_SEND_NODE" : "COMM_RECV_NODE",
		          send ? "comm_src" : "comm_dst", who, v->ri.rank);
}

static bool rank_defines(const vctx *v, uint32_t gid)
{
	for (size_t k = 0; k < v->n_rank_groups; k++)
		if (v->rank_groups[k] == gid)
			return true;
	return false;
}

uint32_t node_gid(vctx *v, uint32_t i)
{
	uint32_t off = et_graph_comm_at(v->g, i)->pg_name;
	if (off != v->pg_off) {
		v->pg_off = off;
		v->pg_gid = groups_id(v->grp, v->g->names + off);
	}
	return v->pg_gid;
}

/* ASTRA-sim reads a pg_name with std::stoi, which throws on a name that
 * does not start with an integer: legal Chakra, so for astra-sim only. */
static void check_pg_integer(vctx *v, const et_graph *g, uint32_t i, const char *pg)
{
	int32_t id;
	if (!v->fs.astra || et_pg_is_all(pg) || et_pg_id(pg, &id))
		return;
	finding *f = find_node(&v->fs, C_PG_NOT_INTEGER, v->ri.rank, g, i,
	                       "pg_name \"%.100s\" does not start with an integer within the int "
	                       "range: ASTRA-sim's std::stoi throws on it and ASTRA-sim aborts",
	                       pg);
	find_x_group(f, pg);
}

static void check_pg(vctx *v, const et_graph *g, uint32_t i)
{
	const char *pg = et_graph_pg_name(g, i);
	check_pg_integer(v, g, i, pg);
	uint32_t gid = node_gid(v, i);
	const group *gr = groups_get(v->grp, gid);
	if (gid == 0 || (gr->defined && gr->from_file) || rank_defines(v, gid))
		return;
	finding *f = find_node(&v->fs, C_PG_UNDEFINED, v->ri.rank, g, i,
	                       "pg_name \"%.100s\" is defined by no process-group node of rank %u "
	                       "nor by --comm-groups",
	                       pg, v->ri.rank);
	find_x_group(f, pg);
}

static void check_work(vctx *v, const et_graph *g, uint32_t i)
{
	bool ops = (g->flags[i] & ET_GF_NUM_OPS) && g->num_ops[i] > 0;
	bool bytes = (g->flags[i] & ET_GF_TENSOR_SIZE) && g->tensor_size[i] > 0;
	if (g->duration_micros[i] == 0 && !ops && !bytes)
		find_node(&v->fs, C_COMP_NO_WORK, v->ri.rank, g, i,
		          "COMP_NODE with duration_micros 0 and no num_ops/tensor_size: nothing "
		          "to simulate");
}

/* Counts and sizes are int64 attributes (tensor_size a uint64 one, which
 * the graph keeps as written: a negative int64 member reads as 2^63 or
 * more) that no consumer can take negative: ASTRA-sim turns them into
 * unsigned byte counts. One finding per attribute. */
static void check_negative(vctx *v, const et_graph *g, uint32_t i)
{
	uint16_t fl = g->flags[i];
	if ((fl & ET_GF_NUM_OPS) && g->num_ops[i] < 0)
		find_node(&v->fs, C_ATTR_NEGATIVE, v->ri.rank, g, i, "num_ops %lld is negative",
		          (long long)g->num_ops[i]);
	if ((fl & ET_GF_TENSOR_SIZE) && (int64_t)g->tensor_size[i] < 0)
		find_node(&v->fs, C_ATTR_NEGATIVE, v->ri.rank, g, i,
		          "tensor_size %lld is negative (or 2^63 or more)",
		          (long long)g->tensor_size[i]);
	if ((fl & ET_GF_COMM_SIZE) && et_graph_comm_at(g, i)->size < 0)
		find_node(&v->fs, C_ATTR_NEGATIVE, v->ri.rank, g, i, "comm_size %lld is negative",
		          (long long)et_graph_comm_at(g, i)->size);
}

/* The node types whose consumers read is_cpu_op: MEM, COMP and COMM. */
static bool reads_cpu_op(int t)
{
	return et_node_is_mem(t) || t == ET_NODE_COMP || et_node_is_comm(t);
}

void check_node_comm(vctx *v, uint32_t i)
{
	const et_graph *g = v->g;
	uint8_t t = g->type[i];
	uint16_t fl = g->flags[i];
	if (reads_cpu_op(t) && !(fl & ET_GF_CPU_SET))
		find_node(&v->fs, C_CPU_OP_MISSING, v->ri.rank, g, i,
		          "no is_cpu_op: consumers read it as false (a device op)");
	if (t == ET_NODE_COMP)
		check_work(v, g, i);
	if (fl & (ET_GF_NUM_OPS | ET_GF_TENSOR_SIZE | ET_GF_COMM_SIZE))
		check_negative(v, g, i);
	if (!et_node_is_comm(t))
		return;
	/* A host-side op typed as communication: its comm attributes are
	 * moot (it is not traffic), so it is reported once, as this. */
	if (fl & ET_GF_CPU) {
		find_node(&v->fs, C_COMM_CPU_OP, v->ri.rank, g, i,
		          "%s with is_cpu_op true (ASTRA-sim rejects it; a host op "
		          "typed as communication?)",
		          et_node_type_name(t));
		return;
	}
	if (t == ET_NODE_COLL)
		check_coll(v, g, i);
	else
		check_p2p(v, g, i);
}

/* After the rank: a process group may be defined by a node further on. */
void check_rank_comm(vctx *v)
{
	const et_graph *g = v->g;
	for (uint32_t i = 0; i < g->n; i++)
		if (g->flags[i] & ET_GF_PG_NAME)
			check_pg(v, g, i);
}
