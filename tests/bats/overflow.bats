#!/usr/bin/env bats
# Overflowing clocks and totals (issue 15, item 4): et-sim refuses a time,
# total or size that does not fit in 64 bits (exit 3, one line naming the
# input, rank and node); et-validate --stats and et-synth transform --scale-*
# saturate and say so. The inputs are made here with et-synth.
load common
bats_require_minimum_version 1.5.0

MAXD=9223372036854775807 # 2^63-1 us: x 1000 does not fit in 64 bits of ns

@test "et-sim: a compute time beyond 2^64 ns is exit 3 naming the input, rank and node" {
	run --separate-stderr bash -c "et-synth chain --layers 3 --compute-us $MAXD --size 1M --world 2 | et-sim"
	assert_failure 3
	assert_output ""
	[ "$stderr" = "et-sim: <stdin>: rank 0: node 0: compute time exceeds 2^64-2 ns" ]
}

@test "et-sim: simulated time that overflows while every duration fits is exit 3 at the node" {
	# each compute is 9e18 ns: the second ends below 2^64, the third beyond
	et-synth chain --layers 3 --compute-us 9000000000000000 --size 1M --world 2 -o c.etz
	run --separate-stderr et-sim c.etz
	assert_failure 3
	assert_output ""
	[ "$stderr" = "et-sim: c.etz: rank 0: node 4: simulated time exceeds 2^64-2 ns" ]
	# one layer less fits: 2 x 9e18 ns < 2^64
	et-synth chain --layers 2 --compute-us 9000000000000000 --size 1M --world 2 -o d.etz
	run -0 et-sim --format json d.etz
	# (grep, not jq: jq 1.6 rounds integers beyond 2^53)
	assert_equal "$(grep -o '"iteration_ns":[0-9]*' <<<"$output")" '"iteration_ns":18000000000000049240'
}

@test "et-sim: 100,000 all-reduces of 2 GB at 1e-6 GB/s overflow the clock at the 9,224th" {
	et-synth coll --type all_reduce --size 2G --world 2 --count 100000 -o ar.etz
	run --separate-stderr et-sim --set bandwidth=1e-6 ar.etz
	assert_failure 3
	assert_output ""
	[ "$stderr" = "et-sim: ar.etz: rank 0: node 9223: simulated time exceeds 2^64-2 ns" ]
	# message by message, every rank: the same node
	run --separate-stderr et-sim --no-closed-form --no-fold --set bandwidth=1e-6 ar.etz
	assert_failure 3
	[ "$stderr" = "et-sim: ar.etz: rank 0: node 9223: simulated time exceeds 2^64-2 ns" ]
}

@test "et-sim: a send whose transfer time does not fit is exit 3" {
	et-synth p2p --pattern pairs --size 1M --world 2 -o p.etz
	run --separate-stderr et-sim --set bandwidth=1e-300 p.etz
	assert_failure 3
	[ "$stderr" = "et-sim: p.etz: rank 0: node 0: transfer time exceeds 2^64-2 ns" ]
}

@test "et-sim: GPU and CPU compute side by side whose sum does not fit is exit 3" {
	# each ends at 1e19 ns (fits); together they are 2e19 ns of compute
	cat >cpu.jsonl <<-'EOF'
		{"rank":0,"world_size":1,"name":"cpu","metadata":{"version":"0.0.4"}}
		{"rank":0,"id":1,"name":"gpu","type":"COMP_NODE","durationMicros":10000000000000000,"attr":[{"name":"is_cpu_op","boolVal":false}]}
		{"rank":0,"id":2,"name":"host","type":"COMP_NODE","durationMicros":10000000000000000,"attr":[{"name":"is_cpu_op","boolVal":true}]}
	EOF
	run --separate-stderr et-sim cpu.jsonl
	assert_failure 3
	assert_output ""
	[ "$stderr" = "et-sim: cpu.jsonl: rank 0: node 2: compute time total (GPU and CPU) exceeds 2^64-2 ns" ]
}

@test "et-sim: an all-gather whose data grows beyond 2^64 bytes is exit 3, not wrapped sizes" {
	printf 'topology: [ Ring, Ring ]\nnpus_count: [ 2, 2 ]\nbandwidth: [ 1e6, 1e6 ]\nlatency: [ 500, 500 ]\n' >net.yml
	et-synth coll --type all_gather --size 9223372036854775807 --world 4 -o ag.etz
	run --separate-stderr et-sim --network net.yml --set preferred-dataset-splits=1 \
		--set all-gather-implementation=ring,ring ag.etz
	assert_failure 3
	[ "$stderr" = "et-sim: ag.etz: rank 0: node 0: collective data exceeds 2^64-2 bytes" ]
}

@test "et-sim: compute-scale brings a duration beyond 2^64 ns into range: simulated exactly" {
	et-synth chain --layers 1 --compute-us $MAXD --size 1M --world 2 -o c.etz
	run --separate-stderr et-sim --set compute-scale=1e-6 --format json c.etz
	assert_success
	# floor((2^63-1) x 1000 x 1e-6) in double, as ASTRA-sim's double arithmetic
	[[ $output == *'"gpu_compute_ns":9223372036854776,'* ]]
}

@test "et-sim: times beyond 2^63 ns print as they are in the JSON report, not negative" {
	et-synth chain --layers 1 --compute-us 10000000000000000 --size 1M --world 2 -o c.etz
	run --separate-stderr et-sim --format json c.etz
	assert_success
	assert_equal "$(grep -o '"start_ns":[0-9-]*,"end_ns":[0-9-]*' <<<"$output" | sort -u)" \
		'"start_ns":10000000000000000000,"end_ns":10000000000000024620'
}

@test "et-sim --sweep: the point whose clock overflows is a row with the message" {
	et-synth coll --type all_reduce --size 2G --world 2 --count 10000 -o ar.etz
	run --separate-stderr et-sim --sweep bandwidth=1e-6,50 ar.etz
	assert_success
	assert_line --index 1 '1e-6,,,,,rank 0: node 9223: simulated time exceeds 2^64-2 ns'
	assert_line --index 2 --regexp '^50,[0-9]+,[0-9]+,[0-9]+,[0-9]+,ok$'
}

@test "et-validate --stats: per-rank sums that do not fit saturate and say so" {
	et-synth chain --layers 3 --compute-us $MAXD --size 1M --world 2 -o big.etz
	run --separate-stderr et-validate --stats big.etz
	assert_success
	assert_line --index 4 "  duration: 18446744073709551615 (saturated) us total, critical path 18446744073709551615 (saturated) us over 5 nodes; depth 6, max width 1"
	[ "${stderr_lines[0]}" = "et-validate: warning: big.etz: --stats: total duration saturates at 2^64-1 us in rank 0 and 1 more rank" ]
	[ "${stderr_lines[1]}" = "et-validate: warning: big.etz: --stats: critical path saturates at 2^64-1 us in rank 0 and 1 more rank" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	run --separate-stderr et-validate --stats --format json big.etz
	assert_success
	assert_equal "$(jq -c '.stats.total.saturated' <<<"$output")" '["total_duration_micros","critical_path_micros"]'
	assert_equal "$(jq -c '.stats.ranks[1].saturated' <<<"$output")" '["total_duration_micros","critical_path_micros"]'
	# two layers of 2^63-1 us sum to 2^64-2: exact, no saturation
	et-synth chain --layers 2 --compute-us $MAXD --size 1M --world 1 -o f.etz
	run --separate-stderr et-validate --stats f.etz
	assert_success
	assert_output --partial "duration: 18446744073709551614 us total"
	[ -z "$stderr" ]
}

@test "et-validate --stats: a total over ranks that does not fit saturates and says so" {
	et-synth chain --layers 1 --compute-us $MAXD --size 1M --world 3 -o t3.etz
	run --separate-stderr et-validate --stats t3.etz
	assert_success
	assert_line --index 16 "  duration: 18446744073709551615 (saturated) us total, critical path 9223372036854775807 us over 1 node; depth 2, max width 1"
	[ "$stderr" = "et-validate: warning: t3.etz: --stats: total duration saturates at 2^64-1 us in the total over ranks" ]
	run --separate-stderr et-validate --stats --format json t3.etz
	assert_equal "$(jq -c '[.stats.ranks[0].saturated, .stats.total.saturated]' <<<"$output")" '[null,["total_duration_micros"]]'
}

@test "et-validate --stats: collective and SEND bytes that do not fit saturate and say so" {
	et-synth coll --type all_reduce --size 4611686018427387904 --count 4 --world 2 -o cb.etz
	run --separate-stderr et-validate --stats cb.etz
	assert_success
	assert_line --index 3 "  comm bytes: ALL_REDUCE 18446744073709551615 (saturated) (4)"
	[ "$stderr" = "et-validate: warning: cb.etz: --stats: ALL_REDUCE bytes saturate at 2^64-1 in rank 0 and 1 more rank" ]
	et-synth p2p --pattern pairs --size 4611686018427387904 --count 4 --world 2 -o pb.etz
	run --separate-stderr et-validate --stats --format json pb.etz
	assert_success
	assert_equal "$(jq -c '.stats.ranks[0].saturated' <<<"$output")" '["comm_bytes.SEND"]'
	[ "$stderr" = "et-validate: warning: pb.etz: --stats: SEND bytes saturate at 2^64-1 in rank 0 and 1 more rank" ]
}

@test "et-synth transform --scale-*: fields that saturate are kept at their type's largest value and counted, once per field" {
	et-synth chain --layers 3 --compute-us $MAXD --size 1M --world 2 -o c.etz
	run --separate-stderr et-synth transform --scale-compute 3 c.etz --to jsonl
	assert_success
	[ "$stderr" = "et-synth: warning: c.etz: --scale-compute 3: duration_micros saturates on 6 COMP nodes (kept at the largest value of its integer type)" ]
	assert_equal "$(grep -c '"durationMicros":"18446744073709551615"' <<<"$output")" 6
	et-synth coll --type all_reduce --size 4611686018427387904 --world 2 -o a.etz
	run --separate-stderr et-synth transform --scale-comm 4 a.etz --to jsonl
	assert_success
	[ "$stderr" = "et-synth: warning: a.etz: --scale-comm 4: comm_size saturates on 2 COMM nodes (kept at the largest value of its integer type)" ]
	assert_equal "$(grep -c '"comm_size","int64Val":"9223372036854775807"' <<<"$output")" 2
	# in range: exact, and no warning
	run --separate-stderr et-synth transform --scale-comm 1.5 a.etz --to jsonl
	assert_success
	[ -z "$stderr" ]
	assert_equal "$(grep -c '"comm_size","int64Val":"6917529027641081856"' <<<"$output")" 2
}

@test "et-synth transform --scale-compute: num_ops and tensor_size saturate in their own member type" {
	cat >n.jsonl <<-'EOF'
		{"rank":0,"world_size":1,"name":"n","metadata":{"version":"0.0.4"}}
		{"rank":0,"id":1,"name":"mm","type":"COMP_NODE","durationMicros":5,"attr":[{"name":"num_ops","int32Val":2000000000},{"name":"tensor_size","uint64Val":"10000000000000000000"}]}
		{"rank":0,"id":2,"name":"mm2","type":"COMP_NODE","durationMicros":5,"attr":[{"name":"num_ops","int32Val":2000000000},{"name":"tensor_size","uint64Val":"10"}]}
	EOF
	run --separate-stderr et-synth transform --scale-compute 2 n.jsonl --to jsonl
	assert_success
	[ "${stderr_lines[0]}" = "et-synth: warning: n.jsonl: --scale-compute 2: num_ops saturates on 2 COMP nodes (kept at the largest value of its integer type)" ]
	[ "${stderr_lines[1]}" = "et-synth: warning: n.jsonl: --scale-compute 2: tensor_size saturates on 1 COMP node (kept at the largest value of its integer type)" ]
	[ "${#stderr_lines[@]}" -eq 2 ]
	assert_equal "$(grep -c '"num_ops","int32Val":2147483647' <<<"$output")" 2
}

# et-stage: a plan with a quantity its ET field cannot hold is exit 2 before anything is
# written, naming the stage, the field, the first node and the limit (issue 27, item 8a)
stage_refused() { # PATTERN ARGS...: exit 2 within 2 s, one line matching, no output file
	local want=$1
	shift
	run --separate-stderr timeout 2 et-stage "$@" -o x.etz
	assert_failure 2
	assert_output ""
	[[ "${stderr_lines[0]}" == $want ]] || fail "stderr: $stderr"
	[ ! -e x.etz ] || fail "x.etz was written"
	[ -z "$(ls -A | grep -v '^separate-stderr-')" ] || fail "left: $(ls -A)"
}

@test "et-stage: llama3-405b with a 2^26 sequence: the score products' num_ops exceed int64 (was -1)" {
	# S²·D = 2^52·2^14 = 2^66 FLOPs (causal: half of 2·S²·D) for QKᵀ and PV
	stage_refused "et-stage: stage 0: num_ops 7.379e+19 of node mb0.layer0.attn.scores_COMP does not fit (at most 9223372036854775807)" \
		--model llama3-405b --layers 1 --seq 67108864
	# 2^24 tokens: 2^62 FLOPs, which fits, exactly
	run -0 timeout 2 et-stage --model llama3-405b --layers 1 --seq 16777216 --ranks 0 -t jsonl
	# the seven score products of forward and backward (QKᵀ, PV, QKᵀ again, dP, dV, dQ, dK)
	assert_equal "$(grep -c '"num_ops","int64Val":"4611686018427387904"' <<<"$output")" 7
	[ "$(grep -c '"int64Val":-' <<<"$output")" = 0 ]
}

@test "et-stage: 2^30 dimensions in fp32: the gradient all-reduce's comm_size exceeds int64 (was negative)" {
	stage_refused "*comm_size 2.79e+20 of node bucket0.grad_X1COMM does not fit (at most 9223372036854775807)*" \
		--d-model 1073741824 --d-ff 1073741824 --seq 1073741824 --vocab 1073741824 \
		--dtype fp32 --tp 2 --dp 2 --global-batch 16
	# the first field named is num_ops, then comm_size, then tensor_size
	[[ "${stderr_lines[0]}" == "et-stage: stage 0: num_ops "*"; comm_size "*"; tensor_size "*"(at most 18446744073709551615)" ]]
}

@test "et-stage: decode, prefill, interleaved pipelines and --compat stage refuse a quantity too large" {
	stage_refused "et-stage: stage 0: num_ops * of node step0.layer0.attn.scores_COMP does not fit*" \
		--model llama3-8b --layers 2 --seq 67108864 --mode prefill
	stage_refused "et-stage: stage 0: num_ops 2.767e+19 of node step0.layer0.attn.qkv_COMP does not fit*" \
		--model llama3-8b --layers 2 --mode decode --d-model 1073741824 --d-ff 1073741824 \
		--global-batch 8
	# the last stage's head: only there does the vocabulary overflow
	stage_refused "et-stage: stage 1: num_ops * of node mb0.head.logits_COMP does not fit*" \
		--model llama3-8b --layers 4 --pp 2 --vocab 1073741824 --seq 4194304 \
		--schedule interleaved --global-batch 4
	# and a shard of stage 0 alone too: the shards of a plan are all refused or all written
	stage_refused "et-stage: stage 1: num_ops * of node mb0.head.logits_COMP does not fit*" \
		--model llama3-8b --layers 4 --pp 2 --vocab 1073741824 --seq 4194304 --ranks 0
	stage_refused "et-stage: stage 0: num_ops * of node mb0.transformer.0.mha.qkv@0_COMP does not fit*" \
		--compat stage --layers 2 --d-model 1073741824 --d-ff 1073741824 --heads 8 --seq 1024
}
