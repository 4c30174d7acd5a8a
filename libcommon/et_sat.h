/* et_sat: unsigned 64-bit sums and products that saturate at UINT64_MAX
 * instead of wrapping. A wrapped total is a plausible-looking wrong number;
 * a saturated one is recognisable: UINT64_MAX stands for "does not fit in
 * 64 bits" and stays so through et_sat_add and et_sat_mul (except a product
 * with 0, which is 0), so a chain of operations needs one test, at its end.
 * Callers decide what a saturated value means: et-sim refuses it, et-validate
 * and et-synth print it and say so. */
#ifndef ET_SAT_H
#define ET_SAT_H

#include <stdbool.h>
#include <stdint.h>

static inline uint64_t et_sat_add(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

static inline uint64_t et_sat_mul(uint64_t a, uint64_t b)
{
	uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/* a / b (b > 0), but a saturated a stays saturated: a share of a size that
 * did not fit does not fit either, as far as anyone can tell. */
static inline uint64_t et_sat_div(uint64_t a, uint64_t b)
{
	return a == UINT64_MAX ? a : a / b;
}

/* x truncated to an integer: 0 for NaN and values <= 0, UINT64_MAX for
 * values at or beyond 2^64. The range is tested before the cast because
 * converting an out-of-range double to an integer is undefined behaviour;
 * every double below 2^64 truncates to at most 2^64 - 2048, so UINT64_MAX
 * only ever means "saturated". */
static inline uint64_t et_sat_from_double(double x)
{
	if (!(x > 0))
		return 0;
	if (x >= 18446744073709551616.0) /* 2^64, exact as a double */
		return UINT64_MAX;
	return (uint64_t)x;
}

/* Whether v is the saturated value. */
static inline bool et_sat_is(uint64_t v)
{
	return v == UINT64_MAX;
}

#endif
