/* layerdag-sample: DAGs with one categorical attribute per node and a
 * scalar label, as the LayerDAG corpus holds them.
 *
 * Orientation is the file's (doc/layerdag.md): an edge src -> dst
 * goes from a consumer to the producer it reads, so the kernel's output is
 * the one source and its inputs (parameters, constants) are sinks. Every
 * statistic here (degrees, Kahn layers, roles) is taken in that
 * orientation, as the spec states them. */
#ifndef LAYERDAG_SAMPLE_LD_H
#define LAYERDAG_SAMPLE_LD_H

#include "et_err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ld_dag {
	uint32_t n, ne;
	uint32_t *attr;      /* [n] */
	uint32_t (*edge)[2]; /* [ne] (src, dst) */
	double y;
} ld_dag;

typedef struct ld_corpus {
	ld_dag *g;
	size_t n, cap;
	uint32_t vocab; /* 1 + the largest attribute seen */
} ld_corpus;

/* Limits of the text reader: a graph of more nodes or edges than these is
 * bad input (the corpus has at most 154 nodes). */
#define LD_MAX_NODES (1u << 20)
#define LD_MAX_EDGES (1u << 24)
#define LD_MAX_ATTR (1u << 16)

/* --- text.c: the corpus format --------------------------------------------
 * "g <idx> <n> <ne> <y>", then "x <attr_0> ... <attr_{n-1}>", then ne lines
 * "e <src> <dst>"; lines starting with '#' and blank lines are skipped; the
 * file ("-" for standard input) may be gzip-compressed. Errors name the input and its line: exit 3
 * for bad data, 4 for I/O. Appends the graphs to c. */
int ld_text_read(ld_corpus *c, const char *path, et_error *e);
/* The same from a buffer (for tests and the fuzz target); name names it. */
int ld_text_parse(ld_corpus *c, const char *text, size_t len, const char *name, et_error *e);
void ld_text_write(const ld_dag *g, size_t idx, FILE *f);
/* Whether path holds the text format (its first non-blank byte, after
 * gzip, is '#' or a "g " line); "-", a path that is no file (a per-rank
 * set PREFIX) and anything else are Chakra ETs. */
bool ld_is_text(const char *path);

void ld_corpus_free(ld_corpus *c);
void ld_dag_free(ld_dag *g);

/* --- layers.c: Kahn layers -------------------------------------------------
 * layer[i] (from 0) = 0 for a node without predecessor, else 1 + the
 * largest layer of its predecessors. Returns the number of layers, or 0
 * when the graph has a cycle (layer is then partly filled). */
uint32_t ld_layers(const ld_dag *g, uint32_t *layer);
/* Renumbers g's nodes in layer order (by Kahn layer, then id) and sorts its
 * edges by (dependant, dependency): the order a windowed view bisects
 * (context.h). A cyclic graph is left as it is. */
void ld_dag_layer_sort(ld_dag *g);
/* Acyclic, no self edge, no duplicate edge, every endpoint < n. */
bool ld_valid(const ld_dag *g);

/* --- roles.c: the roles of LayerDAG's setting ------------------------------
 * Per attribute, what the corpus shows of it (bits of role[a]): seen at all;
 * never with a successor (a sink role: the kernel's inputs 29 and 7); never
 * without one (never a sink); never without a predecessor (never a source).
 * The rules a generator keeps follow: (a) an attribute never a sink is no
 * sink, (b) one never a source is no source, (c) a sink role has no
 * successor. An attribute the corpus never had is a sink role (a generator
 * never gives it successors) and judged by no rule. */
enum {
	LD_ROLE_SEEN = 1,
	LD_ROLE_SINK = 2,
	LD_ROLE_NOSINK = 4,
	LD_ROLE_NOSOURCE = 8,
	LD_ROLE_ALL = 15,
};
/* The rules a graph breaks, as bits. */
enum { LD_RULE_SINK = 1, LD_RULE_SOURCE = 2, LD_RULE_SUCCESSOR = 4, LD_NRULES = 3 };
/* Learning: init, one add per node (its attribute a < vocab, in- and
 * out-degree), then finish. */
void ld_roles_init(uint8_t *role, uint32_t vocab);
void ld_roles_add(uint8_t *role, uint32_t a, uint32_t indeg, uint32_t outdeg);
void ld_roles_finish(uint8_t *role, uint32_t vocab);
/* The same over every node of c (attributes >= vocab ignored). */
void ld_roles_fit(const ld_corpus *c, uint32_t vocab, uint8_t *role);
/* The LD_RULE_* bits of the rules g breaks against role[vocab]. */
unsigned ld_roles_broken(const ld_dag *g, const uint8_t *role, uint32_t vocab);

#endif
