/* et_rng: deterministic random numbers (splitmix64) for generators whose
 * output must depend on nothing but their seed.
 *
 * Callers may rely on the sequence for a (seed, stream) pair never
 * changing: et-synth's --seed promises the same output for the same seed,
 * and the unit tests pin the first numbers. Streams separate independent
 * users of one seed, so that drawing more numbers in one never shifts the
 * other's. No allocation; an et_rng is a plain value. */
#ifndef ET_RNG_H
#define ET_RNG_H

#include <stdint.h>

typedef struct et_rng {
	uint64_t s;
} et_rng;

void et_rng_seed(et_rng *r, uint64_t seed, uint64_t stream);
/* The next 64 bits. */
uint64_t et_rng_next(et_rng *r);
/* Uniform in [0, 1), from the top 53 bits of one et_rng_next. */
double et_rng_unit(et_rng *r);
/* Uniform in [0, n) for n > 0, from one et_rng_next. */
uint64_t et_rng_below(et_rng *r, uint64_t n);
/* Log-uniform in [lo, hi) for 0 < lo < hi, from one et_rng_unit. */
double et_rng_log_uniform(et_rng *r, double lo, double hi);

#endif
