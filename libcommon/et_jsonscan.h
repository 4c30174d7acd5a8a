/* et_jsonscan: find the extent of one JSON value in a byte window without
 * building a tree, so big documents are parsed one small object at a time.
 * It tracks strings (with escapes) and bracket nesting only; the value itself
 * is validated later by the real parser (cJSON). */
#ifndef ET_JSONSCAN_H
#define ET_JSONSCAN_H

#include "et_buf.h"
#include <stddef.h>

/* Deepest bracket nesting the scanner follows; deeper is malformed. */
#define ET_JSONSCAN_MAX_DEPTH 1024

/* Skip JSON white space from pos; returns the new position. */
size_t et_jsonscan_ws_run(const char *p, size_t len, size_t pos);
/* Inline for the common case, a value with no white space before it. */
static inline size_t et_jsonscan_ws(const char *p, size_t len, size_t pos)
{
	return pos < len && (unsigned char)p[pos] > ' ' ? pos : et_jsonscan_ws_run(p, len, pos);
}
/* Given p[pos] at the start of a value, return the position just past it;
 * 0 if the window ends first (need more bytes), (size_t)-1 if malformed
 * (unbalanced or mismatched brackets, a raw control character in a string,
 * a byte that cannot occur outside strings). Line/column are the caller's
 * job. A bare scalar that reaches the end of the window also returns 0: the
 * next byte might continue it. */
size_t et_jsonscan_value_end(const char *p, size_t len, size_t pos);
/* The same; on (size_t)-1 also sets *bad to the offending byte's position. */
size_t et_jsonscan_value_end_ex(const char *p, size_t len, size_t pos, size_t *bad);
/* The members of the JSON object that is the whole text p[0..len) (white
 * space and a UTF-8 byte-order mark may precede it): the position of each
 * member's key (its opening quote), in document order, the order cJSON keeps
 * its children in, so that off[i] locates child first + i of the parsed
 * object (cJSON does not keep positions). Fills off[0..max) with the keys of
 * members first .. first + max - 1 (those that exist) and returns the number
 * of members in all (call with max 0 to count), or (size_t)-1 when the text
 * is not one well-formed object. */
size_t et_jsonscan_member_keys(const char *p, size_t len, size_t first, size_t *off, size_t max);
/* Line and column (1-based) of byte pos in p[0..pos). */
void et_jsonscan_linecol(const char *p, size_t pos, unsigned long *line, unsigned long *col);

/* The pre-pass run before cJSON_Parse: cJSON keeps numbers as doubles, so
 * every number token that a double may not hold exactly is wrapped in quotes
 * and then read from its text (strtoull/strtoll/strtod). Quoted are tokens
 * starting with '-' or a digit that have more than 15 significant digits or
 * any character besides the sign and digits ('.', 'e', ...): integer tokens of
 * at most 15 digits are exact as doubles, and fractional ones are read with
 * strtod from their full text (cJSON would cut a token at 63 characters).
 * Strings (with escapes) are copied unchanged. Appends the result to out;
 * returns the number of tokens quoted. A consequence: a string field that is
 * given such a number is read as its digits. */
size_t et_jsonscan_quote_numbers(const char *p, size_t len, et_buf *out);

#endif
