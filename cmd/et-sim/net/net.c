/* net: the one list of network backends (net.h). A new backend is one file
 * defining its net_backend and one line here (doc/HACKING.md). */
#include "et-sim/net/net.h"
#include <stdio.h>
#include <string.h>

extern const net_backend net_unaware, net_aware;

/* In this order: NET_DEFAULT first, and the order of the names in --help
 * and in messages. */
static const net_backend *const backends[] = {&net_unaware, &net_aware};

enum { NB = sizeof backends / sizeof backends[0] };

int net_backend_count(void)
{
	return NB;
}

const net_backend *net_backend_of(int which)
{
	return backends[which >= 0 && which < NB ? which : NET_DEFAULT];
}

int net_backend_parse(const char *name)
{
	for (int i = 0; i < NB; i++)
		if (strcmp(name, backends[i]->name) == 0)
			return i;
	return -1;
}

const char *const *net_backend_names(void)
{
	static const char *names[NB + 1];
	for (int i = 0; i < NB; i++)
		names[i] = backends[i]->name;
	return names;
}

int net_backend_with(unsigned caps)
{
	for (int i = 0; i < NB; i++)
		if ((backends[i]->caps & caps) == caps)
			return i;
	return -1;
}

/* "A, B or C", each name followed by its help in parentheses if `help`. */
void net_backend_list(char *buf, size_t n, bool help)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < NB && k < n; i++) {
		const char *sep = !i ? "" : i + 1 < NB ? ", " : " or ";
		k += (size_t)snprintf(buf + k, n - k, "%s%s%s%s%s", sep, backends[i]->name,
		                      help ? " (" : "", help ? backends[i]->help : "",
		                      help ? ")" : "");
	}
}
