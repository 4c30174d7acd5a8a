/* The emitter: the generators' ranks through et_writer, in the format of
 * --to. It adds what every generator shares: the rank header from --world
 * and the workload name, the GlobalMetadata of a version, and the arena
 * nodes are built in. */
#include "app/et_app.h"
#include "et-synth/synth.h"

#include <stdio.h>
#include <string.h>

int emit_open(emitter *em, const synth_opts *o, const char *name, et_error *e)
{
	memset(em, 0, sizeof *em);
	if (et_writer_open(&em->w, &o->out.w, e) < 0)
		return -1;
	em->arena = et_arena_new();
	em->world = o->world;
	em->name = o->out.w.name ? o->out.w.name : name;
	return 0;
}

/* The header of the next rank: em's world size and name. */
static void rank_info(const emitter *em, uint32_t rank, et_rank_info *ri)
{
	memset(ri, 0, sizeof *ri);
	ri->rank = rank;
	ri->world_size = em->world;
	snprintf(ri->name, sizeof ri->name, "%s", em->name);
	ri->input = "<generated>";
	ri->groups = em->groups;
	ri->groups_len = em->groups_len;
}

int emit_rank_begin(emitter *em, uint32_t rank, const char *version, et_error *e)
{
	et_meta m = CHAKRA_PROTO_MSG__GLOBAL_METADATA__INIT;
	m.version = (char *)version;
	et_buf b = {0};
	et_meta_pack(&m, &b);
	int r = emit_rank_begin_meta(em, rank, b.data, b.len, e);
	et_buf_free(&b);
	return r;
}

int emit_rank_begin_meta(emitter *em, uint32_t rank, const void *meta, size_t n, et_error *e)
{
	et_rank_info ri;
	rank_info(em, rank, &ri);
	if (et_writer_rank_begin(em->w, &ri, e) < 0)
		return -1;
	et_msg m = {meta, n, 0, 0};
	return et_writer_msg(em->w, &m, e);
}

int emit_node(emitter *em, const et_node *n, et_error *e)
{
	int r = et_writer_node(em->w, n, e);
	et_arena_reset(em->arena);
	return r;
}

int emit_raw(emitter *em, const void *p, size_t n, uint64_t count, et_error *e)
{
	return et_writer_raw(em->w, p, n, count, e);
}

int emit_rank_end(emitter *em, et_error *e)
{
	return et_writer_rank_end(em->w, e);
}

int emit_shared_rank(emitter *em, uint32_t rank, et_writer_shared *s, et_error *e)
{
	et_rank_info ri;
	rank_info(em, rank, &ri);
	return et_writer_rank_shared(em->w, &ri, s, e);
}

int emit_finish(emitter *em, int r, et_error *e)
{
	r = et_writer_finish(em->w, r, e);
	et_arena_free(em->arena);
	memset(em, 0, sizeof *em);
	return r;
}

int synth_exit(int r, const et_error *e)
{
	if (r == 0)
		return 0;
	return et_app_fail(e);
}
