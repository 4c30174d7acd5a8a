/* Unit tests of the base64 codec: the RFC 4648 test vectors, both
 * alphabets, optional padding, and what is not base64. */
#include "check.h"
#include "et_json.h"

#include <string.h>

static const char *const vectors[][2] = {
    {"", ""},
    {"f", "Zg=="},
    {"fo", "Zm8="},
    {"foo", "Zm9v"},
    {"foob", "Zm9vYg=="},
    {"fooba", "Zm9vYmE="},
    {"foobar", "Zm9vYmFy"},
};

static bool encodes(const void *p, size_t n, const char *want)
{
	et_buf b = {0};
	et_base64_encode(p, n, &b);
	bool ok = b.len == strlen(want) && (b.len == 0 || memcmp(b.data, want, b.len) == 0);
	et_buf_free(&b);
	return ok;
}

/* Decoded bytes equal want[0..wn), or wn == -1 expects a rejection. */
static bool decodes(const char *s, const void *want, long wn)
{
	uint8_t out[64];
	long n = et_base64_decode(s, strlen(s), out);
	return n == wn && (wn < 0 || memcmp(out, want, (size_t)wn) == 0);
}

static void test_rfc4648(void)
{
	for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++) {
		const char *plain = vectors[i][0], *enc = vectors[i][1];
		CHECK(encodes(plain, strlen(plain), enc));
		CHECK(decodes(enc, plain, (long)strlen(plain)));
	}
}

static void test_binary(void)
{
	static const uint8_t all3[] = {0xfb, 0xff, 0xbf};
	CHECK(encodes(all3, 3, "+/+/"));
	CHECK(decodes("+/+/", all3, 3));
	CHECK(decodes("-_-_", all3, 3)); /* URL-safe alphabet */
	static const uint8_t zero[] = {0, 0};
	CHECK(encodes(zero, 2, "AAA="));
}

static void test_padding(void)
{
	CHECK(decodes("Zg", "f", 1));
	CHECK(decodes("Zm8", "fo", 2));
	CHECK(decodes("Zm9vYmE", "fooba", 5));
}

static void test_rejects(void)
{
	CHECK(decodes("Z", NULL, -1));     /* one leftover character */
	CHECK(decodes("Zm9vY", NULL, -1)); /* likewise after a quad */
	CHECK(decodes("Zg=", NULL, -1));   /* padding must complete the quad */
	CHECK(decodes("Zg===", NULL, -1)); /* at most two '=' */
	CHECK(decodes("Z=g=", NULL, -1));  /* '=' only at the end */
	CHECK(decodes("Zm 9v", NULL, -1)); /* no white space */
	CHECK(decodes("Zm9v\n", NULL, -1));
	CHECK(decodes("Zm*v", NULL, -1));
}

int main(void)
{
	test_rfc4648();
	test_binary();
	test_padding();
	test_rejects();
	return check_failures();
}
