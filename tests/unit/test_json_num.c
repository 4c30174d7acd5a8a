/* et_json_fmt_real's shortcuts (integers, 15 digits first, rounding and
 * reading back with one multiply) against the plain search it replaced, kept
 * here as the reference: the same text, byte for byte, for finite doubles of
 * every kind, in double and float mode. Prints the time per value of both
 * (not checked). The reference is slow (~5 us a value), so a run checks
 * ~200,000 values in about a second; ETKIT_UNIT_SCALE=100 checks 20 million.
 * Under valgrind (ETKIT_VALGRIND), ASan or ETKIT_UNIT_QUICK a 20th. */
#include "check.h"
#include "et_json.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the reference: libcommon/et_json_num.c before the shortcuts ---- */

static void ref_round_to(double ax, int p, uint64_t *m, int *e10)
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

static double ref_value_of(uint64_t m, int e10)
{
	char t[48];
	snprintf(t, sizeof t, "%llue%d", (unsigned long long)m, e10);
	return strtod(t, NULL);
}

static double ref_shortest_float(double ax)
{
	uint64_t m;
	int e10;
	for (int p = 6; p < 17; p++) {
		ref_round_to(ax, p, &m, &e10);
		if ((float)ref_value_of(m, e10) == (float)ax)
			return ref_value_of(m, e10);
	}
	return ax;
}

static void ref_shortest_double(double ax, uint64_t *m, int *e10)
{
	for (int p = 1; p < 17; p++) {
		ref_round_to(ax, p, m, e10);
		if (ref_value_of(*m, *e10) == ax)
			return;
		if (ref_value_of(*m + 1, *e10) == ax) {
			*m += 1;
			return;
		}
		if (*m > 1 && ref_value_of(*m - 1, *e10) == ax) {
			*m -= 1;
			return;
		}
	}
	ref_round_to(ax, 17, m, e10);
}

static char *ref_put_zeros(char *o, int n)
{
	while (n-- > 0)
		*o++ = '0';
	return o;
}

static char *ref_layout(char *o, const char *d, int n, int decpt)
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
		o = ref_put_zeros(o, -decpt);
		memcpy(o, d, (size_t)n);
		o += n;
	} else if (decpt >= n) {
		memcpy(o, d, (size_t)n);
		o = ref_put_zeros(o + n, decpt - n);
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

static size_t ref_fmt_real(double x, bool as_float, char buf[ET_JSON_REAL_MAX])
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
		ax = ref_shortest_float(ax);
	uint64_t m;
	int e10;
	ref_shortest_double(ax, &m, &e10);
	char d[24];
	int n = snprintf(d, sizeof d, "%llu", (unsigned long long)m);
	while (n > 1 && d[n - 1] == '0') {
		n--;
		e10++;
	}
	o = ref_layout(o, d, n, n + e10);
	*o = 0;
	return (size_t)(o - buf);
}

/* ---- inputs ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) /* splitmix64 */
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static double from_bits(uint64_t b)
{
	double d;
	memcpy(&d, &b, sizeof d);
	return d;
}
static double finite_bits(void)
{
	double d;
	do
		d = from_bits(next());
	while (!isfinite(d));
	return d;
}
static double float_bits(void)
{
	float f;
	do {
		uint32_t b = (uint32_t)next();
		memcpy(&f, &b, sizeof f);
	} while (!isfinite(f));
	return f;
}
static uint64_t pow10u(int k)
{
	uint64_t v = 1;
	while (k-- > 0)
		v *= 10;
	return v;
}
/* "<int>.<frac>e<exp>": 0..9 digits either side of the point (the fraction
 * with leading zeros), exponents -330..330 (or -9..9) */
static double decimal(int emax)
{
	uint64_t r = next();
	int ni = (int)(r % 10), nf = (int)(r >> 4) % 10;
	char t[64];
	snprintf(t, sizeof t, "%s%llu.%0*llue%d", r >> 63 ? "-" : "",
	         (unsigned long long)(next() % pow10u(ni)), nf ? nf : 1,
	         (unsigned long long)(next() % pow10u(nf)),
	         (int)((r >> 8) % (2 * emax + 1)) - emax);
	return strtod(t, NULL);
}
static double short_decimal(void)
{
	return decimal(330);
}
static double everyday_decimal(void)
{
	return decimal(9);
}
/* an integer of 0..18 digits, or of 1..3 leading digits and zeros */
static double integer(void)
{
	uint64_t r = next();
	uint64_t v = next() % pow10u((int)(r % 19));
	if (r >> 63)
		v = v % 1000 * pow10u((int)(r >> 8) % 17);
	return (r >> 62) & 1 ? -(double)v : (double)v;
}
/* k steps of nextafter from x (k may be negative) */
static double step(double x, int k)
{
	for (; k > 0; k--)
		x = nextafter(x, INFINITY);
	for (; k < 0; k++)
		x = nextafter(x, -INFINITY);
	return x;
}
/* a power of two, of ten, or an edge value (2^53, 1e16, 1e17, DBL_MIN, FLT_MAX
 * ...), up to 16 ulps either side */
static double near_edge(void)
{
	static const double edges[] = {0x1p53,  0x1p52,  0x1p54,
	                               1e15,    1e16,    1e17,
	                               1e22,    1e23,    9007199254740993.0,
	                               DBL_MAX, DBL_MIN, FLT_MAX,
	                               FLT_MIN, 1e6,     999999.5,
	                               0x1p24,  5e-324,  0x1p-1022 - 0x1p-1074};
	uint64_t r = next();
	double x;
	switch (r % 3) {
	case 0:
		x = ldexp(1, (int)(r >> 8) % 2098 - 1074);
		break;
	case 1:
		x = pow(10, (double)((int)(r >> 8) % 632 - 323));
		break;
	default:
		x = edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
	}
	return step(x, (int)((r >> 32) % 33) - 16);
}
static double subnormal(void)
{
	uint64_t r = next();
	uint64_t mant = r & ((1ull << 52) - 1);
	mant >>= (r >> 58) % 52; /* small ones too */
	return from_bits(mant | (r & (1ull << 63)));
}

static const struct kind {
	const char *name;
	double (*gen)(void);
	int n; /* values per run */
} kinds[] = {
    {"64-bit patterns", finite_bits, 20000},
    {"float patterns", float_bits, 20000},
    {"short decimals, e-9..e9", everyday_decimal, 60000},
    {"short decimals", short_decimal, 40000},
    {"integers", integer, 40000},
    {"2^k, 10^k, edges +-16 ulps", near_edge, 20000},
    {"subnormals", subnormal, 6000},
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool slow_build(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return true;
#endif
#endif
	return getenv("ETKIT_VALGRIND") || getenv("ETKIT_UNIT_QUICK");
}

/* The fixed cases the old search gave (and Python's repr agrees with). */
static void test_fixed(void)
{
	static const struct {
		double x;
		bool as_float;
		const char *want;
	} c[] = {
	    {0.1, false, "0.1"},
	    {1e16, false, "1e+16"},
	    {9007199254740993.0, false, "9007199254740992.0"},
	    {0x1p53 + 2, false, "9007199254740994.0"},
	    {1e23, false, "1e+23"},
	    {5e-324, false, "5e-324"},
	    {DBL_MAX, false, "1.7976931348623157e+308"},
	    {DBL_MIN, false, "2.2250738585072014e-308"},
	    {123456789012345678.0, false, "1.2345678901234568e+17"},
	    {-0.0, false, "-0.0"},
	    {0.1f, true, "0.1"},
	    {16777216.0f, true, "16777216.0"},
	    {FLT_MAX, true, "3.4028235e+38"},
	    {FLT_TRUE_MIN, true, "1.4013e-45"},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		char t[ET_JSON_REAL_MAX];
		et_json_fmt_real(c[i].x, c[i].as_float, t);
		if (strcmp(t, c[i].want) != 0) {
			fprintf(stderr, "fmt_real(%.17g, %d) = %s, want %s\n", c[i].x,
			        c[i].as_float, t, c[i].want);
			CHECK(0);
		}
	}
}

int main(void)
{
	test_fixed();
	double scale = getenv("ETKIT_UNIT_SCALE") ? atof(getenv("ETKIT_UNIT_SCALE")) : 1;
	if (slow_build())
		scale /= 20;
	enum { BATCH = 4096 };
	static double xs[BATCH];
	static char want[BATCH][ET_JSON_REAL_MAX], got[BATCH][ET_JSON_REAL_MAX];
	long total = 0, diffs = 0;
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		for (int fl = 0; fl < 2; fl++) {
			double t_ref = 0, t_new = 0;
			long n = (long)(kinds[k].n * scale) / 2 + 1;
			for (long done = 0; done < n; done += BATCH) {
				int b = n - done < BATCH ? (int)(n - done) : BATCH;
				for (int i = 0; i < b; i++)
					xs[i] = kinds[k].gen();
				double t0 = now();
				for (int i = 0; i < b; i++)
					ref_fmt_real(xs[i], fl, want[i]);
				double t1 = now();
				for (int i = 0; i < b; i++)
					et_json_fmt_real(xs[i], fl, got[i]);
				t_new += now() - t1;
				t_ref += t1 - t0;
				for (int i = 0; i < b; i++)
					if (strcmp(want[i], got[i]) != 0 && diffs++ < 20)
						fprintf(stderr, "fmt_real(%a, %d) = %s, old %s\n",
						        xs[i], fl, got[i], want[i]);
			}
			total += n;
			printf("%-28s %-6s %8ld values: old %6.0f ns, new %5.0f ns (%.1fx)\n",
			       kinds[k].name, fl ? "float" : "double", n, t_ref / n * 1e9,
			       t_new / n * 1e9, t_ref / t_new);
		}
	}
	printf("%ld values, %ld differ\n", total, diffs);
	CHECK(diffs == 0);
	return check_failures();
}
