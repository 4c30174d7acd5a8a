/* jsonw: the reports' strings, escaped as the trace events' are. */
#include "et-sim/report/jsonw.h"
#include "et_trace_event.h"

void jsonw_str(FILE *f, const char *s)
{
	et_te_str(f, s);
}
