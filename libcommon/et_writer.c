#include "et_writer.h"
#include "et_arena.h"
#include "et_json.h"
#include "et_jsonw.h"
#include "et_mem.h"
#include "et_output.h"
#include "et_progress.h"
#include "et_sgroups.h"
#include "et_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Encoded bytes are handed on in pieces of this size: large enough that
 * per-call costs (zstd, stdio) vanish, small enough to stay in cache. */
enum { FLUSH_AT = 1 << 20 };

struct et_writer {
	et_writer_cfg c;
	et_output *out;      /* the output (NULL with split) */
	FILE *hold;          /* hold: the temporary file written instead */
	et_output *rank_out; /* split: the current rank's file */
	et_output **files;   /* split: closed rank files, committed at close */
	size_t n_files, cap_files;
	et_stream_writer *sw; /* stream */
	et_arena *arena;      /* decoded messages of the text outputs */
	et_buf buf;           /* output bytes not yet written */
	et_buf scratch;       /* a node's bytes, for the text outputs */
	et_progress pg;
	uint64_t nodes; /* written so far, all ranks */
	uint32_t bases; /* stream: base ids defined */
	uint64_t base_bytes;
	bool delta_rank; /* the rank being begun may hold delta frames */
	bool class_rank; /* the rank being begun is a class rank */
	/* the current rank */
	uint32_t rank, world;
	char name[256];
	char *input;     /* display name of its input, for messages */
	uint64_t msgs;   /* messages so far; the first is the GlobalMetadata */
	uint64_t offset; /* bytes so far (messages given without an offset) */
	uint32_t ranks_done;
	/* text outputs: messages of the rank with fields the schema does not
	 * know (dropped: JSON has no place for them), and the first one */
	uint64_t n_unknown, unknown_node;
	uint32_t unknown_field;
	bool unknown_in_meta;
};

int et_writer_format_parse(const char *s)
{
	static const char *const names[] = {"stream", "et", "json", "jsonl"};
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	if (strcmp(s, "etz") == 0)
		return ET_WRITER_STREAM;
	return -1;
}

void et_writer_cfg_init(et_writer_cfg *c)
{
	memset(c, 0, sizeof *c);
	c->format = ET_WRITER_STREAM;
	c->level = 3;
	c->progress = -1;
}

static bool is_binary(et_writer_format f)
{
	return f == ET_WRITER_STREAM || f == ET_WRITER_ET;
}

static bool is_text(const et_writer *w)
{
	return !is_binary(w->c.format);
}

static void writer_free(et_writer *w)
{
	et_progress_done(&w->pg);
	et_stream_writer_free(w->sw);
	if (w->hold)
		fclose(w->hold);
	et_arena_free(w->arena);
	et_buf_free(&w->buf);
	et_buf_free(&w->scratch);
	free(w->files);
	free(w->input);
	free(w);
}

/* What a write error names: the output, a --split file, or the temporary
 * file that holds the output until it is complete (its name says nothing). */
static const char hold_name[] = "the temporary file holding the output";

static const char *out_name(const et_writer *w)
{
	if (w->rank_out)
		return et_output_name(w->rank_out);
	return w->hold ? hold_name : et_output_name(w->out);
}

int et_writer_open(et_writer **out, const et_writer_cfg *c, et_error *e)
{
	et_writer *w = et_xcalloc(1, sizeof *w);
	*out = NULL;
	w->c = *c;
	bool split = c->format == ET_WRITER_ET && c->split;
	/* stdout first: a terminal is refused before any work */
	if (!split && et_output_open(&w->out, c->path, is_binary(c->format), e) < 0) {
		free(w);
		return -1;
	}
	if (c->hold && !(w->hold = tmpfile())) {
		et_fail(e, ET_EXIT_IO, "cannot create a temporary file to hold the output: %s",
		        strerror(errno));
		et_output_abort(w->out);
		free(w);
		return -1;
	}
	FILE *f = w->hold ? w->hold : w->out ? et_output_file(w->out) : NULL;
	if (c->format == ET_WRITER_STREAM) {
		w->sw = et_stream_writer_new(f, c->level, c->threads);
		et_stream_writer_set_name(w->sw, out_name(w));
	}
	w->arena = et_arena_new();
	if (c->format == ET_WRITER_JSON)
		et_buf_puts(&w->buf, "{\"ranks\": [");
	et_progress_init(&w->pg, c->progress, "nodes");
	*out = w;
	return 0;
}

static FILE *cur_file(et_writer *w)
{
	if (w->rank_out)
		return et_output_file(w->rank_out);
	return w->hold ? w->hold : et_output_file(w->out);
}

/* Bytes to the output, past the zstd stream if there is one. */
static int put_bytes(et_writer *w, const void *p, size_t n, et_error *e)
{
	if (w->sw)
		return et_stream_write(w->sw, p, n, e);
	if (n && fwrite(p, 1, n, cur_file(w)) != n)
		return et_write_failed(out_name(w), e);
	return 0;
}

static int flush(et_writer *w, et_error *e)
{
	if (!w->buf.len)
		return 0;
	int r = put_bytes(w, w->buf.data, w->buf.len, e);
	w->buf.len = 0;
	return r;
}

static int flush_some(et_writer *w, et_error *e)
{
	return w->buf.len >= FLUSH_AT ? flush(w, e) : 0;
}

static void count_nodes(et_writer *w, uint64_t n)
{
	w->nodes += n;
	et_progress_update(&w->pg, w->nodes);
}

/* --- fields the text outputs must leave out ----------------------------- */

static void note_unknown(et_writer *w, bool found, uint32_t field, uint64_t node, bool meta)
{
	if (!found)
		return;
	if (w->n_unknown++ == 0) {
		w->unknown_node = node;
		w->unknown_field = field;
		w->unknown_in_meta = meta;
	}
}

static void warn_unknown(et_writer *w)
{
	if (!w->n_unknown)
		return;
	char first[64];
	if (w->unknown_in_meta)
		snprintf(first, sizeof first, "the GlobalMetadata");
	else
		snprintf(first, sizeof first, "node %llu", (unsigned long long)w->unknown_node);
	et_warn("%s: rank %u: %llu message%s fields this schema does not know (first: %s, "
	        "field %u); JSON has no place for them, so they are left out (the ET and "
	        "stream outputs keep them)",
	        w->input, w->rank, (unsigned long long)w->n_unknown,
	        w->n_unknown == 1 ? " holds" : "s hold", first, w->unknown_field);
	w->n_unknown = 0;
}

/* --- ranks ------------------------------------------------------------------ */

static int one_rank_only(const char *to, const char *hint, et_error *e)
{
	return et_fail(e, ET_EXIT_USAGE,
	               "--to %s writes one rank, and this output has several (use %s)", to, hint);
}

static int split_open(et_writer *w, et_error *e)
{
	size_t n = strlen(w->c.split) + 16;
	char *path = et_xmalloc(n);
	snprintf(path, n, "%s.%u.et", w->c.split, w->rank);
	int r = et_output_open(&w->rank_out, path, true, e);
	free(path);
	return r;
}

/* The format's start of a rank, before its first message. */
static int begin_format(et_writer *w, et_error *e)
{
	switch (w->c.format) {
	case ET_WRITER_STREAM:
		return et_stream_begin_rank(w->sw,
		                            w->class_rank   ? ET_STREAM_VERSION_CLASS
		                            : w->delta_rank ? ET_STREAM_VERSION_DELTA
		                                            : ET_STREAM_VERSION,
		                            w->rank, w->world, w->name, e);
	case ET_WRITER_ET:
		if (w->c.split)
			return split_open(w, e);
		if (w->ranks_done)
			return one_rank_only("et", w->c.et_hint ? w->c.et_hint : "--split PREFIX",
			                     e);
		return 0;
	case ET_WRITER_JSON:
		et_buf_puts(&w->buf, w->ranks_done ? ",\n" : "\n");
		return 0;
	case ET_WRITER_JSONL:
		return 0;
	case ET_WRITER_LAYOUT:
		if (w->ranks_done)
			return one_rank_only(w->c.layout->name, w->c.layout->hint, e);
		return 0;
	}
	return 0;
}

/* The stream carries the rank's comm groups in its header, when the rank
 * keeps its world (a rank moved to another world has other groups). */
static void stream_groups(et_writer *w, const et_rank_info *ri, uint32_t world)
{
	if (!w->sw)
		return;
	w->scratch.len = 0;
	if (ri->groups_len && world == ri->world_size && ri->groups_len <= ET_STREAM_EXT_MAX - 8)
		et_sgroups_record(ri->groups, ri->groups_len, &w->scratch);
	et_stream_set_header_ext(w->sw, w->scratch.data, w->scratch.len);
}

int et_writer_rank_begin(et_writer *w, const et_rank_info *ri, et_error *e)
{
	w->rank = ri->rank;
	w->world = w->c.world ? w->c.world : ri->world_size;
	stream_groups(w, ri, w->world);
	et_progress_rank(&w->pg, w->rank, w->c.some_ranks ? 0 : w->world);
	snprintf(w->name, sizeof w->name, "%s", w->c.name ? w->c.name : ri->name);
	free(w->input);
	w->input = et_xstrdup(ri->input ? ri->input : "<output>");
	w->msgs = w->offset = 0;
	return begin_format(w, e);
}

/* --- the text outputs ------------------------------------------------------- */

/* The JSON/JSONL rank header: rank, world_size, name, metadata, and for
 * JSON the start of the node list (whose punctuation the node loop writes:
 * et_json_write.c's hot path). */
static void json_header(et_writer *w, const et_meta *m)
{
	et_jsonw j;
	et_jsonw_init(&j, NULL, &w->buf, ET_JSONW_COMPACT, 0);
	et_jsonw_obj(&j);
	et_jsonw_kuint(&j, "rank", w->rank);
	et_jsonw_kuint(&j, "world_size", w->world);
	et_jsonw_kstr(&j, "name", w->name);
	et_jsonw_key(&j, "metadata");
	et_buf meta = {0};
	et_json_meta_write(m, &meta);
	et_jsonw_raw(&j, (const char *)meta.data, meta.len);
	et_buf_free(&meta);
	if (w->c.format == ET_WRITER_JSON) {
		et_jsonw_karr(&j, "nodes");
		et_jsonw_release(&j); /* the node loop goes on, then closes both */
		return;
	}
	et_jsonw_end(&j);
	et_buf_putc(&w->buf, '\n');
	et_jsonw_done(&j);
}

static int text_meta(et_writer *w, const et_msg *m, et_error *e)
{
	et_arena_reset(w->arena);
	et_meta *meta = et_meta_decode(w->arena, m->data, m->len);
	if (!meta)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: byte 0: GlobalMetadata does not parse", w->input,
		               w->rank);
	uint32_t field = 0;
	bool found = et_meta_unknown(meta, &field);
	note_unknown(w, found, field, 0, true);
	if (w->c.format == ET_WRITER_LAYOUT) {
		w->c.layout->meta(meta, &w->buf);
		return 0;
	}
	json_header(w, meta);
	return 0;
}

static int text_node(et_writer *w, const et_msg *m, uint64_t index, et_error *e)
{
	et_arena_reset(w->arena);
	et_node *n = et_node_decode(w->arena, m->data, m->len);
	if (!n)
		return et_fail(
		    e, ET_EXIT_DATA, "%s: rank %u: byte %llu: node message %llu does not parse",
		    w->input, w->rank, (unsigned long long)m->offset, (unsigned long long)m->index);
	uint32_t field = 0;
	bool found = et_node_unknown(n, &field);
	note_unknown(w, found, field, n->id, false);
	switch (w->c.format) {
	case ET_WRITER_JSON:
		et_buf_puts(&w->buf, index > 1 ? ",\n" : "\n");
		et_json_node_write(n, -1, w->c.all_fields, &w->buf);
		break;
	case ET_WRITER_JSONL:
		et_json_node_write(n, w->rank, w->c.all_fields, &w->buf);
		et_buf_putc(&w->buf, '\n');
		break;
	default:
		w->c.layout->node(n, &w->buf);
	}
	return 0;
}

/* One message: framed for the binary outputs, decoded for the others. */
static int put_msg(et_writer *w, const et_msg *m, et_error *e)
{
	uint64_t index = w->msgs++;
	uint8_t prefix[10];
	w->offset += (uint64_t)et_varint_put(prefix, m->len) + m->len;
	int r = 0;
	if (!is_text(w))
		et_frame_put(&w->buf, m->data, m->len);
	else
		r = index == 0 ? text_meta(w, m, e) : text_node(w, m, index, e);
	return r < 0 ? -1 : flush_some(w, e);
}

int et_writer_msg(et_writer *w, const et_msg *m, et_error *e)
{
	if (w->msgs > 0)
		count_nodes(w, 1);
	return put_msg(w, m, e);
}

int et_writer_node(et_writer *w, const et_node *n, et_error *e)
{
	count_nodes(w, 1);
	if (!is_text(w)) {
		size_t before = w->buf.len;
		et_node_encode(n, &w->buf);
		w->msgs++;
		w->offset += w->buf.len - before;
		return flush_some(w, e);
	}
	w->scratch.len = 0;
	et_node_pack(n, &w->scratch);
	et_msg m = {w->scratch.data, w->scratch.len, w->offset, w->msgs};
	return put_msg(w, &m, e);
}

/* Framed bytes for the text outputs: message by message. */
static int text_raw(et_writer *w, const uint8_t *p, size_t n, et_error *e)
{
	for (size_t at = 0; at < n;) {
		uint64_t len;
		int k = et_varint_get(p + at, n - at, &len);
		if (k <= 0 || len > n - at - (size_t)k)
			return et_fail(e, ET_EXIT_DATA,
			               "%s: rank %u: byte %llu: message framing is cut", w->input,
			               w->rank, (unsigned long long)w->offset);
		et_msg m = {p + at + k, (size_t)len, w->offset, w->msgs};
		if (put_msg(w, &m, e) < 0)
			return -1;
		at += (size_t)k + (size_t)len;
	}
	return 0;
}

int et_writer_raw(et_writer *w, const void *p, size_t n, uint64_t count, et_error *e)
{
	count_nodes(w, count);
	if (is_text(w))
		return text_raw(w, p, n, e);
	/* the caller's bytes are a large piece already: no copy */
	if (flush(w, e) < 0)
		return -1;
	w->offset += n;
	return put_bytes(w, p, n, e);
}

static int end_split_file(et_writer *w, et_error *e)
{
	et_output *o = w->rank_out;
	w->rank_out = NULL;
	if (et_output_close_deferred(o, e) < 0)
		return -1; /* removed by et_output */
	ET_GROW(w->files, w->cap_files, w->n_files + 1);
	w->files[w->n_files++] = o;
	return 0;
}

int et_writer_rank_end(et_writer *w, et_error *e)
{
	w->ranks_done++;
	warn_unknown(w);
	if (is_text(w) && w->msgs == 0)
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u: no GlobalMetadata", w->input,
		               w->rank);
	if (w->c.format == ET_WRITER_JSON)
		et_buf_puts(&w->buf, "\n]}");
	if (flush(w, e) < 0)
		return -1;
	if (w->sw)
		return et_stream_end_rank(w->sw, e);
	return w->rank_out ? end_split_file(w, e) : 0;
}

int et_writer_rank_shared(et_writer *w, const et_rank_info *ri, et_writer_shared *s, et_error *e)
{
	if (w->c.format != ET_WRITER_STREAM) {
		if (et_writer_rank_begin(w, ri, e) < 0 ||
		    et_writer_raw(w, s->data, s->len, s->nodes, e) < 0)
			return -1;
		return et_writer_rank_end(w, e);
	}
	if (!s->frame.len &&
	    et_stream_compress_frame(s->data, s->len, w->c.level, w->c.threads, &s->frame, e) < 0)
		return -1;
	w->rank = ri->rank;
	uint32_t world = w->c.world ? w->c.world : ri->world_size;
	et_progress_rank(&w->pg, w->rank, w->c.some_ranks ? 0 : world);
	const char *name = w->c.name ? w->c.name : ri->name;
	stream_groups(w, ri, world);
	if (et_stream_put_frame(w->sw, ri->rank, world, name, s->frame.data, s->frame.len, e) < 0)
		return -1;
	w->ranks_done++;
	count_nodes(w, s->nodes);
	return 0;
}

int et_writer_rank_begin_delta(et_writer *w, const et_rank_info *ri, et_error *e)
{
	w->delta_rank = w->sw != NULL;
	int r = et_writer_rank_begin(w, ri, e);
	w->delta_rank = false;
	return r;
}

int et_writer_class(et_writer *w, uint32_t id, const void *p, size_t n, et_error *e)
{
	if (!w->sw || id >= ET_STREAM_CLASS_IDS || n > ET_STREAM_CLASS_MAX)
		return 0;
	return et_stream_put_class(w->sw, id, p, n, e) < 0 ? -1 : 1;
}

int et_writer_rank_class(et_writer *w, const et_rank_info *ri, uint32_t id, const et_buf *rule,
                         uint64_t nodes, et_error *e)
{
	w->class_rank = true;
	int r = et_writer_rank_begin(w, ri, e);
	w->class_rank = false;
	if (r < 0 || et_stream_put_rule(w->sw, id, rule, e) < 0)
		return -1;
	count_nodes(w, nodes);
	w->msgs = nodes + 1;
	return et_writer_rank_end(w, e);
}

int et_writer_base(et_writer *w, const void *p, size_t n, uint32_t *id, et_error *e)
{
	if (!w->sw || w->bases >= ET_STREAM_BASE_IDS || n > ET_STREAM_BASE_MAX - w->base_bytes)
		return 0;
	if (et_stream_put_base(w->sw, w->bases, p, n, e) < 0)
		return -1;
	w->base_bytes += n;
	*id = w->bases++;
	return 1;
}

int et_writer_delta(et_writer *w, uint32_t id, const et_buf *ops, uint64_t len, uint64_t msgs,
                    uint64_t nodes, et_error *e)
{
	count_nodes(w, nodes);
	if (flush(w, e) < 0)
		return -1;
	w->msgs += msgs;
	w->offset += len;
	return et_stream_put_delta(w->sw, id, ops, e);
}

void et_writer_shared_free(et_writer_shared *s)
{
	et_buf_free(&s->frame);
}

/* --- closing ----------------------------------------------------------------- */

static int copy_held(et_writer *w, et_error *e)
{
	FILE *o = et_output_file(w->out);
	errno = 0;
	if (fflush(w->hold) != 0 || ferror(w->hold))
		return et_write_failed(hold_name, e);
	if (fseek(w->hold, 0, SEEK_SET) != 0)
		return et_fail(e, ET_EXIT_IO, "%s: %s", hold_name, strerror(errno));
	char chunk[1 << 16];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, w->hold)) > 0)
		if (fwrite(chunk, 1, n, o) != n)
			return et_write_failed(et_output_name(w->out), e);
	if (ferror(w->hold))
		return et_fail(e, ET_EXIT_IO, "%s: read error", hold_name);
	return 0;
}

/* Commit the split files in order; after a failure, remove the rest. */
static int commit_files(et_writer *w, et_error *e)
{
	int r = 0;
	for (size_t i = 0; i < w->n_files; i++) {
		if (r == 0)
			r = et_output_commit(w->files[i], e);
		else
			et_output_abort(w->files[i]);
	}
	w->n_files = 0;
	return r;
}

/* Complete the output and put it in place. */
static int finish(et_writer *w, et_error *e)
{
	if (w->c.format == ET_WRITER_JSON)
		et_buf_puts(&w->buf, "\n]}\n");
	if (flush(w, e) < 0 || (w->hold && copy_held(w, e) < 0))
		return -1;
	if (w->out) {
		et_output *o = w->out;
		w->out = NULL; /* committed, or removed by et_output */
		if (et_output_commit(o, e) < 0)
			return -1;
	}
	return commit_files(w, e);
}

static void discard(et_writer *w)
{
	et_output_abort(w->out);
	et_output_abort(w->rank_out);
	for (size_t i = 0; i < w->n_files; i++)
		et_output_abort(w->files[i]);
	w->out = w->rank_out = NULL;
	w->n_files = 0;
}

int et_writer_close(et_writer *w, bool ok, et_error *e)
{
	if (!w)
		return 0;
	int r = ok ? finish(w, e) : 0;
	if (!ok || r < 0)
		discard(w);
	writer_free(w);
	return r;
}

int et_writer_finish(et_writer *w, int r, et_error *e)
{
	et_error e2;
	if (et_writer_close(w, r == 0, &e2) < 0 && r == 0) {
		*e = e2;
		return -1;
	}
	return r;
}
