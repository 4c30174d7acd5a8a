/* --world N: re-target a data-parallel trace. Every output rank q is a copy
 * of the representative rank r with what depends on the world rewritten:
 *  - process groups spanning the old world (ranks [] or 0..W-1) span the
 *    new one (ranks 0..N-1; group_size / pg_size N); other groups are left
 *    as they are, but a collective on one is an error (not data-parallel);
 *  - send/recv peers keep their offset: peer p of r becomes
 *    (q + (p - r) mod W) mod N, so rings and shifts stay rings and shifts;
 *  - comm_size, durations and everything else are copied: data parallelism
 *    replicates the model, so per-rank work and gradient sizes do not
 *    depend on the number of replicas (weak scaling). */
#include "et-synth/xf/xf.h"
#include "et_attr.h"
#include "et_mem.h"
#include "et_pg.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pg_set {
	char **name;
	bool *world;
	size_t n, cap;
} pg_set;

static void on_pg(void *ctx, const pg_info *pi)
{
	pg_set *s = ctx;
	size_t c = s->cap; /* parallel arrays: the same growth */
	ET_GROW(s->name, s->cap, s->n + 1);
	ET_GROW(s->world, c, s->n + 1);
	s->name[s->n] = et_xstrdup(pi->name);
	s->world[s->n++] = pi->whole_world;
}

static int pg_find(const pg_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->name[i], name) == 0)
			return (int)i;
	return -1;
}

typedef int (*node_fn)(void *ctx, et_node *n, et_error *e);

/* Decode each node of the rank in turn. */
static int each_node(const xf_rank *r, et_arena *a, node_fn fn, void *ctx, et_error *e)
{
	size_t pos = 0;
	while (pos < r->nodes.len) {
		uint64_t len;
		int k = et_varint_get(r->nodes.data + pos, r->nodes.len - pos, &len);
		et_node *n = et_node_decode(a, r->nodes.data + pos + k, len);
		int rc = n ? fn(ctx, n, e)
		           : et_fail(e, ET_EXIT_DATA, "rank %u: a node does not parse", r->rank);
		et_arena_reset(a);
		if (rc < 0)
			return -1;
		pos += (size_t)k + len;
	}
	return 0;
}

typedef struct check_ctx {
	const xf_rank *rep;
	uint32_t old_world;
	pg_set pgs;
} check_ctx;

static int collect_pg(void *ctx, et_node *n, et_error *e)
{
	check_ctx *c = ctx;
	(void)e;
	if (xf_is_pg_def(n))
		xf_pg_scan(n->inputs->values, c->old_world, on_pg, &c->pgs);
	return 0;
}

static int check_coll(void *ctx, et_node *n, et_error *e)
{
	check_ctx *c = ctx;
	if (n->type != ET_NODE_COLL)
		return 0;
	const char *pg = et_attr_str(n, "pg_name");
	if (et_pg_is_all(pg))
		return 0;
	int k = pg_find(&c->pgs, pg);
	if (k < 0)
		return et_fail(e, ET_EXIT_DATA,
		               "--world: rank %u node %llu \"%s\": process group \"%s\" is not "
		               "defined in the trace; cannot tell whether it spans the world",
		               c->rep->rank, (unsigned long long)n->id, n->name, pg);
	if (!c->pgs.world[k])
		return et_fail(e, ET_EXIT_DATA,
		               "--world: rank %u node %llu \"%s\" uses process group \"%s\", which "
		               "is not the whole world of %u ranks: only data-parallel traces can "
		               "be re-targeted",
		               c->rep->rank, (unsigned long long)n->id, n->name, pg, c->old_world);
	return 0;
}

int xf_world_check(const xf_opts *x, const xf_rank *rep, uint32_t old_world, et_error *e)
{
	(void)x;
	check_ctx c = {rep, old_world, {0}};
	et_arena *a = et_arena_new();
	int rc = each_node(rep, a, collect_pg, &c, e);
	if (rc == 0)
		rc = each_node(rep, a, check_coll, &c, e);
	et_arena_free(a);
	for (size_t i = 0; i < c.pgs.n; i++)
		free(c.pgs.name[i]);
	free(c.pgs.name);
	free(c.pgs.world);
	return rc;
}

typedef struct emit_ctx {
	const xf_opts *x;
	const xf_rank *rep;
	uint32_t old_world, q;
	emitter *em;
} emit_ctx;

/* The peer's offset from r is signed, so that a ring's "receive from the
 * previous rank" stays that even with 2 ranks, where +1 and -1 are the same
 * rank: sends take offsets in (-W/2, W/2], receives in [-W/2, W/2). */
static int32_t move_peer(const emit_ctx *c, int64_t p, bool recv_side)
{
	int64_t w = c->old_world, n = c->x->world, d = ((p - c->rep->rank) % w + w) % w;
	if (recv_side ? 2 * d >= w : 2 * d > w)
		d -= w;
	return (int32_t)((((int64_t)c->q + d) % n + n) % n);
}

/* The peer is comm_dst of a send and comm_src of a receive (the other
 * one is the rank itself, offset 0). Whatever integer member it came in,
 * it is written back as the int32_val doc/chakra-et.md names. */
static void patch_peer(et_node *n, const char *name, const emit_ctx *c, bool recv)
{
	et_attr *a = (et_attr *)et_attr_find(n, name);
	if (!a || !et_attr_is_int(a))
		return;
	int32_t v = move_peer(c, et_attr_as_i64(a), recv);
	a->value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL;
	a->int32_val = v;
}

static int emit_copy(void *ctx, et_node *n, et_error *e)
{
	emit_ctx *c = ctx;
	char *pg = NULL;
	if (xf_is_pg_def(n)) {
		pg = et_pg_values_resize_world(n->inputs->values, c->old_world, c->x->world);
		n->inputs->values = pg;
	} else if (n->type == ET_NODE_SEND || n->type == ET_NODE_RECV) {
		bool recv = n->type == ET_NODE_RECV;
		patch_peer(n, "comm_src", c, recv);
		patch_peer(n, "comm_dst", c, recv);
	}
	int rc = emit_node(c->em, n, e);
	free(pg);
	return rc;
}

int xf_world_emit(const xf_opts *x, const xf_rank *rep, uint32_t old_world, emitter *em,
                  et_error *e)
{
	emit_ctx c = {x, rep, old_world, 0, em};
	em->world = x->world;
	for (c.q = 0; c.q < x->world; c.q++) {
		if (emit_rank_begin_meta(em, c.q, rep->meta.data, rep->meta.len, e) < 0 ||
		    each_node(rep, em->arena, emit_copy, &c, e) < 0 || emit_rank_end(em, e) < 0)
			return -1;
	}
	return 0;
}
