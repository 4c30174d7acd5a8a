/* et-stage: LLM training and inference traces for any parallelism plan.
 *
 * The pieces: the configuration (opts.c: our flags, STAGE's flags, model
 * presets in models.c), the rank layout and comm groups (layout.c), one
 * graph per pipeline stage built by the stage-graph builder (sg.c) from the
 * layer tables (compat.c: STAGE's graphs; phys.c, phys_layer.c, infer.c:
 * the physical mode), and the writer that serializes each stage's graph
 * once and patches it per rank (tpl.c). */
#ifndef ET_STAGE_STAGE_H
#define ET_STAGE_STAGE_H

#include "app/et_cli.h"
#include "et_output.h"
#include "et_ranklist.h"
#include "et_sgroups.h"

#include <stdbool.h>
#include <stdint.h>

/* The parallel dimensions, in STAGE's order: the spatial ones (dp, tp, cp,
 * ep), then pp. */
enum { DIM_DP, DIM_TP, DIM_CP, DIM_EP, DIM_PP, NDIMS };

enum { MODE_TRAIN, MODE_PREFILL, MODE_DECODE };
enum { REC_NONE, REC_SELECTIVE, REC_FULL };
enum { SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED };

/* Which layer graph: GPT (LayerNorm, MHA, 2-matrix FFN), Llama (GQA,
 * SwiGLU) or MoE (Llama attention, routed experts). */
enum { ARCH_GPT, ARCH_LLAMA, ARCH_MOE };

typedef struct stage_conf {
	int arch;
	const char *model; /* --model NAME, or NULL */
	bool compat;       /* --compat stage; otherwise the physical mode */
	/* model: layers, d_model, d_ff, heads, kv heads, vocabulary, experts, top-k */
	uint64_t L, D, F, H, KV, V, E, K;
	/* sequence, global batch, global micro-batch (STAGE's --micro_batch) */
	uint64_t S, B, MB;
	uint32_t dim[NDIMS]; /* dp, tp, cp, ep, pp as given (tp·ep folded for dense) */
	bool fsdp, tpsp, mixed;
	/* physical mode */
	int mode;                     /* MODE_TRAIN, MODE_PREFILL, MODE_DECODE */
	int dtype_bytes;              /* --dtype: 2 (bf16, fp16), 1 (fp8), 4 (fp32) */
	bool causal, flash;           /* --attention causal, --flash-recompute on */
	int recompute;                /* REC_NONE, REC_SELECTIVE, REC_FULL */
	int schedule;                 /* SCHED_GPIPE, SCHED_1F1B, SCHED_INTERLEAVED */
	uint32_t vstages;             /* --virtual-stages (interleaved) */
	uint32_t grad_buckets;        /* --grad-buckets */
	double capacity;              /* --capacity-factor, 0 = dropless */
	uint64_t context, new_tokens; /* inference */
	uint64_t seed;
	bool no_classes;      /* --no-classes */
	uint32_t class_block; /* --class-block, 0 = world / 64 rounded up */
	uint32_t world;       /* --world, 0 = not given */
	et_ranklist ranks;
	const char *comm_groups; /* --write-comm-groups FILE */
	const char *output_dir;  /* STAGE's --output_dir: D/NAME.%d.et, D/NAME.json */
	const char *output_name; /* with %d */
	et_cli_out out;
	et_cli cli;
} stage_conf;

/* Parse argv into c (exits 2 on a usage error, 0 for --help). */
void stage_parse(stage_conf *c, int argc, char **argv);
void stage_conf_free(stage_conf *c);

/* --- model presets (models.c) ------------------------------------------ */
typedef struct stage_model {
	const char *name;
	int arch;
	uint64_t L, D, F, H, KV, V, S, E, K;
} stage_model;
const stage_model *stage_model_find(const char *name);
/* The presets, for --list-models: one line each. */
void stage_models_print(void);

/* --- rank layout and comm groups (layout.c) ---------------------------- */
typedef struct stage_layout {
	uint32_t size[NDIMS];   /* dp, tp (·ep for dense), cp, ep (1 for dense), pp */
	uint64_t stride[NDIMS]; /* rank = Σ coord[X]·stride[X] */
	uint32_t world;
	bool moe;               /* ep is a dimension of its own */
	uint64_t group_base[4]; /* id of the first group over dp, tp, cp, ep */
	uint64_t n_groups;
} stage_layout;

/* 0, or -1 with msg filled (the world does not fit 32 bits). */
int stage_layout_init(stage_layout *l, const stage_conf *c, char *msg, size_t cap);
uint32_t stage_coord(const stage_layout *l, uint32_t rank, int dim);
/* The comm-group id of rank's group over spatial dimension dim. */
uint64_t stage_group_id(const stage_layout *l, uint32_t rank, int dim);
/* Rank r's groups (one over each spatial dimension, ids as the comm-group
 * file's) into w, for its stream section header (etkit-stream(5)). */
void stage_rank_groups(const stage_layout *l, uint32_t r, et_sgroups_w *w);
/* Writes {"<id>": [ranks], ...} to a temporary file beside path: *o, for
 * the caller to put in place (et_output_commit) once the ranks are, or to
 * remove (et_output_abort; a signal or et_die removes it too). Fills *o
 * only on success. */
int stage_write_groups(const stage_layout *l, const char *path, et_output **o, et_error *e);

#endif
