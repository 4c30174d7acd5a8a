#!/usr/bin/env bats
# Hostile and broken inputs (issue 15), made here from small real streams:
# every tool answers with one line naming the input, exit 3, and no output.
load common
bats_require_minimum_version 1.5.0

TOOLS=(et-convert et-validate et-sim et-viz "et-synth transform")

# patch FILE OFFSET HEX...: overwrite bytes of FILE in place
patch_bytes() {
	local f=$1 off=$2
	shift 2
	printf "$(printf '\\x%s' "$@")" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

@test "a stream header whose world is absurd, or whose rank is not below its world: exit 3 in every tool" {
	et-synth coll --type all_reduce --size 1M --world 4 -o w.etz
	# the first section header: rank at byte 20, world size at byte 24
	cp w.etz huge.etz && patch_bytes huge.etz 24 ff ff ff ff
	cp w.etz rank.etz && patch_bytes rank.etz 20 09 00 00 00
	for t in "${TOOLS[@]}"; do
		run --separate-stderr $t huge.etz -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "${t%% *}: huge.etz: rank 0: world size 4294967295, more than the 1048576 ranks etkit reads" ] ||
			fail "$t: $stderr"
		[ ! -e out ]
		run --separate-stderr $t rank.etz -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "${t%% *}: rank.etz: rank 9 is not a rank of its world of 4" ] ||
			fail "$t: $stderr"
		[ ! -e out ]
	done
	# the same for a JSONL rank line
	et-convert --to jsonl w.etz | sed 's/"rank":3,"world_size":4/"rank":3,"world_size":2/' >w.jsonl
	run --separate-stderr et-validate w.jsonl
	assert_failure 3
	[[ ${stderr_lines[0]} == *"is not a rank of its world of 2" ]]
	# --world and --set-rank are bounded by the same limit
	run -2 et-validate --world 1048577 w.etz
	run -2 et-convert --set-rank 1048576 w.etz
}

@test "empty input is exit 3 and a directory says it is one, in every tool" {
	: >empty.etz
	mkdir adir
	for t in "${TOOLS[@]}"; do
		run --separate-stderr $t empty.etz -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "${t%% *}: empty.etz: byte 0: empty input: expected a stream, an ET or JSON" ] ||
			fail "$t: $stderr"
		run --separate-stderr $t <empty.etz
		assert_failure 3
		run --separate-stderr $t adir
		assert_failure 4
		[[ ${stderr_lines[0]} == "${t%% *}: adir: is a directory"* ]] || fail "$t: $stderr"
		[ ! -e out ]
	done
}

@test "one host trace of a bigger job: its rank, and a world nobody stated (0), not rank 3 of 1" {
	et-convert "$DATA/pytorch/dlrm-8rank/host_et.3.json.gz" -o r3.etz
	run et-convert --to jsonl r3.etz
	assert_line --index 0 --partial '{"rank":3,"world_size":0,'
	run et-validate r3.etz
	assert_success
	# all eight: the world is eight
	et-convert "$DATA"/pytorch/dlrm-8rank/host_et.[0-7].json.gz -o all.etz
	assert_equal "$(et-convert --to jsonl all.etz | jq -c 'select(.world_size != null) | .world_size' | sort -u)" 8
}

@test "another tool's JSON is named, with the command that reads it, in every tool" {
	printf '{"schema": "1.0.1", "pid": 1, "nodes": []}' >host.json
	printf '{"workload_graph": {"nodes": []}}' >feeder.json
	cp "$DATA/pytorch/dlrm-8rank/kineto.0.json.gz" kineto.json.gz
	for t in et-validate et-sim et-viz "et-synth transform"; do
		run --separate-stderr $t host.json
		assert_failure 3
		[[ ${stderr_lines[0]} == "${t%% *}: host.json: line 1, column 1: not etkit's JSON but a PyTorch host execution trace: convert it first, et-convert --from pytorch FILE"* ]] ||
			fail "$t: $stderr"
		# pretty-printed and gzip'ed, as PyTorch writes it
		run --separate-stderr $t kineto.json.gz
		assert_failure 3
		[[ ${stderr_lines[0]} == *"not etkit's JSON but a Kineto (Chrome trace-event) trace: it is read with its host trace, et-convert --from pytorch HOST.json --kineto FILE" ]] ||
			fail "$t: $stderr"
		run --separate-stderr $t feeder.json
		assert_failure 3
		[[ ${stderr_lines[0]} == *"not etkit's JSON but Chakra's {\"workload_graph\": ...} JSON, which no etkit tool reads"* ]] ||
			fail "$t: $stderr"
	done
	# our own JSONL, pretty or gzip'ed, still reads
	et-synth coll --type all_reduce --size 1M --world 2 --to jsonl | gzip >ours.jsonl.gz
	run et-validate ours.jsonl.gz
	assert_success
}

@test "a rank selection that matches nothing is exit 3 in every tool that selects" {
	et-synth coll --type all_reduce --size 1M --world 4 -o w.etz
	for t in et-convert et-validate et-viz "et-synth transform"; do
		run --separate-stderr $t --ranks 9 w.etz -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "${t%% *}: --ranks matches none of the input's ranks" ] || fail "$t: $stderr"
		[ ! -e out ]
	done
}

@test "per-rank sets: a gap names the missing ranks, and --world N means exactly N ranks" {
	et-synth coll --type all_reduce --size 1M --world 8 --split ar
	rm ar.3.et ar.5.et
	for t in et-convert et-validate et-sim et-viz; do
		run --separate-stderr $t ar
		assert_failure 3
		[ "${stderr_lines[0]}" = "$t: ar: per-rank set with a gap: files up to ar.7.et exist but not ranks 3, 5" ] ||
			fail "$t: $stderr"
	done
	et-synth coll --type all_reduce --size 1M --world 8 --split b
	run --separate-stderr et-validate --world 7 b
	assert_failure 3
	[ "${stderr_lines[0]}" = "et-validate: b: b.7.et exists: the set has more files than --world 7" ]
	run et-validate --world 8 b
	assert_success
	# a stream: its headers and --world must agree
	et-synth coll --type all_reduce --size 1M --world 8 -o s.etz
	for t in et-convert et-validate et-sim et-viz; do
		run --separate-stderr $t --world 2 s.etz -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "$t: s.etz: rank 0: its header says world 8, --world says 2" ] ||
			fail "$t: $stderr"
		[ ! -e out ]
	done
}

@test "a PyTorch host trace converts from stdin, -, /dev/stdin and <(...) exactly as from a file" {
	H=$DATA/pytorch/simple-add-a100
	et-convert "$H/host_et.json.gz" -k "$H/kineto.json.gz" -o file.etz
	zcat "$H/host_et.json.gz" >host.json
	et-convert -f pytorch -k "$H/kineto.json.gz" -o a.etz <host.json
	et-convert -f pytorch - -k "$H/kineto.json.gz" -o b.etz <"$H/host_et.json.gz"
	et-convert -f pytorch /dev/stdin -k <(zcat "$H/kineto.json.gz") -o c.etz <host.json
	et-convert -f pytorch <(cat host.json) -k "$H/kineto.json.gz" -o d.etz
	for f in a b c d; do cmp file.etz $f.etz; done
	printf '{"schema": "1.0.1", "pid": 1, "nodes": []}' | et-convert -f pytorch - --to jsonl >tiny.jsonl
	assert_equal "$(jq -c '.rank' tiny.jsonl)" 0
}

@test "et-sim --sweep: a key swept twice or a value --set refuses is a usage error, before any point runs" {
	et-synth coll --type all_reduce --size 1M --world 4 -o w.etz
	run --separate-stderr et-sim w.etz --sweep bandwidth=1,2 --sweep bandwidth=3
	assert_failure 2
	[ "${stderr_lines[0]}" = "et-sim: --sweep: bandwidth is swept twice" ]
	run --separate-stderr et-sim w.etz --sweep bogus=1,2 -o out.csv
	assert_failure 2
	[ "${stderr_lines[0]}" = "et-sim: --sweep bogus=1: unknown key 'bogus'" ]
	[ ! -e out.csv ]
	run --separate-stderr et-sim w.etz --sweep bandwidth=25,x
	assert_failure 2
	[ "${stderr_lines[0]}" = "et-sim: --sweep bandwidth=x: bandwidth: 'x' is not a number" ]
	run et-sim w.etz --sweep bandwidth=25,50
	assert_success
	assert_equal "${#lines[@]}" 3
}

@test "et-viz: an -o extension it cannot write is a usage error; extensions in any case" {
	et-synth coll --type all_reduce --size 1M --world 2 -o w.etz
	run --separate-stderr et-viz w.etz -o x.jpg
	assert_failure 2
	[ "${stderr_lines[0]}" = "et-viz: -o x.jpg: et-viz writes .dot (.gv), .svg, .png, .pdf or .json; give --format FMT to write another name" ]
	[ ! -e x.jpg ]
	et-viz w.etz -o x.SVG
	assert_equal "$(head -c 5 x.SVG)" "<?xml"
	et-viz w.etz -F dot -o x.jpg
	assert_equal "$(head -c 7 x.jpg)" "digraph"
}

@test "et-sim: chunk counts are bounded (preferred-dataset-splits at most 4096), with the bound in the message" {
	et-synth coll --type all_reduce --size 1M --world 8 -o w.etz
	run --separate-stderr et-sim w.etz --set preferred-dataset-splits=99999999
	assert_failure 2
	[ "${stderr_lines[0]}" = "et-sim: configuration: preferred-dataset-splits 99999999: at most 4096 chunks per collective" ]
	run et-sim w.etz --set preferred-dataset-splits=4096
	assert_success
}

# Memory is bounded by ulimit where the tools run natively: under ASan or
# valgrind the address space is theirs, so these run without the bound.
bounded() {
	if [ -n "${ASAN_OPTIONS:-}${ETKIT_VALGRIND:-}" ]; then
		"$@"
	else
		(ulimit -v 1000000 && "$@")
	fi
}

@test "a 700-byte stream of 20 M empty nodes is refused at the per-rank node limit in every tool, within 1 GB" {
	"$REPO/tests/make-hostile.sh" . empty-nodes.etz zeros.et
	[ "$(stat -c %s empty-nodes.etz)" -lt 1000 ]
	for t in et-convert et-validate et-sim "et-viz --max-nodes 100000000" "et-synth transform"; do
		run --separate-stderr bounded $t empty-nodes.etz -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "${t%% *}: empty-nodes.etz: rank 0: byte 4194312: more than 4194304 nodes in one rank (the limit: --max-rank-nodes N raises it)" ] ||
			fail "$t: $stderr"
		[ ${#stderr_lines[@]} -eq 1 ] && [ ! -e out ]
		# 2 GiB of zero bytes: a raw ET of empty messages, refused as soon
		run --separate-stderr bounded $t zeros.et -o out
		assert_failure 3
		[ "${stderr_lines[0]}" = "${t%% *}: zeros.et: rank 0: byte 4194305: more than 4194304 nodes in one rank (the limit: --max-rank-nodes N raises it)" ] ||
			fail "$t: $stderr"
		[ ! -e out ]
	done
}

@test "the per-rank limits: exactly at the limit reads, one more is refused, and both limits can be set" {
	"$REPO/tests/make-hostile.sh" . empty-nodes-N.et
	run -0 et-convert empty-nodes-4194304.et --to jsonl -o n.jsonl
	[ "$(wc -l <n.jsonl)" -eq 4194305 ]
	run -3 --separate-stderr et-convert empty-nodes-4194305.et -o out
	[ "$stderr" = "et-convert: empty-nodes-4194305.et: rank 0: byte 4194312: more than 4194304 nodes in one rank (the limit: --max-rank-nodes N raises it)" ]
	run -0 et-convert --max-rank-nodes 5M empty-nodes-4194305.et -o out
	rm out
	# a real ET: 3,664 nodes in 2,978,371 bytes, its last node at byte 2,958,486
	pt="$REPO/samples/chakra.0.et.gz"
	for t in et-convert et-validate et-sim "et-viz --max-nodes 5000" "et-synth transform"; do
		run -3 --separate-stderr $t --max-rank-nodes 3663 "$pt" -o out
		[ "$stderr" = "${t%% *}: $pt: rank 0: byte 2958486: more than 3663 nodes in one rank (the limit: --max-rank-nodes N raises it)" ] ||
			fail "$t: $stderr"
		run -3 --separate-stderr $t --max-rank-bytes 2978370 "$pt" -o out
		[ "$stderr" = "${t%% *}: $pt: rank 0: byte 2958486: more than 2978370 bytes in one rank (the limit: --max-rank-bytes SIZE raises it)" ] ||
			fail "$t: $stderr"
		[ ! -e out ]
		# at the limits it reads (et-validate finds the sample's defects, et-sim stops at one)
		run --separate-stderr $t --max-rank-bytes 2978371 --max-rank-nodes 3664 "$pt" -o out
		[[ $stderr != *"in one rank"* ]] || fail "$t: $stderr"
		rm -f out
	done
	# the same limits on our JSONL
	et-convert --to jsonl "$pt" -o pt.jsonl
	run -3 --separate-stderr et-validate --max-rank-nodes 2 pt.jsonl
	[[ $stderr == "et-validate: pt.jsonl: rank 0: "*": more than 2 nodes in one rank"* ]] || fail "$stderr"
}

@test "et-viz checks --max-nodes as nodes arrive: a huge rank is refused after 2001 nodes, not after reading it all" {
	"$REPO/tests/make-hostile.sh" . empty-nodes.etz
	run -2 --separate-stderr bounded et-viz --max-rank-nodes 100M empty-nodes.etz -o out.svg
	[[ $stderr == "et-viz: at least 2001 nodes to draw, more than --max-nodes 2000: a picture that big is unreadable;"* ]] ||
		fail "$stderr"
	[ ! -e out.svg ]
	# --match and --ids count only the nodes they select: 20 M unnamed nodes, none named x
	run -2 --separate-stderr bounded et-viz --max-rank-nodes 100M --ids 0-0 empty-nodes.etz -o out.svg
	[[ $stderr == "et-viz: at least 2001 nodes to draw"* ]] # every node has id 0
	# a real ET of 3,664 nodes: refused at node 101; a selection that needs
	# the whole graph (--around) is counted after the load, exactly
	pt="$REPO/samples/chakra.0.et.gz"
	run -2 --separate-stderr et-viz --max-nodes 100 "$pt" -o out.dot
	[[ $stderr == "et-viz: at least 101 nodes to draw, more than --max-nodes 100:"* ]] || fail "$stderr"
	run -2 --separate-stderr et-viz --max-nodes 100 --around 216 --depth 1000 --hub 0 "$pt" -o out.dot
	[[ $stderr =~ ^et-viz:\ [0-9]+\ nodes\ to\ draw,\ more\ than\ --max-nodes\ 100: ]] || fail "$stderr"
	run -0 et-viz --max-nodes 3664 "$pt" -o out.dot
	[ ! -e out.svg ]
}

@test "out of memory is one line with the tool's name and exit 4, never an abort" {
	[ -z "${ASAN_OPTIONS:-}${ETKIT_VALGRIND:-}" ] || skip "address space limits do not apply under ASan or valgrind"
	"$REPO/tests/make-hostile.sh" . empty-nodes.etz
	for t in et-validate et-sim "et-viz --max-nodes 100000000"; do
		run --separate-stderr bash -c "ulimit -v 400000 && exec $t --max-rank-nodes 20M empty-nodes.etz -o out"
		assert_failure 4
		[[ ${stderr_lines[0]} =~ ^${t%% *}:\ out\ of\ memory\ \(asked\ for\ [0-9]+\ bytes\)$ ]] || fail "$t: $stderr"
		[ ${#stderr_lines[@]} -eq 1 ] && [ ! -e out ]
	done
}

# ---- small inputs that used to cost gigabytes or minutes (issue 27) ----

# measured CMD...: runs CMD (under a 10 s timeout) like `run --separate-stderr`;
# $rss is its peak resident size in KB (/usr/bin/time), checked below 200 MB
# except under ASan or valgrind, whose own memory it would count.
measured() {
	run --separate-stderr /usr/bin/time -o rss.txt -f %M timeout 10 "$@"
	rss=$(tail -1 rss.txt)
	if [ -z "${ASAN_OPTIONS:-}${ETKIT_VALGRIND:-}" ]; then
		[ "$rss" -lt 200000 ] || fail "$*: peak RSS $rss KB"
	fi
}

# hlo_allreduce N GROUPS: an HLO module of N partitions, one all-reduce over
# the iota replica groups GROUPS ("[1,N]<=[N]": every device)
hlo_allreduce() {
	printf 'HloModule m, num_partitions=%s\n\nadd {\n  a = f32[] parameter(0)\n' "$1"
	printf '  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n\nENTRY e {\n'
	printf '  p = f32[1024] parameter(0)\n  ROOT r = f32[1024] all-reduce(p), channel_id=1, '
	printf 'replica_groups=%s, use_global_device_ids=true, to_apply=add\n}\n' "$2"
}

@test "et-convert: an HLO all-reduce over all 131,072 (and 262,144) devices converts in bounded memory, groups not squared" {
	for n in 131072 262144; do
		hlo_allreduce $n "[1,$n]<=[$n]" >ar$n.hlo
		[ "$(stat -c %s ar$n.hlo)" -lt 500 ]
		measured et-convert ar$n.hlo -o ar$n.etz
		assert_success
		[ -z "$stderr" ] || fail "$stderr"
		# every rank's one node: the all-reduce over the group of every rank
		run -0 bash -c "et-convert --ranks 0,$((n - 1)) --to jsonl ar$n.etz | jq -c '[.rank, .world_size, .name, .type, (.attr // [] | map(select(.name == \"pg_name\")) | .[0].stringVal)]'"
		assert_output "[0,$n,\"m\",null,null]
[0,null,\"r\",\"COMM_COLL_NODE\",\"0\"]
[$((n - 1)),$n,\"m\",null,null]
[$((n - 1)),null,\"r\",\"COMM_COLL_NODE\",\"0\"]"
	done
	# two groups of half the devices are listed, in memory linear in the devices
	hlo_allreduce 131072 "[2,65536]<=[131072]" >half.hlo
	measured et-convert half.hlo -o half.etz
	assert_success
	assert_equal "$(et-convert --ranks 65535,65536 --to jsonl half.etz | jq -r 'select(.type) | [.rank, (.attr[] | select(.name == "pg_name") | .stringVal)] | @tsv')" "$(printf '65535\t1\n65536\t2')"
}

# shlo_loops N TRIPS: N nested counted loops of TRIPS trips each (StableHLO)
shlo_loops() {
	local n=$1 t=$2 k r
	printf 'module @nest {\n  func.func public @main(%%arg0: tensor<8xf32>) -> tensor<8xf32> {\n'
	printf '    %%v0 = stablehlo.negate %%arg0 : tensor<8xf32>\n'
	for ((k = 1; k <= n; k++)); do
		printf '    %%c%d = stablehlo.constant dense<0> : tensor<i64>\n' $k
		printf '    %%w%d:2 = stablehlo.while(%%i%d = %%c%d, %%v%d = %%v%d) : tensor<i64>, tensor<8xf32>\n' $k $k $k $k $((k - 1))
		printf '     cond {\n      %%b%d = stablehlo.constant dense<%s> : tensor<i64>\n' $k "$t"
		printf '      %%t%d = stablehlo.compare  LT, %%i%d, %%b%d,  SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>\n' $k $k $k
		printf '      stablehlo.return %%t%d : tensor<i1>\n    } do {\n' $k
	done
	printf '    %%m = stablehlo.multiply %%v%d, %%v%d : tensor<8xf32>\n' $n $n
	for ((k = n; k >= 1; k--)); do
		r=%m
		((k < n)) && r="%w$((k + 1))#1"
		printf '      %%s%d = stablehlo.constant dense<1> : tensor<i64>\n' $k
		printf '      %%n%d = stablehlo.add %%i%d, %%s%d : tensor<i64>\n' $k $k $k
		printf '      stablehlo.return %%n%d, %s : tensor<i64>, tensor<8xf32>\n    }\n' $k "$r"
	done
	printf '    return %%w1#1 : tensor<8xf32>\n  }\n}\n'
}

# shlo_calls N: @f1 .. @fN, each calling the next twice (StableHLO)
shlo_calls() {
	local n=$1 k
	printf 'module @fan {\n  func.func public @main(%%a: tensor<8xf32>) -> tensor<8xf32> {\n'
	printf '    %%r = func.call @f1(%%a) : (tensor<8xf32>) -> tensor<8xf32>\n    return %%r : tensor<8xf32>\n  }\n'
	for ((k = 1; k < n; k++)); do
		printf '  func.func private @f%d(%%a: tensor<8xf32>) -> tensor<8xf32> {\n' $k
		printf '    %%x = func.call @f%d(%%a) : (tensor<8xf32>) -> tensor<8xf32>\n' $((k + 1))
		printf '    %%y = func.call @f%d(%%x) : (tensor<8xf32>) -> tensor<8xf32>\n' $((k + 1))
		printf '    return %%y : tensor<8xf32>\n  }\n'
	done
	printf '  func.func private @f%d(%%a: tensor<8xf32>) -> tensor<8xf32> {\n' $n
	printf '    %%x = stablehlo.multiply %%a, %%a : tensor<8xf32>\n    return %%x : tensor<8xf32>\n  }\n}\n'
}

# hlo_loops N TRIPS: N nested while loops of known trip count TRIPS (HLO)
hlo_loops() {
	local n=$1 t=$2 k
	printf 'HloModule nest\n\n'
	for ((k = 1; k <= n; k++)); do
		printf 'cond%d {\n  p = (s32[], f32[8]) parameter(0)\n  ROOT t = pred[] constant(true)\n}\n\n' $k
		printf 'body%d {\n  p = (s32[], f32[8]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n' $k
		printf '  v = f32[8] get-tuple-element(p), index=1\n'
		if ((k < n)); then
			printf '  w = (s32[], f32[8]) while(p), condition=cond%d, body=body%d, backend_config={"known_trip_count":{"n":"%s"}}\n' $((k + 1)) $((k + 1)) "$t"
			printf '  m = f32[8] get-tuple-element(w), index=1\n'
		else
			printf '  m0 = f32[8] multiply(v, v)\n  m = f32[8] add(m0, v)\n'
		fi
		printf '  ROOT r = (s32[], f32[8]) tuple(i, m)\n}\n\n'
	done
	printf 'ENTRY e {\n  a = f32[8] parameter(0)\n  c = s32[] constant(0)\n  t = (s32[], f32[8]) tuple(c, a)\n'
	printf '  w = (s32[], f32[8]) while(t), condition=cond1, body=body1, backend_config={"known_trip_count":{"n":"%s"}}\n' "$t"
	printf '  ROOT g = f32[8] get-tuple-element(w), index=1\n}\n'
}

# hlo_calls N: computations f1 .. fN, each calling the next twice (HLO)
hlo_calls() {
	local n=$1 k
	printf 'HloModule fan\n\n'
	for ((k = n; k >= 1; k--)); do
		printf 'f%d {\n  a = f32[8] parameter(0)\n' $k
		if ((k < n)); then
			printf '  x = f32[8] call(a), to_apply=f%d\n  ROOT y = f32[8] call(x), to_apply=f%d\n}\n\n' $((k + 1)) $((k + 1))
		else
			printf '  ROOT x = f32[8] multiply(a, a)\n}\n\n'
		fi
	done
	printf 'ENTRY e {\n  a = f32[8] parameter(0)\n  ROOT r = f32[8] call(a), to_apply=f1\n}\n'
}

@test "et-convert: nested loops and calls that unroll past 16 M ops are refused from an estimate, in the time and memory of their text" {
	# the generators are right: 3 x 3 loops and 3 levels of calls unroll in full
	shlo_loops 2 3 >l.mlir && hlo_loops 2 3 >l.hlo && shlo_calls 3 >c.mlir && hlo_calls 3 >c.hlo
	for f in l.mlir l.hlo; do
		assert_equal "$(et-convert --to jsonl $f | grep -c multiply)" 9
	done
	for f in c.mlir c.hlo; do
		assert_equal "$(et-convert --to jsonl $f | grep -c multiply)" 4
	done
	# 24 nested 2-trip loops (12 KB), 40 functions calling the next twice (9 KB), and twice that
	for n in 24 48; do
		shlo_loops $n 2 >loops$n.mlir
		hlo_loops $n 2 >loops$n.hlo
	done
	for n in 40 80; do
		shlo_calls $n >calls$n.mlir
		hlo_calls $n >calls$n.hlo
	done
	for f in loops24.mlir loops48.mlir calls40.mlir calls80.mlir loops24.hlo loops48.hlo calls40.hlo calls80.hlo; do
		measured et-convert $f -o out.etz
		assert_failure 3
		[[ ${stderr_lines[0]} =~ ^et-convert:\ $f:\ line\ [0-9]+,\ column\ [0-9]+:\ unrolling\ loops\ and\ inlining\ calls\ would\ make\ about\ [0-9]+\ ops.*more\ than\ 16777216 ]] ||
			fail "$f: $stderr"
		[ ${#stderr_lines[@]} -eq 1 ] && [ ! -e out.etz ]
	done
}

@test "et-convert: a StableHLO loop of 10^9 (and 10^10) trips is unrolled the documented default 100,000 times" {
	for t in 1000000000 10000000000; do
		shlo_loops 1 $t >trips.mlir
		measured et-convert trips.mlir --to jsonl -o trips.jsonl
		assert_success
		assert_equal "$stderr" "et-convert: warning: trips.mlir: line 5, column 5: while loop of $t iterations unrolled 100000 times (the cap)"
		assert_equal "$(grep -c '"stablehlo.multiply"' trips.jsonl)" 100000
	done
	# an explicit --max-unroll still wins
	run -0 --separate-stderr et-convert --max-unroll 7 trips.mlir --to jsonl -o trips.jsonl
	assert_equal "$(grep -c '"stablehlo.multiply"' trips.jsonl)" 7
}

# brackets N TEXT: TEXT N times
brackets() {
	yes "$2" | head -n "$1" | tr -d '\n'
}

@test "et-sim --network: YAML or JSON nested past 32 levels is refused as it is parsed, not after quadratic time" {
	et-synth coll --type all_reduce --size 1M --world 4 -o w.etz
	# 400 KB and 4 MB of nested brackets, JSON and YAML, flow maps too
	for d in 200000 2000000; do
		{ printf '{"a": ' && brackets $d '[' && brackets $d ']' && printf '}\n'; } >deep$d.json
		{ printf 'topology: ' && brackets $d '[' && brackets $d ']' && echo; } >deep$d.yaml
		{ printf 'devices: ' && brackets $((d / 4)) '{a: ' && printf 1 && brackets $((d / 4)) '}' && echo; } >map$d.yaml
		for f in deep$d.json deep$d.yaml map$d.yaml; do
			measured et-sim --network $f w.etz
			assert_failure 3
			[[ ${stderr_lines[0]} =~ ^et-sim:\ $f:\ line\ 1,\ column\ [0-9]+:\ nested\ deeper\ than\ 32\ levels$ ]] ||
				fail "$f: $stderr"
		done
	done
	# the first refused bracket is the 33rd container: the mapping and 32 lists
	run -3 --separate-stderr et-sim --network deep200000.json w.etz
	assert_equal "$stderr" "et-sim: deep200000.json: line 1, column 38: nested deeper than 32 levels"
	# 32 levels are read (and then refused for what they hold, not for depth)
	{ printf 'topology: ' && brackets 31 '[' && brackets 31 ']' && echo; } >ok.yaml
	run -3 --separate-stderr et-sim --network ok.yaml w.etz
	[[ $stderr != *"nested deeper"* ]] || fail "$stderr"
}
