/* Chakra ETs <-> DAGs (etdag.h). */
#include "layerdag-sample/corpus/etdag.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_load.h"
#include "et_mem.h"
#include "et_rng.h"
#include "et_types.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPC_OTHER,
	OPC_MATMUL,
	OPC_CONV,
	OPC_NORM,
	OPC_SOFTMAX,
	OPC_ELEMWISE,
	OPC_EMBED,
	OPC_MEMORY,
	OPC_COMM,
	OPC_P2P,
	NOPC
};
const char *const ld_op_class_name[NOPC] = {"other",       "matmul",    "conv",   "norm", "softmax",
                                            "elementwise", "embedding", "memory", "comm", "p2p"};

/* The op class of a name: the first rule whose substring it holds. */
static int op_class(const char *name, int type)
{
	if (type == ET_NODE_SEND || type == ET_NODE_RECV)
		return OPC_P2P;
	if (type == ET_NODE_COLL)
		return OPC_COMM;
	static const struct {
		const char *sub;
		int cls;
	} rules[] = {
	    {"conv", OPC_CONV},        {"matmul", OPC_MATMUL},    {"addmm", OPC_MATMUL},
	    {"bmm", OPC_MATMUL},       {"linear", OPC_MATMUL},    {"gemm", OPC_MATMUL},
	    {"::mm", OPC_MATMUL},      {"norm", OPC_NORM},        {"softmax", OPC_SOFTMAX},
	    {"embedding", OPC_EMBED},  {"nccl", OPC_COMM},        {"all_reduce", OPC_COMM},
	    {"all_to_all", OPC_COMM},  {"copy", OPC_MEMORY},      {"clone", OPC_MEMORY},
	    {"cat", OPC_MEMORY},       {"view", OPC_MEMORY},      {"reshape", OPC_MEMORY},
	    {"transpose", OPC_MEMORY}, {"permute", OPC_MEMORY},   {"contiguous", OPC_MEMORY},
	    {"empty", OPC_MEMORY},     {"zeros", OPC_MEMORY},     {"relu", OPC_ELEMWISE},
	    {"gelu", OPC_ELEMWISE},    {"sigmoid", OPC_ELEMWISE}, {"tanh", OPC_ELEMWISE},
	    {"add", OPC_ELEMWISE},     {"mul", OPC_ELEMWISE},     {"sub", OPC_ELEMWISE},
	    {"div", OPC_ELEMWISE},     {"pool", OPC_ELEMWISE},    {"dropout", OPC_ELEMWISE},
	};
	char low[128];
	size_t k = 0;
	for (; name[k] && k + 1 < sizeof low; k++)
		low[k] = (char)tolower((unsigned char)name[k]);
	low[k] = '\0';
	for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
		if (strstr(low, rules[i].sub))
			return rules[i].cls;
	return OPC_OTHER;
}

static uint8_t bucket(uint64_t v, int shift)
{
	if (v == 0)
		return 0;
	int b = 1 + (63 - __builtin_clzll(v)) / shift;
	return (uint8_t)(b < 31 ? b : 31);
}

/* The class index of node i (added to map when new). */
static uint32_t class_of(ld_etmap *map, const et_graph *g, uint32_t i)
{
	int type = g->type[i];
	bool comm = type == ET_NODE_COLL;
	const et_graph_comm *c = et_graph_comm_at(g, i);
	uint64_t size = comm ? (uint64_t)(c->size > 0 ? c->size : 0) : g->tensor_size[i];
	ld_et_class k = {
	    .type = (uint8_t)(type == ET_NODE_SEND || type == ET_NODE_RECV ? ET_NODE_COMP : type),
	    .ctype = (uint8_t)(comm ? c->type : 0),
	    .op = (uint8_t)op_class(et_graph_name(g, i), type),
	    .sizeb = bucket(size, 2),
	    .durb = bucket(g->duration_micros[i], 1)};
	uint32_t x = 0;
	while (x < map->n &&
	       !(map->c[x].type == k.type && map->c[x].ctype == k.ctype && map->c[x].op == k.op &&
	         map->c[x].sizeb == k.sizeb && map->c[x].durb == k.durb))
		x++;
	if (x == map->n) {
		ET_GROW(map->c, map->cap, (size_t)map->n + 1);
		map->c[map->n++] = k;
	}
	ld_et_class *cl = &map->c[x];
	if (cl->nval < LD_ET_KEEP) {
		cl->val[cl->nval].num_ops = g->num_ops[i];
		cl->val[cl->nval].tensor_size = g->tensor_size[i];
		cl->val[cl->nval].comm_size = comm ? c->size : 0;
		cl->val[cl->nval].dur = g->duration_micros[i];
		cl->nval++;
	}
	return x;
}

typedef struct loading {
	ld_corpus *c;
	ld_etmap *map;
	et_graph *g;
} loading;

static int begin(void *ctx, const et_rank_info *ri, et_graph **g, et_error *e)
{
	(void)ri;
	(void)e;
	*g = ((loading *)ctx)->g;
	return 0;
}

static int end(void *ctx, et_graph *g, const et_load_rank *r, et_error *e)
{
	(void)r;
	loading *l = ctx;
	if (g->n == 0)
		return 0;
	if (g->n > LD_MAX_NODES)
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u: more than %u nodes", r->ri.input,
		               r->ri.rank, LD_MAX_NODES);
	ld_dag d = {.n = g->n};
	d.attr = et_xcalloc(g->n, sizeof *d.attr);
	uint64_t ne = g->data_off[g->n] + g->ctrl_off[g->n];
	d.edge = et_xcalloc(ne ? ne : 1, sizeof *d.edge);
	double dur = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		d.attr[i] = class_of(l->map, g, i);
		dur += (double)g->duration_micros[i];
		/* an edge from each dependency to its dependant, once */
		uint32_t first = d.ne;
		for (int kind = 0; kind < 2; kind++) {
			const uint32_t *off = kind ? g->ctrl_off : g->data_off;
			const uint32_t *dep = kind ? g->ctrl_dep : g->data_dep;
			for (uint32_t k = off[i]; k < off[i + 1]; k++) {
				bool dup = false;
				for (uint32_t j = first; j < d.ne && !dup; j++)
					dup = d.edge[j][0] == dep[k];
				if (!dup) {
					d.edge[d.ne][0] = dep[k];
					d.edge[d.ne][1] = i;
					d.ne++;
				}
			}
		}
	}
	d.y = dur / 1e6;
	ld_corpus *c = l->c;
	ET_GROW(c->g, c->cap, (size_t)c->n + 1);
	c->g[c->n++] = d;
	if (l->map->n > c->vocab)
		c->vocab = (uint32_t)l->map->n;
	return 0;
}

int ld_et_read(ld_corpus *c, ld_etmap *map, const char *path, et_error *e)
{
	loading l = {.c = c, .map = map, .g = et_graph_new()};
	et_input_opts io;
	et_input_opts_init(&io);
	et_load_hooks h = {&l, begin, NULL, NULL, end};
	et_load_opts o = {false, -1};
	char *argv[] = {(char *)path, NULL};
	int rc = et_load_args(1, argv, &io, &o, &h, NULL, e);
	et_graph_free(l.g);
	return rc;
}

void ld_etmap_free(ld_etmap *m)
{
	free(m->c);
	memset(m, 0, sizeof *m);
}

/* --- writing ------------------------------------------------------------- */
static et_node *node_of(et_arena *a, const ld_dag *g, const ld_etmap *map, uint32_t i, et_rng *r,
                        char *name, size_t cap)
{
	const ld_et_class *k = &map->c[g->attr[i] < map->n ? g->attr[i] : 0];
	uint32_t pick = k->nval ? (uint32_t)et_rng_below(r, k->nval) : 0;
	snprintf(name, cap, "%s_%u", ld_op_class_name[k->op < NOPC ? k->op : 0], i);
	et_node *n;
	if (k->type == ET_NODE_COLL) {
		n = et_build_coll(a, i, name, k->ctype, k->nval ? k->val[pick].comm_size : 0);
	} else {
		n = et_build_comp(a, i, name, k->nval ? k->val[pick].dur : 0, false);
		if (k->nval && k->val[pick].num_ops > 0)
			et_attr_set_int64(a, n, "num_ops", k->val[pick].num_ops);
		if (k->nval && k->val[pick].tensor_size > 0)
			et_attr_set_uint64(a, n, "tensor_size", k->val[pick].tensor_size);
	}
	return n;
}

int ld_et_write(const ld_dag *g, const ld_etmap *map, uint32_t world, et_rng *r, et_writer *w,
                et_error *e)
{
	if (!map->n)
		return et_fail(e, ET_EXIT_USAGE, "--format et needs a model fitted on Chakra ETs");
	/* predecessors of each node, from the edge list */
	uint32_t *off = et_xcalloc((size_t)g->n + 1, sizeof *off), *src = NULL;
	for (uint32_t k = 0; k < g->ne; k++)
		off[g->edge[k][1] + 1]++;
	for (uint32_t i = 0; i < g->n; i++)
		off[i + 1] += off[i];
	src = et_xcalloc(g->ne ? g->ne : 1, sizeof *src);
	uint32_t *fill = et_xcalloc((size_t)g->n + 1, sizeof *fill);
	for (uint32_t k = 0; k < g->ne; k++)
		src[off[g->edge[k][1]] + fill[g->edge[k][1]]++] = g->edge[k][0];
	free(fill);
	et_buf b = {0};
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = "0.0.4";
	et_meta_encode(&m, &b);
	et_arena *a = et_arena_new();
	char name[64];
	for (uint32_t i = 0; i < g->n; i++) {
		et_node *n = node_of(a, g, map, i, r, name, sizeof name);
		for (uint32_t k = off[i]; k < off[i + 1]; k++)
			et_build_data_dep(a, n, src[k]);
		et_node_encode(n, &b);
		et_arena_reset(a);
	}
	et_arena_free(a);
	free(off);
	free(src);
	et_writer_shared s = {.data = b.data, .len = b.len, .nodes = g->n};
	et_rank_info ri = {.world_size = world, .input = "<sampled>"};
	snprintf(ri.name, sizeof ri.name, "layerdag");
	int rc = 0;
	for (uint32_t rank = 0; rank < world && rc == 0; rank++) {
		ri.rank = rank;
		rc = et_writer_rank_shared(w, &ri, &s, e);
	}
	et_writer_shared_free(&s);
	et_buf_free(&b);
	return rc;
}
