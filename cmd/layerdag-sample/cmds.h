/* layerdag-sample's subcommands: each takes argv from the subcommand's
 * name on and returns the exit status. */
#ifndef LD_CMDS_H
#define LD_CMDS_H

int cmd_fit(int argc, char **argv);
int cmd_sample(int argc, char **argv);
int cmd_eval(int argc, char **argv);

#endif
