/* hmap: see hmap.h. Load factor <= 1/2. */
#include "hmap.h"
#include "et_err.h"
#include <stdlib.h>

static uint64_t hash2(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL + (a << 7));
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

static void grow(hmap *m)
{
	uint64_t cap = m->s ? (m->mask + 1) * 2 : 256;
	hslot *old = m->s;
	uint64_t oldcap = m->s ? m->mask + 1 : 0;
	m->s = calloc(cap, sizeof *m->s);
	if (!m->s)
		et_die(ET_EXIT_IO, "out of memory (hash map)");
	m->mask = cap - 1;
	m->n = 0;
	for (uint64_t i = 0; i < oldcap; i++)
		if (old[i].used)
			*hmap_put(m, old[i].a, old[i].b, 0) = old[i].v;
	free(old);
}

uint64_t *hmap_get(const hmap *m, uint64_t a, uint64_t b)
{
	if (!m->s)
		return NULL;
	for (uint64_t i = hash2(a, b) & m->mask;; i = (i + 1) & m->mask) {
		hslot *s = &m->s[i];
		if (!s->used)
			return NULL;
		if (s->a == a && s->b == b)
			return &s->v;
	}
}

uint64_t *hmap_put(hmap *m, uint64_t a, uint64_t b, uint64_t v0)
{
	uint64_t *v = hmap_get(m, a, b);
	if (v)
		return v;
	if (!m->s || (m->n + 1) * 2 > m->mask + 1)
		grow(m);
	uint64_t i = hash2(a, b) & m->mask;
	while (m->s[i].used)
		i = (i + 1) & m->mask;
	m->s[i] = (hslot){a, b, v0, true};
	m->n++;
	return &m->s[i].v;
}

void hmap_del(hmap *m, uint64_t a, uint64_t b)
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

void hmap_free(hmap *m)
{
	free(m->s);
	m->s = NULL;
	m->n = m->mask = 0;
}
