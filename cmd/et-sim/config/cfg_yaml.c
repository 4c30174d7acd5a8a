/* cfg_yaml: a --network file: ASTRA-sim's analytical network YAML, read
 * with libcommon's et_netyaml into the configuration's keys, or an
 * InfraGraph description (netgraph.h). */
#include "et-sim/config/cfg.h"
#include "et-sim/infragraph/netgraph.h"
#include "et-sim/net/net_route.h"
#include "et_mem.h"
#include "et_netyaml.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An InfraGraph instance as the physical network (netgraph.h). */
static int load_graph(cfg *c, const char *path, et_error *e)
{
	netgraph *g = et_xcalloc(1, sizeof *g);
	if (netgraph_load(g, path, e) < 0) {
		free(g);
		return -1;
	}
	uint32_t a, b;
	if (!net_route_connected(g, &a, &b)) {
		et_fail(e, ET_EXIT_DATA, "%s: NPUs %s (rank %u) and %s (rank %u) are not connected",
		        path, g->dev[a], a, g->dev[b], b);
		netgraph_free(g);
		free(g);
		return -1;
	}
	if (c->net.graph) {
		netgraph_free(c->net.graph);
		free(c->net.graph);
	}
	c->net.graph = g;
	snprintf(c->net_file, sizeof c->net_file, "%s", path);
	return 0;
}

static int set_key(void *ctx, const char *key, const char *val, et_error *e)
{
	return cfg_set_kv(ctx, key, val, e);
}

int cfg_load_network(cfg *c, const char *path, et_error *e)
{
	c->ndims = 0;
	memset(c->net.netlen, 0, sizeof c->net.netlen);
	int r = et_netyaml_read(path, set_key, c, e);
	if (r == 1)
		return load_graph(c, path, e);
	if (r == 0 && c->ndims == 0)
		r = et_fail(e, ET_EXIT_DATA, "%s: no topology/npus_count given", path);
	if (r == 0)
		snprintf(c->net_file, sizeof c->net_file, "%s", path);
	return r;
}
