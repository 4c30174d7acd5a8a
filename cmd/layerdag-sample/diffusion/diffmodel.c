/* Fitting the diffusion model, and its file (diffmodel.h). */
#include "layerdag-sample/diffusion/diffmodel.h"
#include "et_buf.h"
#include "et_mem.h"

#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { VERSION = 4, HDR = 11 }; /* the file's version, and its header's u32 */
enum { MAX_SIZES = 4096 };      /* size classes a file may have: layers < 4096 wide */
static const char magic[8] = {'L', 'D', 'D', 'I', 'F', 'F', 0, VERSION};

void ld_diff_conf_default(ld_diff_conf *c)
{
	*c = (ld_diff_conf){
	    .D = 32, .H = 64, .K = 2, .T = 64, .Te = 16, .epochs = 100, .lr = 3e-3, .batch = 1};
}

/* Sizes up to the corpus's widest layer (S), depths up to its deepest graph. */
static uint32_t size_classes(const ld_corpus *c, uint32_t *max_layers)
{
	uint32_t S = 2;
	*max_layers = 1;
	for (size_t i = 0; i < c->n; i++) {
		uint32_t *layer = et_xcalloc(c->g[i].n + 1, sizeof *layer);
		uint32_t L = ld_layers(&c->g[i], layer);
		uint32_t *w = et_xcalloc((size_t)L + 1, sizeof *w);
		for (uint32_t v = 0; v < c->g[i].n && L; v++)
			if (++w[layer[v]] + 1 > S)
				S = w[layer[v]] + 1;
		*max_layers = L > *max_layers ? L : *max_layers;
		free(layer);
		free(w);
	}
	return S;
}

/* The first graph of c deeper than LD_DIFF_DEEP layers, or c->n; its depth into *deep. */
static size_t too_deep(const ld_corpus *c, uint32_t *deep)
{
	size_t i = 0;
	for (; i < c->n; i++) {
		uint32_t *layer = et_xcalloc(c->g[i].n + 1, sizeof *layer);
		*deep = ld_layers(&c->g[i], layer);
		free(layer);
		if (*deep > LD_DIFF_DEEP)
			break;
	}
	return i;
}

int ld_diff_check(const ld_corpus *c, uint32_t window, const char *name, et_error *e)
{
	uint32_t deep, S;
	size_t i = window ? c->n : too_deep(c, &deep);
	if (i < c->n)
		return et_fail(
		    e, ET_EXIT_DATA,
		    "%s: graph %zu is %u layers deep: without a window the diffusion model "
		    "re-encodes the whole prefix at every layer (quadratic in the depth); "
		    "expected at most %d layers, or --window L",
		    name, i, deep, LD_DIFF_DEEP);
	S = size_classes(c, &deep);
	if (S <= MAX_SIZES && (uint64_t)(S - 1) * deep <= LD_MAX_NODES)
		return 0;
	return et_fail(e, ET_EXIT_DATA,
	               "%s: layers of up to %u nodes, %u deep: the diffusion model takes layers of "
	               "at most %d nodes and samples of at most %u",
	               name, S - 1, deep, MAX_SIZES - 1, LD_MAX_NODES);
}

/* A random order of the corpus's graphs for one epoch. */
static void shuffle(size_t *ord, size_t n, et_rng *r)
{
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)et_rng_below(r, i), t = ord[i - 1];
		ord[i - 1] = ord[j], ord[j] = t;
	}
}

static void zero_grads(ld_diffusion *m)
{
	ld_sizer_zero_grad(&m->z);
	ld_attrdiff_zero_grad(&m->a);
	ld_edgediff_zero_grad(&m->e);
}

static void adam(ld_diffusion *m, double lr)
{
	ld_sizer_adam(&m->z, lr);
	ld_attrdiff_adam(&m->a, lr);
	ld_edgediff_adam(&m->e, lr);
	zero_grads(m);
}

/* One graph's layers, an Adam step after every cf->chunk of them (none
 * when chunk is 0: the caller steps per batch of graphs); the losses and
 * their counts added to loss[3] and cnt[3]. */
static void graph(ld_diffusion *m, const ld_dag *g, const ld_diff_conf *cf, double lr, et_rng *r,
                  double *loss, size_t *cnt)
{
	uint32_t *layer = et_xcalloc(g->n + 1, sizeof *layer);
	uint32_t L = ld_layers(g, layer), step = cf->chunk ? cf->chunk : L;
	for (uint32_t l0 = 0; l0 < L; l0 += step) {
		uint32_t l1 = L - l0 > step ? l0 + step : L;
		loss[0] += ld_sizer_range(&m->z, g, layer, L, l0, l1, &cnt[0]);
		loss[1] += ld_attrdiff_range(&m->a, g, layer, L, l0, l1, r, &cnt[1]);
		loss[2] += ld_edgediff_range(&m->e, g, layer, L, l0, l1, r, &cnt[2]);
		if (cf->chunk && l1 < L) /* the graph's last chunk steps with the batch */
			adam(m, lr);
	}
	free(layer);
}

void ld_diff_epoch(ld_diffusion *m, const ld_corpus *c, const ld_diff_conf *cf, double lr,
                   et_rng *r, double *loss)
{
	size_t *ord = et_xcalloc(c->n, sizeof *ord), cnt[3] = {0};
	shuffle(ord, c->n, r);
	loss[0] = loss[1] = loss[2] = 0;
	zero_grads(m);
	for (size_t i = 0; i < c->n; i++) {
		graph(m, &c->g[ord[i]], cf, lr, r, loss, cnt);
		if ((i + 1) % (size_t)cf->batch == 0 || i + 1 == c->n)
			adam(m, lr);
	}
	for (int k = 0; k < 3; k++)
		loss[k] = cnt[k] ? loss[k] / (double)cnt[k] : 0;
	free(ord);
}

void ld_diff_init(ld_diffusion *m, ld_corpus *c, const ld_diff_conf *cf, et_rng *r)
{
	openblas_set_num_threads(1); /* the same sums in the same order: the same bytes */
	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < c->n && cf->window; i++) /* a window bisects the layer order */
		ld_dag_layer_sort(&c->g[i]);
	uint32_t V = c->vocab ? c->vocab : 1;
	uint32_t S = size_classes(c, &m->max_layers);
	ld_sizer_init(&m->z, V, S, cf->D, cf->K, cf->H, r);
	ld_cond_fit(&m->z.cond, c);
	ld_attrdiff_init(&m->a, c, cf->T, cf->D, cf->K, cf->H, r);
	ld_edgediff_init(&m->e, c, cf->Te, cf->D, cf->K, cf->H, r);
	m->arity = ld_arity_fit(c, V);
	m->z.cond.arity = m->a.cond.arity = m->e.cond.arity = m->arity;
	m->z.cond.window = m->a.cond.window = m->e.cond.window = cf->window;
	m->role = et_xcalloc(V, 1);
	ld_roles_fit(c, V, m->role);
}

void ld_diff_fit(ld_diffusion *m, ld_corpus *c, const ld_diff_conf *cf, et_rng *r)
{
	ld_diff_init(m, c, cf, r);
	for (int ep = 0; ep < cf->epochs; ep++) {
		/* cosine decay: large steps first, small ones to settle */
		double f = cf->epochs > 1 ? (double)ep / (cf->epochs - 1) : 0;
		double lr = cf->lr * (0.05 + 0.95 * 0.5 * (1 + cos(M_PI * f))), loss[3];
		ld_diff_epoch(m, c, cf, lr, r, loss);
		if (cf->progress)
			fprintf(stderr,
			        "layerdag-sample fit: epoch %d of %d: size %.3f, attributes %.3f, "
			        "edges %.4f nats\n",
			        ep + 1, cf->epochs, loss[0], loss[1], loss[2]);
	}
}

void ld_diff_free(ld_diffusion *m)
{
	ld_sizer_free(&m->z);
	ld_attrdiff_free(&m->a);
	ld_edgediff_free(&m->e);
	free(m->role);
	free(m->arity);
	ld_etmap_free(&m->et);
	memset(m, 0, sizeof *m);
}

/* --- the file ------------------------------------------------------------ */
typedef struct io {
	FILE *f;                 /* writing */
	const uint8_t *base, *p; /* reading: the file, and where it is at */
	size_t left;
	bool bad;
} io;

static void put(io *o, void *v, size_t n)
{
	if (o->f) {
		fwrite(v, 1, n, o->f);
	} else if (n > o->left) {
		o->bad = true;
	} else {
		memcpy(v, o->p, n);
		o->p += n, o->left -= n;
	}
}

static void dense_io(io *o, nn_dense *l)
{
	put(o, l->W, l->in * l->out * sizeof *l->W);
	put(o, l->b, l->out * sizeof *l->b);
}

static void mlp_io(io *o, nn_mlp *l)
{
	dense_io(o, &l->a);
	dense_io(o, &l->b);
}

static void enc_io(io *o, nn_enc *e)
{
	dense_io(o, &e->input);
	for (int k = 0; k < e->K; k++) {
		dense_io(o, &e->mp[k].self);
		dense_io(o, &e->mp[k].in);
		dense_io(o, &e->mp[k].out);
	}
}

static void weights_io(io *o, ld_diffusion *m)
{
	enc_io(o, &m->z.enc);
	mlp_io(o, &m->z.head);
	enc_io(o, &m->a.enc);
	mlp_io(o, &m->a.head);
	enc_io(o, &m->e.enc);
	mlp_io(o, &m->e.head);
}

/* The label statistics, d̄, the marginal, the arities and the roles
 * (allocated by the caller when reading). */
static void tables_io(io *o, ld_diffusion *m)
{
	put(o, &m->z.cond.ymu, sizeof m->z.cond.ymu);
	put(o, &m->z.cond.ysd, sizeof m->z.cond.ysd);
	put(o, &m->e.dbar, sizeof m->e.dbar);
	put(o, m->a.marginal, m->a.vocab * sizeof *m->a.marginal);
	put(o, m->arity, m->a.vocab * sizeof *m->arity);
	put(o, m->role, m->a.vocab);
}

/* One ET class: its key and count, then its values. Reading, a bucket
 * above 31 or a count above LD_ET_KEEP sets o->bad and stops. */
static void et_class_io(io *o, ld_et_class *c)
{
	uint8_t k[6] = {c->type, c->ctype, c->op, c->sizeb, c->durb, (uint8_t)c->nval};
	put(o, k, sizeof k);
	if (!o->f) {
		c->type = k[0], c->ctype = k[1], c->op = k[2], c->sizeb = k[3], c->durb = k[4];
		c->nval = k[5];
		if (o->bad || k[3] > 31 || k[4] > 31 || k[5] > LD_ET_KEEP) {
			o->bad = true;
			return;
		}
	}
	for (uint32_t i = 0; i < c->nval; i++) {
		put(o, &c->val[i].num_ops, sizeof c->val[i].num_ops);
		put(o, &c->val[i].tensor_size, sizeof c->val[i].tensor_size);
		put(o, &c->val[i].comm_size, sizeof c->val[i].comm_size);
		put(o, &c->val[i].dur, sizeof c->val[i].dur);
	}
}

/* The ET section's value count. */
static uint32_t et_values(const ld_etmap *m)
{
	uint32_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		n += m->c[i].nval;
	return n;
}

int ld_diff_write(const ld_diffusion *cm, FILE *f)
{
	ld_diffusion *m = (ld_diffusion *)cm; /* io is one routine for both ways */
	io o = {.f = f};
	uint32_t h[HDR] = {m->a.vocab,
	                   m->z.S,
	                   (uint32_t)m->z.enc.D,
	                   (uint32_t)m->z.enc.K,
	                   (uint32_t)m->a.sched.T,
	                   (uint32_t)m->e.sched.T,
	                   m->max_layers,
	                   (uint32_t)m->z.head.a.out,
	                   m->z.cond.window,
	                   (uint32_t)m->et.n,
	                   et_values(&m->et)};
	fwrite(magic, 1, sizeof magic, f);
	put(&o, h, sizeof h);
	tables_io(&o, m);
	weights_io(&o, m);
	for (size_t i = 0; i < m->et.n; i++)
		et_class_io(&o, &m->et.c[i]);
	return ferror(f) ? -1 : 0;
}

int ld_diff_is(const char *path)
{
	FILE *f = fopen(path, "rb");
	char b[8] = {0};
	size_t n = f ? fread(b, 1, sizeof b, f) : 0;
	if (f)
		fclose(f);
	return n == sizeof b && memcmp(b, magic, 6) == 0;
}

/* The parameters of an encoder of F features and of a head in -> H -> out. */
static uint64_t enc_params(uint64_t F, uint64_t D, uint64_t K)
{
	return F * D + D + K * 3 * (D * D + D);
}

static uint64_t mlp_params(uint64_t in, uint64_t H, uint64_t out)
{
	return in * H + H + H * out + out;
}

/* The file size a header gives (sizes already bounded: no overflow). */
static uint64_t expected(const uint32_t *h)
{
	uint64_t V = h[0], S = h[1], D = h[2], K = h[3], H = h[7], F = V + LD_NODE_EXTRA;
	uint64_t P = ENC_POOL * D + LD_CTX;
	uint64_t doubles = 3 * enc_params(F, D, K) + mlp_params(P + S, H, 2 * S) +
	                   mlp_params(P + D, H, V) + mlp_params(P + 2 * D + LD_PAIR, H, 2) + 3 +
	                   2 * V;
	uint64_t et = (uint64_t)h[9] * 6 + (uint64_t)h[10] * 32;
	return sizeof magic + HDR * 4 + doubles * 8 + V + et;
}

/* The magic and version: 0, or the error. */
static int check_magic(const char *mg, bool cut, const char *path, et_error *e)
{
	if (!cut && memcmp(mg, magic, sizeof magic) == 0)
		return 0;
	if (!cut && memcmp(mg, magic, sizeof magic - 1) == 0)
		return et_fail(e, ET_EXIT_DATA,
		               "%s: a diffusion model of version %u; this layerdag-sample reads "
		               "version %d (fit it again)",
		               path, (unsigned)(uint8_t)mg[7], VERSION);
	return et_fail(e, ET_EXIT_DATA, "%s: not a layerdag-sample diffusion model (version %d)",
	               path, VERSION);
}

/* The header's sizes, and the file's size against them, before anything
 * is allocated: 0, or the error. */
static int check_header(const uint32_t *h, size_t len, const char *path, et_error *e)
{
	if (h[0] == 0 || h[0] > LD_MAX_ATTR || h[1] < 2 || h[1] > MAX_SIZES || h[2] == 0 ||
	    h[2] > 1024 || h[3] > ENC_MAXK || h[4] == 0 || h[4] > 1024 || h[5] == 0 ||
	    h[5] > 1024 || h[6] == 0 || h[6] > (1u << 20) || h[7] == 0 || h[7] > 1024 ||
	    h[8] > (1u << 20))
		return et_fail(e, ET_EXIT_DATA, "%s: byte 8: sizes out of range", path);
	if ((uint64_t)(h[1] - 1) * h[6] > LD_MAX_NODES)
		return et_fail(
		    e, ET_EXIT_DATA,
		    "%s: byte 12: layers of %u nodes, %u deep: samples of more than %u nodes", path,
		    h[1] - 1, h[6], LD_MAX_NODES);
	if ((h[9] != 0 && h[9] != h[0]) || (uint64_t)h[10] > (uint64_t)h[9] * LD_ET_KEEP)
		return et_fail(
		    e, ET_EXIT_DATA,
		    "%s: byte 44: %u ET classes of %u values for %u attributes: expected "
		    "none, or one class per attribute of at most %d values",
		    path, h[9], h[10], h[0], LD_ET_KEEP);
	if (expected(h) != len)
		return et_fail(e, ET_EXIT_DATA, "%s: %zu bytes, where its header gives %llu", path,
		               len, (unsigned long long)expected(h));
	return 0;
}

/* The networks and tables of the header's sizes, ready to be read into. */
static void alloc_model(ld_diffusion *m, const uint32_t *h)
{
	et_rng r;
	et_rng_seed(&r, 0, 0);
	ld_corpus none = {.vocab = h[0]};
	ld_sizer_init(&m->z, h[0], h[1], h[2], (int)h[3], h[7], &r);
	ld_attrdiff_init(&m->a, &none, (int)h[4], h[2], (int)h[3], h[7], &r);
	ld_edgediff_init(&m->e, &none, (int)h[5], h[2], (int)h[3], h[7], &r);
	m->role = et_xcalloc(h[0], 1);
	m->arity = et_xcalloc(h[0], sizeof *m->arity);
	m->max_layers = h[6];
	m->et.c = h[9] ? et_xcalloc(h[9], sizeof *m->et.c) : NULL;
	m->et.n = m->et.cap = h[9];
}

/* The index of the first of v[n] that is not finite and >= lo, or n. */
static size_t first_bad(const double *v, size_t n, double lo)
{
	size_t i = 0;
	while (i < n && isfinite(v[i]) && v[i] >= lo)
		i++;
	return i;
}

/* The tables' numbers: a negative arity made the sizer's demand, a class
 * index, negative. 0, or the error naming the first bad number's byte. */
static int check_tables(const ld_diffusion *m, const char *path, et_error *e)
{
	const size_t at = sizeof magic + HDR * 4, V = m->a.vocab;
	double head[3] = {m->z.cond.ymu, m->z.cond.ysd, m->e.dbar}, lo[3] = {-INFINITY, 1e-300, 0};
	size_t bad = SIZE_MAX;
	for (size_t k = 0; k < 3 && bad == SIZE_MAX; k++)
		if (first_bad(&head[k], 1, lo[k]) == 0)
			bad = at + 8 * k;
	size_t im = first_bad(m->a.marginal, V, 0), ia = first_bad(m->arity, V, 0);
	if (bad == SIZE_MAX && im < V)
		bad = at + 24 + 8 * im;
	if (bad == SIZE_MAX && ia < V)
		bad = at + 24 + 8 * V + 8 * ia;
	size_t ir = 0;
	while (ir < V && m->role[ir] <= LD_ROLE_ALL)
		ir++;
	if (bad == SIZE_MAX && ir < V)
		return et_fail(e, ET_EXIT_DATA, "%s: byte %zu: expected roles, bits of %d at most",
		               path, at + 24 + 16 * V + ir, LD_ROLE_ALL);
	if (bad == SIZE_MAX)
		return 0;
	return et_fail(e, ET_EXIT_DATA,
	               "%s: byte %zu: expected finite label statistics (a deviation > 0), and a "
	               "mean in-degree, marginal and arities >= 0",
	               path, bad);
}

/* The body after the header: 0, or the error. */
static int read_body(ld_diffusion *m, io *o, const uint32_t *h, const char *path, et_error *e)
{
	tables_io(o, m);
	if (!o->bad && check_tables(m, path, e) < 0)
		return -1;
	m->a.cond = m->e.cond = m->z.cond;
	m->z.cond.arity = m->a.cond.arity = m->e.cond.arity = m->arity;
	m->z.cond.window = m->a.cond.window = m->e.cond.window = h[8];
	weights_io(o, m);
	if (o->bad)
		return et_fail(e, ET_EXIT_DATA, "%s: not the size its header gives", path);
	size_t at = 0; /* the offset of the class being read */
	for (size_t i = 0; i < m->et.n && !o->bad; i++) {
		at = (size_t)(o->p - o->base);
		et_class_io(o, &m->et.c[i]);
	}
	if (o->bad || o->left || et_values(&m->et) != h[10])
		return et_fail(e, ET_EXIT_DATA,
		               "%s: byte %zu: expected %u ET classes of %u values in all (buckets "
		               "<= 31, at most %d values a class)",
		               path, o->bad ? at : (size_t)(o->p - o->base), h[9], h[10],
		               LD_ET_KEEP);
	return 0;
}

int ld_diff_read(ld_diffusion *m, const char *path, et_error *e)
{
	memset(m, 0, sizeof *m);
	et_buf b = {0};
	if (et_buf_read_file(&b, path, (size_t)1 << 30, e) < 0)
		return -1;
	io o = {.base = b.data, .p = b.data, .left = b.len};
	char mg[8];
	uint32_t h[HDR];
	put(&o, mg, sizeof mg);
	int rc = check_magic(mg, o.bad, path, e);
	put(&o, h, sizeof h);
	if (rc == 0 && o.bad)
		rc = et_fail(e, ET_EXIT_DATA, "%s: %zu bytes: a cut header", path, b.len);
	if (rc == 0)
		rc = check_header(h, b.len, path, e);
	if (rc == 0) {
		alloc_model(m, h);
		rc = read_body(m, &o, h, path, e);
	}
	et_buf_free(&b);
	if (rc < 0)
		ld_diff_free(m);
	return rc;
}
