/* et-sim: simulate a Chakra workload with ASTRA-sim's analytical
 * (congestion-unaware) model, to the nanosecond, and answer what users ask
 * of it: where the time goes, what the critical path is, what if. */
#include "et_cli.h"
#include "et_err.h"
#include "et_input.h"
#include "et_output.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-sim [OPTIONS] [INPUT]\n"
    "Simulate a workload (a stream, an ASTRA-sim per-rank set PREFIX -> PREFIX.N.et, or\n"
    "- for stdin) with ASTRA-sim's analytical congestion-unaware network model.\n"
    "\n"
    "Configuration (ASTRA-sim's files; every key can also be --set):\n"
    "      --network FILE      network YAML (topology, npus_count, bandwidth, latency)\n"
    "      --system FILE       system JSON (scheduling-policy, endpoint-delay, ...)\n"
    "      --comm-groups FILE  comm-group JSON {\"<id>\": [rank, ...]}\n"
    "      --set KEY=VALUE     set one key (lists: 100,50 or 100/50); repeatable\n"
    "      --compute-model M   replay (default), roofline or systolic\n"
    "      --simulate-collectives  simulate BROADCAST instead of replaying it\n"
    "      --no-closed-form    price every collective phase message by message\n"
    "      --no-fold           simulate every rank even when ranks are identical\n"
    "Output:\n"
    "      --format FMT        text (default) or json\n"
    "      --astra-sim-log     print ASTRA-sim's 'sys[N] finished' lines\n"
    "      --schedule FILE     every node's start/end per rank (JSON Lines)\n"
    "      --trace FILE        Chrome trace-event JSON\n"
    "      --critical-path     the chain of nodes that sets the iteration time\n"
    "      --sweep KEY=V1,V2   run every combination of values; print a CSV table\n"
    "                          (repeatable; list values inside a point use '/')\n"
    "  -f, --from FORMAT       skip sniffing: stream, et, json\n"
    "  -o, --output FILE       write the report to FILE (default: stdout)\n"
    "  -q, --quiet             no progress or warnings on stderr\n"
    "      --progress          progress on stderr even when it is not a terminal\n"
    "  -h, --help              this help\n"
    "      --version           version\n"
    "\n"
    "Exit status: 0 simulated, 1 deadlock, 2 usage or configuration error, 3 bad\n"
    "trace data, 4 I/O error. See et-sim(1) for the model and its defaults.\n";

enum {
	OPT_NETWORK = ET_OPT_FIRST_TOOL,
	OPT_SYSTEM,
	OPT_GROUPS,
	OPT_SET,
	OPT_CMODEL,
	OPT_SIMCOLL,
	OPT_NOCF,
	OPT_NOFOLD,
	OPT_FORMAT,
	OPT_ASTRA,
	OPT_SCHEDULE,
	OPT_TRACE,
	OPT_CRIT,
	OPT_SWEEP,
};

static const struct option longopts[] = {
    {"network", required_argument, 0, OPT_NETWORK},
    {"system", required_argument, 0, OPT_SYSTEM},
    {"comm-groups", required_argument, 0, OPT_GROUPS},
    {"set", required_argument, 0, OPT_SET},
    {"compute-model", required_argument, 0, OPT_CMODEL},
    {"simulate-collectives", no_argument, 0, OPT_SIMCOLL},
    {"no-closed-form", no_argument, 0, OPT_NOCF},
    {"no-fold", no_argument, 0, OPT_NOFOLD},
    {"format", required_argument, 0, OPT_FORMAT},
    {"astra-sim-log", no_argument, 0, OPT_ASTRA},
    {"schedule", required_argument, 0, OPT_SCHEDULE},
    {"trace", required_argument, 0, OPT_TRACE},
    {"critical-path", no_argument, 0, OPT_CRIT},
    {"sweep", required_argument, 0, OPT_SWEEP},
    {"from", required_argument, 0, 'f'},
    ET_CLI_COMMON_OPTS,
};

static void add_str(const char ***v, int *n, const char *s)
{
	*v = realloc(*v, (size_t)(*n + 1) * sizeof **v);
	if (!*v)
		et_die(ET_EXIT_IO, "out of memory");
	(*v)[(*n)++] = s;
}

static void tool_opt(run_conf *c, et_cli *cli, int opt, const char *arg)
{
	switch (opt) {
	case OPT_NETWORK:
		c->network = arg;
		break;
	case OPT_SYSTEM:
		c->system = arg;
		break;
	case OPT_GROUPS:
		c->groups = arg;
		break;
	case OPT_SET:
		add_str(&c->sets, &c->nsets, arg);
		break;
	case OPT_CMODEL:
		c->cmodel = arg;
		break;
	case OPT_SIMCOLL:
		add_str(&c->sets, &c->nsets, "simulate-collectives=1");
		break;
	case OPT_NOCF:
		c->op.closed_form = false;
		break;
	case OPT_NOFOLD:
		c->no_fold = true;
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "json") == 0)
			c->json = true;
		else if (strcmp(arg, "text") != 0)
			et_cli_usage_error(cli, "--format: expected text or json, got '%s'", arg);
		break;
	case OPT_ASTRA:
		c->astra = true;
		break;
	case OPT_SCHEDULE:
		c->schedule = arg;
		break;
	case OPT_TRACE:
		c->trace = arg;
		break;
	case OPT_CRIT:
		c->crit = true;
		break;
	case OPT_SWEEP:
		add_str(&c->sweeps, &c->nsweeps, arg);
		break;
	case 'f':
		c->in.format = et_format_parse(arg);
		if ((int)c->in.format < 0 || c->in.format == ET_FMT_AUTO)
			et_cli_usage_error(cli, "--from: unknown format '%s'", arg);
		break;
	default:
		et_cli_usage_error(cli, "unhandled option");
	}
}

int main(int argc, char **argv)
{
	et_err_set_prog("et-sim");
	et_cli cli;
	et_cli_init(&cli, "et-sim", usage);
	run_conf c;
	memset(&c, 0, sizeof c);
	et_input_opts_init(&c.in);
	c.op.closed_form = true;
	int opt;
	while ((opt = getopt_long(argc, argv, "f:" ET_CLI_COMMON_SHORT, longopts, NULL)) != -1)
		if (!et_cli_common(&cli, opt, optarg))
			tool_opt(&c, &cli, opt, optarg);
	if (argc - optind > 1)
		et_cli_usage_error(&cli, "one INPUT at most (a stream or a per-rank set PREFIX)");
	c.output = cli.output;
	c.progress = cli.progress;
	int rc = run_main(&c, argc - optind, argv + optind);
	free(c.sets);
	free(c.sweeps);
	return rc;
}
