/* et-synth: shared pieces of the subcommands — options every generator
 * takes, the emitter (over et_writer) and small naming helpers (the random
 * source and the node builders are libcommon's et_rng and et_build). */
#ifndef ET_SYNTH_H
#define ET_SYNTH_H

#include "et_arena.h"
#include "et_buf.h"
#include "et_cli.h"
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
	uint64_t seed;
	int level;        /* zstd level of the stream */
	int threads;      /* zstd worker threads */
	const char *name; /* --name: workload name in stream headers */
	bool global_ids;  /* --ids global: ids count across ranks */
	uint32_t world;
	et_writer_format to; /* --to */
	bool to_given;
	const char *split; /* --split PREFIX: raw ET per rank */
} synth_opts;

/* Long-option codes of the shared options (after ET_OPT_FIRST_TOOL). */
enum {
	SO_SEED = ET_OPT_FIRST_TOOL,
	SO_NAME,
	SO_IDS,
	SO_WORLD,
	SO_TO,
	SO_SPLIT,
	SO_FIRST_SUB, /* subcommands number their own options from here */
};

#define SYNTH_SHARED_OPTS                                                                          \
	{"seed", required_argument, 0, SO_SEED}, {"level", required_argument, 0, 'l'},             \
	    {"threads", required_argument, 0, 'T'}, {"name", required_argument, 0, SO_NAME},       \
	    {"ids", required_argument, 0, SO_IDS}, {"to", required_argument, 0, SO_TO},            \
	    {"split", required_argument, 0, SO_SPLIT},                                             \
	{                                                                                          \
		"world", required_argument, 0, SO_WORLD                                            \
	}
#define SYNTH_SHARED_SHORT "l:T:" ET_CLI_COMMON_SHORT

#define SYNTH_SHARED_HELP                                                                          \
	"      --seed N         random seed (default 1); same seed, same output\n"                 \
	"      --name NAME      workload name written to the stream headers\n"                     \
	"      --to FORMAT      stream (default), et (raw ET: one rank, or per rank with\n"        \
	"                       --split), json or jsonl\n"                                         \
	"      --split PREFIX   one raw ET per rank, PREFIX.<rank>.et (implies --to et)\n"         \
	"  -l, --level N        zstd level of the stream (1-19, default 3)\n"                      \
	"  -T, --threads N      zstd worker threads (default 1; 0 = compress inline)\n"            \
	"  -o, --output FILE    write FILE (atomically) instead of stdout\n"                       \
	"  -q, --quiet          no progress on stderr\n"                                           \
	"      --progress       progress on stderr even when it is not a terminal\n"               \
	"  -h, --help           this help\n"                                                       \
	"      --version        version\n"                                                         \
	"\n"                                                                                       \
	"Exit status: 0 ok, 2 usage, 3 bad input data, 4 I/O error. See et-synth(1).\n"

void synth_opts_init(synth_opts *o, const char *usage);
/* Handles the shared and the et_cli options; false if opt is not one. */
bool synth_opt(synth_opts *o, int opt, const char *arg);
/* Usage error unless --world was given; no positional arguments allowed. */
void synth_opts_finish(synth_opts *o, int argc, char **argv, bool need_world);
/* Usage errors of --to, --split and -o together; --split implies --to et
 * (part of synth_opts_finish, for subcommands that take arguments). */
void synth_opts_output(synth_opts *o);

/* --- the emitter: et_writer with the generators' rank headers ---------- */
typedef struct emitter {
	et_writer *w;    /* NULL when emit_open failed */
	et_arena *arena; /* node building memory, reset per node */
	uint32_t world;  /* world size and name of the ranks begun next */
	const char *name;
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
/* Finish the output (ok) or remove the partial output (!ok). */
int emit_close(emitter *em, bool ok, et_error *e);
/* emit_close after a run that returned r: commits when r == 0, keeps the
 * first error; returns the run's result. */
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
