#!/usr/bin/env bats
# The C unit tests: every tests/unit/test_*.c is a program (built into
# $ETKIT_UNIT by make) that exits non-zero on a failed check. Each is run from
# the repository root with the test data folder as its argument; with
# ETKIT_VALGRIND=1 each runs under valgrind.
load common

unit_run() {
	if [ -n "${ETKIT_VALGRIND:-}" ]; then
		valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect "$@"
	else
		"$@"
	fi
}

@test "every tests/unit/test_*.c was built into ETKIT_UNIT" {
	[ -d "${ETKIT_UNIT:?set by make test}" ]
	for src in "$REPO"/tests/unit/test_*.c; do
		bin="$ETKIT_UNIT/$(basename "$src" .c)"
		[ -x "$bin" ] || fail "not built: $bin"
	done
}

@test "every unit test program passes" {
	failed=""
	n=0
	for t in "$ETKIT_UNIT"/test_*; do
		[ -x "$t" ] || continue
		n=$((n + 1))
		if ! out=$(cd "$REPO" && unit_run "$t" "$DATA" 2>&1); then
			failed="$failed $(basename "$t")"
			printf '%s:\n%s\n' "$(basename "$t")" "$out"
		fi
	done
	[ "$n" -gt 0 ] || fail "no unit test programs in $ETKIT_UNIT"
	[ -z "$failed" ] || fail "failed:$failed"
}

@test "the C sources follow .clang-format (make format fixes them)" {
	command -v clang-format >/dev/null || skip "clang-format is not installed"
	cd "$REPO"
	run clang-format --dry-run -Werror libcommon/*.[ch] cmd/*/*.[ch] tests/fuzz/*.c \
		tests/unit/*.c bench/*.[ch]
	assert_success
}

@test "every fuzz target builds and runs clean over its seeds (make fuzz-replay)" {
	[ -z "${ETKIT_VALGRIND:-}" ] || skip "the targets are ASan builds"
	command -v clang >/dev/null || skip "clang is not installed"
	cd "$REPO"
	run env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory fuzz-replay
	assert_success
	for src in tests/fuzz/fuzz_*.c; do
		assert_output --partial "fuzz-replay: $(basename "$src" .c): "
	done
}

@test "plain make builds and installs nothing; make test and make demo install through make deps" {
	cd "$REPO"
	run env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n -B all
	assert_success
	refute_output --partial "install-deps"
	refute_output --partial "apt-get"
	run env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n test
	assert_output --partial "install-deps.sh"
	run env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n demo
	assert_output --partial "install-deps.sh"
}
