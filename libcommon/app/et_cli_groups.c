/* et_cli: the option groups the suite shares. Each is declared and worded
 * once here; a command binds a group to its own storage when it builds its
 * table (one table per process, so each group is one static array). */
#include "app/et_cli.h"
#include "app/et_cli_int.h"
#include "et_err.h"
#include "et_output.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- common: help, version, output, progress ------------------------------- */

void et_cli_exit_printed(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		exit(ET_EXIT_OK);
	et_error e;
	et_write_failed(et_output_stdout_name(), &e);
	exit(et_app_fail(&e));
}

static int show_help(et_cli *c, const et_opt *o, const char *arg)
{
	(void)o, (void)arg;
	et_cli_print_help(c, stdout);
	et_cli_exit_printed();
}

static int show_table(et_cli *c, const et_opt *o, const char *arg)
{
	(void)arg;
	et_cli_print_table(c, stdout, strcmp(o->lng, "help-table-all") == 0);
	et_cli_exit_printed();
}

static int show_version(et_cli *c, const et_opt *o, const char *arg)
{
	(void)o, (void)arg;
	const char *sp = strchr(c->prog, ' '); /* "et-synth coll": the program's name */
	printf("%.*s (etkit) %s\n", sp ? (int)(sp - c->prog) : (int)strlen(c->prog), c->prog,
	       ETKIT_VERSION);
	et_cli_exit_printed();
}

#define SH ET_OPT_SHARED

const et_opt *et_cli_common_opts(et_cli *c, bool output)
{
	static et_opt t[10];
	et_opt v[] = {
	    ET_OPT_STR('o', "output", "FILE", "write FILE (atomically) instead of stdout",
	               &c->output, .flags = SH),
	    ET_OPT_SET('q', "quiet", "no progress on stderr", &c->progress, .value = -1,
	               .flags = SH),
	    ET_OPT_SET(0, "progress", "progress on stderr even when it is not a terminal",
	               &c->progress, .value = 1, .flags = SH),
	    ET_OPT_FN('h', "help", NULL, "this help", NULL, .fn = show_help, .flags = SH),
	    ET_OPT_FN(0, "version", NULL, "version", NULL, .fn = show_version, .flags = SH),
	    ET_OPT_FN(0, "help-table", NULL, NULL, NULL, .fn = show_table, .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "help-table-all", NULL, NULL, NULL, .fn = show_table,
	              .flags = ET_OPT_HIDDEN),
	    ET_OPT_END,
	};
	memcpy(t, v, sizeof v);
	return output ? t : t + 1;
}

/* --- input ------------------------------------------------------------------ */

void et_cli_in_init(et_cli_in *in, bool reads_foreign, unsigned omit)
{
	memset(in, 0, sizeof *in);
	et_input_opts_init(&in->o);
	in->o.ranks = &in->ranks;
	in->reads_foreign = reads_foreign;
	in->omit = omit;
}

void et_cli_in_free(et_cli_in *in)
{
	et_ranklist_free(&in->ranks);
}

/* One list of formats and one answer for the ones a command cannot read. */
static int parse_from(et_cli *c, const et_opt *o, const char *arg)
{
	et_cli_in *in = o->target;
	et_format f = strcmp(arg, "jsonl") == 0 ? ET_FMT_JSON : et_format_parse(arg);
	if (f == ET_FMT_KINETO)
		et_cli_usage_error(c, "--from kineto: a Kineto trace is read with its host trace: "
		                      "et-convert --from pytorch HOST.json --kineto KINETO.json");
	bool foreign = (int)f >= 0 && (f == ET_FMT_PYTORCH || f >= ET_FMT_HLO);
	if (foreign && !in->reads_foreign)
		et_cli_usage_error(
		    c,
		    "--from %s: %s are read by et-convert; "
		    "convert first: et-convert --from %s FILE | %s",
		    arg, f == ET_FMT_PYTORCH ? "PyTorch host traces" : "compiler programs", arg,
		    c->prog);
	if ((int)f < 0 || f == ET_FMT_AUTO)
		et_cli_usage_error(c,
		                   "--from: expected stream, et, json, pytorch, hlo, stablehlo or "
		                   "astra-text, got '%s'",
		                   arg);
	in->o.format = f;
	return 0;
}

static int parse_ranks(et_cli *c, const et_opt *o, const char *arg)
{
	et_cli_in *in = o->target;
	et_ranklist_free(&in->ranks);
	if (et_ranklist_parse(&in->ranks, arg) < 0)
		et_cli_usage_error(c, "--%s: expected a list such as 0-3,7, got '%s'", o->lng, arg);
	return 0;
}

const et_opt *et_cli_input_opts(et_cli_in *in)
{
	static et_opt t[10];
	et_opt all[] = {
	    ET_OPT_FN(
	        'f', "from", "FORMAT",
	        "read INPUT as FORMAT instead of sniffing it: stream, et, json (also JSONL) or "
	        "pytorch",
	        in, .fn = parse_from, .flags = SH),
	    ET_OPT_FN(0, "ranks", "LIST", "only these ranks (e.g. 0-3,7)", in, .fn = parse_ranks,
	              .flags = SH),
	    ET_OPT_I64(0, "set-rank", "N", "rank of a header-less single-rank input",
	               &in->o.set_rank, .min = 0, .max = ET_MAX_WORLD - 1, .flags = SH),
	    ET_OPT_U32(0, "world", "N",
	               "the world size: a per-rank set PREFIX must then have N files", &in->o.world,
	               .min = 1, .max = ET_MAX_WORLD, .flags = SH),
	    ET_OPT_SIZE(0, "max-msg", "SIZE", "per-message size limit (default 256M)",
	                &in->o.max_msg, .flags = SH),
	    ET_OPT_SIZE(0, "max-rank-nodes", "N",
	                "refuse a rank of more than N nodes (default 4M, i.e. 4194304)",
	                &in->o.max_nodes, .flags = SH),
	    ET_OPT_SIZE(0, "max-rank-bytes", "SIZE",
	                "refuse a rank of more than SIZE ET bytes (default 2G)",
	                &in->o.max_rank_bytes, .flags = SH),
	};
	static const unsigned bit[] = {
	    0, ET_IN_RANKS, ET_IN_SET_RANK, ET_IN_WORLD, ET_IN_LIMITS, ET_IN_LIMITS, ET_IN_LIMITS};
	size_t n = 0;
	for (size_t i = 0; i < sizeof all / sizeof *all; i++)
		if (!(in->omit & bit[i]))
			t[n++] = all[i];
	t[n] = (et_opt)ET_OPT_END;
	return t;
}

/* --- output ----------------------------------------------------------------- */

void et_cli_out_init(et_cli_out *o, const et_writer_layout *custom)
{
	memset(o, 0, sizeof *o);
	et_writer_cfg_init(&o->w);
	o->custom = custom;
}

static int parse_name(et_cli *c, const et_opt *o, const char *arg)
{
	if (strlen(arg) > 255)
		et_cli_usage_error(c, "--name: at most 255 bytes");
	*(const char **)o->target = arg;
	return 0;
}

static int parse_to(et_cli *c, const et_opt *o, const char *arg)
{
	et_cli_out *out = o->target;
	int k = et_writer_format_parse(arg);
	if (k < 0 && out->custom && strcmp(arg, out->custom->name) == 0)
		k = ET_WRITER_LAYOUT;
	if (k < 0)
		et_cli_usage_error(c, "--to: expected stream, et, json%s or %s, got '%s'",
		                   out->custom ? ", jsonl" : "",
		                   out->custom ? out->custom->name : "jsonl", arg);
	out->w.format = (et_writer_format)k;
	out->w.layout = k == ET_WRITER_LAYOUT ? out->custom : NULL;
	out->to_given = true;
	return 0;
}

/* --level and --threads: stored as ET_ARG_INT would, and noted as given
 * (they mean nothing to a format without zstd). */
static int parse_zstd(et_cli *c, const et_opt *o, const char *arg)
{
	et_cli_out *out = o->target;
	bool level = strcmp(o->lng, "level") == 0;
	int v = (int)et_cli_int(c, level ? "--level" : "--threads", arg, level ? 1 : 0,
	                        level ? 19 : 64);
	*(level ? &out->w.level : &out->w.threads) = v;
	out->zstd_given = true;
	return 0;
}

const et_opt *et_cli_write_opts(et_cli_out *o)
{
	static et_opt t[10];
	static char to_help[160];
	snprintf(to_help, sizeof to_help,
	         "stream (default), et (raw ET: one rank, or per rank with --split), json or "
	         "jsonl%s%s",
	         o->custom ? "; also " : "", o->custom ? o->custom->name : "");
	et_opt v[] = {
	    ET_OPT_FN('t', "to", "FORMAT", to_help, o, .fn = parse_to, .flags = o->custom ? 0 : SH),
	    ET_OPT_STR(0, "split", "PREFIX",
	               "one raw ET per rank, PREFIX.<rank>.et (implies --to et)", &o->w.split,
	               .flags = SH),
	    ET_OPT_FN(0, "name", "NAME", "workload name written to stream headers", &o->w.name,
	              .fn = parse_name, .flags = SH),
	    ET_OPT_FN('l', "level", "N", "zstd level of stream output (1-19, default 3)", o,
	              .fn = parse_zstd, .flags = SH),
	    ET_OPT_FN('T', "threads", "N", "zstd worker threads (0: compress inline)", o,
	              .fn = parse_zstd, .flags = SH),
	    ET_OPT_FLAG(0, "all-fields",
	                "json, jsonl: write every node field, defaults too (\"id\": 0)",
	                &o->w.all_fields, .flags = SH),
	    ET_OPT_END,
	};
	memcpy(t, v, sizeof v);
	return t;
}

void et_cli_out_finish(const et_cli *c, et_cli_out *o)
{
	if (o->w.split && o->to_given && o->w.format != ET_WRITER_ET)
		et_cli_usage_error(c, "--split goes with --to et");
	if (o->w.split && c->output)
		et_cli_usage_error(c, "--split and -o exclude each other");
	if (o->w.all_fields && o->w.format != ET_WRITER_JSON && o->w.format != ET_WRITER_JSONL)
		et_cli_usage_error(c, "--all-fields goes with --to json or --to jsonl");
	if (o->w.split)
		o->w.format = ET_WRITER_ET;
	/* accepted, but nothing to apply them to: say so rather than drop them */
	if (o->zstd_given && o->w.format != ET_WRITER_STREAM)
		et_warn("--level and --threads are for the stream format (--to stream); ignored");
	if (o->w.name && o->w.format == ET_WRITER_ET)
		et_warn("--name: a raw ET has no header to write it in; ignored");
	o->w.path = c->output;
	o->w.progress = c->progress;
}
