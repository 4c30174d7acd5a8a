#include "et_path.h"
#include "et_mem.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

FILE *et_path_open_read(const char *path, et_error *e)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		et_fail(e, ET_EXIT_IO, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		et_fail(e, ET_EXIT_IO, "%s: is a directory", path);
		return NULL;
	}
	return f;
}

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
