/* Fuzz the binary readers: raw, gzip and zstd ETs and streams, as sniffed by
 * et_input (JSON is left to fuzz_json_reader: the format is forced to ET,
 * which still honours the container sniff). Every message is decoded and
 * re-encoded (see fuzz_util.h for the invariants). */
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_all(fuzz_file(data, size), ET_FMT_ET, false);
	return 0;
}
