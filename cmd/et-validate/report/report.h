/* The report of a run, and the exit status it implies. */
#ifndef ET_VALIDATE_REPORT_REPORT_H
#define ET_VALIDATE_REPORT_REPORT_H

#include "et-validate/validate.h"
#include "et_err.h"
#include <stdio.h>

/* ET_EXIT_FOUND when there are errors (with --strict: or warnings). */
int report_status(const vctx *v);
void report_write(FILE *f, const vctx *v);

#endif
