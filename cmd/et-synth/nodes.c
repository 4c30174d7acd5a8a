/* Node builders. Attribute order and members follow the reference
 * generators (is_cpu_op first, then comm_type, comm_size), so that our
 * nodes encode to the same bytes as theirs. */
#include "et_attr.h"
#include "synth.h"

#include <string.h>

et_node *mk_node(et_arena *a, uint64_t id, const char *name, int type)
{
	et_node *n = et_node_new(a);
	n->id = id;
	n->name = (char *)name;
	n->type = (ChakraProtoMsg__NodeType)type;
	return n;
}

et_node *mk_comp(et_arena *a, uint64_t id, const char *name, uint64_t dur_us, bool cpu)
{
	et_node *n = mk_node(a, id, name, CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE);
	n->duration_micros = dur_us;
	et_attr_set_bool(a, n, "is_cpu_op", cpu);
	return n;
}

et_node *mk_coll(et_arena *a, uint64_t id, const char *name, int ctype, int64_t size)
{
	et_node *n = mk_node(a, id, name, CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE);
	et_attr_set_bool(a, n, "is_cpu_op", false);
	et_attr_set_known_int(a, n, "comm_type", ctype);
	et_attr_set_known_int(a, n, "comm_size", size);
	return n;
}

et_node *mk_p2p(et_arena *a, uint64_t id, const char *name, bool send, int32_t src, int32_t dst,
                int32_t tag, int64_t size)
{
	et_node *n = mk_node(a, id, name,
	                     send ? CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE
	                          : CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE);
	et_attr_set_bool(a, n, "is_cpu_op", false);
	et_attr_set_known_int(a, n, "comm_src", src);
	et_attr_set_known_int(a, n, "comm_dst", dst);
	et_attr_set_known_int(a, n, "comm_tag", tag);
	et_attr_set_known_int(a, n, "comm_size", size);
	return n;
}

static void push_dep(et_arena *a, uint64_t **v, size_t *n, uint64_t dep)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i] == dep)
			return;
	/* arena memory: grow by copying; dependency lists are short */
	uint64_t *nv = et_arena_alloc(a, (*n + 1) * sizeof *nv);
	if (*n)
		memcpy(nv, *v, *n * sizeof *nv);
	nv[(*n)++] = dep;
	*v = nv;
}

void add_data_dep(et_arena *a, et_node *n, uint64_t dep)
{
	push_dep(a, &n->data_deps, &n->n_data_deps, dep);
}

void add_ctrl_dep(et_arena *a, et_node *n, uint64_t dep)
{
	push_dep(a, &n->ctrl_deps, &n->n_ctrl_deps, dep);
}
