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

# One program, run from the repository root with the test data folder as
# its argument; its output is shown when it fails.
unit_test() {
	local bin="${ETKIT_UNIT:?set by make test}/$1"
	[ -x "$bin" ] || fail "not built: $bin"
	cd "$REPO"
	run unit_run "$bin" "$DATA"
	assert_success
}

# Each program is its own test, so that one failing hides none of the others;
# the next test keeps this list complete.
@test "every tests/unit/test_*.c has its own test in unit.bats" {
	for src in "$REPO"/tests/unit/test_*.c; do
		t=$(basename "$src" .c)
		grep -q "^@test \"unit: $t\" {" "$BATS_TEST_FILENAME" || fail "no test runs $t"
	done
}

@test "unit: test_app" {
	unit_test test_app
}

@test "unit: test_astxt" {
	unit_test test_astxt
}

@test "unit: test_attrdiff" {
	unit_test test_attrdiff
}

@test "unit: test_base64" {
	unit_test test_base64
}

@test "unit: test_build_rng" {
	unit_test test_build_rng
}

@test "unit: test_cli" {
	unit_test test_cli
}

@test "unit: test_core" {
	unit_test test_core
}

@test "unit: test_edgediff" {
	unit_test test_edgediff
}

@test "unit: test_graph" {
	unit_test test_graph
}

@test "unit: test_hlo" {
	unit_test test_hlo
}

@test "unit: test_hmap" {
	unit_test test_hmap
}

@test "unit: test_json" {
	unit_test test_json
}

@test "unit: test_json_num" {
	unit_test test_json_num
}

@test "unit: test_json_reader" {
	unit_test test_json_reader
}

@test "unit: test_json_str" {
	unit_test test_json_str
}

@test "unit: test_jsonizer" {
	unit_test test_jsonizer
}

@test "unit: test_jsonw" {
	unit_test test_jsonw
}

@test "unit: test_jsonscan" {
	unit_test test_jsonscan
}

@test "unit: test_load" {
	unit_test test_load
}

@test "unit: test_progress" {
	unit_test test_progress
}

@test "unit: test_diffsample" {
	unit_test test_diffsample
}

@test "unit: test_diffuse" {
	unit_test test_diffuse
}

@test "unit: test_layerdag" {
	unit_test test_layerdag
}

@test "unit: test_mem" {
	unit_test test_mem
}

@test "unit: test_nn" {
	unit_test test_nn
}

@test "unit: test_pg" {
	unit_test test_pg
}

@test "unit: test_shlo" {
	unit_test test_shlo
}

@test "unit: test_sizer" {
	unit_test test_sizer
}

@test "unit: test_stage" {
	unit_test test_stage
}

@test "unit: test_infragraph" {
	unit_test test_infragraph
}

@test "unit: test_xir" {
	unit_test test_xir
}

@test "unit: test_pt_kineto" {
	unit_test test_pt_kineto
}

@test "unit: test_pyrepr" {
	unit_test test_pyrepr
}

@test "unit: test_strmap" {
	unit_test test_strmap
}

@test "unit: test_trace_event" {
	unit_test test_trace_event
}

@test "unit: test_tpl" {
	unit_test test_tpl
}

@test "unit: test_crule" {
	unit_test test_crule
}

@test "unit: test_writer" {
	unit_test test_writer
}

@test "unit: test_sim_evq" {
	unit_test test_sim_evq
}

@test "unit: test_sim_pack" {
	unit_test test_sim_pack
}

@test "unit: test_sim_net" {
	unit_test test_sim_net
}

@test "unit: test_sim_algo" {
	unit_test test_sim_algo
}

@test "unit: test_sim_tables" {
	unit_test test_sim_tables
}

@test "unit: test_sim_classes" {
	unit_test test_sim_classes
}

@test "unit: test_sim_members" {
	unit_test test_sim_members
}

@test "the C sources follow .clang-format (make format fixes them)" {
	command -v clang-format >/dev/null || skip "clang-format is not installed"
	cd "$REPO"
	run clang-format --dry-run -Werror $(find libcommon cmd -name '*.[ch]') tests/fuzz/*.c \
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
