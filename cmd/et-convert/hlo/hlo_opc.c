/* hlo_opc: opcodes as HLO text writes them, mapped to the classes the
 * mapping tells apart (hlo_mod.h). Opcodes not listed are HLO_OP_OTHER:
 * one FLOP per result element, which is right for the elementwise ones and
 * a documented guess for the rest (sort, scatter, fft, ...). */
#include "et-convert/hlo/hlo_mod.h"

#include <stdlib.h>
#include <string.h>

typedef struct opc_entry {
	const char *w;
	uint16_t op;
} opc_entry;

/* Sorted by name (strcmp) for bsearch. */
static const opc_entry opc_table[] = {
    {"add-dependency", HLO_OP_ADD_DEPENDENCY},
    {"after-all", HLO_OP_AFTER_ALL},
    {"all-gather", HLO_OP_ALL_GATHER},
    {"all-reduce", HLO_OP_ALL_REDUCE},
    {"all-to-all", HLO_OP_ALL_TO_ALL},
    {"async", HLO_OP_ASYNC_START},
    {"bitcast", HLO_OP_BITCAST},
    {"bitcast-convert", HLO_OP_MOVE},
    {"broadcast", HLO_OP_MOVE},
    {"call", HLO_OP_CALL},
    {"collective-broadcast", HLO_OP_COLL_BROADCAST},
    {"collective-permute", HLO_OP_COLL_PERMUTE},
    {"compare", HLO_OP_COMPARE},
    {"concatenate", HLO_OP_MOVE},
    {"conditional", HLO_OP_CONDITIONAL},
    {"constant", HLO_OP_CONSTANT},
    {"convolution", HLO_OP_CONVOLUTION},
    {"copy", HLO_OP_COPY},
    {"custom-call", HLO_OP_CUSTOM_CALL},
    {"domain", HLO_OP_DOMAIN},
    {"dot", HLO_OP_DOT},
    {"dynamic-reshape", HLO_OP_MOVE},
    {"dynamic-slice", HLO_OP_WINDOW_MOVE},
    {"dynamic-update-slice", HLO_OP_DUS},
    {"fusion", HLO_OP_FUSION},
    {"gather", HLO_OP_MOVE},
    {"get-dimension-size", HLO_OP_DIM_SIZE},
    {"get-tuple-element", HLO_OP_GTE},
    {"infeed", HLO_OP_INFEED},
    {"iota", HLO_OP_MOVE},
    {"opt-barrier", HLO_OP_OPT_BARRIER},
    {"outfeed", HLO_OP_OUTFEED},
    {"pad", HLO_OP_MOVE},
    {"parameter", HLO_OP_PARAMETER},
    {"partition-id", HLO_OP_PARTITION_ID},
    {"ragged-all-to-all", HLO_OP_RAGGED_ALL_TO_ALL},
    {"recv", HLO_OP_RECV},
    {"reduce", HLO_OP_REDUCE},
    {"reduce-scatter", HLO_OP_REDUCE_SCATTER},
    {"reduce-window", HLO_OP_REDUCE_WINDOW},
    {"replica-id", HLO_OP_REPLICA_ID},
    {"reshape", HLO_OP_MOVE},
    {"reverse", HLO_OP_MOVE},
    {"rng-get-and-update-state", HLO_OP_RNG_STATE},
    {"send", HLO_OP_SEND},
    {"set-dimension-size", HLO_OP_DIM_SIZE},
    {"slice", HLO_OP_WINDOW_MOVE},
    {"transpose", HLO_OP_MOVE},
    {"tuple", HLO_OP_TUPLE},
    {"while", HLO_OP_WHILE},
};

static int cmp_entry(const void *key, const void *elem)
{
	const char *k = key;
	return strcmp(k, ((const opc_entry *)elem)->w);
}

static uint16_t lookup(const char *w, size_t n)
{
	char buf[32];
	if (n >= sizeof buf)
		return HLO_OP_OTHER;
	memcpy(buf, w, n);
	buf[n] = 0;
	const opc_entry *hit = bsearch(buf, opc_table, sizeof opc_table / sizeof *opc_table,
	                               sizeof *opc_table, cmp_entry);
	return hit ? hit->op : HLO_OP_OTHER;
}

static bool ends_with(const char *w, size_t n, const char *suf, size_t *base)
{
	size_t k = strlen(suf);
	if (n <= k || memcmp(w + n - k, suf, k) != 0)
		return false;
	*base = n - k;
	return true;
}

/* "X-start" is the async form of X (all-reduce-start, copy-start, and the
 * generic async-start wrapping a computation); "X-update" and "X-done"
 * only pass its result on. A -start or -done whose X is no known opcode is
 * an opcode of its own (HLO_OP_OTHER). */
uint16_t hlo_opcode(const char *w, size_t n, bool *start)
{
	size_t base;
	*start = false;
	if (ends_with(w, n, "-start", &base)) {
		uint16_t op = lookup(w, base);
		*start = op != HLO_OP_OTHER;
		return op;
	}
	if ((ends_with(w, n, "-done", &base) || ends_with(w, n, "-update", &base)) &&
	    lookup(w, base) != HLO_OP_OTHER)
		return HLO_OP_DONE;
	uint16_t op = lookup(w, n);
	return op == HLO_OP_ASYNC_START ? HLO_OP_OTHER : op; /* a bare "async" */
}

bool hlo_op_elided(uint16_t op)
{
	return op >= HLO_OP_PARAMETER && op <= HLO_OP_DONE;
}
