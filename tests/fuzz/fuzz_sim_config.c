/* Fuzz target: et-sim's configuration parsers (network YAML, system JSON,
 * KEY=VALUE settings) and cfg_finish, linked with et-sim's library.
 *
 * The first byte selects the mode: bits 0-1 are 0 = network YAML
 * (cfg_load_network), 1 = system JSON (cfg_load_system), 2 or 3 = lines of
 * KEY=VALUE, each given to cfg_set (empty lines skipped, stopping at the first
 * failure, as et-sim does with --set); bit 2 first sets et-sim's default
 * network (what run.c does without --network). The rest is the file or the
 * lines. cfg_finish runs when everything loaded.
 *
 * Invariants (a violation traps):
 * - a function that returns -1 filled its et_error: a non-empty,
 *   NUL-terminated, one-line message (no control character) and the code
 *   cfg.h states: ET_EXIT_DATA or ET_EXIT_IO from the file loaders,
 *   ET_EXIT_USAGE from cfg_set and cfg_finish;
 * - after cfg_finish succeeds: 1 <= ndims <= CFG_MAXDIM; every topology is
 *   known; every npus_count >= 1; stride is the running product and total
 *   the product of npus_count (at most 1e8); bandwidths are finite and > 0,
 *   latencies finite and >= 0; endpoint-delay > 0, preferred-dataset-splits
 *   >= 1, local-mem-bw finite and > 0; every implementation list has 1 to
 *   CFG_MAXDIM known entries (window -1 or >= 1), at most ndims of them
 *   unless it starts with a one* implementation. */
#include "et-sim/config/cfg.h"
#include "et-sim/system/algo/algo_table.h"
#include "fuzz_util.h"

#include <math.h>

static et_error err;

/* No NUL anywhere and no valid code, so a function that fails without
 * filling the error is caught. */
static void err_reset(void)
{
	memset(&err, 'X', sizeof err);
}

static void check_err(bool file)
{
	fuzz_check_error(&err);
	FUZZ_CHECK(file ? err.code == ET_EXIT_DATA || err.code == ET_EXIT_IO
	                : err.code == ET_EXIT_USAGE);
	for (const char *p = err.msg; *p; p++)
		FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void check_cfg(const cfg *c)
{
	FUZZ_CHECK(c->ndims >= 1 && c->ndims <= CFG_MAXDIM);
	uint64_t total = 1;
	for (int d = 0; d < c->ndims; d++) {
		FUZZ_CHECK(c->npus[d] >= 1);
		FUZZ_CHECK(c->stride[d] == total);
		total *= c->npus[d];
		if (c->net.graph) /* an InfraGraph network: its links carry their own */
			continue;
		FUZZ_CHECK(c->net.topo[d] <= TOPO_SWITCH);
		FUZZ_CHECK(isfinite(c->net.bw[d]) && c->net.bw[d] > 0);
		FUZZ_CHECK(isfinite(c->net.lat[d]) && c->net.lat[d] >= 0);
		FUZZ_CHECK(c->net.bpns[d] > 0);
	}
	FUZZ_CHECK(total <= 100000000 && c->total == total);
	FUZZ_CHECK(c->endpoint > 0 && c->splits >= 1);
	FUZZ_CHECK(isfinite(c->local_mem_bw) && c->local_mem_bw > 0);
	for (int k = 0; k < CI_N; k++) {
		const impl_list *l = &c->impl[k];
		FUZZ_CHECK(l->n >= 1 && l->n <= CFG_MAXDIM);
		for (int i = 0; i < l->n; i++)
			FUZZ_CHECK(l->v[i] < algo_count() &&
			           (l->window[i] == -1 || l->window[i] >= 1));
		FUZZ_CHECK(l->one || l->n <= c->ndims);
	}
}

/* One call's result: on failure the error must be filled in. */
static int checked_as(int r, bool file)
{
	FUZZ_CHECK(r == 0 || r == -1);
	if (r < 0)
		check_err(file);
	err_reset();
	return r;
}

static int checked(int r)
{
	return checked_as(r, false);
}

static int set_lines(cfg *c, const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	FUZZ_CHECK(text != NULL);
	memcpy(text, data, size);
	text[size] = 0;
	int r = 0;
	for (char *line = text; r == 0 && line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (*line)
			r = checked(cfg_set(c, line, &err));
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int mode = data[0] & 3;
	bool net = data[0] & 4;
	data++;
	size--;
	cfg c;
	cfg_defaults(&c);
	err_reset();
	int r = 0;
	if (net) {
		/* as run.c's net_defaults for an 8-rank trace */
		FUZZ_CHECK(cfg_set_kv(&c, "topology", "Ring", &err) == 0 &&
		           cfg_set_kv(&c, "npus_count", "8", &err) == 0 &&
		           cfg_set_kv(&c, "bandwidth", "50", &err) == 0 &&
		           cfg_set_kv(&c, "latency", "500", &err) == 0);
	}
	if (mode == 0)
		r = checked_as(cfg_load_network(&c, fuzz_file(data, size), &err), true);
	else if (mode == 1)
		r = checked_as(cfg_load_system(&c, fuzz_file(data, size), &err), true);
	else
		r = set_lines(&c, data, size);
	if (r == 0 && checked(cfg_finish(&c, &err)) == 0)
		check_cfg(&c);
	cfg_free(&c);
	return 0;
}
