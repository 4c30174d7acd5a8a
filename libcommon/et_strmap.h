/* et_strmap: a table of distinct strings, each given a dense id (0, 1, 2,
 * ... in order of first insertion), so that callers keep what they know of
 * a string in their own arrays indexed by its id. Keys are copied into one
 * pool owned by the map; a key may hold any bytes but NUL.
 *
 * A zeroed et_strmap is empty and ready. Key pointers stay valid until the
 * next insertion. Allocation failure ends the process (et_xmalloc's
 * policy); at most 2^32 - 2 keys and 4 GiB of key bytes. */
#ifndef ET_STRMAP_H
#define ET_STRMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ET_STRMAP_NONE UINT32_MAX

typedef struct et_strmap {
	char *pool; /* the keys, each followed by '\0' */
	size_t pool_len, pool_cap;
	uint32_t *off; /* per id: offset of its key in pool */
	uint32_t n;
	size_t off_cap;
	uint32_t *slot; /* id + 1, 0 = empty; size a power of two */
	uint32_t mask;
} et_strmap;

/* The id of the n bytes at s, added when new. */
uint32_t et_strmap_intern(et_strmap *m, const char *s, size_t n);
static inline uint32_t et_strmap_intern_str(et_strmap *m, const char *s)
{
	return et_strmap_intern(m, s, strlen(s));
}
/* The id of s (NUL-terminated), or ET_STRMAP_NONE. */
uint32_t et_strmap_find(const et_strmap *m, const char *s);
/* The key of an id (< m->n). */
static inline const char *et_strmap_key(const et_strmap *m, uint32_t id)
{
	return m->pool + m->off[id];
}
static inline uint32_t et_strmap_count(const et_strmap *m)
{
	return m->n;
}
/* Frees everything; the map is empty and usable again. */
void et_strmap_free(et_strmap *m);

#endif
