/* et-sim: simulate a Chakra workload with ASTRA-sim's analytical models
 * (congestion-unaware and congestion-aware), to the nanosecond, and answer
 * what users ask of it: where the time goes, what the critical path is, which
 * links saturate, what if. */
#include "app/et_app.h"
#include "app/et_cli.h"
#include "et-sim/calib/calib.h"
#include "et-sim/net/net.h"
#include "et-sim/run.h"
#include "et_err.h"
#include "et_input.h"
#include "et_mem.h"
#include "et_output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: et-sim [OPTIONS] [INPUT]\n"
    "Simulate a workload (a stream, an ASTRA-sim per-rank set PREFIX -> PREFIX.N.et, or\n"
    "- for stdin) with ASTRA-sim's analytical network models: congestion-unaware\n"
    "(default) or congestion-aware, on ASTRA-sim's dimensions or an InfraGraph network.\n"
    "\n";

static const char footer[] =
    "Exit status: 0 simulated, 1 deadlock, 2 usage or configuration error, 3 bad\n"
    "trace data or configuration file, 4 I/O error. See et-sim(1) for the model and\n"
    "its defaults.\n";

static void add_str(const char ***v, int *n, size_t *cap, const char *s)
{
	ET_GROW(*v, *cap, (size_t)*n + 1);
	(*v)[(*n)++] = s;
}

static int opt_set(et_cli *cli, const et_opt *o, const char *arg)
{
	(void)cli;
	run_conf *c = o->target;
	add_str(&c->sets, &c->nsets, &c->capsets, arg ? arg : "simulate-collectives=1");
	return 0;
}

static int opt_sweep(et_cli *cli, const et_opt *o, const char *arg)
{
	(void)cli;
	run_conf *c = o->target;
	add_str(&c->sweeps, &c->nsweeps, &c->capsweeps, arg);
	return 0;
}

static int opt_no_cf(et_cli *cli, const et_opt *o, const char *arg)
{
	(void)cli, (void)arg;
	((run_conf *)o->target)->op.closed_form = false;
	return 0;
}

static int opt_slow(et_cli *cli, const et_opt *o, const char *arg)
{
	run_conf *c = o->target;
	et_ranklist rl;
	double x;
	et_error e;
	if (run_parse_slow(arg, &rl, &x, &e) < 0)
		et_cli_usage_error(cli, "%s", e.msg);
	et_ranklist_free(&rl);
	add_str(&c->slows, &c->nslows, &c->capslows, arg);
	return 0;
}

static int opt_json_colls(et_cli *cli, const et_opt *o, const char *arg)
{
	et_ranklist rl;
	et_error e;
	if (run_parse_colls(arg, &rl, &e) < 0)
		et_cli_usage_error(cli, "%s", e.msg);
	et_ranklist_free(&rl);
	((run_conf *)o->target)->json_colls = arg;
	return 0;
}

static const char *const report_formats[] = {"text", "json", NULL};
static void parse_args(run_conf *c, et_cli *cli, et_cli_in *in, int argc, char **argv)
{
	int fmt = 0;
	char backend_help[512] = "network backend: ";
	size_t bl = strlen(backend_help);
	net_backend_list(backend_help + bl, sizeof backend_help - bl, true);
	et_opt opts[] = {
	    ET_OPT_HEADING("Configuration (ASTRA-sim's files; every key can also be --set):"),
	    ET_OPT_STR(0, "network", "FILE",
	               "network YAML (topology, npus_count, bandwidth, latency)", &c->network),
	    ET_OPT_STR(0, "system", "FILE", "system JSON (scheduling-policy, endpoint-delay, ...)",
	               &c->system),
	    ET_OPT_STR(0, "comm-groups", "FILE", "comm-group JSON {\"<id>\": [rank, ...]}",
	               &c->groups),
	    ET_OPT_CHOICE(0, "backend", "NET", backend_help, &c->backend,
	                  .choices = net_backend_names()),
	    ET_OPT_STR(
	        0, "logical-dims", "N1,N2",
	        "an InfraGraph network's dimensions for collectives (default: one of every NPU)",
	        &c->logical),
	    ET_OPT_FN(0, "set", "KEY=VALUE", "set one key (lists: 100,50 or 100/50); repeatable", c,
	              .fn = opt_set),
	    ET_OPT_STR(0, "compute-model", "M", "replay (default), roofline or systolic",
	               &c->cmodel),
	    ET_OPT_STR(0, "compute", "SPEC",
	               "a compute model with its numbers: systolic:rows=R,cols=C,dataflow=os|ws|is,"
	               "arrays=P,ghz=F[,a=A,b=B], or tpu-v4",
	               &c->compute),
	    ET_OPT_FN(0, "simulate-collectives", NULL, "simulate BROADCAST instead of replaying it",
	              c, .fn = opt_set),
	    ET_OPT_FN(0, "no-closed-form", NULL, "price every collective phase message by message",
	              c, .fn = opt_no_cf),
	    ET_OPT_FLAG(0, "no-fold", "simulate every rank, not one per class of alike ranks",
	                &c->no_fold),
	    ET_OPT_FN(0, "slow", "RANKS=FACTOR",
	              "multiply the compute time of these ranks (0-3,7) by FACTOR; repeatable", c,
	              .fn = opt_slow),
	    ET_OPT_HEADING("Output:"),
	    ET_OPT_CHOICE('F', "format", "FMT", "text (default) or json", &fmt,
	                  .choices = report_formats),
	    ET_OPT_FN(0, "json-collectives", "RANKS",
	              "the JSON report's collectives of these ranks only (0-3,7), or 'none' (every "
	              "rank's grows with ranks x collectives)",
	              c, .fn = opt_json_colls),
	    ET_OPT_FLAG(0, "astra-sim-log", "print ASTRA-sim's 'sys[N] finished' lines", &c->astra),
	    ET_OPT_STR('S', "schedule", "FILE", "every node's start/end per rank (JSON Lines)",
	               &c->schedule),
	    ET_OPT_STR(0, "link-stats", "FILE",
	               "per directed link: bytes, busy time, utilization, longest queue (CSV; "
	               "aware backend)",
	               &c->link_stats),
	    ET_OPT_FLAG('v', "verbose",
	                "the network's devices (an InfraGraph network's NPU numbering) on stderr",
	                &c->verbose),
	    ET_OPT_STR(0, "trace", "FILE", "Chrome trace-event JSON", &c->trace),
	    ET_OPT_FLAG(0, "critical-path", "the chain of nodes that sets the iteration time",
	                &c->crit),
	    ET_OPT_FN(0, "sweep", "KEY=V1,V2",
	              "run every combination of values; print a CSV table (repeatable; list values "
	              "inside a point use '/')",
	              c, .fn = opt_sweep),
	    ET_OPT_HEADING("Calibration:"),
	    ET_OPT_FLAG(0, "calibrate",
	                "fit the inputs, nccl-tests or rccl-tests output (or hardware tables), "
	                "to t = alpha + S / beta in size bands; write the calibration file",
	                &c->calibrate),
	    ET_OPT_STR(0, "collective", "NAME",
	               "--calibrate: the collective the inputs time (default: told by their "
	               "busbw / algbw)",
	               &c->collective),
	    ET_OPT_STR(0, "calib", "FILE",
	               "--calibrate: predict the inputs with this calibration file's fits and "
	               "print predicted against measured, instead of fitting them",
	               &c->calib),
	    ET_OPT_HEADING("Input:"),
	    ET_OPTS_INPUT(in),
	    ET_OPTS_COMMON(cli),
	    ET_OPT_END,
	};
	*cli = (et_cli){.prog = "et-sim", .usage = usage, .footer = footer, .opts = opts};
	et_cli_parse(cli, argc, argv);
	cli->opts = NULL; /* the table lives on this stack frame */
	c->json = fmt == 1;
	/* one run's reports: beside --sweep's table they would be dropped */
	if (c->nsweeps && (c->schedule || c->trace || c->crit || c->json || c->astra))
		et_cli_usage_error(cli, "--schedule, --trace, --critical-path, --format json and "
		                        "--astra-sim-log report one run, not --sweep's table");
	if (c->calibrate) {
		if (c->network || c->system || c->groups || c->nsets || c->nsweeps || c->json ||
		    c->schedule || c->trace || c->crit || c->nslows || c->cmodel || c->compute)
			et_cli_usage_error(cli, "--calibrate fits collective timings: it takes no "
			                        "network, system, workload or report options");
		if (cli->nargs < 1)
			et_cli_usage_error(cli, "--calibrate needs one or more LOG files");
		return;
	}
	if (c->collective || c->calib)
		et_cli_usage_error(cli, "%s goes with --calibrate",
		                   c->collective ? "--collective" : "--calib");
	if (cli->nargs > 1)
		et_cli_usage_error(cli, "one INPUT at most (a stream or a per-rank set PREFIX)");
	if (c->json_colls && !c->json)
		et_cli_usage_error(cli, "--json-collectives needs --format json");
}

int main(int argc, char **argv)
{
	et_cli cli;
	et_cli_in in;
	run_conf c;
	memset(&c, 0, sizeof c);
	c.op.closed_form = true;
	et_cli_in_init(&in, false, ET_IN_RANKS);
	parse_args(&c, &cli, &in, argc, argv);
	c.in = in.o;
	c.in.ranks = NULL;
	c.output = cli.output;
	c.progress = cli.progress;
	int rc;
	if (c.calibrate) {
		calib_conf cc = {(const char *const *)cli.args,
		                 cli.nargs,
		                 c.collective,
		                 cli.output,
		                 c.calib,
		                 cli.progress < 0};
		et_error e = {0};
		rc = calib_run(&cc, &e) < 0 ? et_app_fail(&e) : 0;
	} else {
		rc = run_main(&c, cli.nargs, cli.args);
	}
	free(c.sets);
	free(c.sweeps);
	free(c.slows);
	et_cli_in_free(&in);
	return rc;
}
