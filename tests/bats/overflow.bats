#!/usr/bin/env bats
# Overflowing clocks and totals (issue 15, item 4): et-sim refuses a run
# whose simulated time or totals do not fit (exit 3, naming rank and node),
# et-validate --stats and et-synth transform --scale-* say when a total or
# a field saturates instead of wrapping.
load common
bats_require_minimum_version 1.5.0

@test "et-sim: compute times whose sum does not fit in 64 bits are exit 3, not wrapped numbers" {
	# 3 layers of 2^63-1 us: each alone already beyond 2^64 ns
	et-synth chain --layers 3 --compute-us 9223372036854775807 --size 1M --world 2 -o c.etz
	run -3 --separate-stderr et-sim c.etz
	[ "$stderr" = "et-sim: c.etz: rank 0: node 0: compute time exceeds 2^64-2 ns" ] || fail "$stderr"
	[ -z "$output" ]
	# 2^44 us per layer fits (1.76e16 ns); 1,100 of them do not (1.9e19 > 2^64)
	et-synth chain --layers 1100 --compute-us 17592186044416 --size 1M --world 2 -o d.etz
	run -3 --separate-stderr et-sim d.etz
	[[ $stderr =~ ^et-sim:\ d\.etz:\ rank\ [01]:\ node\ [0-9]+:\ simulated\ time\ exceeds\ 2\^64-2\ ns$ ]] || fail "$stderr"
	# and one layer less than the limit runs: 1,000 x 2^44 us = 1.76e19 ns < 2^64
	et-synth chain --layers 1000 --compute-us 17592186044416 --size 1M --world 2 -o e.etz
	run -0 et-sim --format json e.etz
	[ "$(printf '%s' "$output" | jq '.iteration_ns >= 17592186044416000000')" = true ]
}

@test "et-sim: 100,000 all-reduces of 2 GB at 1e-6 GB/s overflow the clock: exit 3" {
	et-synth coll --type all_reduce --size 2G --world 2 --count 100000 -o ar.etz
	run -3 --separate-stderr et-sim --set bandwidth=1e-6 ar.etz
	[[ $stderr =~ ^et-sim:\ ar\.etz:\ rank\ 0:\ node\ [0-9]+:\ simulated\ time\ exceeds\ 2\^64-2\ ns$ ]] || fail "$stderr"
	[ -z "$output" ]
	# one of them fits: 2 GiB at 1e-6 GB/s on a 2-rank ring
	et-synth coll --type all_reduce --size 2G --world 2 -o one.etz
	run -0 et-sim --set bandwidth=1e-6 --format json one.etz
	[ "$(printf '%s' "$output" | jq '.iteration_ns > 1000000000000000')" = true ]
}

@test "et-validate --stats: a total that does not fit saturates, marked, with one warning per statistic" {
	et-synth chain --layers 3 --compute-us 9223372036854775807 --size 1M --world 2 -o c.etz
	run -0 --separate-stderr et-validate --stats c.etz
	assert_output --partial "duration: 18446744073709551615 (saturated) us total, critical path 18446744073709551615 (saturated) us over 5 nodes"
	[ "${stderr_lines[0]}" = "et-validate: warning: c.etz: --stats: total duration saturates at 2^64-1 us in rank 0 and 1 more rank" ] || fail "$stderr"
	[ "${stderr_lines[1]}" = "et-validate: warning: c.etz: --stats: critical path saturates at 2^64-1 us in rank 0 and 1 more rank" ] || fail "$stderr"
	run -0 --separate-stderr et-validate --stats --format json c.etz
	[ "$(printf '%s' "$output" | jq -c '[.. | objects | select(has("saturated")) | .saturated] | first')" != null ]
	# two layers of 2^63-1 us sum to 2^64-2: no saturation
	et-synth chain --layers 2 --compute-us 9223372036854775807 --size 1M --world 1 -o f.etz
	run -0 --separate-stderr et-validate --stats f.etz
	assert_output --partial "duration: 18446744073709551614 us total"
	[ -z "$stderr" ]
}

@test "et-synth transform --scale-*: a field that would wrap saturates, and says so once per field" {
	et-synth coll --type all_reduce --size 4611686018427387904 --world 2 -o big.etz
	run -0 --separate-stderr et-synth transform --scale-comm 4 big.etz -o x.etz
	[ "$stderr" = "et-synth: warning: big.etz: --scale-comm 4: comm_size saturates on 2 COMM nodes (kept at the largest value of its integer type)" ] || fail "$stderr"
	run -0 et-convert --to jsonl x.etz
	[ "$(printf '%s\n' "$output" | grep -c '"comm_size","int64Val":"9223372036854775807"')" -eq 2 ]
	# a factor that fits: exact, and silent
	run -0 --separate-stderr et-synth transform --scale-comm 1.5 big.etz -o y.etz
	[ -z "$stderr" ]
	et-convert --to jsonl y.etz | grep -q '"int64Val":"6917529027641081856"'
	et-synth chain --layers 3 --compute-us 9223372036854775807 --size 1M --world 2 -o c.etz
	run -0 --separate-stderr et-synth transform --scale-compute 10 c.etz -o z.etz
	[ "$stderr" = "et-synth: warning: c.etz: --scale-compute 10: duration_micros saturates on 6 COMP nodes (kept at the largest value of its integer type)" ] || fail "$stderr"
}
