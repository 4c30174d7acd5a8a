/* Fuzz target: the Kineto trace parser and linker, linking fuzz bytes to a
 * small fixed host trace. Built with the et-convert sources listed in
 * fuzz_kineto.srcs. */
#include "et-convert/pytorch/pt.h"
#include "fuzz_util.h"

static const char host[] =
    "{\"schema\": \"1.0.2-chakra.0.0.4\", \"pid\": 1, \"time\": \"t\", \"start_ts\": 1, "
    "\"nodes\": [{\"id\": 2, \"name\": \"[pytorch|profiler|execution_trace|thread]\", "
    "\"ctrl_deps\": 1, \"inputs\": {\"values\": [], \"shapes\": [], \"types\": []}, "
    "\"outputs\": {\"values\": [], \"shapes\": [], \"types\": []}, \"attrs\": [{\"name\": "
    "\"rf_id\", \"type\": \"uint64\", \"value\": 0}]}, {\"id\": 3, \"name\": \"aten::mm\", "
    "\"ctrl_deps\": 2, \"inputs\": {\"values\": [], \"shapes\": [], \"types\": []}, "
    "\"outputs\": {\"values\": [], \"shapes\": [], \"types\": []}, \"attrs\": [{\"name\": "
    "\"rf_id\", \"type\": \"uint64\", \"value\": 1}]}], \"finish_ts\": 2}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char host_path[64];
	if (!host_path[0]) {
		FILE *f = fopen("/tmp/fuzz_kineto_host.json", "w");
		if (!f)
			return 0;
		fputs(host, f);
		fclose(f);
		snprintf(host_path, sizeof host_path, "/tmp/fuzz_kineto_host.json");
	}
	pt_trace t;
	pt_opts o = {.allow_unlinked = true};
	et_error e = {0};
	FUZZ_CHECK(pt_parse(&t, host_path, &o, &e) == 0);
	if (pt_link_kineto(&t, fuzz_file(data, size), &o, &e) < 0)
		FUZZ_CHECK(e.code != 0 && e.msg[0]);
	pt_trace_free(&t);
	return 0;
}
