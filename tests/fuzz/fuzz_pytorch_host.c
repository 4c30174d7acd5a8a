/* Fuzz target: et-convert's PyTorch host-ET parser (and the call tree and
 * dependency walk of both conversions on what it accepts). Built with the
 * et-convert sources listed in fuzz_pytorch_host.srcs. */
#include "et-convert/pytorch/pt.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pt_trace t;
	pt_opts o = {0};
	et_error e = {0};
	if (pt_parse(&t, fuzz_file(data, size), &o, &e) < 0)
		FUZZ_CHECK(e.code != 0 && e.msg[0]);
	pt_trace_free(&t);
	return 0;
}
