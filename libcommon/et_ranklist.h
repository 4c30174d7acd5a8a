/* et_ranklist: a rank list such as "0-3,7,9-10", as a predicate over ranks
 * (the --ranks option of every tool that reads traces). */
#ifndef ET_RANKLIST_H
#define ET_RANKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct et_ranklist {
	uint32_t (*ranges)[2];
	int n;
	size_t cap;
} et_ranklist;

/* 0 on success; -1 on a malformed list, leaving rl empty. */
int et_ranklist_parse(et_ranklist *rl, const char *s);
/* An empty list holds every rank. */
bool et_ranklist_has(const et_ranklist *rl, uint32_t r);
void et_ranklist_free(et_ranklist *rl);

#endif
