/* layerdag-sample: learn a corpus of DAGs and judge generated ones. One
 * subcommand per file; this one dispatches. */
#include "et_err.h"
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

static const struct {
	const char *name;
	int (*fn)(int, char **);
} cmds[] = {
    {"fit", cmd_fit},
    {"sample", cmd_sample},
    {"eval", cmd_eval},
};

int main(int argc, char **argv)
{
	et_err_set_prog("layerdag-sample");
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
		printf("layerdag-sample (etkit) %s\n", ETKIT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(sub, cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr,
	        "layerdag-sample: unknown subcommand '%s' (fit, sample, eval)\n"
	        "Try 'layerdag-sample --help' for more information.\n",
	        sub);
	return ET_EXIT_USAGE;
}
