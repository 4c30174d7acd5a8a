/* Real numbers as Python's repr() prints them (shortest round trip), which
 * is what protobuf's json_format emits and a valid JSON number as well. */
#include "et_json.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fast paths below need each double operation rounded once, to double
 * (not to x87's 80 bits first). */
enum { EXACT_OPS = FLT_EVAL_METHOD == 0 };
static const double tens[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                              1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                              1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* |x| rounded to p significant digits: m (p digits) * 10^e10, as printf's
 * "%.*e" rounds it. The fast path: y = ax * 10^k (10^k exact, |k| <= 22) is
 * at most tol = y * 2^-52 off the exact product Y, and when p <= 15 y's
 * integer part f and fraction are exact. If y is in [10^(p-1), 10^p - 0.5)
 * and tol away from the top end and from f + 0.5, Y rounds as y does (Y may
 * be up to tol < 0.05 under 10^(p-1): it still rounds to 10^(p-1)).
 * Otherwise (ties, say) printf decides. */
static void round_to(double ax, int p, uint64_t *m, int *e10)
{
	double e = floor(log10(ax));
	if (EXACT_OPS && p <= 15 && e >= p - 23 && e <= p + 21) { /* |k| <= 22 */
		int k = p - 1 - (int)e;
		double y = k < 0 ? ax / tens[-k] : ax * tens[k];
		double f = floor(y), tol = y * 0x1p-52;
		if (y >= tens[p - 1] && tens[p] - 0.5 - y > tol && fabs(y - f - 0.5) > tol) {
			*m = (uint64_t)f + (y - f > 0.5);
			*e10 = -k;
			return;
		}
	}
	char t[40];
	snprintf(t, sizeof t, "%.*e", p - 1, ax);
	uint64_t v = 0;
	const char *q = t;
	for (; *q && *q != 'e'; q++)
		if (*q != '.')
			v = v * 10 + (uint64_t)(*q - '0');
	*m = v;
	*e10 = (*q ? atoi(q + 1) : 0) - (p - 1);
}

/* m * 10^e10 correctly rounded, as strtod reads it. When m and 10^|e10| are
 * exact doubles (m <= 2^53, |e10| <= 22) one IEEE multiply or divide is
 * already correctly rounded (Clinger's fast path), so only other values pay
 * for the snprintf + strtod. */
static double value_of(uint64_t m, int e10)
{
	if (EXACT_OPS && m <= (1ULL << 53) && e10 >= -22 && e10 <= 22)
		return e10 < 0 ? (double)m / tens[-e10] : (double)m * tens[e10];
	char t[48];
	snprintf(t, sizeof t, "%llue%d", (unsigned long long)m, e10);
	return strtod(t, NULL);
}

/* protobuf's ToShortestFloat: the first "%.Ng" (N from 6) whose value, cut
 * to float32, is the float again. */
static double shortest_float(double ax)
{
	if (ax < 1e6 && ax == floor(ax))
		return ax; /* at most 6 digits: "%.6g" is exact */
	uint64_t m;
	int e10;
	for (int p = 6; p < 17; p++) {
		round_to(ax, p, &m, &e10);
		if ((float)value_of(m, e10) == (float)ax)
			return value_of(m, e10);
	}
	return ax; /* 17 digits are the float itself */
}

/* Shortest digits of a double (as dtoa mode 0): at each length the nearest
 * decimal, or a neighbour of it, since at a power of two the rounding
 * interval is lopsided.
 * Two shortcuts give the same digits as that search from p = 1:
 * - an integer below 2^53 is its own shortest decimal (the rounding interval
 *   is at most 1 wide, so no decimal with fewer significant digits is in it);
 * - for a normal double the rounding interval is at most 2^-52 (2.2e-16) of
 *   x wide, less than the 1e-15 relative spacing of 15-digit decimals, so it
 *   holds at most one decimal of <= 15 significant digits. If the nearest
 *   15-digit decimal reads back as x it is that one (and the search would
 *   have stopped at it, at p <= 15); if not, the interval holds none and the
 *   search goes on at p = 16. Subnormals have wider intervals and take the
 *   whole search. tests/unit/test_json_num.c checks this against the search. */
static void shortest_double(double ax, uint64_t *m, int *e10)
{
	if (ax < 0x1p53 && ax == floor(ax)) {
		*m = (uint64_t)ax;
		*e10 = 0;
		return;
	}
	int p = 1;
	if (ax >= DBL_MIN) {
		round_to(ax, 15, m, e10);
		if (value_of(*m, *e10) == ax)
			return;
		p = 16;
	}
	for (; p < 17; p++) {
		round_to(ax, p, m, e10);
		if (value_of(*m, *e10) == ax)
			return;
		if (value_of(*m + 1, *e10) == ax) {
			*m += 1;
			return;
		}
		if (*m > 1 && value_of(*m - 1, *e10) == ax) {
			*m -= 1;
			return;
		}
	}
	round_to(ax, 17, m, e10);
}

static char *put_zeros(char *o, int n)
{
	while (n-- > 0)
		*o++ = '0';
	return o;
}

/* Lay out digits d[0..n) with value 0.d * 10^decpt the way repr() does. */
static char *layout(char *o, const char *d, int n, int decpt)
{
	if (decpt <= -4 || decpt > 16) {
		*o++ = d[0];
		if (n > 1) {
			*o++ = '.';
			memcpy(o, d + 1, (size_t)n - 1);
			o += n - 1;
		}
		int x = decpt - 1;
		o += sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
	} else if (decpt <= 0) {
		*o++ = '0';
		*o++ = '.';
		o = put_zeros(o, -decpt);
		memcpy(o, d, (size_t)n);
		o += n;
	} else if (decpt >= n) {
		memcpy(o, d, (size_t)n);
		o = put_zeros(o + n, decpt - n);
		*o++ = '.';
		*o++ = '0';
	} else {
		memcpy(o, d, (size_t)decpt);
		o += decpt;
		*o++ = '.';
		memcpy(o, d + decpt, (size_t)(n - decpt));
		o += n - decpt;
	}
	return o;
}

size_t et_json_fmt_real(double x, bool as_float, char buf[ET_JSON_REAL_MAX])
{
	char *o = buf;
	if (signbit(x))
		*o++ = '-';
	double ax = fabs(x);
	if (ax == 0) {
		memcpy(o, "0.0", 4);
		return (size_t)(o - buf) + 3;
	}
	if (as_float)
		ax = shortest_float(ax);
	uint64_t m;
	int e10;
	shortest_double(ax, &m, &e10);
	char d[24];
	int n = 0;
	for (uint64_t v = m; v; v /= 10)
		n++;
	for (int i = n; i-- > 0; m /= 10)
		d[i] = (char)('0' + m % 10);
	while (n > 1 && d[n - 1] == '0') {
		n--;
		e10++;
	}
	o = layout(o, d, n, n + e10);
	*o = 0;
	return (size_t)(o - buf);
}
