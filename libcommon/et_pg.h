/* et_pg: process groups as traces and ASTRA-sim define them. One reader for
 * every tool, so that et-validate, et-sim and et-synth agree on what a
 * definition is. Callers see plain C types only: the JSON parser is this
 * module's business.
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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum et_pg_form { ET_PG_JSON, ET_PG_PYREPR, ET_PG_JSON_LIST } et_pg_form;

/* One group: a definition's pg_name or a comm-group file's id, and its
 * ranks (NULL when n_ranks is 0). */
typedef struct et_pg_group {
	char *name;
	uint32_t *ranks;
	size_t n_ranks;
	int32_t id; /* comm-group files: the id's leading integer (et_pg_id) */
} et_pg_group;

/* Groups in the order they were written. The list owns every name and
 * ranks array and the warning; a zeroed et_pg_list is empty. */
typedef struct et_pg_list {
	et_pg_group *g;
	size_t n, cap;
	et_pg_form form; /* definitions only: how they were written */
	char *warning;   /* comm-group files: a one-line warning for the user, or NULL */
} et_pg_list;

/* Frees what the list holds; it is empty (zeroed) afterwards. */
void et_pg_list_free(et_pg_list *l);

/* The definitions of a process-group node's inputs.values (surrounding
 * blanks ignored): a non-empty array of objects, each with a pg_name
 * (string or number) and ranks (an array of ranks). Returns 0 with *out
 * filled (n >= 1; a string name as is, a number as an integer, "%.0f";
 * ranks in input order, repeats kept, n_ranks 0 for "all ranks"; form set),
 * or -1 with *out zeroed when values is NULL or not such a list. */
int et_pg_values_parse(const char *values, et_pg_list *out);

/* Whether ranks are the whole of a world of `world` ranks: none (which
 * means all), or each of 0..world-1 exactly once in any order. */
bool et_pg_whole_world(const uint32_t *ranks, size_t n, uint32_t world);

/* values with every definition whose ranks are the whole world of
 * old_world ranks moved to a world of new_world ranks: non-empty ranks
 * become [0, ..., new_world-1], numeric group_size and pg_size members
 * become new_world; other definitions and members are kept. Written in the
 * form values had, the JSON laid out as Python's json.dumps writes it
 * (", " and ": "). Returns malloc'ed text, or NULL when values is not a
 * definition list (as et_pg_values_parse). */
char *et_pg_values_resize_world(const char *values, uint32_t old_world, uint32_t new_world);

/* A group id as ASTRA-sim reads pg_name and comm-group keys (std::stoi):
 * leading white space, an optional sign, then the leading digits, whatever
 * follows ("1.0" and "1abc" are group 1). False when there are no digits
 * or the value does not fit an int32 (ASTRA-sim throws on both). */
bool et_pg_id(const char *s, int32_t *id);
/* Whether a collective's pg_name means all ranks: none, "", or group 0
 * ("0", "0.0") by that reading. */
bool et_pg_is_all(const char *pg_name);

/* Sorts r and drops repeats; returns the new count. */
size_t et_pg_ranks_unique(uint32_t *r, size_t n);
/* The index of rank in the sorted list r[0..n), or n when it is not there. */
size_t et_pg_ranks_find(const uint32_t *r, size_t n, uint32_t rank);

/* Parse the text of a comm-group file: len bytes, and text[len] must be
 * '\0' (`name` is the file's name in messages). Returns 0 with *out filled
 * (groups in file order, name = the id as written, id = its leading
 * integer, ranks sorted and unique, n_ranks >= 1), or -1 with e set and
 * *out zeroed. Errors, code 3 (ET_EXIT_DATA), each "NAME: line L: ..." at
 * the line of the group's key: not JSON (with line and column), a NUL
 * byte, not an object, an id with no leading integer or one beyond int32
 * (ASTRA-sim's std::stoi throws on both), a group that is not a non-empty
 * array of ranks (saying what it is), an id given twice, also as another
 * spelling of the same integer ("1" and "1.0"), with the line of the first
 * (ids in messages are quoted with et_quote). A group whose id is 0 is left
 * out of the list, with out->warning saying so: ASTRA-sim never uses it
 * (pg_name "0" is all ranks). */
int et_pg_file_parse(const char *text, size_t len, const char *name, et_pg_list *out, et_error *e);

/* Read a comm-group file (et_jsonfile_read: at most 64 MiB, code 4 when it
 * cannot be read) and parse it as et_pg_file_parse does. */
int et_pg_file_read(const char *path, et_pg_list *out, et_error *e);

/* Write the comm-group file of world / g groups of g consecutive ranks,
 * ids from 1: {"1": [0, 1], "2": [2, 3]} and a newline (g > 0; ranks past
 * the last whole group are left out). Through et_output, so the file
 * appears whole or not at all ("-" is stdout); it is closed, not yet in
 * place: the caller's et_output_commit_all() puts it there with the trace
 * it belongs to (et_output_abort_all() drops it). Returns 0, or -1 with e
 * set. */
int et_pg_write_consecutive(const char *path, uint32_t world, uint32_t g, et_error *e);
/* Write l as a comm-group file, {"<name>": [ranks], ...} and a newline,
 * the same way (deferred: the caller commits it). */
int et_pg_write_list(const char *path, const et_pg_list *l, et_error *e);

#endif
