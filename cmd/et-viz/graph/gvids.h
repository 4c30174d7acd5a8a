/* et-viz: the object-id discipline of our cgraph graphs. cgraph's default
 * takes a named object's id from the address of its interned name, and keeps
 * subgraphs ordered by id: the order clusters are written in (and so the
 * DOT and SVG bytes) then depends on where malloc put the names. Ids
 * numbered in order of creation make that order the order we create them
 * in, whatever the heap. */
#ifndef ET_VIZ_GRAPH_GVIDS_H
#define ET_VIZ_GRAPH_GVIDS_H

#include <graphviz/cgraph.h>

/* The discipline to pass to agopen (memory and I/O are cgraph's own). */
Agdisc_t *viz_gv_disc(void);

#endif
