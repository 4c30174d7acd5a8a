/* gemm: the M, N, K of a GEMM-shaped COMP node, for the systolic model. */
#ifndef ET_SIM_WORKLOAD_GEMM_H
#define ET_SIM_WORKLOAD_GEMM_H
#include "et_codec.h"
#include <stdint.h>

/* out[0..2] = M, N, K, or all 0 when the node is not GEMM-shaped. From the
 * gemm_m / gemm_n / gemm_k attributes, else from the input shapes of
 * aten::mm, addmm, bmm, matmul and linear nodes. */
void gemm_dims(const et_node *n, uint64_t out[3]);
/* Parse "[[a, b], [c, d, e]]": up to 4 shapes of up to 4 dims; returns count. */
int gemm_parse_shapes(const char *s, uint64_t shp[4][4], int nd[4]);

#endif
