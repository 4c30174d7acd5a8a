#!/usr/bin/env bats
# Every man page's EXAMPLES run and print what the page says (tests/man-examples.sh).
load common

run_page() {
	run "$REPO/tests/man-examples.sh" "$REPO/man/$1" "$REPO" "$T/ex"
	assert_success
}

@test "man pages are well-formed (man -l renders without warnings)" {
	for p in "$REPO"/man/*.[15]; do
		out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$p" 2>&1 >/dev/null)
		[ -z "$out" ] || { echo "$p: $out"; false; }
	done
}

@test "et-convert(1) examples" { run_page et-convert.1; }
@test "etkit-stream(5) examples" { run_page etkit-stream.5; }
@test "etkit-calib(5) examples" { run_page etkit-calib.5; }
@test "et-stage(1) examples" { run_page et-stage.1; }
@test "et-sim(1) examples" { run_page et-sim.1; }
@test "layerdag-sample(1) examples" { run_page layerdag-sample.1; }
