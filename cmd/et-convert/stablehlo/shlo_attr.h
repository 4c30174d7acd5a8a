/* shlo_attr: reading the attribute values the StableHLO reader needs, from
 * their offsets in the text (shlo_attr.val), in both printed forms:
 *   integer matrices  dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>, splats
 *                     dense<0> : tensor<1x1xi64>, empty dense<>, and hex
 *                     dense<"0x..."> (little-endian, the type's width);
 *   integer lists     [1, 2], array<i64: 1, 2>, dense<[1, 2]>;
 *   integers          4, 4 : i32, true / false;
 *   channel handles   #stablehlo.channel_handle<handle = 1, type = 0>,
 *                     {handle = 1 : i64, type = 0 : i64};
 *   dot dimensions    [0] x [0] (pretty) or #stablehlo.dot<lhs_... = [..]>;
 *   convolution       [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], its
 *                     #stablehlo.conv<...> and #stablehlo.conv<raw ...>;
 *   comparison        LT (pretty) or #stablehlo<comparison_direction LT>.
 * Each returns 0, or -1 with an error at the offending token ("NAME: line
 * L, column C: expected ..."). The lexer passed is the builder's own,
 * moved to the value. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_ATTR_H
#define ET_CONVERT_STABLEHLO_SHLO_ATTR_H

#include "et-convert/stablehlo/shlo_lex.h"
#include "et-convert/stablehlo/shlo_type.h"

#include <stdint.h>

typedef struct shlo_i64s {
	int64_t *v;
	size_t n, cap;
} shlo_i64s;

void shlo_i64s_push(shlo_i64s *a, int64_t x);
void shlo_i64s_free(shlo_i64s *a);

/* A 2-D integer matrix of rows x cols in m (row-major); an empty one is
 * 0 x 0. Matrices above 2^24 elements are refused. */
int shlo_attr_matrix(shlo_lex *l, size_t off, shlo_i64s *m, uint32_t *rows, uint32_t *cols);
int shlo_attr_list(shlo_lex *l, size_t off, shlo_i64s *v);
/* Two lists written "[a, b] x [c, d]". */
int shlo_attr_list_pair(shlo_lex *l, size_t off, shlo_i64s *a, shlo_i64s *b);
int shlo_attr_int(shlo_lex *l, size_t off, int64_t *v);
int shlo_attr_channel(shlo_lex *l, size_t off, int64_t *handle);

/* dot_general's dimension numbers: lhs/rhs batching and contracting. */
typedef struct shlo_dotdims {
	shlo_i64s lb, rb, lc, rc;
} shlo_dotdims;
int shlo_attr_dot(shlo_lex *l, size_t off, shlo_dotdims *d);
void shlo_dotdims_free(shlo_dotdims *d);

/* What a convolution's FLOPs need of its dimension numbers: the kernel's
 * input feature dimension and its spatial dimensions. */
typedef struct shlo_convdims {
	int64_t kin;
	int64_t ksp[SHLO_MAX_RANK];
	uint32_t nksp;
} shlo_convdims;
int shlo_attr_conv(shlo_lex *l, size_t off, shlo_convdims *c);

enum {
	SHLO_CMP_NONE,
	SHLO_CMP_EQ,
	SHLO_CMP_NE,
	SHLO_CMP_LT,
	SHLO_CMP_LE,
	SHLO_CMP_GT,
	SHLO_CMP_GE
};
/* The first comparison direction word within a few tokens of off. */
int shlo_attr_direction(shlo_lex *l, size_t off);
/* dense<N> within a few tokens of off: *ok and the integer N. */
int shlo_attr_scalar(shlo_lex *l, size_t off, int64_t *v, bool *ok);
/* A list of lists of @symbols ([[@f], [@f]]): rows x cols; *same when
 * every one names the same function, whose name is sym[0..*slen). */
int shlo_attr_programs(shlo_lex *l, size_t off, uint32_t *rows, uint32_t *cols, bool *same,
                       size_t *sym, uint32_t *slen);
/* An integer token's value; false when it is not one (or overflows). */
bool shlo_tok_int(const shlo_tok *t, int64_t *v);

#endif
