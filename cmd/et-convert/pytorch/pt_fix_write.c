#include "et-convert/pytorch/pt_emit.h"
#include "et-convert/pytorch/pt_fix.h"
#include "et_attr.h"
#include "et_jsonw.h"
#include "et_output.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* Nearest written ancestor: ctrl_deps never dangle. */
static int64_t ctrl_parent(pt_fix_ctx *c, uint32_t i)
{
	for (int64_t p = c->tr->parent[i]; p >= 0; p = c->tr->parent[p])
		if (c->in_map[p])
			return p;
	return -1;
}

static void comm_attrs(pt_fix_ctx *c, pt_out *w, et_node *o, uint32_t i)
{
	et_arena *a = w->arena;
	int type = c->type[i];
	if (type == ET_NODE_COLL)
		et_attr_set_int64(a, o, "comm_type", c->ctype[i]);
	et_attr_set_int64(a, o, "comm_size", c->size[i]);
	const char *pg = c->pg[i] >= 0 ? pt_str(c->t, (uint32_t)c->pg[i]) : NULL;
	if (pg && *pg)
		et_attr_set_str(a, o, "pg_name", pg);
	if (type != ET_NODE_SEND && type != ET_NODE_RECV)
		return;
	/* c10d::send(tensors, dst, tag) / recv_(tensors, src, tag): the first
	 * Int argument is the peer, the second the tag. */
	const pt_node *n = &c->t->nodes[i];
	if (n->n_int_args == 0)
		return;
	int32_t me = (int32_t)c->ri->rank, peer = (int32_t)n->int_args[0];
	et_attr_set_int32(a, o, "comm_src", type == ET_NODE_SEND ? me : peer);
	et_attr_set_int32(a, o, "comm_dst", type == ET_NODE_SEND ? peer : me);
	et_attr_set_int32(a, o, "comm_tag", n->n_int_args > 1 ? (int32_t)n->int_args[1] : 0);
}

static int write_node(pt_fix_ctx *c, pt_out *w, uint32_t i, et_error *e)
{
	const pt_node *n = &c->t->nodes[i];
	int type = c->type[i];
	et_node *o = pt_out_node(w, c->t, n, type, c->cpu[i]);
	int64_t p = ctrl_parent(c, i);
	if (p >= 0) {
		o->ctrl_deps = et_arena_alloc(w->arena, sizeof *o->ctrl_deps);
		o->ctrl_deps[0] = (uint64_t)c->t->nodes[p].id;
		o->n_ctrl_deps = 1;
	}
	if (c->deps->n[i]) {
		o->data_deps = et_arena_alloc(w->arena, c->deps->n[i] * sizeof *o->data_deps);
		for (int k = 0; k < c->deps->n[i]; k++)
			o->data_deps[k] = (uint64_t)c->deps->dep[i][k];
		o->n_data_deps = c->deps->n[i];
	}
	if (n->flags & PT_HAS_EXCL)
		o->duration_micros = (uint64_t)(int64_t)n->excl_dur;
	if ((n->flags & PT_HAS_TS) && n->ts > 0)
		o->start_time_micros = (uint64_t)n->ts;
	if (et_node_is_comm(type))
		comm_attrs(c, w, o, i);
	return pt_out_write(w, o, e);
}

/* The process-group definitions of the METADATA node: its first input is
 * the repr of a one-element list holding a JSON string; like ASTRA-sim,
 * strip the two characters at each end and read the rest as JSON. */
static cJSON *process_groups(const pt_trace *t)
{
	for (uint32_t i = 0; i < t->n; i++) {
		const char *v = pt_str(t, t->nodes[i].io[PT_IN_VALUES]);
		if (!pt_is_metadata_name(pt_str(t, t->nodes[i].name)) || !v || strlen(v) < 4)
			continue;
		cJSON *j = cJSON_ParseWithLength(v + 2, strlen(v) - 4);
		if (cJSON_IsArray(j))
			return j;
		cJSON_Delete(j);
	}
	return NULL;
}

/* ASTRA-sim comm-group JSON {"<pg_name>": [ranks]} for groups with explicit
 * ranks ("0" and empty rank lists are all ranks, which needs no entry). */
static int write_groups(const pt_trace *t, const char *path, et_error *e)
{
	cJSON *pgs = process_groups(t);
	/* cJSON_Print's layout, the file's since it was first written; in
	 * memory first, so the warnings come before any output error */
	et_buf b = {0};
	et_jsonw j;
	et_jsonw_init(&j, NULL, &b, ET_JSONW_CJSON, 0);
	et_jsonw_set_lines(&j, true);
	et_jsonw_obj(&j);
	const cJSON *g;
	cJSON_ArrayForEach(g, pgs)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(g, "pg_name");
		const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(g, "ranks");
		if (!cJSON_IsString(name) || !cJSON_IsArray(ranks) || !cJSON_GetArraySize(ranks) ||
		    strcmp(name->valuestring, "0") == 0)
			continue;
		char *end;
		long id = strtol(name->valuestring, &end, 10);
		if (*end || id <= 0) {
			et_warn("%s: process group '%s' has no numeric name: not in the comm-group "
			        "file",
			        t->input, name->valuestring);
			continue;
		}
		et_jsonw_key(&j, name->valuestring);
		et_jsonw_cjson(&j, ranks);
	}
	et_jsonw_end(&j);
	et_jsonw_done(&j);
	cJSON_Delete(pgs);
	et_output *o;
	int r = et_output_open(&o, path, false, e);
	if (r == 0) {
		fwrite(b.data, 1, b.len, et_output_file(o));
		r = et_output_close_deferred(o, e); /* put in place with the output */
	}
	et_buf_free(&b);
	return r;
}

int pt_fix_write(pt_fix_ctx *c, et_writer *out, et_error *e)
{
	static bool groups_written; /* once per run: from the first rank */
	if (c->o->comm_groups_out && !groups_written) {
		if (write_groups(c->t, c->o->comm_groups_out, e) < 0)
			return -1;
		groups_written = true;
	}
	pt_out w;
	int r = pt_out_begin(&w, out, c->t, c->ri, e);
	for (uint32_t k = 0; k < c->t->n && r == 0; k++)
		if (c->in_map[c->tr->by_id[k]])
			r = write_node(c, &w, c->tr->by_id[k], e);
	et_error ignore;
	if (r == 0)
		r = pt_out_end(&w, e);
	else
		pt_out_end(&w, &ignore);
	return r;
}
