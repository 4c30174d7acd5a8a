/* et_path: file names built from a directory and a name, for the tools that
 * list or fill a directory (et-convert reading a folder of PyTorch traces,
 * et-synth --out-dir). */
#ifndef ET_PATH_H
#define ET_PATH_H

/* "DIR/NAME" in a new string (the caller frees it): the slashes that end
 * dir are dropped first, so "out/" and "out" give the same "out/x" in
 * every message, and "/" stays "/x". Never NULL (et_mem's policy). */
char *et_path_join(const char *dir, const char *name);

#endif
