/* et-synth: synthetic Chakra traces on demand — microbenchmarks, training
 * skeletons, random DAGs, the reference generator's set — and what-if /
 * obfuscation transforms of recorded traces. One subcommand per file. */
#include "app/et_cli.h"
#include "et-synth/synth.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth SUBCOMMAND [OPTIONS]\n"
    "Write synthetic Chakra execution traces as a stream (.etz), raw ETs (--to et,\n"
    "--split PREFIX for one file per rank), JSON or JSONL on stdout or -o.\n"
    "\n"
    "  coll              K collectives per rank (ASTRA-sim microbenchmarks)\n"
    "  p2p               send/receive patterns (ring, pairs, all)\n"
    "  chain             data-parallel training skeleton (compute + gradient collective)\n"
    "  dag               random layered DAGs with realistic attribute mixes\n"
    "  chakra-generator  the reference chakra_generator's set, as DIR/<workload>.<rank>.et\n"
    "  transform         scale, retype, re-target, obfuscate or strip an input stream\n"
    "\n"
    "'et-synth SUBCOMMAND --help' lists a subcommand's options. See et-synth(1).\n";

static const et_subcmd cmds[] = {
    {"coll", cmd_coll},
    {"p2p", cmd_p2p},
    {"chain", cmd_chain},
    {"dag", cmd_dag},
    {"chakra-generator", cmd_refgen},
    {"transform", cmd_transform},
};

int main(int argc, char **argv)
{
	return et_cli_subcommands("et-synth", usage, cmds, sizeof cmds / sizeof *cmds, argc, argv);
}
