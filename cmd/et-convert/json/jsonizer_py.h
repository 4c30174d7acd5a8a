/* Python's json.dumps(indent=2, ensure_ascii=True) primitives for the
 * jsonizer: layout state, strings, and protobuf scalars as json_format
 * renders them. Private to jsonizer*.c. */
#ifndef ET_CONVERT_JSON_JSONIZER_PY_H
#define ET_CONVERT_JSON_JSONIZER_PY_H

#include "et_buf.h"
#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>

/* Nesting depth and "no item yet" per level. */
typedef struct jz {
	et_buf *b;
	int depth;
	bool empty[8];
} jz;

void jz_open(jz *z, char c);  /* '{' or '[' */
void jz_close(jz *z, char c); /* '}' or ']': own line unless empty */
void jz_item(jz *z);          /* before each element: ",\n" + indent */
void jz_key(jz *z, const char *k);
void jz_str(et_buf *b, const char *s);
void jz_scalar(jz *z, ProtobufCType t, const void *p);

#endif
