#!/usr/bin/env bats
# Strict configuration files (issue 15, item 7): et-sim's system JSON and
# network YAML take only the keys ASTRA-sim reads, each once, with the type
# it reads them as; anything else is one line naming the file, the line and
# the key, exit 3. Keys ASTRA-sim ignores too are warnings; a file that
# cannot be read is exit 4; InfraGraph topologies are refused.
load common

AR8="$MB/all_reduce/8npus_1MB/all_reduce"
NET="$DATA/astra-sim/network/Ring_8npus.yml"
SYS="$DATA/astra-sim/system/Ring_4chunks.json"
IG="$DATA/infragraph"

# rejects CODE MESSAGE ARGS...: et-sim ARGS exits CODE with exactly the one
# line "et-sim: MESSAGE" on standard error and nothing on standard output.
rejects() {
	local code=$1 want=$2
	shift 2
	run --separate-stderr et-sim "$@" "$AR8"
	assert_failure "$code"
	assert_equal "$stderr" "et-sim: $want"
	assert_equal "$output" ""
}

# sys NAME TEXT: a system file made of the lines of TEXT
sys() {
	printf '%s\n' "$2" >"$1"
}

@test "system file: a number given as a string is exit 3 naming the file, the line and the key" {
	sys s.json '{
  "scheduling-policy": "LIFO",
  "preferred-dataset-splits": 4,
  "endpoint-delay": "10"
}'
	rejects 3 's.json: line 4: "endpoint-delay": expected a number, got a string' --system s.json
}

@test "system file: roofline-enabled \"yes\" is exit 3; 0, 1, true and false are taken" {
	sys s.json '{"roofline-enabled": "yes"}'
	rejects 3 's.json: line 1: "roofline-enabled": expected 0, 1, true or false, got a string' \
		--system s.json
	sys s.json '{"roofline-enabled": 2}'
	rejects 3 "s.json: line 1: \"roofline-enabled\": expected 0, 1, true or false, got '2'" \
		--system s.json
	a=$(et-sim --set roofline-enabled=1 "$AR8")
	sys t.json '{"roofline-enabled": true}'
	b=$(et-sim --system t.json "$AR8")
	assert_equal "$b" "$a"
}

@test "system file: the wrong type for a list, a choice or an ignored-by-et-sim key is exit 3" {
	sys s.json '{"all-reduce-implementation": "ring"}'
	rejects 3 's.json: line 1: "all-reduce-implementation": expected an array of strings, got a string' \
		--system s.json
	sys s.json '{
  "all-gather-implementation": [
    "ring",
    3
  ]
}'
	rejects 3 's.json: line 2: "all-gather-implementation": expected an array of strings, got an array holding a number' \
		--system s.json
	sys s.json '{"scheduling-policy": ["LIFO"]}'
	rejects 3 's.json: line 1: "scheduling-policy": expected a string, got an array' --system s.json
	# keys ASTRA-sim reads without an effect on analytical times are checked too
	sys s.json '{"L": 0, "o": 0,
 "g": null}'
	rejects 3 's.json: line 2: "g": expected a number, got null' --system s.json
}

@test "system file: a value the key does not take names the line and the key once" {
	sys s.json '{
  "scheduling-policy": "EXPLICIT"
}'
	rejects 3 "s.json: line 2: \"scheduling-policy\": expected LIFO or FIFO, got 'EXPLICIT'" --system s.json
}

@test "system file: an unknown key is exit 3; one misspelt with '_' gets ASTRA-sim's spelling" {
	sys s.json '{
  "endpoint-delay": 10,
  "preferred-dataset-split": 4
}'
	rejects 3 's.json: line 3: "preferred-dataset-split": unknown key' --system s.json
	sys s.json '{"local_mem_bw": 50}'
	rejects 3 's.json: line 1: "local_mem_bw": unknown key (ASTRA-sim'"'"'s is "local-mem-bw")' \
		--system s.json
}

@test "system file: a key given twice is exit 3 naming both lines" {
	sys s.json '{
  "all-reduce-implementation": [
    "ring"
  ],
  "endpoint-delay": 10,
  "all-reduce-implementation": ["direct"]
}'
	rejects 3 's.json: line 6: "all-reduce-implementation": given twice (first on line 2)' --system s.json
}

@test "system file: models et-sim does not simulate are refused unless off" {
	sys s.json '{"model-shared-bus": 1}'
	rejects 3 's.json: line 1: "model-shared-bus": et-sim does not simulate it (only 0)' --system s.json
	sys s.json '{"replay-only": true}'
	rejects 3 's.json: line 1: "replay-only": et-sim does not simulate it (only 0)' --system s.json
	sys s.json '{"all-reduce-implementation-custom": ["examples/custom_collective/allreduce_ring"]}'
	rejects 3 's.json: line 1: "all-reduce-implementation-custom": custom collective implementations are not supported yet' \
		--system s.json
	# off, and the keys that change no time, are taken without a word
	sys s.json '{"model-shared-bus": 0, "replay-only": 0, "L": 0, "o": 0, "g": 0, "G": 0,
 "local-reduction-delay": 1, "trace-enabled": 1, "track-local-mem": 0,
 "local-mem-trace-filename": "mem_trace"}'
	run --separate-stderr et-sim --system s.json "$AR8"
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$output" "$(et-sim "$AR8")"
}

@test "system file: keys ASTRA-sim ignores too are a warning, once per run, and change nothing" {
	sys s.json '{
  "endpoint-delay": 10,
  "boost-mode": 1,
  "memory-type": "NO_MEMORY_EXPANSION"
}'
	run --separate-stderr et-sim --system s.json "$AR8"
	assert_success
	assert_equal "$stderr" 'et-sim: warning: s.json: line 3: "boost-mode": ignored by ASTRA-sim too
et-sim: warning: s.json: line 4: "memory-type": ignored by ASTRA-sim too'
	assert_equal "$output" "$(et-sim "$AR8")"
	# -q silences them; a sweep says them once, not once per point
	run --separate-stderr et-sim -q --system s.json "$AR8"
	assert_equal "$stderr" ""
	run --separate-stderr et-sim --system s.json --sweep bandwidth=50,100,200 "$AR8"
	assert_success
	assert_equal "${#stderr_lines[@]}" 2
	# boost-mode 0, in nearly every ASTRA-sim example, asks for nothing
	sys s.json '{"boost-mode": 0}'
	run --separate-stderr et-sim --system s.json "$AR8"
	assert_equal "$stderr" ""
}

@test "every ASTRA-sim configuration file of the test data loads; only the memory file warns" {
	for f in "$DATA"/astra-sim/system/*.json "$DATA"/astra-sim/tests/*.json; do
		run --separate-stderr et-sim --system "$f" "$AR8"
		assert_success
		case $f in
		*/no_memory_expansion.json)
			assert_equal "$stderr" "et-sim: warning: $f: line 2: \"memory-type\": ignored by ASTRA-sim too"
			;;
		*) assert_equal "$stderr" "" ;;
		esac
	done
	for f in "$DATA"/astra-sim/network/*.yml "$DATA"/astra-sim/tests/*.yml; do
		run --separate-stderr et-sim --network "$f" "$MB/all_reduce/$(sed -n 's/^npus_count: \[ \([0-9]*\) \]/\1/p' "$f")npus_1MB/all_reduce"
		[ "$status" -eq 0 ] || fail "$f: $stderr"
		[ -z "$stderr" ] || fail "$f: $stderr"
	done
}

@test "network file: an unknown key, one spelt with '-', a key given twice: exit 3 with line and column" {
	printf 'topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\nlinks: [ 1 ]\n' >n.yml
	rejects 3 'n.yml: line 5, column 1: "links": unknown key' --network n.yml
	printf 'topology: [ Ring ]\nnpus-count: [ 8 ]\n' >n.yml
	rejects 3 'n.yml: line 2, column 1: "npus-count": unknown key (ASTRA-sim'"'"'s is "npus_count")' \
		--network n.yml
	printf 'topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\nbandwidth: [ 100 ]\n' >n.yml
	rejects 3 'n.yml: line 5, column 1: "bandwidth": given twice (first on line 3)' --network n.yml
}

@test "network file: a value of the wrong type is exit 3 naming the key" {
	printf 'topology: [ Ring ]\nnpus_count:\n  a: 8\n' >n.yml
	rejects 3 'n.yml: line 3, column 3: "npus_count": expected a list of values, got a mapping' \
		--network n.yml
	printf 'topology: [ Ring ]\nnpus_count: [ [ 8 ] ]\n' >n.yml
	rejects 3 'n.yml: line 2, column 15: "npus_count": expected a value in the list, got a nested list' \
		--network n.yml
	printf 'topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ fast ]\nlatency: [ 500 ]\n' >n.yml
	rejects 3 "n.yml: line 3, column 12: bandwidth: 'fast' is not a number" --network n.yml
	printf 'topology: [ Ring ]\nnpus_count: [ 0x8 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' >n.yml
	rejects 3 "n.yml: line 2, column 13: npus_count: '0x8' is not a number" --network n.yml
}

@test "a missing configuration file is exit 4, a directory says it is one (exit 4)" {
	rejects 4 "missing.json: cannot open: No such file or directory" --system missing.json
	rejects 4 "missing.yml: cannot open: No such file or directory" --network missing.yml
	mkdir d
	rejects 4 "d: is a directory" --system d
	rejects 4 "d: is a directory" --network d
	# the same shared reader serves et-validate's --comm-groups
	run --separate-stderr et-validate --comm-groups d "$AR8"
	assert_failure 4
	assert_equal "$stderr" "et-validate: d: is a directory"
}

@test "an InfraGraph instance as the network file: read as a graph; the pre-2.0 form and no xpu are exit 3" {
	rejects 2 "$IG/clos-fat-tree-2tier.yaml: an InfraGraph network needs the congestion-aware backend (--backend aware): the unaware model has no links to route on" \
		--network "$IG/clos-fat-tree-2tier.yaml"
	rejects 3 "$IG/dgxa100.legacy.yaml: line 14: infrastructure.devices[0].components[0].type: the pre-2.0 InfraGraph form (components with \"type\"): et-sim reads schema 2.x; convert the file with infragraph 2.x (components with \"choice\", edges with ep1/ep2/scheme)" \
		--backend aware --network "$IG/dgxa100.legacy.yaml"
	# InfraGraph's JSON form too
	printf '{"name": "f", "devices": [{"name": "d", "components": []}],\n "instances": [], "edges": []}\n' >ig.json
	rejects 3 "ig.json: no NPU: no instance holds a component with choice xpu" --backend aware --network ig.json
}

@test "--set and --sweep check types as the files do: a wrong-typed value is exit 2" {
	rejects 2 "--set roofline-enabled=yes: roofline-enabled: expected 0, 1, true or false, got 'yes'" \
		--set roofline-enabled=yes
	rejects 2 "--set endpoint-delay=0x10: endpoint-delay: '0x10' is not a valid value" \
		--set endpoint-delay=0x10
	rejects 2 "--set latency=inf: latency: 'inf' is not a number" --set latency=inf
	rejects 2 "--sweep roofline-enabled=yes: roofline-enabled: expected 0, 1, true or false, got 'yes'" \
		--sweep roofline-enabled=0,yes
	rejects 2 "--sweep endpoint-delay=ten: endpoint-delay: 'ten' is not a valid value" \
		--sweep endpoint-delay=10,ten
	# a --set fixes what a file set, in order, with the same types
	sys s.json '{"endpoint-delay": 0}'
	assert_equal "$(et-sim --system s.json --set endpoint-delay=10 "$AR8")" "$(et-sim "$AR8")"
}
