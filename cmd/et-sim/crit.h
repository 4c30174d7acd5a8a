/* crit: the critical path -- the chain of nodes, across ranks, that sets
 * the iteration time. */
#ifndef CRIT_H
#define CRIT_H
#include "sim.h"
#include <stdbool.h>
#include <stdio.h>

void crit_print(FILE *f, const sim *s, bool json);

#endif
