/* shlo_parse_region: regions and their blocks (shlo_parse.h): `{`, an
 * optional ^label(%arg: T, ...): per block, ops up to the matching `}`.
 * A block's ops and a region's blocks go on stacks while nested regions
 * are read, and are copied out contiguous when they end. */
#include "et-convert/stablehlo/shlo_parse.h"
#include "et_mem.h"

#include <string.h>

static int next(shlo_ps *ps)
{
	return shlo_lex_next(&ps->l);
}

static bool is(shlo_ps *ps, char c)
{
	return shlo_is(&ps->l, c);
}

/* ^bb0(%a: T, %b: U): */
static int label(shlo_ps *ps, shlo_block *b)
{
	shlo_prog *p = ps->p;
	if (next(ps) < 0)
		return -1;
	if (is(ps, '(')) {
		if (next(ps) < 0)
			return -1;
		while (!is(ps, ')')) {
			uint32_t idx;
			if (ps->l.cur.kind != SHLO_T_VAL)
				return shlo_fail(&ps->l, "expected a block argument (%%name)");
			shlo_ps_push_u32(&p->u32, &p->nu32, &p->capu32,
			                 shlo_ps_sym(ps, &ps->l.cur, &idx));
			b->narg++;
			if (next(ps) < 0 || shlo_expect(&ps->l, ':') < 0 ||
			    shlo_ps_skip_to_comma(ps) < 0)
				return -1;
			if (is(ps, ',') && next(ps) < 0)
				return -1;
			if (!is(ps, ')') && ps->l.cur.kind != SHLO_T_VAL)
				return shlo_fail(&ps->l, "expected ',' or ')'");
		}
		if (next(ps) < 0)
			return -1;
	}
	return shlo_expect(&ps->l, ':');
}

static void open_block(shlo_ps *ps, shlo_block *b, size_t *sb)
{
	memset(b, 0, sizeof *b);
	b->arg = (uint32_t)ps->p->nu32;
	*sb = ps->nstk;
}

static void close_block(shlo_ps *ps, shlo_block *b, size_t sb)
{
	shlo_prog *p = ps->p;
	size_t n = ps->nstk - sb;
	ET_GROW(p->opl, p->capopl, (size_t)p->nopl + n);
	if (n)
		memcpy(p->opl + p->nopl, ps->stk + sb, n * sizeof *p->opl);
	b->op = (uint32_t)p->nopl;
	b->nop = (uint32_t)n;
	p->nopl += n;
	ps->nstk = sb;
	ET_GROW(ps->bstk, ps->capbstk, (size_t)ps->nbstk + 1);
	ps->bstk[ps->nbstk++] = *b;
}

static void close_region(shlo_ps *ps, size_t bb, uint32_t *rid)
{
	shlo_prog *p = ps->p;
	size_t n = ps->nbstk - bb;
	ET_GROW(p->blk, p->capblk, (size_t)p->nblk + n);
	memcpy(p->blk + p->nblk, ps->bstk + bb, n * sizeof *p->blk);
	ET_GROW(p->reg, p->capreg, (size_t)p->nreg + 1);
	p->reg[p->nreg] = (shlo_region){(uint32_t)p->nblk, (uint32_t)n};
	*rid = (uint32_t)p->nreg++;
	p->nblk += n;
	ps->nbstk = bb;
}

static void pending_args(shlo_ps *ps, shlo_block *b, size_t pb)
{
	for (size_t i = pb; i < ps->npend; i++) {
		shlo_ps_push_u32(&ps->p->u32, &ps->p->nu32, &ps->p->capu32, ps->pend[i]);
		b->narg++;
	}
}

int shlo_ps_region(shlo_ps *ps, size_t pb, uint32_t *rid)
{
	size_t open = ps->l.cur.off, bb = ps->nbstk, sb;
	if (++ps->depth > SHLO_MAX_NEST)
		return shlo_fail(&ps->l, "regions nested deeper than %d", SHLO_MAX_NEST);
	if (shlo_expect(&ps->l, '{') < 0)
		return -1;
	shlo_block b;
	open_block(ps, &b, &sb);
	if (ps->l.cur.kind == SHLO_T_LABEL) {
		if (label(ps, &b) < 0)
			return -1;
	} else {
		pending_args(ps, &b, pb);
	}
	while (!is(ps, '}')) {
		uint32_t id;
		if (ps->l.cur.kind == SHLO_T_EOF)
			return shlo_fail_at(ps->l.e, ps->l.name, ps->l.s, open,
			                    "this region is not closed (expected '}')");
		if (ps->l.cur.kind == SHLO_T_LABEL) {
			close_block(ps, &b, sb);
			open_block(ps, &b, &sb);
			if (label(ps, &b) < 0)
				return -1;
			continue;
		}
		if (shlo_ps_stmt(ps, &id) < 0)
			return -1;
		shlo_ps_push_u32(&ps->stk, &ps->nstk, &ps->capstk, id);
	}
	close_block(ps, &b, sb);
	close_region(ps, bb, rid);
	ps->depth--;
	return next(ps);
}
