/* et_pg: process groups as traces and ASTRA-sim define them. One reader for
 * every tool, so that et-validate, et-sim and et-synth agree on what a
 * definition is.
 *
 * A process-group node (the PyTorch converter's METADATA node
 * "## process_group:init ##") holds in inputs.values a JSON list of
 * definitions, [{"pg_name": "1", "ranks": [0, 1], ...}, ...], written in
 * one of three forms (ET_PG_*): the Python repr of a one-element list
 * holding that text, "['[...]']", as the converter writes it (ASTRA-sim
 * strips the "['" and "']"); a JSON list holding the text as one string,
 * "[\"[...]\"]"; or the bare JSON. Empty ranks mean all ranks.
 *
 * An ASTRA-sim comm-group file is a JSON object {"<id>": [rank, ...], ...}.
 *
 * Ranks are JSON integers 0..2^32-1; anything else (a fraction, a negative
 * number, a string) makes the list invalid. */
#ifndef ET_PG_H
#define ET_PG_H

#include "et_err.h"
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

typedef enum et_pg_form { ET_PG_JSON, ET_PG_PYREPR, ET_PG_JSON_LIST } et_pg_form;

/* The definitions of a process-group node's inputs.values (surrounding
 * blanks ignored), or NULL when the text is not such a list: a non-empty
 * array of objects, each with a pg_name (string or number) and ranks (an
 * array of ranks). *form (if not NULL) says how it was written. Free the
 * result with cJSON_Delete. */
cJSON *et_pg_values_parse(const char *values, et_pg_form *form);

/* A definition's pg_name as text: a string as is, a number written as an
 * integer ("%.0f") into num (cap bytes, 32 are enough), which is returned. */
const char *et_pg_def_name(const cJSON *def, char *num, size_t cap);

/* The ranks of a JSON array, in input order: returns their number with
 * *out malloc'ed (never NULL on success, free it), or -1 with *out NULL when
 * arr is not an array of ranks. */
long et_pg_ranks(const cJSON *arr, uint32_t **out);

/* Sorts r and drops repeats; returns the new count. */
size_t et_pg_ranks_unique(uint32_t *r, size_t n);

/* Called once per group of a comm-group file, in file order, with its id
 * and its ranks sorted and unique (n >= 1). Returns < 0 (with e set) to
 * stop the parse with that error. */
typedef int (*et_pg_group_fn)(void *ctx, const char *id, const uint32_t *ranks, size_t n,
                              et_error *e);

/* Parse the text of a comm-group file: len bytes, and text[len] must be
 * '\0' (`name` is the file's name in messages). Errors, code 3: not JSON
 * (with line and column), a NUL byte, not an object, a group that is not a
 * non-empty array of ranks, an id given twice (ids in messages are quoted
 * with et_quote). Returns 0, or -1 with e set (by it or by fn). */
int et_pg_file_parse(const char *text, size_t len, const char *name, et_pg_group_fn fn, void *ctx,
                     et_error *e);

/* Read a comm-group file (et_jsonfile_read: at most 64 MiB, code 4 when it
 * cannot be read) and parse it. */
int et_pg_file_read(const char *path, et_pg_group_fn fn, void *ctx, et_error *e);

#endif
