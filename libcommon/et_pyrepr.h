/* et_pyrepr: Python's str() of a JSON value, computed from the raw JSON text.
 *
 * The reference PyTorch converter stores IOInfo as str(json.load(...)) of the
 * input values: lists as "[a, b]", strings single-quoted (double quotes when
 * the text holds ' and no "), True/False/None, Python float repr ("1e-05",
 * "100.0"), and integers with every digit (values beyond 2^53 occur in real
 * traces). Working from the text keeps every digit and needs no tree.
 *
 * Non-ASCII characters are kept as UTF-8 unless Python would escape them;
 * the set of non-printable code points is the fixed list in et_pyrepr.c
 * (controls, format characters, separators, surrogates, private use and
 * noncharacters), which covers what traces contain. */
#ifndef ET_PYREPR_H
#define ET_PYREPR_H

#include "et_buf.h"
#include <stddef.h>

/* Append str(value) for the JSON value in p[0..len) (white space around it
 * allowed). Returns 0, or -1 if the text is not valid JSON, with *bad (if not
 * NULL) set to the offending byte position. */
int et_pyrepr(const char *p, size_t len, et_buf *out, size_t *bad);

/* Python repr() of a double ("1e-05", "100.0", "inf", "nan", "-0.0"). */
void et_pyrepr_float(double v, et_buf *out);

/* Python repr() of a UTF-8 string s[0..n). */
void et_pyrepr_str(const char *s, size_t n, et_buf *out);

#endif
