#!/usr/bin/env bats
# et-sim's doubleBinaryTree against ASTRA-sim's own numbers (doc/astra-sim.md
# D.19-D.25). Each case of tests/data/astra-sim/dbt/cases.tsv is a network, a
# system file and a workload of N ranks issuing K chained all-reduces of S
# bytes; the expected values below are every rank's finish time as ASTRA-sim
# 518bd51 printed them (tests/data/README.md says how they were made).
load common

DBT="$DATA/astra-sim/dbt"

# gen_ar N S K [GROUPS]: N ranks, each issuing K all-reduces of S bytes, each
# after the one before; with a comm-group file, a rank's collectives name the
# group it belongs to.
gen_ar() {
	local n=$1 S=$2 K=$3 groups=${4:-} r k pg dep
	for ((r = 0; r < n; r++)); do
		pg=""
		if [ -n "$groups" ]; then
			pg=$(jq -r --argjson r "$r" 'to_entries[] | select(.value | index($r)) | .key' "$groups")
			pg=",{\"name\":\"pg_name\",\"stringVal\":\"$pg\"}"
		fi
		echo "{\"rank\":$r,\"world_size\":$n,\"name\":\"ar\",\"metadata\":{\"version\":\"0.0.4\"}}"
		for ((k = 1; k <= K; k++)); do
			dep=""
			[ "$k" -gt 1 ] && dep=",\"dataDeps\":[$((k - 1))]"
			echo "{\"rank\":$r,\"id\":$k,\"name\":\"ar\",\"type\":\"COMM_COLL_NODE\",\"attr\":[{\"name\":\"is_cpu_op\",\"boolVal\":false},{\"name\":\"comm_type\",\"int64Val\":0},{\"name\":\"comm_size\",\"int64Val\":$S}$pg]$dep}"
		done
	done
}

# run_case NAME BACKEND [et-sim options]: the case's finish times, one line,
# in rank order.
run_case() {
	local name=$1 backend=$2 c net sys n S K grp rest out
	shift 2
	read -r c net sys n S K grp rest < <(awk -v c="$name" '$1 == c' "$DBT/cases.tsv")
	[ "$c" = "$name" ] || { echo "no case $name" >&2; return 1; }
	local args=(--astra-sim-log --backend "$backend" --network "$DBT/$net" --system "$DBT/$sys")
	[ "$grp" = "-" ] || args+=(--comm-groups "$DBT/$grp")
	gen_ar "$n" "$S" "$K" "$([ "$grp" = "-" ] || echo "$DBT/$grp")" >"$T/$name.jsonl"
	out=$(et-sim "${args[@]}" "$@" "$T/$name.jsonl") || return 1
	printf '%s\n' "$out" | awk '{printf "%s%s", (NR > 1 ? " " : ""), $3} END {print ""}'
}

# check TABLE: every line "case backend t0 t1 ..." matches, by the event
# path and with --no-closed-form; all mismatches are listed.
check() {
	local c b want got bad=0
	while read -r c b want; do
		[ -n "$c" ] || continue
		for opt in "" --no-closed-form; do
			got=$(run_case "$c" "$b" $opt) || got="(failed)"
			if [ "$got" != "$want" ]; then
				echo "$c $b $opt: got $got, want $want"
				bad=1
			fi
		done
	done <<<"$1"
	return $bad
}

@test "doubleBinaryTree: ASTRA-sim's numbers, 1-D Ring, Switch, FullyConnected, 4 to 32 ranks, several splits, chunks and policies (unaware)" {
	check "$(cat <<'T'
c01 unaware 68231 80004 74612 80004
c02 unaware 119898 139052 133660 139052 127279 139052 133660 139052
c03 unaware 185565 214100 208708 214100 202327 214100 208708 214100 194946 214100 208708 214100 202327 214100 208708 214100
c04 unaware 422576 485991 476368 485991 464570 485991 476368 485991 452172 485991 476368 485991 464570 485991 476368 485991 438574 485991 476368 485991 464570 485991 476368 485991 452172 485991 476368 485991 464570 485991 476368 485991
c05 unaware 32322 34814 32322 34814 32322 34814 32322 34814
c07 unaware 9619 8210 9619 6570 9619 8210 9619 4930
c08 unaware 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280 52057 53280
c09 unaware 134081 114040 134081 91534 134081 114040 134081 68028
c11 unaware 266958 266305 266958 265140 266958 266305 266958 262975 266958 266305 266958 265140 266958 266305 266958 258810
c12 unaware 97090 97600 97090 97600
c15 unaware 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359 76359
c16 unaware 146809 145725 146809 144084 146809 145725 146809 141443
T
)"
}

@test "doubleBinaryTree: ASTRA-sim's numbers on 2-D and 3-D networks, mixed with ring, direct and halvingDoubling, localBWAware and baseline (unaware)" {
	check "$(cat <<'T'
c20 unaware 23564 23564 23564 23564 25075 25075 25075 25075
c21 unaware 91206 97197 94546 97197 91206 97197 94546 97197
c22 unaware 91206 97197 94546 97197 91206 97197 94546 97197
c23 unaware 249537 230401 249537 208890 230401 249537 230401 249537 249537 230401 249537 230401 208890 249537 230401 249537
c24 unaware 78981 78981 78981 78981 90754 90754 90754 90754 85362 85362 85362 85362 90754 90754 90754 90754
c26 unaware 18685 18685 18685 18685 18685 18685 18685 18685 17732 17732 17732 17732 17732 17732 17732 17732 18685 18685 18685 18685 18685 18685 18685 18685 16269 16269 16269 16269 16269 16269 16269 16269
c27 unaware 133553 133553 133553 133553 156667 156667 156667 156667 145344 145344 145344 145344 156667 156667 156667 156667
c30 unaware 65674 65674 69277 69277 67747 67747 69277 69277 72307 72307 75910 75910 74380 74380 75910 75910 67856 67856 71459 71459 69929 69929 71459 71459 72307 72307 75910 75910 74380 74380 75910 75910
c32 unaware 90280 88950 90280 88950 90280 88950 90280 88950 104553 103223 104553 103223 104553 103223 104553 103223 97661 96331 97661 96331 97661 96331 97661 96331 104553 103223 104553 103223 104553 103223 104553 103223
c33 unaware 48202 54043 51442 54043 51663 57504 54903 57504 48202 54043 51442 54043 51663 57504 54903 57504
c35 unaware 48638 49889 49392 49889 48638 49889 49392 49889
c36 unaware 62562 62562 62562 62562 64624 64624 64624 64624 62562 62562 62562 62562 64624 64624 64624 64624
T
)"
}

@test "doubleBinaryTree: ASTRA-sim's numbers on a comm group of every rank, and a ring fallback on 2-D groups (unaware)" {
	check "$(cat <<'T'
c41 unaware 119898 139052 133660 139052 127279 139052 133660 139052
c42 unaware 25960 25960 25960 25960 25960 25960 25960 25960
T
)"
}

@test "doubleBinaryTree: ASTRA-sim's congestion-aware numbers, 1-D networks" {
	check "$(cat <<'T'
c01 aware 117021 133676 128284 133676
c02 aware 271210 309892 304500 309892 293237 309892 304500 309892
c03 aware 576095 658332 652940 658332 641677 658332 652940 658332 619650 658332 652940 658332 641677 658332 652940 658332
c05 aware 42072 44574 42682 45184 42682 45184 43292 45794
c07 aware 9619 8210 9619 6570 9619 8210 9619 4930
c08 aware 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692 55272 55692
c09 aware 290329 270288 290329 228251 290329 270288 290329 146152
c11 aware 322568 321915 322568 320607 322568 321915 322568 318013 322568 321915 322568 320607 322568 321915 322568 312847
c12 aware 97090 97600 97090 97600
c16 aware 223585 222501 223585 220286 223585 222501 223585 215923
T
)"
}

@test "doubleBinaryTree on 6 ranks (ASTRA-sim: segmentation fault) is one line, exit 2" {
	gen_ar 6 1048576 1 >ar.jsonl
	run --separate-stderr et-sim --network "$DBT/network/ring6.yml" --system "$DBT/system/c13.json" ar.jsonl
	assert_failure 2
	assert_equal "$stderr" "et-sim: doubleBinaryTree needs a power-of-two ring, not 6 ranks"
	assert_equal "$output" ""
}

# Where ASTRA-sim crashes (doc/astra-sim.md D.19, D.25), et-sim runs each
# rank's own tree. The expected values are ASTRA-sim's for the same tree
# alone: a 1-D Ring of 4 with the same links, and for the groups of every
# other rank of a Ring of 8, a Ring of 4 with twice the latency (each tree
# hop is two physical hops).
@test "doubleBinaryTree with a one-entry list on a 2-D network: each dimension-0 group runs its own tree (ASTRA-sim: segmentation fault)" {
	got=$(run_case c29 unaware)
	assert_equal "$got" "35980 41971 39320 41971 35980 41971 39320 41971"
}

@test "doubleBinaryTree on comm groups {0,2,4,6} and {1,3,5,7} runs a tree on each group's members (ASTRA-sim: segmentation fault)" {
	for opt in "" --no-closed-form; do
		got=$(run_case c40 unaware $opt)
		assert_equal "$got" "77231 77231 90504 90504 84612 84612 90504 90504"
	done
}

# Held out: these cases' numbers were kept aside (not looked at) while
# et-sim's doubleBinaryTree was written, and added here only after it was
# done; each matched on its first comparison.
@test "doubleBinaryTree: ASTRA-sim's numbers on the held-out cases (Switch 16, Ring 8 FIFO 3 chunks, slow memory, 2-D and 3-D)" {
	check "$(cat <<'T'
c06 unaware 142126 145864 142126 145864 142126 145864 142126 145864 142126 145864 142126 145864 142126 145864 142126 145864
c10 unaware 206543 217696 206543 217696 206543 217696 206543 217696
c14 unaware 187310 210632 208100 210632 197705 210632 208100 210632
c25 unaware 69845 73991 72771 73991 71308 73991 72771 73991 73096 77242 76022 77242 74559 77242 76022 77242 69845 73991 72771 73991 71308 73991 72771 73991 73096 77242 76022 77242 74559 77242 76022 77242
c28 unaware 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489 26489
c31 unaware 218315 220753 229483 231921 224517 226955 229483 231921 229638 232076 240806 243244 235840 238278 240806 243244 218315 220753 229483 231921 224517 226955 229483 231921 229638 232076 240806 243244 235840 238278 240806 243244
c34 unaware 8713 8713 8713 8713 8713 8713 8713 8713 6424 6424 6424 6424 6424 6424 6424 6424
T
)"
}
