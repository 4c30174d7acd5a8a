/* Base64 for the bytes fields of the protobuf JSON mapping. */
#include "et_json.h"

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void et_base64_encode(const uint8_t *p, size_t n, et_buf *out)
{
	if (n == 0)
		return;
	et_buf_reserve(out, (n + 2) / 3 * 4);
	char *o = (char *)out->data + out->len;
	size_t i = 0;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		*o++ = alphabet[v >> 18];
		*o++ = alphabet[(v >> 12) & 63];
		*o++ = alphabet[(v >> 6) & 63];
		*o++ = alphabet[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
		*o++ = alphabet[v >> 18];
		*o++ = alphabet[(v >> 12) & 63];
		*o++ = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
		*o++ = '=';
	}
	out->len = (size_t)(o - (char *)out->data);
}

/* Value of a base64 character in either alphabet, -1 if none. */
static int sextet(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

long et_base64_decode(const char *s, size_t n, uint8_t *out)
{
	size_t pad = 0;
	while (pad < 2 && n > 0 && s[n - 1] == '=') {
		n--;
		pad++;
	}
	/* With padding the text must come in whole quads; one leftover
	 * character never encodes a byte. */
	if (n % 4 == 1 || (pad && (n + pad) % 4 != 0))
		return -1;
	size_t o = 0;
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = 0; i < n; i++) {
		int v = sextet((unsigned char)s[i]);
		if (v < 0)
			return -1;
		acc = (acc << 6) | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
			acc &= (1u << bits) - 1;
		}
	}
	return (long)o;
}
