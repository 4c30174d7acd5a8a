/* Unit tests of et_progress: the three forms of the line ("rank k of N"
 * with percent and time left, "rank R:" when N is unknown, events with no
 * rank), redraws when a count jumps by millions at once (a generator's
 * copied rank), nothing at all with mode -1. stderr goes to a scratch file. */
#include "app/et_app.h"
#include "check.h"
#include "et_progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[] = "/tmp/test_progress.XXXXXX";

static void capture(void)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK(freopen(path, "w", stderr) != NULL);
}

/* What stderr got since the last call, with the terminal codes left out
 * ("\r" and ESC [ K) and each redraw on a line of its own. */
static char *taken(void)
{
	static char out[4096];
	fflush(stderr);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL);
	char raw[4096];
	size_t n = fread(raw, 1, sizeof raw - 1, f);
	fclose(f);
	raw[n] = 0;
	size_t k = 0;
	for (size_t i = 0; i < n && k < sizeof out - 1; i++) {
		if (raw[i] == '\033' && raw[i + 1] == '[' && raw[i + 2] == 'K')
			i += 2;
		else
			out[k++] = raw[i] == '\r' ? '\n' : raw[i];
	}
	out[k] = 0;
	CHECK(freopen(path, "w", stderr) != NULL);
	return out;
}

static void test_known_total(void)
{
	et_progress p;
	et_progress_init(&p, 1, "nodes");
	p.every_ns = 0;
	et_progress_rank(&p, 0, 4);
	et_progress_update(&p, 3000000); /* one jump of 3 M: still drawn */
	et_progress_rank(&p, 1, 4);
	et_progress_update(&p, 6000000);
	et_progress_done(&p);
	char *s = taken();
	CHECK(strstr(s, "\nrank 1 of 4 (0%), 3000000 nodes, ") != NULL);
	CHECK(strstr(s, "\nrank 2 of 4 (25%), 6000000 nodes, ") != NULL);
	CHECK(strstr(s, " s, about ") && strstr(s, " s left"));
	/* time left only once a rank is done: not on the first line */
	char *first = strstr(s, "rank 1 of 4"), *end = first ? strchr(first, '\n') : NULL;
	CHECK(end != NULL);
	if (end) {
		*end = 0;
		CHECK(strstr(first, "left") == NULL);
	}
}

static void test_unknown_total(void)
{
	et_progress p;
	et_progress_init(&p, 1, "nodes");
	p.every_ns = 0;
	et_progress_rank(&p, 7, 0);
	et_progress_update(&p, 4096);
	et_progress_update(&p, 4097); /* within CHECK_EVERY of the last look */
	et_progress_done(&p);
	char *s = taken();
	CHECK(strstr(s, "\nrank 7: 4096 nodes, ") != NULL);
	CHECK(!strstr(s, "4097"));

	et_progress_init(&p, 1, "events");
	p.every_ns = 0;
	et_progress_update(&p, 65536);
	et_progress_done(&p);
	s = taken();
	CHECK(strstr(s, "\n65536 events, ") != NULL && !strstr(s, "rank"));
}

static void test_off(void)
{
	et_progress p;
	et_progress_init(&p, -1, "nodes");
	p.every_ns = 0;
	et_progress_rank(&p, 0, 2);
	et_progress_update(&p, 1u << 20);
	et_progress_done(&p);
	CHECK(taken()[0] == 0);
}

int main(void)
{
	et_app_install(); /* the tools' drawer: the library alone draws nothing */
	capture();
	test_known_total();
	test_unknown_total();
	test_off();
	unlink(path);
	return check_failures();
}
