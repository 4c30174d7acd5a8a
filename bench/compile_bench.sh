#!/usr/bin/env bash
# bench/compile_bench.sh: et-convert --from hlo / stablehlo against the
# compiler issue's target: a 1 MB module to a 4,096-rank stream in <= 5 s,
# memory independent of the rank count. Two corpus modules (tests/data/
# compiler), widened to N devices:
#  - MaxText Llama-3-8B (HLO, 670 KB, 4 partitions): its all-reduce and
#    all-gather groups become one group of every rank and its
#    collective-permute ring a ring of N (1.1 MB at N = 4,096). Its while
#    loop runs 32 layers, so a rank is 28,228 nodes (2.7 MB of ET, 11 GB
#    for 4,096 ranks), and every rank differs from the next in 704
#    send/receive peers: one class frame, and each rank its rule (its
#    pg_names and peers; etkit-stream(5)); also converted with --max-unroll 1
#    (the loop body once).
#  - Hespas ResNet-50 training step (StableHLO, 1.07 MB, pmap over 4
#    replicas): its 375 all-reduces become all-rank groups; every rank is
#    the same 9,069 nodes.
# Medians of BENCH_RUNS runs under /usr/bin/time -v. Run after `make`.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_NAME=compile_bench
. bench/lib.sh
[ -x "$BIN/et-convert" ] || die "$BIN/et-convert missing: run 'make' first"
mkdir -p "$OUT"
LLAMA=tests/data/compiler/xla_llama3_8b_cp_bf16_1x4.hlo
RESNET=tests/data/compiler/hespas_resnet50_train_4dev.mlir
TF=$OUT/compile-time.txt

# llama N: the Llama module at N partitions
llama() {
	local n=$1 ring
	ring=$(awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%s{%d,%d}", i ? "," : "", i, (i + 1) % n }')
	sed -e "s/num_partitions=4/num_partitions=$n/" \
		-e "s/replica_groups=\[1,4\]<=\[4\]/replica_groups=[1,$n]<=[$n]/g" \
		-e "s/source_target_pairs={{0,1},{1,2},{2,3},{3,0}}/source_target_pairs={$ring}/g" "$LLAMA"
}

# resnet N: the ResNet-50 module at N replicas. StableHLO lists every group
# member, so the text grows with N (9.4 MB at 4,096).
resnet() {
	local n=$1 g
	g=$(awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%s%d", i ? ", " : "", i }')
	sed -e "s/mhlo.num_replicas = 4 /mhlo.num_replicas = $n /" \
		-e "s/dense<\[\[0, 1, 2, 3\]\]> : tensor<1x4xi64>/dense<[[$g]]> : tensor<1x${n}xi64>/g" "$RESNET"
}

# row LABEL N TARGET MAKER EXT [et-convert options...]
row() {
	local label=$1 n=$2 target=$3 make=$4 ext=$5 walls=() rsss=() i
	shift 5
	local in=$OUT/$make.$n.$ext out=$OUT/$make.$n.etz
	"$make" "$n" >"$in"
	local kb=$(($(wc -c <"$in") / 1024))
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v -o "$TF" "$BIN/et-convert" -q "$@" "$in" -o "$out" ||
			die "et-convert failed on $in"
		walls+=("$(tv_wall "$TF")") rsss+=("$(tv_rss "$TF")")
	done
	local w m
	w=$(median "${walls[@]}") m=$(median "${rsss[@]}")
	printf '%-40s %6s %8s %8.3f %8.1f %8.1f  %s\n' "$label" "$n" "$kb" "$w" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')" \
		"$(awk -v b="$(wc -c <"$out")" 'BEGIN { print b / 1048576 }')" "$target"
	rm -f "$in" "$out"
}

echo "et-convert --from hlo|stablehlo, median of $RUNS runs ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-40s %6s %8s %8s %8s %8s  %s\n' case ranks in_KB wall_s RSS_MB out_MB target
row "Llama-3-8B step (HLO), 4 partitions" 4 "-" llama hlo
row "the same at 512 partitions" 512 "-" llama hlo
row "the same at 4,096 partitions" 4096 "<= 5 s, RSS flat" llama hlo
row "the same, --max-unroll 1" 4096 "<= 5 s, RSS flat" llama hlo --max-unroll 1
row "ResNet-50 step (StableHLO), 4 replicas" 4 "-" resnet mlir
row "the same at 4,096 replicas" 4096 "<= 5 s, RSS flat" resnet mlir
