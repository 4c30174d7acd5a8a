/* Writes the fuzz seeds of fuzz_layerdag_diff (run by make_seeds.sh): small
 * diffusion models of the current file version, built with the model's own
 * init and writer so that the seeds follow the layout (diffmodel.h), one of
 * them with a window and an ET section, plus headers at the limits, a cut
 * file and files of the previous versions.
 * Usage: seed_layerdag_diff DIR */
#include "et_types.h"
#include "layerdag-sample/diffusion/diffmodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ET classes for the V attributes: a COMP class of one value, a
 * collective of two, ... (types and values as etdag.c keeps them). */
static void et_classes(ld_etmap *m, uint32_t V)
{
	m->c = calloc(V, sizeof *m->c);
	m->n = m->cap = V;
	for (uint32_t k = 0; k < V; k++) {
		ld_et_class *c = &m->c[k];
		bool coll = k % 2 == 1;
		c->type = coll ? ET_NODE_COLL : ET_NODE_COMP;
		c->ctype = coll ? ET_COLL_ALL_REDUCE : 0;
		c->op = coll ? 8 : (uint8_t)(k % 8);
		c->sizeb = (uint8_t)(k + 1), c->durb = (uint8_t)k;
		c->nval = 1 + k % 2;
		for (uint32_t i = 0; i < c->nval; i++) {
			c->val[i].num_ops = coll ? 0 : 1000 * (int64_t)(k + 1);
			c->val[i].tensor_size = coll ? 0 : 4096u << i;
			c->val[i].comm_size = coll ? 65536 << i : 0;
			c->val[i].dur = 10 * (uint64_t)(i + 1);
		}
	}
}

/* A model of vocab V, S size classes, width D, K layers, steps T and Te,
 * hidden width H, max_layers and window (with ET classes when et), its
 * weights random (seed 1). */
static void model(const char *path, uint32_t V, uint32_t S, size_t D, int K, int T, int Te,
                  size_t H, uint32_t max_layers, uint32_t window, bool et)
{
	et_rng r;
	et_rng_seed(&r, 1, 0);
	ld_corpus none = {.vocab = V};
	ld_diffusion m;
	memset(&m, 0, sizeof m);
	ld_sizer_init(&m.z, V, S, D, K, H, &r);
	ld_attrdiff_init(&m.a, &none, T, D, K, H, &r);
	ld_edgediff_init(&m.e, &none, Te, D, K, H, &r);
	m.e.dbar = 1;
	m.arity = calloc(V, sizeof *m.arity);
	for (uint32_t k = 0; k + 1 < V; k++)
		m.arity[k] = 1 + k % 2;
	m.role = calloc(V, 1);
	memset(m.role, LD_ROLE_SEEN, V);             /* every attribute seen, no rule but: */
	m.role[V - 1] = LD_ROLE_SEEN | LD_ROLE_SINK; /* the last attribute a sink role */
	m.max_layers = max_layers;
	m.z.cond.window = m.a.cond.window = m.e.cond.window = window;
	if (et)
		et_classes(&m.et, V);
	FILE *f = fopen(path, "wb");
	if (!f || ld_diff_write(&m, f) != 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
	ld_diff_free(&m);
}

/* The magic and a header alone (the reader refuses it before allocating). */
static void header(const char *path, const uint32_t h[11])
{
	FILE *f = fopen(path, "wb");
	static const char magic[8] = {'L', 'D', 'D', 'I', 'F', 'F', 0, 4};
	if (!f || fwrite(magic, 1, 8, f) != 8 || fwrite(h, 4, 11, f) != 11 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static void cut(const char *from, const char *to, long keep, int version)
{
	FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
	if (!f || !g) {
		perror(to);
		exit(1);
	}
	for (long i = 0, c; (keep < 0 || i < keep) && (c = getc(f)) != EOF; i++)
		putc(i == 7 && version >= 0 ? version : (int)c, g);
	fclose(f);
	fclose(g);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: seed_layerdag_diff DIR\n");
		return 2;
	}
	char p[4096], q[4096];
#define AT(buf, name) (snprintf(buf, sizeof buf, "%s/%s", argv[1], name), buf)
	model(AT(p, "tiny.model"), 3, 4, 2, 1, 4, 2, 3, 3, 0, false);
	model(AT(q, "k0.model"), 2, 2, 1, 0, 1, 1, 1, 1, 0, false);
	/* fitted on ETs: a window of 1 layer (the fuzz target samples 3), 4 classes */
	model(AT(q, "et-window.model"), 4, 3, 2, 1, 3, 2, 3, 5, 1, true);
	cut(AT(p, "tiny.model"), AT(q, "cut.model"), 1000, -1);
	cut(AT(p, "tiny.model"), AT(q, "version-1.model"), -1, 1);
	cut(AT(p, "tiny.model"), AT(q, "version-2.model"), -1, 2);
	cut(AT(p, "tiny.model"), AT(q, "version-3.model"), -1, 3);
	header(AT(p, "deep-wide.model"),
	       (const uint32_t[11]){3, 4096, 2, 1, 4, 2, 1u << 20, 3, 0, 0, 0});
	header(AT(p, "huge-sizes.model"),
	       (const uint32_t[11]){47, 4096, 1024, 8, 1024, 1024, 1u << 20, 1024, 1u << 20, 47,
	                            47 * 16});
	/* more ET values than the classes may hold */
	header(AT(p, "et-too-many.model"),
	       (const uint32_t[11]){3, 4, 2, 1, 4, 2, 3, 3, 1, 3, 3 * 16 + 1});
	return 0;
}
