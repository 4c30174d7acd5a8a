/* Fuzz et-convert's ASTRA-sim 1.0 text reader and writer (astxt).
 *
 * Input: one option byte, then the text. Option bits 0-1: world - 1;
 * bits 2-3: passes (0: the usage error); bit 4: the reference's numbering;
 * bit 5: also write every rank through et_writer (JSONL, held and
 * discarded), which decodes every message.
 *
 * Invariants: a refused text fills the error (exit code 3, one line naming
 * the input) and leaves nothing; a read table is within the bounds, its
 * names are columns, HYBRID_DLRM's last bottom layer is a layer; the nodes
 * per pass are what the rules count (computed here from the table); every
 * node of a rank, at the first rank's ids and the last rank's, decodes,
 * packs back to its own bytes, has its id in order and its dependencies on
 * earlier nodes of its rank; astxt_plan_bytes is what astxt_plan_put
 * writes; astxt_write succeeds or fails with a filled error. */
#include "et-convert/astra-text/astxt.h"
#include "et-convert/astra-text/astxt_plan.h"
#include "et_writer.h"
#include "fuzz_util.h"

/* Nodes per pass by the rules (doc/compiler-ir.md), not by the wiring. */
static uint64_t per_pass(const astxt *t)
{
	uint64_t n = t->nlayers;
	if (n == 0)
		return 0;
	switch (t->par) {
	case ASTXT_MICRO:
		return n;
	case ASTXT_DATA:
		return 4 * n - 1;
	case ASTXT_MODEL:
		return 5 * n - 1;
	case ASTXT_HYBRID_DATA_MODEL:
	case ASTXT_HYBRID_MODEL_DATA:
		return 6 * n - 1;
	default: {
		uint64_t k = 3 * n - 1 + (t->last_bottom + 1 < n);
		for (uint32_t i = 0; i < n; i++)
			k += (t->layers[i].comm[ASTXT_FWD] == ASTXT_ALLTOALL) +
			     (t->layers[i].comm[ASTXT_WG] != ASTXT_NONE);
		return k;
	}
	}
}

static void check_table(const astxt *t, size_t size)
{
	FUZZ_CHECK(t->arena && t->nlayers <= ASTXT_MAX_LAYERS && t->text_len <= size);
	FUZZ_CHECK(memchr(t->text, '\r', t->text_len) == NULL && strlen(t->text) == t->text_len);
	for (uint32_t i = 0; i < t->nlayers; i++) {
		const char *s = t->layers[i].name;
		FUZZ_CHECK(s[0] && strcspn(s, " \t\v\f\r\n") == strlen(s));
		for (int p = 0; p < 3; p++)
			FUZZ_CHECK(t->layers[i].comm[p] <= ASTXT_NONE && t->layers[i].size[p] >= 0);
	}
	if ((t->par == ASTXT_HYBRID_DLRM || t->par == ASTXT_HYBRID_DLRM_ENHANCED) && t->nlayers)
		FUZZ_CHECK(t->last_bottom >= 1 && t->last_bottom < t->nlayers &&
		           t->layers[0].comm[ASTXT_FWD] == ASTXT_ALLTOALL);
}

/* A rank's nodes with ids from base: decoded, canonical, in order. */
static void check_rank(const astxt_plan *p, uint64_t base, et_buf *b, et_arena *a)
{
	uint64_t n = astxt_plan_nodes(p);
	b->len = 0;
	astxt_plan_put(p, base, 0, n, b);
	FUZZ_CHECK(b->len == astxt_plan_bytes(p, base));
	et_buf again = {0};
	size_t off = 0;
	for (uint64_t k = 0; k < n; k++) {
		uint64_t len;
		int h = et_varint_get(b->data + off, b->len - off, &len);
		FUZZ_CHECK(h > 0 && len <= b->len - off - (size_t)h);
		const uint8_t *m = b->data + off + h;
		et_arena_reset(a);
		et_node *nd = et_node_decode(a, m, (size_t)len);
		FUZZ_CHECK(nd && nd->id == base + k);
		FUZZ_CHECK(nd->type == ET_NODE_COMP || nd->type == ET_NODE_COLL);
		for (size_t d = 0; d < nd->n_data_deps; d++)
			FUZZ_CHECK(nd->data_deps[d] >= base && nd->data_deps[d] < nd->id);
		again.len = 0;
		et_node_pack(nd, &again);
		FUZZ_CHECK(again.len == len && memcmp(again.data, m, (size_t)len) == 0);
		off += (size_t)h + (size_t)len;
	}
	FUZZ_CHECK(off == b->len);
	et_buf_free(&again);
}

static void check_write(const astxt *t, uint32_t world, uint32_t passes, bool compat)
{
	et_writer_cfg c;
	et_writer_cfg_init(&c);
	c.format = ET_WRITER_JSONL;
	c.hold = true;
	et_writer *w;
	et_error e = {0};
	FUZZ_CHECK(et_writer_open(&w, &c, &e) == 0);
	if (astxt_write(t, world, passes, compat, w, &e) < 0) {
		fuzz_check_error(&e);
		FUZZ_CHECK(strchr(e.msg, '\n') == NULL);
	}
	et_writer_close(w, false, &e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint32_t world = (data[0] & 3u) + 1, passes = (data[0] >> 2) & 3u;
	bool compat = data[0] & 16, write = data[0] & 32;
	astxt t;
	et_error e = {0};
	if (astxt_read(&t, "fuzz.txt", (const char *)data + 1, size - 1, &e) < 0) {
		FUZZ_CHECK(e.code == ET_EXIT_DATA && strchr(e.msg, '\n') == NULL);
		FUZZ_CHECK(strncmp(e.msg, "fuzz.txt: line ", 15) == 0);
		FUZZ_CHECK(t.arena == NULL && t.layers == NULL && t.nlayers == 0);
		astxt_free(&t);
		return 0;
	}
	check_table(&t, size - 1);
	if (passes) {
		astxt_plan p;
		astxt_plan_build(&p, &t, passes);
		FUZZ_CHECK(p.per_pass == per_pass(&t) &&
		           astxt_plan_nodes(&p) == per_pass(&t) * passes);
		et_buf b = {0};
		et_arena *a = et_arena_new();
		check_rank(&p, 0, &b, a);
		check_rank(&p, astxt_plan_nodes(&p) * (world - 1), &b, a);
		et_arena_free(a);
		et_buf_free(&b);
		astxt_plan_free(&p);
	}
	if (write || passes == 0)
		check_write(&t, world, passes, compat);
	astxt_free(&t);
	return 0;
}
