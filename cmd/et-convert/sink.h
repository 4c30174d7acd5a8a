/* Output sinks of et-convert: one per --to format. Each receives ranks as
 * (header, GlobalMetadata message, node messages...) and decides whether it
 * needs to decode them (stream and et copy message bytes unchanged). */
#ifndef ET_CONVERT_SINK_H
#define ET_CONVERT_SINK_H

#include "et_err.h"
#include "et_input.h"
#include <stdio.h>

typedef struct sink_opts {
	const char *output; /* -o, NULL = stdout */
	const char *split;  /* --split PREFIX */
	const char *name;   /* --name override, or NULL */
	uint32_t world;     /* --world override, or 0 */
	int level, threads; /* zstd */
} sink_opts;

typedef struct sink sink;

typedef enum sink_kind { SINK_STREAM, SINK_ET, SINK_JSON, SINK_JSONL, SINK_JSONIZER } sink_kind;

int sink_kind_parse(const char *s); /* -1 if unknown */
sink *sink_open(sink_kind k, const sink_opts *o, et_error *e);
/* ri describes the rank; meta is message 0 (bytes as read). */
int sink_begin(sink *s, const et_rank_info *ri, const et_msg *meta, et_error *e);
int sink_node(sink *s, const et_msg *m, et_error *e);
int sink_end(sink *s, et_error *e);
/* Commit outputs (all or nothing) and free. ok=false aborts them. */
int sink_close(sink *s, bool ok, et_error *e);

#endif
