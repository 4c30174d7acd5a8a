/* The random layered DAG of et-synth dag. Layer l holds nodes
 * [l*W, (l+1)*W); every node of layer l > 0 depends on each node of layer
 * l-1 with probability P (and on one at random if the coin chose none), so
 * the file is in topological order and only the previous layer matters:
 * generation needs O(1) memory besides the output bytes. Collectives also
 * depend (ctrl) on the previous collective: one communication stream keeps
 * them in the same order on every rank. */
#include "et-synth/dag/dag.h"
#include "et_attr.h"
#include "et_build.h"
#include "et_mem.h"
#include "et_rng.h"
#include "et_types.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Names in the proportions of real PyTorch traces (roughly). */
static const char *const gpu_ops[] = {
    "aten::mm",
    "aten::addmm",
    "aten::bmm",
    "aten::convolution",
    "aten::layer_norm",
    "aten::gelu",
    "aten::softmax",
    "aten::add",
    "aten::mul",
    "aten::copy_",
    "aten::native_dropout",
    "aten::cat",
};
static const char *const cpu_ops[] = {
    "aten::empty", "aten::view",   "aten::t",          "aten::to",
    "aten::slice", "aten::detach", "aten::as_strided", "aten::reshape",
};
/* ALL_REDUCE dominates data-parallel training; the rest is FSDP and MoE. */
static const struct {
	int ctype;
	const char *name;
	double p; /* cumulative */
} colls[] = {
    {ET_COLL_ALL_REDUCE, "nccl:all_reduce", 0.60},
    {ET_COLL_ALL_GATHER, "nccl:all_gather", 0.75},
    {ET_COLL_REDUCE_SCATTER, "nccl:reduce_scatter", 0.90},
    {ET_COLL_ALL_TO_ALL, "nccl:all_to_all", 1.00},
};

static et_node *gpu_comp(et_arena *a, et_rng *r, uint64_t id)
{
	const char *name = gpu_ops[et_rng_below(r, sizeof gpu_ops / sizeof gpu_ops[0])];
	uint64_t dur = (uint64_t)llround(et_rng_log_uniform(r, 2, 2000));
	double rate = et_rng_log_uniform(r, 1e12, 5e13);  /* achieved FLOP/s */
	double intensity = et_rng_log_uniform(r, 1, 200); /* FLOP per byte */
	int64_t ops = (int64_t)(rate * (double)dur * 1e-6);
	et_node *n = et_build_comp(a, id, name, dur, false);
	et_attr_set_known_int(a, n, "num_ops", ops);
	et_attr_set_known_int(a, n, "tensor_size", (int64_t)((double)ops / intensity) & ~3ll);
	return n;
}

static et_node *cpu_comp(et_arena *a, et_rng *r, uint64_t id)
{
	const char *name = cpu_ops[et_rng_below(r, sizeof cpu_ops / sizeof cpu_ops[0])];
	return et_build_comp(a, id, name, (uint64_t)llround(et_rng_log_uniform(r, 1, 50)), true);
}

static et_node *coll(et_arena *a, et_rng *r, uint64_t id)
{
	double u = et_rng_unit(r);
	size_t k = 0;
	while (k + 1 < sizeof colls / sizeof colls[0] && u >= colls[k].p)
		k++;
	int64_t size = 1ll << (12 + et_rng_below(r, 15)); /* 4 KiB .. 64 MiB */
	return et_build_coll(a, id, colls[k].name, colls[k].ctype, size);
}

static void deps(const dag_conf *c, et_arena *a, et_rng *r, et_node *n, uint64_t i)
{
	uint64_t layer = i / c->width;
	if (!layer)
		return;
	uint64_t prev = (layer - 1) * c->width;
	for (uint32_t j = 0; j < c->width; j++)
		if (et_rng_unit(r) < c->edge_prob)
			et_build_data_dep(a, n, prev + j);
	if (!n->n_data_deps)
		et_build_data_dep(a, n, prev + et_rng_below(r, c->width));
}

/* Walk the fields of an encoded Node to the duration varint (field 7). */
static bool find_duration(const uint8_t *p, size_t n, uint32_t *off, uint16_t *len)
{
	size_t i = 0;
	while (i < n) {
		uint64_t tag, v;
		int k = et_varint_get(p + i, n - i, &tag);
		if (k <= 0)
			return false;
		i += (size_t)k;
		if (tag == (7 << 3)) {
			*off = (uint32_t)i;
			*len = (uint16_t)et_varint_get(p + i, n - i, &v);
			return true;
		}
		if ((tag & 7) == 0 || (tag & 7) == 2) {
			k = et_varint_get(p + i, n - i, &v);
			if (k <= 0)
				return false;
			i += (size_t)k + ((tag & 7) == 2 ? v : 0);
		} else {
			i += (tag & 7) == 1 ? 8 : 4;
		}
	}
	return false;
}

static void record_patch(dag_tpl *t, size_t node_off, uint64_t dur)
{
	const uint8_t *p = t->bytes.data + node_off;
	uint64_t len;
	int pre = et_varint_get(p, t->bytes.len - node_off, &len);
	dag_patch d = {.node_off = node_off,
	               .msg_len = (uint32_t)len,
	               .pre_len = (uint16_t)pre,
	               .dur = (uint32_t)dur};
	if (!find_duration(p + pre, len, &d.dur_off, &d.dur_len))
		return;
	ET_GROW(t->patch, t->cap_patch, (size_t)t->n_patch + 1);
	t->patch[t->n_patch++] = d;
}

void dag_generate(const dag_conf *c, dag_tpl *t, bool want_patch)
{
	et_rng r;
	et_rng_seed(&r, c->so.seed, 0);
	et_arena *a = et_arena_new();
	uint64_t last_coll = UINT64_MAX;
	for (uint64_t i = 0; i < c->nodes; i++) {
		et_node *n;
		if (et_rng_unit(&r) < c->comm_frac) {
			n = coll(a, &r, i);
			if (last_coll != UINT64_MAX)
				et_build_ctrl_dep(a, n, last_coll);
			last_coll = i;
		} else {
			n = et_rng_unit(&r) < c->cpu_frac ? cpu_comp(a, &r, i) : gpu_comp(a, &r, i);
		}
		deps(c, a, &r, n, i);
		size_t off = t->bytes.len;
		et_node_encode(n, &t->bytes);
		if (want_patch && n->type == ET_NODE_COMP)
			record_patch(t, off, n->duration_micros);
		et_arena_reset(a);
	}
	et_arena_free(a);
}

void dag_tpl_free(dag_tpl *t)
{
	et_buf_free(&t->bytes);
	free(t->patch);
	memset(t, 0, sizeof *t);
}
