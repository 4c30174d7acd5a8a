/* et_rng: splitmix64 (see et_rng.h). Chosen because it is tiny and its
 * output for a seed is fixed by its constants alone. */
#include "et_rng.h"

#include <math.h>

void et_rng_seed(et_rng *r, uint64_t seed, uint64_t stream)
{
	/* stream + 1: stream 0 of seed 0 still starts away from state 0 */
	r->s = seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull;
}

uint64_t et_rng_next(et_rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

double et_rng_unit(et_rng *r)
{
	return (double)(et_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t et_rng_below(et_rng *r, uint64_t n)
{
	/* multiply-shift: no modulo bias worth caring about for n << 2^64 */
	return (uint64_t)(((unsigned __int128)et_rng_next(r) * n) >> 64);
}

double et_rng_log_uniform(et_rng *r, double lo, double hi)
{
	return lo * exp(et_rng_unit(r) * log(hi / lo));
}
