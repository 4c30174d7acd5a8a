/* et-viz: pictures of Chakra execution traces. Dependency graphs go through
 * Graphviz (cgraph builds them, gvc lays them out and renders them);
 * timelines are Chrome trace-event JSON for Perfetto, or a small SVG Gantt
 * chart. Big graphs must be cut down with a selection first: above
 * --max-nodes the tool refuses instead of starting a layout that never ends. */
#include "app/et_cli.h"
#include "et-viz/timeline/timeline.h"
#include "et-viz/viz.h"
#include "et_err.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-viz [OPTIONS] [INPUT...]\n"
    "Draw Chakra execution traces: the dependency graph through Graphviz, or a\n"
    "timeline. INPUT is a stream (.etz), a raw/gzip/zstd .et file, a per-rank set\n"
    "PREFIX (PREFIX.0.et, ...), our JSON or JSONL, or - for stdin (the default).\n"
    "\n";

static const char footer[] =
    "Exit status: 0 ok, 2 usage (also: too many nodes without a selection),\n"
    "3 bad input data, 4 I/O or rendering error. See et-viz(1).\n";

static viz_fmt fmt_parse(const char *s)
{
	static const char *const names[] = {"", "dot", "svg", "png", "pdf", "json"};
	for (int k = 1; k < (int)(sizeof names / sizeof *names); k++)
		if (strcmp(s, names[k]) == 0)
			return (viz_fmt)k;
	if (strcmp(s, "gv") == 0)
		return FMT_DOT;
	return FMT_AUTO;
}

static int opt_format(et_cli *cli, const et_opt *o, const char *arg)
{
	conf *c = o->target;
	c->fmt = fmt_parse(arg);
	if (c->fmt == FMT_AUTO)
		et_cli_usage_error(cli, "--format: expected dot, svg, png, pdf or json, got '%s'",
		                   arg);
	return 0;
}

static void compile(const et_cli *cli, regex_t *re, const char *opt, const char *arg)
{
	int r = regcomp(re, arg, REG_EXTENDED | REG_NOSUB);
	if (r != 0) {
		char msg[128];
		regerror(r, re, msg, sizeof msg);
		et_cli_usage_error(cli, "%s: bad regular expression '%s': %s", opt, arg, msg);
	}
}

static int opt_match(et_cli *cli, const et_opt *o, const char *arg)
{
	conf *c = o->target;
	if (c->match)
		regfree(&c->match_re);
	c->match = arg;
	compile(cli, &c->match_re, "--match", arg);
	return 0;
}

static int opt_collapse(et_cli *cli, const et_opt *o, const char *arg)
{
	conf *c = o->target;
	if (c->collapse)
		regfree(&c->collapse_re);
	c->collapse = arg;
	compile(cli, &c->collapse_re, "--collapse", arg);
	return 0;
}

static int opt_rank(et_cli *cli, const et_opt *o, const char *arg)
{
	conf *c = o->target;
	et_ranklist_free(&c->in.ranks);
	if (et_ranklist_parse(&c->in.ranks, arg) < 0)
		et_cli_usage_error(cli, "--rank: expected a list such as 0-3,7, got '%s'", arg);
	return 0;
}

static int opt_around(et_cli *cli, const et_opt *o, const char *arg)
{
	conf *c = o->target;
	c->around = (uint64_t)et_cli_int(cli, "--around", arg, 0, INT64_MAX);
	c->around_set = true;
	return 0;
}

static int opt_ids(et_cli *cli, const et_opt *o, const char *arg)
{
	if (viz_ids_parse(o->target, arg) < 0)
		et_cli_usage_error(cli, "--ids: expected ranges such as 10-20,42, got '%s'", arg);
	return 0;
}

static int opt_only_crit(et_cli *cli, const et_opt *o, const char *arg)
{
	(void)cli, (void)arg;
	conf *c = o->target;
	c->critical = c->only_critical = true;
	return 0;
}

static int opt_rankdir(et_cli *cli, const et_opt *o, const char *arg)
{
	if (strcmp(arg, "TB") != 0 && strcmp(arg, "LR") != 0)
		et_cli_usage_error(cli, "--rankdir: expected TB or LR, got '%s'", arg);
	*(const char **)o->target = arg;
	return 0;
}

static const char *const clusters[] = {"auto", "thread", "rank", "none", NULL};

/* The format -o's extension names (any case: x.SVG is svg); an extension
 * that names none is a usage error, not DOT text in x.jpg. */
static viz_fmt fmt_from_output(const et_cli *cli, const char *out)
{
	const char *dot = out ? strrchr(out, '.') : NULL;
	if (!dot || strchr(dot, '/') || !dot[1])
		return FMT_AUTO;
	char ext[8];
	size_t n = strlen(dot + 1);
	for (size_t i = 0; i < n && i + 1 < sizeof ext; i++)
		ext[i] = (char)tolower((unsigned char)dot[1 + i]);
	ext[n < sizeof ext ? n : sizeof ext - 1] = 0;
	viz_fmt f = n < sizeof ext ? fmt_parse(ext) : FMT_AUTO;
	if (f == FMT_AUTO)
		et_cli_usage_error(cli,
		                   "-o %s: et-viz writes .dot (.gv), .svg, .png, .pdf or .json; "
		                   "give --format FMT to write another name",
		                   out);
	return f;
}

static void check_args(conf *c, int nargs)
{
	if (c->fmt == FMT_AUTO)
		c->fmt = fmt_from_output(&c->cli, c->cli.output);
	if (c->fmt == FMT_AUTO)
		c->fmt = c->timeline ? FMT_JSON : FMT_DOT;
	if (c->timeline && c->fmt != FMT_JSON && c->fmt != FMT_SVG)
		et_cli_usage_error(&c->cli, "--timeline writes json or svg, not %s",
		                   c->fmt == FMT_DOT   ? "dot"
		                   : c->fmt == FMT_PNG ? "png"
		                                       : "pdf");
	if (!c->timeline && c->fmt == FMT_JSON)
		et_cli_usage_error(&c->cli, "json output is for --timeline");
	if (c->schedule && !c->timeline)
		et_cli_usage_error(&c->cli, "--schedule goes with --timeline");
	if (c->schedule && nargs > 0)
		et_cli_usage_error(&c->cli, "--schedule replaces INPUT: give one or the other");
	if (c->timeline && (c->around_set || c->n_ids || c->collapse || c->critical || c->link))
		et_cli_usage_error(&c->cli, "--timeline takes --ranks and --match as selection, "
		                            "not graph options");
	/* what would be taken and dropped (defaults: see parse_args) */
	if (!c->around_set && (c->depth != 2 || c->hub != 25))
		et_warn("--depth and --hub shape --around's neighbourhood; ignored without it");
	if (c->timeline && (c->reduce || c->no_legend || c->cluster != CL_AUTO ||
	                    strcmp(c->rankdir, "TB") != 0 || c->max_nodes != 2000))
		et_warn("--reduce, --all-edges, --no-legend, --cluster, --rankdir and --max-nodes "
		        "shape graphs; ignored with --timeline");
}

/* -T, -t, -c and -s were et-viz's letters before the suite gave them to
 * --threads, --to, --count and --size; they stay as hidden aliases for a
 * release. */
#define DEPRECATED ET_OPT_DEPRECATED
static void parse_args(conf *c, int argc, char **argv)
{
	et_cli_in_init(&c->in, false, 0);
	c->depth = 2;
	c->hub = 25;
	c->max_nodes = 2000;
	c->rankdir = "TB";
	int cluster = CL_AUTO; /* a CHOICE stores an int: the enum is set from it */
	et_opt opts[] = {
	    ET_OPT_FN('F', "format", "FMT",
	              "dot, svg, png or pdf (graphs); json or svg (timelines). Default: from -o's "
	              "extension, else dot (json for --timeline)",
	              c, .fn = opt_format),
	    ET_OPT_FN('T', NULL, "FMT", NULL, c, .fn = opt_format, .flags = DEPRECATED,
	              .alias_of = "format"),
	    ET_OPT_FLAG('t', NULL, NULL, &c->timeline, .flags = DEPRECATED, .alias_of = "timeline"),
	    ET_OPT_FN('c', NULL, "REGEX", NULL, c, .fn = opt_collapse, .flags = DEPRECATED,
	              .alias_of = "collapse"),
	    ET_OPT_STR('s', NULL, "FILE", NULL, &c->schedule, .flags = DEPRECATED,
	               .alias_of = "schedule"),
	    ET_OPT_HEADING("Selection (combined: a node is drawn when it passes all of them):"),
	    ET_OPT_FN('r', "rank", "R", "only rank R (same as --ranks R)", c, .fn = opt_rank),
	    ET_OPT_FN('a', "around", "ID", "the neighbourhood of node ID, both directions", c,
	              .fn = opt_around),
	    ET_OPT_U32('d', "depth", "K", "... up to K dependencies away (default 2)", &c->depth,
	               .min = 0, .max = 1000000),
	    ET_OPT_U32(
	        0, "hub", "N",
	        "... not walking through nodes with more than N neighbours (default 25; 0 = walk "
	        "through all)",
	        &c->hub),
	    ET_OPT_FN(0, "ids", "A-B[,C-D]", "nodes whose ids are in these ranges", c,
	              .fn = opt_ids),
	    ET_OPT_FN('m', "match", "REGEX", "nodes whose names match (POSIX extended regex)", c,
	              .fn = opt_match),
	    ET_OPT_FN('C', "collapse", "REGEX", "fold runs of consecutive matching nodes into one",
	              c, .fn = opt_collapse),
	    ET_OPT_FLAG(0, "critical-path", "highlight the longest path by duration", &c->critical),
	    ET_OPT_FN(0, "only-critical-path", NULL, "draw only that path", c, .fn = opt_only_crit),
	    ET_OPT_U64(0, "max-nodes", "N", "refuse to draw more than N nodes (default 2000)",
	               &c->max_nodes, .min = 1, .max = INT32_MAX),
	    ET_OPT_SET(
	        0, "reduce",
	        "draw only edges not implied by longer paths (the default for svg/png/pdf when the "
	        "layout would be slow)",
	        &c->reduce, .value = 1),
	    ET_OPT_SET(0, "all-edges", "never leave implied edges out", &c->reduce, .value = -1),
	    ET_OPT_HEADING("Look:"),
	    ET_OPT_FLAG(0, "link-collectives",
	                "join matching collectives and send/recv pairs across ranks", &c->link),
	    ET_OPT_CHOICE(0, "cluster", "HOW", "auto (default), thread, rank or none", &cluster,
	                  .choices = clusters),
	    ET_OPT_FN(0, "rankdir", "DIR", "TB (default) or LR", &c->rankdir, .fn = opt_rankdir),
	    ET_OPT_FLAG(0, "no-legend", "leave out the title and legend", &c->no_legend),
	    ET_OPT_HEADING("Timelines:"),
	    ET_OPT_FLAG(0, "timeline",
	                "Chrome trace-event JSON (Perfetto, chrome://tracing), or with --format "
	                "svg a Gantt "
	                "chart",
	                &c->timeline),
	    ET_OPT_STR(
	        'S', "schedule", "FILE",
	        "events from et-sim --schedule JSON Lines (- = stdin) instead of the trace's "
	        "start/duration times",
	        &c->schedule),
	    ET_OPT_HEADING("Input:"),
	    ET_OPTS_INPUT(&c->in),
	    ET_OPTS_COMMON(&c->cli),
	    ET_OPT_END,
	};
	c->cli = (et_cli){.prog = "et-viz", .usage = usage, .footer = footer, .opts = opts};
	et_cli_parse(&c->cli, argc, argv);
	c->cluster = (viz_cluster)cluster;
	c->cli.opts = NULL; /* the table lives on this stack frame */
	check_args(c, c->cli.nargs);
}

/* Virtual nodes (see reduce.c) that dot lays out in a few seconds; a
 * graph with more than DENSE edges a node tangles whatever its spans. */
#define LAYOUT_BUDGET 30000
#define DENSE 2

/* Leaves implied edges out when asked, or when a layout would be slow.
 * Edges through hidden nodes that a drawn path implies are always left
 * out (not counted: they are not the trace's), except with --all-edges. */
static void maybe_reduce(const conf *c, model *m)
{
	if (c->reduce < 0)
		return;
	viz_reduce(m, true);
	bool laid_out = c->fmt != FMT_DOT;
	if (c->reduce == 0 && !laid_out)
		return;
	if (c->reduce == 0 && m->ne <= (uint64_t)DENSE * m->nv &&
	    viz_layout_cost(m) <= LAYOUT_BUDGET)
		return;
	uint32_t all = m->ne;
	m->implied = viz_reduce(m, false);
	if (c->reduce == 0 && m->implied)
		et_warn("drawing %u of %u edges: the other %u are implied by longer paths and "
		        "would make the layout slow (--all-edges draws them)",
		        m->ne, all, m->implied);
}

int viz_too_many(const conf *c, uint64_t n, bool reading, et_error *e)
{
	return et_fail(e, ET_EXIT_USAGE,
	               "%s%llu nodes to draw, more than --max-nodes %llu: a picture that "
	               "big is unreadable; select part of the graph with --around ID "
	               "--depth K, --ids A-B, --match REGEX, --collapse REGEX, "
	               "--only-critical-path or --ranks LIST (or raise --max-nodes)",
	               reading ? "at least " : "", (unsigned long long)n,
	               (unsigned long long)c->max_nodes);
}

static int run_graph(conf *c, int argc, char **argv, et_error *e)
{
	model m;
	memset(&m, 0, sizeof m);
	int r = viz_load(c, argc, argv, &m, e);
	if (r == 0)
		r = viz_select(c, &m, e);
	if (r == 0) {
		viz_collapse(c, &m);
		if (m.nv > c->max_nodes)
			r = viz_too_many(c, m.nv, false, e);
	}
	if (r == 0) {
		if (m.nv == 0)
			et_warn("no node is selected: the picture is empty");
		viz_edges(&m);
		viz_indirect(&m);
		if (c->link)
			viz_links(&m);
		viz_edges_done(&m);
		maybe_reduce(c, &m);
		r = viz_draw(c, &m, e);
	}
	viz_model_free(&m);
	return r;
}

static void conf_free(conf *c)
{
	et_cli_in_free(&c->in);
	free(c->ids);
	if (c->match)
		regfree(&c->match_re);
	if (c->collapse)
		regfree(&c->collapse_re);
}

int main(int argc, char **argv)
{
	conf c;
	memset(&c, 0, sizeof c);
	parse_args(&c, argc, argv);
	et_error e = {0};
	int r = c.timeline ? viz_timeline(&c, c.cli.nargs, c.cli.args, &e)
	                   : run_graph(&c, c.cli.nargs, c.cli.args, &e);
	conf_free(&c);
	if (r < 0) {
		return et_app_fail(&e);
	}
	return 0;
}
