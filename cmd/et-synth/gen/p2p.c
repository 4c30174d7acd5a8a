/* et-synth p2p: point-to-point patterns. Every send has exactly one
 * matching receive (same src, dst, tag, size, occurrence), so the set
 * validates and replays without deadlock: sends never wait (ASTRA-sim
 * buffers them) and a round starts only after the last round's receives. */
#include "et-synth/synth.h"
#include "et_build.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "Usage: et-synth p2p --pattern PATTERN --size BYTES --world N [OPTIONS]\n"
    "Send/receive patterns with comm_src, comm_dst, comm_tag and comm_size.\n"
    "\n";

enum { PAT_RING, PAT_PAIRS, PAT_ALL };

typedef struct p2p_conf {
	synth_opts so;
	int pattern;
	int64_t size;
	uint32_t count;
	int32_t tag;
} p2p_conf;

static const char *const patterns[] = {"ring", "pairs", "all", NULL};

static int opt_tag(et_cli *cli, const et_opt *o, const char *arg)
{
	*(int32_t *)o->target = (int32_t)et_cli_int(cli, "--tag", arg, 0, INT32_MAX / 2);
	return 0;
}

static void parse(p2p_conf *c, int argc, char **argv)
{
	synth_opts_init(&c->so);
	c->pattern = -1;
	c->size = -1;
	c->count = 1;
	et_opt opts[] = {
	    ET_OPT_CHOICE(
	        'p', "pattern", "P",
	        "ring (send to r+1, receive from r-1), pairs (0<->1, 2<->3, ...; N even), all "
	        "(every rank to every other)",
	        &c->pattern, .choices = patterns),
	    ET_OPT_FN('s', "size", "BYTES", "comm_size of every message (4096, 64K, 1M)", &c->size,
	              .fn = synth_opt_size),
	    SYNTH_OPT_WORLD(&c->so, "number of ranks (at least 2)"),
	    ET_OPT_U32(
	        'c', "count", "K",
	        "rounds (default 1); round k uses tag TAG+k and starts after the receives of round "
	        "k-1",
	        &c->count, .min = 1, .max = 1 << 20),
	    ET_OPT_FN(0, "tag", "TAG", "first comm_tag (default 0)", &c->tag, .fn = opt_tag),
	    SYNTH_OPT_IDS(&c->so, "local (default) or global (ids count across ranks)"),
	    SYNTH_OPTS(&c->so),
	    ET_OPT_END,
	};
	synth_parse(&c->so, "p2p", usage, opts, argc, argv, true, false);
	if (c->pattern < 0 || c->size < 0)
		et_cli_usage_error(&c->so.cli, "--pattern and --size are required");
	if (c->so.world < 2)
		et_cli_usage_error(&c->so.cli, "--world: point-to-point needs at least 2 ranks");
	if (c->pattern == PAT_PAIRS && c->so.world % 2)
		et_cli_usage_error(&c->so.cli, "--pattern pairs needs an even --world");
	if (c->so.world > 4096 && c->pattern == PAT_ALL)
		et_cli_usage_error(&c->so.cli, "--pattern all: at most 4096 ranks");
}

/* Number of peers a rank sends to (and receives from) per round. */
static uint32_t n_peers(const p2p_conf *c)
{
	return c->pattern == PAT_ALL ? c->so.world - 1 : 1;
}

/* Peer of step s (0-based) of rank r: the one r sends to, and (send ==
 * false) the one it receives from. */
static uint32_t peer(const p2p_conf *c, uint32_t r, uint32_t s, bool send)
{
	uint32_t n = c->so.world;
	if (c->pattern == PAT_PAIRS)
		return r ^ 1u;
	uint32_t d = s + 1;
	return send ? (r + d) % n : (r + n - d) % n;
}

static int round_nodes(const p2p_conf *c, emitter *em, uint32_t r, uint32_t k, uint64_t base,
                       et_error *e)
{
	uint32_t np = n_peers(c);
	uint64_t first = base + (uint64_t)k * 2 * np, prev = first - 2 * np;
	char name[48];
	for (uint32_t s = 0; s < 2 * np; s++) {
		bool send = s < np;
		uint32_t p = peer(c, r, send ? s : s - np, send);
		snprintf(name, sizeof name, send ? "send_to_%u" : "recv_from_%u", p);
		et_node *n = et_build_p2p(em->arena, first + s, name, send, (int32_t)(send ? r : p),
		                          (int32_t)(send ? p : r), c->tag + (int32_t)k, c->size);
		for (uint32_t j = 0; k && j < np; j++)
			et_build_data_dep(em->arena, n, prev + np + j); /* last round's receives */
		if (emit_node(em, n, e) < 0)
			return -1;
	}
	return 0;
}

static int run(const p2p_conf *c, et_error *e)
{
	static const char *const pname[] = {"ring", "pairs", "all"};
	char sz[32], name[96];
	size_label((uint64_t)c->size, sz, sizeof sz);
	snprintf(name, sizeof name, "p2p_%s_%unpus_%s", pname[c->pattern], c->so.world, sz);
	emitter em;
	if (emit_open(&em, &c->so, name, e) < 0)
		return -1;
	uint64_t per_rank = (uint64_t)c->count * 2 * n_peers(c);
	int r = 0;
	for (uint32_t rank = 0; rank < c->so.world && r == 0; rank++) {
		uint64_t base = c->so.global_ids ? rank * per_rank : 0;
		r = emit_rank_begin(&em, rank, "0.0.4", e);
		for (uint32_t k = 0; k < c->count && r == 0; k++)
			r = round_nodes(c, &em, rank, k, base, e);
		if (r == 0)
			r = emit_rank_end(&em, e);
	}
	return emit_finish(&em, r, e);
}

int cmd_p2p(int argc, char **argv)
{
	p2p_conf c;
	memset(&c, 0, sizeof c);
	parse(&c, argc, argv);
	et_error e = {0};
	return synth_exit(run(&c, &e), &e);
}
