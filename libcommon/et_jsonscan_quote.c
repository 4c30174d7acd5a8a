/* The number-quoting pre-pass of et_jsonscan.h. */
#include "et_jsonscan.h"

#include <stdbool.h>
#include <string.h>

/* Integers of up to 15 significant digits are exact as doubles. */
enum { EXACT_DIGITS = 15 };

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word_char(unsigned char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
	       c == '+' || c == '.';
}

static bool needs_quotes(const char *t, size_t n)
{
	size_t i = t[0] == '-' ? 1 : 0;
	while (i < n && t[i] == '0')
		i++;
	size_t sig = 0;
	for (; i < n; i++) {
		if (!is_digit((unsigned char)t[i]))
			return true;
		sig++;
	}
	return sig > EXACT_DIGITS;
}

/* p[pos] == '"': position past the closing quote (or len if unterminated,
 * which the parser reports). memchr finds each quote; an odd run of
 * backslashes before it escapes it. */
static size_t skip_string(const char *p, size_t len, size_t pos)
{
	size_t i = pos + 1;
	for (;;) {
		const char *q = memchr(p + i, '"', len - i);
		if (!q)
			return len;
		size_t at = (size_t)(q - p), bs = 0;
		while (at - bs > pos + 1 && p[at - bs - 1] == '\\')
			bs++;
		if (bs % 2 == 0)
			return at + 1;
		i = at + 1;
	}
}

size_t et_jsonscan_quote_numbers(const char *p, size_t len, et_buf *out)
{
	size_t i = 0, copied = 0, quoted = 0;
	et_buf_reserve(out, len + 1);
	while (i < len) {
		unsigned char c = (unsigned char)p[i];
		if (c == '"') {
			i = skip_string(p, len, i);
			continue;
		}
		if (!is_word_char(c)) {
			i++;
			continue;
		}
		size_t end = i;
		while (end < len && is_word_char((unsigned char)p[end]))
			end++;
		if ((c == '-' || is_digit(c)) && needs_quotes(p + i, end - i)) {
			et_buf_append(out, p + copied, i - copied);
			et_buf_putc(out, '"');
			et_buf_append(out, p + i, end - i);
			et_buf_putc(out, '"');
			copied = end;
			quoted++;
		}
		i = end;
	}
	et_buf_append(out, p + copied, len - copied);
	return quoted;
}
