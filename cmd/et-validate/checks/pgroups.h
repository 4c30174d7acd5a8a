/* Process groups: pg_name -> members, from process-group METADATA nodes
 * (the PyTorch converter's "## process_group:init ##") and from an ASTRA-sim
 * comm-group file ({"<id>": [rank, ...]}). Group 0 is "all ranks": pg_name
 * "" or "0" (or no pg_name, or another spelling of 0) always means it. */
#ifndef ET_VALIDATE_CHECKS_PGROUPS_H
#define ET_VALIDATE_CHECKS_PGROUPS_H

#include "et_dims.h"
#include "et_err.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct group {
	uint32_t *ranks; /* sorted, unique; unused when all */
	size_t n_ranks;
	bool all;     /* every rank of the input */
	bool defined; /* by a process-group node or the comm-group file */
	bool from_file;
	int64_t def_rank; /* rank whose node defined it first (-1: the file,
	                     GROUPS_FROM_STREAM: the stream's comm groups) */
} group;

typedef struct groups groups;

/* Group ids are dense: 0 for all ranks, then 1, 2, ... in order of first
 * sight of a pg_name. Pointers from groups_get and groups_name stay valid
 * until a call that adds a group (groups_id, groups_define). */
groups *groups_new(void);
void groups_free(groups *gs);
size_t groups_count(const groups *gs);
const group *groups_get(const groups *gs, uint32_t gid);
/* The pg_name of a group ("" for group 0). */
const char *groups_name(const groups *gs, uint32_t gid);
/* The id of a pg_name, creating an undefined group on first sight. Names
 * are ASTRA-sim's: et_pg_is_all ones are group 0, and names with the same
 * leading integer (et_pg_id) are one group, named by the integer. */
uint32_t groups_id(groups *gs, const char *pg_name);
bool groups_has_rank(const group *g, uint32_t rank);

/* Define (or re-define) a group. Returns 0, or 1 when it was defined
 * before with other members (the first definition is kept). */
int groups_define(groups *gs, const char *name, const uint32_t *ranks, size_t n, bool from_file,
                  int64_t by_rank, uint32_t *gid);

/* The group of the ranks that run a collective over all ranks together
 * when it runs on some dimensions only (et_dims.h): the scope of base
 * under the active dimensions, defined on first sight, named
 * "0[dims D,... from rank BASE]" (a name no pg_name maps to). */
uint32_t groups_scope(groups *gs, const et_dims *d, uint8_t active, uint32_t base);

#define GROUPS_FROM_STREAM (-2)

/* The groups a stream section carries (ri->groups; et_sgroups.h), defined
 * as a comm-group file's are (from_file, def_rank GROUPS_FROM_STREAM),
 * those not defined yet. */
struct et_rank_info;
void groups_from_stream(groups *gs, const struct et_rank_info *ri);

/* Load an ASTRA-sim comm-group JSON file. */
int groups_load_file(groups *gs, const char *path, et_error *e);

/* Parse a process-group node's inputs.values. Calls def(ctx, name, ranks,
 * n) for each group (n == 0: all ranks). Returns the number of groups, or
 * -1 when the text is not a process-group definition. */
typedef void (*pg_def_fn)(void *ctx, const char *name, const uint32_t *ranks, size_t n);
int pg_parse_values(const char *values, pg_def_fn def, void *ctx);

#endif
