#include "et-convert/pytorch/pt_run.h"
#include "et-convert/pytorch/pt_kineto.h"
#include "et_mem.h"
#include "et_path.h"
#include "et_src.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int pt_sniff(const char *path, et_error *e)
{
	et_src *s;
	if (et_src_open(&s, path, e) < 0)
		return -1;
	et_src_mode mode;
	int kind = PT_KIND_OTHER;
	if (et_src_sniff_container(s, &mode, e) < 0) {
		et_src_close(s);
		return -1;
	}
	if (mode != ET_SRC_SECTION) {
		et_src_set_mode(s, mode);
		int64_t a = et_src_fill(s, 1 << 16, e);
		if (a < 0) {
			et_src_close(s);
			return -1;
		}
		/* Kineto traces put deviceProperties (~450 bytes a GPU) before
		 * traceEvents: look at all 64 KiB read. */
		size_t n = (size_t)a;
		char *head = et_xmalloc(n + 1);
		memcpy(head, et_src_data(s), n);
		head[n] = 0;
		size_t i = strspn(head, " \t\r\n");
		/* our JSON/JSONL starts with "rank"/"ranks" (its metadata may well
		 * hold a "schema" attribute) */
		/* head is NUL-terminated: look past '{' only when there is one */
		size_t k = head[i] == '{' ? i + 1 + strspn(head + i + 1, " \t\r\n") : i;
		if (head[i] == '{' && strncmp(head + k, "\"rank", 5) == 0)
			kind = PT_KIND_OTHER;
		else if (head[i] == '{' && strstr(head, "\"traceEvents\""))
			kind = PT_KIND_KINETO;
		else if (head[i] == '[' && strstr(head, "\"ph\""))
			kind = PT_KIND_KINETO; /* a bare chrome-trace event array */
		else if (head[i] == '{' && strstr(head, "\"schema\""))
			kind = PT_KIND_HOST;
		free(head);
	}
	et_src_close(s);
	return kind;
}

/* The number in a name like host_et.3.json.gz or kineto_3.json, or -1. */
static int64_t name_number(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return -1; /* a pipe's name (/dev/fd/63) is no rank */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	int64_t v = -1;
	for (const char *p = base; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == base || p[-1] < '0' || p[-1] > '9')) {
			char *end;
			long long x = strtoll(p, &end, 10);
			/* only the last number before the extensions counts */
			if (strncmp(end, ".json", 5) == 0 || *end == 0)
				v = x;
		}
	return v;
}

typedef struct flist {
	char **v;
	int n;
	size_t cap;
} flist;

static void flist_add(flist *f, const char *s)
{
	ET_GROW(f->v, f->cap, (size_t)f->n + 1);
	f->v[f->n++] = et_xstrdup(s);
}

static void flist_free(flist *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Classify one argument (a file or a directory of traces). */
static int classify(const char *path, int want, flist *host, flist *kin, et_error *e)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		int before = host->n;
		DIR *d = opendir(path);
		if (!d)
			return et_fail(e, ET_EXIT_IO, "%s: cannot read directory", path);
		flist names = {0};
		struct dirent *de;
		while ((de = readdir(d)))
			if (de->d_name[0] != '.')
				flist_add(&names, de->d_name);
		closedir(d);
		if (names.n) /* qsort wants a non-NULL base even for nothing */
			qsort(names.v, (size_t)names.n, sizeof *names.v, cmp_str);
		int r = 0;
		for (int i = 0; i < names.n && r == 0; i++) {
			char *full = et_path_join(path, names.v[i]);
			int k = strstr(names.v[i], ".json") ? pt_sniff(full, e) : PT_KIND_OTHER;
			if (k < 0)
				r = -1;
			else if (k == PT_KIND_HOST)
				flist_add(host, full);
			else if (k == PT_KIND_KINETO)
				flist_add(kin, full);
			free(full);
		}
		flist_free(&names);
		if (r == 0 && host->n == before)
			r = et_fail(e, ET_EXIT_IO,
			            "%s: is a directory without a PyTorch host trace (a JSON file "
			            "whose nodes have op names) in it",
			            path);
		return r;
	}
	/* stdin, a pipe, <(...): it can be read once, so it is not sniffed: it
	 * is what its place says (an operand a host trace, -k a Kineto trace) */
	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		flist_add(want == PT_KIND_HOST ? host : kin, path);
		return 0;
	}
	int k = pt_sniff(path, e);
	if (k < 0)
		return -1;
	if (k == PT_KIND_OTHER)
		return et_fail(e, ET_EXIT_DATA, "%s: not a PyTorch host or Kineto trace", path);
	flist_add(k == PT_KIND_HOST ? host : kin, path);
	return 0;
}

/* A Kineto trace read on its own thread while the host trace is parsed:
 * the two files are independent until linking, and a machine with a second
 * core reads both in the time of the larger. */
typedef struct kt_job {
	kt_data d;
	const char *path;
	et_error e;
	int rc;
} kt_job;

static void *kt_job_run(void *arg)
{
	kt_job *j = arg;
	j->rc = kt_read(&j->d, j->path, &j->e);
	return NULL;
}

static int parse_and_link(pt_trace *t, const char *host, const char *kin, const pt_opts *o,
                          et_error *e)
{
	kt_job job = {.path = kin};
	pthread_t th;
	bool threaded = kin && pthread_create(&th, NULL, kt_job_run, &job) == 0;
	int r = pt_parse(t, host, o, e);
	if (threaded)
		pthread_join(th, NULL);
	else if (kin && r == 0)
		kt_job_run(&job);
	/* Messages in the order of a sequential run: host trace first. */
	if (r == 0 && o->compat && t->legacy)
		r = et_fail(e, ET_EXIT_DATA,
		            "%s: --compat chakra: chakra_converter rejects schema %s "
		            "(convert without --compat)",
		            host, t->schema);
	if (r == 0 && kin && job.rc < 0) {
		*e = job.e;
		r = -1;
	}
	if (r == 0 && kin)
		r = pt_link_kineto_data(t, &job.d, kin, o, e);
	kt_free(&job.d);
	return r;
}

static int convert_one(const char *host, const char *kin, uint32_t rank, uint32_t world,
                       const pt_opts *o, et_writer *out, et_error *e)
{
	pt_trace t;
	int r = parse_and_link(&t, host, kin, o, e);
	et_rank_info ri;
	memset(&ri, 0, sizeof ri);
	ri.rank = rank;
	ri.world_size = world;
	ri.input = host;
	ri.format = ET_FMT_PYTORCH;
	if (r == 0)
		r = o->compat ? pt_emit_compat(&t, out, &ri, e) : pt_emit_fixed(&t, out, &ri, o, e);
	pt_trace_free(&t);
	return r;
}

/* Kineto file for host i: same number in the name, else same position. */
static const char *pair_kineto(const flist *host, const flist *kin, int i)
{
	int64_t want = name_number(host->v[i]);
	if (want >= 0)
		for (int k = 0; k < kin->n; k++)
			if (name_number(kin->v[k]) == want)
				return kin->v[k];
	return i < kin->n && kin->n == host->n ? kin->v[i] : NULL;
}

/* The rank of the i-th host trace: --set-rank, else the number in its
 * name, else its place among the inputs. */
static int64_t host_rank(const flist *host, int i, int64_t set_rank)
{
	int64_t num = name_number(host->v[i]);
	return set_rank >= 0 ? set_rank : num >= 0 ? num : host->n == 1 ? 0 : i;
}

int pt_run(int argc, char *const argv[], const char *const *kineto, int nkineto, int64_t set_rank,
           const pt_opts *o, et_writer *out, et_error *e)
{
	flist host = {0}, kin = {0};
	int r = 0;
	static char *const std_in[] = {"-"};
	if (argc == 0) { /* no operand: the host trace is on stdin */
		argc = 1;
		argv = std_in;
	}
	for (int i = 0; i < argc && r == 0; i++)
		r = classify(argv[i], PT_KIND_HOST, &host, &kin, e);
	for (int i = 0; i < nkineto && r == 0; i++)
		r = classify(kineto[i], PT_KIND_KINETO, &host, &kin, e);
	if (r == 0 && host.n == 0)
		r = et_fail(e, ET_EXIT_USAGE, "no PyTorch host execution trace among the inputs");
	if (r == 0 && set_rank >= 0 && host.n > 1)
		r = et_fail(e, ET_EXIT_USAGE, "--set-rank needs a single host trace (%d given)",
		            host.n);
	if (r == 0 && kin.n > 0 && kin.n != host.n)
		r = et_fail(e, ET_EXIT_USAGE, "%d host traces but %d Kineto traces", host.n, kin.n);
	/* The traces given are the world when their ranks are 0..n-1; one rank
	 * of a bigger job (host_et.3.json alone) has a world nobody told us. */
	uint32_t world = (uint32_t)host.n;
	for (int i = 0; i < host.n; i++)
		if (host_rank(&host, i, set_rank) >= host.n)
			world = 0;
	for (int i = 0; i < host.n && r == 0; i++)
		r = convert_one(host.v[i], kin.n ? pair_kineto(&host, &kin, i) : NULL,
		                (uint32_t)host_rank(&host, i, set_rank), world, o, out, e);
	/* Users read a trace without durations as a trace of instant ops. */
	if (r == 0 && kin.n == 0 && !o->quiet)
		et_warn("host trace only: no durations; pass --kineto FILE for GPU times");
	flist_free(&host);
	flist_free(&kin);
	return r;
}
