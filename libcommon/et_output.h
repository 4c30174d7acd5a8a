/* et_output: output files that appear whole or not at all.
 *
 * A path is written as a temporary file beside it and renamed on commit;
 * an aborted output (et_output_abort, or the app layer's et_die) leaves
 * nothing behind, and so does SIGINT, SIGTERM, SIGHUP or SIGPIPE in a tool
 * (the app layer's handler removes the temporary files, then the process
 * dies of the signal; the library installs no handler). NULL or "-" means
 * stdout. Binary output to a
 * terminal is refused (exit 2) unless the caller says it is text. */
#ifndef ET_OUTPUT_H
#define ET_OUTPUT_H

#include "et_err.h"
#include <stdbool.h>
#include <stdio.h>

typedef struct et_output et_output;

int et_output_open(et_output **o, const char *path, bool binary, et_error *e);
FILE *et_output_file(et_output *o);
/* The path written (a device's too); for stdout, the file or device it was
 * redirected to, else "<stdout>". For messages. */
const char *et_output_name(const et_output *o);
const char *et_output_stdout_name(void);
/* Fails e with "NAME: write error: <errno's text>", exit 4: the one message
 * for a write that failed, whoever wrote (the commit's flush, the stream
 * writer, a tool's own fwrite). errno must still be the write's. */
int et_write_failed(const char *name, et_error *e);
/* Flush, close, rename into place. With `defer`, keep the temp until
 * et_output_commit_all() (all-or-nothing for sets of files: a tool's side
 * files and its main output); et_output_abort_all() removes them. */
int et_output_commit(et_output *o, et_error *e);
int et_output_close_deferred(et_output *o, et_error *e);
int et_output_commit_all(et_error *e);
void et_output_abort(et_output *o);
/* Remove every temp file not yet committed (et_die calls it). */
void et_output_abort_all(void);
/* For a signal handler: unlink the temp files not yet committed, nothing
 * else (async-signal-safe). */
void et_output_unlink_temps(void);
/* fn runs once, before the first temporary file is made: the app layer
 * installs its signal handlers there (not before: a tool that never writes
 * a file keeps the default handlers). */
void et_output_set_temp_hook(void (*fn)(void));
/* The signals whose handler must call et_output_unlink_temps (SIGINT,
 * SIGTERM, SIGHUP, SIGPIPE): blocked while the list changes. */
const int *et_output_end_signals(size_t *n);

#endif
