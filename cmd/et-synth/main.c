/* et-synth: synthetic Chakra traces on demand — microbenchmarks, training
 * skeletons, random DAGs, the reference generator's set — and what-if /
 * obfuscation transforms of recorded traces. One subcommand per file. */
#include "synth.h"

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

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
    {"coll", cmd_coll},
    {"p2p", cmd_p2p},
    {"chain", cmd_chain},
    {"dag", cmd_dag},
    {"chakra-generator", cmd_refgen},
    {"transform", cmd_transform},
};

int main(int argc, char **argv)
{
	et_err_set_prog("et-synth");
	if (argc < 2) {
		fputs(usage, stderr);
		return ET_EXIT_USAGE;
	}
	const char *sub = argv[1];
	if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(sub, "--version") == 0) {
		printf("et-synth (etkit) %s\n", ETKIT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(sub, cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr,
	        "et-synth: unknown subcommand '%s' (coll, p2p, chain, dag, chakra-generator, "
	        "transform)\nTry 'et-synth --help' for more information.\n",
	        sub);
	return ET_EXIT_USAGE;
}
