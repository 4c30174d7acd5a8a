/* The deadlock check over rank classes: the coarsest partition of the
 * ranks into classes whose members cannot be told apart by the deadlock
 * check (colour refinement from the summaries' templates: the same
 * template, in groups whose members fall in the same classes at the same
 * places of their templates, sending to and receiving from ranks of the
 * same classes), and one representative per class.
 *
 * Why it is exact: the check computes the least fixed point of "a node is
 * done when its parents are, and a collective when every present member of
 * its group has reached it, a RECV when its SEND is". Under such a
 * partition the step from a state in which the members of each class have
 * done the same nodes gives such a state again, so the fixed point is the
 * representatives' own, copied to their classes; and where it leaves no
 * node waiting on a peer, neither does the check rank by rank.
 *
 * Memory: the representatives' state, and per rank a colour and a few
 * hashes while refining. */
#ifndef ET_VALIDATE_CHECKS_QUOTIENT_H
#define ET_VALIDATE_CHECKS_QUOTIENT_H

#include "et-validate/report/summary.h"

/* A summary xs of one representative per class (q->r: their templates,
 * groups renumbered as the classes' groups, p2p counterparts as
 * representatives; q->xg: one group per set of classes and places),
 * after check_cross. 0 with *q set (free with xsum_quotient_free), or -1
 * when the partition leaves every rank in a class of its own or an exact
 * check of it fails (q untouched). */
int xsum_quotient(const xsum *xs, xsum *q);
void xsum_quotient_free(xsum *q);

#endif
