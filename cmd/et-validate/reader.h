/* The reader: walks the input rank by rank, decodes the nodes into
 * batches and hands the batches to the checks in input order, with the
 * message bytes (for --tee).
 *
 * Reading is split in two: framing (finding each message, decompressing,
 * copying the message bytes into a batch), which is sequential,
 * and decoding, which any thread can do for any framed batch. With a
 * reading thread (the default), that thread frames ahead and decodes the
 * newest framed batches, while the checking thread, when the batch it
 * needs next is not decoded yet, decodes the oldest framed one itself
 * instead of waiting: the decoding, most of the work, is shared between
 * two cores and the checks run beside it. Without a thread, reader_next() frames
 * and decodes each batch itself. Either way the checks see the same
 * batches in the same order, so the report does not depend on it.
 *
 * Memory: RB_SLOTS batches of at most RB_BATCH nodes, each decoded into
 * its own arena, and the message bytes framed ahead: at most
 * RB_AHEAD_BYTES plus one message (a batch closes at RB_BATCH_BYTES). */
#ifndef ET_VALIDATE_READER_H
#define ET_VALIDATE_READER_H

#include "et_arena.h"
#include "et_codec.h"
#include "et_err.h"
#include "et_input.h"
#include <stdbool.h>
#include <stdint.h>

#define RB_BATCH 64
#define RB_SLOTS 16
#define RB_BATCH_BYTES (1u << 20)
#define RB_AHEAD_BYTES (32u << 20)

typedef enum rb_kind {
	RB_RANK,     /* a rank begins: ri */
	RB_NODES,    /* n[0..len-1], in file order */
	RB_END_RANK, /* the rank's last batch came before; n_msgs = its messages */
	RB_EOF,      /* the input is read in full */
	RB_ERROR,    /* unreadable input: err (nothing follows) */
} rb_kind;

typedef struct rb_msg {
	size_t off, len; /* in the batch's bytes */
	uint64_t offset; /* byte offset in the rank's ET */
	uint64_t index;  /* message index, 0 = the GlobalMetadata's place */
} rb_msg;

typedef struct rb_batch {
	rb_kind kind;
	et_rank_info ri; /* RB_RANK; ri.input is not kept (may be freed) */
	/* RB_NODES: message 0 of the rank was a Node, not the GlobalMetadata
	 * (it is the first node here) */
	bool meta_is_node;
	int len;
	et_node *n[RB_BATCH];
	uint32_t index[RB_BATCH]; /* message index (1 = first node) */
	uint64_t n_msgs;          /* RB_END_RANK */
	et_error err;             /* RB_ERROR */
	/* The rank's messages in this batch, metadata included, as read
	 * (msg[k]'s bytes at bytes + msg[k].off): RB_NODES and RB_ERROR. The
	 * first n_whole were read in full: all of them, or for RB_ERROR those
	 * before the error, and the message that does not decode. */
	int n_framed, n_whole;
	rb_msg msg[RB_BATCH];
	uint8_t *bytes;
	size_t bytes_len, bytes_cap;
	/* private */
	int state;
	char where[320]; /* "INPUT: rank R", for decoding errors */
	et_arena *arena;
} rb_batch;

typedef struct reader reader;

/* threaded: read on a second thread (falls back to reading inline when
 * the thread cannot be started). */
reader *reader_start(et_input *in, bool threaded);
/* The next batch, in input order; valid until reader_release(). After
 * RB_EOF or RB_ERROR it must not be called again. */
rb_batch *reader_next(reader *r);
void reader_release(reader *r, rb_batch *b);
/* Whether a second thread reads (false: reader_next reads inline). */
bool reader_threaded(const reader *r);
/* Where the reading time went, in ns: the reading thread's CPU time, and
 * the wall time reader_next() spent framing and decoding on the calling
 * thread. */
typedef struct rb_times {
	uint64_t thread_cpu, inline_ns;
} rb_times;
/* Stops the thread (whether or not everything was read) and frees r. */
rb_times reader_stop(reader *r);

#endif
