#include "sink.h"
#include "et_arena.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_json.h"
#include "et_output.h"
#include "et_stream.h"
#include "jsonizer.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sink {
	sink_kind kind;
	sink_opts o;
	et_output *out;      /* the -o output (all kinds but split) */
	et_output *rank_out; /* per-rank file of --split */
	et_stream_writer *sw;
	et_arena *arena;
	et_buf buf; /* pending output bytes, flushed in large writes */
	uint32_t rank;
	const char *input; /* display name of the rank's input, for messages */
	int ranks_done;
	/* JSON kinds: messages of the rank with fields the schema does not
	 * know (dropped: JSON has no place for them), and the first one */
	uint64_t n_unknown, unknown_node;
	uint32_t unknown_field;
	bool unknown_in_meta;
};

/* JSON cannot carry fields the schema does not know: note the message,
 * warned about at the rank's end. */
static void note_unknown(sink *s, bool found, uint32_t field, uint64_t node, bool meta)
{
	if (!found)
		return;
	if (s->n_unknown++ == 0) {
		s->unknown_node = node;
		s->unknown_field = field;
		s->unknown_in_meta = meta;
	}
}

static void warn_unknown(sink *s)
{
	if (!s->n_unknown)
		return;
	char first[64];
	if (s->unknown_in_meta)
		snprintf(first, sizeof first, "the GlobalMetadata");
	else
		snprintf(first, sizeof first, "node %llu", (unsigned long long)s->unknown_node);
	et_warn("%s: rank %u: %llu message%s fields this schema does not know (first: %s, "
	        "field %u); JSON has no place for them, so they are left out (the ET and "
	        "stream outputs keep them)",
	        s->input, s->rank, (unsigned long long)s->n_unknown,
	        s->n_unknown == 1 ? " holds" : "s hold", first, s->unknown_field);
	s->n_unknown = 0;
}

enum { FLUSH_AT = 1 << 20 };

int sink_kind_parse(const char *s)
{
	static const char *const names[] = {"stream", "et", "json", "jsonl", "jsonizer"};
	for (int i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	if (strcmp(s, "etz") == 0)
		return SINK_STREAM;
	return -1;
}

sink *sink_open(sink_kind k, const sink_opts *o, et_error *e)
{
	sink *s = et_xcalloc(1, sizeof *s);
	s->kind = k;
	s->o = *o;
	s->arena = et_arena_new();
	bool binary = k == SINK_STREAM || k == SINK_ET;
	if (!(k == SINK_ET && o->split) && et_output_open(&s->out, o->output, binary, e) < 0) {
		et_arena_free(s->arena);
		free(s);
		return NULL;
	}
	if (k == SINK_STREAM)
		s->sw = et_stream_writer_new(et_output_file(s->out), o->level, o->threads);
	if (k == SINK_JSON)
		et_buf_puts(&s->buf, "{\"ranks\": [");
	return s;
}

static FILE *cur_file(sink *s)
{
	return et_output_file(s->rank_out ? s->rank_out : s->out);
}

static int flush(sink *s, et_error *e)
{
	if (!s->buf.len)
		return 0;
	int r = 0;
	if (s->sw)
		r = et_stream_write(s->sw, s->buf.data, s->buf.len, e);
	else if (fwrite(s->buf.data, 1, s->buf.len, cur_file(s)) != s->buf.len)
		r = et_fail(e, ET_EXIT_IO, "write error");
	s->buf.len = 0;
	return r;
}

/* The rank's GlobalMetadata, decoded for the JSON outputs (NULL: e set). */
static et_meta *json_meta(sink *s, const et_rank_info *ri, const et_msg *meta, et_error *e)
{
	et_arena_reset(s->arena);
	et_meta *m = et_meta_decode(s->arena, meta->data, meta->len);
	if (!m) {
		et_fail(e, ET_EXIT_DATA, "%s: rank %u: byte 0: GlobalMetadata does not parse",
		        ri->input, ri->rank);
		return NULL;
	}
	uint32_t field = 0;
	bool found = et_meta_unknown(m, &field);
	note_unknown(s, found, field, 0, true);
	return m;
}

/* The JSON/JSONL rank header: rank, world_size, name, metadata. */
static int json_header(sink *s, const et_rank_info *ri, const et_msg *meta, et_error *e)
{
	et_meta *m = json_meta(s, ri, meta, e);
	if (!m)
		return -1;
	cJSON *h = cJSON_CreateObject();
	cJSON_AddNumberToObject(h, "rank", ri->rank);
	cJSON_AddNumberToObject(h, "world_size", s->o.world ? s->o.world : ri->world_size);
	cJSON_AddStringToObject(h, "name", s->o.name ? s->o.name : ri->name);
	char *txt = cJSON_PrintUnformatted(h);
	cJSON_Delete(h);
	size_t n = strlen(txt);
	et_buf_append(&s->buf, txt, n - 1); /* without the closing brace */
	free(txt);
	et_buf_puts(&s->buf, ",\"metadata\":");
	et_json_meta_write(m, &s->buf);
	return 0;
}

static int split_open(sink *s, uint32_t rank, et_error *e)
{
	size_t n = strlen(s->o.split) + 16;
	char *path = et_xmalloc(n);
	snprintf(path, n, "%s.%u.et", s->o.split, rank);
	int r = et_output_open(&s->rank_out, path, true, e);
	free(path);
	return r;
}

int sink_begin(sink *s, const et_rank_info *ri, const et_msg *meta, et_error *e)
{
	s->input = ri->input;
	s->rank = ri->rank;
	switch (s->kind) {
	case SINK_STREAM:
		if (et_stream_begin_rank(s->sw, ri->rank, s->o.world ? s->o.world : ri->world_size,
		                         s->o.name ? s->o.name : ri->name, e) < 0)
			return -1;
		et_frame_put(&s->buf, meta->data, meta->len);
		return 0;
	case SINK_ET:
		if (s->o.split ? split_open(s, ri->rank, e) < 0 : 0)
			return -1;
		if (!s->o.split && s->ranks_done)
			return et_fail(e, ET_EXIT_USAGE,
			               "--to et writes one rank, and the input has several "
			               "(use --split PREFIX or --ranks R)");
		et_frame_put(&s->buf, meta->data, meta->len);
		return 0;
	case SINK_JSON:
		et_buf_puts(&s->buf, s->ranks_done ? ",\n" : "\n");
		if (json_header(s, ri, meta, e) < 0)
			return -1;
		et_buf_puts(&s->buf, ",\"nodes\":[");
		return 0;
	case SINK_JSONL:
		if (json_header(s, ri, meta, e) < 0)
			return -1;
		et_buf_puts(&s->buf, "}\n");
		return 0;
	case SINK_JSONIZER: {
		if (s->ranks_done)
			return et_fail(e, ET_EXIT_USAGE,
			               "--to jsonizer writes one rank, and the input has several "
			               "(use --ranks R)");
		et_meta *m = json_meta(s, ri, meta, e);
		if (!m)
			return -1;
		jsonizer_meta(m, &s->buf);
		return 0;
	}
	}
	return 0;
}

static int decode_node(sink *s, const et_msg *m, et_node **n, et_error *e)
{
	et_arena_reset(s->arena);
	*n = et_node_decode(s->arena, m->data, m->len);
	if (!*n)
		return et_fail(
		    e, ET_EXIT_DATA, "%s: rank %u: byte %llu: node message %llu does not parse",
		    s->input, s->rank, (unsigned long long)m->offset, (unsigned long long)m->index);
	uint32_t field = 0;
	bool found = et_node_unknown(*n, &field);
	note_unknown(s, found, field, (*n)->id, false);
	return 0;
}

int sink_node(sink *s, const et_msg *m, et_error *e)
{
	et_node *n;
	switch (s->kind) {
	case SINK_STREAM:
	case SINK_ET:
		et_frame_put(&s->buf, m->data, m->len);
		break;
	case SINK_JSON:
		if (decode_node(s, m, &n, e) < 0)
			return -1;
		et_buf_puts(&s->buf, m->index > 1 ? ",\n" : "\n");
		et_json_node_write(n, -1, &s->buf);
		break;
	case SINK_JSONL:
		if (decode_node(s, m, &n, e) < 0)
			return -1;
		et_json_node_write(n, s->rank, &s->buf);
		et_buf_putc(&s->buf, '\n');
		break;
	case SINK_JSONIZER:
		if (decode_node(s, m, &n, e) < 0)
			return -1;
		jsonizer_node(n, &s->buf);
		break;
	}
	return s->buf.len >= FLUSH_AT ? flush(s, e) : 0;
}

int sink_end(sink *s, et_error *e)
{
	s->ranks_done++;
	warn_unknown(s);
	if (s->kind == SINK_JSON)
		et_buf_puts(&s->buf, "\n]}");
	if (flush(s, e) < 0)
		return -1;
	if (s->kind == SINK_STREAM)
		return et_stream_end_rank(s->sw, e);
	if (s->rank_out) {
		int r = et_output_close_deferred(s->rank_out, e);
		s->rank_out = NULL;
		return r;
	}
	return 0;
}

int sink_close(sink *s, bool ok, et_error *e)
{
	int r = 0;
	if (ok && s->kind == SINK_JSON) {
		et_buf_puts(&s->buf, "\n]}\n");
		r = flush(s, e);
	}
	if (ok && r == 0 && s->kind == SINK_JSONIZER)
		r = flush(s, e);
	et_stream_writer_free(s->sw);
	if (ok && r == 0 && s->out)
		r = et_output_commit(s->out, e);
	else if (s->out)
		et_output_abort(s->out);
	if (ok && r == 0 && s->o.split)
		r = et_output_commit_all(e);
	if (!ok || r < 0)
		et_output_abort_all();
	et_buf_free(&s->buf);
	et_arena_free(s->arena);
	free(s);
	return r;
}
