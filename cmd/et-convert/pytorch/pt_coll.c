#include "et-convert/pytorch/pt_fix.h"
#include "et_types.h"

#include <ctype.h>
#include <string.h>

/* Name tests in an order where no key is a part of an earlier one's
 * match: reduce_scatter before reduce and scatter, all_gather before
 * gather, send_recv before send. */
int pt_coll_kind(const char *name)
{
	char s[256];
	size_t k = 0;
	for (const char *p = name; *p && k < sizeof s - 1; p++)
		if (*p != '_' && *p != '-')
			s[k++] = (char)tolower((unsigned char)*p);
	s[k] = 0;
	static const struct {
		const char *key;
		int kind;
	} map[] = {
	    {"reducescatter", ET_COLL_REDUCE_SCATTER},
	    {"allreduce", ET_COLL_ALL_REDUCE},
	    {"allgather", ET_COLL_ALL_GATHER},
	    {"alltoall", ET_COLL_ALL_TO_ALL},
	    {"sendrecv", ET_COLL_ALL_TO_ALL},
	    {"broadcast", ET_COLL_BROADCAST},
	    {"bcast", ET_COLL_BROADCAST},
	    {"barrier", ET_COLL_BARRIER},
	    {"send", PT_COLL_SEND},
	    {"recv", PT_COLL_RECV},
	    {"gather", ET_COLL_GATHER},
	    {"scatter", ET_COLL_SCATTER},
	    {"reduce", ET_COLL_REDUCE},
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strstr(s, map[i].key))
			return map[i].kind;
	return PT_COLL_NONE;
}

int pt_coll_input_arg(const char *name)
{
	/* c10d ops taking (outputs, inputs): the input is the second tensor */
	static const char *const two[] = {"allgather",
	                                  "_allgather_base",
	                                  "reduce_scatter",
	                                  "_reduce_scatter_base",
	                                  "alltoall",
	                                  "gather",
	                                  "allgather_into_tensor_coalesced",
	                                  "reduce_scatter_tensor_coalesced"};
	const char *op = strncmp(name, "c10d::", 6) == 0 ? name + 6 : name;
	for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
		size_t n = strlen(two[i]);
		if (strncmp(op, two[i], n) == 0 && (op[n] == '_' || op[n] == 0))
			return 1;
	}
	return 0;
}
