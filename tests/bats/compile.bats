#!/usr/bin/env bats
# et-convert --from hlo / stablehlo: real compiler dumps (tests/data/compiler,
# provenance in tests/data/README.md) to one ET per rank. Expected counts come
# from the files themselves (grep and awk here), not from the converter.
load common

CD="$DATA/compiler"

# per-rank counts of a stream: "rank TYPE count" lines
per_rank() {
	et-convert --to jsonl "$1" | jq -r 'select(.type) | "\(.rank) \(.type)"' | sort | uniq -c |
		awk '{ print $2, $3, $1 }'
}

# the count of nodes of TYPE on every rank, which must be the same
each_rank() {
	per_rank "$1" | awk -v t="$2" '$2 == t { print $3 }' | sort -u
}

# convert FILE to x.etz with its comm groups, then it must validate clean
# (cross-rank) and simulate
convert_ok() {
	et-convert -q "$@" --write-comm-groups g.json -o x.etz
	et-validate -q --comm-groups g.json --format json x.etz >v.json || fail "et-validate: $(cat v.json)"
	jq -e '.errors == 0 and .warnings == 0' v.json >/dev/null || fail "findings: $(cat v.json)"
	et-sim -q --comm-groups g.json x.etz >s.txt || fail "et-sim"
}

@test "HLO, MaxText Llama-3-8B (context parallel, 4 partitions): the step's collectives, unrolled, on every rank" {
	f="$CD/xla_llama3_8b_cp_bf16_1x4.hlo"
	# the file: 50 all-reduce, 18 all-gather and 11 collective-permute instructions
	[ "$(grep -cE ' all-reduce\(' "$f")" = 50 ] && [ "$(grep -cE ' all-gather\(' "$f")" = 18 ] &&
		[ "$(grep -cE ' collective-permute\(' "$f")" = 11 ]
	# per computation; the two scan bodies run 32 times (their loops count a
	# counter from 0 while < 32): a step is entry + 32 x each body
	counts=$(awk '
		/^[%A-Za-z].*\{$/ { c = $1 == "ENTRY" ? $2 : $1; sub(/^%/, "", c) }
		/ all-reduce\(/ { ar[c]++ } / all-gather\(/ { ag[c]++ } / collective-permute\(/ { cp[c]++ }
		/ while\(/ { match($0, /body=%[^ ,]+/); b = substr($0, RSTART + 6, RLENGTH - 6); body[b] = 1 }
		END {
			for (k in ar) { n = k in body ? 32 : 1; AR += n * ar[k] }
			for (k in ag) { n = k in body ? 32 : 1; AG += n * ag[k] }
			for (k in cp) { n = k in body ? 32 : 1; CP += n * cp[k] }
			print AR, AG, CP
		}' "$f")
	[ "$counts" = "329 452 352" ] || fail "grep/awk says $counts"
	grep -q 'compare(.*), direction=LT' "$f"
	convert_ok "$f"
	run per_rank x.etz
	for r in 0 1 2 3; do
		assert_line "$r COMM_COLL_NODE $((329 + 452))"
		# a ring permute: every rank sends and receives each time
		assert_line "$r COMM_SEND_NODE 352"
		assert_line "$r COMM_RECV_NODE 352"
	done
	# all-reduces and all-gathers over all 4 ranks (pg "0"), the ring 0->1->2->3->0
	[ "$(jq length g.json)" = 0 ]
	run et-convert --to jsonl --ranks 2 x.etz
	[ "$(echo "$output" | jq -r 'select(.type == "COMM_SEND_NODE") | .attr[] | select(.name == "comm_dst") | .int32Val' | sort -u)" = 3 ]
	[ "$(echo "$output" | jq -r 'select(.type == "COMM_RECV_NODE") | .attr[] | select(.name == "comm_src") | .int32Val' | sort -u)" = 1 ]
}

@test "StableHLO, Hespas ResNet-50 (pmap, 4 replicas): 375 all-reduces on each of the 4 ranks" {
	f="$CD/hespas_resnet50_train_4dev.mlir"
	[ "$(grep -c '"stablehlo.all_reduce"' "$f")" = 375 ]
	grep -q 'mhlo.num_replicas = 4' "$f"
	convert_ok "$f"
	[ "$(each_rank x.etz COMM_COLL_NODE)" = 375 ]
	[ "$(per_rank x.etz | awk '{ print $1 }' | sort -u | wc -l)" = 4 ]
	# the all-reduces' bytes: the operands' (tensor<...xf32>: 4 bytes per element)
	# each all_reduce's region ends "}) : (tensor<AxBxf32>) -> ...": its operand
	want=$(awk '/"stablehlo.all_reduce"/ { in_ar = 1 }
		in_ar && /^ *}\) : \(tensor</ {
			t = $0; sub(/^ *}\) : \(tensor</, "", t); sub(/f32>.*/, "", t)
			n = split(t, d, "x"); e = 1; for (i = 1; i < n; i++) e *= d[i]; s += 4 * e; in_ar = 0
		} END { print s }' "$f")
	got=$(et-convert --to jsonl --ranks 0 x.etz | jq -n '[inputs | select(.type == "COMM_COLL_NODE") | .attr[] | select(.name == "comm_size") | .int64Val] | add')
	[ -n "$want" ] && [ "$got" = "$want" ] || fail "comm_size sum $got, the file's operands $want"
}

@test "StableHLO, split replica groups: {0,1},{2,3}, then every rank; the comm-group file" {
	convert_ok "$CD/hespas_split_replica_groups.mlir"
	run cat g.json
	assert_output '{"1": [0, 1], "2": [2, 3]}'
	run et-convert --to jsonl x.etz
	for r in 0 1; do assert_line --partial "{\"rank\":$r,\"id\":"; done
	[ "$(echo "$output" | jq -r 'select(.type == "COMM_COLL_NODE") | "\(.rank) \(.attr[] | select(.name == "pg_name") | .stringVal)"' | tr '\n' ' ')" = \
		"0 1 0 0 1 1 1 0 2 2 2 0 3 2 3 0 " ]
}

@test "collective-permute: SEND/RECV pairs from the source-target pairs (5 replicas, self loops included)" {
	f="$CD/stablehlo_interpret_collective_permute.mlir"
	grep -q 'source_target_pairs = dense<\[\[0, 1\], \[1, 2\], \[3, 3\], \[4, 4\]\]>' "$f"
	convert_ok "$f"
	run per_rank x.etz
	# 0 sends to 1, 1 receives from 0 and sends to 2, 2 receives; 3 and 4 to themselves
	assert_line "0 COMM_SEND_NODE 1"
	refute_line "0 COMM_RECV_NODE 1"
	assert_line "1 COMM_SEND_NODE 1"
	assert_line "1 COMM_RECV_NODE 1"
	assert_line "2 COMM_RECV_NODE 1"
	refute_line "2 COMM_SEND_NODE 1"
	assert_line "3 COMM_SEND_NODE 1"
	assert_line "3 COMM_RECV_NODE 1"
}

@test "the clarkechong stages: StableHLO before partitioning refused; the partitioned HLO and the shard_map all-reduce found" {
	run -3 et-convert "$CD/clarkechong_gspmd.stablehlo.mlir" -o x.etz
	assert_output --partial "the program is not partitioned yet; dump the partitioned HLO with XLA_FLAGS=--xla_dump_to=DIR and convert DIR/*.after_spmd_partitioner.txt with --from hlo"
	[ "${#lines[@]}" = 1 ] && [ ! -e x.etz ]
	for f in clarkechong_gspmd.after_spmd_partitioner.txt clarkechong_gspmd.after_optimizations.txt \
		clarkechong_shardmap.after_spmd_partitioner.txt clarkechong_shardmap.after_optimizations.txt \
		clarkechong_shardmap.stablehlo.mlir; do
		grep -qE 'num_partitions = 8|num_partitions=8' "$CD/$f"
		convert_ok "$CD/$f"
		[ "$(per_rank x.etz | awk '{ print $1 }' | sort -u | wc -l)" = 8 ] || fail "$f: not 8 ranks"
		[ "$(each_rank x.etz COMM_COLL_NODE)" = 1 ] || fail "$f: not one collective per rank"
		# the 4096x512 . 512x14336 bf16 product per device: 2·4096·14336·512 FLOPs
		[ "$(et-convert --to jsonl --ranks 0 x.etz | jq -r 'select(.type == "COMP_NODE") |
			(.attr | map({(.name): (.int64Val // .stringVal)}) | add) |
			select(.gemm_m) | "\(.num_ops) \(.gemm_m) \(.gemm_n) \(.gemm_k)"')" = \
			"60129542144 4096 14336 512" ] || fail "$f: no 60,129,542,144-FLOP product"
	done
	# the FSDP all-gather with mesh-axes groups: every rank
	convert_ok "$CD/clarkechong_fsdp.after_spmd_partitioner.txt"
	[ "$(et-convert --to jsonl --ranks 5 x.etz | jq -r 'select(.type == "COMM_COLL_NODE") | .attr[] | select(.name == "comm_type") | .int64Val')" = 2 ]
}

@test "GEMM extents and a roofline: the systolic model prices the products, --peak-tflops/--mem-gbps give durations" {
	f="$CD/clarkechong_gspmd.after_spmd_partitioner.txt"
	et-convert -q "$f" --peak-tflops 100 --mem-gbps 1000 -o r.etz
	# 60,129,542,144 FLOPs at 100 TFLOP/s: 601.3 us, more than its bytes at 1 TB/s
	run et-convert --to jsonl --ranks 0 r.etz
	assert_line --partial '"durationMicros":601,'
	et-convert -q "$f" -o x.etz
	et-sim -q --compute tpu-v4 --schedule s.jsonl x.etz >/dev/null
	# gemm 4096 x 14336 x 512 on four 128x128 arrays, weight stationary (K, N, M)
	cyc=$(awk 'BEGIN { f = int((512 + 127) / 128) * int((14336 + 127) / 128); print int((f + 3) / 4) * (2 * 128 + 128 + 4096 - 2) }')
	[ "$(jq -r 'select(.rank == 0 and .cycles) | .cycles' s.jsonl)" = "$cyc" ]
}

@test "usage and bad input: --world against the program, options that do not apply, a broken module" {
	run -2 et-convert "$CD/hespas_split_replica_groups.mlir" --world 8 -o x.etz
	assert_output --partial "--world 8: $CD/hespas_split_replica_groups.mlir has 4 ranks (4 replicas x 1 partitions)"
	run -2 et-convert "$CD/hespas_split_replica_groups.mlir" --passes 2 -o x.etz
	assert_output --partial "--passes and --compat chakra apply to --from astra-text"
	run -2 et-convert "$REPO/samples/all_reduce_8/all_reduce" --max-unroll 3 -o x.etz
	assert_output --partial "apply to compiled programs"
	run -2 et-convert "$CD/hespas_split_replica_groups.mlir" --peak-tflops 10 -o x.etz
	assert_output --partial "--peak-tflops and --mem-gbps: give both"
	head -c 2000 "$CD/xla_llama3_8b_cp_bf16_1x4.hlo" >cut.hlo
	run -3 et-convert cut.hlo -o x.etz
	assert_output --regexp '^et-convert: cut.hlo: line [0-9]+, column [0-9]+: '
	[ ! -e x.etz ]
	# sniffed, or forced: the same stream; stdin needs --from
	et-convert -q "$CD/hespas_split_replica_groups.mlir" -o a.etz
	et-convert -q --from stablehlo - <"$CD/hespas_split_replica_groups.mlir" -o b.etz
	cmp a.etz b.etz
}

@test "every compiler dump of the test data converts (or is refused as not partitioned), validates clean and simulates" {
	n=0
	for f in "$CD"/*.hlo "$CD"/*.txt "$CD"/*.mlir; do
		if [ "$(basename "$f")" = clarkechong_gspmd.stablehlo.mlir ]; then
			run -3 et-convert -q "$f" -o x.etz
			continue
		fi
		convert_ok "$f"
		grep -q '^simulated iteration time: ' s.txt || fail "$f: no simulated time"
		n=$((n + 1))
	done
	[ "$n" = 12 ]
}

@test "collectives keep the program's order on every rank: the congestion-aware backend pairs them without a mismatch" {
	# ranks of a ring permute finish their transfers at different times on a
	# Switch with congestion; independent collectives must still be issued in
	# program order everywhere (each depends on the previous one by ctrl_deps)
	et-convert -q "$CD/xla_llama3_8b_cp_bf16_1x4.hlo" -o x.etz
	run et-convert --to jsonl --ranks 1 x.etz
	[ "$(echo "$output" | jq -s '[.[] | select(.type == "COMM_COLL_NODE")] | length')" = 781 ]
	[ "$(echo "$output" | jq -s '[.[] | select(.type == "COMM_COLL_NODE" and (.ctrlDeps | length) == 1)] | length')" = 780 ]
	run -0 et-sim -q --backend aware --set topology=Switch x.etz
	assert_line --regexp '^simulated iteration time: '
}

@test "class ranks: the Llama-3-8B step as a stream is one class frame and 4 rules, each rank the ET the per-rank files hold" {
	f="$CD/xla_llama3_8b_cp_bf16_1x4.hlo"
	et-convert -q "$f" -o x.etz
	# the section versions in order (the byte after each ETSTREAM tag): 3,
	# class ranks; the class and rule frames by their tags
	v=$(for off in $(grep -aob ETSTREAM x.etz | cut -d: -f1); do
		od -An -tu1 -j $((off + 8)) -N1 x.etz
	done | tr -d ' ' | tr '\n' ' ')
	[ "$v" = "3 3 3 3 " ] || fail "section versions: $v"
	[ "$(grep -ao ETCLASS x.etz | wc -l)" = 1 ] && [ "$(grep -ao ETRULE x.etz | wc -l)" = 4 ]
	[ "$(grep -ao ETDELTA x.etz | wc -l)" = 0 ]
	zstd -tq x.etz
	# the same ranks written in full, one file each, by the --split writer
	et-convert -q "$f" --to et --split full
	for r in 0 1 2 3; do
		et-convert --ranks "$r" --to et x.etz -o "r$r.et"
		cmp "r$r.et" "full.$r.et"
	done
	# an 11 GB-class stream stays small: a rule is a few bytes a rank
	[ "$(stat -c %s x.etz)" -lt $(($(stat -c %s full.0.et) / 4)) ]
}
