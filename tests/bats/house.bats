#!/usr/bin/env bats
# The house rules that a compiler does not check (README, "Architecture").
load common

# Every project header included as its path from one of the two include
# roots, cmd/ or libcommon/ (tests' own helpers, next to them, aside).
@test "one include style: project headers by their path from cmd/ or libcommon/" {
	cd "$REPO"
	bad=$(grep -rn --include='*.[ch]' '^[[:space:]]*#[[:space:]]*include "' cmd libcommon tests/unit tests/fuzz |
		while IFS=: read -r file line text; do
			name=${text#*\"}; name=${name%%\"*}
			[ -f "libcommon/$name" ] || [ -f "cmd/$name" ] && continue
			case "$name" in proto/*) continue ;; esac
			[ -f "$(dirname "$file")/$name" ] && case "$file" in tests/*) continue ;; esac
			echo "$file:$line: \"$name\""
		done)
	[ -z "$bad" ] || { echo "$bad"; false; }
}

# A header's guard is its include path in capitals, other characters '_'.
@test "one header-guard style: the include path in capitals" {
	cd "$REPO"
	bad=$(find cmd libcommon -name '*.h' | LC_ALL=C sort | while read -r h; do
		rel=${h#cmd/}; rel=${rel#libcommon/}
		g=$(printf '%s' "$rel" | tr 'a-z' 'A-Z' | tr -c 'A-Z0-9\n' '_')
		{ grep -qx "#ifndef $g" "$h" && grep -qx "#define $g" "$h"; } || echo "$h: wants $g"
	done)
	[ -z "$bad" ] || { echo "$bad"; false; }
}

# The check above can fail: a header with another guard is found.
@test "the header-guard check finds a wrong guard" {
	mkdir -p x/libcommon && printf '#ifndef FOO_H\n#define FOO_H\n#endif\n' >x/libcommon/et_foo.h
	rel=et_foo.h g=$(printf '%s' "$rel" | tr 'a-z' 'A-Z' | tr -c 'A-Z0-9\n' '_')
	[ "$g" = ET_FOO_H ]
	run grep -qx "#ifndef $g" x/libcommon/et_foo.h
	assert_failure
}

# libcommon's library part (libcommon/*.c) never exits, aborts, prints on
# stderr or installs signal handlers: it returns an et_error and hands
# warnings, progress, out of memory and "a temp file exists" to hooks that
# the program-support layer, libcommon/app/, fills (app/et_app.h).
# What a C file calls that only a program may, comments left out.
program_only_calls() {
	local f
	for f in "$@"; do
		cc -fpreprocessed -dD -E -P "$f" 2>/dev/null |
			grep -E '\b(exit|_exit|_Exit|quick_exit|abort|et_die|perror|psignal|signal|sigaction|raise|err|errx|warn|warnx|verr|vwarn)[[:space:]]*\(|\bstderr\b|\bSTDERR_FILENO\b|\bwrite[[:space:]]*\([[:space:]]*2[[:space:]]*,' |
			sed "s|^|$f: |"
	done
}

# The symbols of those calls that object files or archives import.
program_only_imports() {
	nm -u "$@" | awk '$1 == "U" { print $2 }' | LC_ALL=C sort -u |
		grep -xE 'exit|_exit|_Exit|quick_exit|abort|et_die|perror|psignal|signal|sigaction|raise|stderr|err|errx|warn|warnx|verr|vwarn'
}

@test "libcommon's library files never exit, abort, write stderr or install signal handlers" {
	cd "$REPO"
	run program_only_calls libcommon/*.c
	assert_success
	assert_output ""
}

@test "libcommon.a imports no exit, abort, stderr, signal handler or app-layer symbol" {
	build=$(dirname "${ETKIT_UNIT:?}")
	[ -f "$build/libcommon.a" ] && [ -f "$build/libetapp.a" ]
	run program_only_imports "$build/libcommon.a"
	assert_output ""
	# nothing of the program-support layer either
	run comm -12 <(nm -u "$build/libcommon.a" | awk '$1 == "U" { print $2 }' | LC_ALL=C sort -u) \
		<(nm -g --defined-only "$build/libetapp.a" | awk 'NF == 3 { print $3 }' | LC_ALL=C sort -u)
	assert_output ""
}

# Both checks above can fail: a planted library file that prints and exits
# is found in its source (and not for its comment) and in its object.
@test "the library checks find a file that prints on stderr and exits" {
	cat >bad.c <<'C'
#include <stdio.h>
#include <stdlib.h>
/* exit(0) in a comment is no call */
void bad(int x)
{
	if (x)
		fprintf(stderr, "bad\n");
	exit(3);
}
C
	run program_only_calls bad.c
	assert_line --index 0 --partial 'fprintf(stderr, "bad\n");'
	assert_line --index 1 --partial 'exit(3);'
	[ "${#lines[@]}" -eq 2 ]
	cc -c bad.c -o bad.o
	run program_only_imports bad.o
	assert_output "$(printf 'exit\nstderr')"
}

# A program that links libcommon.a alone (no libetapp.a) links, and the
# library prints nothing and installs no handler on its own: a warning is
# dropped, progress is not drawn, an output's temp file hooks no signal.
@test "a library-only program links libcommon.a alone and stays silent" {
	build=$(dirname "${ETKIT_UNIT:?}")
	cat >lib_only.c <<'C'
#include "et_err.h"
#include "et_mem.h"
#include "et_output.h"
#include "et_progress.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	et_error e = {0};
	et_warn("dropped: no sink");
	et_progress p;
	et_progress_init(&p, 1, "nodes");
	p.every_ns = 0;
	et_progress_update(&p, 1 << 20);
	et_progress_done(&p);
	et_output *o;
	if (et_output_open(&o, "out.txt", false, &e) < 0)
		return 1;
	struct sigaction sa;
	sigaction(SIGINT, NULL, &sa);
	if (sa.sa_handler != SIG_DFL)
		return 2;
	fputs("hello\n", et_output_file(o));
	if (et_output_commit(o, &e) < 0)
		return 3;
	char *s = et_xstrdup("ok");
	int r = et_fail(&e, ET_EXIT_DATA, "x") == -1 && e.code == ET_EXIT_DATA && strcmp(s, "ok") == 0;
	free(s);
	puts(r ? "ok" : "bad");
	return 0;
}
C
	san= # a sanitizer build's library (make sanitize-test) needs its runtime
	nm -u "$build/libcommon.a" | grep -q __asan_ && san="-fsanitize=address,undefined"
	cc -std=c11 $san -D_DEFAULT_SOURCE -I"$REPO/libcommon" lib_only.c "$build/libcommon.a" \
		$(pkg-config --libs libprotobuf-c libzstd zlib libcjson yaml-0.1) -lm -lpthread -o lib_only
	run --separate-stderr ./lib_only
	assert_success
	assert_output ok
	[ -z "$stderr" ] || fail "stderr: $stderr"
	[ "$(cat out.txt)" = hello ]
}

# One warning convention: et_warn (et_err.h), printed as "PROG: warning: MSG"
# by the one printer in app/et_app.c; no file writes "warning: " itself.
@test "one warning format: only app/et_app.c writes \"warning: \"" {
	cd "$REPO"
	run grep -rn --include='*.c' '"[^"]*warning: ' cmd libcommon
	assert_output --regexp '^libcommon/app/et_app\.c:[0-9]+:'
	[ "${#lines[@]}" -eq 1 ]
}

# One mapping from an error to an exit status: et_app_exit_code (app/et_app.h).
@test "one error-to-exit-status mapping: et_app_exit_code" {
	cd "$REPO"
	run grep -rnE --include='*.c' '(\.|->)code \? [a-z_.>-]*code :|(return|exit\() ?[a-z_]+(\.|->)code\)?;' \
		cmd libcommon
	assert_output --regexp '^libcommon/app/et_app\.c:[0-9]+:'
	[ "${#lines[@]}" -eq 1 ]
}

# Arrays grow in one way, ET_GROW (et_mem.h: doubling, an overflow is out of
# memory). A realloc elsewhere is a second growth rule, unless it is one of
# the allowed exceptions, each marked "not ET_GROW: why" at or up to five lines above the call.
realloc_outside() { # DIR: the reallocs under DIR/cmd and DIR/libcommon that break the rule
	grep -rnE --include='*.[ch]' '\b(et_x)?realloc[[:space:]]*\(' "$1/cmd" "$1/libcommon" |
		while IFS=: read -r file line text; do
			case "$file" in */libcommon/et_mem.[ch]) continue ;; esac
			case "$file" in
			*/pt_kineto_gpu.c | */infragraph_expand.c | */et_src.c)
				sed -n "$((line > 5 ? line - 5 : 1)),${line}p" "$file" | grep -q 'not ET_GROW:' && continue ;;
			esac
			echo "$file:$line: $text"
		done
}

@test "one array-growth rule: no realloc outside et_mem but the marked exceptions" {
	bad=$(realloc_outside "$REPO")
	[ -z "$bad" ] || { echo "$bad"; false; }
}

# The check above can fail: a hand-written growth site is found, and so is an
# allowed file's realloc without its mark.
@test "the array-growth check finds a hand-written realloc" {
	mkdir -p x/cmd/et-foo x/libcommon
	printf 'void f(void)\n{\n\tp = et_xrealloc(p, n * 2);\n}\n' >x/cmd/et-foo/grow.c
	printf 'void g(void)\n{\n\tw = realloc(w, n);\n}\n' >x/libcommon/et_src.c
	run realloc_outside x
	assert_output --partial "x/cmd/et-foo/grow.c:3:"
	assert_output --partial "x/libcommon/et_src.c:3:"
}

# Option tables are typed (app/et_cli.h, ET_OPT_FLAG ...): a target of the
# wrong type for its kind does not compile. The same table with the right
# type does, so the failure is the type and not the harness.
opt_table_compiles() { # TYPE KIND: compile a table binding a TYPE variable with ET_OPT_KIND
	cat >opt.c <<-C
		#include "app/et_cli.h"
		void f(void);
		void f(void)
		{
			static $1 v;
			et_opt t[] = {ET_OPT_$2(0, "x", "N", "h", &v), ET_OPT_END};
			(void)t;
		}
	C
	${CC:-cc} -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$REPO/libcommon" -I"$REPO/cmd" \
		-I"$REPO/build/rel" -I/usr/include/cjson opt.c
}

@test "typed option tables: a wrong target type is a compile error" {
	run opt_table_compiles int U32
	assert_failure
	assert_output --partial "_Generic"
	run opt_table_compiles uint32_t U32
	assert_success
	run opt_table_compiles int64_t U64
	assert_failure
	assert_output --partial "_Generic"
	run opt_table_compiles uint64_t U64
	assert_success
	run opt_table_compiles double INT
	assert_failure
	run opt_table_compiles "const char *" STR
	assert_success
	run opt_table_compiles char STR
	assert_failure
}

# Every table entry is written with a typed macro: no positional et_opt with
# a raw ET_ARG_ kind (et_cli's own code aside).
@test "typed option tables: every tool's table uses them" {
	cd "$REPO"
	run grep -rnE --include='*.[ch]' --exclude=et_cli.h \
		'^[[:space:]]*[{]?[^{}]*,[[:space:]]*ET_ARG_[A-Z0-9]+,' cmd libcommon tests/unit
	assert_output ""
}

# bench/'s programs build against today's libcommon (they rotted once: a
# changed et_stream_begin_rank went unnoticed until a benchmark ran).
@test "bench/'s C programs compile against the current libcommon" {
	cd "$REPO"
	lib=${ETKIT_UNIT:?}/..
	[ -f "$lib/libcommon.a" ] || skip "no libcommon.a next to ETKIT_UNIT"
	san=
	nm "$lib/libcommon.a" 2>/dev/null | grep -q __asan && san="-fsanitize=address,undefined"
	for src in bench/*.c; do
		cc -std=c11 -O1 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 $san \
			-Ilibcommon -Icmd -I"$lib" "$src" "$lib/libetapp.a" "$lib/libcommon.a" -o "$T/b" \
			-lprotobuf-c -lzstd -lz -lcjson -lm -lpthread || { echo "$src does not build"; false; }
	done
}

# README's architecture table names each tool's folders: they exist, and
# every folder a tool has is named there.
@test "README's architecture table and the tools' folders agree" {
	cd "$REPO"
	bad=$(awk -F'|' '/^## Architecture/ { on = 1 } /^## / && !/Architecture/ { on = 0 }
		on && /^\| (et-|layerdag)/ { t = $2; gsub(/ /, "", t)
			n = split($3, w, "`")
			for (i = 2; i <= n; i += 2) if (w[i] ~ /^[a-z-]+(\/[a-z-]+)*\/$/) print t "/" w[i] }' README.md |
		sort -u >"$T/named.txt"
		find cmd -mindepth 2 -type d | sed 's|^cmd/||; s|$|/|' | sort -u >"$T/have.txt"
		comm -3 "$T/named.txt" "$T/have.txt")
	[ -s "$T/named.txt" ]
	[ -z "$bad" ] || { echo "named but missing, or present but not named: $bad"; false; }
}

# et-sim's layers: a network backend (net/) and the InfraGraph reader
# (infragraph/) see only the backend interface (net/net.h: net_env), never
# the engine, the system layer or the workload above them. The includes
# under ROOT/net and ROOT/infragraph of a header of those layers.
upward_includes() { # ROOT (cmd/et-sim or a copy)
	grep -rn --include='*.[ch]' -E \
		'^[[:space:]]*#[[:space:]]*include[[:space:]]+"et-sim/(engine|system|workload)/' \
		"$1/net" "$1/infragraph"
}

@test "et-sim's network backends and InfraGraph include nothing of the engine, system or workload" {
	[ -d "$REPO/cmd/et-sim/net" ] && [ -d "$REPO/cmd/et-sim/infragraph" ]
	bad=$(upward_includes "$REPO/cmd/et-sim" || true)
	[ -z "$bad" ] || { echo "$bad"; false; }
}

# The check above can fail: a backend that includes the engine is found.
@test "the layering check finds a backend that includes the engine" {
	mkdir -p x/net x/infragraph
	printf '#include "et-sim/net/net.h"\n#include "et-sim/engine/sim.h"\n' >x/net/net_foo.c
	printf '#include  "et-sim/system/system.h"\n' >x/infragraph/ig.h
	run upward_includes x
	assert_output --partial 'x/net/net_foo.c:2:'
	assert_output --partial 'x/infragraph/ig.h:1:'
}

# One JSON writer: every JSON a tool writes is laid out by libcommon's
# et_jsonw (strings by et_json_str), so no other file writes JSON
# punctuation by hand or prints a cJSON tree (cJSON stays the reader).
# Found in each file, comments left out, one statement at a time: a call of
# an output function (printf, fputs, fwrite, et_buf_puts/printf/append ...)
# whose string literals hold a key's quote and colon (\":), an object
# opening on a key ({\") or an array of strings ([\"); a '{' or '[' put
# by putc, fputc or et_buf_putc; and any cJSON_Print.
json_by_hand() { # ROOT: prints "FILE: statement" for each site
	local f
	(cd "$1" && find cmd libcommon -name '*.[ch]' | LC_ALL=C sort) | while read -r f; do
		case "$f" in libcommon/et_jsonw.c | libcommon/et_json_str.c) continue ;; esac
		cc -fpreprocessed -dD -E -P "$1/$f" 2>/dev/null | tr '\n' ' ' |
			awk -v f="$f" 'BEGIN { RS = ";" }
				/cJSON_Print/ { print f ": " substr($0, 1, 160); next }
				/(^|[^A-Za-z0-9_])(printf|fprintf|vfprintf|fputs|puts|fwrite|et_buf_puts|et_buf_printf|et_buf_append|ET_JW_LIT|KEY)[ \t]*\(/ &&
				/\{\\"|\\":|\[\\"/ { gsub(/[ \t]+/, " "); print f ": " substr($0, 1, 160); next }
				/(^|[^A-Za-z0-9_])(putc|fputc|et_buf_putc)[ \t]*\([^;]*\047[{[]\047/ { gsub(/[ \t]+/, " "); print f ": " substr($0, 1, 160) }'
	done |
		# The allowed ones:
		# - et_json_write.c is et-convert's ET -> JSON node and metadata
		#   writer, the hot path: its literal keys keep their punctuation
		#   for speed (strings and reals still go through et_json_str and
		#   et_json_fmt_real);
		# - et_writer.c's "{\"ranks\": [" is that document's frame, around
		#   the same hot node loop;
		# - checks_node.c's is a message that shows the expected JSON form;
		# - et_pyrepr.c writes Python's str() of a value, which is not JSON.
		grep -vE '^libcommon/et_json_write\.c: |^libcommon/et_pyrepr\.c: |^libcommon/et_writer\.c: .*\{\\"ranks\\": \[|^cmd/et-validate/checks/checks_node\.c: .*definition \[\{\\"pg_name' || true
}

@test "one JSON writer: no JSON punctuation written by hand, no cJSON_Print" {
	bad=$(json_by_hand "$REPO")
	[ -z "$bad" ] || { echo "$bad"; false; }
}

# The check above can fail: a hand-written JSON report and a printed cJSON
# tree are found, the allowed files aside.
@test "the JSON-writer check finds a hand-written JSON site" {
	mkdir -p x/cmd/et-foo x/libcommon
	printf 'void f(FILE *f, int n)\n{\n\tfprintf(f,\n\t        "{\\"n\\":%%d}", n);\n}\n' >x/cmd/et-foo/rep.c
	printf 'void g(cJSON *j)\n{\n\tchar *s = cJSON_PrintUnformatted(j);\n}\n' >x/libcommon/et_foo.c
	printf 'void h(et_buf *b)\n{\n\tet_buf_puts(b, "{\\"a\\":1}");\n}\n' >x/libcommon/et_jsonw.c
	printf "void k(FILE *f)\\n{\\n\\tputc('[', f);\\n}\\n" >x/cmd/et-foo/arr.c
	run json_by_hand x
	assert_output --partial 'cmd/et-foo/rep.c: '
	assert_output --partial 'libcommon/et_foo.c: '
	assert_output --partial 'cmd/et-foo/arr.c: '
	refute_output --partial 'et_jsonw.c'
}
