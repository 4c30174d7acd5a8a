/* hmap: open addressing (linear probing, backward-shift deletion) from a
 * 128-bit key to a 64-bit value; used for message mailboxes and matching. */
#ifndef HMAP_H
#define HMAP_H
#include <stdbool.h>
#include <stdint.h>

typedef struct hslot {
	uint64_t a, b, v;
	bool used;
} hslot;

typedef struct hmap {
	hslot *s;
	uint64_t n, mask;
} hmap;

/* Pointer to the value of (a, b), inserting v0 when absent. */
uint64_t *hmap_put(hmap *m, uint64_t a, uint64_t b, uint64_t v0);
uint64_t *hmap_get(const hmap *m, uint64_t a, uint64_t b);
void hmap_del(hmap *m, uint64_t a, uint64_t b);
void hmap_free(hmap *m);

#endif
