/* shlo_type: StableHLO/MLIR types as sizes: tensor<4x8xbf16>, scalars
 * (f32, i1, index), complex<f64>, tuple<...> (nested, without recursion),
 * !stablehlo.token, quantized tensor<4x!quant.uniform<i8:f32, 0.5:-3>>
 * (the storage type's size), vector<...> and memref<...> as tensors.
 *
 * Bytes per element follow XLA: i1 and every type narrower than a byte
 * take one byte, complex<fN> twice fN, tokens and unknown dialect element
 * types nothing. Sizes saturate at UINT64_MAX (et_sat.h); a dynamic
 * dimension ('?') counts as 1 and is flagged. Ranks above SHLO_MAX_RANK
 * are refused. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_TYPE_H
#define ET_CONVERT_STABLEHLO_SHLO_TYPE_H

#include "et-convert/stablehlo/shlo_lex.h"

#include <stdbool.h>
#include <stdint.h>

#define SHLO_MAX_RANK 64

typedef struct shlo_type {
	uint64_t elems; /* elements (a tuple: summed over its members) */
	uint64_t bytes;
	uint32_t dim;  /* a tensor's dimensions: dims->v[dim .. dim + rank) */
	uint32_t rank; /* 0 for scalars, tuples, tokens, or when dims were not kept */
	bool dynamic;  /* some dimension is '?' (counted as 1) */
} shlo_type;

typedef struct shlo_dims {
	uint64_t *v;
	size_t n, cap;
} shlo_dims;

/* Parses the type at cur and moves past it. With dims NULL, a tensor's
 * dimensions are not kept (rank stays 0). */
int shlo_type_parse(shlo_lex *l, shlo_dims *dims, shlo_type *t);
/* Whether cur can start a type. */
bool shlo_type_starts(const shlo_lex *l);
/* Bytes per element of an element type's name (f32, bf16, ui8, i1,
 * f8E4M3FN, index...); 0 with *ok false when unknown. */
uint64_t shlo_elem_bytes(const char *w, size_t n, bool *ok);
void shlo_dims_free(shlo_dims *d);

#endif
