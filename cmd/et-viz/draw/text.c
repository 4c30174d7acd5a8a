/* Text for labels: short names, durations and sizes, and a sanitiser so
 * that names from traces (any bytes) are valid UTF-8 for Graphviz and SVG. */
#include "et-viz/draw/style.h"
#include "et_utf8.h"

#include <stdio.h>
#include <string.h>

static void put_escaped(et_buf *b, char ch, int esc)
{
	if ((esc & ESC_GV) && ch == '\\')
		et_buf_puts(b, "\\\\");
	else if ((esc & ESC_XML) && ch == '&')
		et_buf_puts(b, "&amp;");
	else if ((esc & ESC_XML) && ch == '<')
		et_buf_puts(b, "&lt;");
	else if ((esc & ESC_XML) && ch == '>')
		et_buf_puts(b, "&gt;");
	else if ((esc & ESC_XML) && ch == '"')
		et_buf_puts(b, "&quot;");
	else
		et_buf_putc(b, ch);
}

void viz_put_text(et_buf *b, const char *s, int esc)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		int n = et_utf8_len(p);
		if (n == 0) {
			et_buf_putc(b, '?');
			p++;
		} else if (n == 1) {
			put_escaped(b, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p, esc);
			p++;
		} else {
			et_buf_append(b, p, (size_t)n);
			p += n;
		}
	}
}

/* Length of the bracketed group starting at p ('<' or '('), up to and
 * including its matching close; 0 if it does not close. */
static size_t group_len(const char *p)
{
	int depth = 0;
	for (const char *q = p; *q; q++) {
		depth += *q == '<' || *q == '(';
		depth -= *q == '>' || *q == ')';
		if (depth == 0)
			return (size_t)(q - p) + 1;
	}
	return 0;
}

/* Copies name with template arguments and parameter lists elided: C++
 * kernel names run to thousands of characters, almost all of it inside
 * <...> and (...). Short groups, such as the "(0)" that numbers the parts
 * of an op, stay; so does a name that starts with a bracket. */
static size_t elide(const char *name, char *out, size_t cap)
{
	size_t o = 0;
	for (const char *p = name; *p && o + 8 < cap; p++) {
		size_t g = (*p == '<' || *p == '(') && p != name ? group_len(p) : 0;
		if (g > 5) {
			memcpy(out + o, *p == '<' ? "<…>" : "(…)", 5);
			o += 5;
			p += g - 1;
		} else {
			out[o++] = *p;
		}
	}
	out[o] = '\0';
	return o;
}

/* Byte length of the first n characters of s. */
static size_t chars(const char *s, size_t n)
{
	size_t b = 0;
	for (; s[b] && n; n--)
		for (b++; ((unsigned char)s[b] & 0xC0) == 0x80; b++)
			;
	return b;
}

static size_t nchars(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

#define SHORT_MAX 40 /* characters: a label stays about 2.5 inches wide */

void viz_shorten(const char *name, char *out, size_t cap)
{
	if (strncmp(name, "void ", 5) == 0)
		name += 5;
	char tmp[512];
	elide(name, tmp, sizeof tmp);
	size_t n = nchars(tmp);
	if (n <= SHORT_MAX) {
		snprintf(out, cap, "%s", tmp);
		return;
	}
	/* keep both ends: the namespace and the distinctive suffix */
	size_t head = chars(tmp, 15);
	const char *tail = tmp + chars(tmp, n - (SHORT_MAX - 16));
	snprintf(out, cap, "%.*s…%s", (int)head, tmp, tail);
}

void viz_fmt_dur(uint64_t us, char *out, size_t cap)
{
	if (us < 1000)
		snprintf(out, cap, "%llu µs", (unsigned long long)us);
	else if (us < 1000000)
		snprintf(out, cap, "%.3g ms", (double)us / 1e3);
	else
		snprintf(out, cap, "%.3g s", (double)us / 1e6);
}

void viz_fmt_bytes(int64_t b, char *out, size_t cap)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double x = (double)b;
	int u = 0;
	while ((x >= 1024 || x <= -1024) && u < 4)
		x /= 1024, u++;
	if (u == 0)
		snprintf(out, cap, "%lld B", (long long)b);
	else
		snprintf(out, cap, "%.3g %s", x, unit[u]);
}

void viz_trunc(const char *s, size_t max_chars, char *out, size_t cap)
{
	if (nchars(s) <= max_chars || max_chars < 2) {
		snprintf(out, cap, "%s", max_chars < 2 ? "" : s);
		return;
	}
	snprintf(out, cap, "%.*s…", (int)chars(s, max_chars - 1), s);
}
