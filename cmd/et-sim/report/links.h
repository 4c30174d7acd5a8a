/* links: where the time goes on the network, for a backend with links (the
 * congestion-aware one): per directed link its bytes, busy time,
 * utilization over the run, longest queue and chunks. */
#ifndef ET_SIM_REPORT_LINKS_H
#define ET_SIM_REPORT_LINKS_H
#include "et-sim/config/cfg.h"
#include "et-sim/engine/sim.h"
#include <stdio.h>

/* The CSV (--link-stats): a header, then one row per link in the order the
 * links were made. Returns 0 (write errors are the output's). A backend
 * without links writes the header alone. */
int links_write_csv(FILE *f, const sim *s);
/* The report's lines on the three busiest links (by busy time; a tie goes
 * to the link made first); nothing for a backend without links. */
void links_report_top(FILE *f, const sim *s);
/* -v: the network's devices, NPUs (ranks) first, one per line. */
void links_print_devices(FILE *f, const cfg *cf);

#endif
