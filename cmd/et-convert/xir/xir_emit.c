/* xir_emit: a compiler program's ranks as ETs (xir_emit.h). */
#include "et-convert/xir/xir_emit.h"
#include "et-convert/xir/xir_sets.h"
#include "et_arena.h"
#include "et_attr.h"
#include "et_hmap.h"
#include "et_mem.h"
#include "et_progress.h"
#include "et_sgroups.h"
#include "et_stream.h"
#include "et_tpl.h"
#include "et_types.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A rank's part in an op: COMP and collectives 1 (takes part) or 0;
 * point-to-point ops bit 0 "sends", bit 1 "receives". */
static unsigned part(const xir_op *op, const xir_sets *t, uint32_t r)
{
	switch (op->kind) {
	case XIR_COMP:
		return 1;
	case XIR_COLL:
		return t->gid[op->set][r] >= 0;
	case XIR_SEND:
		return t->dst[op->set][r] >= 0;
	case XIR_RECV:
		return (t->src[op->set][r] >= 0) << 1;
	default:
		return (t->dst[op->set][r] >= 0) | (t->src[op->set][r] >= 0) << 1;
	}
}

/* Ranks take part in the same ops: one class, one template. */
typedef struct classes {
	uint32_t *of;  /* [rank] class */
	uint32_t *rep; /* [class] its first rank */
	uint32_t n;
} classes;

static bool same_part(const xir *x, const xir_sets *t, const uint32_t *vary, uint32_t nv,
                      uint32_t a, uint32_t b)
{
	for (uint32_t k = 0; k < nv; k++)
		if (part(&x->op[vary[k]], t, a) != part(&x->op[vary[k]], t, b))
			return false;
	return true;
}

static void classify(classes *c, const xir *x, const xir_sets *t, uint32_t nranks)
{
	/* only ops whose part varies can tell ranks apart */
	uint32_t *vary = et_xcalloc(x->nop + 1, sizeof *vary), nv = 0;
	for (size_t i = 0; i < x->nop; i++)
		for (uint32_t r = 1; r < nranks; r++)
			if (part(&x->op[i], t, r) != part(&x->op[i], t, 0)) {
				vary[nv++] = (uint32_t)i;
				break;
			}
	c->of = et_xcalloc(nranks, sizeof *c->of);
	c->rep = et_xcalloc(nranks, sizeof *c->rep);
	uint64_t *hash = et_xcalloc(nranks, sizeof *hash);
	c->n = 0;
	for (uint32_t r = 0; r < nranks; r++) {
		uint64_t h = 1469598103934665603ull;
		for (uint32_t k = 0; k < nv; k++)
			h = (h ^ part(&x->op[vary[k]], t, r)) * 1099511628211ull;
		uint32_t cls = 0; /* classes are few (pipeline stages): a linear scan */
		while (cls < c->n && (hash[cls] != h || !same_part(x, t, vary, nv, c->rep[cls], r)))
			cls++;
		if (cls == c->n) {
			c->rep[c->n] = r;
			hash[c->n++] = h;
		}
		c->of[r] = cls;
	}
	free(hash);
	free(vary);
}

/* One class's template being built: per op, the nodes that stand for its
 * completion on this class's ranks (an op a rank skips stands for what it
 * depended on). */
typedef struct build {
	const xir *x;
	const xir_sets *t;
	const xir_emit_opts *o;
	et_arena *a;
	uint32_t *doff, *dn; /* [op] its completion nodes: pool[doff .. doff + dn) */
	uint64_t *pool;
	size_t npool, cappool;
	uint64_t *deps; /* scratch: one node's dependencies */
	uint32_t *stamp;
	uint32_t now;
	uint64_t next_id;
	uint64_t last_coll; /* the rank's previous collective node, UINT64_MAX: none */
} build;

static void pool_push(build *b, uint64_t id)
{
	ET_GROW(b->pool, b->cappool, (size_t)b->npool + 1);
	b->pool[b->npool++] = id;
}

/* The nodes op i depends on, without repeats: into b->deps, counted. */
static uint32_t gather_deps(build *b, size_t i)
{
	const xir_op *op = &b->x->op[i];
	uint32_t n = 0;
	b->now++;
	for (uint32_t k = 0; k < op->n_deps; k++) {
		uint32_t d = b->x->deps[op->dep_off + k];
		for (uint32_t j = 0; j < b->dn[d]; j++) {
			uint64_t id = b->pool[b->doff[d] + j];
			if (b->stamp[id] != b->now) {
				b->stamp[id] = b->now;
				b->deps[n++] = id;
			}
		}
	}
	return n;
}

static et_node *node_new(build *b, const xir_op *op, int type, const char *suffix, uint32_t ndeps)
{
	et_node *n = et_node_new(b->a);
	n->id = b->next_id++;
	if (suffix) {
		size_t l = strlen(op->name) + strlen(suffix) + 1;
		char *s = et_arena_alloc(b->a, l);
		snprintf(s, l, "%s%s", op->name, suffix);
		n->name = s;
	} else {
		n->name = (char *)op->name;
	}
	n->type = type;
	n->n_data_deps = ndeps;
	n->data_deps = b->deps;
	et_attr_set_bool(b->a, n, "is_cpu_op", false);
	return n;
}

/* The roofline time of a COMP op, to the nearest microsecond. */
static uint64_t roofline_us(const xir_emit_opts *o, const xir_op *op)
{
	double t = fmax((double)op->flops / (o->peak_tflops * 1e12),
	                (double)op->bytes / (o->mem_gbps * 1e9)) *
	           1e6;
	return t >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(t);
}

static void add_comp(build *b, et_tpl *tpl, const xir_op *op, uint32_t ndeps)
{
	et_node *n = node_new(b, op, ET_NODE_COMP, NULL, ndeps);
	et_attr_set_int64(b->a, n, "num_ops",
	                  op->flops > INT64_MAX ? INT64_MAX : (int64_t)op->flops);
	et_attr_set_uint64(b->a, n, "tensor_size", op->bytes);
	et_attr_set_str(b->a, n, "hlo_op", op->opcode);
	if (op->gemm[0]) {
		static const char *const ext[] = {"gemm_m", "gemm_n", "gemm_k", "gemm_batch"};
		for (int k = 0; k < 4; k++)
			et_attr_set_int64(b->a, n, ext[k], (int64_t)op->gemm[k]);
	}
	if (b->o->peak_tflops > 0 && b->o->mem_gbps > 0)
		n->duration_micros = roofline_us(b->o, op);
	et_tpl_add(tpl, n, ET_TPL_FIXED);
}

static int64_t comm_size(const xir_op *op)
{
	return op->bytes > INT64_MAX ? INT64_MAX : (int64_t)op->bytes;
}

/* Slots: per set, its pg_name (3s), its send target (3s + 1) and its
 * receive source (3s + 2). */
/* Collectives run in program order, as the compiler scheduled them: each
 * after the rank's previous one (a control dependency). Without it ranks
 * whose transfers take different times could issue two independent
 * collectives in different orders, and a simulator pairs the k-th
 * collective of a group across its members. */
static void order_after_last(build *b, et_node *n)
{
	if (b->last_coll != UINT64_MAX) {
		n->n_ctrl_deps = 1;
		n->ctrl_deps = et_arena_alloc(b->a, sizeof *n->ctrl_deps);
		n->ctrl_deps[0] = b->last_coll;
	}
	b->last_coll = n->id;
}

static void add_coll(build *b, et_tpl *tpl, const xir_op *op, uint32_t ndeps)
{
	et_node *n = node_new(b, op, ET_NODE_COLL, NULL, ndeps);
	order_after_last(b, n);
	et_attr_set_int64(b->a, n, "comm_type", op->coll);
	et_attr_set_int64(b->a, n, "comm_size", comm_size(op));
	if (!b->t->gid_varies[op->set]) { /* one group of every rank: "0" everywhere */
		et_attr_set_str(b->a, n, "pg_name", "0");
		et_tpl_add(tpl, n, ET_TPL_FIXED);
		return;
	}
	et_tpl_add(tpl, n, 3 * op->set);
}

static void add_p2p(build *b, et_tpl *tpl, const xir_op *op, size_t i, bool send, uint32_t ndeps)
{
	et_node *n = node_new(b, op, send ? ET_NODE_SEND : ET_NODE_RECV,
	                      op->kind == XIR_PERMUTE ? (send ? ".send" : ".recv") : NULL, ndeps);
	int32_t tag = op->channel >= 0 && op->channel <= INT32_MAX
	                  ? (int32_t)op->channel
	                  : (int32_t)(0x40000000 | (i & 0x3fffffff));
	et_attr_set_int64(b->a, n, "comm_size", comm_size(op));
	et_attr_set_int32(b->a, n, "comm_tag", tag);
	et_tpl_add(tpl, n, 3 * op->set + (send ? 1 : 2));
}

/* Op i on this class: its nodes, and what stands for its completion. */
static void add_op(build *b, et_tpl *tpl, size_t i, uint32_t rep)
{
	const xir_op *op = &b->x->op[i];
	uint32_t ndeps = gather_deps(b, i);
	unsigned p = part(op, b->t, rep);
	b->doff[i] = (uint32_t)b->npool;
	if (!p) { /* skipped: its consumers wait for what it waited for */
		for (uint32_t k = 0; k < ndeps; k++)
			pool_push(b, b->deps[k]);
	} else if (op->kind == XIR_COMP || op->kind == XIR_COLL) {
		pool_push(b, b->next_id);
		(op->kind == XIR_COMP ? add_comp : add_coll)(b, tpl, op, ndeps);
	} else {
		if (p & 2) {
			pool_push(b, b->next_id);
			add_p2p(b, tpl, op, i, false, ndeps);
		}
		if (p & 1) {
			pool_push(b, b->next_id);
			add_p2p(b, tpl, op, i, true, ndeps);
		}
	}
	b->dn[i] = (uint32_t)(b->npool - b->doff[i]);
	et_arena_reset(b->a);
}

static void build_class(build *b, et_tpl *tpl, uint32_t rep)
{
	b->npool = 0;
	b->next_id = 0;
	b->last_coll = UINT64_MAX;
	for (size_t i = 0; i < b->x->nop; i++)
		add_op(b, tpl, i, rep);
}

/* The attribute of a slot for the rank being written, encoded once per
 * rank and slot. */
typedef struct rank_vars {
	const xir_sets *t;
	uint32_t r;
	et_buf *buf;     /* [slot] */
	uint32_t *stamp; /* [slot]: rank + 1 it was encoded for */
} rank_vars;

static const et_buf *rank_var(void *ctx, uint32_t slot)
{
	rank_vars *v = ctx;
	uint32_t s = slot / 3;
	if (v->stamp[slot] != v->r + 1) {
		v->stamp[slot] = v->r + 1;
		if (slot % 3 == 0) {
			char id[16];
			snprintf(id, sizeof id, "%" PRId32, v->t->gid[s][v->r]);
			et_tpl_attr_str(&v->buf[slot], "pg_name", id);
		} else if (slot % 3 == 1) {
			et_tpl_attr_int32(&v->buf[slot], "comm_dst", v->t->dst[s][v->r]);
		} else {
			et_tpl_attr_int32(&v->buf[slot], "comm_src", v->t->src[s][v->r]);
		}
	}
	return &v->buf[slot];
}

static void pack_meta(et_buf *out)
{
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = "0.0.4";
	et_meta_pack(&m, out);
}

/* The program's rank count, checked against --world. */
static int rank_count(const xir *x, const xir_emit_opts *o, uint32_t *n, et_error *e)
{
	if (!x->replicas && !x->partitions) {
		*n = o->world ? o->world : 1;
		return 0;
	}
	*n = xir_ranks(x);
	if (o->world && o->world != *n)
		return et_fail(e, ET_EXIT_USAGE,
		               "--world %u: %s has %u ranks (%u replicas x %u partitions)",
		               o->world, o->input, *n, x->replicas ? x->replicas : 1,
		               x->partitions ? x->partitions : 1);
	return 0;
}

/* The comm groups each rank's section carries (etkit-stream(5)): every
 * group encoded once, on first use, then each rank's in id order. */
typedef struct rank_groups {
	et_sgroups_w *enc; /* [group id - 1]: n = 0 until encoded */
	uint32_t *ids;     /* the rank's, sorted */
	et_sgroups_w w;
	et_buf payload;
} rank_groups;

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void encode_group(rank_groups *rg, const xir_sets *t, uint32_t g)
{
	uint32_t n = t->gsize[g - 1];
	uint32_t *m = et_xmalloc(((size_t)n + 1) * sizeof *m);
	memcpy(m, t->gmem + t->goff[g - 1], (size_t)n * sizeof *m);
	qsort(m, n, sizeof *m, cmp_u32);
	size_t k = 0; /* unique: xir_sets_build refused a rank twice in a set */
	for (size_t i = 0; i < n; i++)
		if (!k || m[k - 1] != m[i])
			m[k++] = m[i];
	char name[16];
	snprintf(name, sizeof name, "%" PRIu32, g);
	et_sgroups_w_ranks(&rg->enc[g - 1], name, m, k);
	free(m);
}

static void rank_groups_of(rank_groups *rg, const xir *x, const xir_sets *t, uint32_t r,
                           et_rank_info *ri)
{
	size_t n = 0;
	for (uint32_t s = 0; s < x->nset; s++)
		if (t->gid[s] && t->gid[s][r] > 0)
			rg->ids[n++] = (uint32_t)t->gid[s][r];
	qsort(rg->ids, n, sizeof *rg->ids, cmp_u32);
	et_sgroups_w_reset(&rg->w);
	for (size_t i = 0; i < n; i++) {
		uint32_t g = rg->ids[i];
		if (i && g == rg->ids[i - 1])
			continue;
		if (!rg->enc[g - 1].n)
			encode_group(rg, t, g);
		et_sgroups_w_append(&rg->w, &rg->enc[g - 1]);
	}
	et_sgroups_w_payload(&rg->w, &rg->payload);
	ri->groups = rg->payload.data;
	ri->groups_len = (uint32_t)rg->payload.len;
}

static int write_ranks(const xir *x, const xir_emit_opts *o, const xir_sets *t, uint32_t nr,
                       et_writer *w, et_error *e)
{
	classes c;
	classify(&c, x, t, nr);
	build b = {.x = x, .t = t, .o = o, .a = et_arena_new()};
	b.doff = et_xcalloc(x->nop + 1, sizeof *b.doff);
	b.dn = et_xcalloc(x->nop + 1, sizeof *b.dn);
	b.deps = et_xcalloc(2 * x->nop + 1, sizeof *b.deps);
	b.stamp = et_xcalloc(2 * x->nop + 1, sizeof *b.stamp);
	et_tpl *tpl = et_xcalloc(c.n, sizeof *tpl);
	for (uint32_t k = 0; k < c.n; k++) {
		build_class(&b, &tpl[k], c.rep[k]);
		/* one stream, never sharded: later ranks as deltas of the first */
		tpl[k].deltas = true;
	}
	et_buf meta = {0};
	pack_meta(&meta);
	uint32_t nslot = 3 * (x->nset ? x->nset : 1);
	rank_vars v = {.t = t,
	               .buf = et_xcalloc(nslot, sizeof *v.buf),
	               .stamp = et_xcalloc(nslot, sizeof *v.stamp)};
	rank_groups rg = {.enc = et_xcalloc((size_t)t->ngroups + 1, sizeof *rg.enc),
	                  .ids = et_xcalloc((size_t)x->nset + 1, sizeof *rg.ids)};
	et_progress pr;
	et_progress_init(&pr, o->progress, "ranks");
	int rc = 0;
	/* class ranks (etkit-stream(5) CLASS FRAMES) where the output takes
	 * them: each class's frame once, before its first rank, as the stream
	 * is one and never sharded; a reader builds every rank of a class
	 * from its rule without decoding it. Otherwise the deltas. */
	bool classes = c.n <= ET_STREAM_CLASS_IDS;
	for (uint32_t r = 0; r < nr && rc == 0; r++) {
		et_rank_info ri = {.rank = r, .world_size = nr, .input = o->input};
		snprintf(ri.name, sizeof ri.name, "%s", x->module ? x->module : "");
		rank_groups_of(&rg, x, t, r, &ri);
		v.r = r;
		uint32_t k = c.of[r];
		if (classes) {
			rc = et_tpl_write_class(&tpl[k], w, &ri, k, c.rep[k] == r, &meta, rank_var,
			                        &v, e);
			if (rc == 1) {
				rc = 0;
				et_progress_update(&pr, r + 1);
				continue;
			}
			classes = false; /* rc 0: this output takes no classes */
			if (rc < 0)
				break;
		}
		rc = et_tpl_write(&tpl[k], w, &ri, &meta, rank_var, &v, e);
		et_progress_update(&pr, r + 1);
	}
	et_progress_done(&pr);
	for (uint32_t g = 0; g < t->ngroups; g++)
		et_sgroups_w_free(&rg.enc[g]);
	free(rg.enc);
	free(rg.ids);
	et_sgroups_w_free(&rg.w);
	et_buf_free(&rg.payload);
	for (uint32_t i = 0; i < nslot; i++)
		et_buf_free(&v.buf[i]);
	free(v.buf);
	free(v.stamp);
	et_buf_free(&meta);
	for (uint32_t k = 0; k < c.n; k++)
		et_tpl_free(&tpl[k]);
	free(tpl);
	free(b.doff);
	free(b.dn);
	free(b.deps);
	free(b.stamp);
	free(b.pool);
	et_arena_free(b.a);
	free(c.of);
	free(c.rep);
	return rc;
}

int xir_emit(const xir *x, const xir_emit_opts *o, et_writer *w, et_error *e)
{
	uint32_t nr;
	if (rank_count(x, o, &nr, e) < 0)
		return -1;
	xir_sets t;
	int rc = xir_sets_build(&t, x, nr, o->input, e);
	if (rc == 0 && o->groups)
		rc = xir_sets_write_groups(&t, o->groups, e);
	if (rc == 0)
		rc = write_ranks(x, o, &t, nr, w, e);
	xir_sets_free(&t, x->nset);
	return rc;
}
