/* crit: the critical path -- the chain of nodes, across ranks, that sets
 * the iteration time. */
#ifndef ET_SIM_REPORT_CRIT_H
#define ET_SIM_REPORT_CRIT_H
#include "et-sim/workload/workload.h"
#include <stdbool.h>
#include <stdio.h>

void crit_print(FILE *f, const sim *s, bool json);

#endif
