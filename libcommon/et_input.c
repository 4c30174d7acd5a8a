#include "et_input.h"
#include "et_arena.h"
#include "et_buf.h"
#include "et_codec.h"
#include "et_crule.h"
#include "et_json.h"
#include "et_jsonscan.h"
#include "et_mem.h"
#include "et_ranklist.h"
#include "et_src.h"
#include "et_stream.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct item {
	char *path;
	int64_t rank;      /* from the PREFIX.N.et convention, or -1 */
	uint32_t set_size; /* files in its PREFIX set, 0 if a plain file */
} item;

struct et_input {
	et_input_opts o;
	item *items;
	size_t n_items, cap_items, next_item;
	et_src *src;
	et_format fmt; /* of the open source */
	et_json_reader *jr;
	bool rank_open;      /* a rank was returned and is being read */
	uint64_t n_returned; /* ranks returned (selected) so far */
	bool single_done;
	item *cur_item;
	et_rank_info ri;
	uint64_t msg_index;
	uint64_t rank_bytes; /* of the current rank, for max_rank_bytes */
	et_arena *arena;
	uint32_t *seen; /* open-addressing set of ranks, value+1 (0 = empty) */
	size_t seen_cap, seen_n;
	/* class_rules: per class id of the open source, what its bytes of
	 * generation gen_read allow, and the generation returned in full */
	struct in_class {
		uint64_t gen_read, gen_full;
		et_crule_class c;
	} * cls;
	/* what ri.class_gen adds to the open source's generations: the
	 * generations of the sources before it, so that a class_gen names one
	 * class's bytes across all inputs (a consumer that decides ahead of
	 * the ranks, et_input_opts.want_rule, must not mistake one input's
	 * class for another's) */
	uint64_t gen_base;
	et_arena *rule_arena; /* et_crule_rule_vals' strings, reset each rank */
	et_crule_val *vals;
	size_t vals_cap;
};

static const char *const format_names[] = {"auto",   "stream", "et",        "json",      "pytorch",
                                           "kineto", "hlo",    "stablehlo", "astra-text"};

const char *et_format_name(et_format f)
{
	return (unsigned)f < sizeof format_names / sizeof *format_names ? format_names[f] : "?";
}

et_format et_format_parse(const char *s)
{
	for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
		if (strcasecmp(s, format_names[i]) == 0)
			return (et_format)i;
	if (strcasecmp(s, "jsonl") == 0)
		return ET_FMT_JSON;
	return (et_format)-1;
}

void et_input_opts_init(et_input_opts *o)
{
	memset(o, 0, sizeof *o);
	o->set_rank = -1;
	o->check_dup = true;
}

/* PREFIX.N.et[.gz|.zst] -> N, else -1. */
static int64_t rank_from_name(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	static const char *const sfx[] = {".et", ".et.gz", ".et.zst"};
	for (size_t k = 0; k < 3; k++) {
		size_t sl = strlen(sfx[k]);
		if (n <= sl || strcmp(base + n - sl, sfx[k]) != 0)
			continue;
		size_t end = n - sl, i = end;
		while (i > 0 && base[i - 1] >= '0' && base[i - 1] <= '9')
			i--;
		if (i == end || i == 0 || base[i - 1] != '.' || end - i > 9)
			return -1;
		return strtoll(base + i, NULL, 10);
	}
	return -1;
}

static bool is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && !S_ISDIR(st.st_mode);
}

static void add_item(et_input *in, const char *path, int64_t rank, uint32_t set_size)
{
	ET_GROW(in->items, in->cap_items, in->n_items + 1);
	in->items[in->n_items++] = (item){et_xstrdup(path), rank, set_size};
}

/* The highest k of the files PREFIX.k.et beside PREFIX, -1 if none. */
static int64_t highest_rank_file(const char *prefix)
{
	const char *slash = strrchr(prefix, '/');
	char dir[4096];
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - prefix) : 1, slash ? prefix : ".");
	if (slash == prefix)
		snprintf(dir, sizeof dir, "/");
	const char *base = slash ? slash + 1 : prefix;
	size_t bl = strlen(base);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int64_t hi = -1;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *nm = de->d_name, *q;
		if (strncmp(nm, base, bl) != 0 || nm[bl] != '.' ||
		    !isdigit((unsigned char)nm[bl + 1]))
			continue;
		char *end;
		unsigned long long k = strtoull(nm + bl + 1, &end, 10);
		q = end;
		if (strcmp(q, ".et") == 0 && k < ET_MAX_WORLD && (int64_t)k > hi)
			hi = (int64_t)k;
	}
	closedir(d);
	return hi;
}

/* Files of the set beyond the n found: a gap (PREFIX.3.et missing of 8),
 * or more files than --world says. */
static int check_set_end(et_input *in, const char *prefix, uint32_t n, et_error *e)
{
	int64_t hi = highest_rank_file(prefix);
	if (hi < (int64_t)n)
		return 0;
	if (in->o.world)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: %s.%lld.et exists: the set has more files than --world %u",
		               prefix, prefix, (long long)hi, in->o.world);
	/* name the missing ranks (the first few) */
	char list[96] = "";
	size_t len = 0, shown = 0, missing = 0;
	char path[4200];
	for (int64_t k = n; k < hi; k++) {
		snprintf(path, sizeof path, "%s.%lld.et", prefix, (long long)k);
		if (is_file(path))
			continue;
		missing++;
		if (shown++ < 8 && len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%lld",
			                        len ? ", " : "", (long long)k);
	}
	return et_fail(e, ET_EXIT_DATA,
	               "%s: per-rank set with a gap: files up to %s.%lld.et exist but not "
	               "rank%s %s%s",
	               prefix, prefix, (long long)hi, missing > 1 ? "s" : "", list,
	               missing > shown ? ", ..." : "");
}

/* PREFIX -> PREFIX.0.et, PREFIX.1.et, ... (until the first missing, or
 * exactly o->world files). */
static int add_prefix_set(et_input *in, const char *prefix, et_error *e)
{
	size_t len = strlen(prefix) + 24;
	char *p = et_xmalloc(len);
	uint32_t n = 0;
	for (;; n++) {
		snprintf(p, len, "%s.%u.et", prefix, n);
		if (in->o.world ? n >= in->o.world : !is_file(p))
			break;
		if (!is_file(p)) {
			et_fail(e, ET_EXIT_IO,
			        "%s: missing per-rank file of a %u-rank set (--world %u)", p,
			        in->o.world, in->o.world);
			free(p);
			return -1;
		}
	}
	free(p);
	if (check_set_end(in, prefix, n, e) < 0)
		return -1;
	p = et_xmalloc(len);
	for (uint32_t r = 0; r < n; r++) {
		snprintf(p, len, "%s.%u.et", prefix, r);
		add_item(in, p, r, n);
	}
	free(p);
	return 0;
}

/* The items of the arguments: files, "-", and PREFIX sets. */
static int add_args(et_input *in, int argc, char *const argv[], et_error *e)
{
	if (argc == 0)
		add_item(in, "-", -1, 0);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-") == 0 || is_file(a)) {
			add_item(in, a, rank_from_name(a), 0);
			continue;
		}
		char probe[4096];
		snprintf(probe, sizeof probe, "%s.0.et", a);
		if (is_file(probe)) {
			if (add_prefix_set(in, a, e) < 0)
				return -1;
			continue;
		}
		struct stat st;
		if (stat(a, &st) == 0 && S_ISDIR(st.st_mode))
			return et_fail(e, ET_EXIT_IO,
			               "%s: is a directory (give a file, or a per-rank set PREFIX "
			               "for PREFIX.0.et, PREFIX.1.et, ...)",
			               a);
		return et_fail(e, ET_EXIT_IO, "%s: no such file (nor a per-rank set %s.N.et)", a,
		               a);
	}
	return 0;
}

int et_input_open(et_input **out, int argc, char *const argv[], const et_input_opts *o, et_error *e)
{
	et_input *in = et_xcalloc(1, sizeof *in);
	if (o)
		in->o = *o;
	else
		et_input_opts_init(&in->o);
	if (!in->o.max_msg)
		in->o.max_msg = 256u << 20;
	if (!in->o.max_nodes)
		in->o.max_nodes = ET_DEFAULT_MAX_NODES;
	if (!in->o.max_rank_bytes)
		in->o.max_rank_bytes = ET_DEFAULT_MAX_RANK_BYTES;
	in->arena = et_arena_new();
	*out = NULL;
	if (add_args(in, argc, argv, e) < 0) {
		et_input_close(in);
		return -1;
	}
	*out = in;
	return 0;
}

void et_input_close(et_input *in)
{
	if (!in)
		return;
	if (in->jr)
		et_json_reader_close(in->jr);
	et_src_close(in->src);
	for (size_t i = 0; i < in->n_items; i++)
		free(in->items[i].path);
	free(in->items);
	free(in->seen);
	et_arena_free(in->arena);
	if (in->cls)
		for (uint32_t i = 0; i < ET_STREAM_CLASS_IDS; i++)
			et_crule_class_free(&in->cls[i].c);
	free(in->cls);
	et_arena_free(in->rule_arena);
	free(in->vals);
	free(in);
}

/* Returns false if the rank was already seen. */
static bool seen_add(et_input *in, uint32_t rank)
{
	if (in->seen_n * 2 >= in->seen_cap) {
		size_t cap = in->seen_cap ? in->seen_cap * 2 : 64;
		uint32_t *old = in->seen;
		size_t oldcap = in->seen_cap;
		in->seen = et_xcalloc(cap, sizeof *in->seen);
		in->seen_cap = cap;
		in->seen_n = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i])
				seen_add(in, old[i] - 1);
		free(old);
	}
	size_t h = (rank * 2654435761u) & (in->seen_cap - 1);
	while (in->seen[h]) {
		if (in->seen[h] == rank + 1)
			return false;
		h = (h + 1) & (in->seen_cap - 1);
	}
	in->seen[h] = rank + 1;
	in->seen_n++;
	return true;
}

static void close_src(et_input *in)
{
	if (in->jr)
		et_json_reader_close(in->jr);
	in->jr = NULL;
	if (in->src)
		in->gen_base += et_src_class_gens(in->src);
	et_src_close(in->src);
	in->src = NULL;
	/* class generations are the source's */
	if (in->cls)
		for (uint32_t i = 0; i < ET_STREAM_CLASS_IDS; i++)
			in->cls[i].gen_read = in->cls[i].gen_full = 0;
}

/* JSON is '{' or '[' then optional white space then '"' or '{'. */
/* '{' or '[' (after white space: pretty-printed JSON such as Kineto's
 * starts with a newline), then a key, an object or the end of an empty
 * object: a raw ET's first bytes are a length and a protobuf tag, never
 * that. */
static bool looks_like_json(const uint8_t *p, size_t n)
{
	const char *t = (const char *)p;
	size_t s = et_jsonscan_ws(t, n, 0);
	if (s + 2 > n || (p[s] != '{' && p[s] != '['))
		return false;
	size_t i = et_jsonscan_ws(t, n, s + 1);
	return i < n && (p[i] == '"' || p[i] == '{' || (p[s] == '{' && p[i] == '}'));
}

static int open_next_item(et_input *in, et_error *e)
{
	item *it = &in->items[in->next_item++];
	in->cur_item = it;
	if (et_src_open(&in->src, it->path, e) < 0)
		return -1;
	et_src_mode mode;
	if (et_src_sniff_container(in->src, &mode, e) < 0)
		return -1;
	if (in->o.format == ET_FMT_STREAM && mode != ET_SRC_SECTION)
		return et_fail(e, ET_EXIT_DATA, "%s: byte 0: not an ET stream (no ETSTREAM header)",
		               it->path);
	if (mode == ET_SRC_SECTION) {
		in->fmt = ET_FMT_STREAM;
		return 0;
	}
	et_src_set_mode(in->src, mode);
	int64_t a = et_src_fill(in->src, 64, e);
	if (a < 0)
		return -1;
	bool json = looks_like_json(et_src_data(in->src), (size_t)a);
	in->fmt = in->o.format == ET_FMT_AUTO ? (json ? ET_FMT_JSON : ET_FMT_ET) : in->o.format;
	in->single_done = false;
	if (in->fmt == ET_FMT_JSON)
		return et_json_reader_open(&in->jr, in->src, &in->o, e);
	if (in->fmt != ET_FMT_ET)
		return et_fail(e, ET_EXIT_USAGE,
		               "%s: %s input is not readable here (use et-convert --from %s)",
		               it->path, et_format_name(in->fmt), et_format_name(in->fmt));
	return 0;
}

static void set_context(et_input *in)
{
	char ctx[48];
	snprintf(ctx, sizeof ctx, "rank %u: ", in->ri.rank);
	et_src_set_context(in->src, ctx);
}

/* The next rank of the open source: 1, 0 (source exhausted), -1. */
static int source_next_rank(et_input *in, et_error *e)
{
	et_rank_info *ri = &in->ri;
	memset(ri, 0, sizeof *ri);
	ri->input = in->src ? et_src_name(in->src) : "";
	ri->format = in->fmt;
	if (in->fmt == ET_FMT_STREAM) {
		et_stream_hdr h;
		et_src_set_context(in->src, "");
		int r = et_src_next_section(in->src, &h, e);
		if (r <= 0)
			return r;
		ri->rank = h.rank;
		ri->world_size = h.world_size;
		memcpy(ri->name, h.name, sizeof ri->name);
		ri->groups = h.groups;
		ri->groups_len = h.groups_len;
		ri->groups_off = h.groups_off;
		ri->in_class = h.class_id >= 0;
		ri->class_id = h.class_id >= 0 ? (uint32_t)h.class_id : 0;
		return 1;
	}
	if (in->fmt == ET_FMT_JSON)
		return et_json_reader_next_rank(in->jr, ri, e);
	if (in->single_done)
		return 0;
	in->single_done = true;
	item *it = in->cur_item;
	int64_t r = in->o.set_rank >= 0 ? in->o.set_rank : it->rank >= 0 ? it->rank : 0;
	if (r > UINT32_MAX)
		return et_fail(e, ET_EXIT_USAGE, "%s: rank %lld out of range", it->path,
		               (long long)r);
	ri->rank = (uint32_t)r;
	ri->world_size = in->o.world ? in->o.world : it->set_size;
	return 1;
}

/* What a header (stream section, JSON rank line, --set-rank/--world) may
 * say: tools size per-rank tables by these numbers. */
static int check_header(const et_rank_info *ri, uint32_t world, et_error *e)
{
	if (world && ri->world_size && ri->world_size != world)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: its header says world %u, --world says %u", ri->input,
		               ri->rank, ri->world_size, world);
	if (world && ri->rank >= world)
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u is not a rank of --world %u",
		               ri->input, ri->rank, world);
	if (ri->world_size > ET_MAX_WORLD)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: rank %u: world size %u, more than the %u ranks etkit reads",
		               ri->input, ri->rank, ri->world_size, ET_MAX_WORLD);
	if (ri->world_size && ri->rank >= ri->world_size)
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u is not a rank of its world of %u",
		               ri->input, ri->rank, ri->world_size);
	if (ri->rank >= ET_MAX_WORLD)
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u, more than the %u ranks etkit reads",
		               ri->input, ri->rank, ET_MAX_WORLD);
	return 0;
}

static int next_any_rank(et_input *in, et_rank_info *ri, et_error *e)
{
	et_msg m;
	while (in->rank_open) { /* drain (and so check) the rest of the rank */
		int r = et_input_next_msg(in, &m, e);
		if (r < 0)
			return -1;
	}
	for (;;) {
		if (in->src) {
			int r = source_next_rank(in, e);
			if (r < 0)
				return -1;
			if (r == 1)
				break;
			close_src(in);
		}
		if (in->next_item == in->n_items)
			return 0;
		if (open_next_item(in, e) < 0)
			return -1;
	}
	if (check_header(&in->ri, in->o.world, e) < 0)
		return -1;
	if (in->o.check_dup && !seen_add(in, in->ri.rank))
		return et_fail(e, ET_EXIT_DATA, "%s: rank %u appears twice in the input",
		               in->ri.input, in->ri.rank);
	set_context(in);
	in->rank_open = true;
	in->msg_index = 0;
	in->rank_bytes = 0;
	*ri = in->ri;
	return 1;
}

/* class_rules: whether the rule of class rank ri is simple for its class. */
static bool rule_simple(et_input *in, const et_crule_class *c, const uint8_t *r, size_t len)
{
	if (!in->rule_arena)
		in->rule_arena = et_arena_new();
	et_arena_reset(in->rule_arena);
	ET_GROW(in->vals, in->vals_cap, (size_t)c->n_slots + 1);
	return et_crule_rule_vals(c, r, len, in->rule_arena, in->vals);
}

/* class_rules: a class rank comes in full the first time its class's
 * bytes do (with its slot nodes), as a rule after that when it can. */
static void class_rank(et_input *in, et_rank_info *ri)
{
	if (!in->cls)
		in->cls = et_xcalloc(ET_STREAM_CLASS_IDS, sizeof *in->cls);
	struct in_class *k = &in->cls[ri->class_id];
	uint64_t gen = et_src_class_gen(in->src, ri->class_id);
	if (k->gen_read != gen) {
		size_t len = 0;
		const uint8_t *p = et_src_class(in->src, ri->class_id, &len);
		et_crule_class_read(&k->c, p, p ? len : 0);
		k->gen_read = gen;
	}
	ri->class_gen = in->gen_base + gen;
	size_t rl = 0;
	const uint8_t *r = et_src_rule(in->src, &rl);
	if (!k->c.simple || !r)
		return;
	ri->rule = r;
	ri->rule_len = (uint32_t)rl;
	if (k->gen_full == gen && rule_simple(in, &k->c, r, rl) &&
	    (!in->o.want_rule || in->o.want_rule(in->o.want_rule_ctx, ri, &k->c, in->vals)) &&
	    et_src_skip_class(in->src)) {
		in->rank_open = false;
		ri->rule_only = true;
		return;
	}
	ri->crule = &k->c;
	k->gen_full = gen;
}

int et_input_next_rank(et_input *in, et_rank_info *ri, et_error *e)
{
	int r;
	while ((r = next_any_rank(in, ri, e)) == 1 && in->o.ranks &&
	       !et_ranklist_has(in->o.ranks, ri->rank)) {
		/* the next call drains the unselected rank; a class rank is not
		 * expanded for that (its rule was checked, its class frame too) */
		if (ri->in_class && et_src_skip_class(in->src))
			in->rank_open = false;
	}
	if (r == 1 && in->o.class_rules && ri->in_class && in->fmt == ET_FMT_STREAM) {
		class_rank(in, ri);
		in->ri = *ri;
	}
	if (r == 1)
		in->n_returned++;
	/* every tool: a selection that selects nothing is bad input */
	if (r == 0 && !in->n_returned && in->o.ranks && in->o.ranks->n)
		return et_fail(e, ET_EXIT_DATA, "--ranks matches none of the input's ranks");
	return r;
}

static int frame_fail(et_input *in, et_error *e, uint64_t off, const char *fmt, uint64_t a,
                      uint64_t b)
{
	char what[256];
	snprintf(what, sizeof what, fmt, (unsigned long long)a, (unsigned long long)b);
	return et_fail(e, ET_EXIT_DATA, "%s: rank %u: byte %llu: %s", in->ri.input, in->ri.rank,
	               (unsigned long long)off, what);
}

static int end_of_rank(et_input *in, et_error *e)
{
	in->rank_open = false;
	if (in->msg_index == 0 && !in->o.lenient_meta)
		return frame_fail(in, e, 0, "empty ET: expected a GlobalMetadata message", 0, 0);
	/* A raw or compressed single ET must end where its data ends. */
	return 0;
}

/* The per-rank limits, before the message is read in full: message
 * index is the node count (0 is the GlobalMetadata). */
static int check_limits(et_input *in, uint64_t off, uint64_t bytes, et_error *e)
{
	if (in->msg_index > in->o.max_nodes)
		return frame_fail(in, e, off,
		                  "more than %llu nodes in one rank (the limit: --max-rank-nodes N "
		                  "raises it)",
		                  in->o.max_nodes, 0);
	in->rank_bytes += bytes;
	if (in->rank_bytes > in->o.max_rank_bytes)
		return frame_fail(in, e, off,
		                  "more than %llu bytes in one rank (the limit: --max-rank-bytes "
		                  "SIZE raises it)",
		                  in->o.max_rank_bytes, 0);
	return 0;
}

static int next_json_msg(et_input *in, et_msg *m, et_error *e)
{
	int r = et_json_reader_next_msg(in->jr, m, e);
	if (r == 0)
		in->rank_open = false;
	if (r == 1 && check_limits(in, m->offset, m->len, e) < 0)
		return -1;
	if (r == 1)
		in->msg_index++;
	return r;
}

uint64_t et_input_ranks_expected(const et_input *in, const et_rank_info *ri)
{
	return in->o.ranks && in->o.ranks->n ? 0 : ri->world_size;
}

int et_input_next_msg(et_input *in, et_msg *m, et_error *e)
{
	if (!in->rank_open)
		return 0;
	if (in->fmt == ET_FMT_JSON)
		return next_json_msg(in, m, e);
	et_src *s = in->src;
	int64_t a = et_src_fill(s, 10, e);
	if (a < 0)
		return -1;
	uint64_t off = et_src_offset(s);
	if (a == 0)
		return end_of_rank(in, e) < 0 ? -1 : 0;
	uint64_t len;
	int k = et_varint_get(et_src_data(s), (size_t)a, &len);
	if (k == 0)
		return frame_fail(in, e, off, "truncated length prefix", 0, 0);
	if (k < 0)
		return frame_fail(in, e, off, "bad varint length prefix", 0, 0);
	if (len > in->o.max_msg)
		return frame_fail(in, e, off, "message length %llu exceeds the limit of %llu bytes",
		                  len, in->o.max_msg);
	if (check_limits(in, off, len + (uint64_t)k, e) < 0)
		return -1;
	a = et_src_fill(s, (size_t)len + (size_t)k, e);
	if (a < 0)
		return -1;
	if ((uint64_t)a < len + (uint64_t)k)
		return frame_fail(in, e, off, "truncated message: length %llu, %llu bytes left",
		                  len, (uint64_t)a - (uint64_t)k);
	m->data = et_src_data(s) + k;
	m->len = (size_t)len;
	m->offset = off;
	m->index = in->msg_index++;
	et_src_consume(s, (size_t)len + (size_t)k);
	if (m->index == 0 && !in->o.lenient_meta) {
		et_arena_reset(in->arena);
		if (!et_meta_decode(in->arena, m->data, m->len))
			return frame_fail(in, e, off, "GlobalMetadata does not parse", 0, 0);
	}
	return 1;
}

const uint8_t *et_input_class(const et_input *in, uint32_t id, size_t *len)
{
	return in->src ? et_src_class(in->src, id, len) : NULL;
}

const uint8_t *et_input_rule(const et_input *in, size_t *len)
{
	return in->src && in->ri.in_class ? et_src_rule(in->src, len) : NULL;
}
