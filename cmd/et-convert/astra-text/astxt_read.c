/* astxt_read: the parallelism line, the layer count and the layer table of
 * an ASTRA-sim 1.0 text workload. Strict where the reference crashes or
 * silently writes something else; each refusal says what was expected. */
#include "et-convert/astra-text/astxt.h"
#include "et-convert/astra-text/astxt_lex.h"
#include "et_types.h"

#include <stdio.h>
#include <string.h>

static const char *const par_names[] = {
    "MICRO",
    "DATA",
    "MODEL",
    "HYBRID_DATA_MODEL",
    "HYBRID_MODEL_DATA",
    "HYBRID_DLRM",
    "HYBRID_DLRM_ENHANCED",
};

/* What the reference refuses, and why we do too: each needs a notion the
 * reference's graphs do not have (which ranks a collective spans, forward
 * recomputation), so any graph written for it would be our invention. */
static const struct {
	const char *name, *why;
} refused[] = {
    {"HYBRID_TRANSFORMER", "its model-parallel NPU group (which ranks each collective spans) has"},
    {"HYBRID_TRANSFORMER_FWD_IN_BCKWD",
     "its model-parallel NPU group and its forward recomputation from checkpoints have"},
    {"HYBRID_CUSTOMIZED", "its per-layer parallelism (which dimensions each collective spans) has"},
};

static const char *const comm_names[] = {"ALLREDUCE", "ALLGATHER", "ALLTOALL", "REDUCESCATTER",
                                         "NONE"};

static const char *const col_names[] = {
    "name",
    "reserved",
    "forward compute time",
    "forward comm type",
    "forward comm size",
    "input-gradient compute time",
    "input-gradient comm type",
    "input-gradient comm size",
    "weight-gradient compute time",
    "weight-gradient comm type",
    "weight-gradient comm size",
    "update time",
};

#define COMM_LIST "ALLREDUCE, ALLGATHER, ALLTOALL, REDUCESCATTER or NONE"
#define LAYER_COLS                                                                                 \
	"a layer has 12: name, reserved, then compute time, comm type and comm size of the "       \
	"forward pass, the input gradient and the weight gradient, then the update time"

const char *astxt_par_name(int par)
{
	return par >= 0 && par <= ASTXT_HYBRID_DLRM_ENHANCED ? par_names[par] : "?";
}

const char *astxt_comm_name(int comm)
{
	return comm >= 0 && comm <= ASTXT_NONE ? comm_names[comm] : "?";
}

int astxt_comm_coll(int comm)
{
	switch (comm) {
	case ASTXT_ALLGATHER:
		return ET_COLL_ALL_GATHER;
	case ASTXT_ALLTOALL:
		return ET_COLL_ALL_TO_ALL;
	case ASTXT_REDUCESCATTER:
		return ET_COLL_REDUCE_SCATTER;
	default: /* ALLREDUCE, and NONE as the reference maps it */
		return ET_COLL_ALL_REDUCE;
	}
}

static bool tok_is(astxt_tok t, const char *s)
{
	return t.n == strlen(s) && memcmp(t.s, s, t.n) == 0;
}

static int tok_lookup(astxt_tok t, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (tok_is(t, names[i]))
			return i;
	return -1;
}

/* The parallelism token: ours, refused, or unknown. */
static int parse_par(astxt *t, astxt_lex *x, astxt_tok tok, et_error *e)
{
	char q[160];
	t->par = tok_lookup(tok, par_names, (int)(sizeof par_names / sizeof *par_names));
	if (t->par >= 0)
		return 0;
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++)
		if (tok_is(tok, refused[i].name))
			return astxt_lex_fail(
			    x, 1, e,
			    "%s is not converted: Chakra's text converter refuses "
			    "it, and %s no counterpart in the graphs it writes",
			    refused[i].name, refused[i].why);
	if (tok.n >= 3 && memcmp(tok.s, "\xEF\xBB\xBF", 3) == 0)
		return astxt_lex_fail(
		    x, 1, e,
		    "a UTF-8 byte-order mark before the parallelism (the "
		    "reference reads it as part of the name and refuses the file)");
	return astxt_lex_fail(x, 1, e,
	                      "unknown parallelism %s; expected MICRO, DATA, MODEL, "
	                      "HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, HYBRID_DLRM or "
	                      "HYBRID_DLRM_ENHANCED",
	                      astxt_lex_quote(tok, q, sizeof q));
}

/* The tokens (at most max) of header line `line`; a missing line is the
 * error `missing`. */
static int header_tokens(astxt_lex *x, unsigned line, const char *missing, astxt_tok *tok,
                         size_t max, size_t *nt, et_error *e)
{
	const char *s;
	size_t n;
	int k = astxt_lex_line(x, &s, &n, e);
	if (k <= 0)
		return k < 0 ? -1 : astxt_lex_fail(x, line, e, "%s", missing);
	*nt = astxt_lex_split(s, n, tok, max);
	return 0;
}

/* Line 1: the parallelism, for HYBRID_DLRM* the last bottom layer too. */
static int read_par_line(astxt *t, astxt_lex *x, et_error *e)
{
	astxt_tok tok[3];
	size_t nt;
	if (header_tokens(x, 1, "the input is empty; expected the parallelism", tok, 3, &nt, e) < 0)
		return -1;
	if (nt == 0)
		return astxt_lex_fail(x, 1, e, "blank; expected the parallelism");
	if (parse_par(t, x, tok[0], e) < 0)
		return -1;
	bool dlrm = t->par == ASTXT_HYBRID_DLRM || t->par == ASTXT_HYBRID_DLRM_ENHANCED;
	char q[160];
	uint64_t v;
	if (dlrm && nt < 2)
		return astxt_lex_fail(x, 1, e,
		                      "%s needs the index of the last bottom layer after it (as in "
		                      "\"%s 4\")",
		                      par_names[t->par], par_names[t->par]);
	if (dlrm && astxt_lex_u64(tok[1], ASTXT_MAX_LAYERS, &v) < 0)
		return astxt_lex_fail(
		    x, 1, e, "expected the index of the last bottom layer (0 to %u), found %s",
		    ASTXT_MAX_LAYERS, astxt_lex_quote(tok[1], q, sizeof q));
	if (dlrm)
		t->last_bottom = (uint32_t)v;
	if (nt > (dlrm ? 2u : 1u))
		return astxt_lex_fail(x, 1, e, "unexpected %s after %s",
		                      astxt_lex_quote(tok[dlrm ? 2 : 1], q, sizeof q),
		                      dlrm ? "the last bottom layer" : par_names[t->par]);
	return 0;
}

/* Line 2: the number of layers, alone. */
static int read_count(astxt_lex *x, uint32_t *count, et_error *e)
{
	astxt_tok tok[2];
	size_t nt;
	if (header_tokens(x, 2, "the input ends; expected the number of layers", tok, 2, &nt, e) <
	    0)
		return -1;
	char q[160];
	uint64_t v;
	if (nt != 1 || astxt_lex_u64(tok[0], ASTXT_MAX_LAYERS, &v) < 0)
		return astxt_lex_fail(
		    x, 2, e, "expected the number of layers (0 to %u) alone, found %s",
		    ASTXT_MAX_LAYERS,
		    nt == 0 ? "a blank line" : astxt_lex_quote(tok[0], q, sizeof q));
	*count = (uint32_t)v;
	return 0;
}

static int bad_col(astxt_lex *x, int col, const char *what, astxt_tok tok, et_error *e)
{
	char q[160];
	return astxt_lex_fail(x, x->line, e, "column %d (%s): expected %s, found %s", col + 1,
	                      col_names[col], what, astxt_lex_quote(tok, q, sizeof q));
}

static int parse_phase(astxt_lex *x, const astxt_tok *tok, int p, astxt_layer *l, et_error *e)
{
	int c = 2 + 3 * p;
	uint64_t size;
	if (astxt_lex_u64(tok[c], UINT64_MAX, &l->time[p]) < 0)
		return bad_col(x, c, "a time (0 to 18446744073709551615)", tok[c], e);
	int comm = tok_lookup(tok[c + 1], comm_names, ASTXT_NONE + 1);
	if (comm < 0)
		return bad_col(x, c + 1,
		               COMM_LIST " (the reference writes any other as an all-reduce)",
		               tok[c + 1], e);
	l->comm[p] = (uint8_t)comm;
	if (astxt_lex_u64(tok[c + 2], INT64_MAX, &size) < 0)
		return bad_col(x, c + 2, "a size in bytes (0 to 9223372036854775807)", tok[c + 2],
		               e);
	l->size[p] = (int64_t)size;
	return 0;
}

static int parse_layer(astxt *t, astxt_lex *x, const astxt_tok *tok, et_error *e)
{
	astxt_layer *l = &t->layers[t->nlayers];
	int64_t v;
	l->name = et_arena_strndup(t->arena, tok[0].s, tok[0].n);
	l->line = x->line;
	if (astxt_lex_i64(tok[1], &v) < 0)
		return bad_col(x, 1, "an integer", tok[1], e);
	for (int p = ASTXT_FWD; p <= ASTXT_WG; p++)
		if (parse_phase(x, tok, p, l, e) < 0)
			return -1;
	if (astxt_lex_i64(tok[11], &v) < 0)
		return bad_col(x, 11, "an integer", tok[11], e);
	t->nlayers++;
	return 0;
}

/* The layer lines; blank lines may follow the table, not interrupt it. */
static int read_layers(astxt *t, astxt_lex *x, uint32_t count, et_error *e)
{
	t->layers = et_arena_alloc(t->arena, (count ? count : 1) * sizeof *t->layers);
	uint32_t blank = 0;
	const char *s;
	size_t n;
	int k;
	while ((k = astxt_lex_line(x, &s, &n, e)) == 1) {
		astxt_tok tok[12];
		size_t nt = astxt_lex_split(s, n, tok, 12);
		if (nt == 0 && !blank)
			blank = x->line;
		if (nt == 0)
			continue;
		if (blank)
			return astxt_lex_fail(
			    x, blank, e,
			    "blank line inside the layer table (blank lines may only "
			    "follow it)");
		if (t->nlayers == count)
			return astxt_lex_fail(x, x->line, e,
			                      "a layer beyond the %u line 2 declares", count);
		if (nt != 12)
			return astxt_lex_fail(x, x->line, e, "%zu column%s; " LAYER_COLS, nt,
			                      nt == 1 ? "" : "s");
		if (parse_layer(t, x, tok, e) < 0)
			return -1;
	}
	if (k < 0)
		return -1;
	if (t->nlayers < count)
		return astxt_lex_fail(x, x->line, e,
		                      "the input ends after %u of the %u layers line 2 declares",
		                      t->nlayers, count);
	return 0;
}

/* What the reference crashes on once the table is known. */
static int check_dlrm(const astxt *t, astxt_lex *x, et_error *e)
{
	const char *par = par_names[t->par];
	if (t->nlayers < 2)
		return astxt_lex_fail(x, 2, e,
		                      "%s needs 2 or more layers: the embedding (layer 0) and "
		                      "the bottom layers after it",
		                      par);
	if (t->last_bottom == 0 || t->last_bottom >= t->nlayers)
		return astxt_lex_fail(
		    x, 1, e,
		    "last bottom layer %u: expected 1 to %u (layer 0 is the "
		    "embedding, whose all-to-all the last bottom layer waits for)",
		    t->last_bottom, t->nlayers - 1);
	if (t->layers[0].comm[ASTXT_FWD] != ASTXT_ALLTOALL)
		return astxt_lex_fail(x, t->layers[0].line, e,
		                      "%s: layer 0's forward comm type is %s; expected ALLTOALL "
		                      "(the last bottom layer, %u, waits for it; the reference "
		                      "fails without it)",
		                      par, comm_names[t->layers[0].comm[ASTXT_FWD]],
		                      t->last_bottom);
	return 0;
}

/* A table of no layers is read: the reference writes ranks of metadata
 * alone for it, whatever the parallelism. */
static int check_table(const astxt *t, astxt_lex *x, et_error *e)
{
	if ((t->par == ASTXT_HYBRID_DLRM || t->par == ASTXT_HYBRID_DLRM_ENHANCED) && t->nlayers)
		return check_dlrm(t, x, e);
	return 0;
}

/* NAME's base name without ".txt": the workload name of the rank headers. */
static void workload_name(const char *name, char *out, size_t cap)
{
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	size_t n = strlen(b);
	if (n > 4 && strcmp(b + n - 4, ".txt") == 0)
		n -= 4;
	if (n == 0 || strcmp(b, "-") == 0)
		b = "astra-text", n = strlen(b);
	snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), b);
}

static int read_all(astxt *t, astxt_lex *x, et_error *e)
{
	uint32_t count = 0;
	if (read_par_line(t, x, e) < 0 || read_count(x, &count, e) < 0 ||
	    read_layers(t, x, count, e) < 0 || check_table(t, x, e) < 0)
		return -1;
	t->text_len = x->norm.len;
	t->text =
	    et_arena_strndup(t->arena, x->norm.len ? (const char *)x->norm.data : "", x->norm.len);
	return 0;
}

int astxt_read(astxt *t, const char *name, const char *text, size_t len, et_error *e)
{
	memset(t, 0, sizeof *t);
	if (len > ASTXT_MAX_TEXT)
		return et_fail(e, ET_EXIT_DATA, "%s: %zu bytes; a text workload has at most %u",
		               name, len, ASTXT_MAX_TEXT);
	t->arena = et_arena_new();
	t->input = et_arena_strdup(t->arena, name);
	workload_name(name, t->workload, sizeof t->workload);
	astxt_lex x;
	astxt_lex_init(&x, name, text, len);
	int r = read_all(t, &x, e);
	astxt_lex_free(&x);
	if (r < 0)
		astxt_free(t);
	return r;
}

void astxt_free(astxt *t)
{
	et_arena_free(t->arena);
	memset(t, 0, sizeof *t);
}
