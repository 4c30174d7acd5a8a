#include "et_cli.h"
#include "et_buf.h"
#include "et_err.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void et_cli_init(et_cli *c, const char *prog, const char *usage)
{
	memset(c, 0, sizeof *c);
	c->prog = prog;
	c->usage = usage;
	et_err_set_prog(prog);
}

bool et_cli_common(et_cli *c, int opt, const char *arg)
{
	switch (opt) {
	case 'h':
		fputs(c->usage, stdout);
		exit(0);
	case ET_OPT_VERSION:
		printf("%s (etkit) %s\n", c->prog, ETKIT_VERSION);
		exit(0);
	case 'o':
		c->output = arg;
		return true;
	case 'q':
		c->progress = -1;
		return true;
	case ET_OPT_PROGRESS:
		c->progress = 1;
		return true;
	case '?':
		/* getopt already named the bad option. */
		fprintf(stderr, "Try '%s --help' for more information.\n", c->prog);
		exit(ET_EXIT_USAGE);
	default:
		return false;
	}
}

void et_cli_usage_error(const et_cli *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", c->prog);
	exit(ET_EXIT_USAGE);
}

int64_t et_cli_int(const et_cli *c, const char *opt, const char *arg, int64_t min, int64_t max)
{
	char *end;
	errno = 0;
	long long v = strtoll(arg, &end, 0);
	if (errno || end == arg || *end || v < min || v > max)
		et_cli_usage_error(c, "%s: expected an integer from %lld to %lld, got '%s'", opt,
		                   (long long)min, (long long)max, arg);
	return v;
}

uint64_t et_cli_size(const et_cli *c, const char *opt, const char *arg)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	int shift = 0;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	}
	if (*end == 'i' || *end == 'B')
		end += (*end == 'i' && end[1] == 'B') ? 2 : 1;
	if (errno || end == arg || *end || arg[0] == '-' || (shift && v > (~0ull >> shift)))
		et_cli_usage_error(c, "%s: expected a size such as 4096, 64K, 1M or 2G, got '%s'",
		                   opt, arg);
	return (uint64_t)v << shift;
}

double et_cli_double(const et_cli *c, const char *opt, const char *arg)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v))
		et_cli_usage_error(c, "%s: expected a number, got '%s'", opt, arg);
	return v;
}

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
	while (*s) {
		uint32_t a, b;
		if (!parse_u32(&s, &a))
			goto bad;
		b = a;
		if (*s == '-' && (s++, !parse_u32(&s, &b)))
			goto bad;
		if (b < a)
			goto bad;
		rl->ranges = et_xrealloc(rl->ranges, (size_t)(rl->n + 1) * sizeof *rl->ranges);
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
}
