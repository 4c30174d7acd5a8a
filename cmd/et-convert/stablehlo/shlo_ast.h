/* shlo_ast: a StableHLO file as the parser leaves it: every operation of
 * every module and function, pretty or generic, with its results,
 * operands, types, the attributes it names and its regions.
 *
 * What the parser keeps of an op is what the builder needs: value names
 * (interned: `%x#2` is symbol x, index 2), the types of its operands and
 * results (sizes; dimensions only for dot, dot_general and convolution),
 * each `key = value` attribute as the offset of its value in the text (to
 * be read again on demand, shlo_attr.h), the first @symbol it names, and
 * its regions (blocks of ops with their arguments). A pretty op's block
 * arguments written before its regions (`stablehlo.while(%i = %c)`,
 * `reducer(%a: T)`, sdy.manual_computation's `(%arg: T)`) become every
 * region's first block's arguments. Modules and functions are ops too
 * (kinds MODULE and FUNC): a function's arguments are its body's.
 *
 * Indices are uint32_t (the input is at most 1 GiB). SHLO_NONE: none. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_AST_H
#define ET_CONVERT_STABLEHLO_SHLO_AST_H

#include "et-convert/stablehlo/shlo_type.h"
#include "et_err.h"
#include "et_strmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHLO_NONE UINT32_MAX

typedef struct shlo_use { /* %sym#idx */
	uint32_t sym, idx;
	size_t off;
} shlo_use;

typedef struct shlo_res { /* %sym:n */
	uint32_t sym, n;
} shlo_res;

typedef struct shlo_attr {
	size_t key; /* offset of its name (a word or a string) */
	uint32_t klen;
	size_t val; /* offset of its value, SIZE_MAX for a unit attribute */
} shlo_attr;

typedef struct shlo_op {
	size_t off;  /* where it starts (results or name), for messages */
	size_t name; /* its name (inside the quotes of a generic op) */
	uint32_t nlen;
	uint16_t kind;         /* enum shlo_opk */
	bool generic;          /* "quoted"(...) form */
	bool list_sig;         /* ": T, U" rather than ": (T, U) -> V" */
	bool priv;             /* FUNC: private */
	uint32_t res, nres;    /* result groups: p->res[res .. res + nres) */
	uint32_t nval;         /* results in all */
	uint32_t use, nuse;    /* operands: p->use[use ..] */
	uint32_t ty, nty, nin; /* p->ty[ty .. ty + nty); a functional signature's
	                        * first nin are the operands' */
	uint32_t attr, nattr;  /* p->attr[attr ..] */
	uint32_t reg, nreg;    /* region ids: p->regl[reg ..] */
	size_t sym;            /* the first @symbol (callee, function or module
	                        * name), without '@' or quotes */
	uint32_t slen;         /* 0: none */
	uint32_t first;        /* the ops nested in it are p->op[first .. its index) */
	size_t end;            /* offset just past it */
	size_t shard;          /* MODULE: its first sharding annotation, SIZE_MAX: none */
	uint8_t seen;          /* builder scratch (a warning given once) */
} shlo_op;

typedef struct shlo_block {
	uint32_t arg, narg; /* argument symbols: p->u32[arg ..] */
	uint32_t op, nop;   /* op ids: p->opl[op ..] */
} shlo_block;

typedef struct shlo_region {
	uint32_t blk, nblk;
} shlo_region;

typedef struct shlo_prog {
	const char *name, *s;
	size_t len;
	shlo_op *op;
	size_t nop, capop;
	shlo_res *res;
	size_t nres, capres;
	shlo_use *use;
	size_t nuse, capuse;
	shlo_type *ty;
	size_t nty, capty;
	shlo_dims dims;
	shlo_attr *attr;
	size_t nattr, capattr;
	uint32_t *regl;
	size_t nregl, capregl;
	shlo_region *reg;
	size_t nreg, capreg;
	shlo_block *blk;
	size_t nblk, capblk;
	uint32_t *u32;
	size_t nu32, capu32;
	uint32_t *opl;
	size_t nopl, capopl;
	uint32_t top;   /* the block of the file's top-level ops */
	size_t shard;   /* the file's first sharding annotation, SIZE_MAX: none */
	et_strmap syms; /* value names, without '%' */
} shlo_prog;

/* Parses s[0..len) (name for messages) into p. 0, or -1 with e set
 * ("NAME: line L, column C: what was expected", ET_EXIT_DATA). */
int shlo_parse(shlo_prog *p, const char *name, const char *s, size_t len, et_error *e);
void shlo_prog_free(shlo_prog *p);

/* Operand i's / result j's type under the op's signature. A list
 * signature ": T" or ": P, T" gives its types to the operands in order,
 * the last to the rest; results take the list when there are as many,
 * else its last type. NULL when the op has no signature. */
const shlo_type *shlo_in_type(const shlo_prog *p, const shlo_op *o, uint32_t i);
const shlo_type *shlo_out_type(const shlo_prog *p, const shlo_op *o, uint32_t j);
/* The attribute named key, or NULL. */
const shlo_attr *shlo_find_attr(const shlo_prog *p, const shlo_op *o, const char *key);
/* A block's op ids (NULL when it has none). */
static inline const uint32_t *shlo_block_ops(const shlo_prog *p, const shlo_block *b)
{
	return b->nop ? p->opl + b->op : NULL;
}

#endif
