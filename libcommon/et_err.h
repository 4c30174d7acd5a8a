/* et_err: error values and the one-line message format shared by every tool.
 *
 * Library functions never print and never exit: they return a negative value
 * and fill an et_error. Tools print it with et_err_print() and exit with
 * et_app_exit_code() (app/et_app.h, the program-support layer). The exit
 * codes are the suite's contract, stated in every man page. */
#ifndef ET_ERR_H
#define ET_ERR_H

#include <stdarg.h>
#include <stddef.h>

enum {
	ET_EXIT_OK = 0,
	ET_EXIT_FOUND = 1, /* a check found problems */
	ET_EXIT_USAGE = 2,
	ET_EXIT_DATA = 3, /* bad input data */
	ET_EXIT_IO = 4,
};

typedef struct et_error {
	int code;      /* one of ET_EXIT_*; 0 = no error */
	char msg[768]; /* "INPUT: rank R: byte N: what", no tool name, no newline */
} et_error;

/* Sets e (if not NULL) and returns -1, so callers can `return et_fail(...)`.
 * Control characters in the message become '?' (here, in et_warn and in the
 * app layer's et_die): every message is one line whatever input text it
 * quotes. */
int et_fail(et_error *e, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Replace the control characters of msg with '?'. A message names inputs and
 * quotes their text: this keeps it one line. For tools that build messages
 * in their own buffers. */
void et_msg_one_line(char *msg);
/* vsnprintf into msg (n bytes, cut to fit), then et_msg_one_line: how
 * every message of the suite is formatted. */
void et_msg_vformat(char *msg, size_t n, const char *fmt, va_list ap);

/* s as a JSON string literal (quotes and escapes, so a name from the input
 * cannot break the one-line message), cut to fit cap bytes ("..." inside the
 * quotes when cut). Returns buf. */
const char *et_quote(const char *s, char *buf, size_t cap);

/* The program name used as the prefix of every message ("et-convert"). */
void et_err_set_prog(const char *prog);
const char *et_err_prog(void);

/* The suite's one way to warn, for the library and the tools alike: the
 * message (made one line) goes to the warning sink. The library never
 * prints it itself: with no sink (a library user's default) it is dropped;
 * the tools' sink (et_app_init) prints "PROG: warning: MSG" on stderr. */
void et_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
typedef void (*et_warn_fn)(const char *msg);
void et_set_warn_sink(et_warn_fn fn);

#endif
