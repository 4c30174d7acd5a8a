#include "et_src.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_sgroups.h"
#include "et_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

/* The file buffer is fixed; the window starts small and grows to what the
 * messages need (small inputs cost little, large ones read in 1 MiB steps). */
enum { FILE_CHUNK = 1 << 20, WIN_CHUNK = 1 << 20, WIN_FIRST = 1 << 16 };

struct et_src {
	char *name;
	char ctx[64];
	int fd;
	/* file layer: fbuf[fpos..flen) are read but unused file bytes */
	uint8_t *fbuf;
	size_t fpos, flen;
	uint64_t foff; /* file offset of fbuf[0] */
	bool feof;
	/* decoded window: w[ws..we) are available to the caller */
	uint8_t *w;
	size_t wcap, ws, we;
	uint64_t woff; /* decoded offset of w[ws] */
	bool dec_eof;
	et_src_mode mode;
	ZSTD_DCtx *zd;
	bool in_frame;
	z_stream gz;
	bool gz_live;
	bool gz_between;  /* between gzip members */
	uint16_t version; /* of the current section */
	/* the stream's bases (etkit-stream(5)), by id, allocated at the first */
	struct src_base {
		et_buf b;
		bool def;
	} * bases;
	uint64_t base_bytes;
	/* the delta frame being expanded: ops[opos..), a literal or a copy
	 * under way, the frame's file offset and its base */
	et_buf ops;
	size_t opos;
	uint64_t lit_left, cp_off, cp_left, dat;
	const struct src_base *dbase;
	bool delta;
	et_buf ext; /* the current section header's records after the name */
	/* the stream's classes (etkit-stream(5)), by id, allocated at the first */
	struct src_class *classes;
	uint64_t class_bytes;
	et_buf spare;      /* a class frame read beside the class it redefines */
	uint64_t gen_next; /* the next class generation (et_src_class_gen) */
	/* the current class rank: its rule, the value of each slot, and the
	 * expansion under way (step, and the chunk being copied) */
	et_buf rule;
	struct rule_val {
		uint32_t off, len;
	} * val;
	size_t val_cap;
	const struct src_class *ccls;
	int32_t cls_id;
	bool cls_on;
	uint64_t cls_step;
	const uint8_t *chunk;
	size_t chunk_left;
	uint8_t pre[10];
};

/* A class: its payload (etkit-stream(5), CLASS FRAMES) and where its parts
 * are in it. */
struct cls_piece {
	uint32_t slot; /* ET_TPL_FIXED-like UINT32_MAX: a run of framed nodes */
	size_t off, len;
};
struct src_class {
	et_buf b;
	bool def;
	uint64_t gen; /* changes only when a redefinition changes the bytes */
	size_t meta_off, meta_len;
	struct cls_piece *p;
	size_t np, pcap;
	uint32_t n_slots;  /* distinct slots its pieces use */
	uint32_t max_slot; /* + 1; 0 when none */
	uint8_t *used;     /* [max_slot]: a piece uses the slot */
	size_t used_cap;
};

static int src_fail(et_src *s, et_error *e, int code, uint64_t off, const char *what)
{
	return et_fail(e, code, "%s: %sbyte %llu: %s", s->name, s->ctx, (unsigned long long)off,
	               what);
}

int et_src_open(et_src **out, const char *path, et_error *e)
{
	bool std_in = !path || strcmp(path, "-") == 0;
	int fd = std_in ? 0 : open(path, O_RDONLY);
	if (fd < 0)
		return et_fail(e, ET_EXIT_IO, "%s: cannot open: %s", path, strerror(errno));
	et_src *s = et_xcalloc(1, sizeof *s);
	s->name = et_xstrdup(std_in ? "<stdin>" : path);
	s->fd = fd;
	s->fbuf = et_xmalloc(FILE_CHUNK);
	*out = s;
	return 0;
}

void et_src_close(et_src *s)
{
	if (!s)
		return;
	if (s->fd > 0)
		close(s->fd);
	if (s->gz_live)
		inflateEnd(&s->gz);
	ZSTD_freeDCtx(s->zd);
	if (s->bases)
		for (uint32_t i = 0; i < ET_STREAM_BASE_IDS; i++)
			et_buf_free(&s->bases[i].b);
	free(s->bases);
	et_buf_free(&s->ops);
	et_buf_free(&s->ext);
	if (s->classes)
		for (uint32_t i = 0; i < ET_STREAM_CLASS_IDS; i++) {
			et_buf_free(&s->classes[i].b);
			free(s->classes[i].p);
			free(s->classes[i].used);
		}
	free(s->classes);
	et_buf_free(&s->spare);
	et_buf_free(&s->rule);
	free(s->val);
	free(s->fbuf);
	free(s->w);
	free(s->name);
	free(s);
}

const char *et_src_name(const et_src *s)
{
	return s->name;
}

void et_src_set_context(et_src *s, const char *ctx)
{
	snprintf(s->ctx, sizeof s->ctx, "%s", ctx ? ctx : "");
}

/* Make at least `need` (<= FILE_CHUNK) unread file bytes available unless
 * the file ends first. Returns the number available or -1. */
static int64_t file_fill(et_src *s, size_t need, et_error *e)
{
	while (s->flen - s->fpos < need && !s->feof) {
		if (s->fpos > 0) {
			memmove(s->fbuf, s->fbuf + s->fpos, s->flen - s->fpos);
			s->foff += s->fpos;
			s->flen -= s->fpos;
			s->fpos = 0;
		}
		ssize_t r = read(s->fd, s->fbuf + s->flen, FILE_CHUNK - s->flen);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return et_fail(e, ET_EXIT_IO, "%s: read error: %s", s->name,
			               strerror(errno));
		if (r == 0)
			s->feof = true;
		s->flen += (size_t)r;
	}
	return (int64_t)(s->flen - s->fpos);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t et_src_file_offset(const et_src *s)
{
	return s->foff + s->fpos;
}

/* Skip n file bytes (a skippable frame's payload) without holding them. */
static int file_skip(et_src *s, uint64_t n, et_error *e)
{
	while (n > 0) {
		int64_t a = file_fill(s, 1, e);
		if (a < 0)
			return -1;
		if (a == 0)
			return src_fail(s, e, 3, et_src_file_offset(s),
			                "truncated skippable frame");
		size_t k = (uint64_t)a < n ? (size_t)a : (size_t)n;
		s->fpos += k;
		n -= k;
	}
	return 0;
}

/* Is there an ETSTREAM header at the file position? (needs 16 bytes) */
static bool at_stream_header(et_src *s)
{
	const uint8_t *p = s->fbuf + s->fpos;
	return s->flen - s->fpos >= 16 && le32(p) == ET_STREAM_MAGIC &&
	       memcmp(p + 8, "ETSTREAM", 8) == 0;
}

static bool is_skippable(uint32_t magic)
{
	return (magic & 0xFFFFFFF0u) == 0x184D2A50u;
}

/* The zstd frame that is the rest of a base or delta frame's payload (left
 * bytes) decompressed into out, at most cap bytes. */
static int read_nested(et_src *s, uint64_t left, et_buf *out, uint64_t cap, uint64_t at,
                       const char *what, et_error *e)
{
	char msg[200];
	if (!s->zd)
		s->zd = ZSTD_createDCtx();
	ZSTD_DCtx_reset(s->zd, ZSTD_reset_session_only);
	out->len = 0;
	size_t r = 1;
	while (left > 0 && r != 0) {
		int64_t a = file_fill(s, 1, e);
		if (a < 0)
			return -1;
		if (a == 0)
			break;
		if (out->cap - out->len < (1u << 16)) {
			/* grow by half, never past one byte over the cap: the
			 * limit bounds the memory too */
			uint64_t step = out->len < (1u << 20) ? 1u << 16 : out->len / 2;
			if (step > cap + 1 - out->len)
				step = cap + 1 - out->len;
			et_buf_reserve(out, (size_t)step);
		}
		size_t room = out->cap - out->len;
		if (room > cap - out->len + 1)
			room = (size_t)(cap - out->len + 1); /* one byte over the cap shows it */
		ZSTD_outBuffer ob = {out->data + out->len, room, 0};
		ZSTD_inBuffer in = {s->fbuf + s->fpos,
		                    (uint64_t)a < left ? (size_t)a : (size_t)left, 0};
		r = ZSTD_decompressStream(s->zd, &ob, &in);
		if (ZSTD_isError(r)) {
			snprintf(msg, sizeof msg, "%s: corrupt zstd data (%s)", what,
			         ZSTD_getErrorName(r));
			return src_fail(s, e, 3, at, msg);
		}
		s->fpos += in.pos;
		left -= in.pos;
		out->len += ob.pos;
		if (out->len > cap) {
			snprintf(msg, sizeof msg, "%s: over %llu bytes decompressed", what,
			         (unsigned long long)cap);
			return src_fail(s, e, 3, at, msg);
		}
	}
	if (r != 0 || left != 0) {
		snprintf(msg, sizeof msg, "%s: expected exactly one zstd frame in its payload",
		         what);
		return src_fail(s, e, 3, at, msg);
	}
	ZSTD_DCtx_reset(s->zd, ZSTD_reset_session_only);
	return 0;
}

static int take_base(et_src *s, uint32_t id, uint64_t left, uint64_t at, et_error *e)
{
	if (!s->bases)
		s->bases = et_xcalloc(ET_STREAM_BASE_IDS, sizeof *s->bases);
	if (id == 0) /* a writer's first base: the bases before it are done with */
		for (uint32_t i = 1; i < ET_STREAM_BASE_IDS; i++) {
			s->base_bytes -= s->bases[i].b.len;
			et_buf_free(&s->bases[i].b);
			s->bases[i].def = false;
		}
	struct src_base *b = &s->bases[id];
	s->base_bytes -= b->b.len; /* a base redefined replaces the old one */
	b->def = false;
	if (read_nested(s, left, &b->b, ET_STREAM_BASE_MAX - s->base_bytes, at,
	                "base frame (the stream's bases are limited to 256 MiB)", e) < 0)
		return -1;
	s->base_bytes += b->b.len;
	b->def = true;
	return 0;
}

static int take_delta(et_src *s, uint32_t id, uint64_t left, uint64_t at, et_error *e)
{
	if (s->mode != ET_SRC_SECTION || s->version != ET_STREAM_VERSION_DELTA)
		return src_fail(s, e, 3, at, "delta frame outside a version-2 stream section");
	if (!s->bases || !s->bases[id].def) {
		char what[96];
		snprintf(what, sizeof what, "delta frame: base %u is not defined before it", id);
		return src_fail(s, e, 3, at, what);
	}
	if (read_nested(s, left, &s->ops, ET_STREAM_DELTA_MAX, at, "delta frame", e) < 0)
		return -1;
	s->dbase = &s->bases[id];
	s->opos = 0;
	s->lit_left = s->cp_left = 0;
	s->dat = at;
	s->delta = true;
	return 0;
}

/* ---- classes ---- */

/* The parts of a class payload: the GlobalMetadata, the pieces, then their
 * bytes, exactly. Returns NULL, or what is wrong. */
static const char *class_parse(struct src_class *c)
{
	et_cursor r = {c->b.data, c->b.len, 0};
	uint64_t ml, np;
	if (!et_cursor_varint(&r, &ml) || ml > r.n - r.pos)
		return "truncated GlobalMetadata";
	c->meta_off = r.pos;
	c->meta_len = (size_t)ml;
	r.pos += (size_t)ml;
	if (!et_cursor_varint(&r, &np) || np > r.n - r.pos)
		return "piece count beyond the frame";
	c->np = 0;
	c->n_slots = c->max_slot = 0;
	ET_GROW(c->p, c->pcap, (size_t)np + 1);
	uint64_t total = 0;
	for (uint64_t i = 0; i < np; i++) {
		uint64_t kind, len;
		if (!et_cursor_varint(&r, &kind) || !et_cursor_varint(&r, &len))
			return "truncated piece table";
		if (kind > ET_STREAM_CLASS_SLOTS)
			return "a slot beyond 65535";
		if (len > r.n || (total += len) > r.n)
			return "pieces longer than the frame";
		c->p[c->np++] =
		    (struct cls_piece){kind ? (uint32_t)kind - 1 : UINT32_MAX, 0, (size_t)len};
		if (kind && kind > c->max_slot)
			c->max_slot = (uint32_t)kind;
	}
	if (total != r.n - r.pos)
		return "piece bytes do not fill the frame";
	ET_GROW(c->used, c->used_cap, (size_t)c->max_slot + 1);
	memset(c->used, 0, (size_t)c->max_slot + 1);
	size_t off = r.pos;
	for (size_t i = 0; i < c->np; i++) {
		c->p[i].off = off;
		off += c->p[i].len;
		uint32_t sl = c->p[i].slot;
		if (sl != UINT32_MAX && !c->used[sl]) {
			c->used[sl] = 1;
			c->n_slots++;
		}
	}
	return NULL;
}

static int take_class(et_src *s, uint32_t id, uint64_t left, uint64_t at, et_error *e)
{
	if (!s->classes)
		s->classes = et_xcalloc(ET_STREAM_CLASS_IDS, sizeof *s->classes);
	struct src_class *c = &s->classes[id];
	s->class_bytes -= c->b.len; /* a class redefined replaces the old one */
	bool was = c->def;
	c->def = false;
	/* read beside the old bytes: a class-aware reader keeps what it built
	 * from a class as long as its bytes stay the same (et-stage repeats
	 * its classes in every block of ranks) */
	if (read_nested(s, left, &s->spare, ET_STREAM_CLASS_MAX - s->class_bytes, at,
	                "class frame (the stream's classes are limited to 256 MiB)", e) < 0)
		return -1;
	bool same = was && s->spare.len == c->b.len &&
	            (c->b.len == 0 || memcmp(s->spare.data, c->b.data, c->b.len) == 0);
	if (same) {
		/* The same bytes again (et-stage repeats its classes in every
		 * block of ranks): the class keeps its buffer and its parse, and
		 * the spare is not handed on to the next class read, so buffers
		 * do not trade places block after block. */
		s->spare.len = 0;
		s->class_bytes += c->b.len;
		c->def = true;
		return 0;
	}
	et_buf t = c->b;
	c->b = s->spare;
	s->spare = t;
	s->spare.len = 0;
	if (!same)
		c->gen = ++s->gen_next;
	s->class_bytes += c->b.len;
	const char *why = class_parse(c);
	if (why) {
		char what[160];
		snprintf(what, sizeof what, "class frame %u: %s", id, why);
		return src_fail(s, e, 3, at, what);
	}
	c->def = true;
	return 0;
}

/* The rule of a class rank: every slot its class uses, once, ascending. */
static const char *rule_parse(et_src *s, const struct src_class *c)
{
	et_cursor r = {s->rule.data, s->rule.len, 0};
	uint64_t k;
	if (!et_cursor_varint(&r, &k) || k > r.n)
		return "truncated or malformed slot count";
	if (k != c->n_slots)
		return "not as many slots as its class uses";
	ET_GROW(s->val, s->val_cap, (size_t)c->max_slot + 1);
	uint64_t prev = 0;
	for (uint64_t i = 0; i < k; i++) {
		uint64_t sl, len;
		if (!et_cursor_varint(&r, &sl) || !et_cursor_varint(&r, &len) || len > r.n - r.pos)
			return "truncated slot";
		if ((i && sl <= prev) || sl > c->max_slot || !c->used[sl])
			return "a slot its class does not use, or slots not ascending";
		s->val[sl] = (struct rule_val){(uint32_t)r.pos, (uint32_t)len};
		r.pos += (size_t)len;
		prev = sl;
	}
	if (r.pos != r.n)
		return "bytes after the last slot";
	return NULL;
}

static int take_rule(et_src *s, uint32_t id, uint64_t left, uint64_t at, et_error *e)
{
	if (s->mode != ET_SRC_SECTION || s->version != ET_STREAM_VERSION_CLASS)
		return src_fail(s, e, 3, at, "rule frame outside a version-3 stream section");
	char what[160];
	if (!s->classes || !s->classes[id].def) {
		snprintf(what, sizeof what, "rule frame: class %u is not defined before it", id);
		return src_fail(s, e, 3, at, what);
	}
	if (left > ET_STREAM_RULE_MAX)
		return src_fail(s, e, 3, at, "rule frame: over 1 MiB");
	int64_t a = file_fill(s, (size_t)left, e);
	if (a < 0)
		return -1;
	if ((uint64_t)a < left)
		return src_fail(s, e, 3, at, "truncated rule frame");
	s->rule.len = 0;
	et_buf_append(&s->rule, s->fbuf + s->fpos, (size_t)left);
	s->fpos += (size_t)left;
	const char *why = rule_parse(s, &s->classes[id]);
	if (why) {
		snprintf(what, sizeof what, "rule frame (class %u): %s", id, why);
		return src_fail(s, e, 3, at, what);
	}
	s->ccls = &s->classes[id];
	s->cls_id = (int32_t)id;
	s->cls_on = true;
	s->cls_step = 0;
	s->chunk_left = 0;
	return 0;
}

/* The next chunk of the class rank's bytes: the GlobalMetadata's length and
 * bytes, then per piece: a fixed run as it is; a slot's node as its length
 * (its bytes and the rank's value), its bytes, the value. False at the
 * end. */
static bool class_chunk(et_src *s)
{
	const struct src_class *c = s->ccls;
	for (;;) {
		uint64_t st = s->cls_step++;
		if (st == 0) {
			s->chunk = s->pre;
			s->chunk_left = (size_t)et_varint_put(s->pre, c->meta_len);
			return true;
		}
		if (st == 1) {
			s->chunk = c->b.data + c->meta_off;
			s->chunk_left = c->meta_len;
			return true;
		}
		uint64_t i = (st - 2) / 3, ph = (st - 2) % 3;
		if (i >= c->np)
			return false;
		const struct cls_piece *p = &c->p[i];
		if (ph == 1) {
			s->chunk = c->b.data + p->off;
			s->chunk_left = p->len;
			return true;
		}
		if (p->slot == UINT32_MAX)
			continue;
		const struct rule_val *v = &s->val[p->slot];
		if (ph == 0) {
			s->chunk = s->pre;
			s->chunk_left = (size_t)et_varint_put(s->pre, (uint64_t)p->len + v->len);
		} else {
			s->chunk = s->rule.data + v->off;
			s->chunk_left = v->len;
		}
		return true;
	}
}

static int64_t class_run(et_src *s, uint8_t *dst, size_t cap)
{
	size_t out = 0;
	while (out < cap) {
		if (s->chunk_left) {
			size_t k = s->chunk_left < cap - out ? s->chunk_left : cap - out;
			memcpy(dst + out, s->chunk, k);
			s->chunk += k;
			s->chunk_left -= k;
			out += k;
			continue;
		}
		if (!class_chunk(s)) {
			s->cls_on = false;
			break;
		}
	}
	return (int64_t)out;
}

/* The id of a base, delta, class or rule frame at p, below limit, and the
 * frame's payload next; else exit 3 naming the frame. */
static int frame_id(et_src *s, const uint8_t *p, const char *frame, const char *of, uint32_t limit,
                    uint64_t at, uint32_t *id, et_error *e)
{
	*id = le32(p + 16);
	if (*id >= limit) {
		char what[96];
		snprintf(what, sizeof what, "%s frame: %s id %u, expected below %u", frame, of, *id,
		         limit);
		return src_fail(s, e, 3, at, what);
	}
	s->fpos += 20;
	return 0;
}

/* At a skippable frame (not a section header): a base is kept, a delta
 * begins (returns 2), anything else is skipped (returns 0); -1 on error. */
static int take_skippable(et_src *s, et_error *e)
{
	uint64_t at = et_src_file_offset(s);
	int64_t a = file_fill(s, 20, e);
	if (a < 0)
		return -1;
	if (a < 8)
		return src_fail(s, e, 3, at, "truncated skippable frame");
	const uint8_t *p = s->fbuf + s->fpos;
	uint32_t len = le32(p + 4);
	bool base = le32(p) == ET_STREAM_MAGIC && len >= 12 && a >= 20 &&
	            memcmp(p + 8, ET_STREAM_TAG_BASE, 8) == 0;
	bool delta = le32(p) == ET_STREAM_MAGIC && len >= 12 && a >= 20 &&
	             memcmp(p + 8, ET_STREAM_TAG_DELTA, 8) == 0;
	bool cls = le32(p) == ET_STREAM_MAGIC && len >= 12 && a >= 20 &&
	           memcmp(p + 8, ET_STREAM_TAG_CLASS, 8) == 0;
	bool rule = le32(p) == ET_STREAM_MAGIC && len >= 12 && a >= 20 &&
	            memcmp(p + 8, ET_STREAM_TAG_RULE, 8) == 0;
	uint32_t id;
	if (cls || rule) {
		if (frame_id(s, p, cls ? "class" : "rule", "class", ET_STREAM_CLASS_IDS, at, &id,
		             e) < 0)
			return -1;
		if (cls)
			return take_class(s, id, len - 12, at, e);
		return take_rule(s, id, len - 12, at, e) < 0 ? -1 : 2;
	}
	if (!base && !delta) {
		s->fpos += 8;
		return file_skip(s, len, e);
	}
	if (frame_id(s, p, base ? "base" : "delta", "base", ET_STREAM_BASE_IDS, at, &id, e) < 0)
		return -1;
	if (base)
		return take_base(s, id, len - 12, at, e);
	return take_delta(s, id, len - 12, at, e) < 0 ? -1 : 2;
}

/* At a frame boundary: take skippable frames. Returns 1 if a zstd frame
 * follows, 2 if a delta frame began, 0 at the end of the section (end of
 * file or an ETSTREAM header), -1 on error. */
static int zstd_boundary(et_src *s, et_error *e)
{
	for (;;) {
		int64_t a = file_fill(s, 16, e);
		if (a < 0)
			return -1;
		if (a == 0)
			return 0;
		if (a < 4)
			return src_fail(s, e, 3, et_src_file_offset(s),
			                "truncated data: expected a zstd frame");
		uint32_t magic = le32(s->fbuf + s->fpos);
		if (magic == ZSTD_MAGICNUMBER)
			return 1;
		if (!is_skippable(magic))
			return src_fail(s, e, 3, et_src_file_offset(s),
			                "expected a zstd frame or a stream section header");
		if (at_stream_header(s))
			return 0;
		int r = take_skippable(s, e);
		if (r != 0)
			return r;
	}
}

/* Expand the current delta frame into dst; 0 once it is done. */
static int64_t delta_run(et_src *s, uint8_t *dst, size_t cap, et_error *e)
{
	size_t out = 0;
	const uint8_t *ops = s->ops.data;
	while (out < cap) {
		if (s->lit_left || s->cp_left) {
			bool lit = s->lit_left > 0;
			uint64_t left = lit ? s->lit_left : s->cp_left;
			size_t k = left < cap - out ? (size_t)left : cap - out;
			memcpy(dst + out, lit ? ops + s->opos : s->dbase->b.data + s->cp_off, k);
			out += k;
			if (lit)
				s->opos += k, s->lit_left -= k;
			else
				s->cp_off += k, s->cp_left -= k;
			continue;
		}
		if (s->opos == s->ops.len) {
			s->delta = false;
			break;
		}
		uint64_t tag, off = 0;
		int k = et_varint_get(ops + s->opos, s->ops.len - s->opos, &tag);
		int k2 = k > 0 && (tag & 1) ? et_varint_get(ops + s->opos + k,
		                                            s->ops.len - s->opos - (size_t)k, &off)
		                            : 1;
		uint64_t n = tag >> 1, have = s->ops.len - s->opos - (size_t)(k > 0 ? k : 0);
		uint64_t bn = s->dbase->b.len;
		if (k <= 0 || k2 <= 0 || (!(tag & 1) && n > have) ||
		    ((tag & 1) && (off > bn || n > bn - off))) {
			char what[160];
			snprintf(what, sizeof what, "delta frame: operation at byte %zu: %s",
			         s->opos,
			         k <= 0 || k2 <= 0 ? "truncated or malformed"
			         : (tag & 1)       ? "copies past the end of its base"
			                           : "literal longer than the operations left");
			return src_fail(s, e, 3, s->dat, what);
		}
		s->opos += (size_t)k;
		if (tag & 1) {
			s->opos += (size_t)k2;
			s->cp_off = off, s->cp_left = n;
		} else {
			s->lit_left = n;
		}
	}
	return (int64_t)out;
}

static int64_t decode_zstd(et_src *s, uint8_t *dst, size_t cap, et_error *e)
{
	while (!s->in_frame) {
		if (s->cls_on) {
			int64_t k = class_run(s, dst, cap);
			if (k != 0)
				return k;
			continue;
		}
		if (s->delta) {
			int64_t k = delta_run(s, dst, cap, e);
			if (k != 0)
				return k;
			continue;
		}
		int r = zstd_boundary(s, e);
		if (r <= 0)
			return r;
		s->in_frame = r == 1;
	}
	ZSTD_outBuffer out = {dst, cap, 0};
	while (out.pos == 0) {
		int64_t a = file_fill(s, 1, e);
		if (a < 0)
			return -1;
		if (a == 0)
			return src_fail(s, e, 3, et_src_file_offset(s), "truncated zstd frame");
		ZSTD_inBuffer in = {s->fbuf + s->fpos, s->flen - s->fpos, 0};
		size_t r = ZSTD_decompressStream(s->zd, &out, &in);
		if (ZSTD_isError(r)) {
			char what[160];
			snprintf(what, sizeof what, "corrupt zstd data (%s)", ZSTD_getErrorName(r));
			return src_fail(s, e, 3, et_src_file_offset(s), what);
		}
		s->fpos += in.pos;
		if (r == 0) { /* frame complete and flushed */
			s->in_frame = false;
			break;
		}
	}
	return (int64_t)out.pos;
}

static int64_t decode_gzip(et_src *s, uint8_t *dst, size_t cap, et_error *e)
{
	if (cap > (1u << 30))
		cap = 1u << 30;
	s->gz.next_out = dst;
	s->gz.avail_out = (uInt)cap;
	while (s->gz.next_out == dst) {
		int64_t a = file_fill(s, 1, e);
		if (a < 0)
			return -1;
		if (a == 0) {
			if (s->gz_between) /* clean end after a complete member */
				return 0;
			return src_fail(s, e, 3, et_src_file_offset(s), "truncated gzip data");
		}
		s->gz_between = false;
		s->gz.next_in = s->fbuf + s->fpos;
		s->gz.avail_in = (uInt)a;
		int r = inflate(&s->gz, Z_NO_FLUSH);
		s->fpos = (size_t)(s->gz.next_in - s->fbuf);
		if (r == Z_STREAM_END) {
			/* Another member may follow, as after `cat a.gz b.gz`. */
			inflateReset(&s->gz);
			s->gz_between = true;
		} else if (r != Z_OK && r != Z_BUF_ERROR) {
			char what[160];
			snprintf(what, sizeof what, "corrupt gzip data (%s)",
			         s->gz.msg ? s->gz.msg : "inflate failed");
			return src_fail(s, e, 3, et_src_file_offset(s), what);
		}
	}
	return (int64_t)(s->gz.next_out - dst);
}

static int64_t decode_raw(et_src *s, uint8_t *dst, size_t cap, et_error *e)
{
	if (s->fpos == s->flen) {
		if (s->feof)
			return 0;
		/* Large reads go straight into the window. */
		for (;;) {
			ssize_t r = read(s->fd, dst, cap);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0)
				return et_fail(e, ET_EXIT_IO, "%s: read error: %s", s->name,
				               strerror(errno));
			if (r == 0)
				s->feof = true;
			s->foff += (uint64_t)r;
			return r;
		}
	}
	size_t k = s->flen - s->fpos < cap ? s->flen - s->fpos : cap;
	memcpy(dst, s->fbuf + s->fpos, k);
	s->fpos += k;
	return (int64_t)k;
}

static int64_t decode(et_src *s, uint8_t *dst, size_t cap, et_error *e)
{
	switch (s->mode) {
	case ET_SRC_RAW:
		return decode_raw(s, dst, cap, e);
	case ET_SRC_GZIP:
		return decode_gzip(s, dst, cap, e);
	default:
		return decode_zstd(s, dst, cap, e);
	}
}

int64_t et_src_fill(et_src *s, size_t need, et_error *e)
{
	while (s->we - s->ws < need && !s->dec_eof) {
		size_t avail = s->we - s->ws;
		/* Grow by at most what is already held (or a chunk), so a bogus
		 * length prefix cannot force a big allocation before the bytes
		 * really arrive. */
		size_t room = need - avail;
		size_t chunk = s->wcap ? WIN_CHUNK : WIN_FIRST;
		size_t limit = avail > chunk ? avail : chunk;
		if (room < chunk)
			room = chunk;
		if (room > limit)
			room = limit;
		if (s->ws > 0 && s->wcap - s->we < room) {
			memmove(s->w, s->w + s->ws, avail);
			s->we = avail;
			s->ws = 0;
		}
		if (s->wcap - s->we < room) { /* not ET_GROW: the window is sized to its limit */
			s->wcap = s->we + room;
			s->w = et_xrealloc(s->w, s->wcap);
		}
		int64_t r = decode(s, s->w + s->we, s->wcap - s->we, e);
		if (r < 0)
			return -1;
		if (r == 0)
			s->dec_eof = true;
		s->we += (size_t)r;
	}
	return (int64_t)(s->we - s->ws);
}

const uint8_t *et_src_data(const et_src *s)
{
	return s->w + s->ws;
}

size_t et_src_avail(const et_src *s)
{
	return s->we - s->ws;
}

void et_src_consume(et_src *s, size_t n)
{
	s->ws += n;
	s->woff += n;
}

uint64_t et_src_offset(const et_src *s)
{
	return s->woff;
}

int et_src_sniff_container(et_src *s, et_src_mode *mode, et_error *e)
{
	for (;;) {
		int64_t a = file_fill(s, 16, e);
		if (a < 0)
			return -1;
		const uint8_t *p = s->fbuf + s->fpos;
		if (a == 0 && et_src_file_offset(s) == 0)
			return src_fail(s, e, 3, 0,
			                "empty input: expected a stream, an ET or JSON");
		if (a >= 4 && is_skippable(le32(p)) && !at_stream_header(s)) {
			/* A skippable frame first (a base, or foreign): take it and
			 * look again. */
			if (take_skippable(s, e) < 0)
				return -1;
			continue;
		}
		if (at_stream_header(s))
			*mode = ET_SRC_SECTION;
		else if (a >= 4 && le32(p) == ZSTD_MAGICNUMBER)
			*mode = ET_SRC_ZSTD;
		else if (a >= 2 && p[0] == 0x1f && p[1] == 0x8b)
			*mode = ET_SRC_GZIP;
		else
			*mode = ET_SRC_RAW;
		return 0;
	}
}

static void window_reset(et_src *s)
{
	s->ws = s->we = 0;
	s->woff = 0;
	s->dec_eof = false;
	s->in_frame = false;
	s->delta = false;
	s->cls_on = false;
	s->cls_id = -1;
}

void et_src_set_mode(et_src *s, et_src_mode mode)
{
	s->mode = mode;
	window_reset(s);
	if ((mode == ET_SRC_ZSTD || mode == ET_SRC_SECTION) && !s->zd)
		s->zd = ZSTD_createDCtx();
	if (s->zd)
		ZSTD_DCtx_reset(s->zd, ZSTD_reset_session_only);
	if (mode == ET_SRC_GZIP && !s->gz_live) {
		memset(&s->gz, 0, sizeof s->gz);
		inflateInit2(&s->gz, 16 + MAX_WBITS);
		s->gz_live = true;
	}
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The records after the header's name (n bytes at the file position):
 * read whole, at most ET_STREAM_EXT_MAX bytes, and checked before any of
 * the section is decoded. */
static int read_ext(et_src *s, et_stream_hdr *h, uint32_t n, et_error *e)
{
	uint64_t at = et_src_file_offset(s);
	h->groups = NULL;
	h->groups_len = 0;
	h->groups_off = 0;
	if (n == 0)
		return 0;
	if (n > ET_STREAM_EXT_MAX)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: byte %llu: stream header: %u bytes of records after "
		               "the name, at most %u",
		               s->name, h->rank, (unsigned long long)at, n, ET_STREAM_EXT_MAX);
	int64_t a = file_fill(s, n, e);
	if (a < 0)
		return -1;
	if ((uint64_t)a < n)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: byte %llu: truncated stream section header", s->name,
		               h->rank, (unsigned long long)at);
	s->ext.len = 0;
	et_buf_append(&s->ext, s->fbuf + s->fpos, n);
	s->fpos += n;
	char where[320];
	snprintf(where, sizeof where, "%s: rank %u", s->name, h->rank);
	const uint8_t *g;
	size_t glen, gat;
	if (et_sgroups_check(s->ext.data, n, h->world_size, where, at, &g, &glen, &gat, e) < 0)
		return -1;
	h->groups = g;
	h->groups_len = (uint32_t)glen;
	h->groups_off = at + gat;
	return 0;
}

/* Parse the section header at the file position into h. */
static int read_header(et_src *s, et_stream_hdr *h, et_error *e)
{
	uint64_t at = et_src_file_offset(s);
	int64_t a = file_fill(s, 8 + 22 + 255, e);
	if (a < 0)
		return -1;
	const uint8_t *p = s->fbuf + s->fpos;
	uint32_t plen = le32(p + 4);
	if (a < 8 + 22 || plen < 22)
		return src_fail(s, e, 3, at, "truncated stream section header");
	h->version = le16(p + 16);
	h->flags = le16(p + 18);
	h->rank = le32(p + 20);
	h->world_size = le32(p + 24);
	uint16_t nlen = le16(p + 28);
	if (h->version != ET_STREAM_VERSION && h->version != ET_STREAM_VERSION_DELTA &&
	    h->version != ET_STREAM_VERSION_CLASS) {
		char what[96];
		snprintf(what, sizeof what, "stream header version %u, expected %u to %u",
		         h->version, ET_STREAM_VERSION, ET_STREAM_VERSION_CLASS);
		return src_fail(s, e, 3, at, what);
	}
	if (nlen > 255 || 22u + nlen > plen || (uint64_t)a < 8u + 22 + nlen)
		return src_fail(s, e, 3, at, "stream header: workload name longer than its frame");
	memcpy(h->name, p + 30, nlen);
	h->name[nlen] = 0;
	s->fpos += 8 + 22 + nlen;
	return read_ext(s, h, plen - 22u - nlen, e);
}

int et_src_next_section(et_src *s, et_stream_hdr *h, et_error *e)
{
	if (s->mode == ET_SRC_SECTION) {
		/* Drain what the caller left of the previous section. */
		while (!s->dec_eof) {
			s->ws = s->we;
			if (et_src_fill(s, WIN_CHUNK, e) < 0)
				return -1;
		}
	}
	int64_t a = file_fill(s, 16, e);
	if (a < 0)
		return -1;
	if (a == 0)
		return 0;
	/* The sniff, and then each section's decoding, took every skippable
	 * frame before a header: anything else here is not a stream. */
	if (!at_stream_header(s))
		return src_fail(s, e, 3, et_src_file_offset(s),
		                "expected an ETSTREAM section header");
	if (read_header(s, h, e) < 0)
		return -1;
	et_src_set_mode(s, ET_SRC_SECTION);
	s->version = h->version;
	h->class_id = -1;
	if (h->version == ET_STREAM_VERSION_CLASS) {
		/* a class rank's rule comes first: its class is known now */
		int r = zstd_boundary(s, e);
		if (r < 0)
			return -1;
		s->in_frame = r == 1;
		h->class_id = s->cls_on ? s->cls_id : -1;
	}
	return 1;
}

const uint8_t *et_src_class(const et_src *s, uint32_t id, size_t *len)
{
	if (!s->classes || id >= ET_STREAM_CLASS_IDS || !s->classes[id].def)
		return NULL;
	*len = s->classes[id].b.len;
	return s->classes[id].b.data;
}

uint64_t et_src_class_gens(const et_src *s)
{
	return s->gen_next;
}

uint64_t et_src_class_gen(const et_src *s, uint32_t id)
{
	if (!s->classes || id >= ET_STREAM_CLASS_IDS || !s->classes[id].def)
		return 0;
	return s->classes[id].gen;
}

const uint8_t *et_src_rule(const et_src *s, size_t *len)
{
	if (s->cls_id < 0)
		return NULL;
	*len = s->rule.len;
	return s->rule.data;
}

bool et_src_skip_class(et_src *s)
{
	if (!s->cls_on || s->cls_step != 0 || s->we != s->ws)
		return false;
	s->cls_on = false;
	/* the section holds nothing else: its end is the next header */
	int r = zstd_boundary(s, NULL);
	if (r != 0) {
		/* more follows (or bad data): read the rank as it is */
		s->in_frame = r == 1;
		if (r == 1)
			s->cls_on = true;
		return false;
	}
	s->dec_eof = true;
	return true;
}
