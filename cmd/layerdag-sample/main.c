/* layerdag-sample: learn a corpus of DAGs and judge generated ones. One
 * subcommand per file; this one dispatches. */
#include "app/et_cli.h"
#include "layerdag-sample/cmds.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: layerdag-sample SUBCOMMAND [OPTIONS]\n"
    "DAGs with categorical node attributes and a label, in the LayerDAG corpus format.\n"
    "\n"
    "  fit CORPUS...     learn a model of the corpus (-o MODEL)\n"
    "  sample MODEL      sample graphs, conditioned on labels (--y, --y-from)\n"
    "  eval REAL SYNTH   validity, roles, MMD² against the real-vs-real floor, novelty,\n"
    "                    uniqueness and the ridge-surrogate benchmark\n"
    "\n"
    "'layerdag-sample SUBCOMMAND --help' lists a subcommand's options.\n"
    "See layerdag-sample(1).\n";

static const et_subcmd cmds[] = {
    {"fit", cmd_fit},
    {"sample", cmd_sample},
    {"eval", cmd_eval},
};

int main(int argc, char **argv)
{
	return et_cli_subcommands("layerdag-sample", usage, cmds, sizeof cmds / sizeof *cmds, argc,
	                          argv);
}
