/* Small formatting helpers shared by the checks and the report. */
#include "et-validate/validate.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_types.h"

#include <stdio.h>
#include <string.h>

const char *coll_name(int64_t t)
{
	const char *s = (t >= 0 && t < ET_COLL_TYPE_COUNT) ? et_coll_type_name((int)t) : NULL;
	if (s)
		return s;
	/* Out-of-range values are rare (a finding each); a small ring of
	 * buffers keeps several usable in one printf. */
	static char ring[4][32];
	static int k;
	char *b = ring[k++ & 3];
	snprintf(b, sizeof ring[0], "comm_type %lld", (long long)t);
	return b;
}

void fmt_ranks(char *buf, size_t cap, const uint32_t *r, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && len + 1 < cap;) {
		size_t j = i;
		while (j + 1 < n && r[j + 1] == r[j] + 1)
			j++;
		int w = j > i ? snprintf(buf + len, cap - len, "%s%u-%u", i ? "," : "", r[i], r[j])
		              : snprintf(buf + len, cap - len, "%s%u", i ? "," : "", r[i]);
		if (w < 0 || (size_t)w >= cap - len) {
			/* Truncated: end with an ellipsis that still fits. */
			if (cap >= 4)
				memcpy(buf + cap - 4, "...", 4);
			return;
		}
		len += (size_t)w;
		i = j + 1;
	}
}
