/* et_netyaml: ASTRA-sim's analytical network YAML (a mapping of topology,
 * npus_count, bandwidth and latency, each once, whose values are flow or
 * block sequences of scalars, or single scalars), read for every tool that
 * takes a --network FILE: et-sim, which simulates it, and et-validate,
 * which needs its dimensions (npus_count). The file is read whole and
 * parsed twice as a stream of libyaml events (no tree): first for its
 * top-level keys, to tell an InfraGraph description from a misspelt
 * network file, then for the values. */
#ifndef ET_NETYAML_H
#define ET_NETYAML_H

#include "et_err.h"

/* YAML or JSON containers nested at most this deep (InfraGraph needs 7),
 * refused as the first pass meets them, so a deeper file is never read to
 * its end: libyaml's time grows with the square of the nesting. */
#define ET_NETYAML_MAX_DEPTH 32

/* One key and its value, the list's entries joined with ','. Returns 0, or
 * -1 with e set to a message without the file or line (the reader adds
 * them, at the value). */
typedef int (*et_netyaml_fn)(void *ctx, const char *key, const char *val, et_error *e);

/* Reads path: 1 when it is an InfraGraph description (InfraGraph's
 * top-level keys and none of the network's; not read further), 0 when
 * every key was handed to fn, or -1 with e set: ET_EXIT_IO when the file
 * cannot be read, ET_EXIT_DATA for bad syntax, an unknown or repeated key,
 * nesting deeper than ET_NETYAML_MAX_DEPTH, a value that is not a list
 * of scalars, or what fn refused, each as
 * "PATH: line L, column C: ...". */
int et_netyaml_read(const char *path, et_netyaml_fn fn, void *ctx, et_error *e);

#endif
