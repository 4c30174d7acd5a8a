/* et_hash: FNV-1a, 64 bits, the suite's one byte-string hash (interning,
 * content keys, provenance fingerprints). Not for adversarial keys: the
 * maps that use it compare the bytes on a hash match. */
#ifndef ET_HASH_H
#define ET_HASH_H

#include <stddef.h>
#include <stdint.h>

#define ET_FNV1A_INIT 0xcbf29ce484222325ULL

/* h continued over n bytes at p (start from ET_FNV1A_INIT). */
static inline uint64_t et_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t k = 0; k < n; k++)
		h = (h ^ s[k]) * 0x100000001b3ULL;
	return h;
}

#endif
