#!/usr/bin/env bats
# ASTRA-sim 1.0 text workloads (layer tables) to Chakra ETs, as Chakra's
# reference text converter writes them (et-convert --from astra-text).
#
# Each check runs twice: through the unit-test driver ($ETKIT_UNIT/test_astxt
# --convert, the module alone), and through the command line
# `et-convert --from astra-text FILE --world N --passes P [--compat chakra]`,
# skipped until et-convert's main reads this format. Outputs are read back
# with et-convert --to jsonl / --to et and counted with jq, independently of
# the module.
load common
bats_require_minimum_version 1.5.0

TXT="$DATA/astra-text"
CORPUS="Resnet50_DataParallel:430 MLP_ModelParallel:58 MLP_HybridParallel_Data_Model:70
DLRM_HybridParallel:64 microAllReduce:2"

# conv_driver|conv_cli FILE WORLD PASSES default|chakra OUT
conv_driver() {
	"${ETKIT_UNIT:?set by make test}/test_astxt" --convert "$@"
}
conv_cli() {
	local compat=()
	[ "$4" = chakra ] && compat=(--compat chakra)
	et-convert --from astra-text "$1" --world "$2" --passes "$3" "${compat[@]}" -o "$5"
}
need_cli() {
	et-convert --help 2>&1 | grep -q 'astra-text' ||
		skip "et-convert's command line does not read astra-text yet"
}

# Nodes per rank, by rank, of a stream: [n0,n1,...].
nodes_per_rank() {
	et-convert --to jsonl "$1" | jq -s -c 'group_by(.rank) | map(map(select(has("metadata") | not)) | length)'
}

check_counts() {
	for pair in $CORPUS; do
		f=${pair%%:*} n=${pair##*:}
		for mode in default chakra; do
			"$1" "$TXT/$f.txt" 4 2 $mode out.etz
			assert_equal "$f $mode $(nodes_per_rank out.etz)" "$f $mode [$n,$n,$n,$n]"
		done
	done
}

@test "astra-text: the reference's node counts, 4 NPUs, 2 passes (driver)" {
	check_counts conv_driver
}

@test "astra-text: the reference's node counts, 4 NPUs, 2 passes (et-convert)" {
	need_cli
	check_counts conv_cli
}

# Every rank file of the reference converter's output, byte for byte.
check_reference() {
	for pair in $CORPUS; do
		f=${pair%%:*}
		"$1" "$TXT/$f.txt" 4 2 chakra out.etz
		et-convert -q --to et --split y out.etz
		for r in 0 1 2 3; do
			zstd -dcq "$TXT/reference/$f.$r.et.zst" | cmp - "y.$r.et"
		done
		rm -f y.*.et
	done
}

@test "astra-text: --compat chakra writes the reference converter's files byte for byte (driver)" {
	check_reference conv_driver
}

@test "astra-text: --compat chakra writes the reference converter's files byte for byte (et-convert)" {
	need_cli
	check_reference conv_cli
}

# Default: ids 0.. in every rank and identical ranks; chakra: rank r's ids
# start at r x nodes, and every dependency stays inside its rank.
check_numbering() {
	"$1" "$TXT/Resnet50_DataParallel.txt" 4 2 default d.etz
	et-convert --to jsonl d.etz >d.jsonl
	assert_equal "$(jq -s -c 'map(select(has("metadata") | not)) | group_by(.rank) |
		map([(map(.id // 0) | min, max), (map((.dataDeps // []) | max // 0) | max)])' d.jsonl)" \
		'[[0,429,428],[0,429,428],[0,429,428],[0,429,428]]'
	"$1" "$TXT/Resnet50_DataParallel.txt" 4 2 chakra c.etz
	et-convert --to jsonl c.etz >c.jsonl
	assert_equal "$(jq -s -c 'map(select(has("metadata") | not)) | group_by(.rank) |
		map([(map(.id // 0) | min, max)])' c.jsonl)" '[[0,429],[430,859],[860,1289],[1290,1719]]'
	assert_equal "$(jq -s -c '[.[] | select(.dataDeps) | . as $n |
		select(any($n.dataDeps[]; . >= $n.id or . < $n.rank * 430))] | length' c.jsonl)" 0
	# the same graph: names and types rank by rank
	assert_equal "$(jq -c 'select(.rank == 3 and .type) | [.name, .type]' c.jsonl | md5sum)" \
		"$(jq -c 'select(.rank == 0 and .type) | [.name, .type]' d.jsonl | md5sum)"
}

@test "astra-text: numbering by rank (default) and across ranks (--compat chakra) (driver)" {
	check_numbering conv_driver
}

@test "astra-text: numbering by rank (default) and across ranks (--compat chakra) (et-convert)" {
	need_cli
	check_numbering conv_cli
}

# HYBRID_DLRM, last bottom layer 2, written out by hand from the rules
# (doc/compiler-ir.md): "ID NAME DEPS", 2 passes.
check_dlrm() {
	printf 'HYBRID_DLRM\t2\t\t\r\n4\t\t\r\n%s\r\n%s\r\n%s\r\n%s' \
		'e -1 11 ALLTOALL 100 12 ALLTOALL 200 13 NONE 0 1' \
		'm -1 21 NONE 0 22 NONE 0 23 ALLREDUCE 300 1' \
		'n -1 31 NONE 0 32 NONE 0 33 NONE 0 1' \
		't -1 41 NONE 0 42 NONE 0 43 ALLREDUCE 400 1' >dlrm.txt
	"$1" dlrm.txt 1 2 default o.etz
	et-convert --to jsonl o.etz >o.jsonl
	run -0 jq -r 'select(has("metadata") | not) |
		[.id // 0, .name] + (.dataDeps // []) | map(tostring) | join(" ")' o.jsonl
	assert_output "0 COMP_NODE_e_FWD
1 COMM_COLL_NODE_e_ALLTOALL 0
2 COMP_NODE_m_FWD 0
3 COMP_NODE_n_FWD 2 1
4 COMP_NODE_t_FWD 3
5 COMP_NODE_t_BWD_WG 4
6 COMM_COLL_NODE_t_ALLREDUCE 5
7 COMP_NODE_t_BWD_IG 5
8 COMM_COLL_NODE_e_ALLTOALL 7
9 COMP_NODE_n_BWD_WG 7
10 COMP_NODE_n_BWD_IG 9
11 COMP_NODE_m_BWD_WG 10
12 COMM_COLL_NODE_m_ALLREDUCE 11
13 COMP_NODE_m_BWD_IG 11
14 COMP_NODE_e_BWD_WG 13 8
15 COMP_NODE_e_FWD 14
16 COMM_COLL_NODE_e_ALLTOALL 15
17 COMP_NODE_m_FWD 12 15
18 COMP_NODE_n_FWD 9 17 16
19 COMP_NODE_t_FWD 6 18
20 COMP_NODE_t_BWD_WG 19
21 COMM_COLL_NODE_t_ALLREDUCE 20
22 COMP_NODE_t_BWD_IG 20
23 COMM_COLL_NODE_e_ALLTOALL 22
24 COMP_NODE_n_BWD_WG 22
25 COMP_NODE_n_BWD_IG 24
26 COMP_NODE_m_BWD_WG 25
27 COMM_COLL_NODE_m_ALLREDUCE 26
28 COMP_NODE_m_BWD_IG 26
29 COMP_NODE_e_BWD_WG 28 23"
	# the extra collective after t's input gradient: e's input-gradient size
	assert_equal "$(jq -c 'select(.id == 8) | .attr' o.jsonl)" \
		'[{"name":"comm_type","int64Val":6},{"name":"comm_size","int64Val":200}]'
}

@test "astra-text: HYBRID_DLRM wiring, dependency lists by hand (driver)" {
	check_dlrm conv_driver
}

@test "astra-text: HYBRID_DLRM wiring, dependency lists by hand (et-convert)" {
	need_cli
	check_dlrm conv_cli
}

# Refusals: one line naming the file and line, exit 3, no output.
check_refusals() {
	local prog=$2
	run -3 --separate-stderr "$1" "$TXT/Transformer_HybridParallel_Fwd_In_Bckwd.txt" 4 2 default o.etz
	assert_equal "$stderr" "$prog: $TXT/Transformer_HybridParallel_Fwd_In_Bckwd.txt: line 1: HYBRID_TRANSFORMER_FWD_IN_BCKWD is not converted: Chakra's text converter refuses it, and its model-parallel NPU group and its forward recomputation from checkpoints have no counterpart in the graphs it writes"
	[ ! -e o.etz ]
	printf 'DATA\r\n2\r\nx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE 4 5\r\n\r\ny -1 1 NONE 0 2 NONE 0 3 FOO 4 5\r\n' >b.txt
	run -3 --separate-stderr "$1" b.txt 4 2 default o.etz
	assert_equal "$stderr" "$prog: b.txt: line 4: blank line inside the layer table (blank lines may only follow it)"
	printf 'DATA\n1\nx -1 1 NONE 0 2 NONE 0 3 ALLREDUCE_LOCAL 4 5\n\n\n' >t.txt
	run -3 --separate-stderr "$1" t.txt 4 2 default o.etz
	assert_equal "$stderr" "$prog: t.txt: line 3: column 10 (weight-gradient comm type): expected ALLREDUCE, ALLGATHER, ALLTOALL, REDUCESCATTER or NONE (the reference writes any other as an all-reduce), found \"ALLREDUCE_LOCAL\""
	[ ! -e o.etz ]
	# too many passes for the suite's readers: a usage error before anything is written
	run -2 --separate-stderr "$1" "$TXT/Resnet50_DataParallel.txt" 4 20000 default o.etz
	assert_equal "$stderr" "$prog: $TXT/Resnet50_DataParallel.txt: 20000 passes of 215 nodes make 4300000 nodes per rank, more than the 4194304 the suite reads by default (--max-rank-nodes); use fewer passes"
	[ ! -e o.etz ]
}

@test "astra-text: refusals are one line, exit 3 (sizes: 2), nothing written (driver)" {
	check_refusals conv_driver test_astxt
}

@test "astra-text: refusals are one line, exit 3 (sizes: 2), nothing written (et-convert)" {
	need_cli
	check_refusals conv_cli et-convert
}

@test "astra-text: every converted corpus file validates for ASTRA-sim and simulates" {
	for pair in $CORPUS; do
		f=${pair%%:*}
		conv_driver "$TXT/$f.txt" 4 2 default o.etz
		run -0 et-validate --for astra-sim --format json o.etz
		# no errors; the only warning COLL_UNORDERED (issue 27): the
		# layers' weight-gradient all-reduces each hang off their own
		# backward node, with no dependency between them
		assert_equal "$(jq -c '[.errors, [.codes[] | select(.severity == "warning") | .code] - ["COLL_UNORDERED"]]' <<<"$output")" '[0,[]]'
		run -0 et-sim o.etz
		assert_line --partial "simulated iteration time:"
	done
}

# unit.bats runs every unit program once it lists it; until then, here.
@test "astra-text: the unit tests (test_astxt)" {
	cd "$REPO"
	if [ -n "${ETKIT_VALGRIND:-}" ]; then
		run valgrind -q --error-exitcode=99 --leak-check=full \
			--errors-for-leak-kinds=definite,indirect "${ETKIT_UNIT:?}/test_astxt" "$DATA"
	else
		run "${ETKIT_UNIT:?set by make test}/test_astxt" "$DATA"
	fi
	assert_success
	assert_output "all checks passed"
}
