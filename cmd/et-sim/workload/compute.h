/* compute: the time of a COMP node under the configured compute model. */
#ifndef ET_SIM_WORKLOAD_COMPUTE_H
#define ET_SIM_WORKLOAD_COMPUTE_H
#include "et-sim/config/cfg.h"
#include "et-sim/workload/sgraph.h"
#include <stdint.h>

/* In ns; UINT64_MAX when the time does not fit in 64 bits. */
uint64_t compute_ns(const cfg *cf, const sgraph *g, uint32_t i);
/* The SCALE-Sim analytical cycle count of an M x N x K GEMM (UINT64_MAX
 * when it does not fit). */
uint64_t systolic_cycles(const cfg *cf, uint64_t m, uint64_t n, uint64_t k);
/* A GEMM's ns from its cycles: cycles / clock rounded up, or with a fitted
 * line (systolic-a > 0) a * cycles + b rounded up (at least 0). */
double systolic_ns(const cfg *cf, uint64_t cycles);
/* M·N·K over the processing elements' cycles (rows · cols · arrays · cycles). */
double systolic_util(const cfg *cf, const uint64_t mnk[3], uint64_t cycles);

#endif
