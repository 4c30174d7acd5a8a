/* --tee / --tee-always: pass the input on as a stream. Every rank is
 * re-emitted as a stream section (rank, world size, name from the input)
 * holding the very message bytes read, re-framed, so a raw ET, a per-rank
 * set or JSON comes out as the equivalent stream. --tee writes to an
 * unlinked temporary file (disk, not memory) and copies it to stdout only
 * if the input validates; --tee-always streams straight to stdout. */
#include "tee.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_output.h"
#include "et_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tee {
	int mode;
	FILE *tmp;      /* --tee: the buffer file */
	et_output *out; /* stdout */
	et_stream_writer *w;
	et_buf buf; /* framed messages not yet handed to the writer */
};

int tee_open(tee **out, int mode, et_error *e)
{
	tee *t = et_xcalloc(1, sizeof *t);
	*out = t;
	t->mode = mode;
	/* Open stdout first: a terminal is refused before any work. */
	if (et_output_open(&t->out, NULL, true, e) < 0)
		return -1;
	FILE *f = et_output_file(t->out);
	if (mode == 1) {
		t->tmp = tmpfile();
		if (!t->tmp)
			return et_fail(e, ET_EXIT_IO,
			               "cannot create a temporary file for --tee: %s",
			               strerror(errno));
		f = t->tmp;
	}
	t->w = et_stream_writer_new(f, 3, 0);
	return 0;
}

static int flush_buf(tee *t, et_error *e)
{
	if (!t->buf.len)
		return 0;
	int r = et_stream_write(t->w, t->buf.data, t->buf.len, e);
	t->buf.len = 0;
	return r;
}

int tee_begin_rank(tee *t, const et_rank_info *ri, et_error *e)
{
	return et_stream_begin_rank(t->w, ri->rank, ri->world_size, ri->name, e);
}

int tee_msg(tee *t, const et_msg *m, et_error *e)
{
	et_frame_put(&t->buf, m->data, m->len);
	return t->buf.len >= (256u << 10) ? flush_buf(t, e) : 0;
}

int tee_end_rank(tee *t, et_error *e)
{
	if (flush_buf(t, e) < 0)
		return -1;
	return et_stream_end_rank(t->w, e);
}

static int copy_out(tee *t, et_error *e)
{
	FILE *o = et_output_file(t->out);
	if (fflush(t->tmp) != 0 || fseek(t->tmp, 0, SEEK_SET) != 0)
		return et_fail(e, ET_EXIT_IO, "--tee temporary file: %s", strerror(errno));
	char chunk[1 << 16];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, t->tmp)) > 0)
		if (fwrite(chunk, 1, n, o) != n)
			return et_fail(e, ET_EXIT_IO, "<stdout>: write error: %s", strerror(errno));
	if (ferror(t->tmp))
		return et_fail(e, ET_EXIT_IO, "--tee temporary file: read error");
	return 0;
}

int tee_close(tee *t, bool ok, et_error *e)
{
	if (!t)
		return 0;
	int r = 0;
	if (t->mode == 1 && ok)
		r = copy_out(t, e);
	if (t->out && r == 0)
		r = et_output_commit(t->out, e);
	else if (t->out)
		et_output_abort(t->out);
	t->out = NULL;
	tee_free(t);
	return r;
}

void tee_free(tee *t)
{
	if (!t)
		return;
	et_output_abort(t->out); /* a run that failed: stdout is let go */
	if (t->w)
		et_stream_writer_free(t->w);
	if (t->tmp)
		fclose(t->tmp);
	et_buf_free(&t->buf);
	free(t);
}
