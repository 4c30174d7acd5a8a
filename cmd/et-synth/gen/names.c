/* Node and workload names. */
#include "et-synth/synth.h"
#include "et_attr.h"
#include "et_types.h"

#include <ctype.h>
#include <stdio.h>

void size_label(uint64_t bytes, char *out, size_t cap)
{
	static const char *const unit[] = {"B", "KB", "MB", "GB"};
	int u = 0;
	while (u < 3 && bytes && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(out, cap, "%llu%s", (unsigned long long)bytes, unit[u]);
}

void coll_label(int ctype, char *out, size_t cap)
{
	const char *s = et_coll_type_name(ctype);
	size_t k = 0;
	for (; s && s[k] && k + 1 < cap; k++)
		out[k] = (char)tolower((unsigned char)s[k]);
	out[k] = 0;
}
