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
