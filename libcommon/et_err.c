#include "et_err.h"

#include <stdio.h>
#include <stdlib.h>

static const char *prog_name = "etkit";
static void (*cleanup_fn)(void);

int et_fail(et_error *e, int code, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
		e->code = code;
	}
	return -1;
}

void et_err_set_prog(const char *prog)
{
	prog_name = prog;
}

const char *et_err_prog(void)
{
	return prog_name;
}

void et_err_set_cleanup(void (*fn)(void))
{
	cleanup_fn = fn;
}

void et_err_print(const et_error *e)
{
	fprintf(stderr, "%s: %s\n", prog_name, e->msg[0] ? e->msg : "unknown error");
}

void et_die(int code, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (cleanup_fn)
		cleanup_fn();
	exit(code);
}

void et_warn(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: warning: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
