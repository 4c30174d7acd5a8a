/* et_writer: write ETs, rank by rank and message by message, in every
 * format the suite writes; the counterpart of et_input.
 *
 *   stream  .etz sections (etkit-stream(5)): header, then zstd frames
 *   et      one rank as raw ET (length-prefixed messages), or with split
 *           one file per rank, PREFIX.<rank>.et
 *   json    our JSON document {"ranks": [...]}
 *   jsonl   our JSONL: a header line per rank, then a line per node
 *   layout  a caller's text layout (et-convert's jsonizer), one rank
 *
 * A rank is et_writer_rank_begin, its messages, et_writer_rank_end. The
 * first message of every rank is its GlobalMetadata, whichever call
 * carries it (et_writer_msg or et_writer_raw).
 * The stream and et outputs copy message bytes unchanged (fields this
 * schema does not know survive); the text outputs decode them, and warn
 * once per rank about unknown fields they have to leave out.
 *
 * Output is atomic (et_output): a file appears whole on a successful
 * et_writer_close and not at all otherwise; with split, every rank's file
 * is committed or every one removed. stdout cannot be taken back: what was
 * written stays, unless the writer holds it (hold).
 *
 * Errors: every function returns 0, or -1 with e set (ET_EXIT_USAGE for a
 * second rank where the format takes one, ET_EXIT_DATA for a message the
 * text outputs cannot decode, ET_EXIT_IO for write errors). After an error
 * the caller still owns the writer and must et_writer_close it (with
 * ok = false), which removes what was written. */
#ifndef ET_WRITER_H
#define ET_WRITER_H

#include "et_buf.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_input.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum et_writer_format {
	ET_WRITER_STREAM,
	ET_WRITER_ET,
	ET_WRITER_JSON,
	ET_WRITER_JSONL,
	ET_WRITER_LAYOUT,
} et_writer_format;

/* "stream" (or "etz"), "et", "json", "jsonl"; -1 if none of these. */
int et_writer_format_parse(const char *s);

/* A text layout a tool brings: each rank's decoded GlobalMetadata, then
 * each decoded node, appended to out. Such outputs take one rank. */
typedef struct et_writer_layout {
	const char *name; /* its --to name, for messages */
	const char *hint; /* what to use instead when the input has several ranks */
	void (*meta)(const et_meta *m, et_buf *out);
	void (*node)(const et_node *n, et_buf *out);
} et_writer_layout;

/* Strings are not copied: they must outlive the writer. */
typedef struct et_writer_cfg {
	const char *path; /* NULL or "-": stdout; unused with split */
	et_writer_format format;
	const et_writer_layout *layout; /* ET_WRITER_LAYOUT */
	const char *split;              /* ET_WRITER_ET: PREFIX of per-rank files */
	const char *name;               /* workload name of every rank; NULL: each rank's */
	uint32_t world;                 /* world size of every rank; 0: each rank's */
	int level, threads;             /* stream: zstd level, worker threads */
	int progress;                   /* et_progress mode over the nodes written */
	/* only some of the world's ranks are written (a selection): progress
	 * cannot say "rank k of N" */
	bool some_ranks;
	bool all_fields; /* json, jsonl: every Node field, defaults too (et_json.h) */
	/* Nothing reaches the output before a successful close (a temporary
	 * file holds it): for output that must not appear unless a later
	 * check passes, even on stdout. */
	bool hold;
	const char *et_hint; /* et without split on several ranks: what to use */
} et_writer_cfg;

/* Stream output on stdout, level 3, inline compression, no progress. */
void et_writer_cfg_init(et_writer_cfg *c);

typedef struct et_writer et_writer;

/* Opens the output (stdout is checked first: binary output to a terminal
 * is refused, exit 2). On failure *w is NULL and nothing is left behind. */
int et_writer_open(et_writer **w, const et_writer_cfg *c, et_error *e);

/* Begin a rank. ri->world_size and ri->name are used unless the
 * configuration overrides them; ri->input names the rank in messages. */
int et_writer_rank_begin(et_writer *w, const et_rank_info *ri, et_error *e);
/* One message (bytes without the length prefix; m->offset and m->index
 * only name it in messages). */
int et_writer_msg(et_writer *w, const et_msg *m, et_error *e);
/* A node, encoded canonically (what et_writer_msg of its bytes writes). */
int et_writer_node(et_writer *w, const et_node *n, et_error *e);
/* Length-prefixed messages, continuing the rank; count is how many nodes
 * they hold (for the progress). The bytes must frame whole messages. */
int et_writer_raw(et_writer *w, const void *p, size_t n, uint64_t count, et_error *e);
int et_writer_rank_end(et_writer *w, et_error *e);

/* A whole rank written under several rank numbers unchanged: the
 * generators' fast path for identical ranks. The stream output compresses
 * it once, on first use, and writes the same zstd frame for every rank (a
 * one-shot frame: the same bytes inside as begin + raw + end, not the same
 * frame); the others write exactly what begin + raw + end would. */
typedef struct et_writer_shared {
	const uint8_t *data; /* length-prefixed GlobalMetadata, then nodes */
	size_t len;
	uint64_t nodes; /* how many nodes data holds */
	et_buf frame;   /* the compressed frame, made by the writer */
} et_writer_shared;
int et_writer_rank_shared(et_writer *w, const et_rank_info *ri, et_writer_shared *s, et_error *e);
void et_writer_shared_free(et_writer_shared *s);

/* Ranks that differ in a few bytes (etkit-stream(5), DELTA FRAMES): the
 * stream output holds a base once, and such ranks as copies from it plus
 * their own bytes. et_writer_base, outside a rank, defines p[0..n) as a
 * base and sets *id: returns 1, or 0 when this output takes no bases
 * (other formats, or the stream's ids or ET_STREAM_BASE_MAX used up; the
 * caller then writes bytes), or -1 on a write error. */
int et_writer_base(et_writer *w, const void *p, size_t n, uint32_t *id, et_error *e);
/* et_writer_rank_begin for a rank that will hold deltas (the stream's
 * section header says so: version 2). */
int et_writer_rank_begin_delta(et_writer *w, const et_rank_info *ri, et_error *e);
/* Inside a rank begun so, with an id et_writer_base gave: the rank's next len bytes
 * are what ops (et_stream_delta_add / _copy) make from the base: whole
 * length-prefixed messages, msgs of them, nodes of them Nodes. */
int et_writer_delta(et_writer *w, uint32_t id, const et_buf *ops, uint64_t len, uint64_t msgs,
                    uint64_t nodes, et_error *e);

/* Rank classes (etkit-stream(5), CLASS FRAMES; et_tpl_write_class).
 * et_writer_class, outside a rank, defines class id (< ET_STREAM_CLASS_IDS)
 * from its payload: 1, or 0 when this output takes no classes (not a
 * stream, or the payload over ET_STREAM_CLASS_MAX), or -1. A class rank is
 * then a whole rank: its rule, and the nodes it holds (for progress). */
int et_writer_class(et_writer *w, uint32_t id, const void *p, size_t n, et_error *e);
int et_writer_rank_class(et_writer *w, const et_rank_info *ri, uint32_t id, const et_buf *rule,
                         uint64_t nodes, et_error *e);

/* ok: finish the output (closing a JSON document, copying held output)
 * and commit it; returns -1 with e set if that fails, and then nothing is
 * left. !ok: remove what can be removed (files, held output), e is not
 * touched. Frees w either way; w may be NULL (returns 0). */
int et_writer_close(et_writer *w, bool ok, et_error *e);
/* After a run that returned r: et_writer_close committing when r == 0.
 * Returns r, or -1 with e set when r == 0 and the close failed (the first
 * error is the one kept). */
int et_writer_finish(et_writer *w, int r, et_error *e);

#endif
