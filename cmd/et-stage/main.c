/* et-stage: LLM training traces for a model and a parallelism plan. */
#include "app/et_app.h"
#include "et-stage/compat.h"
#include "et-stage/phys.h"
#include "et-stage/stage.h"
#include "et-stage/tpl.h"
#include "et_err.h"
#include "et_rng.h"
#include "et_stream.h"
#include "et_types.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The last stage that holds a selected rank (-1: none). */
static int last_stage(const stage_conf *c, const stage_layout *l)
{
	int last = -1;
	uint64_t per = l->stride[DIM_PP];
	for (uint32_t p = 0; p < l->size[DIM_PP]; p++) {
		if (!c->ranks.n) {
			last = (int)p;
			continue;
		}
		for (int i = 0; i < c->ranks.n; i++) {
			uint64_t lo = c->ranks.ranges[i][0], hi = c->ranks.ranges[i][1];
			if (lo < (p + 1) * per && hi >= p * per)
				last = (int)p;
		}
	}
	return last;
}

/* Class frames (etkit-stream(5), CLASS FRAMES): a stage's class is
 * written before its first rank in each block of B ranks, so that a shard
 * starting at a multiple of B carries what it needs and concatenates to
 * the whole stream. */
typedef struct classes {
	bool on;        /* the output takes classes, and they are wanted */
	uint32_t block; /* B */
	uint64_t *last; /* [stage]: block + 1 of its last class frame, 0 none */
} classes;

/* One rank, as a class rank when the output takes them. */
static int write_one(stage_tpl *t, const stage_layout *l, uint32_t r, et_writer *w,
                     const et_rank_info *ri, classes *cl, et_error *e)
{
	if (cl->on) {
		uint64_t b = r / cl->block + 1;
		bool define = cl->last[t->stage] != b;
		int k = tpl_write_rank_class(t, l, r, w, ri, define, e);
		if (k < 0)
			return -1;
		if (k == 1) {
			cl->last[t->stage] = b;
			return 0;
		}
		cl->on = false; /* this output takes no classes: ranks in full */
	}
	return tpl_write_rank(t, l, r, w, ri, e);
}

/* Every selected rank of stage p. */
static int write_stage(const stage_conf *c, const stage_layout *l, stage_tpl *t, et_writer *w,
                       classes *cl, et_error *e)
{
	uint64_t per = l->stride[DIM_PP];
	et_rank_info ri;
	memset(&ri, 0, sizeof ri);
	ri.world_size = l->world;
	ri.input = "<generated>";
	static const char *const arch[] = {"gpt", "llama", "moe"};
	snprintf(ri.name, sizeof ri.name, "%s", c->model ? c->model : arch[c->arch]);
	/* each rank's section carries its comm groups (etkit-stream(5)) */
	et_sgroups_w gw = {0};
	et_buf rec = {0};
	int rc = 0;
	for (uint64_t r = (uint64_t)t->stage * per; r < (uint64_t)(t->stage + 1) * per && rc == 0;
	     r++) {
		if (!et_ranklist_has(&c->ranks, (uint32_t)r))
			continue;
		ri.rank = (uint32_t)r;
		stage_rank_groups(l, (uint32_t)r, &gw);
		et_sgroups_w_payload(&gw, &rec);
		ri.groups = rec.data;
		ri.groups_len = (uint32_t)rec.len;
		rc = write_one(t, l, (uint32_t)r, w, &ri, cl, e);
	}
	et_sgroups_w_free(&gw);
	et_buf_free(&rec);
	return rc;
}

static void build(sg *g)
{
	if (g->c->compat)
		compat_build(g);
	else
		phys_build(g);
}

/* The quantities of g that their ET fields cannot hold (num_ops and
 * comm_size are int64, tensor_size uint64), the first node of each field:
 * 0, or -1 with msg filled. */
static int stage_fits(const sg *g, char *msg, size_t cap)
{
	static const char *const field[] = {"num_ops", "comm_size", "tensor_size"};
	const long double max[] = {9223372036854775807.0L, 9223372036854775807.0L,
	                           18446744073709551615.0L};
	long first[3] = {-1, -1, -1};
	long double val[3] = {0};
	for (size_t i = 0; i < g->nn; i++) {
		const sg_node *n = &g->n[i];
		bool comp = n->type == ET_NODE_COMP, sized = comp || et_node_is_mem(n->type);
		int f = sized ? 2 : 1;
		if (comp && n->ops > max[0] && first[0] < 0)
			first[0] = (long)i, val[0] = n->ops;
		if (n->size > max[f] && first[f] < 0)
			first[f] = (long)i, val[f] = n->size;
	}
	size_t at = (size_t)snprintf(msg, cap, "stage %d:", g->stage);
	bool any = false;
	for (int f = 0; f < 3 && at < cap; f++)
		if (first[f] >= 0) {
			at += (size_t)snprintf(msg + at, cap - at,
			                       "%s %s %.4Lg of node %s does not fit (at most "
			                       "%.0Lf)",
			                       any ? ";" : "", field[f], val[f],
			                       g->n[first[f]].name, max[f]);
			any = true;
		}
	return any ? -1 : 0;
}

/* Refuses (exit 2) a plan with a quantity too large for its field, before
 * anything is written: a wrapped or saturated value would read as a wrong
 * number (a num_ops of -1). Each stage's graph is built once more for it;
 * in training the graph of a few micro-batches has every quantity of the
 * whole step (none depends on their number): one (pp with interleaved,
 * which needs a multiple of pp). Every stage, whatever --ranks selects, so
 * that the shards of a plan are all refused or all written. */
static void check_fits(const stage_conf *c, const stage_layout *l)
{
	stage_conf probe = *c;
	if (!c->compat && c->mode == MODE_TRAIN) {
		uint64_t n = c->schedule == SCHED_INTERLEAVED ? c->dim[DIM_PP] : 1;
		if (probe.B / probe.MB > n)
			probe.B = probe.MB * n;
	}
	char msg[512];
	for (int p = 0; p < (int)l->size[DIM_PP]; p++) {
		sg g;
		sg_init(&g, &probe, l, p, 0);
		build(&g);
		int r = stage_fits(&g, msg, sizeof msg);
		sg_free(&g);
		if (r < 0)
			et_cli_usage_error(&c->cli, "%s", msg);
	}
}

/* The ranks, through the writer (committed by et_writer_finish). */
static int write_ranks(stage_conf *c, const stage_layout *l, et_error *e)
{
	int last = last_stage(c, l);
	et_writer *w;
	c->out.w.world = l->world;
	c->out.w.some_ranks = c->ranks.n > 0;
	if (et_writer_open(&w, &c->out.w, e) < 0)
		return -1;
	et_rng rng;
	et_rng_seed(&rng, c->seed, 0);
	int32_t tag_base = (int32_t)et_rng_below(&rng, 1u << 20);
	uint64_t first_id = 0;
	int r = 0;
	uint32_t pp = l->size[DIM_PP];
	classes cl = {.on = !c->no_classes && c->out.w.format == ET_WRITER_STREAM &&
	                    pp <= ET_STREAM_CLASS_IDS,
	              .block = c->class_block ? c->class_block : (l->world + 63) / 64,
	              .last = et_xcalloc(pp, sizeof *cl.last)};
	for (int p = 0; p <= last && r == 0; p++) {
		sg g;
		sg_init(&g, c, l, p, tag_base);
		build(&g);
		stage_tpl t;
		tpl_build(&t, &g, first_id);
		first_id += g.nn;
		sg_free(&g);
		r = write_stage(c, l, &t, w, &cl, e);
		tpl_free(&t);
	}
	free(cl.last);
	return et_writer_finish(w, r, e);
}

/* Whether path names a file that et_output puts in place by renaming (a
 * regular file or nothing yet), not stdout, a device or a pipe. */
static bool is_file(const char *path)
{
	struct stat st;
	return path && strcmp(path, "-") != 0 && (stat(path, &st) != 0 || S_ISREG(st.st_mode));
}

/* The output set, whole or not at all. When the ranks are files (-o FILE,
 * --split, --output_dir), the comm groups are written to a temporary file
 * first and put in place only after the ranks are; a failure removes them
 * (a signal or et_die too: et_output), and the folder of --output_dir if
 * this run made it and it is empty. When the ranks are a stream, the comm
 * groups are in place before the first rank, for a reader of the stream
 * (et-validate --comm-groups in the same pipeline), and removed again if
 * the run fails (not when a signal ends it). */
static int run(stage_conf *c, const stage_layout *l, et_error *e)
{
	bool made = false;
	/* STAGE creates its output folder; so do we (not its parents) */
	if (c->output_dir) {
		made = mkdir(c->output_dir, 0777) == 0;
		if (!made && errno != EEXIST)
			return et_fail(e, ET_EXIT_IO, "%s: cannot create the folder: %s",
			               c->output_dir, strerror(errno));
	}
	bool stream = !c->out.w.split && !is_file(c->out.w.path);
	bool unlink_groups = stream && is_file(c->comm_groups);
	et_output *groups = NULL;
	int r = c->comm_groups ? stage_write_groups(l, c->comm_groups, &groups, e) : 0;
	if (r == 0 && stream && groups) {
		r = et_output_commit(groups, e); /* removes it on failure */
		groups = NULL;
	} else {
		unlink_groups = false;
	}
	if (r == 0)
		r = write_ranks(c, l, e);
	if (r == 0 && groups)
		r = et_output_commit(groups, e);
	else
		et_output_abort(groups);
	if (r < 0 && unlink_groups)
		unlink(c->comm_groups);
	if (r < 0 && made)
		rmdir(c->output_dir);
	return r;
}

int main(int argc, char **argv)
{
	et_app_init("et-stage");
	stage_conf c;
	stage_parse(&c, argc, argv);
	stage_layout l;
	char msg[128];
	if (stage_layout_init(&l, &c, msg, sizeof msg) < 0)
		et_cli_usage_error(&c.cli, "the plan has %s", msg);
	if (c.world && c.world != l.world)
		et_cli_usage_error(
		    &c.cli, "--world %" PRIu32 ": the plan has %" PRIu32 " ranks (dp·tp·cp·ep·pp)",
		    c.world, l.world);
	if (last_stage(&c, &l) < 0)
		et_cli_usage_error(&c.cli, "--ranks: no rank of the %" PRIu32 " matches", l.world);
	check_fits(&c, &l);
	c.out.w.et_hint = "--split PREFIX, or --ranks N";
	et_error e = {0};
	int r = run(&c, &l, &e);
	stage_conf_free(&c);
	if (r < 0) {
		return et_app_fail(&e);
	}
	return 0;
}
