/* Real numbers as Python's repr() prints them (shortest round trip), which
 * is what protobuf's json_format emits and a valid JSON number as well. */
#include "et_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |x| rounded to p significant digits: m (p digits) * 10^e10. */
static void round_to(double ax, int p, uint64_t *m, int *e10)
{
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

static double value_of(uint64_t m, int e10)
{
	char t[48];
	snprintf(t, sizeof t, "%llue%d", (unsigned long long)m, e10);
	return strtod(t, NULL);
}

/* protobuf's ToShortestFloat: the first "%.Ng" (N from 6) whose value, cut
 * to float32, is the float again. */
static double shortest_float(double ax)
{
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
 * interval is lopsided. */
static void shortest_double(double ax, uint64_t *m, int *e10)
{
	for (int p = 1; p < 17; p++) {
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
	int n = snprintf(d, sizeof d, "%llu", (unsigned long long)m);
	while (n > 1 && d[n - 1] == '0') {
		n--;
		e10++;
	}
	o = layout(o, d, n, n + e10);
	*o = 0;
	return (size_t)(o - buf);
}
