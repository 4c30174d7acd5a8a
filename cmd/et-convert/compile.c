/* compile: et-convert's compiler and ASTRA-sim text inputs (compile.h). */
#include "et-convert/compile.h"
#include "et-convert/astra-text/astxt.h"
#include "et-convert/hlo/hlo.h"
#include "et-convert/stablehlo/shlo.h"
#include "et-convert/xir/xir.h"
#include "et-convert/xir/xir_emit.h"
#include "et_buf.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The first meaningful line of a file's first bytes. */
static const char *first_line(const char *p, const char *end)
{
	while (p < end) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		bool skip = (end - p >= 2 && p[0] == '/' && p[1] == '/') ||
		            (end - p >= 4 && strncmp(p, "#loc", 4) == 0);
		if (!skip)
			return p;
		while (p < end && *p != '\n')
			p++;
	}
	return end;
}

static bool starts(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) >= n && strncmp(p, word, n) == 0;
}

et_format compile_sniff(const char *path)
{
	if (strcmp(path, "-") == 0)
		return ET_FMT_AUTO;
	FILE *f = fopen(path, "rb");
	if (!f)
		return ET_FMT_AUTO;
	char head[4096];
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	const char *end = head + n, *p = first_line(head, end);
	static const char *const astra[] = {"MICRO", "DATA", "MODEL", "HYBRID_"};
	if (starts(p, end, "HloModule"))
		return ET_FMT_HLO;
	if (starts(p, end, "module") || starts(p, end, "func.func") ||
	    starts(p, end, "\"builtin.module\""))
		return ET_FMT_STABLEHLO;
	for (size_t i = 0; i < sizeof astra / sizeof *astra; i++)
		if (starts(p, end, astra[i]))
			return ET_FMT_ASTRA_TEXT;
	return ET_FMT_AUTO;
}

/* The input's name in messages and rank headers. */
static const char *input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

static int read_program(xir *x, const char *name, const et_buf *b, const compile_opts *o,
                        et_error *e)
{
	if (o->format == ET_FMT_HLO) {
		hlo_opts ho;
		hlo_opts_init(&ho);
		ho.max_unroll = o->max_unroll;
		ho.quiet = o->quiet;
		return hlo_read(x, name, (const char *)b->data, b->len, &ho, e) < 0 ? -1 : 0;
	}
	shlo_opts so;
	shlo_opts_init(&so);
	/* the documented default, as the HLO reader applies it */
	so.max_trip = o->max_unroll ? o->max_unroll : HLO_MAX_UNROLL;
	so.quiet = o->quiet;
	return shlo_read(x, name, (const char *)b->data, b->len, &so, e);
}

static int run_program(const et_buf *b, const char *name, const compile_opts *o, et_writer *w,
                       et_error *e)
{
	xir x;
	xir_init(&x);
	int rc = read_program(&x, name, b, o, e);
	if (rc == 0) {
		xir_emit_opts eo = {.input = name,
		                    .world = o->world,
		                    .peak_tflops = o->peak_tflops,
		                    .mem_gbps = o->mem_gbps,
		                    .groups = o->groups,
		                    .progress = o->progress};
		rc = xir_emit(&x, &eo, w, e);
	}
	xir_free(&x);
	return rc;
}

static int run_astra_text(const et_buf *b, const char *name, const compile_opts *o, et_writer *w,
                          et_error *e)
{
	if (!o->world)
		return et_fail(e, ET_EXIT_USAGE,
		               "--from astra-text: give the number of NPUs with --world N");
	astxt t;
	int rc = astxt_read(&t, name, (const char *)b->data, b->len, e);
	if (rc == 0)
		rc = astxt_write(&t, o->world, o->passes ? o->passes : 1, o->compat, w, e);
	astxt_free(&t);
	return rc;
}

int compile_run(const char *path, const compile_opts *o, const et_writer_cfg *wc, et_error *e)
{
	const char *name = input_name(path);
	size_t max = o->format == ET_FMT_ASTRA_TEXT ? ASTXT_MAX_TEXT : HLO_MAX_INPUT;
	et_buf b = {0};
	if (et_buf_read_file(&b, path, max, e) < 0) {
		et_buf_free(&b);
		return -1;
	}
	et_writer *w;
	int rc = et_writer_open(&w, wc, e);
	if (rc == 0) {
		rc = o->format == ET_FMT_ASTRA_TEXT ? run_astra_text(&b, name, o, w, e)
		                                    : run_program(&b, name, o, w, e);
		rc = et_writer_finish(w, rc, e);
	}
	et_buf_free(&b);
	return rc;
}
