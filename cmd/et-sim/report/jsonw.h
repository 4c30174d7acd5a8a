/* jsonw: JSON string output for the reports. */
#ifndef ET_SIM_REPORT_JSONW_H
#define ET_SIM_REPORT_JSONW_H
#include <stdio.h>

/* Write s as a JSON string literal (quotes, escapes). */
void jsonw_str(FILE *f, const char *s);

#endif
