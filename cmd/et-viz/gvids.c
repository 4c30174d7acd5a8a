#include "gvids.h"
#include "et_mem.h"
#include "et_strmap.h"

#include <stdlib.h>
#include <string.h>

/* Per graph: names by creation (id 2k + 2 for the k-th name; cgraph wants
 * even ids for named objects and keeps odd ones for anonymous objects). */
typedef struct ids {
	et_strmap names;
	char **stable; /* per name: a copy that no later insertion moves */
	uint32_t cap;
	IDTYPE anon; /* last odd id given */
} ids;

static void *ids_open(Agraph_t *g, Agdisc_t *d)
{
	(void)g, (void)d;
	return et_xcalloc(1, sizeof(ids));
}

static char *keep(ids *s, uint32_t k, const char *str)
{
	if (k == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->stable = et_xrealloc(s->stable, (size_t)s->cap * sizeof *s->stable);
	}
	return s->stable[k] = et_xstrdup(str);
}

static long ids_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
	(void)objtype;
	ids *s = state;
	if (!str) {
		s->anon += 2;
		*id = s->anon | 1;
		return 1;
	}
	uint32_t k = et_strmap_find(&s->names, str);
	if (k == ET_STRMAP_NONE) {
		if (!createflag)
			return 0;
		k = et_strmap_intern_str(&s->names, str);
		keep(s, k, str);
	}
	*id = 2 * (IDTYPE)k + 2;
	return 1;
}

static long ids_alloc(void *state, int objtype, IDTYPE id)
{
	(void)state, (void)objtype, (void)id;
	return 0; /* ids are ours to give: nobody asks for one here */
}

static void ids_free(void *state, int objtype, IDTYPE id)
{
	(void)state, (void)objtype, (void)id; /* a name keeps its id for the graph's life */
}

static char *ids_print(void *state, int objtype, IDTYPE id)
{
	(void)objtype;
	ids *s = state;
	if (id % 2 || id < 2 || (id - 2) / 2 >= et_strmap_count(&s->names))
		return NULL; /* anonymous */
	return s->stable[(id - 2) / 2];
}

static void ids_close(void *state)
{
	ids *s = state;
	for (uint32_t k = 0; k < et_strmap_count(&s->names); k++)
		free(s->stable[k]);
	free(s->stable);
	et_strmap_free(&s->names);
	free(s);
}

static void ids_register(void *state, int objtype, void *obj)
{
	(void)state, (void)objtype, (void)obj;
}

static Agiddisc_t id_disc = {ids_open,  ids_map,   ids_alloc,   ids_free,
                             ids_print, ids_close, ids_register};

Agdisc_t *viz_gv_disc(void)
{
	static Agdisc_t d;
	d.mem = &AgMemDisc;
	d.id = &id_disc;
	d.io = &AgIoDisc;
	return &d;
}
