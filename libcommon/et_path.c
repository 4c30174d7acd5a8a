#include "et_path.h"
#include "et_mem.h"

#include <stdbool.h>
#include <string.h>

char *et_path_join(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);
	while (d > 1 && dir[d - 1] == '/')
		d--;
	bool root = d == 1 && dir[0] == '/';
	char *s = et_xmalloc(d + 1 + n + 1);
	memcpy(s, dir, d);
	size_t k = root ? d : d + 1;
	if (!root)
		s[d] = '/';
	memcpy(s + k, name, n + 1);
	return s;
}
