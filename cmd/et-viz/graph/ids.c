/* --ids: a list of id ranges "10-20,42", as 64-bit ids (et_ranklist holds
 * 32-bit ranks only). */
#include "et-viz/viz.h"
#include "et_buf.h"
#include "et_mem.h"

#include <errno.h>
#include <stdlib.h>

static int parse_u64(const char **p, uint64_t *v)
{
	if (**p < '0' || **p > '9')
		return -1;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(*p, &end, 10);
	if (errno)
		return -1;
	*v = x;
	*p = end;
	return 0;
}

int viz_ids_parse(conf *c, const char *s)
{
	const char *p = s;
	for (;;) {
		id_range r;
		if (parse_u64(&p, &r.lo) < 0)
			return -1;
		r.hi = r.lo;
		if (*p == '-') {
			p++;
			if (parse_u64(&p, &r.hi) < 0 || r.hi < r.lo)
				return -1;
		}
		ET_GROW(c->ids, c->cap_ids, (size_t)c->n_ids + 1);
		c->ids[c->n_ids++] = r;
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return -1;
	}
}

bool viz_ids_has(const conf *c, uint64_t id)
{
	for (int k = 0; k < c->n_ids; k++)
		if (id >= c->ids[k].lo && id <= c->ids[k].hi)
			return true;
	return false;
}
