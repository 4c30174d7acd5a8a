/* et-sim configuration: ASTRA-sim's network YAML, system JSON and comm-group
 * JSON, overridable key by key (--set KEY=VALUE). */
#ifndef ET_SIM_CONFIG_CFG_H
#define ET_SIM_CONFIG_CFG_H
#include "et_err.h"
#include "et_hmap.h"
#include "et_pg.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CFG_MAXDIM 8
#define CFG_MAXWARN 8

enum { TOPO_RING, TOPO_FC, TOPO_SWITCH };
enum { CM_REPLAY, CM_ROOFLINE, CM_SYSTOLIC };
enum { DF_OS, DF_WS, DF_IS };
enum { CI_AR, CI_AG, CI_RS, CI_A2A, CI_N }; /* implementation lists */

/* An implementation list: per dimension a collective algorithm (a row of
 * system/algo/algo_table.c) and its window (-1: none). */
typedef struct impl_list {
	int n;
	uint8_t v[CFG_MAXDIM];
	int window[CFG_MAXDIM];
	bool one; /* the first is a one* name: one ring over every rank */
} impl_list;

typedef struct comm_group {
	int id;
	uint32_t n;
	uint32_t *mem; /* sorted */
} comm_group;

struct netgraph;

/* The network part: what a backend (net.h) is built from. A network file
 * is either ASTRA-sim's dimensions (topo, bw, lat) or an InfraGraph graph. */
typedef struct cfg_net {
	int backend; /* a row of net/net.c's table, NET_DEFAULT unless set */
	uint8_t topo[CFG_MAXDIM];
	double bw[CFG_MAXDIM];   /* GB/s */
	double lat[CFG_MAXDIM];  /* ns */
	double bpns[CFG_MAXDIM]; /* bytes per ns (cfg_finish) */
	int netlen[4];           /* entries given for topology, npus_count, bandwidth, latency */
	struct netgraph *graph;  /* an InfraGraph network (owned), or NULL */
	int nlogical;            /* entries given for logical-dims */
} cfg_net;

typedef struct cfg {
	/* The ranks' dimensions, which collectives run over: the network's
	 * (npus_count), or on an InfraGraph graph the logical-dims (default:
	 * one dimension of every NPU). Dimension 0 varies fastest. */
	int ndims;
	uint32_t npus[CFG_MAXDIM];
	uint32_t total;
	uint32_t stride[CFG_MAXDIM];
	cfg_net net;
	/* system */
	bool lifo, lba;
	int active_chunks;
	int64_t splits;
	int64_t endpoint;
	double local_mem_bw; /* GB/s */
	double peak_perf;    /* TFLOP/s */
	bool roofline;
	impl_list impl[CI_N];
	/* comm groups */
	comm_group *groups;
	int ngroups;
	size_t capgroups;
	/* (uint32 id) << 32 | index of each group, sorted: cfg_group's binary
	 * search (8 bytes a group; a hash map of 147,584 groups took 16 MB) */
	uint64_t *group_ix;
	size_t capgroup_ix;
	/* beyond ASTRA-sim */
	int compute_model;
	double compute_scale;
	int64_t mem_latency;
	double mem_bw;    /* GB/s, 0 = MEM nodes take no time */
	bool extra_colls; /* simulate REDUCE/GATHER/SCATTER/BROADCAST */
	int64_t sys_rows, sys_cols, sys_arrays;
	double sys_clock_ghz;
	int sys_dataflow;
	double sys_a, sys_b; /* a > 0: a GEMM takes a * cycles + b ns (a fitted line) */
	/* provenance for messages */
	char net_file[256], sys_file[256], grp_file[256];
	/* what the loaders found worth a warning, for the caller to print once
	 * (a --sweep builds the configuration once per point) */
	char warn[CFG_MAXWARN][320];
	int nwarn;
} cfg;

/* The defaults et-sim(1) states, and no network (ndims 0). */
void cfg_defaults(cfg *c);

/* The functions down to cfg_finish return 0, or -1 with e set (e may be
 * NULL), one line. On failure c may hold part of what was read: cfg_free it
 * as on success.
 *
 * Loaders: messages start with the file's name and, for what is wrong at
 * one place, the line ("FILE: line L: \"KEY\": ..."). Code ET_EXIT_IO when
 * the file cannot be read (a directory included), ET_EXIT_DATA when it is
 * not a configuration et-sim can use: bad syntax, an unknown or repeated
 * key, a value of the wrong type or one the key does not take, an
 * InfraGraph topology, a feature et-sim does not simulate. Keys that
 * ASTRA-sim ignores too leave a warning in c->warn (et-sim(1) lists them).
 * cfg_load_groups is not strict yet: its every error is ET_EXIT_USAGE. */
int cfg_load_network(cfg *c, const char *path, et_error *e);
int cfg_load_system(cfg *c, const char *path, et_error *e);
int cfg_load_groups(cfg *c, const char *path, et_error *e);
/* The groups of l (a comm-group file's list, or those a stream carries),
 * src naming where they came from in messages. */
void cfg_add_groups(cfg *c, const et_pg_list *l, const char *src);
/* KEY=VALUE; lists separated by ',' or '/'. Code ET_EXIT_USAGE. Messages
 * name the key, not where the setting came from (the caller adds "--set
 * KEY=VALUE: "). */
int cfg_set(cfg *c, const char *kv, et_error *e);
int cfg_set_kv(cfg *c, const char *key, const char *val, et_error *e);
/* Keep one warning for the caller to print (cut to fit; beyond CFG_MAXWARN
 * they are dropped, which the files et-sim reads cannot reach). */
void cfg_warn(cfg *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Derived values and consistency checks; messages name no file; code
 * ET_EXIT_USAGE (the settings do not fit together). */
int cfg_finish(cfg *c, et_error *e);
void cfg_free(cfg *c);
/* --compute SPEC: "replay", "roofline", "systolic[:KEY=V,...]" (rows, cols,
 * dataflow, arrays, ghz, a, b) or a preset ("tpu-v4[:KEY=V,...]"). Code
 * ET_EXIT_USAGE; messages name the key. */
int cfg_set_compute(cfg *c, const char *spec, et_error *e);
/* The comm group a pg_name names (with its index), or NULL: all ranks
 * (et_pg_is_all), no leading integer, or not defined (index -1). Ids are
 * read as ASTRA-sim reads them (et_pg_id: "1.0" is group 1). */
const comm_group *cfg_group(const cfg *c, const char *pg_name, int *index);

#endif
