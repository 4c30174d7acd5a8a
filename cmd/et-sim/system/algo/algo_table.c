/* algo_table: the one list of collective algorithms. A new algorithm is one
 * file defining its row and one line here (doc/HACKING.md). */
#include "et-sim/system/algo/algo.h"
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const algo_row algo_ring, algo_direct, algo_halving_doubling, algo_double_binary_tree;

/* In this order: ALGO_DEFAULT first, and the order of the names in
 * messages (algo_names). */
static const algo_row *const rows[] = {
    &algo_ring,
    &algo_direct,
    &algo_halving_doubling,
    &algo_double_binary_tree,
};

enum { NROWS = sizeof rows / sizeof rows[0] };

unsigned algo_count(void)
{
	return NROWS;
}

const algo_row *algo_row_of(unsigned impl)
{
	return rows[impl < NROWS ? impl : ALGO_DEFAULT];
}

const char *algo_name(unsigned i)
{
	return algo_row_of(i)->name;
}

/* "one" + the name with its first letter in capitals: oneHalvingDoubling. */
static void one_name(const char *name, char *out, size_t n)
{
	snprintf(out, n, "one%c%s", toupper((unsigned char)name[0]), name + 1);
}

/* s is `name` followed by a window N >= 1: 1 (with *window), 0 if s does
 * not start so, -1 when the window is bad. */
static int windowed(const char *s, const char *name, int *window)
{
	size_t l = strlen(name);
	if (strncmp(s, name, l) != 0 || !isdigit((unsigned char)s[l]))
		return 0;
	char *end;
	long w = strtol(s + l, &end, 10);
	if (*end || w < 1)
		return -1;
	*window = w > INT_MAX ? INT_MAX : (int)w; /* a window >= n-1 is n-1 */
	return 1;
}

/* Row i's forms: its name, "one"+Name, either with a window. 1 (with
 * *one, *window), 0 when s is none of them, -1 for a bad window. */
static int parse_row(unsigned i, const char *s, bool *one, int *window)
{
	const algo_row *r = rows[i];
	char on[64];
	one_name(r->name, on, sizeof on);
	bool has_one = r->caps & ALGO_CAP_ONE;
	*one = has_one && strcmp(s, on) == 0;
	if (*one || strcmp(s, r->name) == 0)
		return 1;
	if (!(r->caps & ALGO_CAP_WINDOW))
		return 0;
	int w = windowed(s, r->name, window);
	if (w != 0 || !has_one)
		return w;
	*one = true;
	return windowed(s, on, window);
}

int algo_parse(const char *s, uint8_t *impl, bool *one, int *window)
{
	*window = -1;
	for (unsigned i = 0; i < NROWS; i++) {
		int r = parse_row(i, s, one, window);
		if (r < 0)
			return -1;
		if (r > 0) {
			*impl = (uint8_t)i;
			return 0;
		}
	}
	return -1;
}

/* Appends ", WHAT" (no comma first) while it fits. */
static size_t put(char *buf, size_t n, size_t k, const char *what, const char *suffix)
{
	if (k < n)
		k += (size_t)snprintf(buf + k, n - k, "%s%s%s", k ? ", " : "", what, suffix);
	return k;
}

void algo_names(char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < NROWS; i++) {
		k = put(buf, n, k, rows[i]->name, "");
		if (rows[i]->caps & ALGO_CAP_WINDOW)
			k = put(buf, n, k, rows[i]->name, "N");
	}
	for (unsigned i = 0; i < NROWS; i++) {
		char on[64];
		one_name(rows[i]->name, on, sizeof on);
		if (rows[i]->caps & ALGO_CAP_ONE)
			k = put(buf, n, k, on, "");
	}
}
