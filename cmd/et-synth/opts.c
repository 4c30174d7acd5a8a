/* The options every generating subcommand shares. */
#include "synth.h"

#include <stdio.h>
#include <string.h>

void synth_opts_init(synth_opts *o, const char *usage)
{
	memset(o, 0, sizeof *o);
	et_cli_init(&o->cli, "et-synth", usage);
	o->seed = 1;
	o->level = 3;
	/* the second core compresses while the first generates */
	o->threads = 1;
}

bool synth_opt(synth_opts *o, int opt, const char *arg)
{
	if (et_cli_common(&o->cli, opt, arg))
		return true;
	switch (opt) {
	case SO_SEED:
		o->seed = (uint64_t)et_cli_int(&o->cli, "--seed", arg, 0, INT64_MAX);
		return true;
	case 'l':
		o->level = (int)et_cli_int(&o->cli, "--level", arg, 1, 19);
		return true;
	case 'T':
		o->threads = (int)et_cli_int(&o->cli, "--threads", arg, 0, 64);
		return true;
	case SO_NAME:
		if (strlen(arg) > 255)
			et_cli_usage_error(&o->cli, "--name: at most 255 bytes");
		o->name = arg;
		return true;
	case SO_IDS:
		if (strcmp(arg, "global") != 0 && strcmp(arg, "local") != 0)
			et_cli_usage_error(&o->cli, "--ids: expected local or global, got '%s'",
			                   arg);
		o->global_ids = strcmp(arg, "global") == 0;
		return true;
	case SO_WORLD:
		o->world = (uint32_t)et_cli_int(&o->cli, "--world", arg, 1, 1 << 20);
		return true;
	case SO_TO: {
		int k = et_writer_format_parse(arg);
		if (k < 0)
			et_cli_usage_error(
			    &o->cli, "--to: unknown format '%s' (stream, et, json, jsonl)", arg);
		o->to = (et_writer_format)k;
		o->to_given = true;
		return true;
	}
	case SO_SPLIT:
		o->split = arg;
		return true;
	default:
		return false;
	}
}

void synth_opts_finish(synth_opts *o, int argc, char **argv, bool need_world)
{
	if (optind < argc)
		et_cli_usage_error(&o->cli, "unexpected argument '%s'", argv[optind]);
	if (need_world && !o->world)
		et_cli_usage_error(&o->cli, "--world N is required");
	synth_opts_output(o);
}

void synth_opts_output(synth_opts *o)
{
	if (o->split && o->to_given && o->to != ET_WRITER_ET)
		et_cli_usage_error(&o->cli, "--split goes with --to et");
	if (o->split && o->cli.output)
		et_cli_usage_error(&o->cli, "--split and -o exclude each other");
	if (o->split)
		o->to = ET_WRITER_ET;
	/* transform learns the world from its input: et_writer stops it there */
	if (o->to == ET_WRITER_ET && !o->split && o->world > 1)
		et_cli_usage_error(
		    &o->cli, "--to et writes one rank, and --world is %u (use --split PREFIX)",
		    o->world);
}
