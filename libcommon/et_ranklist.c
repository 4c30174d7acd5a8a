#include "et_ranklist.h"
#include "et_mem.h"

#include <errno.h>
#include <stdlib.h>

static bool parse_u32(const char **s, uint32_t *v)
{
	char *end;
	if (**s < '0' || **s > '9')
		return false;
	errno = 0;
	unsigned long long x = strtoull(*s, &end, 10);
	if (errno || x > UINT32_MAX)
		return false;
	*v = (uint32_t)x;
	*s = end;
	return true;
}

int et_ranklist_parse(et_ranklist *rl, const char *s)
{
	rl->ranges = NULL;
	rl->n = 0;
	rl->cap = 0;
	while (*s) {
		uint32_t a, b;
		if (!parse_u32(&s, &a))
			goto bad;
		b = a;
		if (*s == '-' && (s++, !parse_u32(&s, &b)))
			goto bad;
		if (b < a)
			goto bad;
		ET_GROW(rl->ranges, rl->cap, (size_t)rl->n + 1);
		rl->ranges[rl->n][0] = a;
		rl->ranges[rl->n][1] = b;
		rl->n++;
		if (*s == ',')
			s++;
		else if (*s)
			goto bad;
	}
	return 0;
bad:
	et_ranklist_free(rl);
	return -1;
}

bool et_ranklist_has(const et_ranklist *rl, uint32_t r)
{
	if (rl->n == 0)
		return true;
	for (int i = 0; i < rl->n; i++)
		if (r >= rl->ranges[i][0] && r <= rl->ranges[i][1])
			return true;
	return false;
}

void et_ranklist_free(et_ranklist *rl)
{
	free(rl->ranges);
	rl->ranges = NULL;
	rl->n = 0;
	rl->cap = 0;
}
