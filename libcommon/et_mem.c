#include "et_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static et_oom_fn oom_handler;

void et_set_oom_handler(et_oom_fn fn)
{
	oom_handler = fn;
}

void et_oom(size_t asked)
{
	if (oom_handler)
		oom_handler(asked);
	__builtin_trap(); /* no handler, or one that returned */
}

void *et_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		et_oom(n);
	return p;
}

void *et_xcalloc(size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		et_oom(SIZE_MAX);
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		et_oom(n * size);
	return p;
}

void *et_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		et_oom(n);
	return p;
}

void *et_grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	size_t n = *cap < 4 ? 8 : *cap;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (elem && n > SIZE_MAX / elem)
		et_oom(SIZE_MAX);
	p = et_xrealloc(p, n * elem);
	*cap = n;
	return p;
}

char *et_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(et_xmalloc(n), s, n);
}

void et_mem_trim(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}
