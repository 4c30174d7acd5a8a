/* Fuzz target: et-sim end to end (load the workload, configure, simulate,
 * report) on one input read by et_input, any format it sniffs; seeds are
 * small JSONL traces with collectives, SEND/RECV pairs, compute and
 * dependencies across ranks. Linked with et-sim's library.
 *
 * The first byte sets the options: bit 0 --format json, bit 1
 * --critical-path, bit 2 --no-closed-form, bit 3 --no-fold, bits 4-5 one
 * of four --set lists (none; direct all-reduce on a Switch; FIFO
 * scheduling with two chunks; halvingDoubling), bit 6 the congestion-aware
 * backend. The network is et-sim's default, a ring as wide as the trace.
 * The report goes to /dev/null.
 *
 * Invariant: the exit status is 0 (simulated), 1 (deadlock), 2 (a setting
 * the trace cannot use) or 3 (bad input); never a crash, a leak, an exit,
 * or an allocation sized by the input beyond libFuzzer's memory limit. */
#include "et-sim/run.h"
#include "fuzz_util.h"

static const char *sets[4][3] = {
    {NULL},
    {"topology=Switch", "all-reduce-implementation=direct", NULL},
    {"scheduling-policy=FIFO", "active-chunks-per-dimension=2", NULL},
    {"all-reduce-implementation=halvingDoubling", NULL},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	run_conf c;
	memset(&c, 0, sizeof c);
	et_input_opts_init(&c.in);
	c.json = data[0] & 1;
	c.crit = data[0] & 2;
	c.op.closed_form = !(data[0] & 4);
	c.no_fold = data[0] & 8;
	c.backend = (data[0] >> 6) % net_backend_count(); /* bit 6 with two backends */
	const char **s = (const char **)sets[data[0] >> 4 & 3];
	while (s[c.nsets])
		c.nsets++;
	c.sets = s;
	c.output = "/dev/null";
	c.progress = -1;
	char *argv[] = {(char *)fuzz_file(data + 1, size - 1)};
	int rc = run_main(&c, 1, argv);
	FUZZ_CHECK(rc >= 0 && rc <= 3);
	return 0;
}
