/* Checks that need the decoded node itself (the graph keeps only compact
 * values): attribute oneof members, and METADATA nodes, which must be
 * process-group definitions. */
#include "et-validate/checks/pgroups.h"
#include "et-validate/validate.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_mem.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VC(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

static finding *node_finding(vctx *v, code c, const et_node *n, uint32_t i)
{
	finding *f = find_add(&v->fs, c, v->ri.rank, i);
	if (f) {
		f->has_node = true;
		f->node_id = n->id;
		f->name = et_xstrdup(n->name ? n->name : "");
	}
	return f;
}

static bool int_case(int c)
{
	return c == VC(INT32_VAL) || c == VC(INT64_VAL) || c == VC(UINT64_VAL);
}

static void check_attr(vctx *v, const et_node *n, uint32_t i, const et_attr *a, et_wk_attr key)
{
	int want = et_graph_wk_member(key);
	if ((int)a->value_case == want)
		return;
	/* ASTRA-sim converts between integer members (and reads a bool as
	 * 0/1), so those only differ from the canonical member. */
	bool readable = (int_case(want) || want == VC(BOOL_VAL)) && et_attr_is_int(a);
	finding *f = node_finding(v, readable ? C_ATTR_MEMBER : C_ATTR_UNREADABLE, n, i);
	if (!f)
		return;
	const char *got = a->value_case ? et_attr_case_name((int)a->value_case) : "no value";
	et_buf b = {0};
	et_buf_printf(&b, "attribute %s is %s, expected %s%s", a->name, got,
	              et_attr_case_name(want),
	              readable ? "" : " (consumers read it as absent or 0)");
	f->msg = (char *)b.data;
	find_x x;
	et_jsonw *j = find_x_open(&x);
	et_jsonw_kstr(j, "attr", a->name);
	et_jsonw_kstr(j, "member", got);
	et_jsonw_kstr(j, "expected", et_attr_case_name(want));
	find_x_close(&x, f);
}

static void remember(uint32_t **arr, size_t *n, size_t *cap, uint32_t x)
{
	for (size_t k = 0; k < *n; k++)
		if ((*arr)[k] == x)
			return;
	ET_GROW(*arr, *cap, (size_t)*n + 1);
	(*arr)[(*n)++] = x;
}

typedef struct pg_cb {
	vctx *v;
	const et_node *n;
	uint32_t i;
} pg_cb;

static void on_pg_def(void *ctx, const char *name, const uint32_t *ranks, size_t nr)
{
	pg_cb *c = ctx;
	vctx *v = c->v;
	uint32_t gid;
	if (groups_define(v->grp, name, ranks, nr, false, v->ri.rank, &gid)) {
		const group *g = groups_get(v->grp, gid);
		char was[256], now[256];
		if (g->all)
			snprintf(was, sizeof was, "all ranks");
		else
			fmt_ranks(was, sizeof was, g->ranks, g->n_ranks);
		if (nr)
			fmt_ranks(now, sizeof now, ranks, nr);
		else
			snprintf(now, sizeof now, "all ranks");
		finding *f = node_finding(v, C_PG_CONFLICT, c->n, c->i);
		if (f) {
			et_buf b = {0};
			et_buf_printf(&b,
			              "process group \"%s\" defined here as ranks %s, but %s "
			              "defined it as ranks %s",
			              name, now,
			              g->def_rank == GROUPS_FROM_STREAM ? "the stream's comm groups"
			              : g->from_file                    ? "--comm-groups"
			                                                : "an earlier rank",
			              was);
			f->msg = (char *)b.data;
			find_x_group(f, name);
		}
	}
	remember(&v->rank_groups, &v->n_rank_groups, &v->cap_rank_groups, gid);
}

static void check_metadata(vctx *v, const et_node *n, uint32_t i)
{
	const char *values = n->inputs ? n->inputs->values : NULL;
	pg_cb c = {v, n, i};
	if (pg_parse_values(values, on_pg_def, &c) >= 0)
		return;
	finding *f = node_finding(v, C_METADATA_NODE, n, i);
	if (!f)
		return;
	bool named = n->name && strstr(n->name, "process_group");
	et_buf b = {0};
	if (named)
		et_buf_printf(&b, "process-group node whose inputs.values is not a "
		                  "definition [{\"pg_name\": ..., \"ranks\": [...]}]");
	else
		et_buf_printf(&b, "METADATA_NODE that is not a process-group definition");
	f->msg = (char *)b.data;
}

void check_node(vctx *v, const et_node *n, uint32_t i)
{
	/* The graph flagged the node if any well-known attribute is off;
	 * only then are the attributes looked at again. */
	for (size_t k = 0; (v->g->flags[i] & ET_GF_ATTR_MEMBER) && k < n->n_attr; k++) {
		const et_attr *a = n->attr[k];
		et_wk_attr key = a->name ? et_graph_attr_key(a->name) : ET_WK_NONE;
		if (key != ET_WK_NONE)
			check_attr(v, n, i, a, key);
	}
	if ((int)n->type == ET_NODE_METADATA)
		check_metadata(v, n, i);
}
