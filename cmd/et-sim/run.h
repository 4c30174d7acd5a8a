/* run: one et-sim invocation: load, configure, simulate, report. */
#ifndef RUN_H
#define RUN_H
#include "et_input.h"
#include "sim.h"
#include <stdbool.h>

typedef struct run_conf {
	const char *network, *system, *groups, *cmodel;
	const char **sets;
	int nsets;
	const char **sweeps;
	int nsweeps;
	bool json, astra, crit, no_fold;
	const char *schedule, *trace, *output;
	int progress;
	et_input_opts in;
	sim_opts op;
} run_conf;

int run_main(run_conf *c, int argc, char **argv);

#endif
