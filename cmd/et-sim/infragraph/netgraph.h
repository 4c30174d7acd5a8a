/* netgraph: a physical network as a graph of devices joined by undirected
 * edges, each with its link's bandwidth and latency: what an InfraGraph
 * instance describes (doc/astra-sim-aware.md, "InfraGraph topologies").
 * The congestion-aware backend turns each edge into two directed links.
 *
 * Devices are numbered NPUs first: the xpu components, in instance order,
 * then instance index, then (nested devices expanded in place) component
 * order and component index; every other component follows in the same
 * expansion order. Each device has its dot name ("server.3.xpu.1"). */
#ifndef ET_SIM_INFRAGRAPH_NETGRAPH_H
#define ET_SIM_INFRAGRAPH_NETGRAPH_H
#include "et_err.h"
#include "et_netyaml.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a load refuses beyond (ET_EXIT_DATA), checked from the counts
 * before anything is expanded: files over 64 MiB, more devices or edges
 * than these (edges counted before self pairs and repeated pairs are
 * dropped), devices nested more than NETGRAPH_MAX_NEST deep (an instance's
 * device is level 1). */
#define NETGRAPH_MAX_FILE ((size_t)64 << 20)
#define NETGRAPH_MAX_DEV 1048576u
#define NETGRAPH_MAX_EDGE 16777216u
#define NETGRAPH_MAX_NEST 16
/* YAML or JSON containers nested at most this deep: the network reader's
 * limit (et_netyaml.h), which refuses deeper files as it meets them. */
#define NETGRAPH_MAX_TREE_DEPTH ET_NETYAML_MAX_DEPTH

/* What the reader settles where InfraGraph leaves it open (all from
 * InfraGraph 2.x's schema and its service's expansion otherwise):
 * - bandwidth: gigabits_per_second / 8, gigabytes_per_second as is,
 *   gigatransfers_per_second read as gigabits per second (a transfer taken
 *   as one bit); latency ms, us or ns, in ns. A link without
 *   physical.bandwidth has bpns 0 and link_nobw set; a bandwidth must be
 *   more than 0.
 * - link_name: every declared link, the infrastructure's by name first,
 *   then each device's (in device order) as "DEVICE.LINK".
 * - an edge joining a device to itself is dropped (one2one as many2many);
 *   a pair given twice by the same link is one edge, the first (InfraGraph
 *   builds a simple graph); by another link, an error. a is the ep1 side.
 * - indices are Python's, without negative ones; a slice that selects
 *   nothing or reaches beyond the count is an error. */
typedef struct ng_edge {
	uint32_t a, b; /* device indices, a != b */
	uint32_t link; /* index into link_name */
	double bpns;   /* bytes per ns (SI: 1 GB/s = 1 B/ns, 1 Gb/s = 0.125); 0 = not given */
	double lat_ns; /* ns; 0 when not given */
} ng_edge;

typedef struct netgraph {
	char *name;    /* the infrastructure's name ("" when none) */
	uint32_t ndev; /* devices */
	uint32_t nnpu; /* devices 0..nnpu-1 are the NPUs */
	char **dev;    /* [ndev] dot names */
	ng_edge *edge; /* undirected, in file order (device edges expanded per instance) */
	size_t nedge;
	char **link_name; /* [nlink] */
	bool *link_nobw;  /* [nlink] the link gives no bandwidth */
	uint32_t nlink;
} netgraph;

/* Reads an InfraGraph instance (schema 2.x) from YAML or JSON (JSON when
 * the first non-blank byte is '{'). 0, or -1 with e set, one line naming
 * the file (and the line, or the key path, of what is wrong): ET_EXIT_IO
 * when it cannot be read, ET_EXIT_DATA when it is not an instance et-sim
 * can use (bad syntax, a missing or mistyped key, an edge naming an unknown
 * instance, component or link, a slice out of range, a one2one edge whose
 * two sides expand to different counts, no xpu at all, the pre-2.0 form
 * with dot-string connections). On failure g is freed. */
int netgraph_load(netgraph *g, const char *path, et_error *e);
/* The same for the len bytes at data (no NUL needed after them), NAME
 * standing for the file in messages; never ET_EXIT_IO. */
int netgraph_load_mem(netgraph *g, const char *name, const char *data, size_t len, et_error *e);
/* Frees what g holds and zeroes it; a zeroed g is fine. */
void netgraph_free(netgraph *g);
/* A debugging aid (for -v): one line per device, "npu I NAME" for the
 * NPUs and "dev I NAME" for the others, then "link I NAME" (" -" after a
 * link without bandwidth), then "edge A B LINK BPNS LAT_NS". */
void netgraph_dump(const netgraph *g, FILE *f);

#endif
