/* et_path: files by name: names built from a directory and a name, for the
 * tools that list or fill a directory (et-convert reading a folder of
 * PyTorch traces, et-synth --out-dir), and opening a named input file
 * (configs, comm groups) with the suite's messages. */
#ifndef ET_PATH_H
#define ET_PATH_H

#include "et_err.h"
#include <stdio.h>

/* path opened for reading, or NULL with e set (ET_EXIT_IO): "PATH: cannot
 * open: REASON", or "PATH: is a directory" (fopen succeeds on a
 * directory and only the first read fails, with a message that names
 * nothing). */
FILE *et_path_open_read(const char *path, et_error *e);

/* "DIR/NAME" in a new string (the caller frees it): the slashes that end
 * dir are dropped first, so "out/" and "out" give the same "out/x" in
 * every message, and "/" stays "/x". Never NULL (et_mem's policy). */
char *et_path_join(const char *dir, const char *name);

#endif
