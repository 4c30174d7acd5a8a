/* hlo_read: et-convert's HLO reader, end to end (hlo.h): limits, parse,
 * the header's device counts, build. */
#include "et-convert/hlo/hlo.h"
#include "et-convert/hlo/hlo_mod.h"

#include <string.h>

/* x's name and device counts: the options', else the header's, else 1. */
static int set_header(xir *x, const hlo_module *m, et_error *e)
{
	uint64_t r = m->opts.replicas ? m->opts.replicas : m->replicas ? (uint64_t)m->replicas : 1;
	uint64_t p = m->opts.partitions ? m->opts.partitions
	             : m->partitions    ? (uint64_t)m->partitions
	                                : 1;
	if (r * p > HLO_MAX_IDS)
		return hlo_fail(m, e, 0, "%llu replicas x %llu partitions: more than %u devices",
		                (unsigned long long)r, (unsigned long long)p, HLO_MAX_IDS);
	x->replicas = (uint32_t)r;
	x->partitions = (uint32_t)p;
	if (m->modname.len)
		x->module = (char *)xir_str(x, m->text + m->modname.off, m->modname.len);
	else
		x->module = (char *)xir_str(x, hlo_name(m, m->comp[m->entry].name), SIZE_MAX);
	return 0;
}

int hlo_read(xir *x, const char *name, const char *text, size_t len, const hlo_opts *o, et_error *e)
{
	if (len > HLO_MAX_INPUT)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: %zu bytes: an HLO module may have at most 1 GiB", name, len);
	hlo_module m;
	hlo_mod_init(&m, name, text, len, o);
	int r = hlo_parse(&m, e);
	if (r == 0)
		r = set_header(x, &m, e);
	if (r == 0)
		r = hlo_build(&m, x, e);
	hlo_mod_free(&m);
	return r;
}
