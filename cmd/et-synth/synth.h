/* et-synth: shared pieces of the subcommands — options every generator
 * takes, the emitter (over et_writer) and small naming helpers (the random
 * source and the node builders are libcommon's et_rng and et_build). */
#ifndef ET_SYNTH_SYNTH_H
#define ET_SYNTH_SYNTH_H

#include "app/et_cli.h"
#include "et_arena.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_output.h"
#include "et_progress.h"
#include "et_writer.h"

#include <stdbool.h>
#include <stdint.h>

/* Options shared by the generating subcommands. */
typedef struct synth_opts {
	et_cli cli;
	et_cli_out out; /* --to, --split, --name, -l, -T; -o and progress after parsing */
	uint64_t seed;
	bool global_ids; /* --ids global: ids count across ranks */
	uint32_t world;
} synth_opts;

/* Defaults: seed 1, stream output, one zstd worker (the second core
 * compresses while the first generates). */
void synth_opts_init(synth_opts *o);
/* The entries every generator ends its table with: --seed, the write group
 * and the common group, bound to o. */
#define SYNTH_OPTS(o) ET_OPT_GROUP(synth_opts_table(o))
const et_opt *synth_opts_table(synth_opts *o);
/* The subcommands' --world and --ids (their help says each one's default). */
#define SYNTH_OPT_WORLD(o, text)                                                                   \
	ET_OPT_U32(0, "world", "N", text, &(o)->world, .min = 1, .max = 1 << 20)
#define SYNTH_OPT_IDS(o, text) ET_OPT_FN(0, "ids", "MODE", text, (o), .fn = synth_opt_ids)
int synth_opt_ids(et_cli *c, const et_opt *opt, const char *arg);
/* A collective type into an int target (REDUCE_SCATTER_BLOCK refused). */
int synth_opt_coll(et_cli *c, const et_opt *o, const char *arg);
/* A size (4096, 64K, 1M) into an int64_t target. */
int synth_opt_size(et_cli *c, const et_opt *o, const char *arg);
/* Parses argv[1..] against opts for subcommand sub ("coll"); no operands
 * unless operands, --world required when need_world, and the output
 * options checked (raw ET of several ranks needs --split). Exits 2 on a
 * usage error. */
void synth_parse(synth_opts *o, const char *sub, const char *usage, const et_opt *opts, int argc,
                 char **argv, bool need_world, bool operands);
/* The output check alone, once the world is known (transform). */
void synth_opts_output(synth_opts *o);

/* --- the emitter: et_writer with the generators' rank headers ---------- */
typedef struct emitter {
	et_writer *w;    /* NULL when emit_open failed */
	et_arena *arena; /* node building memory, reset per node */
	uint32_t world;  /* world size and name of the ranks begun next */
	const char *name;
	/* the comm groups of the rank begun next (et_sgroups.h payload), or
	 * NULL: its stream section header carries them */
	const uint8_t *groups;
	uint32_t groups_len;
} emitter;

int emit_open(emitter *em, const synth_opts *o, const char *name, et_error *e);
/* Begin a rank: stream header and a GlobalMetadata with this version. */
int emit_rank_begin(emitter *em, uint32_t rank, const char *version, et_error *e);
/* Begin a rank whose GlobalMetadata is given as message bytes. */
int emit_rank_begin_meta(emitter *em, uint32_t rank, const void *meta, size_t n, et_error *e);
/* Encode a node (built in em->arena, which is reset afterwards). */
int emit_node(emitter *em, const et_node *n, et_error *e);
/* Already framed ET bytes (count = number of nodes they hold). */
int emit_raw(emitter *em, const void *p, size_t n, uint64_t count, et_error *e);
int emit_rank_end(emitter *em, et_error *e);
/* A whole rank, identical for many ranks (et_writer_rank_shared). */
int emit_shared_rank(emitter *em, uint32_t rank, et_writer_shared *s, et_error *e);
/* After a run that returned r: the output committed when r == 0, removed
 * otherwise; keeps the first error; returns the run's result. */
int emit_finish(emitter *em, int r, et_error *e);
/* A subcommand's exit status from its run's result (prints the error). */
int synth_exit(int r, const et_error *e);

/* --- small helpers ------------------------------------------------------ */
/* "1MB", "64KB", "3B": the size part of ASTRA-sim's microbenchmark names. */
void size_label(uint64_t bytes, char *out, size_t cap);
/* Lower-case collective name ("all_reduce"), for node and workload names. */
void coll_label(int ctype, char *out, size_t cap);

/* --- subcommands --------------------------------------------------------- */
int cmd_coll(int argc, char **argv);
int cmd_p2p(int argc, char **argv);
int cmd_chain(int argc, char **argv);
int cmd_dag(int argc, char **argv);
int cmd_refgen(int argc, char **argv);
int cmd_transform(int argc, char **argv);

#endif
