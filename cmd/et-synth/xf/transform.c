/* et-synth transform: read a stream (or any input et_input reads), edit
 * it, write it (a stream unless --to says otherwise). One rank is held in memory at a time (with
 * --world, only the representative rank). Edits apply in a fixed order: per node
 * --set-comm-type, --scale-compute, --scale-comm, --obfuscate; then per
 * rank --strip-cpu; then --world. */
#include "app/et_app.h"
#include "et-synth/xf/xf.h"
#include "et_attr.h"
#include "et_input.h"
#include "et_types.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth transform [OPTIONS] [INPUT...]\n"
    "Edit a trace: INPUT is a stream, raw/gzip/zstd .et, a per-rank set PREFIX or\n"
    "our JSON/JSONL (default stdin); the output is a stream unless --to says otherwise.\n"
    "\n";

typedef struct xf_conf {
	synth_opts so;
	et_cli_in in;
	xf_opts x;
} xf_conf;

static int opt_factor(et_cli *cli, const et_opt *o, const char *arg)
{
	char name[32];
	snprintf(name, sizeof name, "--%s", o->lng);
	double f = et_cli_double(cli, name, arg);
	if (!(f > 0 && f < 1e9))
		et_cli_usage_error(cli, "%s: expected a positive factor, got '%s'", name, arg);
	*(double *)o->target = f;
	return 0;
}

static int opt_set_type(et_cli *cli, const et_opt *o, const char *arg)
{
	xf_conf *c = o->target;
	const char *eq = strchr(arg, '=');
	char a[64];
	int from = -1, to = -1;
	if (eq && (size_t)(eq - arg) < sizeof a) {
		memcpy(a, arg, (size_t)(eq - arg));
		a[eq - arg] = 0;
		from = et_coll_type_parse(a);
		to = et_coll_type_parse(eq + 1);
	}
	if (from < 0 || to < 0)
		et_cli_usage_error(
		    cli, "--set-comm-type: expected A=B with collective types, got '%s'", arg);
	c->x.ctype_map[from] = (int8_t)to;
	c->x.retype = true;
	return 0;
}

static void parse(xf_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so);
	et_cli_in_init(&c->in, false, ET_IN_WORLD); /* --world re-targets here */
	c->x.scale_compute = c->x.scale_comm = 1;
	c->x.rep_rank = -1;
	for (int i = 0; i < 10; i++)
		c->x.ctype_map[i] = (int8_t)i;
	et_opt opts[] = {
	    ET_OPT_FN(0, "scale-compute", "F",
	              "COMP nodes: duration_micros, num_ops and tensor_size times F",
	              &c->x.scale_compute, .fn = opt_factor),
	    ET_OPT_FN(0, "scale-comm", "F", "COMM nodes: comm_size and duration_micros times F",
	              &c->x.scale_comm, .fn = opt_factor),
	    ET_OPT_FN(0, "set-comm-type", "A=B", "collectives of type A become type B (repeatable)",
	              c, .fn = opt_set_type),
	    SYNTH_OPT_WORLD(&c->so, "re-target a data-parallel trace to N ranks: copies of one "
	                            "rank with process groups and peers rewritten"),
	    ET_OPT_I64(0, "rep-rank", "R", "the rank --world copies (default: the first read)",
	               &c->x.rep_rank, .min = 0, .max = UINT32_MAX),
	    ET_OPT_FLAG(
	        0, "obfuscate",
	        "names -> salted hashes; drop inputs/outputs, op_schema, doc strings and bytes "
	        "attributes",
	        &c->x.obfuscate),
	    ET_OPT_STR(0, "salt", "S", "salt of the --obfuscate hashes (default none)", &c->x.salt),
	    ET_OPT_FLAG(0, "strip-cpu",
	                "remove is_cpu_op nodes, folding them into the dependencies of the others "
	                "(reachability kept)",
	                &c->x.strip_cpu),
	    ET_OPT_HEADING("Input:"),
	    ET_OPTS_INPUT(&c->in),
	    ET_OPT_HEADING("Output:"),
	    ET_OPTS_WRITE(&c->so.out),
	    ET_OPTS_COMMON(&c->so.cli),
	    ET_OPT_END,
	};
	synth_parse(&c->so, "transform", usage, opts, argc, argv, false, true);
	c->x.world = c->so.world;
	c->so.out.w.some_ranks = c->in.ranks.n > 0 && !c->x.world;
	if (c->x.rep_rank >= 0 && !c->x.world)
		et_cli_usage_error(&c->so.cli, "--rep-rank goes with --world");
	if (c->x.salt && !c->x.obfuscate)
		et_cli_usage_error(&c->so.cli, "--salt goes with --obfuscate");
}

/* Read the current rank's messages into r, editing each node. */
static int read_rank(const xf_opts *x, xf_sat *sat, et_input *in, xf_rank *r, et_arena *a,
                     et_error *e)
{
	et_msg m;
	int rc = et_input_next_msg(in, &m, e);
	if (rc <= 0)
		return rc < 0 ? -1
		              : et_fail(e, ET_EXIT_DATA, "rank %u: no GlobalMetadata", r->rank);
	r->meta.len = r->nodes.len = 0;
	r->n_nodes = 0;
	et_buf_append(&r->meta, m.data, m.len);
	bool edit = xf_node_active(x);
	while ((rc = et_input_next_msg(in, &m, e)) == 1) {
		r->n_nodes++;
		if (!edit) {
			et_frame_put(&r->nodes, m.data, m.len);
			continue;
		}
		et_node *n = et_node_decode(a, m.data, m.len);
		if (!n)
			return et_fail(e, ET_EXIT_DATA, "rank %u: byte %llu: node does not parse",
			               r->rank, (unsigned long long)m.offset);
		xf_node(x, sat, a, n);
		et_node_encode(n, &r->nodes);
		et_arena_reset(a);
	}
	return rc < 0 ? -1 : 0;
}

static int emit_rank(emitter *em, const xf_rank *r, et_error *e)
{
	if (emit_rank_begin_meta(em, r->rank, r->meta.data, r->meta.len, e) < 0 ||
	    emit_raw(em, r->nodes.data, r->nodes.len, r->n_nodes, e) < 0)
		return -1;
	return emit_rank_end(em, e);
}

typedef struct run_state {
	et_input *in;
	emitter em;
	et_arena *a;
	xf_rank cur, rep;
	bool have_rep;
	uint32_t old_world;
	char name[256];
	xf_sat sat;
} run_state;

/* Stream header name: --name, else the input's (hashed by --obfuscate,
 * since workload names such as "llama-70b" name the model). */
static void set_name(const xf_conf *c, run_state *s, const char *in_name)
{
	if (c->so.out.w.name)
		return;
	if (c->x.obfuscate && *in_name)
		xf_hash_name(c->x.salt, in_name, s->name);
	else
		snprintf(s->name, sizeof s->name, "%s", in_name);
	s->em.name = s->name;
}

static int one_rank(const xf_conf *c, run_state *s, const et_rank_info *ri, et_error *e)
{
	uint32_t top = ri->world_size > ri->rank ? ri->world_size : ri->rank + 1;
	if (top > s->old_world)
		s->old_world = top;
	bool wanted =
	    !c->x.world || (c->x.rep_rank < 0 ? !s->have_rep : (uint32_t)c->x.rep_rank == ri->rank);
	if (!wanted)
		return 0; /* et_input skips (and checks) the unread messages */
	xf_rank *r = c->x.world ? &s->rep : &s->cur;
	r->rank = ri->rank;
	r->world = ri->world_size;
	set_name(c, s, ri->name);
	s->sat.cur = ri->input;
	if (read_rank(&c->x, &s->sat, s->in, r, s->a, e) < 0)
		return -1;
	if (c->x.strip_cpu && xf_strip_cpu(r, e) < 0)
		return -1;
	if (c->x.world) {
		s->have_rep = true;
		return 0;
	}
	s->em.world = ri->world_size;
	/* same ranks, same world, same pg_names: the same comm groups */
	s->em.groups = ri->groups;
	s->em.groups_len = ri->groups_len;
	return emit_rank(&s->em, r, e);
}

static int run(const xf_conf *c, int argc, char **argv, et_error *e)
{
	run_state s;
	memset(&s, 0, sizeof s);
	if (et_input_open(&s.in, argc, argv, &c->in.o, e) < 0) {
		et_input_close(s.in);
		return -1;
	}
	int rc = emit_open(&s.em, &c->so, "", e);
	s.a = et_arena_new();
	et_rank_info ri;
	int k = 0;
	while (rc == 0 && (k = et_input_next_rank(s.in, &ri, e)) == 1)
		rc = one_rank(c, &s, &ri, e);
	if (rc == 0 && k < 0)
		rc = -1;
	if (rc == 0 && c->x.world && !s.have_rep)
		rc = et_fail(e, ET_EXIT_DATA, "--world: rank %lld is not in the input",
		             (long long)c->x.rep_rank);
	if (rc == 0 && c->x.world)
		rc = xf_world_check(&c->x, &s.rep, s.old_world, e);
	if (rc == 0 && c->x.world)
		rc = xf_world_emit(&c->x, &s.rep, s.old_world, &s.em, e);
	et_input_close(s.in);
	et_arena_free(s.a);
	et_buf_free(&s.cur.meta), et_buf_free(&s.cur.nodes);
	et_buf_free(&s.rep.meta), et_buf_free(&s.rep.nodes);
	if (!s.em.w)
		return -1;
	rc = emit_finish(&s.em, rc, e);
	if (rc == 0)
		xf_sat_warn(&c->x, &s.sat); /* only for output that was written */
	return rc;
}

int cmd_transform(int argc, char **argv)
{
	xf_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	int r = run(&c, c.so.cli.nargs, c.so.cli.args, &e);
	et_cli_in_free(&c.in);
	if (r < 0) {
		return et_app_fail(&e);
	}
	return 0;
}
