/* hlo_mod: an HLO module as the reader holds it between parsing
 * (hlo_parse.c) and building the xir (hlo_build.c): computations, their
 * instructions in text order with operands resolved to instruction indices,
 * shapes, and the few attributes the mapping needs. Everything else in the
 * text (metadata, shardings, layouts, ...) is checked for balance and
 * skipped.
 *
 * Text positions are byte offsets (the input is at most 1 GiB, so they fit
 * 32 bits); hlo_fail turns one into "line L, column C". The module keeps
 * pointers into the text, which must outlive it. Everything is freed by
 * hlo_mod_free; allocation failure ends the process (et_mem.h). */
#ifndef ET_CONVERT_HLO_HLO_MOD_H
#define ET_CONVERT_HLO_HLO_MOD_H

#include "et-convert/hlo/hlo.h"
#include "et_err.h"
#include "et_hmap.h"
#include "et_strmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HLO_NONE UINT32_MAX
/* Instructions a module may hold. */
#define HLO_MAX_INST ((uint32_t)1 << 24)
/* Ids one replica-group list, pair list or mesh may expand to, and the
 * dimensions of a shape. */
#define HLO_MAX_IDS ((uint32_t)1 << 24)
#define HLO_MAX_RANK 64
/* Ids all the distinct group and pair sets of a program may hold. */
#define HLO_MAX_MEMBERS ((uint32_t)1 << 26)

/* Opcodes the mapping tells apart; every other opcode is HLO_OP_OTHER, a
 * computation of one FLOP per result element. */
enum hlo_opc {
	HLO_OP_OTHER,
	/* elided: no op, their dependencies pass through */
	HLO_OP_PARAMETER,
	HLO_OP_CONSTANT,
	HLO_OP_TUPLE,
	HLO_OP_GTE,
	HLO_OP_BITCAST,
	HLO_OP_PARTITION_ID,
	HLO_OP_REPLICA_ID,
	HLO_OP_AFTER_ALL,
	HLO_OP_ADD_DEPENDENCY,
	HLO_OP_OPT_BARRIER,
	HLO_OP_DOMAIN,
	HLO_OP_DIM_SIZE, /* get-/set-dimension-size */
	HLO_OP_RNG_STATE,
	HLO_OP_INFEED,
	HLO_OP_OUTFEED,
	HLO_OP_DONE, /* the -done / -update half of an async pair */
	/* control flow */
	HLO_OP_CALL,
	HLO_OP_WHILE,
	HLO_OP_CONDITIONAL,
	HLO_OP_FUSION,
	HLO_OP_ASYNC_START,
	/* communication */
	HLO_OP_ALL_REDUCE,
	HLO_OP_ALL_GATHER,
	HLO_OP_REDUCE_SCATTER,
	HLO_OP_ALL_TO_ALL,
	HLO_OP_RAGGED_ALL_TO_ALL,
	HLO_OP_COLL_BROADCAST,
	HLO_OP_COLL_PERMUTE,
	HLO_OP_SEND,
	HLO_OP_RECV,
	/* computation with their own rules */
	HLO_OP_DOT,
	HLO_OP_CONVOLUTION,
	HLO_OP_CUSTOM_CALL,
	HLO_OP_REDUCE,
	HLO_OP_REDUCE_WINDOW,
	HLO_OP_COMPARE,
	/* data movement: no FLOPs */
	HLO_OP_MOVE,
	HLO_OP_WINDOW_MOVE, /* slice, dynamic-slice: read only the window */
	HLO_OP_DUS,         /* dynamic-update-slice: write only the update */
	HLO_OP_COPY,
	HLO_OP_COUNT
};

/* hlo_inst.flags */
enum {
	HLO_F_ROOT = 1,
	HLO_F_START = 2,    /* an X-start of an async pair (all-reduce-start, copy-start) */
	HLO_F_INT = 4,      /* constant with an integer literal in ival */
	HLO_F_WARNED = 8,   /* a warning about it was printed */
	HLO_F_GLOBAL = 16,  /* use_global_device_ids=true */
	HLO_F_HOST = 32,    /* is_host_transfer=true */
	HLO_F_SLICES = 64,  /* collective-permute with slice_sizes (in-place form) */
	HLO_F_CHANNEL = 128 /* channel_id given */
};

enum hlo_dir {
	HLO_DIR_NONE,
	HLO_DIR_EQ,
	HLO_DIR_NE,
	HLO_DIR_LT,
	HLO_DIR_LE,
	HLO_DIR_GT,
	HLO_DIR_GE
};

enum hlo_shape_kind { HLO_SH_ARRAY, HLO_SH_TUPLE };

typedef struct hlo_shape {
	uint8_t kind;   /* enum hlo_shape_kind */
	uint8_t bits;   /* array: bits per element (0: token, opaque) */
	uint16_t rank;  /* array */
	uint32_t n;     /* tuple: elements */
	uint32_t off;   /* array: dims at m->dims[off]; tuple: element shapes at m->kids[off] */
	uint64_t elems; /* elements (a tuple: of all its arrays), saturating */
	uint64_t bytes; /* saturating */
} hlo_shape;

typedef struct hlo_range {
	uint32_t off, len; /* a byte range of the text */
} hlo_range;

typedef struct hlo_list {
	uint32_t off, n; /* n entries of a pool from off */
} hlo_list;

enum hlo_gform { HLO_G_NONE, HLO_G_ALL, HLO_G_LIST, HLO_G_IOTA };

/* A replica-group list as written: an explicit list, "{}" (all), or an
 * iota form (iota over `dims`, transposed by `perm`, cut into ngroups rows;
 * a mesh axes form becomes one) whose values index `map` when it is given
 * (a mesh with explicit device ids). */
typedef struct hlo_groups {
	uint8_t form; /* enum hlo_gform */
	uint32_t pos; /* text offset of the value */
	uint32_t ngroups, size;
	hlo_list ids;        /* HLO_G_LIST: ngroups * size ids in m->ints */
	hlo_list dims, perm; /* HLO_G_IOTA, in m->ints */
	hlo_list map;        /* HLO_G_IOTA: device ids (n = 0: identity) */
} hlo_groups;

/* A reference to a computation by name: name id until hlo_resolve, then
 * the computation's index. */
typedef struct hlo_ref {
	uint32_t id, pos;
} hlo_ref;

/* The attributes the mapping reads, for the instructions that have any. */
typedef struct hlo_attr {
	int64_t channel;
	hlo_groups groups; /* replica_groups */
	hlo_list pairs;    /* source_target_pairs: 2n ids in m->ints */
	uint32_t pairs_pos;
	hlo_list comps;          /* to_apply, calls, called_computations, branches: m->refs */
	uint32_t body, cond;     /* m->refs indices, HLO_NONE */
	uint32_t tcomp, fcomp;   /* true_/false_computation, m->refs indices, HLO_NONE */
	hlo_list lc, rc, lb, rb; /* dot dimension numbers, in m->ints */
	hlo_range labels;        /* convolution: the kernel's dim labels ("01io") */
	hlo_range backend;       /* backend_config's value */
	hlo_range target;        /* custom_call_target's string, quotes included */
	hlo_range frontend;      /* frontend_attributes' value */
	uint64_t window;         /* product of window sizes, 0 = none */
	uint8_t dir;             /* enum hlo_dir */
} hlo_attr;

typedef struct hlo_inst {
	uint32_t pos;         /* text offset of its name */
	uint32_t name;        /* id in m->names */
	uint32_t opname;      /* id in m->names of its opcode as written */
	uint32_t shape;       /* index in m->shape */
	uint32_t opnd, nopnd; /* operands: instruction indices at m->opnd[opnd] */
	uint32_t attr;        /* index in m->attr, HLO_NONE */
	uint16_t op;          /* enum hlo_opc */
	uint16_t flags;       /* HLO_F_* */
	int64_t ival;         /* parameter number, constant value, tuple index */
} hlo_inst;

typedef struct hlo_comp {
	uint32_t name, pos;
	uint32_t first, n;     /* its instructions: m->inst[first .. first + n) */
	uint32_t root;         /* absolute index */
	uint8_t mark;          /* cost walk: 0 new, 1 in progress, 2 done */
	uint64_t flops, bytes; /* its cost when run once (hlo_cost.c) */
	uint64_t gemm[4];      /* the extents of its most expensive matrix product */
	uint64_t gemm_flops;
} hlo_comp;

typedef struct hlo_module {
	const char *text, *name; /* the input and its name for messages */
	size_t len;
	hlo_range modname;
	int64_t replicas, partitions; /* from the header, 0 = not said */
	uint32_t entry;
	hlo_comp *comp;
	size_t ncomp, capcomp;
	hlo_inst *inst;
	size_t ninst, capinst;
	uint32_t *opnd;
	size_t nopnd, capopnd;
	hlo_shape *shape;
	size_t nshape, capshape;
	uint64_t *dims;
	size_t ndims, capdims;
	uint32_t *kids;
	size_t nkids, capkids;
	hlo_attr *attr;
	size_t nattr, capattr;
	int64_t *ints;
	size_t nints, capints;
	hlo_ref *refs;
	size_t nrefs, caprefs;
	et_strmap names; /* instruction, computation and opcode names */
	et_hmap scope;   /* (computation + 1, name) -> instruction; (0, name) -> computation */
	hlo_opts opts;   /* defaults filled in */
} hlo_module;

void hlo_mod_init(hlo_module *m, const char *name, const char *text, size_t len, const hlo_opts *o);
void hlo_mod_free(hlo_module *m);
/* The ints of a list starting at off (NULL while there are none at all:
 * no arithmetic on a null pointer). */
static inline const int64_t *hlo_ints_at(const hlo_module *m, uint32_t off)
{
	return m->ints ? m->ints + off : NULL;
}
/* Appends n ints; returns their list. */
hlo_list hlo_ints(hlo_module *m, const int64_t *v, uint32_t n);
/* The 1-based line and column (in bytes) of text offset off. */
void hlo_line_col(const hlo_module *m, size_t off, size_t *line, size_t *col);
/* Fills e with "NAME: line L, column C: <fmt>" (ET_EXIT_DATA) for the text
 * offset off; returns -1. */
int hlo_fail(const hlo_module *m, et_error *e, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The name of an instruction / computation (m->names pool: valid until the
 * next insertion). */
const char *hlo_name(const hlo_module *m, uint32_t id);
/* The attributes of instruction i (NULL when it has none). */
static inline const hlo_attr *hlo_attr_of(const hlo_module *m, const hlo_inst *in)
{
	return in->attr == HLO_NONE ? NULL : &m->attr[in->attr];
}
static inline const hlo_shape *hlo_shape_of(const hlo_module *m, uint32_t inst)
{
	return &m->shape[m->inst[inst].shape];
}
/* Operand k of instruction in (an instruction index). */
static inline uint32_t hlo_opnd(const hlo_module *m, const hlo_inst *in, uint32_t k)
{
	return m->opnd[in->opnd + k];
}

/* hlo_opc.c: the opcode of a word as written; *start is set for the X-start
 * form of an async pair. */
uint16_t hlo_opcode(const char *w, size_t n, bool *start);
/* Whether instructions of opcode op become no op (their dependencies pass
 * through). */
bool hlo_op_elided(uint16_t op);

/* hlo_parse.c: the whole module (computations resolved, entry chosen). */
int hlo_parse(hlo_module *m, et_error *e);
/* hlo_build.c: the program of the entry computation into x (whose replicas
 * and partitions are set); returns the number of warnings or -1. */
int hlo_build(hlo_module *m, xir *x, et_error *e);

#endif
