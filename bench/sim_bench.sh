#!/bin/bash
# et-sim speed targets (issue: et-sim), medians of BENCH_RUNS runs under
# /usr/bin/time -v: wall time and peak RSS.
#   1. 64 ranks x 2,000 nodes, COMP -> 16 MiB all-reduce chains, 2-D network  (<= 2 s)
#      also unfolded, message by message, and with ranks that differ
#   2. 1,024 ranks x 10,000 nodes data-parallel, one 16 MiB all-reduce per 10
#      nodes, network [Switch 8, Ring 128]                               (<= 60 s, <= 4 GB)
#   3. --sweep of 100 points over the 8-rank DLRM trace                  (<= 10 s)
# Run after `make`; generated inputs go to bench/out/.
set -eu
cd "$(dirname "$0")/.."
RUNS=${BENCH_RUNS:-3}
OUT=bench/out
CC=${CC:-cc}
mkdir -p "$OUT"
build=build/rel
$CC -std=c11 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 -Ilibcommon -I$build \
	bench/sim_gen.c $build/libcommon.a -o "$OUT/sim_gen" -lprotobuf-c -lzstd -lz -lcjson -lm -lpthread

[ -s "$OUT/sim_comm64.etz" ] || "$OUT/sim_gen" 64 2000 2 16777216 1 "$OUT/sim_comm64.etz"
[ -s "$OUT/sim_comm64v.etz" ] || "$OUT/sim_gen" 64 2000 2 16777216 1 "$OUT/sim_comm64v.etz" 1
[ -s "$OUT/sim_dp1024.etz" ] || "$OUT/sim_gen" 1024 10000 10 16777216 10 "$OUT/sim_dp1024.etz"
[ -s "$OUT/sim_dlrm.etz" ] || bin/et-convert tests/data/pytorch/dlrm-8rank/host_et.*.json.gz -o "$OUT/sim_dlrm.etz"
printf 'topology: [ Ring, Switch ]\nnpus_count: [ 8, 8 ]\nbandwidth: [ 200, 50 ]\nlatency: [ 500, 1000 ]\n' >"$OUT/sim_net64.yml"
printf 'topology: [ Switch, Ring ]\nnpus_count: [ 8, 128 ]\nbandwidth: [ 400, 50 ]\nlatency: [ 500, 1000 ]\n' >"$OUT/sim_net1024.yml"

# median of the RUNS values on stdin
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

bench() { # label target command...
	local label=$1 target=$2
	shift 2
	local walls="" rss=""
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v "$@" >/dev/null 2>"$OUT/sim_time.txt"
		walls+=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
			for (k = 1; k <= n; k++) s = s * 60 + t[k]; print s}' "$OUT/sim_time.txt")$'\n'
		rss+=$(awk -F': ' '/Maximum resident/ {print $2}' "$OUT/sim_time.txt")$'\n'
	done
	printf '%-58s %8.2f s %9.1f MB   %s\n' "$label" "$(printf '%s' "$walls" | median)" \
		"$(printf '%s' "$rss" | median | awk '{print $1 / 1024}')" "$target"
}

printf '%-58s %10s %12s   %s\n' "benchmark (median of $RUNS)" wall "max RSS" target
bench "64 x 2,000 comm-bound (folded)" "<= 2 s" \
	bin/et-sim --network "$OUT/sim_net64.yml" "$OUT/sim_comm64.etz"
bench "64 x 2,000 comm-bound, every rank (--no-fold)" "<= 2 s" \
	bin/et-sim --no-fold --network "$OUT/sim_net64.yml" "$OUT/sim_comm64.etz"
bench "64 x 2,000 comm-bound, message by message" "" \
	bin/et-sim --no-closed-form --network "$OUT/sim_net64.yml" "$OUT/sim_comm64.etz"
bench "64 x 2,000 comm-bound, ranks differ (event path)" "" \
	bin/et-sim --network "$OUT/sim_net64.yml" "$OUT/sim_comm64v.etz"
bench "1,024 x 10,000 data-parallel (folded)" "<= 60 s, 4 GB" \
	bin/et-sim --network "$OUT/sim_net1024.yml" "$OUT/sim_dp1024.etz"
bench "1,024 x 10,000 data-parallel, every rank (--no-fold)" "<= 60 s, 4 GB" \
	bin/et-sim --no-fold --network "$OUT/sim_net1024.yml" "$OUT/sim_dp1024.etz"
bench "--sweep 100 points, 8-rank DLRM" "<= 10 s" \
	bin/et-sim --sweep bandwidth=10,20,30,40,50,60,70,80,90,100 \
	--sweep latency=100,200,300,400,500,600,700,800,900,1000 "$OUT/sim_dlrm.etz"
