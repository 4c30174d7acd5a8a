#include "pt.h"

int pt_link_kineto(pt_trace *t, const char *path, const pt_opts *o, et_error *e)
{
	(void)t;
	(void)o;
	return et_fail(e, 2, "%s: Kineto linking is not implemented yet", path);
}
