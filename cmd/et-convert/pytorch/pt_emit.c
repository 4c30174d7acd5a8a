#include "et-convert/pytorch/pt_emit.h"
#include "et_attr.h"
#include "et_types.h"

#include <ctype.h>
#include <string.h>

void pt_meta_bytes(const pt_trace *t, et_buf *out)
{
	et_arena *a = et_arena_new();
	et_meta *m = et_meta_new(a);
	et_node tmp; /* attributes are pushed through a scratch node */
	chakra_proto_msg__node__init(&tmp);
	et_attr_set_str(a, &tmp, "schema", t->schema ? t->schema : "");
	et_attr_set_uint64(a, &tmp, "pid", t->pid);
	et_attr_set_str(a, &tmp, "time", t->time ? t->time : "");
	et_attr_set_uint64(a, &tmp, "start_ts", t->start_ts);
	et_attr_set_uint64(a, &tmp, "finish_ts", t->finish_ts);
	m->attr = tmp.attr;
	m->n_attr = tmp.n_attr;
	et_meta_pack(m, out);
	et_arena_free(a);
}

int pt_out_begin(pt_out *w, et_writer *out, const pt_trace *t, const et_rank_info *ri, et_error *e)
{
	memset(w, 0, sizeof *w);
	w->out = out;
	w->arena = et_arena_new();
	pt_meta_bytes(t, &w->bytes);
	et_msg m = {w->bytes.data, w->bytes.len, 0, 0};
	w->index = 1;
	if (et_writer_rank_begin(out, ri, e) < 0)
		return -1;
	return et_writer_msg(out, &m, e);
}

/* Strings point into the trace's pool: it outlives the node. */
static char *io_str(const pt_trace *t, uint32_t off)
{
	return (char *)(off == PT_NONE ? "" : pt_str(t, off));
}

et_node *pt_out_node(pt_out *w, const pt_trace *t, const pt_node *n, int type, bool cpu)
{
	et_arena_reset(w->arena);
	et_arena *a = w->arena;
	et_node *o = et_node_new(a);
	o->id = (uint64_t)n->id;
	o->name = (char *)pt_str(t, n->name);
	o->type = (ChakraProtoMsg__NodeType)type;
	o->inputs = et_ioinfo_new(a);
	o->outputs = et_ioinfo_new(a);
	o->inputs->values = io_str(t, n->io[PT_IN_VALUES]);
	o->inputs->shapes = io_str(t, n->io[PT_IN_SHAPES]);
	o->inputs->types = io_str(t, n->io[PT_IN_TYPES]);
	o->outputs->values = io_str(t, n->io[PT_OUT_VALUES]);
	o->outputs->shapes = io_str(t, n->io[PT_OUT_SHAPES]);
	o->outputs->types = io_str(t, n->io[PT_OUT_TYPES]);
	static const char *const names[PT_NATTR] = {"rf_id", "fw_parent", "seq_id",
	                                            "scope", "tid",       "fw_tid"};
	for (int i = 0; i < PT_NATTR; i++)
		if (n->attr_set & (1u << i))
			et_attr_set_int64(a, o, names[i], n->attr[i]);
	et_attr_set_str(a, o, "op_schema", n->op_schema == PT_NONE ? "" : pt_str(t, n->op_schema));
	et_attr_set_bool(a, o, "is_cpu_op", cpu);
	if (n->stream_state != PT_STREAM_NULL)
		et_attr_set_int64(a, o, "stream", n->stream_state == PT_STREAM_SET ? n->stream : 0);
	return o;
}

int pt_out_write(pt_out *w, et_node *n, et_error *e)
{
	w->bytes.len = 0;
	et_node_pack(n, &w->bytes);
	et_msg m = {w->bytes.data, w->bytes.len, 0, w->index++};
	return et_writer_msg(w->out, &m, e);
}

int pt_out_end(pt_out *w, et_error *e)
{
	int r = et_writer_rank_end(w->out, e);
	et_buf_free(&w->bytes);
	et_arena_free(w->arena);
	return r;
}

int pt_ref_comm_type(const char *name)
{
	char norm[512];
	size_t k = 0;
	for (const char *p = name; *p && k < sizeof norm - 1; p++)
		if (*p != '_' && *p != '-')
			norm[k++] = (char)tolower((unsigned char)*p);
	norm[k] = 0;
	static const struct {
		const char *key;
		int type;
	} map[] = {{"allreduce", ET_COLL_ALL_REDUCE},
	           {"alltoall", ET_COLL_ALL_TO_ALL},
	           {"allgather", ET_COLL_ALL_GATHER},
	           {"reducescatter", ET_COLL_REDUCE_SCATTER},
	           {"broadcast", ET_COLL_BROADCAST}};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strstr(norm, map[i].key))
			return map[i].type;
	if (strstr(name, "ncclDevKernel_SendRecv"))
		return ET_COLL_ALL_TO_ALL;
	return -1;
}
