/* infragraph: the parts of the InfraGraph reader behind netgraph_load
 * (netgraph.h), shared by its files and by nothing else:
 *
 *   infragraph_tree.c    YAML (libyaml events) or JSON (cJSON) -> ig_val tree
 *   infragraph_doc.c     ig_val tree -> ig_doc, the schema 2.x checked
 *   infragraph_ep.c      an edge endpoint's "host[0:2]" / "cx5[0].port" text
 *   infragraph_expand.c  ig_doc -> netgraph: numbering, names, edges, limits
 *   infragraph.c         netgraph_load*, netgraph_free: reads and orders these
 *
 * Everything a load builds before the netgraph lives in one arena, freed at
 * once when the load ends, whatever its result: tree and doc strings are
 * borrowed from it, never freed one by one. */
#ifndef ET_SIM_INFRAGRAPH_INFRAGRAPH_H
#define ET_SIM_INFRAGRAPH_INFRAGRAPH_H

#include "et-sim/infragraph/netgraph.h"
#include "et_arena.h"
#include "et_err.h"
#include "et_strmap.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits (netgraph.h states them for callers). */
#define IG_MAX_DEV NETGRAPH_MAX_DEV
#define IG_MAX_EDGE NETGRAPH_MAX_EDGE
#define IG_MAX_NEST NETGRAPH_MAX_NEST
/* Keys inside keys: InfraGraph needs 7; deeper is not an instance. */
#define IG_MAX_TREE_DEPTH NETGRAPH_MAX_TREE_DEPTH
/* A device, component, instance or link name; longer is not a name. */
#define IG_MAX_NAME 256
/* All device dot names together. */
#define IG_MAX_NAME_BYTES ((size_t)256 << 20)

/* ---- the document tree: what both syntaxes reduce to ---- */

enum ig_vkind { IG_NULL, IG_SCALAR, IG_MAP, IG_SEQ };

typedef struct ig_val ig_val;
struct ig_val {
	enum ig_vkind kind;
	uint32_t line;        /* from 1; 0 when not known (JSON) */
	uint32_t idx;         /* index in the parent list or mapping */
	uint32_t n;           /* children of a map or seq */
	const ig_val *up;     /* parent; NULL for the root */
	const char *key;      /* the member's key when up is a map */
	const char *text;     /* a scalar's text (a JSON number printed %.17g) */
	ig_val *first, *next; /* children, in document order */
};

/* Where messages come from: the input's name, its syntax (a JSON tree has
 * no lines, so its messages give the key path alone) and the error. */
typedef struct ig_ctx {
	const char *name;
	bool json;
	et_error *e;
	et_arena *a;
} ig_ctx;

/* -1 with c->e set, ET_EXIT_DATA: "NAME: line L: PATH: what" (YAML),
 * "NAME: PATH: what" (JSON), "NAME: what" when at is NULL. PATH is the key
 * path of at ("devices[0].edges[2].link"); the root has none. */
int ig_fail(const ig_ctx *c, const ig_val *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The tree of a YAML or JSON text (data[0..len), data[len] == '\0'), built
 * in c->a. The root is a mapping. 0, or -1 with the error set. Aliases,
 * non-scalar keys, a second YAML document and nesting deeper than
 * IG_MAX_TREE_DEPTH are refused. */
int ig_tree_yaml(const ig_ctx *c, const char *data, size_t len, const ig_val **root);
int ig_tree_json(const ig_ctx *c, const char *data, size_t len, const ig_val **root);

/* The member k of map m, or NULL. */
const ig_val *ig_get(const ig_val *m, const char *k);

/* ---- the document: the schema's objects, names resolved ---- */

enum ig_ckind { IG_CUSTOM, IG_DEVICE, IG_CPU, IG_XPU, IG_NIC, IG_MEMORY, IG_PORT, IG_SWITCH };

/* Indices start, start + step, ... below stop: a slice already checked
 * against its count (never empty). */
typedef struct ig_sel {
	uint32_t start, stop, step;
} ig_sel;

/* One step of an endpoint's path: a component of the device reached so far. */
typedef struct ig_seg {
	uint32_t comp;
	ig_sel sel;
} ig_seg;

/* An endpoint: for an infrastructure edge an instance and its indices, then
 * a path of components, each but the last a nested device. n = how many
 * leaf components it names (saturated at IG_SAT). */
typedef struct ig_ep {
	uint32_t inst; /* UINT32_MAX inside a device */
	ig_sel isel;
	ig_seg *seg;
	uint32_t nseg;
	uint64_t n;
} ig_ep;

/* Counts from here on are all "too many" (far beyond every limit); the
 * saturating sum and product keep every count at most this, never
 * wrapping. */
#define IG_SAT ((uint64_t)1 << 40)

static inline uint64_t ig_sat_add(uint64_t a, uint64_t b)
{
	return a + b < IG_SAT ? a + b : IG_SAT;
}

static inline uint64_t ig_sat_mul(uint64_t a, uint64_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return a >= IG_SAT || b >= IG_SAT || a > IG_SAT / b ? IG_SAT : a * b;
}

/* How many indices a selection names. */
static inline uint64_t ig_sel_len(ig_sel s)
{
	return ((uint64_t)s.stop - s.start + s.step - 1) / s.step;
}

typedef struct ig_edge {
	ig_ep ep[2];
	uint32_t link; /* index into ig_doc.link */
	bool many;     /* many2many; else one2one */
	const ig_val *at;
} ig_edge;

typedef struct ig_comp {
	const char *name;
	uint32_t count;
	enum ig_ckind kind;
	uint32_t dev; /* the nested device when kind == IG_DEVICE */
	const ig_val *at;
} ig_comp;

typedef struct ig_dev {
	const char *name;
	ig_comp *comp;
	uint32_t ncomp;
	uint32_t link0, nlink; /* its links: ig_doc.link[link0 .. link0 + nlink) */
	ig_edge *edge;
	uint32_t nedge;
	et_strmap cname, lname; /* component / link name -> index in comp / its links */
	const ig_val *at;
} ig_dev;

typedef struct ig_inst {
	const char *name;
	uint32_t dev, count;
	const ig_val *at;
} ig_inst;

typedef struct ig_link {
	const char *name; /* as given */
	uint32_t dev;     /* owner, UINT32_MAX for the infrastructure's */
	double bpns, lat_ns;
	bool nobw;
} ig_link;

typedef struct ig_doc {
	const char *name;
	ig_dev *dev;
	uint32_t ndev;
	ig_inst *inst;
	uint32_t ninst;
	ig_link *link; /* the infrastructure's first, then each device's */
	uint32_t nlink, ntoplink;
	ig_edge *edge; /* the infrastructure's */
	uint32_t nedge;
	et_strmap dname, iname, lname; /* device, instance, infrastructure link name -> index */
} ig_doc;

/* Reads the tree into d (arrays in c->a, strmaps to free with
 * ig_doc_free). Refuses the pre-2.0 form, unknown or repeated keys,
 * missing or mistyped values, unknown names, bad slices and one2one edges
 * whose sides differ in count. 0 or -1 with the error set; either way
 * ig_doc_free(d) afterwards. */
int ig_doc_read(const ig_ctx *c, const ig_val *root, ig_doc *d);
void ig_doc_free(ig_doc *d);

/* An endpoint resolved in d: inst (the "instance" value) NULL for an edge
 * inside device dev; otherwise dev is ignored and inst names an instance,
 * with its indices. comp_text is the component path ("nic[0]",
 * "cx5[0:2].port"), comp its value (for messages). The instances and every
 * device's components must be read. 0, or -1 with the error set. */
int ig_ep_parse(const ig_ctx *c, const ig_doc *d, uint32_t dev, const ig_val *inst,
                const char *comp_text, const ig_val *comp, ig_ep *ep);

/* Expands d into g (g zeroed first; on failure g is freed): the device
 * numbering, dot names, edges with their link's bandwidth and latency,
 * repeated pairs merged; the limits checked before anything is allocated. */
int ig_expand(const ig_ctx *c, const ig_doc *d, netgraph *g);

#endif
