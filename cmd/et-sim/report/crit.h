/* crit: the critical path -- the chain of nodes, across ranks, that sets
 * the iteration time. */
#ifndef ET_SIM_REPORT_CRIT_H
#define ET_SIM_REPORT_CRIT_H
#include "et-sim/workload/workload.h"
#include "et_jsonw.h"
#include <stdio.h>

/* As text lines. */
void crit_print(FILE *f, const sim *s);
/* As the JSON report's "critical_path" member (nothing if no node ran). */
void crit_json(et_jsonw *j, const sim *s);

#endif
