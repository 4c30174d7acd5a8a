/* algo_table: the collective algorithms by name, for the system
 * configuration (all-reduce-implementation, ...). Only names and indices
 * here: the rows themselves are in algo.h. */
#ifndef ET_SIM_SYSTEM_ALGO_ALGO_TABLE_H
#define ET_SIM_SYSTEM_ALGO_ALGO_TABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ASTRA-sim's default implementation: ring, the table's first row. */
#define ALGO_DEFAULT 0

/* The number of rows. */
unsigned algo_count(void);
/* Row i's name ("ring", "halvingDoubling", ...). */
const char *algo_name(unsigned i);
/* An implementation name: a row's name, "one" + the name capitalised for
 * a row with ALGO_CAP_ONE, either followed by a window N >= 1 for a row
 * with ALGO_CAP_WINDOW. 0 with *impl, *one, *window (-1: none), or -1
 * when unknown. */
int algo_parse(const char *s, uint8_t *impl, bool *one, int *window);
/* Every accepted form, "ring, direct, directN, ...", into buf (cut to n). */
void algo_names(char *buf, size_t n);

#endif
