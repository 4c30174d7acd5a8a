/* The corrected conversion (et-convert's default). It starts from the
 * reference's node selection and dependency walk and changes what makes the
 * reference's output lie (et-convert(1), DIFFERENCES FROM CHAKRA_CONVERTER):
 * collectives become COMM nodes even without a GPU kernel, GPU ops are
 * ordered on their stream, ctrl_deps never dangle, send/recv carry peers,
 * unknown NCCL kernels map to the closest collective, timestamps are kept. */
#include "et-convert/pytorch/pt_fix.h"
#include "et-convert/pytorch/pt.h"
#include "et-convert/pytorch/pt_emit.h"
#include "et-convert/pytorch/pt_tree.h"
#include "et_attr.h"

#include <stdlib.h>
#include <string.h>

typedef struct fx {
	pt_trace *t;
	const pt_opts *o;
	const et_rank_info *ri;
	pt_tree tr;
	bool *in_map, *cpu;
	uint8_t *type; /* ET_NODE_* */
	int8_t *ctype; /* ET_COLL_* of COMM_COLL nodes */
	int64_t *size; /* comm_size of COMM nodes */
	int64_t *pg;   /* pool offset of pg_name, or -1 */
	pt_deps deps;
	et_error *e;
} fx;

static const char *nm(const fx *c, uint32_t i)
{
	return pt_str(c->t, c->t->nodes[i].name);
}

static bool is_c10d(const char *name)
{
	return strncmp(name, "c10d::", 6) == 0 && pt_coll_kind(name + 6) != PT_COLL_NONE;
}

static bool is_backend(const char *name)
{
	return (strncmp(name, "nccl:", 5) == 0 || strncmp(name, "gloo:", 5) == 0) &&
	       pt_coll_kind(name + 5) != PT_COLL_NONE;
}

/* Reference selection: every non-GPU node, and GPU ops whose parent is one. */
static void select_nodes(fx *c)
{
	for (uint32_t i = 0; i < c->t->n; i++) {
		int64_t p = c->tr.parent[i];
		c->in_map[i] =
		    !pt_is_gpu(&c->t->nodes[i]) || (p >= 0 && !pt_is_gpu(&c->t->nodes[p]));
		c->cpu[i] = !pt_is_gpu(&c->t->nodes[i]);
		c->type[i] = pt_is_metadata_name(nm(c, i)) ? ET_NODE_METADATA : ET_NODE_COMP;
		c->pg[i] = -1;
	}
}

/* Does the subtree of i hold a node satisfying pred (i excluded)? Returns
 * the first such node or -1. */
static int64_t find_below(const fx *c, uint32_t i, bool (*pred)(const fx *, uint32_t))
{
	for (uint32_t k = c->tr.off[i]; k < c->tr.off[i + 1]; k++) {
		uint32_t ch = c->tr.kid[k];
		if (pred(c, ch))
			return ch;
		int64_t r = find_below(c, ch, pred);
		if (r >= 0)
			return r;
	}
	return -1;
}

static bool pred_gpu_comm(const fx *c, uint32_t i)
{
	return pt_is_gpu(&c->t->nodes[i]) && c->in_map[i] &&
	       (strstr(nm(c, i), "ncclKernel") || strstr(nm(c, i), "ncclDevKernel"));
}

static bool pred_backend(const fx *c, uint32_t i)
{
	return is_backend(nm(c, i));
}

static bool pred_rpc_size(const fx *c, uint32_t i)
{
	return strstr(nm(c, i), "record_param_comms") && c->t->nodes[i].msg_bytes > 0;
}

static bool pred_rpc_pg(const fx *c, uint32_t i)
{
	return strstr(nm(c, i), "record_param_comms") && c->t->nodes[i].pg_name != PT_NONE;
}

static bool has_c10d_above(const fx *c, uint32_t i)
{
	for (int64_t p = c->tr.parent[i]; p >= 0; p = c->tr.parent[p])
		if (is_c10d(nm(c, (uint32_t)p)))
			return true;
	return false;
}

/* Bytes moved per rank by a host collective call. */
static int64_t call_bytes(const fx *c, uint32_t i, int64_t backend)
{
	int64_t rpc = find_below(c, i, pred_rpc_size);
	if (rpc >= 0)
		return c->t->nodes[rpc].msg_bytes;
	if (backend >= 0 && c->t->nodes[backend].comm_bytes > 0)
		return c->t->nodes[backend].comm_bytes;
	const pt_node *n = &c->t->nodes[i];
	int arg = pt_coll_input_arg(nm(c, i));
	return n->arg_bytes[arg] > 0 ? n->arg_bytes[arg] : n->comm_bytes;
}

static void make_comm(fx *c, uint32_t i, int kind, int64_t bytes, int64_t pg_from)
{
	c->cpu[i] = false;
	c->type[i] = kind == PT_COLL_SEND   ? ET_NODE_SEND
	             : kind == PT_COLL_RECV ? ET_NODE_RECV
	                                    : ET_NODE_COLL;
	c->ctype[i] = (int8_t)(kind >= 0 ? kind : ET_COLL_ALL_REDUCE);
	c->size[i] = bytes > 0 ? bytes : 0;
	uint32_t pg = pg_from >= 0 ? c->t->nodes[pg_from].pg_name : c->t->nodes[i].pg_name;
	c->pg[i] = pg == PT_NONE ? -1 : (int64_t)pg;
}

/* The first backend op among the siblings after i, before any other c10d
 * op (siblings are sorted by id, so the scan starts at i's own place). */
static int64_t next_backend_sibling(const fx *c, uint32_t i, const bool *owned)
{
	uint32_t p = (uint32_t)c->tr.parent[i];
	uint32_t lo = c->tr.off[p], hi = c->tr.off[p + 1];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (c->t->nodes[c->tr.kid[mid]].id <= c->t->nodes[i].id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t k = lo; k < c->tr.off[p + 1]; k++) {
		uint32_t s = c->tr.kid[k];
		if (is_c10d(nm(c, s)))
			return -1;
		if (is_backend(nm(c, s)))
			return owned[s] ? -1 : (int64_t)s;
	}
	return -1;
}

/* Host collective calls: the outermost c10d:: op, unless a GPU kernel of
 * the call was linked (then the kernel is the collective). A backend op
 * (gloo:, nccl:) outside any c10d op belongs to the c10d op just before it
 * among its siblings (gloo runs them asynchronously), else it is a call of
 * its own. */
static void host_collectives(fx *c)
{
	uint32_t n = c->t->n;
	bool *owned = et_xcalloc(n ? n : 1, sizeof *owned);
	for (uint32_t i = 0; i < n; i++) {
		if (!c->in_map[i] || !is_c10d(nm(c, i)) || has_c10d_above(c, i))
			continue;
		int64_t be = find_below(c, i, pred_backend);
		if (be < 0 && c->tr.parent[i] >= 0)
			be = next_backend_sibling(c, i, owned);
		if (be >= 0)
			owned[be] = true;
		if (find_below(c, i, pred_gpu_comm) >= 0)
			continue;
		make_comm(c, i, pt_coll_kind(nm(c, i) + 6), call_bytes(c, i, be),
		          find_below(c, i, pred_rpc_pg));
	}
	for (uint32_t i = 0; i < n; i++)
		if (c->in_map[i] && is_backend(nm(c, i)) && !owned[i] && !has_c10d_above(c, i))
			make_comm(c, i, pt_coll_kind(nm(c, i) + 5), c->t->nodes[i].comm_bytes, -1);
	free(owned);
}

/* GPU collectives: NCCL kernels, typed by the reference's rules first and
 * by the closest name otherwise (never an abort). */
static void gpu_collectives(fx *c)
{
	for (uint32_t i = 0; i < c->t->n; i++) {
		if (!c->in_map[i] || !pred_gpu_comm(c, i))
			continue;
		const char *name = nm(c, i);
		int kind = pt_ref_comm_type(name);
		if (kind < 0)
			kind = pt_coll_kind(name);
		if (strstr(name, "SendRecv") && c->tr.parent[i] >= 0) {
			int64_t p = c->tr.parent[i];
			if (strcmp(nm(c, (uint32_t)p), "record_param_comms") == 0 &&
			    c->tr.parent[p] >= 0)
				p = c->tr.parent[p];
			int pk = pt_coll_kind(nm(c, (uint32_t)p));
			if (pk == PT_COLL_SEND || pk == PT_COLL_RECV)
				kind = pk;
		}
		if (kind == PT_COLL_NONE) {
			et_warn("%s: node %lld: unknown NCCL kernel '%s' taken as ALL_REDUCE",
			        c->t->input, (long long)c->t->nodes[i].id, name);
			kind = ET_COLL_ALL_REDUCE;
		}
		int64_t p = c->tr.parent[i];
		int64_t rpc = p >= 0 && strstr(nm(c, (uint32_t)p), "record_param_comms") ? p : -1;
		int64_t bytes = rpc >= 0 && c->t->nodes[rpc].msg_bytes > 0
		                    ? c->t->nodes[rpc].msg_bytes
		                    : c->t->nodes[i].comm_bytes;
		make_comm(c, i, kind, bytes,
		          rpc >= 0 && c->t->nodes[rpc].pg_name != PT_NONE ? rpc : -1);
	}
}

int pt_emit_fixed(pt_trace *t, et_writer *out, const et_rank_info *ri, const pt_opts *o,
                  et_error *e)
{
	fx c = {.t = t, .o = o, .ri = ri, .e = e};
	uint32_t n = t->n ? t->n : 1;
	pt_tree_build(&c.tr, t);
	c.in_map = et_xcalloc(n, sizeof *c.in_map);
	c.cpu = et_xcalloc(n, sizeof *c.cpu);
	c.type = et_xcalloc(n, 1);
	c.ctype = et_xcalloc(n, 1);
	c.size = et_xcalloc(n, sizeof *c.size);
	c.pg = et_xcalloc(n, sizeof *c.pg);
	pt_deps_init(&c.deps, n);
	select_nodes(&c);
	gpu_collectives(&c);
	host_collectives(&c);
	pt_fix_ctx fc = {t, &c.tr, c.in_map, c.cpu, c.type, c.ctype, c.size, c.pg, &c.deps, o, ri};
	int r = pt_fix_deps(&fc, e);
	if (r == 0)
		r = pt_fix_write(&fc, out, e);
	free(c.in_map);
	free(c.cpu);
	free(c.type);
	free(c.ctype);
	free(c.size);
	free(c.pg);
	pt_deps_free(&c.deps);
	pt_tree_free(&c.tr);
	return r;
}
