/* Names and the comm-group file. */
#include "et_attr.h"
#include "et_types.h"
#include "synth.h"

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

int write_comm_groups(const char *path, uint32_t world, uint32_t g, et_error *e)
{
	et_output *o;
	if (et_output_open(&o, path, false, e) < 0)
		return -1;
	FILE *f = et_output_file(o);
	fputc('{', f);
	for (uint32_t id = 0; id < world / g; id++) {
		fprintf(f, "%s\"%u\": [", id ? ", " : "", id + 1);
		for (uint32_t k = 0; k < g; k++)
			fprintf(f, "%s%u", k ? ", " : "", id * g + k);
		fputc(']', f);
	}
	fputs("}\n", f);
	return et_output_commit(o, e);
}
