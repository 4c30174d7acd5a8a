/* et_json_str: the suite's one JSON string escaper, used by every JSON a
 * tool writes (et_json's ET form, the jsonizer, et-validate's reports,
 * et-sim's reports and the trace-event writer).
 *
 * Always escaped: '"' and '\\' (as \" and \\) and the bytes below 0x20
 * (\b \f \n \r \t in their short forms, the others as \u00XX; the flags
 * below narrow the short forms for writers whose layout was fixed before).
 *
 * Invalid UTF-8, the one policy: bytes that are not valid UTF-8 (strictly:
 * no stray continuation byte, cut sequence, overlong form, surrogate or
 * code point above U+10FFFF) are copied as they are, so a name read from a
 * trace is written back byte for byte (ET -> JSON -> ET keeps it). Output
 * that must be ASCII (ET_JSTR_ASCII) cannot hold them: there each such byte
 * is \ufffd, as Python's decode(errors="replace") then json.dumps gives.
 * doc/json.md says the same for users. */
#ifndef ET_JSON_STR_H
#define ET_JSON_STR_H

#include "et_buf.h"

enum {
	/* json.dumps(ensure_ascii=True): printable ASCII as it is, every
	 * other code point \uXXXX (a surrogate pair above the BMP) */
	ET_JSTR_ASCII = 1,
	/* U+0085, U+2028 and U+2029 as \u escapes, so one JSONL record stays
	 * one line for every line splitter (Python's splitlines) */
	ET_JSTR_LINESEP = 2,
	/* controls: only \n and \t short, the others \u00XX (et-sim) */
	ET_JSTR_CTRL_NT = 4,
	/* controls: all \u00XX, none short (et-validate) */
	ET_JSTR_CTRL_HEX = 8,
};

/* Appends the string s as a JSON string, quotes included. */
void et_json_str(et_buf *b, const char *s, unsigned flags);

#endif
