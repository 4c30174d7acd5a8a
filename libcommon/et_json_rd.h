/* Internal to et_json_reader*.c: the reader's state and the primitives the
 * JSON-document and JSONL halves share. The window (et_src) is consumed as
 * values are read; only one value (a node, a header) is held at a time. */
#ifndef ET_JSON_RD_H
#define ET_JSON_RD_H

#include "et_json_int.h"

typedef enum rd_state {
	RD_RANKS,  /* between ranks: a rank (object or header line) or the end */
	RD_NODES,  /* inside a rank's nodes */
	RD_CLOSED, /* document: the rank object ended without "nodes" */
	RD_END,
} rd_state;

struct et_json_reader {
	et_src *src;
	et_arena *arena;
	et_buf scratch; /* the pre-pass's rewritten text */
	et_buf msg;     /* the node handed out */
	et_buf meta;    /* the current rank's encoded GlobalMetadata */
	uint64_t max_msg, max_text;
	bool jsonl;
	rd_state state;
	bool in_rank, meta_pending;
	unsigned hdr_seen; /* header keys given so far (bits of rd_header_field) */
	et_rank_info ri;
	uint64_t meta_off, msg_off, index;
	size_t n_ranks, n_nodes; /* array elements seen (for commas) */
	unsigned long line;      /* line of the window start */
	uint64_t line_start;     /* offset where that line starts */
};

/* Errors: "INPUT: [rank R: ]line L, column C: what", for window byte pos. */
int rd_fail(et_json_reader *r, size_t pos, et_error *e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Re-prefix e->msg (from a tree reader) with the position of pos. */
int rd_fail_msg(et_json_reader *r, size_t pos, et_error *e);

const char *rd_win(const et_json_reader *r);
void rd_consume(et_json_reader *r, size_t n);
uint64_t rd_offset(const et_json_reader *r);
/* Skip white space: 1 = a byte follows, 0 = end of input, -1 = error. */
int rd_skip_ws(et_json_reader *r, et_error *e);
/* Next byte after white space; -1 with an error at end of input. */
int rd_peek(et_json_reader *r, const char *expected, et_error *e);
/* Consume c (after white space) or fail naming what was expected. */
int rd_expect(et_json_reader *r, char c, const char *what, et_error *e);
/* The extent of the next value at the window start: 1 (and *len), 0 at end
 * of input, -1 on error. */
int rd_value(et_json_reader *r, size_t *len, et_error *e);
/* Parse the value at the window start (len bytes) into a tree. */
cJSON *rd_parse(et_json_reader *r, size_t len, et_error *e);

/* A rank header field (rank, world_size, name, metadata) at window pos. */
int rd_header_field(et_json_reader *r, const char *key, const cJSON *v, size_t pos, et_error *e);
/* After the header: the rank is complete enough to hand out. */
int rd_header_done(et_json_reader *r, size_t pos, et_error *e);
/* A node object tree -> r->msg (canonical bytes). */
int rd_node(et_json_reader *r, const cJSON *j, size_t pos, et_error *e);

int rd_doc_next_rank(et_json_reader *r, et_error *e);
int rd_doc_next_node(et_json_reader *r, et_error *e);
int rd_jsonl_next_rank(et_json_reader *r, et_error *e);
int rd_jsonl_next_node(et_json_reader *r, et_error *e);

#endif
