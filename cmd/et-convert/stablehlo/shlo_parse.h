/* shlo_parse: the parser's state, shared by its three files: shlo_parse.c
 * (operations, attribute dictionaries, signatures), shlo_parse_region.c
 * (regions and blocks) and shlo_parse_top.c (the file, modules, functions,
 * the AST's accessors).
 *
 * What an op collects while it is parsed (operands, attributes, regions,
 * pretty block arguments, the ops of open blocks) goes on stacks first:
 * ops nested in its regions push and pop above it, and the op copies its
 * own entries into the program, contiguous, when it ends. Regions nest by
 * recursion through shlo_ps_stmt, at most SHLO_MAX_NEST deep. */
#ifndef ET_CONVERT_STABLEHLO_SHLO_PARSE_H
#define ET_CONVERT_STABLEHLO_SHLO_PARSE_H

#include "et-convert/stablehlo/shlo_ast.h"
#include "et-convert/stablehlo/shlo_lex.h"

typedef struct shlo_ps {
	shlo_lex l;
	shlo_prog *p;
	uint32_t *stk; /* op ids of the open blocks */
	size_t nstk, capstk;
	shlo_block *bstk; /* blocks of the open regions */
	size_t nbstk, capbstk;
	uint32_t *pend; /* pretty block arguments (symbols) of the open ops */
	size_t npend, cappend;
	shlo_use *ustk;
	size_t nustk, capustk;
	shlo_attr *astk;
	size_t nastk, capastk;
	uint32_t *rstk; /* region ids of the open ops */
	size_t nrstk, caprstk;
	unsigned depth; /* open regions */
} shlo_ps;

/* One operation at cur (results, name, the rest), appended to the program;
 * *id is its index. Modules and functions too. */
int shlo_ps_stmt(shlo_ps *ps, uint32_t *id);
/* A region at cur ('{'): blocks of ops until the matching '}'. Without a
 * ^label, its first block's arguments are ps->pend[pb ..]. */
int shlo_ps_region(shlo_ps *ps, size_t pb, uint32_t *rid);
/* An attribute dictionary at cur ('{'): each entry goes on ps->astk. */
int shlo_ps_dict(shlo_ps *ps);
/* `attributes {...}` at cur, parsed: 1; another token: 0 (nothing read). */
int shlo_ps_attributes(shlo_ps *ps);
/* Skips tokens to the next ',' or closing bracket at this level. */
int shlo_ps_skip_to_comma(shlo_ps *ps);
/* A pretty func.func / module after its name. */
int shlo_ps_func(shlo_ps *ps, shlo_op *o);
int shlo_ps_module(shlo_ps *ps, shlo_op *o);
/* Whether cur, which follows a newline, starts a new operation. */
bool shlo_ps_stmt_start(shlo_ps *ps);
/* The symbol of a %value token; *idx its #index (0 without). */
uint32_t shlo_ps_sym(shlo_ps *ps, const shlo_tok *t, uint32_t *idx);
void shlo_ps_push_u32(uint32_t **v, size_t *n, size_t *cap, uint32_t x);

#endif
