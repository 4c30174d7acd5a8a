/* cpat: interned value patterns of communicating nodes. */
#include "et-sim/workload/cpat.h"
#include "et_hash.h"
#include "et_mem.h"
#include <stdlib.h>
#include <string.h>

static uint64_t content_hash(const uint16_t *idx, uint32_t n, const uint8_t *kind, uint32_t nval)
{
	uint64_t h = 0xcbf29ce484222325u ^ n ^ (uint64_t)nval << 32;
	for (uint32_t k = 0; k < n; k++)
		h = (h ^ idx[k]) * 0x100000001b3u;
	for (uint32_t k = 0; k < nval; k++)
		h = (h ^ kind[k]) * 0x100000001b3u;
	return h;
}

static bool pat_equal(const cpat *p, const uint16_t *idx, uint32_t n, const uint8_t *kind,
                      uint32_t nval)
{
	return p->n == n && p->nval == nval &&
	       (n == 0 || memcmp(p->idx, idx, (size_t)n * sizeof *idx) == 0) &&
	       (nval == 0 || memcmp(p->kind, kind, nval) == 0);
}

const cpat *cpat_intern(cpat_set *s, const uint16_t *idx, uint32_t n, const uint8_t *kind,
                        uint32_t nval)
{
	uint64_t h = content_hash(idx, n, kind, nval), k = 0, *v;
	for (; (v = et_hmap_get(&s->m, h, k)); k++)
		if (pat_equal(s->p[*v], idx, n, kind, nval))
			return s->p[*v];
	cpat *p = et_xmalloc(sizeof *p);
	p->id = s->n;
	p->n = n;
	p->nval = nval;
	p->idx = et_xmalloc(((size_t)n + 1) * sizeof *p->idx);
	if (n)
		memcpy(p->idx, idx, (size_t)n * sizeof *idx);
	p->kind = et_xmalloc((size_t)nval + 1);
	if (nval)
		memcpy(p->kind, kind, nval);
	*et_hmap_put(&s->m, h, k, 0) = s->n;
	ET_GROW(s->p, s->cap, (size_t)s->n + 1);
	s->p[s->n++] = p;
	return p;
}

void cpat_set_free(cpat_set *s)
{
	for (uint32_t k = 0; k < s->n; k++) {
		free(s->p[k]->idx);
		free(s->p[k]->kind);
		free(s->p[k]);
	}
	free(s->p);
	et_hmap_free(&s->m);
	memset(s, 0, sizeof *s);
}

uint32_t cpat_build_add(cpat_build *b, uint8_t kind, uint64_t key, bool *fresh)
{
	*fresh = false;
	if (b->over)
		return 0;
	uint64_t *v = et_hmap_put(&b->keys, kind, key, b->nval);
	if (*v == b->nval) {
		if (b->nval == CPAT_MAX_VALS) {
			b->over = true;
			return 0;
		}
		ET_GROW(b->kind, b->cap_kind, (size_t)b->nval + 1);
		b->kind[b->nval++] = kind;
		*fresh = true;
	}
	ET_GROW(b->idx, b->cap_idx, (size_t)b->n + 1);
	b->idx[b->n++] = (uint16_t)*v;
	return (uint32_t)*v;
}

void cpat_build_reset(cpat_build *b)
{
	et_hmap_free(&b->keys);
	b->n = b->nval = 0;
	b->over = false;
}

void cpat_build_free(cpat_build *b)
{
	et_hmap_free(&b->keys);
	free(b->idx);
	free(b->kind);
	memset(b, 0, sizeof *b);
}

uint64_t cpat_str_key(const char *s)
{
	return et_fnv1a(ET_FNV1A_INIT, s, strlen(s));
}
