/* app/et_cli_int: et_cli internals shared by et_cli.c (parsing) and
 * et_cli_help.c; program-support layer (app/et_app.h), not for the tools. */
#ifndef APP_ET_CLI_INT_H
#define APP_ET_CLI_INT_H

#include "app/et_cli.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The table in listing order with groups expanded. letters[i] is the short
 * letter entry i really has (0 when an earlier entry claimed it). Both
 * arrays are the caller's to free. */
void et_cli_flatten(const et_cli *c, const et_opt ***opts, char **letters, size_t *n);

/* --help-table: one visible option per line (see et_cli.h); all: every
 * option, hidden ones too (--help-table-all). */
void et_cli_print_table(const et_cli *c, FILE *f, bool all);

#endif
