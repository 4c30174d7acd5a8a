/* shlo_name: names of the ops the StableHLO builder emits (shlo_build.h):
 * PREFIX MNEMONIC.RESULT ("relu_0.163/maximum.1", "while.3[2]/add.7"),
 * the prefix naming the inlined call, loop iteration or branch; a name
 * already given gets "~2", "~3", ... so that every name is unique. */
#include "et-convert/stablehlo/shlo_build.h"
#include "et_mem.h"

#include <stdio.h>
#include <string.h>

static void pfx_append(shlo_b *b, const char *s, size_t n)
{
	ET_GROW(b->pfx, b->cappfx, (size_t)b->npfx + n + 1);
	memcpy(b->pfx + b->npfx, s, n);
	b->npfx += n;
	b->pfx[b->npfx] = 0;
}

size_t shlo_b_pfx_push(shlo_b *b, const char *seg, size_t n, const char *suffix)
{
	size_t len = b->npfx;
	pfx_append(b, seg, n);
	pfx_append(b, suffix, strlen(suffix));
	pfx_append(b, "/", 1);
	return len;
}

void shlo_b_pfx_pop(shlo_b *b, size_t len)
{
	b->npfx = len;
	if (b->pfx)
		b->pfx[len] = 0;
}

/* The op's mnemonic: its name after the last '.'. */
static void mnemonic(const shlo_b *b, const shlo_op *o, const char **s, size_t *n)
{
	const char *name = b->p->s + o->name;
	size_t k = o->nlen;
	while (k > 0 && name[k - 1] != '.')
		k--;
	*s = name + k;
	*n = o->nlen - k;
	if (*n == 0) { /* "a." has none: the whole name (never empty) */
		*s = name;
		*n = o->nlen;
	}
}

static void nbuf_set(shlo_b *b, const char *s, size_t n, size_t at)
{
	ET_GROW(b->nbuf, b->capnbuf, at + n + 1);
	memcpy(b->nbuf + at, s, n);
	b->nbuf[at + n] = 0;
}

/* PREFIX MNEMONIC.RESULT, made unique with a "~N" suffix. */
const char *shlo_b_name(shlo_b *b, const shlo_op *o)
{
	const char *m;
	size_t mn, len;
	mnemonic(b, o, &m, &mn);
	nbuf_set(b, b->pfx ? b->pfx : "", b->npfx, 0);
	nbuf_set(b, m, mn, b->npfx);
	len = b->npfx + mn;
	if (o->nres) {
		const char *r = shlo_b_sym(b, b->p->res[o->res].sym);
		nbuf_set(b, ".", 1, len);
		nbuf_set(b, r, strlen(r), len + 1);
		len += 1 + strlen(r);
	}
	uint32_t before = et_strmap_count(&b->names);
	uint32_t id = et_strmap_intern(&b->names, b->nbuf, len);
	if (et_strmap_count(&b->names) == before) {
		/* taken: BASE~N from the base's own counter */
		uint32_t nb = et_strmap_count(&b->bases);
		uint32_t base = et_strmap_intern(&b->bases, b->nbuf, len);
		ET_GROW(b->next_suffix, b->capsuffix, (size_t)base + 1);
		if (et_strmap_count(&b->bases) > nb)
			b->next_suffix[base] = 2;
		for (;;) {
			char suf[16];
			int k = snprintf(suf, sizeof suf, "~%u", b->next_suffix[base]++);
			nbuf_set(b, suf, (size_t)k, len);
			before = et_strmap_count(&b->names);
			id = et_strmap_intern(&b->names, b->nbuf, len + (size_t)k);
			if (et_strmap_count(&b->names) > before)
				break;
		}
	}
	return xir_str(b->x, et_strmap_key(&b->names, id), SIZE_MAX);
}

const char *shlo_b_opcode(shlo_b *b, uint32_t id)
{
	const shlo_op *o = &b->p->op[id];
	if (!b->opcode[id])
		b->opcode[id] = xir_str(b->x, b->p->s + o->name, o->nlen);
	return b->opcode[id];
}
