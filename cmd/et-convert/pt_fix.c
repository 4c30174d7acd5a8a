#include "pt.h"

int pt_emit_fixed(pt_trace *t, sink *s, const et_rank_info *ri, const pt_opts *o, et_error *e)
{
	(void)s;
	(void)ri;
	(void)o;
	return et_fail(e, 2, "%s: corrected conversion is not implemented yet", t->input);
}
