/* sweep: the cartesian product of --sweep settings in one process. */
#ifndef SWEEP_H
#define SWEEP_H
#include "cfg.h"
#include "load.h"
#include "run.h"

int sweep_run(run_conf *c, const cfg *base, const workload *w);
/* shared with run.c */
int run_build_cfg(const run_conf *c, cfg *cf, uint32_t world, char *msg, size_t n);
int run_simulate(sim *s, const run_conf *c, const cfg *cf, const workload *w);

#endif
