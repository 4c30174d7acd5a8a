#include "et_output.h"
#include "et_buf.h"
#include "et_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct et_output {
	char *path; /* NULL for stdout and devices */
	char *name; /* a device's path, for messages */
	char *tmp;
	FILE *f;
	struct et_output *next; /* in the list of outputs not yet committed */
	bool closed;
	bool direct; /* a device or pipe written in place: nothing to rename */
};

/* "cannot create: No such file or directory" does not say which: when the
 * folder is missing, name it (tools do not create folders behind -o or
 * --split PREFIX; a typo would scatter them). */
static void create_failed(const char *path, int err, et_error *e)
{
	const char *slash = strrchr(path, '/');
	if (err == ENOENT && slash && slash != path) {
		size_t n = (size_t)(slash - path);
		char *dir = et_xmalloc(n + 1);
		memcpy(dir, path, n);
		dir[n] = 0;
		struct stat st;
		bool missing = stat(dir, &st) != 0;
		if (missing)
			et_fail(e, ET_EXIT_IO,
			        "%s: cannot create: the folder %s does not exist (create it first)",
			        path, dir);
		free(dir);
		if (missing)
			return;
	}
	et_fail(e, ET_EXIT_IO, "%s: cannot create: %s", path, strerror(err));
}

static et_output *pending;

/* The signals that end a job (^C, kill, a closed terminal, a reader gone):
 * the app layer's handler (app/et_app.h) removes the temporary files through
 * et_output_unlink_temps, then dies of the signal. The list is changed with
 * them blocked, so the handler never walks a half-changed list. */
static const int end_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
static void (*first_temp_hook)(void);

const int *et_output_end_signals(size_t *n)
{
	*n = sizeof end_signals / sizeof *end_signals;
	return end_signals;
}

void et_output_set_temp_hook(void (*fn)(void))
{
	first_temp_hook = fn;
}

void et_output_unlink_temps(void)
{
	for (et_output *o = pending; o; o = o->next)
		if (o->tmp)
			unlink(o->tmp); /* async-signal-safe */
}

static void block_signals(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof end_signals / sizeof *end_signals; i++)
		sigaddset(&set, end_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

/* With the end signals blocked. */
static void add_pending_blocked(et_output *o)
{
	o->next = pending;
	pending = o;
}

static void unlink_pending(et_output *o)
{
	sigset_t old;
	block_signals(&old);
	for (et_output **p = &pending; *p; p = &(*p)->next)
		if (*p == o) {
			*p = o->next;
			break;
		}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void free_output(et_output *o)
{
	unlink_pending(o);
	free(o->path);
	free(o->name);
	free(o->tmp);
	free(o);
}

int et_output_open(et_output **out, const char *path, bool binary, et_error *e)
{
	et_output *o = et_xcalloc(1, sizeof *o);
	*out = o;
	if (!path || strcmp(path, "-") == 0) {
		if (binary && isatty(1)) {
			free(o);
			*out = NULL;
			return et_fail(e, ET_EXIT_USAGE,
			               "refusing to write binary output to a terminal "
			               "(redirect it or use -o FILE)");
		}
		o->f = stdout;
		return 0;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or a pipe (-o /dev/null, -o /dev/stdout): write to it
		 * directly; renaming a temp file over it would replace it. */
		o->f = fopen(path, binary ? "wb" : "w");
		if (!o->f) {
			et_fail(e, ET_EXIT_IO, "%s: cannot open: %s", path, strerror(errno));
			free(o);
			*out = NULL;
			return -1;
		}
		o->direct = true;
		o->name = et_xstrdup(path);
		return 0;
	}
	o->path = et_xstrdup(path);
	size_t n = strlen(path) + 16;
	o->tmp = et_xmalloc(n);
	snprintf(o->tmp, n, "%s.tmpXXXXXX", path);
	static bool hooked;
	if (!hooked && first_temp_hook) {
		first_temp_hook();
		hooked = true;
	}
	/* the file and its place in the list appear together for the handler */
	sigset_t old;
	block_signals(&old);
	int fd = mkstemp(o->tmp);
	if (fd >= 0)
		add_pending_blocked(o);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
		create_failed(path, errno, e);
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free_output(o);
		*out = NULL;
		return -1;
	}
	/* mkstemp makes 0600 files; outputs should look like any other file. */
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, 0666 & ~um);
	return 0;
}

FILE *et_output_file(et_output *o)
{
	return o->f;
}

const char *et_output_stdout_name(void)
{
	/* stdout redirected to a file or device (> /dev/full): its path says
	 * more than "<stdout>"; a pipe or a terminal has none */
	static char name[256];
	ssize_t n = readlink("/proc/self/fd/1", name, sizeof name - 1);
	if (n <= 0 || name[0] != '/' || strncmp(name, "/dev/pts/", 9) == 0)
		return "<stdout>";
	name[n] = 0;
	et_msg_one_line(name);
	return name;
}

const char *et_output_name(const et_output *o)
{
	return o->path ? o->path : o->name ? o->name : et_output_stdout_name();
}

int et_write_failed(const char *name, et_error *e)
{
	if (!errno) /* an earlier write failed; its errno is gone */
		return et_fail(e, ET_EXIT_IO, "%s: write error", name);
	return et_fail(e, ET_EXIT_IO, "%s: write error: %s", name, strerror(errno));
}

static int close_file(et_output *o, et_error *e)
{
	if (o->closed)
		return 0;
	o->closed = true;
	errno = 0; /* ferror alone (an earlier write failed) leaves no reason */
	int bad = fflush(o->f) != 0 || ferror(o->f);
	if (o->path || o->direct)
		bad |= fclose(o->f) != 0;
	if (bad)
		return et_write_failed(et_output_name(o), e);
	return 0;
}

int et_output_commit(et_output *o, et_error *e)
{
	if (close_file(o, e) < 0) {
		et_output_abort(o);
		return -1;
	}
	if (o->path && rename(o->tmp, o->path) != 0) {
		et_fail(e, ET_EXIT_IO, "%s: cannot rename into place: %s", o->path,
		        strerror(errno));
		et_output_abort(o);
		return -1;
	}
	free_output(o);
	return 0;
}

int et_output_close_deferred(et_output *o, et_error *e)
{
	if (close_file(o, e) < 0) {
		et_output_abort(o);
		return -1;
	}
	if (!o->path) /* stdout or a device: written, nothing to put in place */
		free_output(o);
	return 0;
}

int et_output_commit_all(et_error *e)
{
	while (pending) {
		if (et_output_commit(pending, e) < 0) {
			et_output_abort_all();
			return -1;
		}
	}
	return 0;
}

void et_output_abort(et_output *o)
{
	if (!o)
		return;
	if (o->direct && !o->closed)
		fclose(o->f);
	if (o->path) {
		if (!o->closed)
			fclose(o->f);
		unlink(o->tmp);
	}
	free_output(o);
}

void et_output_abort_all(void)
{
	while (pending)
		et_output_abort(pending);
}
