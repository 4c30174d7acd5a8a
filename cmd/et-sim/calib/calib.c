/* et-sim --calibrate (see calib.h). */
#include "et-sim/calib/calib.h"
#include "et-sim/calib/calib_file.h"
#include "et-sim/calib/fit.h"
#include "et-sim/calib/ncclt.h"
#include "et_buf.h"
#include "et_hash.h"
#include "et_jsonw.h"
#include "et_mem.h"
#include "et_output.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_MAX ((size_t)64 << 20)

typedef struct one {
	const char *file;
	uint64_t bytes, fnv;
	ncclt_log log;
	cal_fit fit;
} one;

static int read_one(const calib_conf *c, one *o, et_error *e)
{
	et_buf b = {0};
	if (et_buf_read_file(&b, o->file, LOG_MAX, e) < 0)
		return -1;
	o->bytes = b.len;
	o->fnv = et_fnv1a(ET_FNV1A_INIT, b.data, b.len);
	int rc = ncclt_parse((const char *)b.data, b.len, o->file, &o->log, e);
	free(b.data);
	if (rc < 0)
		return -1;
	ncclt_log *l = &o->log;
	if (c->collective)
		snprintf(l->collective, sizeof l->collective, "%s", c->collective);
	if (!l->collective[0])
		return et_fail(e, ET_EXIT_DATA,
		               "%s: which collective these rows time cannot be told from them "
		               "(alltoall reads as all_gather): give --collective NAME",
		               o->file);
	return 0;
}

static int fit_one(const calib_conf *c, one *o, et_error *e)
{
	if (read_one(c, o, e) < 0)
		return -1;
	const ncclt_log *l = &o->log;
	int rc;
	double *S = et_xmalloc(l->n * sizeof *S), *t = et_xmalloc(l->n * sizeof *t);
	for (size_t i = 0; i < l->n; i++)
		S[i] = l->row[i].size, t[i] = l->row[i].t_us;
	rc = cal_fit_rows(S, t, l->n, CAL_BANDS, &o->fit);
	free(S);
	free(t);
	if (rc < 0)
		return et_fail(e, ET_EXIT_DATA, "%s: %zu timing rows: a fit needs %d or more",
		               o->file, l->n, CAL_BAND_MIN_ROWS);
	return 0;
}

/* "8 B", "2 KiB", "16 GiB": sizes as nccl-tests sweeps them */
static void fmt_size(char *buf, size_t cap, double s)
{
	static const char *const u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int k = 0;
	while (s >= 1024 && k < 4)
		s /= 1024, k++;
	snprintf(buf, cap, "%.4g %s", s, u[k]);
}

static void report(const one *o)
{
	const ncclt_log *l = &o->log;
	fprintf(stderr, "et-sim: calibrate: %s: %s, %u ranks on %u node%s, %zu rows", o->file,
	        l->collective, l->ranks, l->nodes, l->nodes == 1 ? "" : "s", l->n);
	for (int k = 0; k < o->fit.nb; k++) {
		const cal_band *b = &o->fit.band[k];
		char lo[32], hi[32];
		fmt_size(lo, sizeof lo, b->lo);
		fmt_size(hi, sizeof hi, b->hi);
		double beta = b->x_us_b > 0 ? 1e-3 / b->x_us_b : 0;
		fprintf(stderr, "; %s-%s: alpha %.2f us, beta %.1f GB/s (busbw %.1f)", lo, hi,
		        b->alpha_us, beta, beta * ncclt_bus_factor(l->collective, l->ranks));
	}
	fprintf(stderr, "; error mean %.1f %%, geomean %.1f %%, max %.1f %%\n", 100 * o->fit.mean,
	        100 * o->fit.geomean, 100 * o->fit.max);
}

static void write_fit(et_jsonw *j, const one *o)
{
	const ncclt_log *l = &o->log;
	char h[24];
	snprintf(h, sizeof h, "%016llx", (unsigned long long)o->fnv);
	et_jsonw_obj(j);
	et_jsonw_kstr(j, "collective", l->collective);
	et_jsonw_kuint(j, "ranks", l->ranks);
	et_jsonw_kuint(j, "nodes", l->nodes);
	et_jsonw_kstr(j, "device", l->device);
	et_jsonw_kobj(j, "source");
	et_jsonw_kstr(j, "file", o->file);
	et_jsonw_kuint(j, "bytes", o->bytes);
	et_jsonw_kstr(j, "fnv1a64", h);
	et_jsonw_kuint(j, "rows", l->n);
	et_jsonw_kuint(j, "rows_dropped", l->dropped);
	et_jsonw_end(j);
	et_jsonw_karr(j, "bands");
	for (int k = 0; k < o->fit.nb; k++) {
		const cal_band *b = &o->fit.band[k];
		et_jsonw_obj(j);
		et_jsonw_key(j, "min_bytes");
		et_jsonw_g17(j, b->lo);
		et_jsonw_key(j, "max_bytes");
		et_jsonw_g17(j, b->hi);
		et_jsonw_key(j, "alpha_us");
		et_jsonw_g17(j, b->alpha_us);
		et_jsonw_key(j, "beta_gbps");
		et_jsonw_g17(j, b->x_us_b > 0 ? 1e-3 / b->x_us_b : 0);
		et_jsonw_kuint(j, "rows", b->rows);
		et_jsonw_end(j);
	}
	et_jsonw_end(j);
	et_jsonw_kobj(j, "error");
	et_jsonw_key(j, "mean");
	et_jsonw_g17(j, o->fit.mean);
	et_jsonw_key(j, "geomean");
	et_jsonw_g17(j, o->fit.geomean);
	et_jsonw_key(j, "max");
	et_jsonw_g17(j, o->fit.max);
	et_jsonw_end(j);
	et_jsonw_end(j);
}

static int write_all(const calib_conf *c, const one *o, et_error *e)
{
	et_output *out;
	if (et_output_open(&out, c->output, false, e) < 0)
		return -1;
	FILE *f = et_output_file(out);
	et_jsonw j;
	et_jsonw_init(&j, f, NULL, ET_JSONW_INDENT, 0);
	et_jsonw_obj(&j);
	et_jsonw_kstr(&j, "format", "etkit-calib");
	et_jsonw_kuint(&j, "version", 1);
	et_jsonw_kstr(&j, "model",
	              "t = alpha_us + bytes / (beta_gbps * 1e3) microseconds, per band");
	et_jsonw_karr(&j, "fits");
	for (int k = 0; k < c->nfiles; k++)
		write_fit(&j, &o[k]);
	et_jsonw_end(&j);
	et_jsonw_end(&j);
	int rc = et_jsonw_done(&j);
	if (rc == 0 && fputc('\n', f) == EOF)
		rc = -1;
	if (rc < 0) {
		et_write_failed(et_output_name(out), e);
		et_output_abort(out);
		return -1;
	}
	return et_output_commit(out, e);
}

/* --calib: each input predicted by the file's fit (see calib.h). */
static int check_one(const calib_conf *c, const calib_set *set, one *o, FILE *f, et_error *e)
{
	if (read_one(c, o, e) < 0)
		return -1;
	const ncclt_log *l = &o->log;
	const calib_entry *ce = calib_find(set, l->collective, l->ranks, l->nodes);
	if (!ce)
		return et_fail(e, ET_EXIT_DATA, "%s: %s holds no %s fit for %u ranks", o->file,
		               c->calib, l->collective, l->ranks);
	double *S = et_xmalloc(l->n * sizeof *S), *t = et_xmalloc(l->n * sizeof *t);
	for (size_t i = 0; i < l->n; i++) {
		S[i] = l->row[i].size, t[i] = l->row[i].t_us;
		double p = cal_predict(&ce->fit, S[i]);
		fprintf(f, "%s\t%.0f\t%.6g\t%.6g\t%.6g\n", o->file, S[i], t[i], p,
		        fabs(p - t[i]) / t[i]);
	}
	double mean, geo, max;
	cal_errors(&ce->fit, S, t, l->n, &mean, &geo, &max);
	free(S);
	free(t);
	if (!c->quiet)
		fprintf(stderr,
		        "et-sim: calibrate: %s: %s, %u ranks on %u node%s, %zu rows predicted by "
		        "the fit of %s: error mean %.1f %%, geomean %.1f %%, max %.1f %%\n",
		        o->file, l->collective, l->ranks, l->nodes, l->nodes == 1 ? "" : "s", l->n,
		        ce->source, 100 * mean, 100 * geo, 100 * max);
	return 0;
}

static int check_all(const calib_conf *c, one *o, et_error *e)
{
	calib_set set;
	if (calib_read(c->calib, &set, e) < 0)
		return -1;
	et_output *out;
	if (et_output_open(&out, c->output, false, e) < 0) {
		calib_set_free(&set);
		return -1;
	}
	FILE *f = et_output_file(out);
	fprintf(f, "input\tsize_bytes\tmeasured_us\tpredicted_us\terror\n");
	int rc = 0;
	for (int k = 0; k < c->nfiles && rc == 0; k++) {
		o[k].file = c->files[k];
		rc = check_one(c, &set, &o[k], f, e);
	}
	calib_set_free(&set);
	if (rc == 0 && ferror(f))
		rc = et_write_failed(et_output_name(out), e);
	if (rc < 0) {
		et_output_abort(out);
		return -1;
	}
	return et_output_commit(out, e);
}

int calib_run(const calib_conf *c, et_error *e)
{
	/* the names nccl-tests' factors know are the collectives it times */
	if (c->collective && ncclt_bus_factor(c->collective, 2) == 0)
		return et_fail(
		    e, ET_EXIT_USAGE,
		    "--collective: %s is none of all_reduce, all_gather, reduce_scatter, "
		    "alltoall, broadcast, reduce, sendrecv",
		    c->collective);
	one *o = et_xcalloc((size_t)c->nfiles + 1, sizeof *o);
	int rc = 0;
	if (c->calib) {
		rc = check_all(c, o, e);
		for (int k = 0; k < c->nfiles; k++)
			ncclt_free(&o[k].log);
		free(o);
		return rc;
	}
	for (int k = 0; k < c->nfiles && rc == 0; k++) {
		o[k].file = c->files[k];
		rc = fit_one(c, &o[k], e);
		if (rc == 0 && !c->quiet)
			report(&o[k]);
	}
	if (rc == 0)
		rc = write_all(c, o, e);
	for (int k = 0; k < c->nfiles; k++)
		ncclt_free(&o[k].log);
	free(o);
	return rc;
}
