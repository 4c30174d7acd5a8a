/* run: one et-sim invocation: load, configure, simulate, report. */
#ifndef ET_SIM_RUN_H
#define ET_SIM_RUN_H
#include "et-sim/config/cfg.h"
#include "et-sim/workload/load.h"
#include "et-sim/workload/workload.h"
#include "et_err.h"
#include "et_input.h"
#include "et_ranklist.h"
#include <stdbool.h>

typedef struct run_conf {
	const char *network, *system, *groups, *cmodel;
	const char *compute; /* --compute SPEC */
	int backend; /* --backend: a row of net/net.c (a --set or --sweep of backend wins) */
	const char *logical; /* --logical-dims */
	const char *link_stats;
	bool verbose;
	bool calibrate;         /* --calibrate: fit the inputs (calib.h) */
	const char *collective; /* --collective */
	const char *calib;      /* --calib FILE (with --calibrate) */
	const char **sets;
	int nsets;
	size_t capsets;
	const char **sweeps;
	int nsweeps;
	size_t capsweeps;
	const char **slows; /* --slow RANKS=FACTOR */
	int nslows;
	size_t capslows;
	bool json, astra, crit, no_fold;
	/* --json-collectives: NULL for every rank's, else its rank list
	 * (checked by run_parse_ranks; "none": no rank's) */
	const char *json_colls;
	const char *schedule, *trace, *output;
	int progress;
	et_input_opts in;
	sim_opts op;
	/* the comm groups the input stream carries, used without --comm-groups
	 * (set by run_main once the trace is read), and the input's name */
	const et_pg_list *stream_groups;
	const char *stream_input;
} run_conf;

/* --slow's argument: the rank list and the factor (finite, > 0). 0, or -1
 * with e set (ET_EXIT_USAGE). rl is set only on success: free it. */
int run_parse_slow(const char *arg, et_ranklist *rl, double *factor, et_error *e);

/* --json-collectives' argument as a rank list (a list with no range for
 * "none"). 0, or -1 with e set (ET_EXIT_USAGE). rl is set only on
 * success: free it. */
int run_parse_colls(const char *arg, et_ranklist *rl, et_error *e);

/* The whole run on the input named by argv; prints what goes wrong on
 * stderr ("et-sim: ...", one line) and returns the exit status. */
int run_main(run_conf *c, int argc, char **argv);

/* The configuration of c for a trace of `world` ranks: defaults, then the
 * network, system and comm-group files (else the groups the stream
 * carries), the --set list and --compute-model,
 * then the checks. 0, or -1 with e set, the message naming where the bad
 * setting came from ("FILE: ...", "--set KEY=VALUE: ..."): the loaders'
 * codes for the network and system files (cfg.h), ET_EXIT_USAGE for the
 * rest. The files' warnings are left in cf->warn. cf is initialised either
 * way: cfg_free it. */
int run_build_cfg(const run_conf *c, cfg *cf, uint32_t world, et_error *e);

/* Simulates w under cf, folded into one rank when that is provably the same
 * (a folded run that finds otherwise is rerun unfolded here, so callers
 * never see SIM_UNFOLD). 0 when the event queue ran dry (report_deadlock
 * tells whether every rank finished), or -1 with e set (sim_run's codes).
 * s is initialised either way: sim_free it. */
int run_simulate(sim *s, const run_conf *c, const cfg *cf, const workload *w, et_error *e);

#endif
