#!/usr/bin/env bash
# bench/validate_bench.sh: speed and peak memory of et-validate's per-rank
# checks against the target of the performance issue (one rank: >= 5 M
# nodes/s after decoding). Two one-rank inputs: converter-shaped nodes
# (bench/gen_et.c: a dozen attributes and IOInfo strings each) and an
# et-synth random DAG (few attributes, more dependencies). For each, the
# decode-only time (decode_bench decode: read and decode every node, nothing
# else) and et-validate's time, plain, with --stats and with --for
# astra-sim; the checks take the difference, and their rate is
# nodes / (validate - decode). Each operation runs BENCH_RUNS times under
# /usr/bin/time -v; the table shows the medians of wall time, CPU time and
# peak RSS. The last column is et-validate --timing's own figure (CPU time
# of adding, per-node and per-rank checks), which a busy machine disturbs
# less than the difference of two wall times.
#
# Environment: BENCH_NODES (default 1000000), BENCH_RUNS (3), BENCH_SEED (1),
# BENCH_STRICT=1 (exit 1 when a rate misses the target). Run after `make`.
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_NAME=validate_bench
. bench/lib.sh
NODES=${BENCH_NODES:-1000000}
TARGET=5000000

[ -x "$BIN/et-validate" ] || die "$BIN/et-validate missing: run 'make' first"
bench_tools gen_et decode_bench

CONV=$OUT/validate-conv-n$NODES-s$SEED.et
DAG=$OUT/validate-dag-n$NODES-s$SEED.etz
if [ ! -f "$CONV" ] || [ bench/gen_et.c -nt "$CONV" ]; then
	echo "validate_bench: generating $CONV..." >&2
	"$TOOLS/gen_et" --nodes "$NODES" --seed "$SEED" -o "$CONV"
fi
if [ ! -f "$DAG" ] || [ "$BIN/et-synth" -nt "$DAG" ]; then
	echo "validate_bench: generating $DAG..." >&2
	"$BIN/et-synth" dag -q --nodes "$NODES" --world 1 --seed "$SEED" -o "$DAG"
fi

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
MISSED=0
ROWS=()
TF=$OUT/validate-time.txt

# run CMD...: RUNS runs; sets WALL, CPU, RSS_MB (medians). Exit status 0
# or 1 (findings) is a success; anything else stops the script.
run() {
	local walls=() cpus=() rsss=() i rc
	for ((i = 0; i < RUNS; i++)); do
		rc=0
		/usr/bin/time -v -o "$TF" "$@" >/dev/null 2>"$OUT/validate-cmd.stderr" || rc=$?
		if ((rc > 1)); then
			sed 's/^/  /' "$OUT/validate-cmd.stderr" >&2
			die "FAILED (exit $rc): $*"
		fi
		walls+=("$(tv_wall "$TF")")
		cpus+=("$(tv_cpu "$TF")")
		rsss+=("$(tv_rss "$TF")")
	done
	WALL=$(median "${walls[@]}")
	CPU=$(median "${cpus[@]}")
	RSS_MB=$(awk -v k="$(median "${rsss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')
}

# et-validate --timing's "M nodes/s after decoding", median of RUNS runs.
timing_rate() {
	local rates=() i
	for ((i = 0; i < RUNS; i++)); do
		rates+=("$("$@" --timing 2>&1 >/dev/null |
			sed -n 's/.*; \([0-9.]*\) M nodes\/s after decoding.*/\1/p')")
	done
	median "${rates[@]}"
}

# row INPUT OPERATION DECODE_WALL [TIMING_RATE]: a table row from WALL, CPU,
# RSS_MB; DECODE_WALL empty for the decode row itself.
row() {
	local input=$1 op=$2 dec=$3 rate=${4:--} r
	r=$(awk -v i="$input" -v o="$op" -v w="$WALL" -v c="$CPU" -v d="$dec" -v m="$RSS_MB" \
		-v n="$NODES" -v t="$TARGET" -v tr="$rate" 'BEGIN {
		if (d == "") { printf "%-6s %-22s %7.2f %7.2f %8s %9s %8.1f %9s  %s", i, o, w, c, "-", "-", m, "-", "-"; exit }
		chk = w - d; v = "ok"
		rate = chk > 0.005 ? n / chk : n / 0.005
		if (rate < t) v = "MISS"
		if (tr != "-" && tr * 1e6 < t) v = v "/timing-MISS"
		printf "%-6s %-22s %7.2f %7.2f %8.2f %9.2f %8.1f %9s  %s", i, o, w, c, chk, rate / 1e6, m, tr, v }')
	ROWS+=("$r")
	[[ $r == *MISS* ]] && MISSED=1
	echo "$r" >&2
}

bench_input() {
	local label=$1 file=$2 dec
	run "$TOOLS/decode_bench" decode "$file"
	dec=$WALL
	row "$label" "decode only" ""
	run "$BIN/et-validate" -q "$file"
	row "$label" "et-validate" "$dec" "$(timing_rate "$BIN/et-validate" -q "$file")"
	run "$BIN/et-validate" -q --stats "$file"
	row "$label" "et-validate --stats" "$dec" "$(timing_rate "$BIN/et-validate" -q --stats "$file")"
	run "$BIN/et-validate" -q --for astra-sim "$file"
	row "$label" "et-validate --for astra" "$dec" \
		"$(timing_rate "$BIN/et-validate" -q --for astra-sim "$file")"
}

echo "validate_bench: $NODES nodes per input, $RUNS runs each, $(nproc) CPUs" >&2
bench_input conv "$CONV"
bench_input dag "$DAG"
rm -f "$TF" "$OUT/validate-cmd.stderr"

echo
echo "et-validate bench: one rank of $NODES nodes, median of $RUNS runs, $(nproc) CPUs," \
	"$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "conv: $CONV (bench/gen_et.c); dag: $DAG (et-synth dag)"
printf '%-6s %-22s %7s %7s %8s %9s %8s %9s  %s\n' input operation wall_s cpu_s checks_s \
	Mnodes/s RSS_MB timing verdict
printf '%s\n' "${ROWS[@]}"
echo "(wall_s, cpu_s (user+sys), RSS: medians; checks_s = wall_s - the decode-only wall_s;"
echo " Mnodes/s = nodes / checks_s; timing: et-validate --timing's M nodes/s after decoding;"
echo " target >= $((TARGET / 1000000)) M nodes/s)"
echo "load average before: $LOAD0; after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$MISSED" = 1 ]; then
	echo "validate_bench: the target was missed (see verdict)" >&2
	[ "${BENCH_STRICT:-0}" != 1 ] || exit 1
fi
exit 0
