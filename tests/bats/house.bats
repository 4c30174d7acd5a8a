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

# Option tables are typed (et_cli.h, ET_OPT_FLAG ...): a target of the
# wrong type for its kind does not compile. The same table with the right
# type does, so the failure is the type and not the harness.
opt_table_compiles() { # TYPE KIND: compile a table binding a TYPE variable with ET_OPT_KIND
	cat >opt.c <<-C
		#include "et_cli.h"
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
