/* xir and its emitter on a hand-built 4-rank program: every rank's nodes
 * (JSONL through et_writer), with the expected ones written out here from
 * the mapping of xir_emit.h:
 *   0 dot            COMP, 2*64*32*16 FLOPs, gemm 64,32,16,1
 *   1 all-reduce     over {0,1},{2,3} -> pg 1 on ranks 0,1, pg 2 on 2,3
 *   2 all-gather     over every rank -> pg 0
 *   3 permute        0->1, 1->2, 2->3: rank 0 sends only, 3 receives only
 *   4 all-reduce     over {0,1} only: ranks 2 and 3 skip it (pg 1 again)
 *   5 add            COMP after 3 and 4
 * so ranks fall into three classes (send only; both; receive only + skip). */
#include "check.h"
#include "et-convert/xir/xir.h"
#include "et-convert/xir/xir_emit.h"
#include "et_buf.h"
#include "et_output.h"
#include "et_types.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void build(xir *x)
{
	xir_init(x);
	x->module = (char *)xir_str(x, "prog", SIZE_MAX);
	x->replicas = 1;
	x->partitions = 4;
	xir_op dot = {.kind = XIR_COMP,
	              .name = "dot.1",
	              .opcode = "dot",
	              .flops = 2 * 64 * 32 * 16,
	              .bytes = 4096,
	              .gemm = {64, 32, 16, 1},
	              .channel = -1};
	uint32_t d0 = xir_add(x, &dot, NULL, 0);
	uint32_t g2[] = {0, 1, 2, 3};
	xir_op ar = {.kind = XIR_COLL,
	             .name = "ar.1",
	             .opcode = "all-reduce",
	             .bytes = 1024,
	             .coll = ET_COLL_ALL_REDUCE,
	             .set = xir_groups(x, 2, 2, g2),
	             .channel = 1};
	uint32_t d1 = xir_add(x, &ar, &d0, 1);
	xir_op ag = {.kind = XIR_COLL,
	             .name = "ag.1",
	             .opcode = "all-gather",
	             .bytes = 256,
	             .coll = ET_COLL_ALL_GATHER,
	             .set = xir_groups(x, 1, 0, NULL),
	             .channel = 2};
	uint32_t d2 = xir_add(x, &ag, &d1, 1);
	uint32_t pairs[] = {0, 1, 1, 2, 2, 3};
	xir_op cp = {.kind = XIR_PERMUTE,
	             .name = "cp.1",
	             .opcode = "collective-permute",
	             .bytes = 512,
	             .set = xir_pairs(x, 3, pairs),
	             .channel = 7};
	uint32_t d3 = xir_add(x, &cp, &d2, 1);
	uint32_t sub[] = {0, 1};
	xir_op ar2 = {.kind = XIR_COLL,
	              .name = "ar.2",
	              .opcode = "all-reduce",
	              .bytes = 64,
	              .coll = ET_COLL_ALL_REDUCE,
	              .set = xir_groups(x, 1, 2, sub),
	              .channel = 3};
	uint32_t d4 = xir_add(x, &ar2, &d2, 1);
	uint32_t both[] = {d3, d4, d3};
	xir_op add = {.kind = XIR_COMP,
	              .name = "add.1",
	              .opcode = "add",
	              .flops = 100,
	              .bytes = 1200,
	              .channel = -1};
	xir_add(x, &add, both, 3);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	et_buf b = {0};
	char tmp[4096];
	size_t n;
	while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
		et_buf_append(&b, tmp, n);
	fclose(f);
	et_buf_append(&b, "", 1);
	return (char *)b.data;
}

/* The JSONL line of rank r's node named `name` (NULL if none). */
static const char *node_line(const char *text, int r, const char *name, char *out, size_t n)
{
	char key[128];
	snprintf(key, sizeof key, "{\"rank\":%d,", r);
	char nm[128];
	snprintf(nm, sizeof nm, "\"name\":\"%s\"", name);
	for (const char *p = text; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l < n && strncmp(p, key, strlen(key)) == 0) {
			memcpy(out, p, l);
			out[l] = 0;
			if (strstr(out, nm))
				return out;
		}
		p = e ? e + 1 : NULL;
	}
	return NULL;
}

static bool has(const char *text, int r, const char *name, const char *want)
{
	char line[4096];
	const char *l = node_line(text, r, name, line, sizeof line);
	if (!l) {
		fprintf(stderr, "rank %d: no node %s\n", r, name);
		return false;
	}
	if (want && !strstr(l, want)) {
		fprintf(stderr, "rank %d: %s lacks %s: %s\n", r, name, want, l);
		return false;
	}
	return true;
}

int main(void)
{
	xir x;
	build(&x);
	CHECK(x.nop == 6 && x.nset == 4 && xir_ranks(&x) == 4);
	/* the repeated dependency of add.1 counted once */
	CHECK(x.op[5].n_deps == 2);

	char path[] = "/tmp/test_xir_XXXXXX", gpath[64];
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	snprintf(gpath, sizeof gpath, "%s.groups", path);
	et_writer_cfg wc;
	et_writer_cfg_init(&wc);
	wc.path = path;
	wc.format = ET_WRITER_JSONL;
	et_writer *w;
	et_error e;
	CHECK(et_writer_open(&w, &wc, &e) == 0);
	xir_emit_opts o = {
	    .input = "prog.hlo", .groups = gpath, .peak_tflops = 1, .mem_gbps = 1, .progress = -1};
	CHECK(et_writer_finish(w, xir_emit(&x, &o, w, &e), &e) == 0);
	CHECK(et_output_commit_all(&e) == 0); /* the groups, with the trace */
	char *t = slurp(path), *g = slurp(gpath);
	CHECK(t && g);
	/* groups: {0,1} and {2,3} get 1 and 2; {0,1} again is 1; all ranks are 0 */
	CHECK(g && strcmp(g, "{\"1\": [0, 1], \"2\": [2, 3]}\n") == 0);
	for (int r = 0; t && r < 4; r++) {
		CHECK(has(t, r, "dot.1", "\"gemm_m\",\"int64Val\":64"));
		CHECK(has(t, r, "dot.1", "\"name\":\"num_ops\",\"int64Val\":65536"));
		/* roofline at 1 TFLOP/s and 1 GB/s: max(65.5 ns, 4096 ns) = 4 us */
		CHECK(has(t, r, "dot.1", "\"durationMicros\":4"));
		CHECK(has(t, r, "ar.1", r < 2 ? "\"stringVal\":\"1\"" : "\"stringVal\":\"2\""));
		CHECK(has(t, r, "ag.1", "\"pg_name\",\"stringVal\":\"0\""));
		CHECK(has(t, r, "ag.1", "\"dataDeps\":[1]"));
		/* collectives in program order: ag.1 after ar.1 */
		CHECK(has(t, r, "ag.1", "\"ctrlDeps\":[1]"));
	}
	/* the permute: rank 0 sends to 1, rank 3 receives from 2, 1 and 2 both */
	CHECK(has(t, 0, "cp.1.send", "\"comm_dst\",\"int32Val\":1"));
	CHECK(!node_line(t, 0, "cp.1.recv", (char[64]){0}, 64));
	CHECK(has(t, 1, "cp.1.recv", "\"comm_src\",\"int32Val\":0"));
	CHECK(has(t, 1, "cp.1.send", "\"comm_dst\",\"int32Val\":2"));
	CHECK(has(t, 3, "cp.1.recv", "\"comm_tag\",\"int32Val\":7"));
	CHECK(!node_line(t, 3, "cp.1.send", (char[64]){0}, 64));
	/* ar.2 on ranks 0 and 1 only; add.1 waits for the permute's nodes and ar.2,
	 * or on a rank that skips ar.2, for what ar.2 waited for (ag.1, id 2) */
	CHECK(has(t, 0, "ar.2", "\"stringVal\":\"1\""));
	CHECK(has(t, 0, "ar.2", "\"ctrlDeps\":[2]"));
	CHECK(!node_line(t, 2, "ar.2", (char[64]){0}, 64));
	CHECK(has(t, 0, "add.1", "\"dataDeps\":[3,4]"));
	CHECK(has(t, 1, "add.1", "\"dataDeps\":[3,4,5]"));
	CHECK(has(t, 2, "add.1", "\"dataDeps\":[3,4,2]"));
	CHECK(has(t, 3, "add.1", "\"dataDeps\":[3,2]"));
	free(t);
	free(g);
	unlink(path);
	unlink(gpath);

	/* --world against the program's 4 ranks: a usage error */
	et_writer_cfg_init(&wc);
	wc.path = "/dev/null";
	CHECK(et_writer_open(&w, &wc, &e) == 0);
	o = (xir_emit_opts){.input = "prog.hlo", .world = 8, .progress = -1};
	CHECK(xir_emit(&x, &o, w, &e) < 0 && e.code == ET_EXIT_USAGE &&
	      strstr(e.msg, "--world 8: prog.hlo has 4 ranks"));
	et_writer_close(w, false, &e);
	/* a group naming device 4 of 4 ranks: bad input */
	uint32_t bad[] = {3, 4};
	xir_op ar = {.kind = XIR_COLL,
	             .name = "ar.9",
	             .opcode = "all-reduce",
	             .bytes = 8,
	             .coll = ET_COLL_ALL_REDUCE,
	             .set = xir_groups(&x, 1, 2, bad),
	             .channel = -1};
	xir_add(&x, &ar, NULL, 0);
	et_writer_cfg_init(&wc);
	wc.path = "/dev/null";
	CHECK(et_writer_open(&w, &wc, &e) == 0);
	o = (xir_emit_opts){.input = "prog.hlo", .progress = -1};
	CHECK(xir_emit(&x, &o, w, &e) < 0 && e.code == ET_EXIT_DATA &&
	      strstr(e.msg, "ar.9: its groups name device 4, the program has 4 ranks"));
	et_writer_close(w, false, &e);
	xir_free(&x);
	return check_failures();
}
