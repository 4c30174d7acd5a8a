/* strmap: a small string-keyed hash map with two uint32 payloads, for
 * matching collectives and send/recv pairs across ranks by key. */
#ifndef STRMAP_H
#define STRMAP_H

#include <stdint.h>

typedef struct strmap_ent {
	char *key; /* NULL = empty slot */
	uint32_t a, b;
} strmap_ent;

typedef struct strmap {
	strmap_ent *t;
	uint32_t mask, n;
} strmap;

/* The entry of key, added with a = b = init when new. */
strmap_ent *strmap_get(strmap *m, const char *key, uint32_t init);
void strmap_free(strmap *m);

#endif
