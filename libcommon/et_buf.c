#include "et_buf.h"
#include "et_err.h"
#include "et_mem.h"
#include "et_path.h"

#include <errno.h>

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int et_buf_read_file(et_buf *b, const char *path, size_t max, et_error *e)
{
	bool in = strcmp(path, "-") == 0;
	FILE *f = in ? stdin : et_path_open_read(path, e);
	if (!f)
		return -1;
	size_t start = b->len, got;
	char chunk[65536];
	while (b->len - start <= max && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
		et_buf_append(b, chunk, got);
	bool bad = ferror(f);
	if (!in)
		fclose(f);
	if (bad)
		return et_fail(e, ET_EXIT_IO, "%s: read error", path);
	if (b->len - start > max)
		return et_fail(e, ET_EXIT_DATA, "%s: larger than %zu bytes", path, max);
	et_buf_putc(b, '\0');
	b->len--;
	return 0;
}

void et_buf_free(et_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void et_buf_grow(et_buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len)
		et_oom(SIZE_MAX);
	ET_GROW(b->data, b->cap, b->len + extra);
}

void et_buf_puts(et_buf *b, const char *s)
{
	et_buf_append(b, s, strlen(s));
}

void et_buf_printf(et_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	et_buf_reserve(b, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}
