/* Host execution trace JSON -> pt_trace, one node object at a time: the
 * document is never held whole, only the current node's text. */
#include "et-convert/pytorch/pt.h"
#include "et-convert/pytorch/pt_jr.h"
#include "et-convert/pytorch/pt_json.h"
#include "et_jsonscan.h"
#include "et_mem.h"
#include "et_pyrepr.h"
#include "et_src.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pt_schemas[] = {"1.0.1",
                                  "1.0.2-chakra.0.0.4",
                                  "1.0.3-chakra.0.0.4",
                                  "1.1.0-chakra.0.0.4",
                                  "1.1.1-chakra.0.0.4",
                                  "1.1.1-chakra.1.0.0",
                                  NULL};

typedef struct pctx {
	pt_trace *t;
	const pt_opts *o;
	et_buf s, scratch;  /* string and parse scratch */
	pj_members members; /* of the node being read */
	pj_members elem;    /* of an element of its attrs list */
	bool schema_ok;
} pctx;

uint32_t pt_intern(pt_trace *t, const char *s, size_t n)
{
	uint32_t off = (uint32_t)t->pool.len;
	et_buf_append(&t->pool, s, n);
	et_buf_putc(&t->pool, 0);
	return off;
}

static uint32_t intern_repr(pctx *c, pj_span v, bool *ok)
{
	c->s.len = 0;
	if (et_pyrepr(v.p, v.n, &c->s, NULL) < 0) {
		*ok = false;
		return PT_NONE;
	}
	return pt_intern(c->t, (const char *)c->s.data, c->s.len);
}

static const char *const attr_names[PT_NATTR] = {"rf_id", "fw_parent", "seq_id",
                                                 "scope", "tid",       "fw_tid"};

static int attr_index(const char *name)
{
	for (int i = 0; i < PT_NATTR; i++)
		if (strcmp(name, attr_names[i]) == 0)
			return i;
	return -1;
}

/* Bytes of one element of a record_param_comms dtype. */
static int dtype_bytes(const char *d)
{
	static const struct {
		const char *n;
		int b;
	} t[] = {
	    {"Float", 4},         {"Half", 2},        {"BFloat16", 2},     {"Double", 8},
	    {"Long", 8},          {"Int", 4},         {"Short", 2},        {"Byte", 1},
	    {"Char", 1},          {"Bool", 1},        {"ComplexFloat", 8}, {"ComplexDouble", 16},
	    {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}, {"UInt16", 2},       {"UInt32", 4}};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(d, t[i].n) == 0)
			return t[i].b;
	return 0;
}

/* One {"name": ..., "value": ...} of an attrs list, its members in m. As
 * with a tree lookup, the first "name" and "value" count. */
static int read_attr(pctx *c, pt_node *n, const pj_members *m, int64_t *nelems, int *dbytes)
{
	pj_span nm = {NULL, 0}, val = {NULL, 0};
	for (size_t i = 0; i < m->n; i++)
		if (!nm.p && pj_key_is(m->v[i].key, "name"))
			nm = m->v[i].val;
		else if (!val.p && pj_key_is(m->v[i].key, "value"))
			val = m->v[i].val;
	if (!nm.p || !val.p || !pj_string(nm, &c->s))
		return 0;
	const char *key = (const char *)c->s.data;
	int ix = attr_index(key);
	int64_t x;
	if (ix >= 0 && pj_int(val, &x)) {
		n->attr[ix] = x;
		n->attr_set |= (uint8_t)(1u << ix);
	} else if (val.p[0] == '"') {
		uint32_t *dst = strcmp(key, "op_schema") == 0         ? &n->op_schema
		                : strcmp(key, "pg_name") == 0         ? &n->pg_name
		                : strcmp(key, "collective_name") == 0 ? &n->coll_name
		                                                      : NULL;
		bool is_dtype = !dst && strcmp(key, "dtype") == 0;
		if ((dst || is_dtype) && !pj_string(val, &c->s))
			return -1;
		if (dst)
			*dst = pt_intern(c->t, (const char *)c->s.data, c->s.len - 1);
		else if (is_dtype)
			*dbytes = dtype_bytes((const char *)c->s.data);
	} else if (strcmp(key, "in_msg_nelems") == 0 && pj_int(val, &x)) {
		*nelems = x;
	}
	return 0;
}

/* The chakra-layout attrs list: the six ids, op_schema, and what the
 * corrected conversion reads from record_param_comms. Read from its text
 * (a cJSON tree per node cost a tenth of the conversion), each element
 * object scanned once; elements that are not objects are skipped. */
static int read_attrs(pctx *c, pt_node *n, pj_span v)
{
	int64_t nelems = -1;
	int dbytes = 0;
	size_t pos = 0, bad;
	pj_span el;
	int r;
	while ((r = pj_next_elem(v.p, v.n, &pos, &el, &bad, &c->elem)) == 1)
		if (el.p[0] == '{' && read_attr(c, n, &c->elem, &nelems, &dbytes) < 0)
			return -1;
	if (r < 0)
		return -1;
	if (nelems >= 0 && dbytes > 0)
		n->msg_bytes = nelems * dbytes;
	return 0;
}

/* Reference rule: sum over inputs whose type contains "Tensor" of
 * num_elem*elem_bytes (each element for GenericList[Tensor...]). */
static int64_t tensor_bytes(const cJSON *t)
{
	int64_t ne, eb;
	if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) < 5 ||
	    !pj_cjson_int(cJSON_GetArrayItem(t, 3), &ne) ||
	    !pj_cjson_int(cJSON_GetArrayItem(t, 4), &eb))
		return -1;
	return ne * eb;
}

static int64_t comm_bytes(pctx *c, pt_node *n, pj_span values, pj_span types)
{
	int nargs = 0;
	cJSON *v = pj_tree(values, &c->scratch);
	cJSON *t = pj_tree(types, &c->scratch);
	int64_t sum = 0;
	if (!cJSON_IsArray(v) || !cJSON_IsArray(t))
		sum = -1;
	const cJSON *vi = v ? v->child : NULL, *ti = t ? t->child : NULL;
	for (; sum >= 0 && vi && ti; vi = vi->next, ti = ti->next) {
		int64_t x;
		if (cJSON_IsString(ti) && strcmp(ti->valuestring, "Int") == 0 &&
		    n->n_int_args < 2 && pj_cjson_int(vi, &x))
			n->int_args[n->n_int_args++] = x;
		if (!cJSON_IsString(ti) || !strstr(ti->valuestring, "Tensor"))
			continue;
		int64_t before = sum;
		if (strncmp(ti->valuestring, "GenericList[Tensor", 18) == 0) {
			const cJSON *el;
			cJSON_ArrayForEach(el, vi)
			{
				int64_t b = tensor_bytes(el);
				sum = b < 0 ? -1 : sum + b;
				if (sum < 0)
					break;
			}
		} else {
			int64_t b = tensor_bytes(vi);
			sum = b < 0 ? -1 : sum + b;
		}
		if (nargs < 2)
			n->arg_bytes[nargs++] = sum < 0 ? -1 : sum - before;
	}
	cJSON_Delete(v);
	cJSON_Delete(t);
	return sum;
}

static bool comm_related(const char *name, bool gpu)
{
	return gpu || strncmp(name, "c10d::", 6) == 0 || strncmp(name, "nccl:", 5) == 0 ||
	       strncmp(name, "gloo:", 5) == 0 || strstr(name, "record_param_comms") != NULL;
}

/* IOInfo of the chakra layout: {"values": ..., "shapes": ..., "types": ...}. */
static int read_io(pctx *c, pt_node *n, pj_span v, int base, pj_span *vals, pj_span *types)
{
	size_t pos = 0, bad;
	pj_span k, x;
	int r;
	bool ok = true;
	static const char *const part[3] = {"values", "shapes", "types"};
	while ((r = pj_next_member(v.p, v.n, &pos, &k, &x, &bad)) == 1)
		for (int i = 0; i < 3; i++)
			if (pj_key_is(k, part[i])) {
				n->io[base + i] = intern_repr(c, x, &ok);
				if (i == 0)
					*vals = x;
				if (i == 2)
					*types = x;
			}
	return r < 0 || !ok ? -1 : 0;
}

typedef struct node_spans {
	pj_span in_vals, in_types;
} node_spans;

static int set_int(pj_span v, int64_t *dst)
{
	return pj_int(v, dst) ? 0 : -1;
}

/* One member of a node object. Returns 0, or -1 with what[] set. */
static int node_member(pctx *c, pt_node *n, pj_span k, pj_span v, node_spans *sp, const char **what)
{
	pt_trace *t = c->t;
	*what = "a value of the wrong type";
	if (pj_key_is(k, "id"))
		return set_int(v, &n->id);
	if (pj_key_is(k, "ctrl_deps") || pj_key_is(k, "parent"))
		return pj_is_null(v) ? 0 : set_int(v, &n->parent);
	if (pj_key_is(k, "name") || pj_key_is(k, "op_schema") || pj_key_is(k, "cat") ||
	    pj_key_is(k, "pg_name")) {
		if (pj_is_null(v))
			return 0;
		if (!pj_string(v, &c->s))
			return -1;
		uint32_t off = pt_intern(t, (const char *)c->s.data, c->s.len - 1);
		if (pj_key_is(k, "name"))
			n->name = off;
		else if (pj_key_is(k, "op_schema"))
			n->op_schema = off;
		else if (pj_key_is(k, "cat"))
			n->cat = off;
		else
			n->pg_name = off;
		return 0;
	}
	if (pj_key_is(k, "inputs") || pj_key_is(k, "outputs")) {
		int base = pj_key_is(k, "inputs") ? PT_IN_VALUES : PT_OUT_VALUES;
		n->flags |= PT_HAS_IO;
		if (v.p[0] == '{') {
			pj_span dummy;
			*what = "an IOInfo object that does not parse";
			return read_io(c, n, v, base, base == PT_IN_VALUES ? &sp->in_vals : &dummy,
			               base == PT_IN_VALUES ? &sp->in_types : &dummy);
		}
		bool ok = true; /* 1.0.1: parallel arrays */
		n->io[base] = intern_repr(c, v, &ok);
		if (base == PT_IN_VALUES)
			sp->in_vals = v;
		return ok ? 0 : -1;
	}
	static const char *const legacy_io[4] = {"input_shapes", "input_types", "output_shapes",
	                                         "output_types"};
	static const int legacy_ix[4] = {PT_IN_SHAPES, PT_IN_TYPES, PT_OUT_SHAPES, PT_OUT_TYPES};
	for (int i = 0; i < 4; i++)
		if (pj_key_is(k, legacy_io[i])) {
			bool ok = true;
			n->io[legacy_ix[i]] = intern_repr(c, v, &ok);
			if (i == 1)
				sp->in_types = v;
			return ok ? 0 : -1;
		}
	for (int i = 0; i < PT_NATTR; i++) /* 1.0.1: flat fields */
		if (pj_key_is(k, attr_names[i])) {
			if (set_int(v, &n->attr[i]) < 0)
				return -1;
			n->attr_set |= (uint8_t)(1u << i);
			return 0;
		}
	if (pj_key_is(k, "attrs")) {
		*what = "an attrs list that does not parse";
		return read_attrs(c, n, v);
	}
	if (pj_key_is(k, "exclusive_dur") || pj_key_is(k, "inclusive_dur") || pj_key_is(k, "ts")) {
		if (pj_is_null(v))
			return 0;
		double d;
		if (!pj_double(v, &d))
			return -1;
		if (pj_key_is(k, "ts")) {
			n->ts = d;
			n->flags |= PT_HAS_TS;
		} else if (pj_key_is(k, "exclusive_dur")) {
			n->excl_dur = d;
			n->flags |= PT_HAS_EXCL;
		} else {
			n->incl_dur = d;
			n->flags |= PT_HAS_INCL;
		}
		return 0;
	}
	if (pj_key_is(k, "stream")) {
		if (pj_is_null(v)) {
			n->stream_state = PT_STREAM_NULL;
			return 0;
		}
		n->stream_state = PT_STREAM_SET;
		return set_int(v, &n->stream);
	}
	if (pj_key_is(k, "inter_thread_dep"))
		return pj_is_null(v) ? 0 : set_int(v, &n->inter_thread_dep);
	return 0; /* other keys (sync_dep, ph, strides, ...) are not used */
}

static pt_node *new_node(pt_trace *t)
{
	ET_GROW(t->nodes, t->cap, (size_t)t->n + 1);
	pt_node *n = &t->nodes[t->n];
	memset(n, 0, sizeof *n);
	n->id = PT_NO_ID;
	n->parent = PT_NO_ID;
	n->comm_bytes = n->msg_bytes = -1;
	n->arg_bytes[0] = n->arg_bytes[1] = -1;
	n->name = n->op_schema = n->cat = n->pg_name = n->coll_name = PT_NONE;
	for (int i = 0; i < 6; i++)
		n->io[i] = PT_NONE;
	n->pos = t->n;
	return n;
}

/* The node whose members are in c->members; broken: the object syntax
 * broke at c->members.bad after those members. */
static int parse_node(pctx *c, pt_jr *w, bool broken)
{
	pt_node *n = new_node(c->t);
	node_spans sp = {{NULL, 0}, {NULL, 0}};
	const char *text = (const char *)et_src_data(w->src);
	for (size_t i = 0; i < c->members.n; i++) {
		pj_span k = c->members.v[i].key, v = c->members.v[i].val;
		const char *what;
		if (node_member(c, n, k, v, &sp, &what) < 0) {
			char msg[160];
			snprintf(msg, sizeof msg, "node key \"%.*s\": %s",
			         (int)(k.n > 40 ? 40 : k.n), k.p, what);
			return pt_jr_fail(w, (size_t)(v.p - text), msg);
		}
	}
	if (broken)
		return pt_jr_fail(w, c->members.bad, "malformed node object");
	if (n->id == PT_NO_ID || n->name == PT_NONE)
		return pt_jr_fail(
		    w, 0, n->id == PT_NO_ID ? "node without \"id\"" : "node without \"name\"");
	if ((n->flags & PT_HAS_EXCL) && n->excl_dur < 0)
		return pt_jr_fail(w, 0, "negative exclusive_dur");
	const char *name = pt_str(c->t, n->name);
	if (sp.in_vals.p && sp.in_types.p && comm_related(name, n->cat != PT_NONE))
		n->comm_bytes = comm_bytes(c, n, sp.in_vals, sp.in_types);
	c->t->n++;
	return 0;
}

typedef struct node_ctx {
	pctx *c;
	pt_jr *w;
} node_ctx;

static int one_node(void *ctx)
{
	node_ctx *nc = ctx;
	size_t end;
	int r = pt_jr_object(nc->w, &nc->c->members, &end);
	if (r < 0 || parse_node(nc->c, nc->w, r == 1) < 0)
		return -1;
	pt_jr_consume(nc->w, end);
	return 0;
}

static int parse_nodes(pctx *c, pt_jr *w)
{
	node_ctx nc = {c, w};
	return pt_jr_each(w, "nodes", "node", one_node, &nc);
}

static int check_schema(pctx *c, pt_jr *w, const char *s)
{
	for (int i = 0; pt_schemas[i]; i++)
		if (strcmp(s, pt_schemas[i]) == 0) {
			c->t->legacy = i == 0;
			return 0;
		}
	if (c->o->force_schema) {
		c->t->legacy = strncmp(s, "1.0.1", 5) == 0 || !strstr(s, "chakra");
		return 0;
	}
	return et_fail(w->e, ET_EXIT_DATA,
	               "%s: unknown schema \"%s\" (supported: 1.0.1, 1.0.2-chakra.0.0.4, "
	               "1.0.3-chakra.0.0.4, 1.1.0-chakra.0.0.4, 1.1.1-chakra.0.0.4, "
	               "1.1.1-chakra.1.0.0; --force-schema to try anyway)",
	               w->name, s);
}

static int top_member(pctx *c, pt_jr *w, pj_span key)
{
	pt_trace *t = c->t;
	if (pj_key_is(key, "nodes"))
		return parse_nodes(c, w);
	pj_span v;
	int ch = pt_jr_peek(w);
	if (ch < 0)
		return ch == -1 ? -1 : pt_jr_fail(w, 0, "unexpected end of JSON");
	if (pt_jr_value(w, &v) < 0)
		return -1;
	int64_t x;
	bool ok = true;
	if (pj_key_is(key, "schema") || pj_key_is(key, "time")) {
		ok = pj_string(v, &c->s);
		if (ok && pj_key_is(key, "schema")) {
			free(t->schema);
			t->schema = et_xstrdup((const char *)c->s.data);
			if (check_schema(c, w, t->schema) < 0)
				return -1;
			c->schema_ok = true;
		} else if (ok) {
			free(t->time);
			t->time = et_xstrdup((const char *)c->s.data);
		}
	} else if (pj_key_is(key, "pid") || pj_key_is(key, "start_ts") ||
	           pj_key_is(key, "finish_ts")) {
		ok = pj_int(v, &x);
		uint64_t *dst = pj_key_is(key, "pid")        ? &t->pid
		                : pj_key_is(key, "start_ts") ? &t->start_ts
		                                             : &t->finish_ts;
		bool *has = pj_key_is(key, "pid")        ? &t->has_pid
		            : pj_key_is(key, "start_ts") ? &t->has_start
		                                         : &t->has_finish;
		*dst = (uint64_t)x;
		*has = ok;
	}
	if (!ok) {
		char msg[96];
		snprintf(msg, sizeof msg, "key \"%.*s\": a value of the wrong type", (int)key.n,
		         key.p);
		return pt_jr_fail(w, 0, msg);
	}
	pt_jr_consume(w, v.n);
	return 0;
}

static int doc_member(void *ctx, pj_span key)
{
	node_ctx *nc = ctx;
	return top_member(nc->c, nc->w, key);
}

static int parse_doc(pctx *c, pt_jr *w)
{
	node_ctx nc = {c, w};
	if (pt_jr_members(w, doc_member, &nc) < 0)
		return -1;
	if (pt_jr_peek(w) != -2)
		return pt_jr_fail(w, 0, "unexpected data after the JSON document");
	if (!c->schema_ok)
		return et_fail(w->e, ET_EXIT_DATA,
		               "%s: no \"schema\" key: not a PyTorch execution trace", w->name);
	return 0;
}

int pt_parse(pt_trace *t, const char *path, const pt_opts *o, et_error *e)
{
	memset(t, 0, sizeof *t);
	t->input = path;
	et_src *src;
	if (et_src_open(&src, path, e) < 0)
		return -1;
	et_src_mode mode;
	int r = et_src_sniff_container(src, &mode, e);
	if (r == 0) {
		et_src_set_mode(src, mode == ET_SRC_SECTION ? ET_SRC_ZSTD : mode);
		pt_jr w = {src, path, 1, 0, e};
		pctx c = {t, o, {0}, {0}, {0}, {0}, false};
		r = parse_doc(&c, &w);
		et_buf_free(&c.s);
		et_buf_free(&c.scratch);
		pj_members_free(&c.members);
		pj_members_free(&c.elem);
	}
	et_src_close(src);
	if (r == 0)
		pt_index(t);
	return r;
}

void pt_trace_free(pt_trace *t)
{
	free(t->schema);
	free(t->time);
	free(t->nodes);
	free(t->slot);
	et_buf_free(&t->pool);
	memset(t, 0, sizeof *t);
}

static uint32_t id_hash(int64_t id, uint32_t mask)
{
	return (uint32_t)(((uint64_t)id * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

/* Later duplicates win, as in a Python dict built from the node list. */
void pt_index(pt_trace *t)
{
	uint32_t n = 16;
	while (n < t->n * 2u + 16)
		n *= 2;
	free(t->slot);
	t->slot = et_xcalloc(n, sizeof *t->slot);
	t->nslot = n;
	for (uint32_t i = 0; i < t->n; i++) {
		int64_t id = t->nodes[i].id;
		uint32_t h = id_hash(id, n - 1);
		while (t->slot[h].ix1 && t->slot[h].id != id)
			h = (h + 1) & (n - 1);
		t->slot[h] = (struct pt_slot){id, i + 1};
	}
}

int64_t pt_find(const pt_trace *t, int64_t id)
{
	if (!t->nslot)
		return -1;
	for (uint32_t h = id_hash(id, t->nslot - 1); t->slot[h].ix1; h = (h + 1) & (t->nslot - 1))
		if (t->slot[h].id == id)
			return t->slot[h].ix1 - 1;
	return -1;
}
