#include "et_jsonscan.h"

#include <stdbool.h>
#include <stdint.h>

#define SCAN_FAIL ((size_t)-1)

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Characters of numbers and of true/false/null (and of garbage words, which
 * the parser rejects later with a better message). */
static bool is_token_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-' || c == '+' || c == '.';
}

size_t et_jsonscan_ws(const char *p, size_t len, size_t pos)
{
	while (pos < len && is_ws((unsigned char)p[pos]))
		pos++;
	return pos;
}

static size_t fail_at(size_t *bad, size_t at)
{
	if (bad)
		*bad = at;
	return SCAN_FAIL;
}

/* Bytes that end a run of plain string content: the quote, the escape,
 * and the control characters JSON forbids raw. */
#define X16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
static const unsigned char in_string_special[256] = {X16(1), X16(1), ['"'] = 1, ['\\'] = 1};

/* p[pos] == '"': position past the closing quote, 0 if the window ends. */
static size_t string_end(const char *p, size_t len, size_t pos, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)p;
	for (size_t i = pos + 1; i < len; i++) {
		while (i < len && !in_string_special[u[i]])
			i++;
		if (i == len)
			break;
		if (u[i] == '"')
			return i + 1;
		if (u[i] == '\\')
			i++; /* the escaped byte cannot end the string */
		else
			return fail_at(bad, i);
	}
	return 0;
}

static size_t token_end(const char *p, size_t len, size_t pos)
{
	while (pos < len && is_token_char((unsigned char)p[pos]))
		pos++;
	return pos == len ? 0 : pos;
}

/* A bit stack of open brackets: 1 = object, 0 = array. */
typedef struct nest {
	uint64_t bits[ET_JSONSCAN_MAX_DEPTH / 64];
	size_t depth;
} nest;

static bool nest_push(nest *n, bool object)
{
	if (n->depth == ET_JSONSCAN_MAX_DEPTH)
		return false;
	uint64_t m = (uint64_t)1 << (n->depth % 64);
	if (object)
		n->bits[n->depth / 64] |= m;
	else
		n->bits[n->depth / 64] &= ~m;
	n->depth++;
	return true;
}

static bool nest_pop(nest *n, bool object)
{
	if (n->depth == 0)
		return false;
	size_t d = n->depth - 1;
	bool top = (n->bits[d / 64] >> (d % 64)) & 1;
	if (top != object)
		return false;
	n->depth = d;
	return true;
}

size_t et_jsonscan_value_end_ex(const char *p, size_t len, size_t pos, size_t *bad)
{
	nest n;
	n.depth = 0;
	size_t i = pos;
	for (;;) {
		if (i >= len)
			return 0;
		unsigned char c = (unsigned char)p[i];
		size_t next;
		if (c == '"') {
			next = string_end(p, len, i, bad);
		} else if (c == '{' || c == '[') {
			if (!nest_push(&n, c == '{'))
				return fail_at(bad, i);
			next = i + 1;
		} else if (c == '}' || c == ']') {
			if (!nest_pop(&n, c == '}'))
				return fail_at(bad, i);
			next = i + 1;
		} else if (is_ws(c) || c == ',' || c == ':') {
			if (n.depth == 0)
				return fail_at(bad, i); /* no value starts like this */
			next = i + 1;
		} else if (is_token_char(c)) {
			next = token_end(p, len, i);
		} else {
			return fail_at(bad, i);
		}
		if (next == 0 || next == SCAN_FAIL)
			return next;
		i = next;
		if (n.depth == 0)
			return i;
	}
}

size_t et_jsonscan_value_end(const char *p, size_t len, size_t pos)
{
	return et_jsonscan_value_end_ex(p, len, pos, NULL);
}

void et_jsonscan_linecol(const char *p, size_t pos, unsigned long *line, unsigned long *col)
{
	unsigned long l = 1;
	size_t start = 0;
	for (size_t i = 0; i < pos; i++)
		if (p[i] == '\n') {
			l++;
			start = i + 1;
		}
	*line = l;
	*col = (unsigned long)(pos - start) + 1;
}
