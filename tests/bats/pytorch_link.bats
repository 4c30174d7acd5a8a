#!/usr/bin/env bats
# et-convert --from pytorch HOST --kineto KINETO: linking a Kineto (or legacy
# profiler) trace into a host trace: coverage, timing, GPU ops, inter-thread
# dependencies, refusing traces of different runs, and the error paths.
load common

PT="$DATA/pytorch"
SA="$PT/simple-add-a100"

# node fields of a --to jsonl output, one line per node: id name ...
node() { # file id jq-expression
	jq -r --argjson id "$2" "select(.id == \$id) | $3" "$1"
}

# A host trace of three nested ops and its Kineto trace with the times of the
# exclusive-duration example: (ts 100, dur 10), (105, 3), (108, 1).
nested_pair() {
	cat >host.json <<'EOF'
{"schema": "1.0.1", "pid": 7, "time": "t", "start_ts": 1, "nodes": [
 {"id": 2, "name": "[pytorch|profiler|execution_graph|thread]", "parent": 1, "rf_id": 0, "tid": 1},
 {"id": 4, "name": "aten::b", "parent": 3, "rf_id": 2, "tid": 1},
 {"id": 5, "name": "aten::c", "parent": 3, "rf_id": 3, "tid": 1},
 {"id": 3, "name": "aten::a", "parent": 2, "rf_id": 1, "tid": 1},
 {"id": 1, "name": "[pytorch|profiler|execution_graph|process]", "parent": 1, "rf_id": 0, "tid": 0}
], "finish_ts": 2}
EOF
	cat >kineto.json <<'EOF'
{"schemaVersion": 1, "traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::a", "pid": 7, "tid": 7, "ts": 100, "dur": 10, "args": {"External id": 11, "Record function id": 1}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::b", "pid": 7, "tid": 7, "ts": 105, "dur": 3, "args": {"External id": 12, "Record function id": 2}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::c", "pid": 7, "tid": 7, "ts": 108, "dur": 1, "args": {"External id": 13, "Record function id": 3}},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 7, "tid": 7, "ts": 90, "dur": 40, "args": {"External id": 10}}
]}
EOF
}

# Two host threads; Kineto: a kernel under aten::mul, a memcpy under
# aten::copy_ (on another thread, after a gap), one Kineto op with no host op.
two_thread_pair() {
	cat >host.json <<'EOF'
{"schema": "1.0.1", "pid": 7, "time": "t", "start_ts": 1, "nodes": [
 {"id": 2, "name": "[pytorch|profiler|execution_graph|thread]", "parent": 1, "rf_id": 0, "tid": 1},
 {"id": 3, "name": "aten::mul", "parent": 2, "rf_id": 1, "tid": 1, "inputs": [[1, 2, 0, 4, 4, "cuda:0"]], "input_shapes": [[4]], "input_types": ["Tensor(float)"], "outputs": [], "output_shapes": [], "output_types": []},
 {"id": 5, "name": "[pytorch|profiler|execution_graph|thread]", "parent": 1, "rf_id": 0, "tid": 2},
 {"id": 6, "name": "aten::add", "parent": 5, "rf_id": 2, "tid": 2},
 {"id": 7, "name": "aten::copy_", "parent": 5, "rf_id": 3, "tid": 2},
 {"id": 1, "name": "[pytorch|profiler|execution_graph|process]", "parent": 1, "rf_id": 0, "tid": 0}
], "finish_ts": 2}
EOF
	cat >kineto.json <<'EOF'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 9, "tid": 100, "ts": 1000, "dur": 50, "args": {"External id": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 100, "ts": 1010, "dur": 5, "args": {"External id": 1, "correlation": 77}},
 {"ph": "X", "cat": "kernel", "name": "mul_kernel", "pid": 0, "tid": 7, "ts": 1100, "dur": 8, "args": {"External id": 1, "correlation": 77, "stream": 7}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 9, "tid": 200, "ts": 1020, "dur": 10, "args": {"External id": 2}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 9, "tid": 200, "ts": 5000, "dur": 10, "args": {"External id": 3}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 9, "tid": 200, "ts": 5002, "dur": 3, "args": {"External id": 3, "correlation": 78}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 8, "ts": 5010, "dur": 4, "args": {"External id": 3, "correlation": 78, "stream": 8}},
 {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 8, "ts": 5020, "dur": 1, "args": {"correlation": 79, "stream": 8}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::zero_", "pid": 9, "tid": 200, "ts": 6000, "dur": 1, "args": {"External id": 4}}
]}
EOF
}

@test "simple-add (External id = rf_id): -v reports full coverage and 4 GPU ops attached" {
	run et-convert --from pytorch "$SA/host_et.json.gz" --kineto "$SA/kineto.json.gz" -v -o a.etz
	assert_success
	assert_output --partial "linked 36/36 Kineto CPU ops (100.0 %), 36/36 host ops (100.0 %), 4/4 GPU ops attached"
	refute_output --partial "warning"
	# quiet without -v
	run et-convert --from pytorch "$SA/host_et.json.gz" --kineto "$SA/kineto.json.gz" -o b.etz
	assert_success
	assert_output ""
}

@test "simple-add: host ops get Kineto start times and exclusive durations" {
	et-convert --from pytorch "$SA/host_et.json.gz" --kineto "$SA/kineto.json.gz" --to jsonl >o.jsonl
	# [param|cuda]: 19814157 us minus its children 19583658 + 94 + 112752
	assert_equal "$(node o.jsonl 3 '"\(.name) \(.startTimeMicros) \(.durationMicros)"')" \
		"[param|cuda] 1689360788493697 117653"
	assert_equal "$(node o.jsonl 8 '"\(.name) \(.startTimeMicros) \(.durationMicros)"')" \
		"aten::uniform_ 1689360808079151 189"
}

@test "simple-add: each kernel becomes a node under the op that launched it, on its stream" {
	et-convert --from pytorch "$SA/host_et.json.gz" --kineto "$SA/kineto.json.gz" --to jsonl >o.jsonl
	# fresh ids after the largest host id (58), in kernel start order
	run jq -r 'select(.id > 58) | "\(.id) \(.ctrlDeps[0]) \(.durationMicros) \(.name[0:25])"' o.jsonl
	assert_output "59 8 5 void at::native::(anonymo
60 13 5 void at::native::(anonymo
61 36 3 void at::native::vectoriz
62 58 3 void at::native::vectoriz"
	assert_equal "$(node o.jsonl 61 '[.attr[] | select(.name == "stream" or .name == "is_cpu_op") | .int64Val // .boolVal] | map(tostring) | join(" ")')" \
		"false 7"
	# inputs are those of the launching op (the reference copies them)
	assert_equal "$(node o.jsonl 61 .inputs.values)" "$(node o.jsonl 36 .inputs.values)"
}

@test "DLRM host and Kineto traces of different steps: exit 3, nothing written" {
	run et-convert --from pytorch "$PT/dlrm-8rank/host_et.0.json.gz" \
		--kineto "$PT/dlrm-8rank/kineto.0.json.gz" -o x.etz
	assert_failure 3
	assert_output --partial "host and Kineto traces are not from the same run: only 79 of 1672 Kineto CPU ops match (use --allow-unlinked to convert host-only)"
	[ ! -e x.etz ]
}

@test "DLRM with --allow-unlinked: a warning, and the host-only conversion" {
	et-convert --from pytorch "$PT/dlrm-8rank/host_et.0.json.gz" --to jsonl >host-only.jsonl
	run et-convert --from pytorch "$PT/dlrm-8rank/host_et.0.json.gz" \
		--kineto "$PT/dlrm-8rank/kineto.0.json.gz" --allow-unlinked -o x.etz
	assert_success
	assert_output --partial "warning:"
	assert_output --partial "only 79 of 1672 Kineto CPU ops match: not from the same run, converting host-only"
	et-convert --to jsonl x.etz | cmp - host-only.jsonl
}

@test "legacy profiler chrome trace (no ids, no categories): linked by name and order" {
	G="$PT/cpu-gloo-mlp-2rank"
	run et-convert --from pytorch "$G/host_et.0.json.gz" --kineto "$G/profiler.0.json.gz" -v -o a.etz
	assert_success
	assert_output --partial "linked 126/126 Kineto CPU ops (100.0 %), 126/126 host ops (100.0 %), 0/0 GPU ops attached"
	et-convert --to jsonl a.etz >o.jsonl
	# aten::zeros: 357 us minus aten::empty 76 and aten::zero_ 52
	assert_equal "$(node o.jsonl 3 '"\(.name) \(.startTimeMicros) \(.durationMicros)"')" "aten::zeros 471 229"
	# a directory pairs profiler.N with host_et.N
	run et-convert --from pytorch "$G" -v -o b.etz
	assert_success
	assert_output --partial "host_et.1.json.gz + $G/profiler.1.json.gz: linked 126/126"
}

@test "a profiler trace of another program links nothing: exit 3" {
	run et-convert --from pytorch "$SA/host_et.json.gz" \
		--kineto "$PT/cpu-gloo-mlp-2rank/profiler.0.json.gz" -o x.etz
	assert_failure 3
	assert_output --partial "only 0 of 126 Kineto CPU ops match"
}

@test "exclusive duration: (100, 10) around (105, 3) and (108, 1) gives 6, 3 and 1" {
	nested_pair
	run et-convert --from pytorch host.json --kineto kineto.json -v --to jsonl
	assert_success
	# ProfilerStep annotations are not ops, nor are the profiler's process and thread nodes
	assert_output --partial "linked 3/3 Kineto CPU ops (100.0 %), 3/3 host ops (100.0 %)"
	et-convert --from pytorch host.json --kineto kineto.json --to jsonl >o.jsonl
	run jq -r 'select(.id > 2) | "\(.name) \(.startTimeMicros) \(.durationMicros)"' o.jsonl
	assert_output "aten::a 100 6
aten::b 105 3
aten::c 108 1"
}

@test "nanosecond timestamps near 1.7e15 us: an op ending where its parent ends is nested, the next one is not" {
	cat >host.json <<'EOF'
{"schema": "1.0.1", "pid": 7, "time": "t", "start_ts": 1, "nodes": [
 {"id": 2, "name": "[pytorch|profiler|execution_graph|thread]", "parent": 1, "rf_id": 0, "tid": 1},
 {"id": 4, "name": "aten::child", "parent": 3, "rf_id": 2, "tid": 1},
 {"id": 3, "name": "aten::parent", "parent": 2, "rf_id": 1, "tid": 1},
 {"id": 5, "name": "aten::next", "parent": 2, "rf_id": 3, "tid": 1},
 {"id": 1, "name": "[pytorch|profiler|execution_graph|process]", "parent": 1, "rf_id": 0, "tid": 0}
], "finish_ts": 2}
EOF
	cat >kineto.json <<'EOF'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::parent", "pid": 7, "tid": 7, "ts": 1700000000000000.125, "dur": 10.000, "args": {"Record function id": 1}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::child", "pid": 7, "tid": 7, "ts": 1700000000000004.375, "dur": 5.750, "args": {"Record function id": 2}},
 {"ph": "X", "cat": "cpu_op", "name": "aten::next", "pid": 7, "tid": 7, "ts": 1700000000000010.125, "dur": 0.500, "args": {"Record function id": 3}}
]}
EOF
	et-convert --from pytorch host.json --kineto kineto.json --to jsonl >o.jsonl
	# parent: 10 - 5.75 = 4.25 (3.75, truncated to 3, if aten::next were
	# taken for a child, as doubles of the absolute times would make it)
	run jq -r 'select(.id > 2) | "\(.name) \(.startTimeMicros) \(.durationMicros // 0)"' o.jsonl
	assert_output "aten::parent 1700000000000000 4
aten::child 1700000000000004 5
aten::next 1700000000000010 0"
}

@test "a GPU op hangs under the op with its launch's External id, else the innermost op running at the launch" {
	nested_pair
	# aten::a (ext 11) runs 100-110, aten::b 105-108, aten::c 108-109
	sed -i '$d' kineto.json # the closing ]}
	cat >>kineto.json <<'EOF'
 ,{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 106, "dur": 1, "args": {"External id": 11, "correlation": 1}}
 ,{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 106.5, "dur": 1, "args": {"correlation": 2}}
 ,{"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 7, "tid": 7, "ts": 109.5, "dur": 0.2, "args": {"correlation": 3}}
 ,{"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 200, "dur": 1, "args": {"correlation": 1, "stream": 7}}
 ,{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 201, "dur": 1, "args": {"correlation": 2, "stream": 7}}
 ,{"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 7, "ts": 202, "dur": 1, "args": {"correlation": 3, "stream": 7}}
 ,{"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 203, "dur": 1, "args": {"correlation": 4, "stream": 7}}
]}
EOF
	run et-convert --from pytorch host.json --kineto kineto.json -v --to jsonl
	assert_success
	assert_output --partial "3/4 GPU ops attached"
	et-convert --from pytorch host.json --kineto kineto.json --to jsonl >o.jsonl
	run jq -r 'select(.id > 5) | "\(.id) \(.name) \(.ctrlDeps[0])"' o.jsonl
	assert_output "6 k1 3
7 k2 4
8 k3 3"
}

@test "Record function id is the key when present; External id is then ignored" {
	nested_pair
	# External ids 11..13 cannot match rf_ids 1..3: linking still succeeds
	sed -i 's/"Record function id": 2/"Record function id": 99/' kineto.json
	run et-convert --from pytorch host.json --kineto kineto.json -v -o x.etz
	assert_success
	assert_output --partial "linked 2/3 Kineto CPU ops (66.7 %)"
	assert_output --partial "warning:"
	assert_output --partial "only 2 of 3 Kineto CPU ops (66.7 %) match host ops"
}

@test "inter-thread order, partial coverage warning, memcpy ops" {
	two_thread_pair
	run et-convert --from pytorch host.json --kineto kineto.json -v -o a.etz
	assert_success
	assert_output --partial "linked 3/4 Kineto CPU ops (75.0 %), 3/3 host ops (100.0 %), 2/2 GPU ops attached"
	assert_output --partial "warning: host.json + kineto.json: only 3 of 4 Kineto CPU ops (75.0 %) match host ops"
	et-convert --to jsonl a.etz >o.jsonl
	# aten::add starts thread 200 after aten::mul started on thread 100;
	# aten::copy_ starts a new group (gap > 1000 us): both depend on aten::mul
	assert_equal "$(node o.jsonl 6 '.dataDeps | index(3) != null')" true
	assert_equal "$(node o.jsonl 7 '.dataDeps | index(3) != null')" true
	# the memcpy hangs under aten::copy_ on stream 8; the memset is ignored
	assert_equal "$(node o.jsonl 9 '"\(.name) \(.ctrlDeps[0]) \(.startTimeMicros)"')" \
		"Memcpy HtoD (Pageable -> Device) 7 5010"
	assert_equal "$(jq -s '[.[] | select(.name == "Memset (Device)")] | length' o.jsonl)" 0
}

@test "compressed Kineto traces (gzip, zstd) link the same" {
	zcat "$SA/kineto.json.gz" >k.json
	zstd -q k.json -o k.json.zst
	et-convert --from pytorch "$SA/host_et.json.gz" --kineto k.json --to jsonl >a.jsonl
	et-convert --from pytorch "$SA/host_et.json.gz" --kineto k.json.zst --to jsonl >b.jsonl
	et-convert --from pytorch "$SA/host_et.json.gz" --kineto "$SA/kineto.json.gz" --to jsonl >c.jsonl
	cmp a.jsonl b.jsonl
	cmp a.jsonl c.jsonl
}

@test "malformed Kineto JSON: exit 3 with line and column, no output file" {
	nested_pair
	printf '{"traceEvents": [\n {"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1},\n {"ph": "X" "cat": 1}\n]}\n' >bad.json
	run et-convert --from pytorch host.json --kineto bad.json -o x.etz
	assert_failure 3
	assert_output --partial "bad.json: line 3, column 13: malformed trace event"
	[ ! -e x.etz ]
	printf '{"traceEvents": [\n {"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1}' >cut.json
	run et-convert --from pytorch host.json --kineto cut.json -o x.etz
	assert_failure 3
	assert_output --partial "cut.json: line 2, column 52: unexpected end of JSON"
}

@test "Kineto events with bad values: exit 3 naming the problem" {
	nested_pair
	printf '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": "x"}]}' >a.json
	run et-convert --from pytorch host.json --kineto a.json -o x.etz
	assert_failure 3
	assert_output --partial 'a.json: line 1, column 66: trace event without a numeric "ts"'
	printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": -2}]}' >b.json
	run et-convert --from pytorch host.json --kineto b.json -o x.etz
	assert_failure 3
	assert_output --partial '"dur" is not a non-negative number'
	printf '{"traceEvents": [1]}' >c.json
	run et-convert --from pytorch host.json --kineto c.json -o x.etz
	assert_failure 3
	assert_output --partial "c.json: line 1, column 18: a trace event that is not an object"
	printf '{"traceEvents": []} []' >d.json
	run et-convert --from pytorch host.json --kineto d.json -o x.etz
	assert_failure 3
	assert_output --partial "unexpected data after the JSON document"
}

@test "a file with no traceEvents, or with no CPU ops, is refused" {
	nested_pair
	printf '{"traceName": "traceEvents"}' >a.json
	run et-convert --from pytorch host.json --kineto a.json -o x.etz
	assert_failure 3
	assert_output --partial 'a.json: no "traceEvents" key: not a Kineto trace'
	printf '{"traceEvents": []}' >b.json
	run et-convert --from pytorch host.json --kineto b.json -o x.etz
	assert_failure 3
	assert_output --partial "b.json: no Kineto CPU ops (cpu_op or user_annotation events) to link"
	et-convert --from pytorch host.json --kineto b.json --allow-unlinked -o x.etz
}
