/* et_strmap: see et_strmap.h. Open addressing over ids (load factor at most
 * 1/2); the hash is FNV-1a. */
#include "et_strmap.h"
#include "et_hash.h"
#include "et_mem.h"

#include <stdlib.h>

static uint32_t hash(const char *s, size_t n)
{
	uint64_t h = et_fnv1a(ET_FNV1A_INIT, s, n);
	return (uint32_t)(h ^ (h >> 32));
}

/* The slot holding the key (s, n), or the empty slot where it goes. */
static uint32_t *find_slot(const et_strmap *m, const char *s, size_t n)
{
	for (uint32_t h = hash(s, n) & m->mask;; h = (h + 1) & m->mask) {
		uint32_t v = m->slot[h];
		if (!v)
			return &m->slot[h];
		const char *k = et_strmap_key(m, v - 1);
		if (strncmp(k, s, n) == 0 && k[n] == '\0')
			return &m->slot[h];
	}
}

static void rehash(et_strmap *m)
{
	uint32_t size = m->slot ? (m->mask + 1) * 2 : 64;
	if (size == 0)
		et_oom((size_t)1 << 35);
	free(m->slot);
	m->slot = et_xcalloc(size, sizeof *m->slot);
	m->mask = size - 1;
	for (uint32_t id = 0; id < m->n; id++) {
		const char *k = et_strmap_key(m, id);
		*find_slot(m, k, strlen(k)) = id + 1;
	}
}

uint32_t et_strmap_intern(et_strmap *m, const char *s, size_t n)
{
	if (!m->slot || (uint64_t)(m->n + 1) * 2 > (uint64_t)m->mask + 1)
		rehash(m);
	uint32_t *slot = find_slot(m, s, n);
	if (*slot)
		return *slot - 1;
	if (m->n >= UINT32_MAX - 2 || m->pool_len + n + 1 > UINT32_MAX)
		et_oom(m->pool_len + n + 1);
	ET_GROW(m->pool, m->pool_cap, m->pool_len + n + 1);
	ET_GROW(m->off, m->off_cap, (size_t)m->n + 1);
	m->off[m->n] = (uint32_t)m->pool_len;
	if (n)
		memcpy(m->pool + m->pool_len, s, n);
	m->pool[m->pool_len + n] = '\0';
	m->pool_len += n + 1;
	*slot = ++m->n;
	return m->n - 1;
}

uint32_t et_strmap_find(const et_strmap *m, const char *s)
{
	if (!m->slot)
		return ET_STRMAP_NONE;
	uint32_t v = *find_slot(m, s, strlen(s));
	return v ? v - 1 : ET_STRMAP_NONE;
}

void et_strmap_free(et_strmap *m)
{
	free(m->pool);
	free(m->off);
	free(m->slot);
	memset(m, 0, sizeof *m);
}
