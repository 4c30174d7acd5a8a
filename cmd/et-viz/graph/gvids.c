#include "et-viz/graph/gvids.h"
#include "et_mem.h"

#include <stdlib.h>

/* The map declines every name: cgraph then keeps the name itself (as its
 * own reference-counted string, which its writer needs to quote names
 * right) and asks for an anonymous id, which is the next odd number here.
 * Named and anonymous objects alike are numbered in creation order. */
typedef struct ids {
	IDTYPE next;
} ids;

static void *ids_open(Agraph_t *g, Agdisc_t *d)
{
	(void)g, (void)d;
	ids *s = et_xmalloc(sizeof *s);
	s->next = 1;
	return s;
}

static long ids_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
	(void)objtype;
	if (str || !createflag)
		return 0;
	ids *s = state;
	*id = s->next;
	s->next += 2; /* odd: what cgraph expects of an id it did not name */
	return 1;
}

static long ids_alloc(void *state, int objtype, IDTYPE id)
{
	(void)state, (void)objtype;
	return id & 1; /* only ids this map handed out */
}

static void ids_free(void *state, int objtype, IDTYPE id)
{
	(void)state, (void)objtype, (void)id;
}

static char *ids_print(void *state, int objtype, IDTYPE id)
{
	(void)state, (void)objtype, (void)id;
	return NULL; /* cgraph's own map has every name */
}

static void ids_close(void *state)
{
	free(state);
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
