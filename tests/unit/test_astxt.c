/* Unit tests of et-convert's ASTRA-sim 1.0 text reader (astxt): the real
 * files' quirks and every refusal with its message; the wiring of each
 * parallelism on small tables, checked against dependency lists written
 * out by hand from the rules (doc/compiler-ir.md); the reference's node
 * counts on the corpus files (4 NPUs, 2 passes), counted by reading the
 * written stream back; both numberings; canonical bytes.
 *
 * Run with the test data folder as argument (unit.bats). With
 * "--convert FILE WORLD PASSES default|chakra OUT" it is instead a small
 * driver writing FILE's ranks as a stream to OUT, for astxt.bats until
 * et-convert's command line reads this format. */
#include "app/et_app.h"
#include "check.h"
#include "et-convert/astra-text/astxt.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_input.h"
#include "et_types.h"
#include "et_writer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_RANKS = 16 };

static char tmpdir[64];
static const char *datadir;

/* What a written stream holds, read back through et_input. */
typedef struct loaded {
	uint32_t nranks;
	uint32_t world[MAX_RANKS];
	char name[MAX_RANKS][256];
	et_buf msgs[MAX_RANKS]; /* the rank's messages, each framed */
	uint32_t nmsgs[MAX_RANKS];
} loaded;

static void loaded_free(loaded *l)
{
	for (int i = 0; i < MAX_RANKS; i++)
		et_buf_free(&l->msgs[i]);
	memset(l, 0, sizeof *l);
}

/* Every message decodes and packs back to its own bytes: what the
 * template splicing writes is the canonical encoding. */
static void check_canonical(const et_msg *m)
{
	et_arena *a = et_arena_new();
	et_buf b = {0};
	if (m->index == 0) {
		et_meta *md = et_meta_decode(a, m->data, m->len);
		CHECK(md != NULL);
		if (md)
			et_meta_pack(md, &b);
	} else {
		et_node *n = et_node_decode(a, m->data, m->len);
		CHECK(n != NULL);
		if (n)
			et_node_pack(n, &b);
	}
	CHECK(b.len == m->len && memcmp(b.data, m->data, b.len) == 0);
	et_buf_free(&b);
	et_arena_free(a);
}

/* The ranks of path, numbered from rank0 on (a file of one rank is named
 * by its number). */
static void load_from(const char *path, uint32_t rank0, loaded *l)
{
	memset(l, 0, sizeof *l);
	et_input *in;
	et_input_opts o;
	et_input_opts_init(&o);
	et_error e = {0};
	char *argv[] = {(char *)path};
	if (et_input_open(&in, 1, argv, &o, &e) < 0) {
		fprintf(stderr, "%s\n", e.msg);
		CHECK(!"readable");
		return;
	}
	et_rank_info ri;
	while (et_input_next_rank(in, &ri, &e) == 1 && l->nranks < MAX_RANKS) {
		uint32_t r = l->nranks++;
		CHECK(ri.rank == rank0 + r);
		l->world[r] = ri.world_size;
		snprintf(l->name[r], sizeof l->name[r], "%s", ri.name);
		et_msg m;
		while (et_input_next_msg(in, &m, &e) == 1) {
			check_canonical(&m);
			et_frame_put(&l->msgs[r], m.data, m.len);
			l->nmsgs[r]++;
		}
	}
	CHECK(e.code == 0);
	et_input_close(in);
}

static void load(const char *path, loaded *l)
{
	load_from(path, 0, l);
}

/* Message i (0 = GlobalMetadata) of rank r. */
static const uint8_t *msg_at(const loaded *l, uint32_t r, uint32_t i, size_t *len)
{
	const uint8_t *p = l->msgs[r].data, *end = p + l->msgs[r].len;
	for (uint32_t k = 0; p < end; k++) {
		uint64_t v;
		int h = et_varint_get(p, (size_t)(end - p), &v);
		if (k == i) {
			*len = (size_t)v;
			return p + h;
		}
		p += h + v;
	}
	*len = 0;
	return NULL;
}

static et_node *node_at(et_arena *a, const loaded *l, uint32_t r, uint32_t k)
{
	size_t len;
	const uint8_t *p = msg_at(l, r, k + 1, &len);
	return p ? et_node_decode(a, p, len) : NULL;
}

static int convert_text(const char *name, const char *text, size_t len, uint32_t world,
                        uint32_t passes, bool compat, const char *out, et_error *e)
{
	astxt t;
	int r = astxt_read(&t, name, text, len, e);
	if (r == 0) {
		et_writer_cfg c;
		et_writer_cfg_init(&c);
		c.path = out;
		et_writer *w;
		r = et_writer_open(&w, &c, e);
		if (r == 0)
			r = et_writer_finish(w, astxt_write(&t, world, passes, compat, w, e), e);
	}
	astxt_free(&t);
	return r;
}

static const char *out_path(void)
{
	static char p[128];
	snprintf(p, sizeof p, "%s/out.etz", tmpdir);
	return p;
}

/* Converts a table (NUL-terminated) and loads the result. */
static int run(const char *text, uint32_t world, uint32_t passes, bool compat, loaded *l)
{
	et_error e = {0};
	memset(l, 0, sizeof *l);
	int r = convert_text("t.txt", text, strlen(text), world, passes, compat, out_path(), &e);
	if (r < 0) {
		fprintf(stderr, "unexpected: %s\n", e.msg);
		CHECK(!"converted");
		return -1;
	}
	load(out_path(), l);
	unlink(out_path());
	return 0;
}

/* Rank r as lines "ID NAME DEP DEP ...". */
static void dump(const loaded *l, uint32_t r, et_buf *out)
{
	et_arena *a = et_arena_new();
	for (uint32_t k = 0; k + 1 < l->nmsgs[r]; k++) {
		et_node *n = node_at(a, l, r, k);
		if (!n)
			break;
		et_buf_printf(out, "%" PRIu64 " %s", n->id, n->name);
		for (size_t d = 0; d < n->n_data_deps; d++)
			et_buf_printf(out, " %" PRIu64, n->data_deps[d]);
		et_buf_putc(out, '\n');
	}
	et_buf_putc(out, '\0');
	et_arena_free(a);
}

static void check_dump(const char *table, uint32_t passes, const char *want)
{
	loaded l;
	if (run(table, 2, passes, false, &l) < 0)
		return;
	CHECK(l.nranks == 2);
	et_buf got = {0};
	dump(&l, 0, &got);
	if (strcmp((const char *)got.data, want) != 0)
		fprintf(stderr, "--- got:\n%s--- want:\n%s", (const char *)got.data, want);
	CHECK(strcmp((const char *)got.data, want) == 0);
	/* both ranks the same bytes: ids from 0 in every rank */
	CHECK(l.msgs[0].len == l.msgs[1].len &&
	      memcmp(l.msgs[0].data, l.msgs[1].data, l.msgs[0].len) == 0);
	et_buf_free(&got);
	loaded_free(&l);
}

/* --- wiring per parallelism, 2 passes; expected lists written by hand --- */

static void test_micro(void)
{
	check_dump("MICRO\n2\n"
	           "a -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 100 0\n"
	           "b -1 4 NONE 0 5 NONE 0 6 REDUCESCATTER 200 0\n",
	           2,
	           "0 COMM_COLL_NODE_a_ALLREDUCE\n"
	           "1 COMM_COLL_NODE_b_REDUCESCATTER\n"
	           "2 COMM_COLL_NODE_a_ALLREDUCE\n"
	           "3 COMM_COLL_NODE_b_REDUCESCATTER\n");
}

static const char data_table[] = "DATA\n3\n"
                                 "a -1 11 NONE 0 12 NONE 0 13 ALLREDUCE 100 1\n"
                                 "b -1 21 NONE 0 22 NONE 0 23 NONE 0 1\n"
                                 "c -1 31 NONE 0 32 NONE 0 33 ALLREDUCE 300 1\n";

/* FWD(i) <- FWD(i-1), then the previous pass's WG comm(i); backward from
 * the top: WG <- last FWD or the IG above, WG comm <- WG (also NONE),
 * IG <- WG except for layer 0. */
static const char data_want[] = "0 COMP_NODE_a_FWD\n"
                                "1 COMP_NODE_b_FWD 0\n"
                                "2 COMP_NODE_c_FWD 1\n"
                                "3 COMP_NODE_c_BWD_WG 2\n"
                                "4 COMM_COLL_NODE_c_ALLREDUCE 3\n"
                                "5 COMP_NODE_c_BWD_IG 3\n"
                                "6 COMP_NODE_b_BWD_WG 5\n"
                                "7 COMM_COLL_NODE_b_NONE 6\n"
                                "8 COMP_NODE_b_BWD_IG 6\n"
                                "9 COMP_NODE_a_BWD_WG 8\n"
                                "10 COMM_COLL_NODE_a_ALLREDUCE 9\n"
                                "11 COMP_NODE_a_FWD 10\n"
                                "12 COMP_NODE_b_FWD 11 7\n"
                                "13 COMP_NODE_c_FWD 12 4\n"
                                "14 COMP_NODE_c_BWD_WG 13\n"
                                "15 COMM_COLL_NODE_c_ALLREDUCE 14\n"
                                "16 COMP_NODE_c_BWD_IG 14\n"
                                "17 COMP_NODE_b_BWD_WG 16\n"
                                "18 COMM_COLL_NODE_b_NONE 17\n"
                                "19 COMP_NODE_b_BWD_IG 17\n"
                                "20 COMP_NODE_a_BWD_WG 19\n"
                                "21 COMM_COLL_NODE_a_ALLREDUCE 20\n";

static void test_data(void)
{
	check_dump(data_table, 2, data_want);
}

/* FWD(i) <- FWD comm(i-1), then the previous pass's BWD_WG(i); FWD comm <-
 * FWD; backward: IG <- last FWD comm, or WG and IG comm of the layer
 * above; IG comm <- IG except layer 0; WG <- IG. */
static void test_model(void)
{
	check_dump("MODEL\n3\n"
	           "a -1 11 ALLGATHER 10 12 ALLREDUCE 20 13 NONE 0 1\n"
	           "b -1 21 ALLGATHER 30 22 ALLREDUCE 40 23 NONE 0 1\n"
	           "c -1 31 ALLGATHER 50 32 REDUCESCATTER 60 33 NONE 0 1\n",
	           2,
	           "0 COMP_NODE_a_FWD\n"
	           "1 COMM_COLL_NODE_a_ALLGATHER 0\n"
	           "2 COMP_NODE_b_FWD 1\n"
	           "3 COMM_COLL_NODE_b_ALLGATHER 2\n"
	           "4 COMP_NODE_c_FWD 3\n"
	           "5 COMM_COLL_NODE_c_ALLGATHER 4\n"
	           "6 COMP_NODE_c_BWD_IG 5\n"
	           "7 COMM_COLL_NODE_c_REDUCESCATTER 6\n"
	           "8 COMP_NODE_c_BWD_WG 6\n"
	           "9 COMP_NODE_b_BWD_IG 8 7\n"
	           "10 COMM_COLL_NODE_b_ALLREDUCE 9\n"
	           "11 COMP_NODE_b_BWD_WG 9\n"
	           "12 COMP_NODE_a_BWD_IG 11 10\n"
	           "13 COMP_NODE_a_BWD_WG 12\n"
	           "14 COMP_NODE_a_FWD 13\n"
	           "15 COMM_COLL_NODE_a_ALLGATHER 14\n"
	           "16 COMP_NODE_b_FWD 15 11\n"
	           "17 COMM_COLL_NODE_b_ALLGATHER 16\n"
	           "18 COMP_NODE_c_FWD 17 8\n"
	           "19 COMM_COLL_NODE_c_ALLGATHER 18\n"
	           "20 COMP_NODE_c_BWD_IG 19\n"
	           "21 COMM_COLL_NODE_c_REDUCESCATTER 20\n"
	           "22 COMP_NODE_c_BWD_WG 20\n"
	           "23 COMP_NODE_b_BWD_IG 22 21\n"
	           "24 COMM_COLL_NODE_b_ALLREDUCE 23\n"
	           "25 COMP_NODE_b_BWD_WG 23\n"
	           "26 COMP_NODE_a_BWD_IG 25 24\n"
	           "27 COMP_NODE_a_BWD_WG 26\n");
}

static const char hybrid_rows[] = "3\n"
                                  "a -1 11 ALLGATHER 10 12 ALLREDUCE 20 13 ALLREDUCE 70 1\n"
                                  "b -1 21 ALLGATHER 30 22 ALLREDUCE 40 23 ALLREDUCE 80 1\n"
                                  "c -1 31 ALLGATHER 50 32 ALLTOALL 60 33 ALLREDUCE 90 1\n";

/* As MODEL, but FWD(i) waits for the previous pass's WG comm(i) first, and
 * every WG has a WG comm; HYBRID_DATA_MODEL names the IG comms
 * <layer>_IG_COMM__<type>. */
static const char hybrid_want[] = "0 COMP_NODE_a_FWD\n"
                                  "1 COMM_COLL_NODE_a_ALLGATHER 0\n"
                                  "2 COMP_NODE_b_FWD 1\n"
                                  "3 COMM_COLL_NODE_b_ALLGATHER 2\n"
                                  "4 COMP_NODE_c_FWD 3\n"
                                  "5 COMM_COLL_NODE_c_ALLGATHER 4\n"
                                  "6 COMP_NODE_c_BWD_IG 5\n"
                                  "7 COMM_COLL_NODE_c_IG_COMM__ALLTOALL 6\n"
                                  "8 COMP_NODE_c_BWD_WG 6\n"
                                  "9 COMM_COLL_NODE_c_ALLREDUCE 8\n"
                                  "10 COMP_NODE_b_BWD_IG 8 7\n"
                                  "11 COMM_COLL_NODE_b_IG_COMM__ALLREDUCE 10\n"
                                  "12 COMP_NODE_b_BWD_WG 10\n"
                                  "13 COMM_COLL_NODE_b_ALLREDUCE 12\n"
                                  "14 COMP_NODE_a_BWD_IG 12 11\n"
                                  "15 COMP_NODE_a_BWD_WG 14\n"
                                  "16 COMM_COLL_NODE_a_ALLREDUCE 15\n"
                                  "17 COMP_NODE_a_FWD 16\n"
                                  "18 COMM_COLL_NODE_a_ALLGATHER 17\n"
                                  "19 COMP_NODE_b_FWD 13 18\n"
                                  "20 COMM_COLL_NODE_b_ALLGATHER 19\n"
                                  "21 COMP_NODE_c_FWD 9 20\n"
                                  "22 COMM_COLL_NODE_c_ALLGATHER 21\n"
                                  "23 COMP_NODE_c_BWD_IG 22\n"
                                  "24 COMM_COLL_NODE_c_IG_COMM__ALLTOALL 23\n"
                                  "25 COMP_NODE_c_BWD_WG 23\n"
                                  "26 COMM_COLL_NODE_c_ALLREDUCE 25\n"
                                  "27 COMP_NODE_b_BWD_IG 25 24\n"
                                  "28 COMM_COLL_NODE_b_IG_COMM__ALLREDUCE 27\n"
                                  "29 COMP_NODE_b_BWD_WG 27\n"
                                  "30 COMM_COLL_NODE_b_ALLREDUCE 29\n"
                                  "31 COMP_NODE_a_BWD_IG 29 28\n"
                                  "32 COMP_NODE_a_BWD_WG 31\n"
                                  "33 COMM_COLL_NODE_a_ALLREDUCE 32\n";

static void test_hybrid(void)
{
	char table[512], want[sizeof hybrid_want];
	snprintf(table, sizeof table, "HYBRID_DATA_MODEL\n%s", hybrid_rows);
	check_dump(table, 2, hybrid_want);
	/* HYBRID_MODEL_DATA: the same graph, IG comms named like the others */
	snprintf(table, sizeof table, "HYBRID_MODEL_DATA\n%s", hybrid_rows);
	char *o = want;
	for (const char *p = hybrid_want; *p;)
		if (strncmp(p, "_IG_COMM_", 9) == 0)
			p += 9;
		else
			*o++ = *p++;
	*o = '\0';
	check_dump(table, 2, want);
}

static const char dlrm_rows[] = "4\n"
                                "e -1 11 ALLTOALL 100 12 ALLTOALL 200 13 NONE 0 1\n"
                                "m -1 21 NONE 0 22 NONE 0 23 ALLREDUCE 300 1\n"
                                "n -1 31 NONE 0 32 NONE 0 33 NONE 0 1\n"
                                "t -1 41 NONE 0 42 NONE 0 43 ALLREDUCE 400 1\n";

/* Last bottom layer 2. FWD(i) <- the previous pass's WG comm(i), else its
 * WG(i); <- FWD(i-1); layer 2 also <- e's forward all-to-all (the only
 * forward comm). Backward from the top: WG <- last FWD, or the IG above
 * and the layer's own IG comm (e only); WG comm unless NONE; IG <- WG
 * except e; after t's IG (layer 2 + 1) a collective of e's IG type and
 * size, which e's WG waits for. */
static const char dlrm_want[] = "0 COMP_NODE_e_FWD\n"
                                "1 COMM_COLL_NODE_e_ALLTOALL 0\n"
                                "2 COMP_NODE_m_FWD 0\n"
                                "3 COMP_NODE_n_FWD 2 1\n"
                                "4 COMP_NODE_t_FWD 3\n"
                                "5 COMP_NODE_t_BWD_WG 4\n"
                                "6 COMM_COLL_NODE_t_ALLREDUCE 5\n"
                                "7 COMP_NODE_t_BWD_IG 5\n"
                                "8 COMM_COLL_NODE_e_ALLTOALL 7\n"
                                "9 COMP_NODE_n_BWD_WG 7\n"
                                "10 COMP_NODE_n_BWD_IG 9\n"
                                "11 COMP_NODE_m_BWD_WG 10\n"
                                "12 COMM_COLL_NODE_m_ALLREDUCE 11\n"
                                "13 COMP_NODE_m_BWD_IG 11\n"
                                "14 COMP_NODE_e_BWD_WG 13 8\n"
                                "15 COMP_NODE_e_FWD 14\n"
                                "16 COMM_COLL_NODE_e_ALLTOALL 15\n"
                                "17 COMP_NODE_m_FWD 12 15\n"
                                "18 COMP_NODE_n_FWD 9 17 16\n"
                                "19 COMP_NODE_t_FWD 6 18\n"
                                "20 COMP_NODE_t_BWD_WG 19\n"
                                "21 COMM_COLL_NODE_t_ALLREDUCE 20\n"
                                "22 COMP_NODE_t_BWD_IG 20\n"
                                "23 COMM_COLL_NODE_e_ALLTOALL 22\n"
                                "24 COMP_NODE_n_BWD_WG 22\n"
                                "25 COMP_NODE_n_BWD_IG 24\n"
                                "26 COMP_NODE_m_BWD_WG 25\n"
                                "27 COMM_COLL_NODE_m_ALLREDUCE 26\n"
                                "28 COMP_NODE_m_BWD_IG 26\n"
                                "29 COMP_NODE_e_BWD_WG 28 23\n";

static void test_dlrm(void)
{
	char table[512];
	snprintf(table, sizeof table, "HYBRID_DLRM 2\n%s", dlrm_rows);
	check_dump(table, 2, dlrm_want);
	snprintf(table, sizeof table, "HYBRID_DLRM_ENHANCED\t2\n%s", dlrm_rows);
	check_dump(table, 2, dlrm_want);
	/* the last bottom layer is the last layer: no extra collective */
	snprintf(table, sizeof table, "HYBRID_DLRM 3\n%s", dlrm_rows);
	check_dump(table, 1,
	           "0 COMP_NODE_e_FWD\n"
	           "1 COMM_COLL_NODE_e_ALLTOALL 0\n"
	           "2 COMP_NODE_m_FWD 0\n"
	           "3 COMP_NODE_n_FWD 2\n"
	           "4 COMP_NODE_t_FWD 3 1\n"
	           "5 COMP_NODE_t_BWD_WG 4\n"
	           "6 COMM_COLL_NODE_t_ALLREDUCE 5\n"
	           "7 COMP_NODE_t_BWD_IG 5\n"
	           "8 COMP_NODE_n_BWD_WG 7\n"
	           "9 COMP_NODE_n_BWD_IG 8\n"
	           "10 COMP_NODE_m_BWD_WG 9\n"
	           "11 COMM_COLL_NODE_m_ALLREDUCE 10\n"
	           "12 COMP_NODE_m_BWD_IG 10\n"
	           "13 COMP_NODE_e_BWD_WG 12\n");
}

/* Pass 3 onwards is pass 2 again, one pass (11 nodes) later. */
static void test_more_passes(void)
{
	loaded l;
	if (run(data_table, 1, 4, false, &l) < 0)
		return;
	CHECK(l.nmsgs[0] == 1 + 44);
	et_arena *a = et_arena_new();
	for (uint32_t k = 22; k < 44; k++) {
		et_node *n = node_at(a, &l, 0, k), *m = node_at(a, &l, 0, k - 11);
		CHECK(n && m && n->id == k && m->id == k - 11 && strcmp(n->name, m->name) == 0);
		CHECK(n && m && n->n_data_deps == m->n_data_deps);
		for (size_t d = 0; n && m && d < n->n_data_deps && d < m->n_data_deps; d++)
			CHECK(n->data_deps[d] == m->data_deps[d] + 11);
	}
	et_arena_free(a);
	loaded_free(&l);
}

/* --- nodes and metadata as the reference sets them ---------------------- */

static void test_attributes(void)
{
	loaded l;
	if (run("HYBRID_DLRM 2\n4\n"
	        "e -1 11 ALLTOALL 100 12 ALLTOALL 200 13 NONE 0 1\n"
	        "m -1 0 NONE 0 22 NONE 0 23 ALLGATHER 300 1\n"
	        "n -1 31 NONE 0 32 NONE 0 33 REDUCESCATTER 9223372036854775807 1\n"
	        "t -1 18446744073709551615 NONE 0 42 NONE 0 43 NONE 0 1\n",
	        1, 1, false, &l) < 0)
		return;
	et_arena *a = et_arena_new();
	et_node *n;
	int64_t v;
	/* a computation: its time, nothing else */
	n = node_at(a, &l, 0, 0);
	CHECK(n && n->type == ET_NODE_COMP && n->duration_micros == 11 && n->n_attr == 0);
	n = node_at(a, &l, 0, 2); /* m FWD: time 0 */
	CHECK(n && strcmp(n->name, "COMP_NODE_m_FWD") == 0 && n->duration_micros == 0);
	n = node_at(a, &l, 0, 4); /* t FWD */
	CHECK(n && n->duration_micros == UINT64_MAX);
	/* a collective: comm_type, comm_size, both int64_val, in that order */
	n = node_at(a, &l, 0, 1);
	CHECK(n && n->type == ET_NODE_COLL && n->duration_micros == 0 && n->n_attr == 2);
	if (n && n->n_attr == 2) {
		CHECK(strcmp(n->attr[0]->name, "comm_type") == 0);
		CHECK(n->attr[0]->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL);
		CHECK(n->attr[0]->int64_val == ET_COLL_ALL_TO_ALL);
		CHECK(strcmp(n->attr[1]->name, "comm_size") == 0);
		CHECK(n->attr[1]->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL);
		CHECK(n->attr[1]->int64_val == 100);
	}
	/* the extra collective after t's IG: e's input-gradient type and size */
	n = node_at(a, &l, 0, 7);
	CHECK(n && strcmp(n->name, "COMM_COLL_NODE_e_ALLTOALL") == 0);
	CHECK(n && et_attr_int(n, "comm_size", &v) && v == 200);
	n = node_at(a, &l, 0, 6); /* t's IG: no WG comm (NONE) before it */
	CHECK(n && strcmp(n->name, "COMP_NODE_t_BWD_IG") == 0);
	n = node_at(a, &l, 0, 8); /* n's WG comm: reduce-scatter, INT64_MAX bytes */
	CHECK(n && strcmp(n->name, "COMP_NODE_n_BWD_WG") == 0);
	n = node_at(a, &l, 0, 9);
	CHECK(n && strcmp(n->name, "COMM_COLL_NODE_n_REDUCESCATTER") == 0);
	CHECK(n && et_attr_int(n, "comm_type", &v) && v == ET_COLL_REDUCE_SCATTER);
	CHECK(n && et_attr_int(n, "comm_size", &v) && v == INT64_MAX);
	n = node_at(a, &l, 0, 12);
	CHECK(n && strcmp(n->name, "COMM_COLL_NODE_m_ALLGATHER") == 0);
	CHECK(n && et_attr_int(n, "comm_type", &v) && v == ET_COLL_ALL_GATHER);
	et_arena_free(a);
	loaded_free(&l);
	/* NONE is written as an all-reduce (comm_type 0, written though 0) */
	if (run(data_table, 1, 1, false, &l) < 0)
		return;
	a = et_arena_new();
	n = node_at(a, &l, 0, 7);
	CHECK(n && strcmp(n->name, "COMM_COLL_NODE_b_NONE") == 0 && n->n_attr == 2);
	CHECK(n && n->n_attr == 2 &&
	      n->attr[0]->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL &&
	      n->attr[0]->int64_val == 0 && n->attr[1]->int64_val == 0);
	et_arena_free(a);
	loaded_free(&l);
}

/* GlobalMetadata: no version, schema, and the input as Python's text mode
 * reads it (every line end "\n"). Rank headers: world and workload name. */
static void test_metadata(void)
{
	const char text[] = "MICRO\r\n1\r\nx -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 8 5\rtail";
	et_error e = {0};
	astxt t;
	CHECK(astxt_read(&t, "dir/m.txt", text, sizeof text - 1, &e) < 0);
	CHECK(strcmp(e.msg, "dir/m.txt: line 4: a layer beyond the 1 line 2 declares") == 0);
	const char ok[] = "MICRO\r\n1\r\nx -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 8 5\r\n\r\n \t\n";
	CHECK(convert_text("dir/m.txt", ok, sizeof ok - 1, 3, 1, false, out_path(), &e) == 0);
	loaded l;
	load(out_path(), &l);
	unlink(out_path());
	CHECK(l.nranks == 3 && l.world[2] == 3 && strcmp(l.name[1], "m") == 0);
	et_arena *a = et_arena_new();
	size_t len;
	const uint8_t *p = msg_at(&l, 0, 0, &len);
	et_meta *m = p ? et_meta_decode(a, p, len) : NULL;
	CHECK(m && strcmp(m->version, "") == 0 && m->n_attr == 2);
	if (m && m->n_attr == 2) {
		CHECK(strcmp(m->attr[0]->name, "schema") == 0);
		CHECK(strcmp(m->attr[0]->string_val, "1.0.2-chakra.1.0.0") == 0);
		CHECK(strcmp(m->attr[1]->name, "input_file") == 0);
		CHECK(strcmp(m->attr[1]->string_val,
		             "MICRO\n1\nx -1 5 NONE 0 5 NONE 0 5 ALLREDUCE 8 5\n\n \t\n") == 0);
	}
	et_arena_free(a);
	loaded_free(&l);
}

/* --- the reference's numbering ------------------------------------------- */

/* Rank r's node k is rank 0's with ids and dependencies moved by r x 22;
 * ids cross the one- and two-byte varint boundaries (127, 128) inside a
 * rank, which the canonical check in load() covers. */
static void test_compat(void)
{
	loaded l;
	if (run(data_table, 8, 2, true, &l) < 0)
		return;
	CHECK(l.nranks == 8);
	et_arena *a = et_arena_new();
	for (uint32_t r = 0; r < l.nranks; r++) {
		CHECK(l.nmsgs[r] == 23);
		for (uint32_t k = 0; k < 22; k++) {
			et_node *n = node_at(a, &l, r, k), *z = node_at(a, &l, 0, k);
			CHECK(n && z && n->id == 22 * r + k && strcmp(n->name, z->name) == 0);
			CHECK(n && z && n->n_data_deps == z->n_data_deps);
			for (size_t d = 0; n && z && d < n->n_data_deps && d < z->n_data_deps; d++)
				CHECK(n->data_deps[d] == z->data_deps[d] + 22 * r);
		}
		et_arena_reset(a);
	}
	et_arena_free(a);
	/* rank 0 is the default numbering's */
	loaded d;
	if (run(data_table, 1, 2, false, &d) == 0)
		CHECK(d.msgs[0].len == l.msgs[0].len &&
		      memcmp(d.msgs[0].data, l.msgs[0].data, d.msgs[0].len) == 0);
	loaded_free(&d);
	loaded_free(&l);
}

/* --- the corpus: reference node counts, 4 NPUs, 2 passes ---------------- */

static void check_corpus_file(const char *file, uint32_t want)
{
	char path[512];
	snprintf(path, sizeof path, "%s/astra-text/%s", datadir, file);
	et_buf text = {0};
	et_error e = {0};
	CHECK(et_buf_read_file(&text, path, ASTXT_MAX_TEXT, &e) == 0);
	for (int compat = 0; compat < 2; compat++) {
		CHECK(convert_text(path, (const char *)text.data, text.len, 4, 2, compat,
		                   out_path(), &e) == 0);
		if (e.code)
			fprintf(stderr, "%s\n", e.msg);
		loaded l;
		load(out_path(), &l);
		unlink(out_path());
		CHECK(l.nranks == 4);
		et_arena *a = et_arena_new();
		for (uint32_t r = 0; r < l.nranks; r++) {
			CHECK(l.nmsgs[r] == 1 + want);
			uint64_t base = compat ? (uint64_t)r * want : 0;
			/* ids in order, every dependency on an earlier node of the rank */
			for (uint32_t k = 0; k + 1 < l.nmsgs[r]; k++) {
				et_node *n = node_at(a, &l, r, k);
				CHECK(n && n->id == base + k);
				for (size_t d = 0; n && d < n->n_data_deps; d++)
					CHECK(n->data_deps[d] >= base && n->data_deps[d] < n->id);
			}
			et_arena_reset(a);
		}
		et_arena_free(a);
		loaded_free(&l);
	}
	et_buf_free(&text);
}

static void test_corpus(void)
{
	check_corpus_file("Resnet50_DataParallel.txt", 430);
	check_corpus_file("MLP_ModelParallel.txt", 58);
	check_corpus_file("MLP_HybridParallel_Data_Model.txt", 70);
	check_corpus_file("DLRM_HybridParallel.txt", 64);
	check_corpus_file("microAllReduce.txt", 2);
}

/* --compat chakra is the reference's output byte for byte: the corpus files
 * converted by Chakra's text converter itself for 4 NPUs and 2 passes
 * (tests/data/astra-text/reference, one file per NPU). */
static void check_reference(const char *file)
{
	char path[512];
	snprintf(path, sizeof path, "%s/astra-text/%s.txt", datadir, file);
	et_buf text = {0};
	et_error e = {0};
	CHECK(et_buf_read_file(&text, path, ASTXT_MAX_TEXT, &e) == 0);
	CHECK(convert_text(path, (const char *)text.data, text.len, 4, 2, true, out_path(), &e) ==
	      0);
	et_buf_free(&text);
	loaded ours, ref;
	load(out_path(), &ours);
	unlink(out_path());
	CHECK(ours.nranks == 4);
	for (uint32_t r = 0; r < ours.nranks; r++) {
		snprintf(path, sizeof path, "%s/astra-text/reference/%s.%u.et.zst", datadir, file,
		         r);
		load_from(path, r, &ref);
		CHECK(ref.nranks == 1 && ref.msgs[0].len == ours.msgs[r].len &&
		      memcmp(ref.msgs[0].data, ours.msgs[r].data, ref.msgs[0].len) == 0);
		loaded_free(&ref);
	}
	loaded_free(&ours);
}

static void test_reference(void)
{
	check_reference("Resnet50_DataParallel");
	check_reference("MLP_ModelParallel");
	check_reference("MLP_HybridParallel_Data_Model");
	check_reference("DLRM_HybridParallel");
	check_reference("microAllReduce");
}

/* --- refusals ------------------------------------------------------------ */

static void check_error(const char *text, size_t len, const char *want)
{
	astxt t;
	et_error e = {0};
	CHECK(astxt_read(&t, "t.txt", text, len, &e) < 0);
	CHECK(e.code == ET_EXIT_DATA);
	if (strcmp(e.msg, want) != 0)
		fprintf(stderr, "got:  %s\nwant: %s\n", e.msg, want);
	CHECK(strcmp(e.msg, want) == 0);
	CHECK(t.arena == NULL && t.layers == NULL);
	astxt_free(&t);
}

#define ERR(text, want) check_error(text, sizeof text - 1, want)
#define ROW "x -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n"

static void test_errors_header(void)
{
	ERR("", "t.txt: line 1: the input is empty; expected the parallelism");
	ERR(" \t\r\n", "t.txt: line 1: blank; expected the parallelism");
	ERR("PIPELINE\n1\n" ROW,
	    "t.txt: line 1: unknown parallelism \"PIPELINE\"; expected MICRO, "
	    "DATA, MODEL, HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_DLRM or "
	    "HYBRID_DLRM_ENHANCED");
	ERR("data\n1\n" ROW, "t.txt: line 1: unknown parallelism \"data\"; expected MICRO, DATA, "
	                     "MODEL, HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_DLRM or "
	                     "HYBRID_DLRM_ENHANCED");
	ERR("\xEF\xBB\xBF"
	    "DATA\n1\n" ROW,
	    "t.txt: line 1: a UTF-8 byte-order mark before the parallelism (the reference reads it "
	    "as part of the name and refuses the file)");
	ERR("HYBRID_TRANSFORMER\n1\n" ROW,
	    "t.txt: line 1: HYBRID_TRANSFORMER is not converted: Chakra's text converter refuses "
	    "it, and its model-parallel NPU group (which ranks each collective spans) has no "
	    "counterpart in the graphs it writes");
	ERR("HYBRID_CUSTOMIZED\n1\n" ROW,
	    "t.txt: line 1: HYBRID_CUSTOMIZED is not converted: Chakra's text converter refuses "
	    "it, and its per-layer parallelism (which dimensions each collective spans) has no "
	    "counterpart in the graphs it writes");
	ERR("DATA 4\n1\n" ROW, "t.txt: line 1: unexpected \"4\" after DATA");
	ERR("HYBRID_DLRM\n2\n" ROW ROW, "t.txt: line 1: HYBRID_DLRM needs the index of the last "
	                                "bottom layer after it (as in \"HYBRID_DLRM 4\")");
	ERR("HYBRID_DLRM x\n2\n" ROW ROW, "t.txt: line 1: expected the index of the last bottom "
	                                  "layer (0 to 65536), found \"x\"");
	ERR("HYBRID_DLRM 1 2\n2\n" ROW ROW,
	    "t.txt: line 1: unexpected \"2\" after the last bottom layer");
	ERR("DATA\n", "t.txt: line 2: the input ends; expected the number of layers");
	ERR("DATA\n\n" ROW, "t.txt: line 2: expected the number of layers (0 to 65536) alone, "
	                    "found a blank line");
	ERR("DATA\n1 2\n" ROW, "t.txt: line 2: expected the number of layers (0 to 65536) alone, "
	                       "found \"1\"");
	ERR("DATA\n-1\n" ROW, "t.txt: line 2: expected the number of layers (0 to 65536) alone, "
	                      "found \"-1\"");
	ERR("DATA\n65537\n" ROW, "t.txt: line 2: expected the number of layers (0 to 65536) alone, "
	                         "found \"65537\"");
}

static void test_errors_table(void)
{
	ERR("DATA\n2\n" ROW,
	    "t.txt: line 3: the input ends after 1 of the 2 layers line 2 declares");
	ERR("DATA\n1\n" ROW ROW, "t.txt: line 4: a layer beyond the 1 line 2 declares");
	ERR("DATA\n2\n" ROW "\n" ROW,
	    "t.txt: line 4: blank line inside the layer table (blank lines may only follow it)");
	ERR("DATA\n1\nx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4\n",
	    "t.txt: line 3: 11 columns; a layer has 12: name, reserved, then compute time, comm "
	    "type and comm size of the forward pass, the input gradient and the weight gradient, "
	    "then the update time");
	ERR("DATA\n1\nx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5 6\n",
	    "t.txt: line 3: 13 columns; a layer has 12: name, reserved, then compute time, comm "
	    "type and comm size of the forward pass, the input gradient and the weight gradient, "
	    "then the update time");
	ERR("DATA\n1\nx r 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: column 2 (reserved): expected an integer, found \"r\"");
	ERR("DATA\n1\nx -1 -1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: column 3 (forward compute time): expected a time (0 to "
	    "18446744073709551615), found \"-1\"");
	ERR("DATA\n1\nx -1 1 NONE 0 18446744073709551616 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: column 6 (input-gradient compute time): expected a time (0 to "
	    "18446744073709551615), found \"18446744073709551616\"");
	ERR("DATA\n1\nx -1 1 NONE 0 2 NONE 0 +3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: column 9 (weight-gradient compute time): expected a time (0 to "
	    "18446744073709551615), found \"+3\"");
	ERR("DATA\n1\nx -1 1 ALLREDUCE_LOCAL 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: column 4 (forward comm type): expected ALLREDUCE, ALLGATHER, ALLTOALL, "
	    "REDUCESCATTER or NONE (the reference writes any other as an all-reduce), found "
	    "\"ALLREDUCE_LOCAL\"");
	ERR("DATA\n1\nx -1 1 NONE 0 2 NONE 9223372036854775808 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: column 8 (input-gradient comm size): expected a size in bytes (0 to "
	    "9223372036854775807), found \"9223372036854775808\"");
	ERR("DATA\n1\nx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE -4 5\n",
	    "t.txt: line 3: column 11 (weight-gradient comm size): expected a size in bytes (0 to "
	    "9223372036854775807), found \"-4\"");
	ERR("DATA\n1\nx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5.0\n",
	    "t.txt: line 3: column 12 (update time): expected an integer, found \"5.0\"");
}

static void test_errors_dlrm(void)
{
	const char *rows = "2\n"
	                   "e -1 1 ALLTOALL 8 2 ALLTOALL 8 3 NONE 0 5\n"
	                   "m -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n";
	char text[256];
	snprintf(text, sizeof text, "HYBRID_DLRM 0\n%s", rows);
	check_error(text, strlen(text),
	            "t.txt: line 1: last bottom layer 0: expected 1 to 1 (layer 0 is the "
	            "embedding, whose all-to-all the last bottom layer waits for)");
	snprintf(text, sizeof text, "HYBRID_DLRM_ENHANCED 2\n%s", rows);
	check_error(text, strlen(text),
	            "t.txt: line 1: last bottom layer 2: expected 1 to 1 (layer 0 is the "
	            "embedding, whose all-to-all the last bottom layer waits for)");
	ERR("HYBRID_DLRM 1\n2\n" ROW ROW,
	    "t.txt: line 3: HYBRID_DLRM: layer 0's forward comm type is NONE; expected ALLTOALL "
	    "(the last bottom layer, 1, waits for it; the reference fails without it)");
	ERR("HYBRID_DLRM 1\n1\n" ROW, "t.txt: line 2: HYBRID_DLRM needs 2 or more layers: the "
	                              "embedding (layer 0) and the bottom layers after it");
}

static void test_errors_bytes(void)
{
	ERR("DATA\n1\nx\0 -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 2: control character 0x00");
	ERR("DATA\n1\n\x1bx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 1: control character 0x1B");
	ERR("DATA\n1\nx\xC2\x85y -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 2: U+0085, a space the reference splits columns at; use spaces "
	    "or tabs");
	ERR("DATA\n1\nx\xC2\xA0-1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 2: U+00A0, a space the reference splits columns at; use spaces or "
	    "tabs");
	ERR("DATA\n1\nx\xE3\x80\x80-1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 2: U+3000, a space the reference splits columns at; use spaces or "
	    "tabs");
	ERR("DATA\n1\nx\xC0\x80 -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 2: not UTF-8 (0xC0)");
	ERR("DATA\n1\nx\xED\xA0\x80 -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n",
	    "t.txt: line 3: byte 2: not UTF-8 (0xED)");
	ERR("DATA\n1\nx\xE2\x82", "t.txt: line 3: byte 2: not UTF-8 (0xE2)");
	/* a line of ASTXT_MAX_LINE bytes is read, one more is not */
	size_t n = 7 + ASTXT_MAX_LINE + 1;
	char *big = malloc(n + 1);
	memcpy(big, "DATA\n1\n", 7);
	memset(big + 7, 'x', n - 7);
	big[n] = '\0';
	check_error(
	    big, n - 1,
	    "t.txt: line 3: 1 column; a layer has 12: name, reserved, then compute time, "
	    "comm type and comm size of the forward pass, the input gradient and the weight "
	    "gradient, then the update time");
	check_error(big, n, "t.txt: line 3: longer than 4096 bytes");
	free(big);
	astxt t;
	et_error e = {0};
	CHECK(astxt_read(&t, "t.txt", "", (size_t)ASTXT_MAX_TEXT + 1, &e) < 0);
	CHECK(strcmp(e.msg, "t.txt: 16777217 bytes; a text workload has at most 16777216") == 0);
	astxt_free(&t);
}

/* The real files' quirks, and a layer name of any UTF-8. */
static void test_quirks(void)
{
	loaded l;
	/* CR alone ends a line too; runs of tabs; trailing tabs; no final newline */
	if (run("DATA\t\t\t\r1\t\t\r\n\t\xC3\xA9t\xC3\xA9\t\t-1 1 NONE 0 2 NONE 0 3\tALLREDUCE 4 5",
	        1, 1, false, &l) == 0) {
		et_buf d = {0};
		dump(&l, 0, &d);
		CHECK(strcmp((const char *)d.data,
		             "0 COMP_NODE_\xC3\xA9t\xC3\xA9_FWD\n"
		             "1 COMP_NODE_\xC3\xA9t\xC3\xA9_BWD_WG 0\n"
		             "2 COMM_COLL_NODE_\xC3\xA9t\xC3\xA9_ALLREDUCE 1\n") == 0);
		et_buf_free(&d);
	}
	loaded_free(&l);
	/* no layers: ranks of metadata alone, as the reference writes */
	const char *const empty[] = {"MICRO\n0\n", "DATA\n0", "MODEL\n0\n\n", "HYBRID_DLRM 0\n0\n",
	                             "HYBRID_DATA_MODEL\n0\n"};
	for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
		if (run(empty[i], 2, 3, true, &l) == 0)
			CHECK(l.nranks == 2 && l.nmsgs[0] == 1 && l.nmsgs[1] == 1);
		loaded_free(&l);
	}
	/* vertical tab and form feed separate columns, as in Python */
	if (run("MICRO\n1\nx\v-1\f1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\n", 1, 1, false, &l) == 0)
		CHECK(l.nmsgs[0] == 2);
	loaded_free(&l);
}

static void test_transformer(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/astra-text/Transformer_HybridParallel_Fwd_In_Bckwd.txt",
	         datadir);
	et_buf text = {0};
	et_error e = {0};
	CHECK(et_buf_read_file(&text, path, ASTXT_MAX_TEXT, &e) == 0);
	astxt t;
	CHECK(astxt_read(&t, "T.txt", (const char *)text.data, text.len, &e) < 0);
	CHECK(strcmp(e.msg, "T.txt: line 1: HYBRID_TRANSFORMER_FWD_IN_BCKWD is not converted: "
	                    "Chakra's text converter refuses it, and its model-parallel NPU group "
	                    "and its forward recomputation from checkpoints have no counterpart in "
	                    "the graphs it writes") == 0);
	astxt_free(&t);
	et_buf_free(&text);
}

/* Sizes are refused before anything is written: no output file. */
static void check_size_error(uint32_t world, uint32_t passes, const char *want)
{
	et_error e = {0};
	CHECK(convert_text("t.txt", data_table, strlen(data_table), world, passes, true, out_path(),
	                   &e) < 0);
	CHECK(e.code == ET_EXIT_USAGE);
	if (strcmp(e.msg, want) != 0)
		fprintf(stderr, "got:  %s\nwant: %s\n", e.msg, want);
	CHECK(strcmp(e.msg, want) == 0);
	CHECK(access(out_path(), F_OK) != 0);
}

static void test_limits(void)
{
	check_size_error(0, 2, "t.txt: the number of NPUs (--world) must be 1 or more");
	check_size_error(4, 0, "t.txt: the number of passes (--passes) must be 1 or more");
	check_size_error(
	    1, 400000,
	    "t.txt: 400000 passes of 11 nodes make 4400000 nodes per rank, more than "
	    "the 4194304 the suite reads by default (--max-rank-nodes); use fewer passes");
	check_size_error(UINT32_MAX, 2,
	                 "t.txt: 4294967295 ranks of 22 nodes make 94489280490 nodes, more than "
	                 "2^32; use fewer ranks or passes");
}

/* The driver for astxt.bats: FILE WORLD PASSES default|chakra OUT. */
static int driver(char **argv)
{
	et_err_set_prog("test_astxt");
	et_buf text = {0};
	et_error e = {0};
	int r = et_buf_read_file(&text, argv[0], ASTXT_MAX_TEXT, &e);
	if (r == 0)
		r = convert_text(argv[0], text.len ? (const char *)text.data : "", text.len,
		                 (uint32_t)strtoul(argv[1], NULL, 10),
		                 (uint32_t)strtoul(argv[2], NULL, 10),
		                 strcmp(argv[3], "chakra") == 0, argv[4], &e);
	et_buf_free(&text);
	if (r < 0)
		et_err_print(&e);
	return r < 0 ? e.code : 0;
}

int main(int argc, char **argv)
{
	if (argc == 7 && strcmp(argv[1], "--convert") == 0)
		return driver(argv + 2);
	datadir = argc > 1 ? argv[1] : "tests/data";
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_astxt.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_micro();
	test_data();
	test_model();
	test_hybrid();
	test_dlrm();
	test_more_passes();
	test_attributes();
	test_metadata();
	test_compat();
	test_corpus();
	test_reference();
	test_errors_header();
	test_errors_table();
	test_errors_dlrm();
	test_errors_bytes();
	test_quirks();
	test_transformer();
	test_limits();
	rmdir(tmpdir);
	return check_failures();
}
