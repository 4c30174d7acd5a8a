/* et-viz: pictures of Chakra execution traces. Dependency graphs go through
 * Graphviz (cgraph builds them, gvc lays them out and renders them);
 * timelines are Chrome trace-event JSON for Perfetto, or a small SVG Gantt
 * chart. Big graphs must be cut down with a selection first: above
 * --max-nodes the tool refuses instead of starting a layout that never ends. */
#include "et_cli.h"
#include "et_err.h"
#include "timeline.h"
#include "viz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-viz [OPTIONS] [INPUT...]\n"
    "Draw Chakra execution traces: the dependency graph through Graphviz, or a\n"
    "timeline. INPUT is a stream (.etz), a raw/gzip/zstd .et file, a per-rank set\n"
    "PREFIX (PREFIX.0.et, ...), our JSON or JSONL, or - for stdin (the default).\n"
    "\n"
    "  -T, --format FMT       dot, svg, png or pdf (graphs); json or svg (timelines).\n"
    "                         Default: from -o's extension, else dot (json for\n"
    "                         --timeline)\n"
    "Selection (combined: a node is drawn when it passes all of them):\n"
    "  -r, --rank R           only rank R (same as --ranks R)\n"
    "      --ranks LIST       only these ranks (e.g. 0-3,7)\n"
    "  -a, --around ID        the neighbourhood of node ID, both directions\n"
    "  -d, --depth K          ... up to K dependencies away (default 2)\n"
    "      --hub N            ... not walking through nodes with more than N\n"
    "                         neighbours (default 25; 0 = walk through all)\n"
    "      --ids A-B[,C-D]    nodes whose ids are in these ranges\n"
    "  -m, --match REGEX      nodes whose names match (POSIX extended regex)\n"
    "  -c, --collapse REGEX   fold runs of consecutive matching nodes into one\n"
    "      --critical-path    highlight the longest path by duration\n"
    "      --only-critical-path  draw only that path\n"
    "      --max-nodes N      refuse to draw more than N nodes (default 2000)\n"
    "      --reduce           draw only edges not implied by longer paths (the\n"
    "                         default for svg/png/pdf when the layout would be slow)\n"
    "      --all-edges        never leave implied edges out\n"
    "Look:\n"
    "      --link-collectives join matching collectives and send/recv pairs\n"
    "                         across ranks\n"
    "      --cluster HOW      auto (default), thread, rank or none\n"
    "      --rankdir DIR      TB (default) or LR\n"
    "      --no-legend        leave out the title and legend\n"
    "Timelines:\n"
    "  -t, --timeline         Chrome trace-event JSON (Perfetto, chrome://tracing),\n"
    "                         or with --format svg a Gantt chart\n"
    "  -s, --schedule FILE    events from et-sim --schedule JSON Lines (- = stdin)\n"
    "                         instead of the trace's start/duration times\n"
    "Input:\n"
    "  -f, --from FORMAT      skip sniffing: stream, et, json\n"
    "      --set-rank N       rank of a header-less single-rank input\n"
    "      --max-msg SIZE     per-message size limit (default 256M)\n"
    "  -o, --output FILE      write FILE (atomically) instead of stdout\n"
    "  -q, --quiet            no progress on stderr\n"
    "      --progress         progress on stderr even when it is not a terminal\n"
    "  -h, --help             this help\n"
    "      --version          version\n"
    "\n"
    "Exit status: 0 ok, 2 usage (also: too many nodes without a selection),\n"
    "3 bad input data, 4 I/O or rendering error. See et-viz(1).\n";

enum {
	OPT_RANKS = ET_OPT_FIRST_TOOL,
	OPT_HUB,
	OPT_IDS,
	OPT_CRIT,
	OPT_ONLY_CRIT,
	OPT_MAX_NODES,
	OPT_REDUCE,
	OPT_ALL_EDGES,
	OPT_LINK,
	OPT_CLUSTER,
	OPT_RANKDIR,
	OPT_NO_LEGEND,
	OPT_SET_RANK,
	OPT_MAX_MSG,
};

static const struct option longopts[] = {
    {"format", required_argument, 0, 'T'},
    {"rank", required_argument, 0, 'r'},
    {"ranks", required_argument, 0, OPT_RANKS},
    {"around", required_argument, 0, 'a'},
    {"depth", required_argument, 0, 'd'},
    {"hub", required_argument, 0, OPT_HUB},
    {"ids", required_argument, 0, OPT_IDS},
    {"match", required_argument, 0, 'm'},
    {"collapse", required_argument, 0, 'c'},
    {"critical-path", no_argument, 0, OPT_CRIT},
    {"only-critical-path", no_argument, 0, OPT_ONLY_CRIT},
    {"max-nodes", required_argument, 0, OPT_MAX_NODES},
    {"reduce", no_argument, 0, OPT_REDUCE},
    {"all-edges", no_argument, 0, OPT_ALL_EDGES},
    {"link-collectives", no_argument, 0, OPT_LINK},
    {"cluster", required_argument, 0, OPT_CLUSTER},
    {"rankdir", required_argument, 0, OPT_RANKDIR},
    {"no-legend", no_argument, 0, OPT_NO_LEGEND},
    {"timeline", no_argument, 0, 't'},
    {"schedule", required_argument, 0, 's'},
    {"from", required_argument, 0, 'f'},
    {"set-rank", required_argument, 0, OPT_SET_RANK},
    {"max-msg", required_argument, 0, OPT_MAX_MSG},
    ET_CLI_COMMON_OPTS,
};

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

static void compile(conf *c, regex_t *re, const char *opt, const char *arg)
{
	int r = regcomp(re, arg, REG_EXTENDED | REG_NOSUB);
	if (r != 0) {
		char msg[128];
		regerror(r, re, msg, sizeof msg);
		et_cli_usage_error(&c->cli, "%s: bad regular expression '%s': %s", opt, arg, msg);
	}
}

static void enum_opt(conf *c, int opt, const char *arg)
{
	switch (opt) {
	case 'T':
		c->fmt = fmt_parse(arg);
		if (c->fmt == FMT_AUTO)
			et_cli_usage_error(
			    &c->cli, "--format: expected dot, svg, png, pdf or json, got '%s'",
			    arg);
		break;
	case OPT_CLUSTER: {
		static const char *const names[] = {"auto", "thread", "rank", "none"};
		for (int k = 0; k < 4; k++)
			if (strcmp(arg, names[k]) == 0) {
				c->cluster = (viz_cluster)k;
				return;
			}
		et_cli_usage_error(&c->cli,
		                   "--cluster: expected auto, thread, rank or none, got '%s'", arg);
	}
	case OPT_RANKDIR:
		if (strcmp(arg, "TB") != 0 && strcmp(arg, "LR") != 0)
			et_cli_usage_error(&c->cli, "--rankdir: expected TB or LR, got '%s'", arg);
		c->rankdir = arg;
		break;
	case 'f':
		c->in.format = et_format_parse(arg);
		if ((int)c->in.format < 0 || c->in.format == ET_FMT_AUTO ||
		    c->in.format >= ET_FMT_PYTORCH)
			et_cli_usage_error(&c->cli,
			                   "--from: expected stream, et or json, got '%s' (convert "
			                   "PyTorch traces with et-convert first)",
			                   arg);
		break;
	}
}

static void ranks_opt(conf *c, const char *opt, const char *arg)
{
	et_ranklist_free(&c->ranks);
	if (et_ranklist_parse(&c->ranks, arg) < 0)
		et_cli_usage_error(&c->cli, "%s: expected a list such as 0-3,7, got '%s'", opt,
		                   arg);
}

static void tool_opt(conf *c, int opt, const char *arg)
{
	switch (opt) {
	case 'r':
		ranks_opt(c, "--rank", arg);
		break;
	case OPT_RANKS:
		ranks_opt(c, "--ranks", arg);
		break;
	case 'a':
		c->around = (uint64_t)et_cli_int(&c->cli, "--around", arg, 0, INT64_MAX);
		c->around_set = true;
		break;
	case 'd':
		c->depth = (uint32_t)et_cli_int(&c->cli, "--depth", arg, 0, 1000000);
		break;
	case OPT_HUB:
		c->hub = (uint32_t)et_cli_int(&c->cli, "--hub", arg, 0, UINT32_MAX);
		break;
	case OPT_IDS:
		if (viz_ids_parse(c, arg) < 0)
			et_cli_usage_error(
			    &c->cli, "--ids: expected ranges such as 10-20,42, got '%s'", arg);
		break;
	case 'm':
		c->match = arg;
		compile(c, &c->match_re, "--match", arg);
		break;
	case 'c':
		c->collapse = arg;
		compile(c, &c->collapse_re, "--collapse", arg);
		break;
	case OPT_CRIT:
		c->critical = true;
		break;
	case OPT_ONLY_CRIT:
		c->critical = c->only_critical = true;
		break;
	case OPT_MAX_NODES:
		c->max_nodes = (uint64_t)et_cli_int(&c->cli, "--max-nodes", arg, 1, INT32_MAX);
		break;
	case OPT_REDUCE:
		c->reduce = 1;
		break;
	case OPT_ALL_EDGES:
		c->reduce = -1;
		break;
	case OPT_LINK:
		c->link = true;
		break;
	case OPT_NO_LEGEND:
		c->no_legend = true;
		break;
	case 't':
		c->timeline = true;
		break;
	case 's':
		c->schedule = arg;
		break;
	case OPT_SET_RANK:
		c->in.set_rank = et_cli_int(&c->cli, "--set-rank", arg, 0, UINT32_MAX);
		break;
	case OPT_MAX_MSG:
		c->in.max_msg = et_cli_size(&c->cli, "--max-msg", arg);
		break;
	default:
		enum_opt(c, opt, arg);
	}
}

/* The format -o's extension names, when --format was not given. */
static viz_fmt fmt_from_output(const char *out)
{
	const char *dot = out ? strrchr(out, '.') : NULL;
	return dot && !strchr(dot, '/') ? fmt_parse(dot + 1) : FMT_AUTO;
}

static void check_args(conf *c, int nargs)
{
	if (c->fmt == FMT_AUTO)
		c->fmt = fmt_from_output(c->cli.output);
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
}

static void parse_args(conf *c, int argc, char **argv)
{
	et_cli_init(&c->cli, "et-viz", usage);
	et_input_opts_init(&c->in);
	c->in.ranks = &c->ranks;
	c->depth = 2;
	c->hub = 25;
	c->max_nodes = 2000;
	c->rankdir = "TB";
	int opt;
	while ((opt = getopt_long(argc, argv, "T:r:a:d:m:c:ts:f:" ET_CLI_COMMON_SHORT, longopts,
	                          NULL)) != -1)
		if (!et_cli_common(&c->cli, opt, optarg))
			tool_opt(c, opt, optarg);
	check_args(c, argc - optind);
}

/* Virtual nodes (see reduce.c) that dot lays out in a few seconds; a
 * graph with more than DENSE edges a node tangles whatever its spans. */
#define LAYOUT_BUDGET 30000
#define DENSE 2

/* Leaves implied edges out when asked, or when a layout would be slow. */
static void maybe_reduce(const conf *c, model *m)
{
	bool laid_out = c->fmt != FMT_DOT;
	if (c->reduce < 0 || (c->reduce == 0 && !laid_out))
		return;
	if (c->reduce == 0 && m->ne <= (uint64_t)DENSE * m->nv &&
	    viz_layout_cost(m) <= LAYOUT_BUDGET)
		return;
	uint32_t all = m->ne;
	m->implied = viz_reduce(m);
	if (c->reduce == 0 && m->implied)
		et_warn("drawing %u of %u edges: the other %u are implied by longer paths and "
		        "would make the layout slow (--all-edges draws them)",
		        m->ne, all, m->implied);
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
			r = et_fail(e, ET_EXIT_USAGE,
			            "%u nodes to draw, more than --max-nodes %llu: a picture that "
			            "big is unreadable; select part of the graph with --around ID "
			            "--depth K, --ids A-B, --match REGEX, --collapse REGEX, "
			            "--only-critical-path or --ranks LIST (or raise --max-nodes)",
			            m.nv, (unsigned long long)c->max_nodes);
	}
	if (r == 0) {
		if (m.nv == 0)
			et_warn("no node is selected: the picture is empty");
		viz_edges(&m);
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
	et_ranklist_free(&c->ranks);
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
	int r = c.timeline ? viz_timeline(&c, argc - optind, argv + optind, &e)
	                   : run_graph(&c, argc - optind, argv + optind, &e);
	conf_free(&c);
	if (r < 0) {
		et_err_print(&e);
		return e.code ? e.code : ET_EXIT_DATA;
	}
	return 0;
}
