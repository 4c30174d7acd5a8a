/* Unit tests of et_hmap: insertion keeps the first value, lookups of
 * absent keys, growth, and deletion (backward shift) checked against a
 * plain array model over many random operations, so that a lost or
 * misplaced entry after a shift shows up. */
#include "check.h"
#include "et_hmap.h"
#include "et_rng.h"

#include <stdint.h>
#include <string.h>

static void test_basic(void)
{
	et_hmap m = {0};
	CHECK(et_hmap_get(&m, 1, 0) == NULL); /* a zeroed map is empty */
	et_hmap_del(&m, 1, 0);                /* and deleting from it is harmless */
	uint64_t *v = et_hmap_put(&m, 1, 0, 10);
	CHECK(v && *v == 10 && m.n == 1);
	CHECK(*et_hmap_put(&m, 1, 0, 99) == 10); /* present: v0 ignored */
	*et_hmap_put(&m, 1, 0, 0) += 5;
	CHECK(*et_hmap_get(&m, 1, 0) == 15);
	/* (a, b) pairs are distinct keys, including swapped ones */
	*et_hmap_put(&m, 0, 1, 0) = 20;
	*et_hmap_put(&m, 1, 1, 0) = 30;
	CHECK(*et_hmap_get(&m, 1, 0) == 15 && *et_hmap_get(&m, 0, 1) == 20 &&
	      *et_hmap_get(&m, 1, 1) == 30 && m.n == 3);
	/* extreme keys */
	*et_hmap_put(&m, UINT64_MAX, UINT64_MAX, 0) = 40;
	CHECK(*et_hmap_get(&m, UINT64_MAX, UINT64_MAX) == 40);
	et_hmap_del(&m, 0, 1);
	CHECK(et_hmap_get(&m, 0, 1) == NULL && m.n == 3);
	et_hmap_del(&m, 0, 1); /* absent: nothing happens */
	CHECK(m.n == 3 && *et_hmap_get(&m, 1, 1) == 30);
	et_hmap_free(&m);
	CHECK(m.s == NULL && m.n == 0 && et_hmap_get(&m, 1, 0) == NULL);
	*et_hmap_put(&m, 7, 7, 7) += 0; /* usable again after free */
	CHECK(*et_hmap_get(&m, 7, 7) == 7);
	et_hmap_free(&m);
}

static void test_growth(void)
{
	et_hmap m = {0};
	enum { N = 100000 };
	for (uint64_t i = 0; i < N; i++)
		*et_hmap_put(&m, i, i % 3, 0) = i * 2 + 1;
	CHECK(m.n == N);
	CHECK((m.n + 0) * 2 <= m.mask + 1); /* load factor at most 1/2 */
	int bad = 0;
	for (uint64_t i = 0; i < N; i++) {
		uint64_t *v = et_hmap_get(&m, i, i % 3);
		bad += !v || *v != i * 2 + 1;
		bad += et_hmap_get(&m, i, i % 3 + 1) != NULL;
	}
	CHECK(bad == 0);
	et_hmap_free(&m);
}

/* Random put/del over a small key space (so clusters form and deletions
 * shift entries), compared with an array after every operation batch. */
static void test_model(void)
{
	enum { A = 97, B = 5 };
	static uint64_t model[A][B]; /* 0 = absent, else value */
	memset(model, 0, sizeof model);
	et_hmap m = {0};
	et_rng r;
	et_rng_seed(&r, 12345, 0);
	int bad = 0;
	uint64_t live = 0;
	for (int op = 0; op < 200000; op++) {
		uint64_t a = et_rng_below(&r, A), b = et_rng_below(&r, B);
		if (et_rng_below(&r, 3)) {
			uint64_t v = op + 1;
			uint64_t *p = et_hmap_put(&m, a, b, v);
			if (model[a][b])
				bad += *p != model[a][b];
			else
				model[a][b] = v, live++;
		} else {
			et_hmap_del(&m, a, b);
			live -= model[a][b] != 0;
			model[a][b] = 0;
		}
		bad += m.n != live;
		if (op % 1000 == 0)
			for (uint64_t x = 0; x < A; x++)
				for (uint64_t y = 0; y < B; y++) {
					uint64_t *p = et_hmap_get(&m, x, y);
					bad += model[x][y] ? !p || *p != model[x][y] : p != NULL;
				}
	}
	CHECK(bad == 0);
	et_hmap_free(&m);
}

int main(void)
{
	test_basic();
	test_growth();
	test_model();
	return check_failures();
}
