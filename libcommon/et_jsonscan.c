#include "et_jsonscan.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define SCAN_FAIL ((size_t)-1)

/* Byte classes of the scanner's main loop: one table lookup per byte
 * instead of a chain of comparisons (the scanner reads every byte of a
 * PyTorch trace, more than once). */
enum cls { C_BAD, C_QUOTE, C_OPEN, C_CLOSE, C_SEP, C_WS, C_TOKEN }; /* SEP.. : inert */
/* Token bytes: numbers and true/false/null (and garbage words, which the
 * parser rejects later with a better message). */
#define R10(c)                                                                                     \
	[c] = C_TOKEN, [c + 1] = C_TOKEN, [c + 2] = C_TOKEN, [c + 3] = C_TOKEN, [c + 4] = C_TOKEN, \
	[c + 5] = C_TOKEN, [c + 6] = C_TOKEN, [c + 7] = C_TOKEN, [c + 8] = C_TOKEN,                \
	[c + 9] = C_TOKEN
static const unsigned char cls[256] = {
    [' '] = C_WS,    ['\t'] = C_WS,   ['\n'] = C_WS,   ['\r'] = C_WS,   ['"'] = C_QUOTE,
    ['{'] = C_OPEN,  ['['] = C_OPEN,  ['}'] = C_CLOSE, [']'] = C_CLOSE, [','] = C_SEP,
    [':'] = C_SEP,   ['-'] = C_TOKEN, ['+'] = C_TOKEN, ['.'] = C_TOKEN, R10('0'),
    R10('a'),        R10('a' + 10),   ['u'] = C_TOKEN, ['v'] = C_TOKEN, ['w'] = C_TOKEN,
    ['x'] = C_TOKEN, ['y'] = C_TOKEN, ['z'] = C_TOKEN, R10('A'),        R10('A' + 10),
    ['U'] = C_TOKEN, ['V'] = C_TOKEN, ['W'] = C_TOKEN, ['X'] = C_TOKEN, ['Y'] = C_TOKEN,
    ['Z'] = C_TOKEN,
};

static bool is_ws(unsigned char c)
{
	return cls[c] == C_WS;
}

static bool is_token_char(unsigned char c)
{
	return cls[c] == C_TOKEN;
}

size_t et_jsonscan_ws_run(const char *p, size_t len, size_t pos)
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

/* Does any of the 8 bytes of x end a run of plain string content? The
 * usual SWAR zero-byte tests: x == '"', x == '\\', x < 0x20. */
static bool any_special8(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
	uint64_t zq = (q - ones) & ~q, zb = (b - ones) & ~b, lo = (x - ones * 0x20) & ~x;
	return ((zq | zb | lo) & high) != 0;
}

/* p[pos] == '"': position past the closing quote, 0 if the window ends. */
static size_t string_end(const char *p, size_t len, size_t pos, size_t *bad)
{
	const unsigned char *u = (const unsigned char *)p;
	for (size_t i = pos + 1; i < len; i++) {
		uint64_t x;
		while (len - i >= 8 && (memcpy(&x, u + i, 8), !any_special8(x)))
			i += 8;
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
		switch (cls[c]) {
		case C_QUOTE:
			next = string_end(p, len, i, bad);
			break;
		case C_OPEN:
			if (!nest_push(&n, c == '{'))
				return fail_at(bad, i);
			next = i + 1;
			break;
		case C_CLOSE:
			if (!nest_pop(&n, c == '}'))
				return fail_at(bad, i);
			next = i + 1;
			break;
		case C_WS:
		case C_SEP:
		case C_TOKEN:
			if (n.depth == 0) {
				if (cls[c] != C_TOKEN)
					return fail_at(bad, i); /* no value starts like this */
				next = token_end(p, len, i);
				break;
			}
			/* Inside brackets, numbers, words, commas, colons and blanks
			 * leave the nesting alone: skip them in one run. */
			next = i + 1;
			while (next < len && cls[(unsigned char)p[next]] >= C_SEP)
				next++;
			if (next == len)
				return 0;
			break;
		default:
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

/* p[pos] starts a complete value: the position past it, or 0 when it is
 * malformed or cut short (the whole text is in the window). */
static size_t whole_value_end(const char *p, size_t len, size_t pos)
{
	size_t end = pos < len ? et_jsonscan_value_end(p, len, pos) : 0;
	return end == (size_t)-1 ? 0 : end;
}

size_t et_jsonscan_member_keys(const char *p, size_t len, size_t first, size_t *off, size_t max)
{
	const size_t bad = (size_t)-1;
	size_t pos = len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0, n = 0;
	pos = et_jsonscan_ws(p, len, pos);
	if (pos >= len || p[pos] != '{')
		return bad;
	pos = et_jsonscan_ws(p, len, pos + 1);
	if (pos < len && p[pos] == '}')
		return 0;
	for (;;) {
		if (pos >= len || p[pos] != '"')
			return bad;
		if (n >= first && n - first < max)
			off[n - first] = pos;
		n++;
		size_t end = whole_value_end(p, len, pos);
		pos = end ? et_jsonscan_ws(p, len, end) : len;
		if (pos >= len || p[pos] != ':')
			return bad;
		end = whole_value_end(p, len, et_jsonscan_ws(p, len, pos + 1));
		pos = end ? et_jsonscan_ws(p, len, end) : len;
		if (pos < len && p[pos] == '}')
			return n;
		if (pos >= len || p[pos] != ',')
			return bad;
		pos = et_jsonscan_ws(p, len, pos + 1);
	}
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
