/* layerdag-sample's subcommands: each takes argv from the subcommand's
 * name on and returns the exit status. */
#ifndef LAYERDAG_SAMPLE_CMDS_H
#define LAYERDAG_SAMPLE_CMDS_H

#include "et_err.h"

/* The --help footer every subcommand shares. */
extern const char ld_footer[];
/* A subcommand's exit status from its result: 0, or the error printed and
 * its code. */
int ld_exit(int rc, const et_error *e);

int cmd_fit(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_eval(int argc, char **argv);

#endif
