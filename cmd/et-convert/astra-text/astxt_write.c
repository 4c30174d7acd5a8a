/* astxt_write: a text workload's ranks through et_writer. Every rank holds
 * the reference's GlobalMetadata (attributes schema and input_file, no
 * version) and the same graph; only the ids differ, and only with the
 * reference's numbering. */
#include "et-convert/astra-text/astxt.h"
#include "et-convert/astra-text/astxt_plan.h"
#include "et_codec.h"
#include "et_input.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Nodes spliced per et_writer_raw call with the reference's numbering:
 * about 1 MiB, so memory does not grow with the rank. */
enum { CHUNK_NODES = 16384 };

/* The reference's GlobalMetadata: its schema and the input text as it
 * read it. append(m, out) is et_meta_encode or et_meta_pack. */
static void meta_bytes(const astxt *t, void (*append)(const et_meta *, et_buf *), et_buf *out)
{
	et_attr a[2] = {CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__INIT,
	                CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__INIT};
	et_attr *ap[2] = {&a[0], &a[1]};
	a[0].name = (char *)"schema";
	a[0].value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	a[0].string_val = (char *)ASTXT_SCHEMA;
	a[1].name = (char *)"input_file";
	a[1].value_case = CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL;
	a[1].string_val = t->text;
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.n_attr = 2;
	m.attr = ap;
	append(&m, out);
}

static et_rank_info rank_info(const astxt *t, uint32_t rank, uint32_t world)
{
	et_rank_info ri;
	memset(&ri, 0, sizeof ri);
	ri.rank = rank;
	ri.world_size = world;
	snprintf(ri.name, sizeof ri.name, "%s", t->workload);
	ri.input = t->input;
	return ri;
}

/* Refuse what the suite would not read back, or nobody simulates, before
 * any rank is built. */
static int check_size(const astxt *t, const astxt_plan *p, uint32_t world, bool compat, et_error *e)
{
	uint64_t nodes = astxt_plan_nodes(p);
	if (nodes > ET_DEFAULT_MAX_NODES)
		return et_fail(e, ET_EXIT_USAGE,
		               "%s: %" PRIu32 " passes of %" PRIu32 " nodes make %" PRIu64
		               " nodes per rank, more than the %llu the suite reads by default "
		               "(--max-rank-nodes); use fewer passes",
		               t->input, p->passes, p->per_pass, nodes, ET_DEFAULT_MAX_NODES);
	if (nodes * world > ASTXT_MAX_TOTAL)
		return et_fail(e, ET_EXIT_USAGE,
		               "%s: %" PRIu32 " ranks of %" PRIu64 " nodes make %" PRIu64
		               " nodes, more than 2^32; use fewer ranks or passes",
		               t->input, world, nodes, nodes * world);
	et_buf m = {0};
	meta_bytes(t, et_meta_encode, &m);
	/* the last rank has the longest ids */
	uint64_t bytes = m.len + astxt_plan_bytes(p, compat ? nodes * (world - 1) : 0);
	et_buf_free(&m);
	if (bytes > ET_DEFAULT_MAX_RANK_BYTES)
		return et_fail(e, ET_EXIT_USAGE,
		               "%s: %" PRIu64 " bytes per rank, more than the %llu the suite reads "
		               "by default (--max-rank-bytes); use fewer passes",
		               t->input, bytes, ET_DEFAULT_MAX_RANK_BYTES);
	return 0;
}

/* Ids from 0 in every rank: one rank's bytes, written `world` times (the
 * stream output compresses them once). */
static int write_shared(const astxt *t, const astxt_plan *p, uint32_t world, et_writer *w,
                        et_error *e)
{
	et_buf b = {0};
	meta_bytes(t, et_meta_encode, &b);
	uint64_t nodes = astxt_plan_nodes(p);
	astxt_plan_put(p, 0, 0, nodes, &b);
	et_writer_shared s = {b.data, b.len, nodes, {0}};
	int r = 0;
	for (uint32_t rank = 0; rank < world && r == 0; rank++) {
		et_rank_info ri = rank_info(t, rank, world);
		r = et_writer_rank_shared(w, &ri, &s, e);
	}
	et_writer_shared_free(&s);
	et_buf_free(&b);
	return r;
}

/* The reference's numbering: rank r's ids start at r x nodes; each rank's
 * nodes are spliced from the templates with that base, a chunk at a time. */
static int write_compat(const astxt *t, const astxt_plan *p, uint32_t world, et_writer *w,
                        et_error *e)
{
	et_buf meta = {0}, b = {0};
	meta_bytes(t, et_meta_pack, &meta);
	uint64_t nodes = astxt_plan_nodes(p);
	int r = 0;
	for (uint32_t rank = 0; rank < world && r == 0; rank++) {
		et_rank_info ri = rank_info(t, rank, world);
		et_msg m = {meta.data, meta.len, 0, 0};
		r = et_writer_rank_begin(w, &ri, e) < 0 || et_writer_msg(w, &m, e) < 0 ? -1 : 0;
		for (uint64_t k = 0; k < nodes && r == 0; k += CHUNK_NODES) {
			uint64_t to = nodes - k < CHUNK_NODES ? nodes : k + CHUNK_NODES;
			b.len = 0;
			astxt_plan_put(p, (uint64_t)rank * nodes, k, to, &b);
			r = et_writer_raw(w, b.data, b.len, to - k, e);
		}
		if (r == 0)
			r = et_writer_rank_end(w, e);
	}
	et_buf_free(&meta);
	et_buf_free(&b);
	return r;
}

int astxt_write(const astxt *t, uint32_t world, uint32_t passes, bool compat_chakra, et_writer *w,
                et_error *e)
{
	if (world == 0 || passes == 0)
		return et_fail(e, ET_EXIT_USAGE, "%s: the number of %s must be 1 or more", t->input,
		               world == 0 ? "NPUs (--world)" : "passes (--passes)");
	astxt_plan p;
	astxt_plan_build(&p, t, passes);
	int r = check_size(t, &p, world, compat_chakra, e);
	if (r == 0)
		r = compat_chakra ? write_compat(t, &p, world, w, e)
		                  : write_shared(t, &p, world, w, e);
	astxt_plan_free(&p);
	return r;
}
