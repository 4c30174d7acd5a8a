/* splitmix64: tiny, fast, and its output for a seed is fixed forever,
 * which is what --seed promises. Streams are separated by mixing a stream
 * number into the seed, so one subcommand's choices never shift another's. */
#include "synth.h"

#include <math.h>

void rng_seed(rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed * 0x9E3779B97F4A7C15ull ^ (stream + 1) * 0xD1B54A32D192ED03ull;
}

uint64_t rng_next(rng *r)
{
	uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

double rng_unit(rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t rng_below(rng *r, uint64_t n)
{
	/* multiply-shift: no modulo bias worth caring about for n << 2^64 */
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

double rng_log_uniform(rng *r, double lo, double hi)
{
	return lo * exp(rng_unit(r) * log(hi / lo));
}
