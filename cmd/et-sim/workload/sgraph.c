/* sgraph: copy an et_graph into the simulator's compact arrays. Parents are
 * de-duplicated (a node listing the same parent as data and ctrl dependency
 * waits for it once, as ASTRA-sim's dependency resolver does). */
#include "et-sim/workload/sgraph.h"
#include "et_mem.h"
#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdULL;
}

static void copy_nodes(sgraph *s, const et_graph *g)
{
	for (uint32_t i = 0; i < g->n; i++) {
		s->id[i] = g->id[i];
		s->type[i] = g->type[i];
		s->flags[i] = (g->flags[i] & ET_GF_CPU) ? SG_CPU : 0;
		s->dur_us[i] = g->duration_micros[i];
		const et_graph_comm *c = et_graph_comm_at(g, i);
		s->comm_type[i] = (g->flags[i] & ET_GF_COMM_TYPE) ? c->type : -1;
		s->comm_size[i] = c->size;
		/* a RECV's source, a SEND's destination: their own ends are
		 * their rank, whatever they say (et_graph_p2p_peer) */
		s->src[i] = g->type[i] == ET_NODE_RECV ? et_graph_p2p_peer(g, i) : -1;
		s->dst[i] = g->type[i] == ET_NODE_SEND ? et_graph_p2p_peer(g, i) : -1;
		s->tag[i] = c->tag;
		s->pg[i] = (int32_t)c->pg_name;
		s->involved[i] = et_graph_involved(g, i);
		s->num_ops[i] = g->num_ops[i];
		s->tensor_size[i] = g->tensor_size[i];
		s->name[i] = g->name[i];
	}
}

/* Unique parents of node i, written to buf; returns the count. */
static uint32_t parents(const et_graph *g, uint32_t i, uint32_t *buf)
{
	uint32_t k = 0;
	for (uint32_t j = g->data_off[i]; j < g->data_off[i + 1]; j++)
		buf[k++] = g->data_dep[j];
	for (uint32_t j = g->ctrl_off[i]; j < g->ctrl_off[i + 1]; j++)
		buf[k++] = g->ctrl_dep[j];
	uint32_t u = 0;
	for (uint32_t a = 0; a < k; a++) {
		bool dup = false;
		for (uint32_t b = 0; b < u && !dup; b++)
			dup = buf[b] == buf[a];
		if (!dup)
			buf[u++] = buf[a];
	}
	return u;
}

static void build_edges(sgraph *s, const et_graph *g)
{
	uint32_t maxp = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t k = et_graph_ndeps(g, i);
		maxp = k > maxp ? k : maxp;
	}
	uint32_t *buf = et_xcalloc(maxp + 1, sizeof *buf);
	uint64_t total = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		s->ndeps[i] = parents(g, i, buf);
		for (uint32_t j = 0; j < s->ndeps[i]; j++)
			s->out_off[buf[j] + 1]++;
		total += s->ndeps[i];
	}
	for (uint32_t i = 0; i < g->n; i++)
		s->out_off[i + 1] += s->out_off[i];
	s->out = et_xcalloc(total, sizeof *s->out);
	uint32_t *fill = et_xcalloc(g->n + 1, sizeof *fill);
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t k = parents(g, i, buf);
		for (uint32_t j = 0; j < k; j++)
			s->out[s->out_off[buf[j]] + fill[buf[j]]++] = i;
	}
	free(fill);
	free(buf);
}

static void hash_graph(sgraph *s)
{
	uint64_t h = s->n;
	for (uint32_t i = 0; i < s->n; i++) {
		h = mix(h, s->id[i]);
		h = mix(h, s->type[i] | (uint64_t)s->flags[i] << 8 | (uint64_t)s->ndeps[i] << 16);
		h = mix(h, s->dur_us[i] ^ (uint64_t)s->comm_size[i]);
		h = mix(h, (uint64_t)(uint32_t)s->comm_type[i] << 32 | (uint32_t)s->tag[i]);
	}
	s->hash = h;
}

sgraph *sgraph_from(const et_graph *g, const uint64_t *gemm)
{
	sgraph *s = et_xcalloc(1, sizeof *s);
	uint32_t n = g->n;
	s->n = n;
	s->id = et_xcalloc(n, 8);
	s->type = et_xcalloc(n, 1);
	s->flags = et_xcalloc(n, 1);
	s->dur_us = et_xcalloc(n, 8);
	s->comm_type = et_xcalloc(n, 4);
	s->comm_size = et_xcalloc(n, 8);
	s->src = et_xcalloc(n, 4);
	s->dst = et_xcalloc(n, 4);
	s->tag = et_xcalloc(n, 4);
	s->pg = et_xcalloc(n, 4);
	s->num_ops = et_xcalloc(n, 8);
	s->tensor_size = et_xcalloc(n, 8);
	s->gemm = et_xcalloc((size_t)n * 3, 8);
	s->involved = et_xcalloc(n, 1);
	s->name = et_xcalloc(n, 4);
	s->ndeps = et_xcalloc(n, 4);
	s->out_off = et_xcalloc(n + 1, 4);
	copy_nodes(s, g);
	memcpy(s->gemm, gemm, (size_t)n * 3 * 8);
	build_edges(s, g);
	s->names_len = g->names_len;
	s->names = et_xcalloc(g->names_len + 1, 1);
	memcpy(s->names, g->names, g->names_len);
	s->pgnames = s->names;
	s->cslot = et_xmalloc(((size_t)n + 1) * sizeof *s->cslot);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t t = s->type[i];
		bool comm = t == ET_NODE_SEND || t == ET_NODE_RECV || t == ET_NODE_COLL;
		s->cslot[i] = comm ? s->ncomm++ : UINT32_MAX;
	}
	s->n_dangling = g->n_dangling;
	s->n_cycle_nodes = g->n - g->n_ordered;
	hash_graph(s);
	return s;
}

#define EQ(f, sz) (memcmp(a->f, b->f, (size_t)a->n * (sz)) == 0)
/* Node names compared as strings: the pool also holds the pg names, so
 * the same name can sit at different offsets. */
static bool names_equal(const sgraph *a, const sgraph *b)
{
	for (uint32_t i = 0; i < a->n; i++)
		if (strcmp(sg_name(a, i), sg_name(b, i)) != 0)
			return false;
	return true;
}

bool sgraph_same_shape(const sgraph *a, const sgraph *b)
{
	if (a->n != b->n || a->hash != b->hash)
		return false;
	return EQ(id, 8) && EQ(type, 1) && EQ(flags, 1) && EQ(dur_us, 8) && EQ(comm_type, 4) &&
	       EQ(comm_size, 8) && EQ(tag, 4) && EQ(num_ops, 8) && EQ(tensor_size, 8) &&
	       EQ(gemm, 24) && EQ(involved, 1) && EQ(ndeps, 4) &&
	       memcmp(a->out_off, b->out_off, (a->n + 1) * 4) == 0 &&
	       memcmp(a->out, b->out, (size_t)a->out_off[a->n] * 4) == 0 && names_equal(a, b);
}

bool sgraph_same_own(const sgraph *a, const sgraph *b)
{
	if (!EQ(src, 4) || !EQ(dst, 4))
		return false;
	for (uint32_t i = 0; i < a->n; i++) {
		const char *x = sg_pg(a, i), *y = sg_pg(b, i);
		if ((x == NULL) != (y == NULL) || (x && strcmp(x, y) != 0))
			return false;
	}
	return true;
}

/* A rank names a few groups: a linear search over the distinct ones is
 * enough. */
int32_t sgraph_pool_put(char **pool, size_t *len, size_t *cap, const char *p)
{
	for (size_t off = 1; off < *len; off += strlen(*pool + off) + 1)
		if (strcmp(*pool + off, p) == 0)
			return (int32_t)off;
	size_t n = strlen(p) + 1, off = *len;
	ET_GROW(*pool, *cap, off + n);
	memcpy(*pool + off, p, n);
	*len += n;
	return (int32_t)off;
}

int32_t sgraph_pool_add(sgraph *v, size_t *len, size_t *cap, const char *p)
{
	return sgraph_pool_put(&v->pgnames, len, cap, p);
}

/* A view's value for communicating node i as `like` has it: a SEND's
 * destination, a RECV's source, a collective's pg name (pooled). */
static int32_t like_val(sgraph *v, size_t *len, size_t *cap, const sgraph *like, uint32_t i)
{
	if (like->type[i] == ET_NODE_SEND)
		return sg_dst(like, i);
	if (like->type[i] == ET_NODE_RECV)
		return sg_src(like, i);
	const char *p = sg_pg(like, i);
	return p ? sgraph_pool_add(v, len, cap, p) : 0;
}

/* A view of body with the pg names and peers of `like` (of body's shape);
 * *len and *cap are its pool's, for more names. */
sgraph *sgraph_view_new(const sgraph *body, size_t *len, size_t *cap)
{
	sgraph *v = et_xmalloc(sizeof *v);
	*v = *body;
	v->body = body;
	v->src = v->dst = v->pg = NULL;
	v->cval = v->cv = NULL;
	v->cp = NULL;
	v->vals_mem = SG_VALS_OWN;
	*len = 1; /* offset 0 is "no pg name" */
	*cap = 0;
	v->pgnames = NULL;
	ET_GROW(v->pgnames, *cap, (size_t)16);
	v->pgnames[0] = 0;
	return v;
}

static sgraph *view_of(const sgraph *body, const sgraph *like, size_t *len, size_t *cap)
{
	sgraph *v = sgraph_view_new(body, len, cap);
	v->cval = et_xcalloc((size_t)body->ncomm + 1, sizeof *v->cval);
	for (uint32_t i = 0; i < body->n; i++)
		if (body->cslot[i] != UINT32_MAX)
			v->cval[body->cslot[i]] = like_val(v, len, cap, like, i);
	return v;
}

sgraph *sgraph_view(const sgraph *body, const sgraph *s)
{
	size_t len, cap;
	return view_of(body, s, &len, &cap);
}

sgraph *sgraph_view_vals(const sgraph *body, const sgraph *like, const et_crule_class *c,
                         const et_crule_val *vals)
{
	size_t len, cap;
	sgraph *v = view_of(body, like, &len, &cap);
	for (size_t j = 0; j < c->n; j++) {
		uint32_t i = c->nodes[j].node;
		const et_crule_val *x = &vals[c->nodes[j].slot];
		int32_t *dst = &v->cval[body->cslot[i]];
		if (c->kind[c->nodes[j].slot] == ET_CRULE_PG)
			*dst = sgraph_pool_add(v, &len, &cap, x->pg);
		else
			*dst = x->peer >= 0 ? x->peer : -1; /* as et_graph_p2p_peer */
	}
	return v;
}

bool sgraph_fits_rule(const sgraph *g, const et_crule_class *c)
{
	if (!c->simple || c->n_nodes != g->n)
		return false;
	for (size_t j = 0; j < c->n; j++) {
		uint32_t i = c->nodes[j].node;
		uint8_t k = c->kind[c->nodes[j].slot];
		uint8_t want = k == ET_CRULE_PG    ? ET_NODE_COLL
		               : k == ET_CRULE_SRC ? ET_NODE_RECV
		                                   : ET_NODE_SEND;
		if (i >= g->n || g->type[i] != want)
			return false;
	}
	return true;
}

void sgraph_free(sgraph *s)
{
	if (!s)
		return;
	if (s->vals_mem != SG_VALS_BORROWED)
		free(s->cv);
	if (s->body) {
		free(s->cval);
		if (s->vals_mem == SG_VALS_OWN)
			free(s->pgnames);
		free(s);
		return;
	}
	free(s->cslot);
	free(s->id);
	free(s->type);
	free(s->flags);
	free(s->dur_us);
	free(s->comm_type);
	free(s->comm_size);
	free(s->src);
	free(s->dst);
	free(s->tag);
	free(s->pg);
	free(s->num_ops);
	free(s->tensor_size);
	free(s->gemm);
	free(s->involved);
	free(s->name);
	free(s->ndeps);
	free(s->out_off);
	free(s->out);
	free(s->names);
	free(s);
}
