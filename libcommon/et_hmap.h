/* et_hmap: a hash map from a pair of 64-bit integers to a 64-bit value
 * (open addressing, linear probing, backward-shift deletion, load factor at
 * most 1/2). Keys that are one integer use b = 0.
 *
 * A zeroed et_hmap is empty and ready. Pointers returned by put and get stay
 * valid until the next put or del. Allocation failure ends the process
 * (et_xmalloc's policy). */
#ifndef ET_HMAP_H
#define ET_HMAP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct et_hmap_slot {
	uint64_t a, b, v;
	bool used;
} et_hmap_slot;

typedef struct et_hmap {
	et_hmap_slot *s;
	uint64_t n, mask;
} et_hmap;

/* The value of (a, b), inserted as v0 when absent. */
uint64_t *et_hmap_put(et_hmap *m, uint64_t a, uint64_t b, uint64_t v0);
/* The value of (a, b), or NULL when absent. */
uint64_t *et_hmap_get(const et_hmap *m, uint64_t a, uint64_t b);
void et_hmap_del(et_hmap *m, uint64_t a, uint64_t b);
/* Frees the slots; the map is empty and usable again. */
void et_hmap_free(et_hmap *m);

#endif
