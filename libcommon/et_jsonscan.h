/* et_jsonscan: find the extent of one JSON value in a byte window without
 * building a tree, so big documents are parsed one small object at a time.
 * It tracks strings (with escapes) and bracket depth only; the value itself
 * is validated later by the real parser (cJSON). */
#ifndef ET_JSONSCAN_H
#define ET_JSONSCAN_H

#include <stddef.h>

/* Skip JSON white space from pos; returns the new position. */
size_t et_jsonscan_ws(const char *p, size_t len, size_t pos);
/* Given p[pos] at the start of a value, return the position just past it;
 * 0 if the window ends first (need more bytes), (size_t)-1 if malformed
 * (unbalanced brackets, bad character). Line/column are the caller's job. */
size_t et_jsonscan_value_end(const char *p, size_t len, size_t pos);
/* Line and column (1-based) of byte pos in p[0..pos). */
void et_jsonscan_linecol(const char *p, size_t pos, unsigned long *line, unsigned long *col);

#endif
