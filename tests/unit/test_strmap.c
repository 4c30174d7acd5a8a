/* Unit tests of et_strmap: dense ids in order of first insertion, keys by
 * length (not only NUL-terminated), the empty key, lookups of absent keys,
 * and growth of the slot table and of the key pool (ids and keys must
 * survive both). */
#include "check.h"
#include "et_strmap.h"

#include <stdio.h>
#include <string.h>

static void test_basic(void)
{
	et_strmap m = {0};
	CHECK(et_strmap_find(&m, "a") == ET_STRMAP_NONE); /* a zeroed map is empty */
	CHECK(et_strmap_count(&m) == 0);
	CHECK(et_strmap_intern_str(&m, "alpha") == 0);
	CHECK(et_strmap_intern_str(&m, "beta") == 1);
	CHECK(et_strmap_intern_str(&m, "alpha") == 0);
	CHECK(et_strmap_intern_str(&m, "") == 2); /* the empty key is a key */
	CHECK(et_strmap_find(&m, "") == 2);
	/* n bytes of a longer string: "alp" is new, "beta" from "betamax" known */
	CHECK(et_strmap_intern(&m, "alphabet", 3) == 3);
	CHECK(et_strmap_intern(&m, "betamax", 4) == 1);
	CHECK(strcmp(et_strmap_key(&m, 3), "alp") == 0);
	CHECK(et_strmap_find(&m, "alpha") == 0 && et_strmap_find(&m, "alp") == 3);
	CHECK(et_strmap_find(&m, "al") == ET_STRMAP_NONE);
	CHECK(et_strmap_find(&m, "alphas") == ET_STRMAP_NONE);
	CHECK(et_strmap_count(&m) == 4);
	et_strmap_free(&m);
	CHECK(et_strmap_count(&m) == 0 && et_strmap_find(&m, "alpha") == ET_STRMAP_NONE);
	CHECK(et_strmap_intern_str(&m, "beta") == 0); /* usable again, ids from 0 */
	et_strmap_free(&m);
}

static void test_growth(void)
{
	et_strmap m = {0};
	enum { N = 50000 };
	char k[64];
	int bad = 0;
	/* long keys too, so the pool grows past its first 4096 bytes many times */
	for (unsigned i = 0; i < N; i++) {
		snprintf(k, sizeof k, i % 7 ? "k%u" : "a-much-longer-key-number-%u-of-the-set", i);
		bad += et_strmap_intern_str(&m, k) != i;
	}
	CHECK(bad == 0 && et_strmap_count(&m) == N);
	for (unsigned i = 0; i < N; i++) {
		snprintf(k, sizeof k, i % 7 ? "k%u" : "a-much-longer-key-number-%u-of-the-set", i);
		bad += et_strmap_find(&m, k) != i;
		bad += strcmp(et_strmap_key(&m, i), k) != 0;
		bad += et_strmap_intern_str(&m, k) != i;
	}
	CHECK(bad == 0 && et_strmap_count(&m) == N);
	CHECK(et_strmap_find(&m, "k7") == ET_STRMAP_NONE); /* 7 was written long */
	et_strmap_free(&m);
}

int main(void)
{
	test_basic();
	test_growth();
	return check_failures();
}
