/* gen_et: write a large, realistic Chakra ET for benchmarks.
 *
 * The nodes imitate what the PyTorch -> Chakra converter writes (see a
 * decoded resnet trace): the nine converter attributes in the converter's
 * order, python-repr IOInfo strings, one to three data deps on recent nodes,
 * sparse ids. Same seed -> same bytes, on any machine: the generator uses its
 * own PRNG and never reads the clock. */
#include "app/et_cli.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_output.h"
#include "et_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: gen_et --nodes N [--seed S] [--ranks R] [--format et|stream] [-o FILE]\n"
    "Write a synthetic Chakra ET of N nodes per rank (raw ET: one rank; stream: R ranks).\n\n";

/* xorshift64*: small, fast, and identical everywhere. */
typedef struct rng {
	uint64_t s;
} rng;

static uint64_t rng_next(rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n). The modulo bias is irrelevant for synthetic data. */
static uint32_t rng_below(rng *r, uint32_t n)
{
	return (uint32_t)((rng_next(r) >> 32) % n);
}

static void rng_seed(rng *r, uint64_t seed)
{
	/* splitmix64 once, so that seeds 0, 1, 2 give unrelated streams and the
	 * state is never zero. */
	uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	r->s = (z ^ (z >> 31)) | 1;
}

typedef struct op_kind {
	const char *name;
	const char *schema; /* op_schema attribute; "" for kernels */
	int n_in;           /* tensor inputs */
} op_kind;

static const op_kind cpu_ops[] = {
    {"aten::addmm",
     "aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1) -> Tensor", 3},
    {"aten::mm", "aten::mm(Tensor self, Tensor mat2) -> Tensor", 2},
    {"aten::relu", "aten::relu(Tensor self) -> Tensor", 1},
    {"aten::add_",
     "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", 2},
    {"aten::view", "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)", 1},
    {"aten::copy_",
     "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", 2},
    {"aten::linear", "aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", 3},
    {"aten::native_layer_norm",
     "aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? "
     "bias, float eps) -> (Tensor, Tensor, Tensor)",
     3},
    {"aten::_softmax", "aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", 1},
    {"aten::mul", "aten::mul.Tensor(Tensor self, Tensor other) -> Tensor", 2},
};

static const char *const gpu_kernels[] = {
    "ampere_sgemm_128x64_tn",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>",
    "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1",
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda>",
};

/* Collectives ASTRA-sim simulates, with the converter's names. */
static const struct {
	const char *name;
	int type;
} colls[] = {
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_REDUCE},
    {"ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_GATHER},
    {"ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
     CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER},
    {"ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)",
     CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_TO_ALL},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum { RECENT = 256 };

/* Per-rank generator state. */
typedef struct gen {
	rng r;
	uint32_t rank;
	uint64_t next_id, rf_id, seq_id, tensor_id, time_us;
	uint64_t recent[RECENT]; /* ring of recent node ids, for deps */
	uint64_t n_recent;
	uint64_t last_cpu_id; /* ctrl deps point at the last host op */
	bool cur_cpu;         /* is_cpu_op of the node being built */
	char tmp[1024];
} gen;

/* "[[t, s, 0, numel, 4, 'cuda:0'], ...]": the converter's tensor repr. */
static void io_info(gen *g, et_arena *a, ChakraProtoMsg__IOInfo *io, int n_tensors)
{
	char v[512], s[256], t[256];
	size_t vl = 0, sl = 0, tl = 0;
	v[vl++] = s[sl++] = t[tl++] = '[';
	for (int i = 0; i < n_tensors; i++) {
		uint32_t d0 = 1u << (4 + rng_below(&g->r, 8)), d1 = 1u << (4 + rng_below(&g->r, 8));
		const char *sep = i ? ", " : "";
		g->tensor_id += 2;
		vl += (size_t)snprintf(v + vl, sizeof v - vl, "%s[%llu, %llu, 0, %u, 4, 'cuda:%u']",
		                       sep, (unsigned long long)g->tensor_id,
		                       (unsigned long long)g->tensor_id + 1, d0 * d1, g->rank % 8);
		sl += (size_t)snprintf(s + sl, sizeof s - sl, "%s[%u, %u]", sep, d0, d1);
		tl += (size_t)snprintf(t + tl, sizeof t - tl, "%s'Tensor(float)'", sep);
	}
	snprintf(v + vl, sizeof v - vl, "]");
	snprintf(s + sl, sizeof s - sl, "]");
	snprintf(t + tl, sizeof t - tl, "]");
	io->values = et_arena_strdup(a, v);
	io->shapes = et_arena_strdup(a, s);
	io->types = et_arena_strdup(a, t);
}

/* One to three distinct deps on recent nodes, mostly the previous one. */
static void data_deps(gen *g, et_arena *a, et_node *n)
{
	uint64_t have = g->n_recent < RECENT ? g->n_recent : RECENT;
	if (!have)
		return;
	uint32_t k = rng_below(&g->r, 10);
	size_t want = k < 6 ? 1 : k < 9 ? 2 : 3;
	n->data_deps = et_arena_alloc(a, 3 * sizeof *n->data_deps);
	for (size_t i = 0; i < want && i < have; i++) {
		uint64_t back = i == 0 ? 1 : 1 + rng_below(&g->r, (uint32_t)have);
		uint64_t id = g->recent[(g->n_recent - back) % RECENT];
		bool dup = false;
		for (size_t j = 0; j < n->n_data_deps; j++)
			dup |= n->data_deps[j] == id;
		if (!dup)
			n->data_deps[n->n_data_deps++] = id;
	}
}

/* The converter's attributes, in its order. */
static void common_attrs(gen *g, et_arena *a, et_node *n, bool cpu, const char *schema)
{
	g->cur_cpu = cpu;
	et_attr_set_int64(a, n, "rf_id", (int64_t)g->rf_id++);
	et_attr_set_int64(a, n, "fw_parent", cpu ? 0 : (int64_t)g->last_cpu_id);
	et_attr_set_int64(a, n, "seq_id", rng_below(&g->r, 4) ? (int64_t)g->seq_id++ : -1);
	et_attr_set_int64(a, n, "scope", cpu ? 0 : 7);
	et_attr_set_int64(a, n, "tid", cpu ? 1 : 7);
	et_attr_set_int64(a, n, "fw_tid", 0);
	et_attr_set_str(a, n, "op_schema", schema);
	et_attr_set_bool(a, n, "is_cpu_op", cpu);
	et_attr_set_int64(a, n, "stream", cpu ? 0 : 7 + rng_below(&g->r, 2));
}

static void comp_node(gen *g, et_arena *a, et_node *n)
{
	n->type = CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE;
	bool cpu = rng_below(&g->r, 2);
	int n_in = 1;
	const char *schema = "";
	if (cpu) {
		const op_kind *k = &cpu_ops[rng_below(&g->r, COUNT(cpu_ops))];
		n->name = (char *)k->name;
		schema = k->schema;
		n_in = k->n_in;
	} else {
		n->name = (char *)gpu_kernels[rng_below(&g->r, COUNT(gpu_kernels))];
		n_in = 1 + (int)rng_below(&g->r, 3);
	}
	n->inputs = et_ioinfo_new(a);
	io_info(g, a, n->inputs, n_in);
	n->outputs = et_ioinfo_new(a);
	io_info(g, a, n->outputs, 1);
	common_attrs(g, a, n, cpu, schema);
	if (!cpu)
		et_attr_set_int64(a, n, "num_ops", (int64_t)(rng_next(&g->r) >> 40));
}

static void coll_node(gen *g, et_arena *a, et_node *n)
{
	uint32_t c = rng_below(&g->r, COUNT(colls));
	n->type = CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE;
	n->name = (char *)colls[c].name;
	n->inputs = et_ioinfo_new(a);
	io_info(g, a, n->inputs, 1);
	n->outputs = et_ioinfo_new(a);
	io_info(g, a, n->outputs, 1);
	common_attrs(g, a, n, false, "");
	et_attr_set_int64(a, n, "comm_type", colls[c].type);
	et_attr_set_int64(a, n, "comm_size", (int64_t)4 << (10 + rng_below(&g->r, 16)));
	snprintf(g->tmp, sizeof g->tmp, "%u", rng_below(&g->r, 4));
	et_attr_set_str(a, n, "pg_name", g->tmp);
}

static void meta_node(gen *g, et_arena *a, et_node *n)
{
	n->type = CHAKRA_PROTO_MSG__NODE_TYPE__METADATA_NODE;
	snprintf(g->tmp, sizeof g->tmp, "ProfilerStep#%llu", (unsigned long long)g->next_id / 1000);
	n->name = et_arena_strdup(a, g->tmp);
	n->inputs = et_ioinfo_new(a);
	n->inputs->values = n->inputs->shapes = n->inputs->types = (char *)"[]";
	n->outputs = n->inputs;
	common_attrs(g, a, n, true, "");
}

static void mem_node(gen *g, et_arena *a, et_node *n)
{
	bool load = rng_below(&g->r, 2);
	n->type = load ? CHAKRA_PROTO_MSG__NODE_TYPE__MEM_LOAD_NODE
	               : CHAKRA_PROTO_MSG__NODE_TYPE__MEM_STORE_NODE;
	n->name = load ? (char *)"aten::_to_copy" : (char *)"aten::record_stream";
	n->inputs = et_ioinfo_new(a);
	io_info(g, a, n->inputs, 1);
	common_attrs(g, a, n, false, "");
	et_attr_set_uint64(a, n, "tensor_size", (uint64_t)4 << (8 + rng_below(&g->r, 20)));
}

static et_node *make_node(gen *g, et_arena *a)
{
	et_node *n = et_node_new(a);
	n->id = g->next_id;
	/* The converter skips ids of tensors it folds away. */
	g->next_id += 1 + (rng_below(&g->r, 4) == 0);
	data_deps(g, a, n);
	uint32_t k = rng_below(&g->r, 100);
	if (k < 80)
		comp_node(g, a, n);
	else if (k < 90)
		coll_node(g, a, n);
	else if (k < 95)
		meta_node(g, a, n);
	else
		mem_node(g, a, n);
	if (g->last_cpu_id && rng_below(&g->r, 10) == 0) {
		n->ctrl_deps = et_arena_alloc(a, sizeof *n->ctrl_deps);
		n->ctrl_deps[0] = g->last_cpu_id;
		n->n_ctrl_deps = 1;
	}
	bool cpu = g->cur_cpu;
	if (cpu)
		g->last_cpu_id = n->id;
	g->time_us += rng_below(&g->r, 20);
	n->start_time_micros = g->time_us;
	n->duration_micros = 1 + rng_below(&g->r, cpu ? 50 : 500);
	g->recent[g->n_recent++ % RECENT] = n->id;
	return n;
}

static et_attr *meta_attr(et_arena *a, et_meta *m, const char *name)
{
	et_attr *at = et_arena_alloc(a, sizeof *at);
	chakra_proto_msg__attribute_proto__init(at);
	at->name = (char *)name;
	m->attr[m->n_attr++] = at;
	return at;
}

/* The converter's GlobalMetadata: schema, pid, time, start_ts, finish_ts. */
static void write_meta(et_arena *a, uint32_t rank, et_buf *out)
{
	et_meta *m = et_meta_new(a);
	m->version = (char *)"0.0.4";
	m->attr = et_arena_alloc(a, 5 * sizeof *m->attr);
	et_attr *at = meta_attr(a, m, "schema");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	at->string_val = (char *)"1.1.0-chakra.0.0.4";
	at = meta_attr(a, m, "pid");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL;
	at->uint64_val = 4242 + rank;
	at = meta_attr(a, m, "time");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	at->string_val = (char *)"2024-06-30 11:23:59";
	at = meta_attr(a, m, "start_ts");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL;
	at->uint64_val = 1719746639000000ULL;
	at = meta_attr(a, m, "finish_ts");
	at->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL;
	at->uint64_val = 1719746699000000ULL;
	et_meta_encode(m, out);
}

typedef struct sink {
	FILE *f;
	et_stream_writer *sw; /* NULL for a raw ET */
	et_buf buf;
} sink;

static void flush(sink *s)
{
	et_error e = {0};
	if (s->sw ? et_stream_write(s->sw, s->buf.data, s->buf.len, &e) < 0
	          : fwrite(s->buf.data, 1, s->buf.len, s->f) != s->buf.len) {
		if (!e.code)
			et_fail(&e, ET_EXIT_IO, "write error");
		et_die(e.code, "%s", e.msg);
	}
	s->buf.len = 0;
}

static void gen_rank(sink *s, uint32_t rank, uint64_t nodes, uint64_t seed)
{
	gen *g = et_xcalloc(1, sizeof *g);
	rng_seed(&g->r, seed * 1000003u + rank);
	g->rank = rank;
	g->next_id = 2; /* the converter's first node id */
	et_arena *a = et_arena_new();
	write_meta(a, rank, &s->buf);
	for (uint64_t i = 0; i < nodes; i++) {
		et_arena_reset(a);
		et_node_encode(make_node(g, a), &s->buf);
		if (s->buf.len >= (1u << 20))
			flush(s);
	}
	flush(s);
	et_arena_free(a);
	free(g);
}

static const char *const formats[] = {"et", "stream", NULL};

int main(int argc, char **argv)
{
	et_cli cli;
	int64_t nodes = -1, seed = 1;
	uint32_t ranks = 1;
	int stream = 0;
	et_opt opts[] = {
	    {'n', "nodes", ET_ARG_I64, "N", "nodes per rank", &nodes, .min = 0, .max = INT64_MAX},
	    {0, "seed", ET_ARG_I64, "S", "random seed (default 1)", &seed, .min = 0,
	     .max = INT64_MAX},
	    {0, "ranks", ET_ARG_U32, "R", "ranks (stream only; default 1)", &ranks, .min = 1,
	     .max = 1 << 20},
	    {0, "format", ET_ARG_CHOICE, "FMT", "et (default) or stream", &stream,
	     .choices = formats},
	    ET_OPTS_COMMON(&cli),
	    ET_OPT_END,
	};
	cli = (et_cli){.prog = "gen_et", .usage = usage, .opts = opts};
	et_cli_parse(&cli, argc, argv);
	if (nodes < 0 || cli.nargs)
		et_cli_usage_error(&cli, "--nodes N is required, and no operands are taken");
	if (!stream && ranks != 1)
		et_cli_usage_error(&cli, "--ranks needs --format stream (a raw ET is one rank)");
	et_error e = {0};
	et_output *out;
	if (et_output_open(&out, cli.output, true, &e) < 0)
		et_die(e.code, "%s", e.msg);
	sink s = {et_output_file(out), NULL, {0}};
	if (stream)
		s.sw = et_stream_writer_new(s.f, 3, 0);
	for (uint32_t r = 0; r < ranks; r++) {
		if (s.sw &&
		    et_stream_begin_rank(s.sw, ET_STREAM_VERSION, r, ranks, "bench", &e) < 0)
			et_die(e.code, "%s", e.msg);
		gen_rank(&s, r, (uint64_t)nodes, (uint64_t)seed);
		if (s.sw && et_stream_end_rank(s.sw, &e) < 0)
			et_die(e.code, "%s", e.msg);
	}
	et_stream_writer_free(s.sw);
	et_buf_free(&s.buf);
	if (et_output_commit(out, &e) < 0)
		et_die(e.code, "%s", e.msg);
	return 0;
}
