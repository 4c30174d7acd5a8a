/* et_input: read ETs, rank by rank and message by message, from any input the
 * suite accepts: streams (possibly concatenated), raw / gzip / zstd .et files,
 * ASTRA-sim per-rank sets (PREFIX -> PREFIX.0.et, PREFIX.1.et, ...), and our
 * JSON / JSONL. The format is sniffed from the first bytes (never the name),
 * after decompression when the input is gzip or zstd.
 *
 * Memory: one rank's decompression window plus the largest message seen;
 * a length prefix is never trusted for an allocation (buffers grow only as
 * bytes actually arrive, and a message above max_msg is an error).
 *
 * Every error message names the input, the rank and the byte offset
 * (offsets are into the rank's decompressed ET bytes, or into the file for
 * container errors). */
#ifndef ET_INPUT_H
#define ET_INPUT_H

#include "et_err.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest world etkit reads (2^20 ranks): a header that says more, or a
 * rank not below its world, is bad input (exit 3) in every tool. */
#define ET_MAX_WORLD (1u << 20)

/* The default per-rank limits (--max-rank-nodes, --max-rank-bytes): four
 * times the largest real rank we know of, small enough that et-sim's
 * graph of that many nodes fits a laptop. */
#define ET_DEFAULT_MAX_NODES (1ull << 22)
#define ET_DEFAULT_MAX_RANK_BYTES (2ull << 30)

typedef enum et_format {
	ET_FMT_AUTO = 0,
	ET_FMT_STREAM,  /* .etz: ETSTREAM sections of zstd frames */
	ET_FMT_ET,      /* one raw (or gzip/zstd-compressed) Chakra ET */
	ET_FMT_JSON,    /* our JSON document or JSONL */
	ET_FMT_PYTORCH, /* PyTorch host ET JSON (needs a registered handler) */
	ET_FMT_KINETO,  /* Kineto trace JSON */
	/* programs et-convert turns into traces (not read by et_input) */
	ET_FMT_HLO,        /* XLA HLO text */
	ET_FMT_STABLEHLO,  /* StableHLO (MLIR) text */
	ET_FMT_ASTRA_TEXT, /* ASTRA-sim 1.0 text workload */
} et_format;

const char *et_format_name(et_format f);
et_format et_format_parse(const char *s); /* -1 cast if unknown */

struct et_rank_info;
struct et_crule_class;
struct et_crule_val;

typedef struct et_input_opts {
	et_format format; /* ET_FMT_AUTO = sniff */
	int64_t set_rank; /* >= 0: rank of a header-less input; -1 = none */
	uint32_t world;   /* > 0: a PREFIX set must have exactly this many files */
	uint64_t max_msg; /* per-message limit; 0 = 256 MiB */
	/* Per-rank limits, checked as messages arrive so that a tiny input
	 * (20 M empty nodes compress to 700 bytes) is refused before any tool
	 * builds anything from it: nodes (messages after the GlobalMetadata)
	 * and ET bytes (length prefixes included). 0 = the defaults below. */
	uint64_t max_nodes;
	uint64_t max_rank_bytes;
	bool check_dup;    /* error on a rank seen twice across all inputs (default on) */
	bool lenient_meta; /* do not require message 0 to parse as GlobalMetadata
	                      (et-validate reports it as a finding instead) */
	/* only these ranks (NULL or empty: all); et_input_next_rank skips the
	 * others, still reading and checking their framing */
	const struct et_ranklist *ranks;
	/* A class-aware consumer (see et_rank_info.rule_only): class ranks
	 * after the first of their class come as rules when they can */
	bool class_rules;
	/* Optional, with class_rules: asked before a rank that could come as
	 * its rule does, with the rank (class_id, class_gen, rule set), its
	 * class's slot nodes and the rule's values (et_crule_rule_vals, valid
	 * during the call); false makes the rank come in full, expanded. Called
	 * on the reading thread when et_load reads on one: it must only read
	 * what the consumer publishes atomically. */
	bool (*want_rule)(void *ctx, const struct et_rank_info *ri, const struct et_crule_class *c,
	                  const struct et_crule_val *vals);
	void *want_rule_ctx;
} et_input_opts;

void et_input_opts_init(et_input_opts *o);

typedef struct et_rank_info {
	uint32_t rank;
	uint32_t world_size; /* 0 = unknown */
	char name[256];      /* workload name, "" if none */
	const char *input;   /* display name of the file it came from */
	et_format format;    /* what it was read from */
	/* The comm groups its stream section carries (et_sgroups.h: a GRPS
	 * payload the reader checked), or NULL / 0; valid as long as input
	 * (until the next rank is read).
	 * groups_off: the payload's byte offset in the input. */
	const uint8_t *groups;
	uint32_t groups_len;
	uint64_t groups_off;
	/* A class rank (etkit-stream(5), CLASS FRAMES): its class. Every reader
	 * sees its messages expanded as any rank's; class-aware consumers may
	 * take the class once (et_input_class) and the rank's rule
	 * (et_input_rule) instead. */
	bool in_class;
	uint32_t class_id;
	/* With et_input_opts.class_rules, for a class rank from a stream:
	 * class_gen names its class's bytes (the same class_id and class_gen,
	 * the same bytes, across all the inputs of one et_input). The first rank of each class_gen
	 * the input returns comes in full, with crule (et_crule.h: the class's slot nodes; NULL
	 * when its ranks cannot be built from their rules); a later one whose rule is simple comes
	 * with no messages at all: rule_only, and rule / rule_len its rule (et_crule_rule_vals
	 * reads it). Both pointers are valid until the next rank. */
	uint64_t class_gen;
	bool rule_only;
	const uint8_t *rule;
	uint32_t rule_len;
	const struct et_crule_class *crule;
} et_rank_info;

typedef struct et_msg {
	const uint8_t *data; /* message bytes without the length prefix */
	size_t len;
	uint64_t offset; /* byte offset of the length prefix in the rank's ET */
	uint64_t index;  /* 0 = GlobalMetadata, then 1, 2, ... for nodes */
} et_msg;

typedef struct et_input et_input;

/* Opens a list of input arguments ("-" or no argument = stdin). An argument
 * that is not a file but has PREFIX.0.et beside it is a per-rank set.
 * Returns 0 with *in set, or -1 with e set and *in NULL (nothing to close;
 * et_input_close(NULL) does nothing). */
int et_input_open(et_input **in, int argc, char *const argv[], const et_input_opts *o, et_error *e);
void et_input_close(et_input *in);

/* Next rank across all inputs: 1 = *ri filled, 0 = no more ranks, -1 = error.
 * Any unread messages of the previous rank are skipped (and still checked).
 * A rank list that selected no rank by the end is an error (ET_EXIT_DATA,
 * "--ranks matches none of the input's ranks"), whatever the tool. */
int et_input_next_rank(et_input *in, et_rank_info *ri, et_error *e);

/* Next message of the current rank: 1 = *m filled (valid until the next
 * call), 0 = end of this rank, -1 = error. The first message of each rank
 * is the GlobalMetadata; its presence and parse are checked by the reader. */
int et_input_next_msg(et_input *in, et_msg *m, et_error *e);

/* For class-aware consumers (etkit-stream(5), CLASS FRAMES), while rank ri
 * with ri.in_class is the current rank: the payload of class id (its
 * GlobalMetadata, piece table and bytes: et_tpl.h's template), valid until
 * the stream redefines that class; the current rank's rule (each slot the
 * class uses and its attribute bytes), valid until the next rank. NULL
 * when there is none. A consumer that builds one graph per class can read
 * the class once and only the rules of its ranks; the expanded messages
 * of a rank are exactly the class's bytes with the rule's attributes
 * appended to the slot nodes (et_tpl_write's bytes). */
const uint8_t *et_input_class(const et_input *in, uint32_t id, size_t *len);
const uint8_t *et_input_rule(const et_input *in, size_t *len);

/* How many ranks the input will return, as far as rank ri tells (for
 * progress): its world size, or 0 (unknown) when ranks are selected or the
 * world is not known. */
uint64_t et_input_ranks_expected(const et_input *in, const et_rank_info *ri);

#endif
