/* Fuzz our JSON / JSONL reader (format forced to JSON). The reader encodes
 * the messages itself, so each one must decode and re-encode to exactly the
 * bytes it yielded (see fuzz_util.h). */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_all(fuzz_file(data, size), ET_FMT_JSON, true);
	return 0;
}
