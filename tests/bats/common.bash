# Shared set-up of the bats suites: assertion libraries, paths, a scratch
# directory per test, and (with ETKIT_VALGRIND=1) every tool run under
# valgrind, failing the test on any error or leak.
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0 # run -N, --separate-stderr

REPO="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
DATA="$REPO/tests/data"
MB="$DATA/astra-sim/workload/microbenchmarks"

setup() {
	T="$BATS_TEST_TMPDIR"
	if [ -n "${ETKIT_VALGRIND:-}" ]; then
		# outside the test's own directory, which some tests list
		local vg="$BATS_FILE_TMPDIR/vg"
		mkdir -p "$vg"
		for tool in "${ETKIT_BIN:?}"/*; do
			printf '#!/bin/sh\nexec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --suppressions=%s "%s" "$@"\n' \
				"$REPO/tests/valgrind.supp" "$tool" >"$vg/$(basename "$tool")"
			chmod +x "$vg/$(basename "$tool")"
		done
		PATH="$vg:$PATH"
	fi
	cd "$T"
}

# hex of bytes [off, off+n) of a file, as "aa bb cc"
hexbytes() {
	od -An -v -tx1 -j "$2" -N "$3" "$1" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//'
}

# ulimit_v KB: "ulimit -v KB && ", to put before a command run with bash -c,
# where the tools run natively; nothing under ASan or valgrind, whose
# address space is theirs (a bound there makes the tool abort at start).
ulimit_v() {
	[ -n "${ASAN_OPTIONS:-}${ETKIT_VALGRIND:-}" ] || printf 'ulimit -v %s && ' "$1"
}
