/* A minimal assertion helper for the C unit tests: CHECK(cond) reports the
 * file, line and expression and counts the failure; main returns
 * check_failures() so the bats runner sees a non-zero exit. */
#ifndef ET_UNIT_CHECK_H
#define ET_UNIT_CHECK_H

#include <stdio.h>

static int check_failed_count;
#define CHECK(c)                                                                         \
	do {                                                                             \
		if (!(c)) {                                                              \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); \
			check_failed_count++;                                            \
		}                                                                        \
	} while (0)
static inline int check_failures(void)
{
	if (!check_failed_count)
		printf("all checks passed\n");
	return check_failed_count != 0;
}

#endif
