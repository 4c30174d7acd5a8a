/* compute: the time of a COMP node under the configured compute model. */
#ifndef COMPUTE_H
#define COMPUTE_H
#include "cfg.h"
#include "sgraph.h"
#include <stdint.h>

/* In ns; UINT64_MAX when the time does not fit in 64 bits. */
uint64_t compute_ns(const cfg *cf, const sgraph *g, uint32_t i);
/* The SCALE-Sim analytical cycle count of an M x N x K GEMM (UINT64_MAX
 * when it does not fit). */
uint64_t systolic_cycles(const cfg *cf, uint64_t m, uint64_t n, uint64_t k);

#endif
