/* sched: every node's start and end, for et-viz (JSON Lines, the agreed
 * format) and for Chrome's trace viewer / Perfetto. */
#ifndef ET_SIM_REPORT_SCHED_H
#define ET_SIM_REPORT_SCHED_H
#include "et-sim/workload/workload.h"
#include <stdio.h>

int sched_write_jsonl(FILE *f, const sim *s);
int sched_write_chrome(FILE *f, const sim *s);

#endif
