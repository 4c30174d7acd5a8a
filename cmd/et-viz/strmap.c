/* Open addressing, FNV-1a, doubling at half full. */
#include "strmap.h"
#include "et_buf.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static strmap_ent *find(strmap_ent *t, uint32_t mask, const char *key)
{
	uint32_t s = hash(key) & mask;
	while (t[s].key && strcmp(t[s].key, key) != 0)
		s = (s + 1) & mask;
	return &t[s];
}

static void grow(strmap *m)
{
	uint32_t cap = m->t ? (m->mask + 1) * 2 : 64;
	strmap_ent *t = et_xcalloc(cap, sizeof *t);
	for (uint32_t k = 0; m->t && k <= m->mask; k++)
		if (m->t[k].key)
			*find(t, cap - 1, m->t[k].key) = m->t[k];
	free(m->t);
	m->t = t;
	m->mask = cap - 1;
}

strmap_ent *strmap_get(strmap *m, const char *key, uint32_t init)
{
	if (!m->t || (m->n + 1) * 2 > m->mask + 1)
		grow(m);
	strmap_ent *e = find(m->t, m->mask, key);
	if (!e->key) {
		e->key = et_xstrdup(key);
		e->a = e->b = init;
		m->n++;
	}
	return e;
}

void strmap_free(strmap *m)
{
	for (uint32_t k = 0; m->t && k <= m->mask; k++)
		free(m->t[k].key);
	free(m->t);
	m->t = NULL;
	m->mask = m->n = 0;
}
