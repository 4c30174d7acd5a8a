/* et_build: node builders (see et_build.h). */
#include "et_build.h"
#include "et_attr.h"
#include "et_types.h"

#include <string.h>

et_node *et_build_node(et_arena *a, uint64_t id, const char *name, int type)
{
	et_node *n = et_node_new(a);
	n->id = id;
	/* the generated struct has no const; encoding only reads it */
	n->name = (char *)name;
	n->type = (ChakraProtoMsg__NodeType)type;
	return n;
}

et_node *et_build_comp(et_arena *a, uint64_t id, const char *name, uint64_t dur_us, bool cpu)
{
	et_node *n = et_build_node(a, id, name, ET_NODE_COMP);
	n->duration_micros = dur_us;
	et_attr_set_bool(a, n, "is_cpu_op", cpu);
	return n;
}

et_node *et_build_coll(et_arena *a, uint64_t id, const char *name, int ctype, int64_t size)
{
	et_node *n = et_build_node(a, id, name, ET_NODE_COLL);
	et_attr_set_bool(a, n, "is_cpu_op", false);
	et_attr_set_known_int(a, n, "comm_type", ctype);
	et_attr_set_known_int(a, n, "comm_size", size);
	return n;
}

et_node *et_build_p2p(et_arena *a, uint64_t id, const char *name, bool send, int32_t src,
                      int32_t dst, int32_t tag, int64_t size)
{
	et_node *n = et_build_node(a, id, name, send ? ET_NODE_SEND : ET_NODE_RECV);
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
	/* arena memory cannot grow in place: copy; dependency lists are short */
	uint64_t *nv = et_arena_alloc(a, (*n + 1) * sizeof *nv);
	if (*n)
		memcpy(nv, *v, *n * sizeof *nv);
	nv[(*n)++] = dep;
	*v = nv;
}

void et_build_data_dep(et_arena *a, et_node *n, uint64_t dep)
{
	push_dep(a, &n->data_deps, &n->n_data_deps, dep);
}

void et_build_ctrl_dep(et_arena *a, et_node *n, uint64_t dep)
{
	push_dep(a, &n->ctrl_deps, &n->n_ctrl_deps, dep);
}
