/* et_reader: walks an et_input rank by rank, decodes the nodes into
 * batches and hands the batches to one consumer in input order, with the
 * message bytes (et-validate --tee copies them). Most tools want whole
 * graphs, not batches: et_load (et_load.h) drives this reader for them.
 *
 * Reading is split in two: framing (finding each message, decompressing,
 * copying the message bytes into a batch), which is sequential, and
 * decoding, which any thread can do for any framed batch. With a reading
 * thread, that thread frames ahead and decodes the newest framed batches,
 * while the consumer, when the batch it needs next is not decoded yet,
 * decodes the oldest framed one itself instead of waiting: the decoding,
 * most of the work, is shared between two cores and the consumer's own
 * work runs beside it. Without a thread, et_reader_next() frames and
 * decodes each batch itself. Either way the consumer sees the same batches
 * in the same order, so nothing it computes depends on the choice.
 *
 * Message 0 of a rank is the GlobalMetadata, which is not handed over; when
 * it parses as a Node rather than as a GlobalMetadata (possible only with
 * et_input_opts.lenient_meta, or for a message that parses as both) it is
 * handed over as the rank's first node, and meta_is_node says so.
 *
 * Memory: ET_READER_SLOTS batches of at most ET_READER_BATCH nodes, each
 * decoded into its own arena, and the message bytes framed ahead: at most
 * ET_READER_AHEAD_BYTES plus one message (a batch closes at
 * ET_READER_BATCH_BYTES). A rank of more than 2^32 - 5 messages is an
 * error, so a consumer adding its nodes to one et_graph never finds it
 * full. */
#ifndef ET_READER_H
#define ET_READER_H

#include "et_arena.h"
#include "et_codec.h"
#include "et_crule.h"
#include "et_err.h"
#include "et_input.h"
#include <stdbool.h>
#include <stdint.h>

#define ET_READER_BATCH 64
#define ET_READER_SLOTS 16
#define ET_READER_BATCH_BYTES (1u << 20)
#define ET_READER_AHEAD_BYTES (32u << 20)

typedef enum et_reader_kind {
	ET_READER_RANK,     /* a rank begins: ri */
	ET_READER_NODES,    /* n[0..len-1], in file order */
	ET_READER_END_RANK, /* the rank's last batch came before; n_msgs = its messages */
	ET_READER_EOF,      /* the input is read in full */
	ET_READER_ERROR,    /* unreadable input: err (nothing follows) */
} et_reader_kind;

typedef struct et_reader_msg {
	size_t off, len; /* in the batch's bytes */
	uint64_t offset; /* byte offset in the rank's ET */
	uint64_t index;  /* message index, 0 = the GlobalMetadata's place */
} et_reader_msg;

typedef struct et_reader_batch {
	et_reader_kind kind;
	/* ET_READER_RANK; ri.input points into the batch (its file may be
	 * closed by then): valid until et_reader_release() */
	et_rank_info ri;
	/* ET_READER_NODES: message 0 of the rank was a Node, not the GlobalMetadata
	 * (it is the first node here) */
	bool meta_is_node;
	int len;
	et_node *n[ET_READER_BATCH];
	uint32_t index[ET_READER_BATCH]; /* message index (1 = first node) */
	uint64_t n_msgs;                 /* ET_READER_END_RANK */
	et_error err;                    /* ET_READER_ERROR */
	/* The rank's messages in this batch, metadata included, as read
	 * (msg[k]'s bytes at bytes + msg[k].off): ET_READER_NODES and ET_READER_ERROR. The
	 * first n_whole were read in full: all of them, or for ET_READER_ERROR those
	 * before the error, and the message that does not decode. */
	int n_framed, n_whole;
	et_reader_msg msg[ET_READER_BATCH];
	uint8_t *bytes;
	size_t bytes_len, bytes_cap;
	/* private */
	int state;
	char where[320]; /* "INPUT: rank R", for decoding errors */
	char *input;     /* ET_READER_RANK: a copy of the input's name */
	size_t input_cap;
	uint8_t *groups; /* ET_READER_RANK: a copy of the rank's comm groups */
	size_t groups_cap;
	uint8_t *rule; /* ET_READER_RANK: copies of its class rule and slot nodes */
	size_t rule_cap;
	et_crule_class crule;
	et_arena *arena;
} et_reader_batch;

typedef struct et_reader et_reader;

/* Reads in, which must stay open until et_reader_stop() (the reader never
 * closes it); one thread calls the functions below. threaded: read on a
 * second thread (falls back to reading inline when the thread cannot be
 * started). */
et_reader *et_reader_start(et_input *in, bool threaded);
/* The next batch, in input order; valid until et_reader_release(). After
 * ET_READER_EOF or ET_READER_ERROR it must not be called again. */
et_reader_batch *et_reader_next(et_reader *r);
void et_reader_release(et_reader *r, et_reader_batch *b);
/* Whether a second thread reads (false: et_reader_next reads inline). */
bool et_reader_threaded(const et_reader *r);
/* Where the reading time went, in ns: the reading thread's CPU time, and
 * the wall time et_reader_next() spent framing and decoding on the calling
 * thread. */
typedef struct et_reader_times {
	uint64_t thread_cpu, inline_ns;
} et_reader_times;
/* Stops the thread (whether or not everything was read) and frees r. */
et_reader_times et_reader_stop(et_reader *r);

#endif
