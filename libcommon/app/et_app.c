/* The program-support layer's messages, exit statuses and hooks
 * (app/et_app.h). */
#include "app/et_app.h"
#include "app/et_app_int.h"
#include "et_mem.h"
#include "et_output.h"
#include "et_progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The one warning format, whoever warns. */
static void print_warning(const char *prog, const char *msg)
{
	fprintf(stderr, "%s: warning: %s\n", prog, msg);
}

static void warn_sink(const char *msg)
{
	print_warning(et_err_prog(), msg);
}

void et_warn_as(const char *prog, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	et_msg_vformat(msg, sizeof msg, fmt, ap);
	va_end(ap);
	print_warning(prog, msg);
}

void et_err_print(const et_error *e)
{
	fprintf(stderr, "%s: %s\n", et_err_prog(), e->msg[0] ? e->msg : "unknown error");
}

int et_app_exit_code(const et_error *e)
{
	return e->code ? e->code : ET_EXIT_DATA;
}

int et_app_fail(const et_error *e)
{
	et_err_print(e);
	return et_app_exit_code(e);
}

void et_die(int code, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	et_msg_vformat(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: %s\n", et_err_prog(), msg);
	et_output_abort_all();
	exit(code);
}

static void out_of_memory(size_t asked)
{
	et_die(ET_EXIT_IO, "out of memory (asked for %zu bytes)", asked);
}

void et_app_install(void)
{
	et_set_warn_sink(warn_sink);
	et_set_oom_handler(out_of_memory);
	et_progress_set_sink(&et_app_progress_sink);
	et_output_set_temp_hook(et_app_hook_signals);
}

void et_app_init(const char *prog)
{
	et_err_set_prog(prog);
	et_app_install();
}
