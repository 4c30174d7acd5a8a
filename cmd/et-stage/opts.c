/* et-stage's command line: our own flags and STAGE's, spelled as STAGE
 * spells them (--num_stacks, --micro_batch, ...), from one table. Values
 * left unset come from the --model preset, then from STAGE's defaults. */
#include "et-stage/stage.h"
#include "et_err.h"
#include "et_input.h"
#include "et_output.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char usage[] =
    "Usage: et-stage --compat stage [--model NAME | DIMENSIONS] [PARALLELISM] [OPTIONS]\n"
    "       et-stage --compat stage --output_dir DIR [STAGE's flags]\n"
    "LLM training traces for a model and a parallelism plan, one ET per rank, as an\n"
    "etkit stream on stdout (or -o FILE, --split PREFIX, STAGE's --output_dir).\n"
    "\n";
static const char footer[] = "Exit status: 0 ok, 2 usage, 4 I/O error. See et-stage(1).\n";

/* What the parser collects before the values are settled. */
typedef struct raw {
	stage_conf *c;
	const char *model;
	int model_type;      /* STAGE's --model_type: -1 unset */
	int arch;            /* --arch: ARCH_*, -1 unset */
	int act_rec;         /* STAGE's --activation_recompute: -1 unset */
	uint64_t micro_rank; /* --micro-batch (per data-parallel rank) */
	int mixed;           /* -1 unset */
	int tpsp;            /* -1 unset */
	int fsdp;            /* -1 unset */
	bool list_models, compat_given;
	/* physical mode's choices, -1 unset */
	int mode, dtype, attention, flash, recompute, schedule;
} raw;

enum { MT_GPT, MT_DENSE, MT_LLAMA, MT_MOE };
static const char *const model_types[] = {"gpt", "dense", "llama", "moe", NULL};
static const char *const archs[] = {"gpt", "llama", "moe", NULL}; /* ARCH_* order */
static const char *const compat_modes[] = {"stage", NULL};
static const char *const modes[] = {"train", "prefill", "decode", NULL};
static const char *const dtypes[] = {"bf16", "fp16", "fp8", "fp32", NULL};
static const char *const masks[] = {"causal", "full", NULL};
static const char *const recomputes[] = {"none", "selective", "full", NULL};
static const char *const schedules[] = {"gpipe", "1f1b", "interleaved", NULL};

/* STAGE's booleans: true/t/1/yes/y and false/f/0/no/n, in any case. */
static int opt_bool(et_cli *c, const et_opt *o, const char *arg)
{
	static const char *const yes[] = {"true", "t", "1", "yes", "y"};
	static const char *const no[] = {"false", "f", "0", "no", "n"};
	for (int i = 0; i < 5; i++) {
		if (strcasecmp(arg, yes[i]) == 0)
			return *(int *)o->target = 1, 0;
		if (strcasecmp(arg, no[i]) == 0)
			return *(int *)o->target = 0, 0;
	}
	et_cli_usage_error(c, "--%s: expected true or false, got '%s'", o->lng, arg);
}

static int opt_onoff(et_cli *c, const et_opt *o, const char *arg)
{
	if (strcmp(arg, "on") && strcmp(arg, "off"))
		et_cli_usage_error(c, "--%s: expected on or off, got '%s'", o->lng, arg);
	*(int *)o->target = strcmp(arg, "on") == 0;
	return 0;
}

static int opt_ranks(et_cli *c, const et_opt *o, const char *arg)
{
	if (et_ranklist_parse(o->target, arg) < 0)
		et_cli_usage_error(c, "--ranks: expected a list such as 0-127 or 0-3,7, got '%s'",
		                   arg);
	return 0;
}

static int opt_ignored(et_cli *c, const et_opt *o, const char *arg)
{
	(void)arg;
	(void)c;
	et_warn("--%s is accepted and ignored, as STAGE does", o->lng);
	return 0;
}

#define DIM(lng, help, d) ET_OPT_U32(0, lng, "N", help, &c->dim[d], .min = 1, .max = 1 << 20)

/* The configuration's fields as int64 targets for the table. */
typedef struct vals {
	int64_t L, D, F, H, KV, V, E, K, S, B, MB, micro, context, new_tokens;
	int64_t Bstage; /* STAGE's --batch: the same as --global-batch, with STAGE's default
	                   micro-batch (the whole batch) in physical mode too */
} vals;

static void parse_table(stage_conf *c, raw *r, vals *v, int argc, char **argv)
{
	int compat = -1;
	et_opt opts[] = {
	    ET_OPT_HEADING("Mode:"),
	    ET_OPT_CHOICE(
	        0, "compat", "MODE",
	        "stage: STAGE's graphs, units (MACs, elements) and quirks, figure for figure",
	        &compat, .choices = compat_modes),
	    ET_OPT_HEADING("Physical mode (the default):"),
	    ET_OPT_CHOICE(0, "mode", "MODE", "train (default), prefill or decode", &r->mode,
	                  .choices = modes),
	    ET_OPT_CHOICE(
	        0, "dtype", "TYPE",
	        "bf16 (default), fp16, fp8 or fp32: the bytes of activations, weights and their "
	        "traffic (gradients are reduced in fp32)",
	        &r->dtype, .choices = dtypes),
	    ET_OPT_CHOICE(0, "attention", "MASK",
	                  "causal (default: half the score products) or full", &r->attention,
	                  .choices = masks),
	    ET_OPT_FN(0, "flash-recompute", "on|off",
	              "flash attention's recomputation of the scores in backward (default on)",
	              &r->flash, .fn = opt_onoff),
	    ET_OPT_CHOICE(
	        0, "recompute", "WHAT",
	        "activation recomputation: none (default), selective (core attention) or full "
	        "(every layer's forward)",
	        &r->recompute, .choices = recomputes),
	    ET_OPT_CHOICE(
	        0, "schedule", "S",
	        "pipeline schedule as control dependencies: gpipe, 1f1b (default) or interleaved",
	        &r->schedule, .choices = schedules),
	    ET_OPT_U32(0, "virtual-stages", "V",
	               "model chunks per stage with interleaved (default 2)", &c->vstages, .min = 1,
	               .max = 64),
	    ET_OPT_U32(0, "grad-buckets", "N",
	               "gradient sync in N buckets per stage, each as soon as its layers' last "
	               "backward is "
	               "done (default 4)",
	               &c->grad_buckets, .min = 1, .max = 1 << 16),
	    ET_OPT_DBL(
	        0, "capacity-factor", "C",
	        "MoE: experts process C times their share of routed tokens (padding; default: "
	        "dropless, exactly the routed tokens)",
	        &c->capacity),
	    ET_OPT_I64(0, "context", "C",
	               "decode: positions the first step attends over, its own token included",
	               &v->context, .min = 1, .max = 1 << 30),
	    ET_OPT_I64(0, "new-tokens", "N", "decode: steps, each attending over the growing cache",
	               &v->new_tokens, .min = 1, .max = 1 << 20),
	    ET_OPT_HEADING("Model:"),
	    ET_OPT_STR(0, "model", "NAME", "a preset (--list-models); dimensions given too win",
	               &r->model),
	    ET_OPT_CHOICE(
	        0, "arch", "ARCH",
	        "the layer graph: gpt (LayerNorm, MHA, GELU FFN), llama (RMSNorm, GQA over "
	        "--kv-heads, SwiGLU) or moe (llama's attention, --experts routed SwiGLU experts, "
	        "--top-k per token); default: the preset's, else gpt (STAGE --model_type)",
	        &r->arch, .choices = archs),
	    ET_OPT_FLAG(0, "list-models", "print the presets and their dimensions",
	                &r->list_models),
	    ET_OPT_I64(0, "layers", "L", "transformer layers (STAGE --num_stacks; default 80)",
	               &v->L, .min = 1, .max = 1 << 20),
	    ET_OPT_I64(0, "d-model", "D", "hidden size (--dmodel; default 8192)", &v->D, .min = 1,
	               .max = 1 << 30),
	    ET_OPT_I64(0, "d-ff", "F", "FFN size (--dff; default 28672)", &v->F, .min = 1,
	               .max = 1 << 30),
	    ET_OPT_I64(0, "heads", "H", "attention heads (--head; default 64)", &v->H, .min = 1,
	               .max = 1 << 20),
	    ET_OPT_I64(0, "kv-heads", "KV", "key/value heads (--kvhead; default 8)", &v->KV,
	               .min = 1, .max = 1 << 20),
	    ET_OPT_I64(0, "vocab", "V", "vocabulary (--dvocal; default 32000)", &v->V, .min = 1,
	               .max = 1 << 30),
	    ET_OPT_I64(0, "seq", "S", "sequence length (default 1024)", &v->S, .min = 1,
	               .max = 1 << 30),
	    ET_OPT_I64(0, "global-batch", "B",
	               "sequences per step (--batch; default: 64 with --compat stage, else one "
	               "micro-batch "
	               "per pipeline slot: 2·pp micro-batches, 1 without pp)",
	               &v->B, .min = 1, .max = 1 << 30),
	    ET_OPT_I64(
	        0, "micro-batch", "M",
	        "sequences per micro-batch and data-parallel rank (default 1; with --compat stage "
	        "or STAGE's --batch: the whole batch; STAGE's --micro_batch is the global one)",
	        &v->micro, .min = 1, .max = 1 << 30),
	    ET_OPT_I64(0, "experts", "E", "experts of an MoE model (default 8)", &v->E, .min = 1,
	               .max = 1 << 16),
	    ET_OPT_I64(0, "top-k", "K", "experts per token (--kexperts; default 2)", &v->K,
	               .min = 1, .max = 1 << 16),
	    ET_OPT_HEADING(
	        "Parallelism (rank = ((p·CP + c)·TP + t)·DP + d; MoE: ep between pp and cp):"),
	    DIM("dp", "data-parallel ranks", DIM_DP),
	    DIM("tp", "tensor-parallel ranks", DIM_TP),
	    DIM("pp", "pipeline stages", DIM_PP),
	    DIM("cp", "context-parallel ranks (STAGE --sp)", DIM_CP),
	    DIM("ep", "expert-parallel ranks (dense models: multiplies tp, as in STAGE)", DIM_EP),
	    ET_OPT_SET(0, "fsdp", "shard the layers' weights over dp (--weight_sharded)", &r->fsdp,
	               .value = 1),
	    ET_OPT_FN(0, "sequence-parallel", "on|off",
	              "Megatron sequence parallelism with tp (default on; off: TP-only, GPT graph)",
	              &r->tpsp, .fn = opt_onoff),
	    ET_OPT_U32(0, "world", "N", "check that the plan has exactly N ranks", &c->world,
	               .min = 1, .max = UINT32_MAX),
	    ET_OPT_HEADING("Output:"),
	    ET_OPT_FN(
	        0, "ranks", "LIST",
	        "write only these ranks (0-127): disjoint shards that cat joins into the whole "
	        "stream",
	        &c->ranks, .fn = opt_ranks),
	    ET_OPT_STR(0, "write-comm-groups", "FILE",
	               "write the comm groups, {\"<id>\": [ranks]}, as ASTRA-sim reads them",
	               &c->comm_groups),
	    ET_OPT_U64(0, "seed", "N", "seed of the comm_tag base (default 1)", &c->seed, .min = 0,
	               .max = INT64_MAX),
	    ET_OPT_FLAG(0, "no-classes",
	                "stream: write every rank in full, not as its stage's class and a rule",
	                &c->no_classes),
	    ET_OPT_U32(0, "class-block", "N",
	               "stream: a stage's class frame before its first rank in each block of N "
	               "ranks (default: world / 64, rounded up)",
	               &c->class_block, .min = 1, .max = 1u << 31),
	    ET_OPTS_WRITE(&c->out),
	    ET_OPTS_COMMON(&c->cli),
	    /* STAGE's flags, as STAGE spells them (et-stage(1) lists them) */
	    ET_OPT_STR(0, "output_dir", "DIR", NULL, &c->output_dir, .flags = ET_OPT_HIDDEN),
	    ET_OPT_STR(0, "output_name", "NAME", NULL, &c->output_name, .flags = ET_OPT_HIDDEN),
	    ET_OPT_U32(0, "sp", "N", NULL, &c->dim[DIM_CP], .min = 1, .max = 1 << 20,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "weight_sharded", "BOOL", NULL, &r->fsdp, .fn = opt_bool,
	              .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "tpsp", "BOOL", NULL, &r->tpsp, .fn = opt_bool, .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "mixed_precision", "BOOL", NULL, &r->mixed, .fn = opt_bool,
	              .flags = ET_OPT_HIDDEN),
	    ET_OPT_CHOICE(0, "model_type", "TYPE", NULL, &r->model_type, .choices = model_types,
	                  .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "dvocal", "V", NULL, &v->V, .min = 1, .max = 1 << 30,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "dmodel", "D", NULL, &v->D, .min = 1, .max = 1 << 30,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "dff", "F", NULL, &v->F, .min = 1, .max = 1 << 30,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "batch", "B", NULL, &v->Bstage, .min = 1, .max = 1 << 30,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "micro_batch", "M", NULL, &v->MB, .min = -1, .max = 1 << 30,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "head", "H", NULL, &v->H, .min = 1, .max = 1 << 20,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "kvhead", "KV", NULL, &v->KV, .min = 1, .max = 1 << 20,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "num_stacks", "L", NULL, &v->L, .min = 1, .max = 1 << 20,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_I64(0, "kexperts", "K", NULL, &v->K, .min = 1, .max = 1 << 16,
	               .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "activation_recompute", "BOOL", NULL, &r->act_rec, .fn = opt_bool,
	              .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "chakra_schema_version", "X", NULL, NULL, .fn = opt_ignored,
	              .flags = ET_OPT_HIDDEN),
	    ET_OPT_FN(0, "print_gpu_vram", "X", NULL, NULL, .fn = opt_ignored,
	              .flags = ET_OPT_HIDDEN),
	    ET_OPT_END,
	};
	c->cli = (et_cli){.prog = "et-stage", .usage = usage, .footer = footer, .opts = opts};
	et_cli_parse(&c->cli, argc, argv);
	c->cli.opts = NULL;
	r->compat_given = compat == 0;
}

/* --- settling the values --------------------------------------------- */
static void set_default(uint64_t *f, int64_t given, uint64_t preset, uint64_t dflt)
{
	*f = given ? (uint64_t)given : preset ? preset : dflt;
}

/* The layer graph: --arch, or STAGE's --model_type, or the preset's, or
 * GPT. STAGE's dense and llama build GPT unless --mixed_precision true; in
 * compat mode so do we, in the physical mode llama is the Llama graph (dense
 * keeps STAGE's rule, so that STAGE's default is our default). */
static int pick_arch(stage_conf *c, const raw *r, const stage_model *m)
{
	if (r->arch >= 0 && r->model_type >= 0)
		et_cli_usage_error(&c->cli, "--arch and --model_type: give one");
	if (r->model_type == MT_MOE)
		return ARCH_MOE;
	if (r->model_type == MT_GPT)
		return ARCH_GPT;
	if (r->model_type == MT_LLAMA && !c->compat)
		return ARCH_LLAMA;
	if (r->model_type >= 0)
		return c->mixed ? ARCH_LLAMA : ARCH_GPT;
	int arch = r->arch >= 0 ? r->arch : r->model ? m->arch : ARCH_GPT;
	if (arch != ARCH_GPT && r->mixed < 0)
		c->mixed = true; /* STAGE reaches the Llama graph only so */
	return arch;
}

static void settle(stage_conf *c, const raw *r, const vals *v)
{
	const stage_model *m = NULL;
	if (v->B && v->Bstage)
		et_cli_usage_error(&c->cli, "--global-batch and --batch: give one");
	int64_t Bg = v->B ? v->B : v->Bstage;
	if (r->model && !(m = stage_model_find(r->model)))
		et_cli_usage_error(&c->cli, "--model: unknown model '%s' (et-stage --list-models)",
		                   r->model);
	c->model = m ? m->name : NULL;
	stage_model z = {0};
	if (!m)
		m = &z;
	set_default(&c->L, v->L, m->L, 80);
	set_default(&c->D, v->D, m->D, 8192);
	set_default(&c->F, v->F, m->F, 28672);
	set_default(&c->H, v->H, m->H, 64);
	set_default(&c->KV, v->KV, m->KV, 8);
	set_default(&c->V, v->V, m->V, 32000);
	set_default(&c->S, v->S, m->S, 1024);
	set_default(&c->E, v->E, m->E, 8);
	set_default(&c->K, v->K, m->K, 2);
	c->B = Bg ? (uint64_t)Bg : 64; /* STAGE's default */
	for (int d = 0; d < NDIMS; d++)
		if (!c->dim[d])
			c->dim[d] = 1;
	c->mixed = r->mixed == 1;
	c->tpsp = r->tpsp != 0;
	c->fsdp = r->fsdp == 1;
	c->arch = pick_arch(c, r, m);
	if (c->arch == ARCH_GPT)
		c->KV = c->H; /* multi-head attention */
	if (v->micro && v->MB)
		et_cli_usage_error(&c->cli, "--micro-batch and --micro_batch: give one");
	/* --micro-batch is per data-parallel rank (MoE: per dp·ep rank in
	 * physical mode, where attention is data-parallel over both) */
	uint64_t data = c->dim[DIM_DP];
	if (!c->compat && c->arch == ARCH_MOE)
		data *= c->dim[DIM_EP];
	if (c->compat) {
		c->MB = v->micro ? (uint64_t)v->micro * data : v->MB > 0 ? (uint64_t)v->MB : c->B;
		return;
	}
	if (r->mode > 0) { /* inference: one batch of B sequences, default one per rank */
		c->B = Bg ? (uint64_t)Bg : data;
		c->MB = c->B;
		return;
	}
	/* physical defaults: one sequence per rank and micro-batch, and 2·pp
	 * micro-batches when pipelined (1 otherwise) */
	c->MB = v->micro    ? (uint64_t)v->micro * data
	        : v->MB > 0 ? (uint64_t)v->MB
	        : v->Bstage ? (uint64_t)v->Bstage /* one micro-batch, as STAGE */
	                    : data;
	if (!Bg)
		c->B = c->MB * (c->dim[DIM_PP] > 1 ? 2 * c->dim[DIM_PP] : 1);
}

/* Physical mode's choices and their defaults; in compat mode they are
 * refused (STAGE has none of them). */
static void physical(stage_conf *c, const raw *r, const vals *v)
{
	static const int dbytes[] = {2, 2, 1, 4};
	const char *given = r->mode >= 0        ? "--mode"
	                    : r->dtype >= 0     ? "--dtype"
	                    : r->attention >= 0 ? "--attention"
	                    : r->flash >= 0     ? "--flash-recompute"
	                    : r->recompute >= 0 ? "--recompute"
	                    : r->schedule >= 0  ? "--schedule"
	                    : c->vstages        ? "--virtual-stages"
	                    : c->grad_buckets   ? "--grad-buckets"
	                    : c->capacity != 0  ? "--capacity-factor"
	                    : v->context        ? "--context"
	                    : v->new_tokens     ? "--new-tokens"
	                                        : NULL;
	if (c->compat && given)
		et_cli_usage_error(&c->cli, "%s is a physical-mode option: not with --compat stage",
		                   given);
	c->mode = r->mode >= 0 ? r->mode : MODE_TRAIN;
	c->dtype_bytes = dbytes[r->dtype >= 0 ? r->dtype : 0];
	c->causal = r->attention != 1;
	c->flash = r->flash != 0;
	if (r->act_rec >= 0 && c->compat)
		et_warn("--activation_recompute is accepted and ignored, as STAGE does");
	if (r->act_rec >= 0 && r->recompute >= 0)
		et_cli_usage_error(&c->cli, "--recompute and --activation_recompute: give one");
	/* physical mode: STAGE's flag means what its name says, all of it */
	c->recompute = r->recompute >= 0 ? r->recompute : r->act_rec == 1 ? REC_FULL : REC_NONE;
	c->schedule = r->schedule >= 0 ? r->schedule : SCHED_1F1B;
	if (!c->vstages)
		c->vstages = 2;
	if (!c->grad_buckets)
		c->grad_buckets = 4;
	if (c->capacity < 0 || (c->capacity > 0 && c->capacity < 1))
		et_cli_usage_error(&c->cli, "--capacity-factor: at least 1 (or 0: dropless)");
	c->context = (uint64_t)v->context;
	c->new_tokens = (uint64_t)v->new_tokens;
}

static void check_physical(stage_conf *c)
{
	et_cli *cl = &c->cli;
	uint32_t pp = c->dim[DIM_PP];
	uint64_t data = c->dim[DIM_DP] * (c->arch == ARCH_MOE ? c->dim[DIM_EP] : 1);
	if (c->arch != ARCH_MOE && c->dim[DIM_EP] > 1)
		et_cli_usage_error(cl, "--ep %" PRIu32 ": expert parallelism needs an MoE model",
		                   c->dim[DIM_EP]);
	/* STAGE's global --micro_batch may leave a rank part of a sequence: its
	 * tokens are counted, attending over the whole sequence */
	if (c->MB % data)
		et_warn("the global micro-batch %" PRIu64 " over %" PRIu64
		        " data-parallel ranks%s is %g sequences per rank: counted as %g tokens, "
		        "attending over the whole sequence",
		        c->MB, data, c->arch == ARCH_MOE ? " (dp·ep)" : "",
		        (double)c->MB / (double)data, (double)c->MB / (double)data * (double)c->S);
	if (c->mode == MODE_DECODE && c->dim[DIM_CP] > 1)
		et_cli_usage_error(cl, "--mode decode: one token per step cannot be split over cp");
	if (c->mode != MODE_TRAIN && (c->fsdp || c->recompute != REC_NONE))
		et_cli_usage_error(cl, "--fsdp and --recompute are for training (--mode train)");
	if (c->mode != MODE_DECODE && (c->context || c->new_tokens))
		et_cli_usage_error(cl, "--context and --new-tokens are for --mode decode");
	if (c->mode == MODE_DECODE) {
		if (!c->context)
			c->context = c->S; /* after a prompt of S - 1 tokens */
		if (!c->new_tokens)
			c->new_tokens = 1;
	}
	if (c->schedule != SCHED_INTERLEAVED)
		return;
	uint64_t nmb = c->B / c->MB;
	if (pp < 2)
		et_cli_usage_error(cl, "--schedule interleaved needs pp 2 or more");
	if (nmb % pp)
		et_cli_usage_error(cl,
		                   "--schedule interleaved: pp %" PRIu32
		                   " does not divide the %" PRIu64 " micro-batches",
		                   pp, nmb);
	if (c->L < (uint64_t)pp * c->vstages)
		et_cli_usage_error(cl,
		                   "--schedule interleaved: %" PRIu64
		                   " layers are fewer than pp·V = %" PRIu64 " chunks",
		                   c->L, (uint64_t)pp * c->vstages);
}

/* A rank's graph is about (micro-batches or steps) × (layers of a stage) ×
 * (nodes of a layer): refuse what the suite's readers would refuse
 * (--max-rank-nodes) before building it. */
static void check_size(stage_conf *c)
{
	uint64_t reps = c->mode == MODE_DECODE    ? c->new_tokens
	                : c->mode == MODE_PREFILL ? 1
	                                          : c->B / c->MB;
	uint64_t layers = (c->L + c->dim[DIM_PP] - 1) / c->dim[DIM_PP];
	uint64_t per = 50 + (c->arch == ARCH_MOE ? 12 * (c->E / c->dim[DIM_EP]) : 0);
	double nodes = (double)reps * (double)layers * (double)per;
	if (nodes > (double)ET_DEFAULT_MAX_NODES)
		et_cli_usage_error(
		    &c->cli,
		    "about %.0f nodes per rank (%" PRIu64 " %s × %" PRIu64
		    " layers per stage): more than the %llu the suite reads by default "
		    "(--max-rank-nodes); use fewer",
		    nodes, reps, c->mode == MODE_DECODE ? "steps" : "micro-batches", layers,
		    (unsigned long long)ET_DEFAULT_MAX_NODES);
}

/* Usage errors for plans that cannot be built, saying what divides what. */
static void check(stage_conf *c)
{
	et_cli *cl = &c->cli;
	uint32_t tp = c->dim[DIM_TP] * (c->arch == ARCH_MOE ? 1 : c->dim[DIM_EP]);
	if (c->B % c->MB)
		et_cli_usage_error(cl,
		                   "the global batch %" PRIu64 " is not a multiple of the global "
		                   "micro-batch %" PRIu64,
		                   c->B, c->MB);
	if (c->H % tp)
		et_cli_usage_error(cl, "tp %" PRIu32 " does not divide the %" PRIu64 " heads", tp,
		                   c->H);
	if (c->H % c->KV || c->KV > c->H)
		et_cli_usage_error(cl,
		                   "the %" PRIu64 " kv heads do not divide the %" PRIu64 " heads",
		                   c->KV, c->H);
	if (c->D % c->H)
		et_cli_usage_error(cl, "the %" PRIu64 " heads do not divide d_model %" PRIu64, c->H,
		                   c->D);
	if (c->L < c->dim[DIM_PP])
		et_cli_usage_error(cl, "pp %" PRIu32 " is more than the %" PRIu64 " layers",
		                   c->dim[DIM_PP], c->L);
	if (c->S % c->dim[DIM_CP])
		et_cli_usage_error(cl, "cp %" PRIu32 " does not divide the sequence %" PRIu64,
		                   c->dim[DIM_CP], c->S);
	if (c->arch == ARCH_MOE) {
		if (c->E % c->dim[DIM_EP])
			et_cli_usage_error(cl,
			                   "ep %" PRIu32 " does not divide the %" PRIu64 " experts",
			                   c->dim[DIM_EP], c->E);
		if (c->E / c->dim[DIM_EP] > 256)
			et_cli_usage_error(cl, "more than 256 experts per ep rank (%" PRIu64 ")",
			                   c->E / c->dim[DIM_EP]);
		if (c->K > c->E)
			et_cli_usage_error(cl,
			                   "top-k %" PRIu64 " is more than the %" PRIu64 " experts",
			                   c->K, c->E);
	}
	if (!c->compat)
		check_physical(c);
	check_size(c);
	if (!c->tpsp && c->arch != ARCH_GPT && c->compat)
		et_warn("--sequence-parallel off (--tpsp false) applies to the GPT graph only; "
		        "ignored");
}

/* What was given is stored in the settled configuration before the
 * defaults fill it in. */
typedef struct given {
	bool vstages, grad_buckets, capacity;
} given;

/* Options given that this plan's graph has no use for: a warning each, so
 * that none is taken and silently dropped. */
static void warn_unused(const stage_conf *c, const raw *r, const vals *v, given g)
{
	if (c->arch == ARCH_GPT && v->KV && (uint64_t)v->KV != c->H)
		et_warn("--kv-heads (--kvhead) %" PRId64 ": the GPT graph has multi-head attention "
		        "(kv heads = heads); ignored (--arch llama for GQA)",
		        v->KV);
	if (c->arch != ARCH_MOE && (v->E || v->K))
		et_warn("--experts and --top-k (--kexperts) are for an MoE model (--arch moe); "
		        "ignored");
	/* both modes: a dimension of one rank leaves nothing to shard or split */
	if (r->fsdp == 1 && c->dim[DIM_DP] == 1)
		et_warn("--fsdp (--weight_sharded) with dp 1 shards the weights over one rank; "
		        "no effect");
	if (r->tpsp >= 0 && c->dim[DIM_TP] == 1 && c->mode == MODE_TRAIN)
		et_warn("--sequence-parallel (--tpsp) with tp 1 splits nothing; no effect");
	if (c->compat && r->model_type == MT_LLAMA && c->arch == ARCH_GPT)
		et_warn(
		    "--model_type llama builds STAGE's GPT graph without --mixed_precision true, "
		    "as STAGE does (--arch llama: the Llama graph)");
	if (c->compat)
		return;
	if (r->mixed >= 0 && r->model_type != MT_DENSE)
		et_warn("--mixed_precision: in the physical mode the bytes come from --dtype and "
		        "the graph from --arch; ignored");
	if (g.capacity && c->arch != ARCH_MOE)
		et_warn("--capacity-factor is for an MoE model (--arch moe); ignored");
	if (g.vstages && c->schedule != SCHED_INTERLEAVED)
		et_warn("--virtual-stages is for --schedule interleaved; ignored");
	if (c->mode == MODE_TRAIN)
		return;
	/* inference: forward only, one batch, no gradients, tp without sp */
	if (r->schedule >= 0 || g.vstages || g.grad_buckets || r->flash >= 0 || r->tpsp >= 0)
		et_warn("--schedule, --virtual-stages, --grad-buckets, --flash-recompute and "
		        "--sequence-parallel (--tpsp) are for training (--mode train); ignored");
	if (c->mode == MODE_DECODE && r->attention >= 0)
		et_warn("--attention: a decode step attends over the whole cache; ignored");
}

/* STAGE's output: DIR/NAME.%d.et per rank, DIR/NAME.json. */
static void stage_output(stage_conf *c)
{
	if (!c->output_dir) {
		if (c->output_name)
			et_cli_usage_error(&c->cli, "--output_name needs --output_dir");
		return;
	}
	if (c->cli.output || c->out.w.split)
		et_cli_usage_error(&c->cli, "--output_dir writes the files: no -o or --split");
	const char *n = c->output_name ? c->output_name : "workload.%d.et";
	static char prefix[4096], groups[4096];
	const char *pd = strstr(n, "%d");
	size_t plen = pd ? (size_t)(pd - n) : strlen(n);
	if (pd && (plen == 0 || n[plen - 1] != '.' || strcmp(pd, "%d.et") != 0))
		et_cli_usage_error(
		    &c->cli,
		    "--output_name: et-stage writes NAME.%%d.et (e.g. workload.%%d.et), "
		    "got '%s'",
		    n);
	if (pd)
		plen--; /* the '.' */
	snprintf(prefix, sizeof prefix, "%s/%.*s", c->output_dir, (int)plen, n);
	snprintf(groups, sizeof groups, "%s/%.*s.json", c->output_dir, (int)plen, n);
	c->out.w.split = prefix;
	c->out.w.format = ET_WRITER_ET;
	if (!c->comm_groups)
		c->comm_groups = groups;
}

void stage_parse(stage_conf *c, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	et_cli_out_init(&c->out, NULL);
	c->out.w.threads = 1;
	c->seed = 1;
	raw r = {.c = c,
	         .model_type = -1,
	         .arch = -1,
	         .act_rec = -1,
	         .mixed = -1,
	         .tpsp = -1,
	         .fsdp = -1,
	         .mode = -1,
	         .dtype = -1,
	         .attention = -1,
	         .flash = -1,
	         .recompute = -1,
	         .schedule = -1};
	vals v = {0};
	parse_table(c, &r, &v, argc, argv);
	if (r.list_models) {
		stage_models_print();
		et_cli_exit_printed();
	}
	if (c->cli.nargs > 0)
		et_cli_usage_error(&c->cli, "unexpected argument '%s'", c->cli.args[0]);
	c->compat = r.compat_given;
	settle(c, &r, &v);
	given g = {c->vstages != 0, c->grad_buckets != 0, c->capacity != 0};
	physical(c, &r, &v);
	check(c);
	warn_unused(c, &r, &v, g);
	stage_output(c);
	et_cli_out_finish(&c->cli, &c->out);
}

void stage_conf_free(stage_conf *c)
{
	et_ranklist_free(&c->ranks);
}
