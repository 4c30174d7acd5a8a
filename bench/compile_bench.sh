#!/usr/bin/env bash
# bench/compile_bench.sh: et-convert --from hlo against the compiler issue's
# target: a 1 MB HLO module to a 4,096-rank stream in <= 5 s, memory
# independent of the rank count. The input is the corpus's MaxText
# Llama-3-8B module (tests/data/compiler, 670 KB, 4 partitions) widened to
# N partitions: its all-reduce and all-gather groups become one group of
# every rank and its collective-permute ring a ring of N (about 1.1 MB at
# N = 4,096). Medians of BENCH_RUNS runs under /usr/bin/time -v. Run after
# `make`.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_NAME=compile_bench
. bench/lib.sh
[ -x "$BIN/et-convert" ] || die "$BIN/et-convert missing: run 'make' first"
mkdir -p "$OUT"
SRC=tests/data/compiler/xla_llama3_8b_cp_bf16_1x4.hlo
TF=$OUT/compile-time.txt

# widen N: the module at N partitions
widen() {
	local n=$1 ring
	ring=$(awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%s{%d,%d}", i ? "," : "", i, (i + 1) % n }')
	sed -e "s/num_partitions=4/num_partitions=$n/" \
		-e "s/replica_groups=\[1,4\]<=\[4\]/replica_groups=[1,$n]<=[$n]/g" \
		-e "s/source_target_pairs={{0,1},{1,2},{2,3},{3,0}}/source_target_pairs={$ring}/g" "$SRC"
}

row() {
	local label=$1 n=$2 target=$3 walls=() rsss=() i
	widen "$n" >"$OUT/llama.$n.hlo"
	local kb=$(($(wc -c <"$OUT/llama.$n.hlo") / 1024))
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v -o "$TF" "$BIN/et-convert" -q "$OUT/llama.$n.hlo" -o "$OUT/llama.$n.etz" ||
			die "et-convert failed on $n partitions"
		walls+=("$(tv_wall "$TF")") rsss+=("$(tv_rss "$TF")")
	done
	local w m
	w=$(median "${walls[@]}") m=$(median "${rsss[@]}")
	printf '%-34s %6s %8s %8.3f %8.1f %8.1f  %s\n' "$label" "$n" "$kb" "$w" "$(awk -v m="$m" 'BEGIN { print m / 1024 }')" \
		"$(awk -v b="$(wc -c <"$OUT/llama.$n.etz")" 'BEGIN { print b / 1048576 }')" "$target"
}

echo "et-convert --from hlo, median of $RUNS runs ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf '%-34s %6s %8s %8s %8s %8s  %s\n' case ranks in_KB wall_s RSS_MB out_MB target
row "Llama-3-8B step, 4 partitions" 4 "-"
row "the same at 512 partitions" 512 "-"
row "the same at 4,096 partitions" 4096 "<= 5 s, RSS flat"
