/* astxt_plan: the graph of one rank of a text workload, and its bytes.
 *
 * astxt_plan_build wires the nodes as the reference converter does
 * (astxt_wire.c: node order, names, data dependencies per parallelism and
 * pass) and encodes each distinct node once as a template (astxt_tmpl.c):
 * its name and type, then its duration or attributes. Only the first two
 * passes are stored: every later pass is the second again, its nodes and
 * dependencies moved by one pass per pass.
 *
 * What the caller may rely on: node k of a rank (0-based, in the reference's
 * order) gets id base + k and its dependencies base + (their k); the bytes
 * astxt_plan_put appends are, message for message, what et_node_encode
 * writes for that node (the canonical encoding), so ranks can be written
 * with any base without building nodes. Memory: the plan owns its arrays;
 * allocation failure ends the process (et_mem.h). */
#ifndef ET_CONVERT_ASTRA_TEXT_ASTXT_PLAN_H
#define ET_CONVERT_ASTRA_TEXT_ASTXT_PLAN_H

#include "et-convert/astra-text/astxt.h"
#include "et_buf.h"

#include <stdint.h>

/* The node kinds of a layer: its three computations and three collectives.
 * A template is layer * ASTXT_KINDS + kind. */
enum astxt_kind {
	ASTXT_K_FWD,
	ASTXT_K_IG,
	ASTXT_K_WG,
	ASTXT_K_FWD_COMM,
	ASTXT_K_IG_COMM,
	ASTXT_K_WG_COMM,
	ASTXT_KINDS,
};

enum { ASTXT_MAX_DEPS = 3 }; /* HYBRID_DLRM's forward node has the most */

typedef struct astxt_pnode {
	uint32_t tmpl;
	uint32_t ndeps;
	uint32_t dep[ASTXT_MAX_DEPS]; /* node indices in the rank, in the reference's order */
} astxt_pnode;

typedef struct astxt_tmpl {
	uint32_t off;      /* in the plan's tbytes */
	uint32_t pre, suf; /* bytes before the dependencies and after them */
} astxt_tmpl;

typedef struct astxt_plan {
	astxt_pnode *node; /* the first pass, then the second (2 or more passes) */
	uint32_t n;        /* nodes stored */
	uint32_t per_pass; /* nodes per pass */
	uint32_t passes;
	astxt_tmpl *tmpl; /* per layer and kind */
	et_buf tbytes;
} astxt_plan;

/* passes >= 1; t read by astxt_read. */
void astxt_plan_build(astxt_plan *p, const astxt *t, uint32_t passes);
void astxt_plan_free(astxt_plan *p);
/* Nodes of a rank: per_pass * passes. */
uint64_t astxt_plan_nodes(const astxt_plan *p);
/* Bytes of a rank's nodes (length prefixes included) with ids from base. */
uint64_t astxt_plan_bytes(const astxt_plan *p, uint64_t base);
/* Appends the length-prefixed nodes [from, to) of a rank with ids from base. */
void astxt_plan_put(const astxt_plan *p, uint64_t base, uint64_t from, uint64_t to, et_buf *out);

/* astxt_wire.c: the graph alone (nodes, per_pass, passes; no templates). */
void astxt_wire(astxt_plan *p, const astxt *t, uint32_t passes);
/* astxt_tmpl.c: the templates of every layer and kind. */
void astxt_tmpl_build(astxt_plan *p, const astxt *t);

#endif
