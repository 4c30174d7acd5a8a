/* et_graph: building — the per-node arrays, the name pool and the
 * well-known attributes. Resolution lives in et_graph_finish.c. */
#include "et_graph.h"
#include "et_attr.h"
#include "et_buf.h"
#include "et_mem.h"

#include <stdlib.h>
#include <string.h>

#define VC(x) CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_##x

et_graph *et_graph_new(void)
{
	et_graph *g = et_xcalloc(1, sizeof *g);
	/* Offset 0 of the pool is the empty string, so absent names and
	 * pg_names need no special case. */
	g->names_cap = 4096;
	g->names = et_xmalloc(g->names_cap);
	g->names[0] = '\0';
	g->names_len = 1;
	/* Record 0 is the all-zero one of nodes without comm attributes. */
	g->comms_cap = 64;
	g->comms = et_xcalloc(g->comms_cap, sizeof *g->comms);
	g->n_comms = 1;
	return g;
}

void et_graph_free(et_graph *g)
{
	if (!g)
		return;
	void *arrays[] = {g->id,
	                  g->type,
	                  g->flags,
	                  g->name,
	                  g->duration_micros,
	                  g->start_time_micros,
	                  g->msg_index,
	                  g->comm,
	                  g->comms,
	                  g->num_ops,
	                  g->tensor_size,
	                  g->names,
	                  g->data_off,
	                  g->data_dep,
	                  g->ctrl_off,
	                  g->ctrl_dep,
	                  g->out_off,
	                  g->out,
	                  g->dangling,
	                  g->dups,
	                  g->selfs,
	                  g->order,
	                  g->hash,
	                  g->scratch,
	                  g->pg_hash};
	for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
		free(arrays[i]);
	free(g);
}

/* The node columns share g->cap (node indices are uint32_t): each grows
 * with ET_GROW from the old capacity to the new one, the CSR offsets to one
 * more; et_grow's own rounding only ever gives a column more room. */
#define GROW(p, want) (c = old ? old + ((want)-cap) : 0, ET_GROW(p, c, (want)))

static void grow_nodes(et_graph *g)
{
	uint64_t next = g->cap ? (uint64_t)g->cap * 2 : 1024;
	if (next > UINT32_MAX - 1)
		next = UINT32_MAX - 1;
	size_t old = g->cap, cap = (size_t)next, c;
	g->cap = (uint32_t)next;
	GROW(g->id, cap);
	GROW(g->type, cap);
	GROW(g->flags, cap);
	GROW(g->name, cap);
	GROW(g->duration_micros, cap);
	GROW(g->start_time_micros, cap);
	GROW(g->msg_index, cap);
	GROW(g->comm, cap);
	GROW(g->num_ops, cap);
	GROW(g->tensor_size, cap);
	/* CSR offsets are counts while building (filled in by finish). */
	GROW(g->data_off, cap + 1);
	GROW(g->ctrl_off, cap + 1);
	GROW(g->out_off, cap + 1);
	GROW(g->order, cap + 1);
	GROW(g->scratch, cap + 1);
}
#undef GROW

void et_graph_reset(et_graph *g)
{
	g->n = 0;
	g->names_len = 1;
	g->n_comms = 1;
	g->n_dangling = g->n_dangling_data = g->n_dangling_ctrl = 0;
	g->n_dups = g->n_selfs = 0;
	g->n_data_deps = g->n_ctrl_deps = g->fwd_data = g->fwd_ctrl = 0;
	g->n_ordered = g->n_roots = g->depth = g->max_width = 0;
	g->data_ids = g->ctrl_ids = 0;
	g->finished = false;
	if (g->pg_hash_n)
		memset(g->pg_hash, 0, g->pg_hash_cap * sizeof *g->pg_hash);
	g->pg_hash_n = 0;
}

/* Pool offsets are 32-bit; a rank whose names exceed 4 GiB keeps "" for
 * the rest rather than failing. */
static uint32_t pool_add(et_graph *g, const char *s, size_t len)
{
	if (g->names_len + len + 1 > UINT32_MAX)
		return 0;
	ET_GROW(g->names, g->names_cap, g->names_len + len + 1);
	uint32_t off = (uint32_t)g->names_len;
	memcpy(g->names + off, s, len + 1);
	g->names_len += len + 1;
	return off;
}

/* Eight bytes at a time (the last word overlapping the one before):
 * every node's name is hashed, and names run to tens of bytes (kernel
 * signatures). */
static uint32_t name_hash(const char *s, size_t len)
{
	const uint64_t m = 0xff51afd7ed558ccdull;
	uint64_t h = len, w = 0;
	if (len >= 8) {
		for (size_t k = 0; k + 8 < len; k += 8) {
			memcpy(&w, s + k, 8);
			h = (h ^ w) * m;
			h ^= h >> 32;
		}
		memcpy(&w, s + len - 8, 8);
	} else {
		for (size_t k = 0; k < len; k++)
			w = w << 8 | (unsigned char)s[k];
	}
	/* A multiply carries bits only upwards: mix the high bits back down
	 * (murmur's finaliser), as the table indexes with the low ones. */
	h = (h ^ w) * m;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(h ^ h >> 33);
}

static void intern_grow(et_graph *g)
{
	et_graph_islot *old = g->pg_hash;
	size_t oldcap = g->pg_hash_cap;
	g->pg_hash_cap = oldcap ? oldcap * 2 : 256;
	g->pg_hash = et_xcalloc(g->pg_hash_cap, sizeof *g->pg_hash);
	for (size_t k = 0; k < oldcap; k++) {
		if (!old[k].off)
			continue;
		size_t h = old[k].hash & (g->pg_hash_cap - 1);
		while (g->pg_hash[h].off)
			h = (h + 1) & (g->pg_hash_cap - 1);
		g->pg_hash[h] = old[k];
	}
	free(old);
}

/* Node names and pg_names repeat (operator and kernel names, process
 * groups): one copy each in the pool, so it grows with distinct names
 * only, and equal names share an offset, so callers can cache lookups by
 * offset. A slot keeps the hash and length, so a probe compares bytes
 * only when both match. */
static uint32_t intern(et_graph *g, const char *s)
{
	if (!s || !*s)
		return 0;
	if (g->pg_hash_n * 2 >= g->pg_hash_cap)
		intern_grow(g);
	size_t len = strlen(s), mask = g->pg_hash_cap - 1;
	uint32_t hash = name_hash(s, len);
	size_t h = hash & mask;
	for (; g->pg_hash[h].off; h = (h + 1) & mask) {
		const et_graph_islot *e = &g->pg_hash[h];
		if (e->hash == hash && e->len == len && memcmp(g->names + e->off, s, len) == 0)
			return e->off;
	}
	uint32_t off = pool_add(g, s, len);
	if (off) {
		g->pg_hash[h] = (et_graph_islot){off, (uint32_t)len, hash};
		g->pg_hash_n++;
	}
	return off;
}

/* s equals the n characters of lit. The loop stops at the first
 * difference, so it never reads past the NUL of a shorter s; STR_IS's
 * constant n lets it unroll into a chain of byte compares. */
static inline bool str_n_is(const char *s, const char *lit, size_t n)
{
#pragma GCC unroll 16
	for (size_t k = 0; k < n; k++)
		if (s[k] != lit[k])
			return false;
	return s[n] == '\0';
}
#define STR_IS(s, lit) str_n_is((s), (lit), sizeof(lit) - 1)

static et_wk_attr comm_key(const char *s)
{
	switch (s[0]) {
	case 't':
		return STR_IS(s, "type")  ? ET_WK_COMM_TYPE
		       : STR_IS(s, "tag") ? ET_WK_COMM_TAG
		                          : ET_WK_NONE;
	case 's':
		return STR_IS(s, "size")  ? ET_WK_COMM_SIZE
		       : STR_IS(s, "src") ? ET_WK_COMM_SRC
		                          : ET_WK_NONE;
	case 'd':
		return STR_IS(s, "dst") ? ET_WK_COMM_DST : ET_WK_NONE;
	case 'p':
		return STR_IS(s, "priority") ? ET_WK_COMM_PRIORITY : ET_WK_NONE;
	default:
		return ET_WK_NONE;
	}
}

static et_wk_attr attr_key(const char *s)
{
	switch (s[0]) {
	case 'i':
		return STR_IS(s, "is_cpu_op")      ? ET_WK_IS_CPU_OP
		       : STR_IS(s, "involved_dim") ? ET_WK_INVOLVED_DIM
		                                   : ET_WK_NONE;
	case 'n':
		return STR_IS(s, "num_ops") ? ET_WK_NUM_OPS : ET_WK_NONE;
	case 't':
		return STR_IS(s, "tensor_size") ? ET_WK_TENSOR_SIZE : ET_WK_NONE;
	case 'p':
		return STR_IS(s, "pg_name") ? ET_WK_PG_NAME : ET_WK_NONE;
	case 'c':
		return s[1] == 'o' && s[2] == 'm' && s[3] == 'm' && s[4] == '_' ? comm_key(s + 5)
		                                                                : ET_WK_NONE;
	default:
		return ET_WK_NONE;
	}
}

et_wk_attr et_graph_attr_key(const char *name)
{
	return attr_key(name);
}

static int32_t clamp32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

static const uint16_t wk_flag[ET_WK_COUNT] = {
    [ET_WK_IS_CPU_OP] = ET_GF_CPU_SET,       [ET_WK_NUM_OPS] = ET_GF_NUM_OPS,
    [ET_WK_TENSOR_SIZE] = ET_GF_TENSOR_SIZE, [ET_WK_COMM_TYPE] = ET_GF_COMM_TYPE,
    [ET_WK_COMM_SIZE] = ET_GF_COMM_SIZE,     [ET_WK_COMM_SRC] = ET_GF_COMM_SRC,
    [ET_WK_COMM_DST] = ET_GF_COMM_DST,       [ET_WK_COMM_TAG] = ET_GF_COMM_TAG,
    [ET_WK_COMM_PRIORITY] = ET_GF_COMM_PRIO, [ET_WK_PG_NAME] = ET_GF_PG_NAME,
};

/* Node i's comm record, made on its first comm attribute. */
static et_graph_comm *comm_rec(et_graph *g, uint32_t i)
{
	if (!g->comm[i]) {
		ET_GROW(g->comms, g->comms_cap, (size_t)g->n_comms + 1);
		g->comms[g->n_comms] = (et_graph_comm){0};
		g->comm[i] = g->n_comms++;
	}
	return &g->comms[g->comm[i]];
}

/* comm_priority is checked (its member, its flag) but no tool reads its
 * value, so it is not stored. */
static void store_int(et_graph *g, uint32_t i, et_wk_attr k, int64_t v, uint16_t *fl)
{
	switch (k) {
	case ET_WK_IS_CPU_OP:
		if (v)
			*fl |= ET_GF_CPU;
		break;
	case ET_WK_NUM_OPS:
		g->num_ops[i] = v;
		break;
	case ET_WK_TENSOR_SIZE:
		g->tensor_size[i] = (uint64_t)v;
		break;
	case ET_WK_COMM_TYPE:
		comm_rec(g, i)->type = clamp32(v);
		break;
	case ET_WK_COMM_SIZE:
		comm_rec(g, i)->size = v;
		break;
	case ET_WK_COMM_SRC:
		comm_rec(g, i)->src = clamp32(v);
		break;
	case ET_WK_COMM_DST:
		comm_rec(g, i)->dst = clamp32(v);
		break;
	case ET_WK_COMM_TAG:
		comm_rec(g, i)->tag = clamp32(v);
		break;
	default:
		break;
	}
}

/* The member doc/chakra-et.md names for each well-known attribute. */
static const int wk_member[ET_WK_COUNT] = {
    [ET_WK_IS_CPU_OP] = VC(BOOL_VAL),      [ET_WK_NUM_OPS] = VC(INT64_VAL),
    [ET_WK_TENSOR_SIZE] = VC(UINT64_VAL),  [ET_WK_COMM_TYPE] = VC(INT64_VAL),
    [ET_WK_COMM_SIZE] = VC(INT64_VAL),     [ET_WK_COMM_SRC] = VC(INT32_VAL),
    [ET_WK_COMM_DST] = VC(INT32_VAL),      [ET_WK_COMM_TAG] = VC(INT32_VAL),
    [ET_WK_COMM_PRIORITY] = VC(INT32_VAL), [ET_WK_PG_NAME] = VC(STRING_VAL),
    [ET_WK_INVOLVED_DIM] = VC(BOOL_LIST),
};

int et_graph_wk_member(et_wk_attr k)
{
	return k >= 0 && k < ET_WK_COUNT ? wk_member[k] : 0;
}

/* The first characters of the well-known names. Nodes have about ten
 * attributes, most of them not well-known (rf_id, seq_id, op_schema,
 * stream ...): one table load turns those away. */
static const bool wk_first[256] = {['c'] = 1, ['i'] = 1, ['n'] = 1, ['p'] = 1, ['t'] = 1};

/* The flags are gathered in a local and stored once: they are read back
 * for every well-known attribute ("the first one wins"). */
/* involved_dim's false entries as a bit mask (dimensions past 8 are not
 * kept: no topology has them). */
static uint8_t off_dims(const et_attr *a)
{
	uint8_t m = 0;
	for (size_t d = 0; a->bool_list && d < a->bool_list->n_values && d < 8; d++)
		if (!a->bool_list->values[d])
			m |= (uint8_t)(1u << d);
	return m;
}

static void read_attrs(et_graph *g, uint32_t i, const et_node *n)
{
	uint16_t fl = 0;
	bool dims_seen = false;
	for (size_t k = 0; k < n->n_attr; k++) {
		const et_attr *a = n->attr[k];
		if (!a->name || !wk_first[(unsigned char)a->name[0]])
			continue;
		et_wk_attr key = attr_key(a->name);
		if (key == ET_WK_NONE)
			continue;
		if ((int)a->value_case != wk_member[key])
			fl |= ET_GF_ATTR_MEMBER;
		uint16_t f = wk_flag[key];
		if (key == ET_WK_INVOLVED_DIM && !dims_seen) {
			dims_seen = true; /* the first one wins, as et_attr_find */
			uint8_t m = a->value_case == VC(BOOL_LIST) ? off_dims(a) : 0;
			if (m)
				comm_rec(g, i)->off_dims = m;
		}
		if (key == ET_WK_INVOLVED_DIM || (fl & f)) /* the first one wins, as et_attr_find */
			continue;
		if (key == ET_WK_PG_NAME) {
			if (a->value_case == VC(STRING_VAL)) {
				fl |= f;
				uint32_t off = intern(g, a->string_val);
				comm_rec(g, i)->pg_name = off;
			}
			continue;
		}
		if (!et_attr_is_int(a))
			continue;
		fl |= f;
		store_int(g, i, key, et_attr_as_i64(a), &fl);
	}
	g->flags[i] = fl;
}

/* Until et_graph_finish, a kind's dep array holds the ids as written, each
 * in two uint32 slots (copied with memcpy: no aliasing); finish rewrites
 * them into indices in place. One array instead of ids plus indices: the
 * first touch of memory costs more than filling it. */
static void push_ids(uint32_t **arr, size_t *n_ids, size_t *cap, const uint64_t *d, uint32_t n)
{
	if (!n) /* *arr may still be NULL: no arithmetic on it */
		return;
	ET_GROW(*arr, *cap, 2 * (*n_ids + n));
	uint32_t *dst = *arr + 2 * *n_ids;
	for (uint32_t k = 0; k < n; k++) /* a few ids: no call to memcpy */
		memcpy(dst + 2 * k, &d[k], sizeof d[k]);
	*n_ids += n;
}

uint32_t et_graph_add_indexed(et_graph *g, const et_node *n, uint32_t msg_index)
{
	if (g->finished || g->n >= UINT32_MAX - 3)
		return ET_GRAPH_NONE;
	if (g->n == g->cap)
		grow_nodes(g);
	uint32_t i = g->n++;
	g->id[i] = n->id;
	g->type[i] = (n->type >= 0 && n->type < 255) ? (uint8_t)n->type : 255;
	g->name[i] = intern(g, n->name);
	g->duration_micros[i] = n->duration_micros;
	g->start_time_micros[i] = n->start_time_micros;
	g->msg_index[i] = msg_index;
	g->comm[i] = 0;
	g->num_ops[i] = 0;
	g->tensor_size[i] = 0;
	read_attrs(g, i, n);
	g->data_off[i] = (uint32_t)(n->n_data_deps < UINT32_MAX ? n->n_data_deps : 0);
	g->ctrl_off[i] = (uint32_t)(n->n_ctrl_deps < UINT32_MAX ? n->n_ctrl_deps : 0);
	push_ids(&g->data_dep, &g->data_ids, &g->data_dep_cap, n->data_deps, g->data_off[i]);
	push_ids(&g->ctrl_dep, &g->ctrl_ids, &g->ctrl_dep_cap, n->ctrl_deps, g->ctrl_off[i]);
	return i;
}

uint32_t et_graph_add(et_graph *g, const et_node *n)
{
	uint32_t idx = g->n ? g->msg_index[g->n - 1] + 1 : 1;
	return et_graph_add_indexed(g, n, idx);
}

size_t et_graph_bytes(const et_graph *g)
{
	size_t per_node = sizeof *g->id + sizeof *g->type + sizeof *g->flags + sizeof *g->name +
	                  sizeof *g->duration_micros + sizeof *g->start_time_micros +
	                  sizeof *g->msg_index + sizeof *g->comm + sizeof *g->num_ops +
	                  sizeof *g->tensor_size + 6 * sizeof(uint32_t);
	size_t b = (size_t)g->cap * per_node + g->names_cap + g->hash_cap * sizeof *g->hash;
	b += g->comms_cap * sizeof *g->comms;
	b += g->pg_hash_cap * sizeof *g->pg_hash;
	b += (g->data_dep_cap + g->ctrl_dep_cap + g->out_cap) * sizeof(uint32_t);
	b += g->n_dangling * sizeof *g->dangling + g->n_dups * sizeof *g->dups +
	     g->n_selfs * sizeof *g->selfs;
	return b;
}

bool et_graph_set_comm(et_graph *g, uint32_t i, et_wk_attr k, const char *s, int64_t v)
{
	if (i >= g->n || !g->comm[i])
		return false;
	et_graph_comm *c = &g->comms[g->comm[i]];
	if (k == ET_WK_PG_NAME)
		c->pg_name = intern(g, s);
	else if (k == ET_WK_COMM_SRC)
		c->src = clamp32(v);
	else if (k == ET_WK_COMM_DST)
		c->dst = clamp32(v);
	else
		return false;
	g->flags[i] |= wk_flag[k];
	return true;
}
