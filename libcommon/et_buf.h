/* et_buf: a growable byte buffer. Growth is geometric; every append either
 * succeeds or ends the process as et_mem says for out-of-memory (which is
 * not an input error: callers bound sizes from untrusted data before
 * appending). */
#ifndef ET_BUF_H
#define ET_BUF_H

#include "et_mem.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct et_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
} et_buf;

void et_buf_free(et_buf *b);
/* The slow half of et_buf_reserve: ET_GROW. */
void et_buf_grow(et_buf *b, size_t extra);

/* Inline: converters append a few bytes at a time, millions of times. */
static inline void et_buf_reserve(et_buf *b, size_t extra) /* cap >= len + extra */
{
	if (b->cap - b->len < extra)
		et_buf_grow(b, extra);
}

static inline void et_buf_append(et_buf *b, const void *p, size_t n)
{
	et_buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
}

static inline void et_buf_putc(et_buf *b, char c)
{
	et_buf_reserve(b, 1);
	b->data[b->len++] = (uint8_t)c;
}

void et_buf_puts(et_buf *b, const char *s);
/* Append the whole file at path ("-": standard input), then a '\0' that b->len does not count
 * (so the text can be parsed as a C string). Returns 0, or -1 with e set:
 * code 4 when it cannot be opened or read ("PATH: is a directory" for a
 * directory), 3 when it holds more than max
 * bytes (nothing beyond max + 64 KiB is read). */
struct et_error;
int et_buf_read_file(et_buf *b, const char *path, size_t max, struct et_error *e);
void et_buf_printf(et_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
