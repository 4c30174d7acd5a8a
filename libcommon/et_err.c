#include "et_err.h"
#include "et_json_str.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog_name = "etkit";
static et_warn_fn warn_sink; /* NULL: warnings are dropped */

void et_msg_one_line(char *msg)
{
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

void et_msg_vformat(char *msg, size_t n, const char *fmt, va_list ap)
{
	vsnprintf(msg, n, fmt, ap);
	et_msg_one_line(msg);
}

int et_fail(et_error *e, int code, const char *fmt, ...)
{
	if (e) {
		va_list ap;
		va_start(ap, fmt);
		et_msg_vformat(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
		e->code = code;
	}
	return -1;
}

/* The first m bytes of s as a JSON string, by the one escaper (malloc'ed),
 * or NULL. */
static char *quote_prefix(const char *s, size_t m)
{
	char *t = malloc(m + 1);
	if (!t)
		return NULL;
	memcpy(t, s, m);
	t[m] = '\0';
	et_buf b = {0};
	et_json_str(&b, t, 0);
	et_buf_putc(&b, '\0');
	free(t);
	return (char *)b.data;
}

const char *et_quote(const char *s, char *buf, size_t cap)
{
	if (cap < 8) {
		if (cap)
			buf[0] = '\0';
		return buf;
	}
	s = s ? s : "";
	size_t m = strlen(s);
	for (bool cut = false;; cut = true) {
		char *p = quote_prefix(s, m);
		size_t n = p ? strlen(p) : 0;
		if (p && n + (cut ? 3 : 0) < cap) {
			if (cut) /* "..." before the closing quote */
				snprintf(buf, cap, "%.*s...\"", (int)(n - 1), p);
			else
				memcpy(buf, p, n + 1);
			free(p);
			return buf;
		}
		free(p);
		if (m == 0) { /* out of memory */
			snprintf(buf, cap, "\"\"");
			return buf;
		}
		/* Shorter, and never inside a UTF-8 sequence. */
		m = m > cap ? cap : m * 3 / 4;
		while (m && ((unsigned char)s[m] & 0xC0) == 0x80)
			m--;
	}
}

void et_err_set_prog(const char *prog)
{
	prog_name = prog;
}

const char *et_err_prog(void)
{
	return prog_name;
}

void et_set_warn_sink(et_warn_fn fn)
{
	warn_sink = fn;
}

void et_warn(const char *fmt, ...)
{
	if (!warn_sink)
		return;
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	et_msg_vformat(msg, sizeof msg, fmt, ap);
	va_end(ap);
	warn_sink(msg);
}
