/* et_hmap: see et_hmap.h. Load factor <= 1/2. */
#include "et_hmap.h"
#include "et_buf.h"
#include <stdlib.h>

static uint64_t hash2(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL + (a << 7));
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

static void grow(et_hmap *m)
{
	uint64_t cap = m->s ? (m->mask + 1) * 2 : 256;
	et_hmap_slot *old = m->s;
	uint64_t oldcap = m->s ? m->mask + 1 : 0;
	m->s = et_xcalloc(cap, sizeof *m->s);
	m->mask = cap - 1;
	m->n = 0;
	for (uint64_t i = 0; i < oldcap; i++)
		if (old[i].used)
			*et_hmap_put(m, old[i].a, old[i].b, 0) = old[i].v;
	free(old);
}

uint64_t *et_hmap_get(const et_hmap *m, uint64_t a, uint64_t b)
{
	if (!m->s)
		return NULL;
	for (uint64_t i = hash2(a, b) & m->mask;; i = (i + 1) & m->mask) {
		et_hmap_slot *s = &m->s[i];
		if (!s->used)
			return NULL;
		if (s->a == a && s->b == b)
			return &s->v;
	}
}

uint64_t *et_hmap_put(et_hmap *m, uint64_t a, uint64_t b, uint64_t v0)
{
	uint64_t *v = et_hmap_get(m, a, b);
	if (v)
		return v;
	if (!m->s || (m->n + 1) * 2 > m->mask + 1)
		grow(m);
	uint64_t i = hash2(a, b) & m->mask;
	while (m->s[i].used)
		i = (i + 1) & m->mask;
	m->s[i] = (et_hmap_slot){a, b, v0, true};
	m->n++;
	return &m->s[i].v;
}

void et_hmap_del(et_hmap *m, uint64_t a, uint64_t b)
{
	if (!m->s)
		return;
	uint64_t i = hash2(a, b) & m->mask;
	while (m->s[i].used && !(m->s[i].a == a && m->s[i].b == b))
		i = (i + 1) & m->mask;
	if (!m->s[i].used)
		return;
	m->s[i].used = false;
	m->n--;
	/* backward shift: move later entries of the cluster into the hole */
	for (uint64_t j = (i + 1) & m->mask; m->s[j].used; j = (j + 1) & m->mask) {
		uint64_t home = hash2(m->s[j].a, m->s[j].b) & m->mask;
		bool between = (i <= j) ? (home > i && home <= j) : (home > i || home <= j);
		if (!between) {
			m->s[i] = m->s[j];
			m->s[j].used = false;
			i = j;
		}
	}
}

void et_hmap_free(et_hmap *m)
{
	free(m->s);
	m->s = NULL;
	m->n = m->mask = 0;
}
