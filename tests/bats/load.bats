#!/usr/bin/env bats
# The loader the reading tools share (libcommon et_load): an input that
# cannot be opened fails cleanly, with nothing left allocated.
load common

# Runs TOOL on a missing file under valgrind; asserts the usual exit 4 and
# message, and no leak or memory error (valgrind's own status would be 99).
no_leak_on_missing() {
	command -v valgrind >/dev/null || skip "valgrind is not installed"
	[ -z "${ASAN_OPTIONS:-}" ] || skip "the tools are ASan builds (LeakSanitizer checks them)"
	run valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		--suppressions="$REPO/tests/valgrind.supp" "${ETKIT_BIN:?}/$1" /nonexistent
	assert_equal "$status" 4
	assert_output "$1: /nonexistent: no such file (nor a per-rank set /nonexistent.N.et)"
}

@test "et-sim: a missing input is exit 4 and leaks nothing (valgrind)" {
	no_leak_on_missing et-sim
}

@test "et-viz: a missing input is exit 4 and leaks nothing (valgrind)" {
	no_leak_on_missing et-viz
}

@test "et-validate: a missing input is exit 4 and leaks nothing (valgrind)" {
	no_leak_on_missing et-validate
}
