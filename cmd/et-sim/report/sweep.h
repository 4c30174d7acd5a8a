/* sweep: the cartesian product of --sweep settings in one process. */
#ifndef ET_SIM_REPORT_SWEEP_H
#define ET_SIM_REPORT_SWEEP_H
#include "et-sim/run.h"
#include "et-sim/workload/load.h"
#include "et_err.h"

/* Runs every point of c->sweeps on w and writes the CSV table to
 * c->output. A point whose configuration or run fails is a row with its
 * message, not a failure. 0, or -1 with e set: ET_EXIT_USAGE for a bad
 * --sweep, the output's code when it cannot be written. */
int sweep_run(run_conf *c, const workload *w, et_error *e);

#endif
