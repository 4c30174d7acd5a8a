/* The options every generating subcommand shares, and parsing a
 * subcommand's table. */
#include "et-synth/synth.h"
#include "et_err.h"
#include "et_types.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char footer[] =
    "Exit status: 0 ok, 2 usage, 3 bad input data, 4 I/O error. See et-synth(1).\n";

void synth_opts_init(synth_opts *o)
{
	memset(o, 0, sizeof *o);
	et_cli_out_init(&o->out, NULL);
	o->out.w.threads = 1;
	o->seed = UINT64_MAX; /* not given: 1 */
}

int synth_opt_ids(et_cli *c, const et_opt *opt, const char *arg)
{
	synth_opts *o = opt->target;
	if (strcmp(arg, "global") != 0 && strcmp(arg, "local") != 0)
		et_cli_usage_error(c, "--ids: expected local or global, got '%s'", arg);
	o->global_ids = strcmp(arg, "global") == 0;
	return 0;
}

int synth_opt_coll(et_cli *c, const et_opt *o, const char *arg)
{
	int *ctype = o->target;
	*ctype = et_coll_type_parse(arg);
	/* REDUCE_SCATTER_BLOCK: nothing consumes it (doc/astra-sim.md) */
	if (*ctype < 0 || *ctype == ET_COLL_REDUCE_SCATTER_BLOCK)
		et_cli_usage_error(c, "--%s: unknown collective '%s'", o->lng ? o->lng : "type",
		                   arg);
	return 0;
}

int synth_opt_size(et_cli *c, const et_opt *o, const char *arg)
{
	char name[32];
	snprintf(name, sizeof name, "--%s", o->lng ? o->lng : "size");
	*(int64_t *)o->target = (int64_t)et_cli_size(c, name, arg);
	return 0;
}

const et_opt *synth_opts_table(synth_opts *o)
{
	static et_opt t[4];
	et_opt v[] = {
	    ET_OPT_U64(0, "seed", "N", "random seed (default 1); same seed, same output", &o->seed,
	               .min = 0, .max = INT64_MAX),
	    ET_OPTS_WRITE(&o->out),
	    ET_OPTS_COMMON(&o->cli),
	    ET_OPT_END,
	};
	memcpy(t, v, sizeof v);
	return t;
}

void synth_parse(synth_opts *o, const char *sub, const char *usage, const et_opt *opts, int argc,
                 char **argv, bool need_world, bool operands)
{
	static char prog[64];
	snprintf(prog, sizeof prog, "et-synth %s", sub);
	o->cli = (et_cli){.prog = prog, .usage = usage, .footer = footer, .opts = opts};
	et_cli_parse(&o->cli, argc, argv);
	o->cli.opts = NULL; /* the caller's table may live on its stack */
	if (!operands && o->cli.nargs > 0)
		et_cli_usage_error(&o->cli, "unexpected argument '%s'", o->cli.args[0]);
	if (need_world && !o->world)
		et_cli_usage_error(&o->cli, "--world N is required");
	/* only dag draws at random: elsewhere a seed would be taken and dropped */
	if (o->seed != UINT64_MAX && strcmp(sub, "dag") != 0)
		et_warn("--seed: et-synth %s draws nothing at random; ignored", sub);
	if (o->seed == UINT64_MAX)
		o->seed = 1;
	et_cli_out_finish(&o->cli, &o->out);
	synth_opts_output(o);
}

void synth_opts_output(synth_opts *o)
{
	/* transform learns the world from its input: et_writer stops it there */
	if (o->out.w.format == ET_WRITER_ET && !o->out.w.split && o->world > 1)
		et_cli_usage_error(
		    &o->cli, "--to et writes one rank, and --world is %u (use --split PREFIX)",
		    o->world);
}
