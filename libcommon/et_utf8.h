/* et_utf8: what tools need of UTF-8 to pass names from traces (any bytes)
 * on to JSON, Graphviz and SVG, which want valid UTF-8. */
#ifndef ET_UTF8_H
#define ET_UTF8_H

/* Length (1 to 4) of the valid UTF-8 sequence at p, 0 if the bytes there
 * are not one (a stray continuation byte, an overlong 2-byte form, a cut
 * sequence: p must be NUL-terminated, and NUL ends a sequence). */
static inline int et_utf8_len(const unsigned char *p)
{
	int n = p[0] < 0x80             ? 1
	        : (p[0] & 0xE0) == 0xC0 ? 2
	        : (p[0] & 0xF0) == 0xE0 ? 3
	        : (p[0] & 0xF8) == 0xF0 ? 4
	                                : 0;
	if (n == 2 && p[0] < 0xC2)
		return 0; /* overlong */
	for (int k = 1; k < n; k++)
		if ((p[k] & 0xC0) != 0x80)
			return 0;
	return n;
}

#endif
