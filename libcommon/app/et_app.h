/* app/et_app: the program-support layer. libcommon's library part (the
 * files directly in libcommon/) never prints, never exits and installs no
 * signal handler: it returns errors in an et_error and hands warnings,
 * progress lines, out-of-memory and "a temporary file exists" to hooks.
 * This layer (libcommon/app/, built as libetapp.a, linked by the tools and
 * not by library users) is what fills those hooks and owns the process:
 * it prints messages on stderr, maps errors to exit statuses, exits, draws
 * progress on the terminal, handles the signals that end a job, and parses
 * the command line (app/et_cli.h). tests/bats/house.bats checks that no
 * library file prints, exits or installs a handler. */
#ifndef APP_ET_APP_H
#define APP_ET_APP_H

#include "et_err.h"

/* Names the program for every message and installs the tools' hooks: the
 * warning printer ("PROG: warning: MSG" on stderr), the out-of-memory
 * handler (et_mem.h), the progress drawer (stderr, when it is a terminal
 * or forced) and, before the first temporary output file, the handlers of
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE that remove temporary files.
 * et_cli_parse and et_cli_subcommands call it; idempotent. */
void et_app_init(const char *prog);
/* The same hooks, keeping the program name. */
void et_app_install(void);

/* "PROG: msg\n" on stderr ("unknown error" when msg is empty). */
void et_err_print(const et_error *e);
/* The exit status of a failure: e->code, or ET_EXIT_DATA when no code was
 * set (a failure that did not say what it was; most library code that
 * fails reads input, and 3 "bad input data" is the suite's status for
 * that). The one mapping from an error to an exit status. */
int et_app_exit_code(const et_error *e);
/* et_err_print, then et_app_exit_code: what a tool returns from main when
 * a run failed. */
int et_app_fail(const et_error *e);
/* Prints "PROG: <fmt>", removes the temporary files of outputs not yet
 * committed and exits with code. */
_Noreturn void et_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning in the one format, "PROG: warning: MSG", under another program
 * name than et_err_prog's ("et-synth coll" for its options). et_warn (et_err.h)
 * is the usual way. */
void et_warn_as(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
