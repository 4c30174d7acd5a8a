/* net: the backends by name (net.h). */
#include "et-sim/net/net.h"
#include <string.h>

extern const net_backend net_unaware, net_aware;

static const net_backend *const backends[NET_NBACKENDS] = {&net_unaware, &net_aware};

const net_backend *net_backend_of(int which)
{
	return backends[which >= 0 && which < NET_NBACKENDS ? which : NET_UNAWARE];
}

int net_backend_parse(const char *name)
{
	for (int i = 0; i < NET_NBACKENDS; i++)
		if (strcmp(name, backends[i]->name) == 0)
			return i;
	return -1;
}
