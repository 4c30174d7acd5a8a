/* Fuzz the stream reader behind a valid ETSTREAM section header, so the
 * fuzzer's bytes reach the section and frame logic instead of failing the
 * sniff. The first byte picks the layout of the rest, R:
 *   0  header + R                   (R supplies zstd / skippable frames)
 *   1  header + zstd(R)             (valid frames, fuzzed ET content)
 *   2  header + zstd(R1) + zstd(R2) (messages split across two frames)
 *   3  header + zstd(R1) + header(rank 1) + zstd(R2)  (two sections)
 *   4  header + base(zstd(R1)) + delta(zstd(R2))  (fuzzed operations on a
 *      fuzzed base)
 *   5  base(zstd(R1)) + header + delta(zstd(R2)) + zstd(R1)
 *   6  header + base(R) + delta(zstd(R))  (the base's payload raw)
 *   7  header + base(zstd(R1)) + delta(R2)  (the delta's payload raw)
 *   8  class(zstd(R1)) + header3 + rule(R2)  (etkit-stream(5) CLASS FRAMES;
 *      here R1/R2 split R without its last byte, at that byte's fraction:
 *      a fuzzed class and rule)
 *   9  header3 + class(zstd(R1)) + rule(R2)
 *  10  class(R1) + header3 + rule(R2)  (the class's payload raw)
 *  11  class(zstd(R1)) + header3 + rule(R2) + header3(rank 1) + rule(R2)
 *  12-15 as 8
 * where R1/R2 split R at the fraction given by R's first byte, base(P) is a
 * base frame of id 0 with payload P after its tag and id, delta(P) a delta
 * frame from base 0, class(P) class 0, rule(P) a rule frame of class 0
 * with the raw payload P, header3 a version-3 (class rank) header. */
#include "et_crule.h"
#include "et_stream.h"
#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static void put_header_v(et_buf *b, uint32_t rank, uint16_t version)
{
	uint8_t frame[8 + 22 + 255];
	size_t n = et_stream_header_encode(frame + 8, version, rank, 2, "fuzz");
	uint32_t magic = ET_STREAM_MAGIC;
	for (int i = 0; i < 4; i++) {
		frame[i] = (uint8_t)(magic >> (8 * i));
		frame[4 + i] = (uint8_t)(n >> (8 * i));
	}
	et_buf_append(b, frame, 8 + n);
}

static void put_header(et_buf *b, uint32_t rank)
{
	put_header_v(b, rank, ET_STREAM_VERSION_DELTA);
}

static void put_zstd(et_buf *b, const uint8_t *p, size_t n)
{
	/* One context for the whole run: creating one per input would cost
	 * more than the read under test. */
	static ZSTD_CCtx *cc;
	if (!cc)
		cc = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(n);
	et_buf_reserve(b, cap);
	size_t r = ZSTD_compressCCtx(cc, b->data + b->len, cap, p, n, 1);
	FUZZ_CHECK(!ZSTD_isError(r));
	b->len += r;
}

static void put_tagged(et_buf *b, const char *tag, const uint8_t *p, size_t n, bool z)
{
	et_buf pl = {0};
	if (z)
		put_zstd(&pl, p, n);
	else
		et_buf_append(&pl, p, n);
	uint8_t h[20] = {0};
	uint32_t magic = ET_STREAM_MAGIC, len = (uint32_t)(12 + pl.len);
	for (int i = 0; i < 4; i++) {
		h[i] = (uint8_t)(magic >> (8 * i));
		h[4 + i] = (uint8_t)(len >> (8 * i));
	}
	memcpy(h + 8, tag, 8);
	et_buf_append(b, h, sizeof h);
	et_buf_append(b, pl.data, pl.len);
	et_buf_free(&pl);
}

static void put_classes(et_buf *b, int layout, const uint8_t *r, size_t n, size_t cut)
{
	if (layout != 9)
		put_tagged(b, ET_STREAM_TAG_CLASS, r, cut, layout != 10);
	put_header_v(b, 0, ET_STREAM_VERSION_CLASS);
	if (layout == 9)
		put_tagged(b, ET_STREAM_TAG_CLASS, r, cut, true);
	put_tagged(b, ET_STREAM_TAG_RULE, r + cut, n - cut, false);
	if (layout == 11) {
		put_header_v(b, 1, ET_STREAM_VERSION_CLASS);
		put_tagged(b, ET_STREAM_TAG_RULE, r + cut, n - cut, false);
	}
}

/* The class layouts again with class_rules (et_crule.h): a rank that
 * comes as its rule reads no message, follows a rank of its class and
 * generation that came in full with a simple class, and its rule reads for
 * that class; a rank in full with its class's slot nodes reads as many
 * nodes as the class says. A refusal is one line, exit code 3. */
static void read_rules(const char *path)
{
	et_input_opts o;
	et_input_opts_init(&o);
	o.format = ET_FMT_STREAM;
	o.class_rules = true;
	char *argv[] = {(char *)path};
	et_input *in = NULL;
	et_error e = {0};
	et_arena *a = et_arena_new();
	et_crule_class c = {0};
	uint64_t full_gen = 0;
	et_crule_val *v = NULL;
	int r = et_input_open(&in, 1, argv, &o, &e);
	et_rank_info ri;
	while (r == 0 && (r = et_input_next_rank(in, &ri, &e)) == 1) {
		et_msg m;
		uint64_t k = 0;
		while ((r = et_input_next_msg(in, &m, &e)) == 1)
			k++;
		if (r < 0)
			break;
		r = 0;
		if (ri.rule_only) {
			FUZZ_CHECK(k == 0 && full_gen == ri.class_gen && c.simple);
			v = realloc(v, ((size_t)c.n_slots + 1) * sizeof *v);
			FUZZ_CHECK(et_crule_rule_vals(&c, ri.rule, ri.rule_len, a, v));
		} else if (ri.crule) {
			et_crule_class_copy(&c, ri.crule);
			full_gen = ri.class_gen;
			FUZZ_CHECK(k == c.n_nodes + 1);
		}
	}
	if (r < 0)
		fuzz_check_error(&e);
	free(v);
	et_crule_class_free(&c);
	et_arena_free(a);
	et_input_close(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int layout = data[0] & 15;
	const uint8_t *rest = data + 1;
	size_t n = size - 1;
	size_t cut = n ? (size_t)rest[0] * n / 256 : 0;
	et_buf b = {0};
	if (layout >= 8 && n >= 1) {
		/* the class layouts cut at their last byte's fraction, so that a
		 * seed's class payload may start with any byte */
		n--;
		put_classes(&b, layout, rest, n, (size_t)rest[n] * n / 256);
		const char *path = fuzz_file(b.data, b.len);
		fuzz_read_all(path, ET_FMT_STREAM, false);
		read_rules(path);
		et_buf_free(&b);
		return 0;
	}
	if (layout == 5)
		put_tagged(&b, ET_STREAM_TAG_BASE, rest, cut, true);
	put_header(&b, 0);
	switch (layout) {
	case 0:
		et_buf_append(&b, rest, n);
		break;
	case 1:
		put_zstd(&b, rest, n);
		break;
	case 2:
		put_zstd(&b, rest, cut);
		put_zstd(&b, rest + cut, n - cut);
		break;
	case 3:
		put_zstd(&b, rest, cut);
		put_header(&b, 1);
		put_zstd(&b, rest + cut, n - cut);
		break;
	case 4:
	case 7:
		put_tagged(&b, ET_STREAM_TAG_BASE, rest, cut, true);
		put_tagged(&b, ET_STREAM_TAG_DELTA, rest + cut, n - cut, layout == 4);
		break;
	case 5:
		put_tagged(&b, ET_STREAM_TAG_DELTA, rest + cut, n - cut, true);
		put_zstd(&b, rest, cut);
		break;
	default:
		put_tagged(&b, ET_STREAM_TAG_BASE, rest, n, false);
		put_tagged(&b, ET_STREAM_TAG_DELTA, rest, n, true);
		break;
	}
	fuzz_read_all(fuzz_file(b.data, b.len), ET_FMT_STREAM, false);
	et_buf_free(&b);
	return 0;
}
