/* The check codes and the findings store: counts per code, and the first N
 * instances per code (formatted only when kept, so a million dangling deps
 * cost a counter increment each). */
#include "et-validate/validate.h"
#include "et_buf.h"
#include "et_json_str.h"
#include "et_mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define E SEV_ERROR
#define W SEV_WARNING
#define I SEV_INFO

/* Errors in every profile: the trace contradicts itself for any consumer.
 * Warning by default, error for astra-sim: legal Chakra that ASTRA-sim
 * aborts or stalls on (doc/chakra-et.md, doc/astra-sim.md section F). */
const code_info code_table[C_COUNT] = {
    [C_META_MISSING] = {"META_MISSING", E, E, "first message is not a GlobalMetadata"},
    [C_DUP_ID] = {"DUP_ID", E, E, "node id used by more than one node"},
    [C_DANGLING_DATA_DEP] = {"DANGLING_DATA_DEP", E, E, "data dep on an id not in the rank"},
    [C_DANGLING_CTRL_DEP] = {"DANGLING_CTRL_DEP", E, E, "ctrl dep on an id not in the rank"},
    [C_SELF_DEP] = {"SELF_DEP", E, E, "node depends on itself"},
    [C_CYCLE] = {"CYCLE", E, E, "dependency cycle"},
    [C_NO_ROOT] = {"NO_ROOT", E, E, "no node is free of dependencies"},
    [C_INVALID_NODE] = {"INVALID_NODE", W, E, "node type INVALID_NODE or unknown"},
    [C_METADATA_NODE] = {"METADATA_NODE", W, E,
                         "METADATA_NODE that is not a process-group definition"},
    [C_ATTR_MEMBER] = {"ATTR_MEMBER", W, W, "well-known attribute in another integer member"},
    [C_ATTR_UNREADABLE] = {"ATTR_UNREADABLE", W, E,
                           "well-known attribute in a member consumers cannot read"},
    [C_ATTR_NEGATIVE] = {"ATTR_NEGATIVE", E, E, "num_ops, tensor_size or comm_size negative"},
    [C_COLL_MISSING_ATTR] = {"COLL_MISSING_ATTR", W, E, "COMM_COLL without comm_type or comm_size"},
    [C_COLL_BAD_TYPE] = {"COLL_BAD_TYPE", E, E, "comm_type outside CollectiveCommType"},
    [C_COLL_BAD_SIZE] = {"COLL_BAD_SIZE", W, E, "comm_size 0"},
    [C_COLL_UNSUPPORTED] = {"COLL_UNSUPPORTED", W, E, "collective type ASTRA-sim aborts on"},
    [C_P2P_MISSING_ATTR] = {"P2P_MISSING_ATTR", E, E,
                            "SEND without comm_dst (RECV: comm_src), comm_tag or comm_size"},
    [C_P2P_NOT_SELF] = {"P2P_NOT_SELF", E, E,
                        "SEND whose comm_src (RECV: comm_dst) is not its own rank"},
    [C_COMM_CPU_OP] = {"COMM_CPU_OP", W, E, "communication node with is_cpu_op true"},
    [C_COMP_NO_WORK] = {"COMP_NO_WORK", W, W,
                        "COMP node with neither a duration nor num_ops/tensor_size"},
    [C_PG_UNDEFINED] = {"PG_UNDEFINED", W, E, "pg_name not defined for the rank"},
    [C_PG_CONFLICT] = {"PG_CONFLICT", E, E, "process group defined with different ranks"},
    [C_PG_NOT_INTEGER] = {"PG_NOT_INTEGER", W, E,
                          "pg_name with no leading integer (checked for astra-sim only)"},
    [C_COLL_NOT_MEMBER] = {"COLL_NOT_MEMBER", E, E,
                           "collective on a process group the rank is not in"},
    [C_COLL_MISMATCH] = {"COLL_MISMATCH", E, E,
                         "group members disagree on a collective's type or size"},
    [C_COLL_UNORDERED] = {"COLL_UNORDERED", W, W,
                          "two collectives of one communicator with no dependency path "
                          "between them"},
    [C_DIMS_MISSING] = {"DIMS_MISSING", E, E, "involved_dim used but no network dimensions given"},
    [C_P2P_UNMATCHED] = {"P2P_UNMATCHED", E, E, "SEND or RECV without its counterpart"},
    [C_DEADLOCK] = {"DEADLOCK", E, E, "ranks wait for each other forever"},
    [C_BLOCKED_NODE] = {"BLOCKED_NODE", E, E, "node that never completes in a deadlock"},
    [C_FORWARD_DATA_DEP] = {"FORWARD_DATA_DEP", I, I, "data dep on a node written later"},
    [C_FORWARD_CTRL_DEP] = {"FORWARD_CTRL_DEP", I, I, "ctrl dep on a node written later"},
    [C_CPU_OP_MISSING] = {"CPU_OP_MISSING", I, I, "no is_cpu_op (read as false)"},
    [C_PARTIAL_INPUT] = {"PARTIAL_INPUT", I, I,
                         "ranks missing: cross-rank checks cover the ranks present"},
};

void find_init(findings *fs, size_t max_per_code, bool astra)
{
	memset(fs, 0, sizeof *fs);
	fs->max_per_code = max_per_code;
	fs->astra = astra;
	for (int c = 0; c < C_COUNT; c++)
		fs->last_rank[c] = INT64_MIN;
}

void find_free(findings *fs)
{
	for (int c = 0; c < C_COUNT; c++) {
		for (size_t k = 0; k < fs->n[c]; k++) {
			free(fs->list[c][k].name);
			free(fs->list[c][k].msg);
			free(fs->list[c][k].extra);
		}
		free(fs->list[c]);
	}
}

sev find_sev(const findings *fs, code c)
{
	return fs->astra ? code_table[c].astra : code_table[c].def;
}

finding *find_add(findings *fs, code c, int64_t rank, uint32_t node_key)
{
	fs->count[c]++;
	if (node_key == ET_GRAPH_NONE || rank != fs->last_rank[c] || node_key != fs->last_node[c])
		fs->nodes[c]++;
	fs->last_rank[c] = rank;
	fs->last_node[c] = node_key;
	if (fs->n[c] >= fs->max_per_code)
		return NULL;
	size_t k = fs->n[c]++;
	ET_GROW(fs->list[c], fs->cap[c], k + 1);
	finding *f = &fs->list[c][k];
	memset(f, 0, sizeof *f);
	f->rank = rank;
	return f;
}

static char *vfmt(const char *fmt, va_list ap)
{
	et_buf b = {0};
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	et_buf_reserve(&b, (size_t)(n > 0 ? n : 0) + 1);
	vsnprintf((char *)b.data, (size_t)n + 1, fmt, ap);
	return (char *)b.data;
}

void find_set(finding *f, bool has_node, uint64_t node_id, const char *name, const char *fmt, ...)
{
	f->has_node = has_node;
	f->node_id = node_id;
	f->name = name ? et_xstrdup(name) : NULL;
	va_list ap;
	va_start(ap, fmt);
	f->msg = vfmt(fmt, ap);
	va_end(ap);
}

et_jsonw *find_x_open(find_x *x)
{
	x->b = (et_buf){0};
	et_jsonw_init(&x->w, NULL, &x->b, ET_JSONW_SPACED, ET_JSTR_CTRL_HEX);
	et_jsonw_obj(&x->w);
	return &x->w;
}

void find_x_close(find_x *x, finding *f)
{
	et_jsonw_end(&x->w);
	et_jsonw_done(&x->w);
	et_buf_putc(&x->b, '\0');
	if (!f) {
		et_buf_free(&x->b);
		return;
	}
	free(f->extra);
	f->extra = (char *)x->b.data;
}

void find_x_group(finding *f, const char *group)
{
	if (!f)
		return;
	find_x x;
	et_jsonw_kstr(find_x_open(&x), "group", group);
	find_x_close(&x, f);
}

uint64_t find_total(const findings *fs, sev s)
{
	uint64_t t = 0;
	for (int c = 0; c < C_COUNT; c++)
		if (find_sev(fs, (code)c) == s)
			t += fs->count[c];
	return t;
}

finding *find_node(findings *fs, code c, int64_t rank, const et_graph *g, uint32_t i,
                   const char *fmt, ...)
{
	finding *f = find_add(fs, c, rank, i);
	if (!f)
		return NULL;
	f->has_node = true;
	f->node_id = g->id[i];
	f->name = et_xstrdup(et_graph_name(g, i));
	va_list ap;
	va_start(ap, fmt);
	f->msg = vfmt(fmt, ap);
	va_end(ap);
	return f;
}
