#!/usr/bin/env bash
# bench/validate_bench.sh: speed and peak memory of et-validate's per-rank
# checks against the target of the performance issue (one rank: >= 5 M
# nodes/s after decoding). Two one-rank inputs: converter-shaped nodes
# (bench/gen_et.c: a dozen attributes and IOInfo strings each) and an
# et-synth random DAG (few attributes, more dependencies). et-validate reads
# and decodes on a second thread while the checks run (-T 1, the default),
# so what the checks cost is what they add to the time of decoding alone
# (decode_bench decode: read and decode every node, one thread): each
# et-validate run (plain, --stats, --for astra-sim, and -T 0 with no
# reading thread) comes right after a decode-only run, and the checks'
# time is the median of the differences; their rate is nodes / that time.
# Each run is under /usr/bin/time -v; the table shows medians of BENCH_RUNS
# runs. The timing column is et-validate --timing's own single-rank figure:
# the checking thread's CPU time of adding, per-node and per-rank checks
# (not the comm summaries, which serve the cross-rank checks), the rate the
# checks would have with no second core to hide behind.
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

# once CMD...: one run under /usr/bin/time -v; sets W, C, R (wall s, CPU s,
# peak RSS kB). Exit status 0 or 1 (findings) is a success; anything else
# stops the script.
once() {
	local rc=0
	/usr/bin/time -v -o "$TF" "$@" >/dev/null 2>"$OUT/validate-cmd.stderr" || rc=$?
	if ((rc > 1)); then
		sed 's/^/  /' "$OUT/validate-cmd.stderr" >&2
		die "FAILED (exit $rc): $*"
	fi
	W=$(tv_wall "$TF")
	C=$(tv_cpu "$TF")
	R=$(tv_rss "$TF")
}

# paired FILE CMD...: RUNS runs of CMD, each right after a decode-only run
# of FILE, so that the machine's drift (often 20-40 % here) hits both
# alike. Sets WALL, CPU, RSS_MB of CMD, DEC (decode-only wall) and CHK
# (the checks: median over the pairs of CMD's wall minus the decode's),
# all medians.
paired() {
	local file=$1 walls=() cpus=() rsss=() decs=() chks=() i
	shift
	for ((i = 0; i < RUNS; i++)); do
		once "$TOOLS/decode_bench" decode "$file"
		decs+=("$W")
		once "$@"
		walls+=("$W")
		cpus+=("$C")
		rsss+=("$R")
		chks+=("$(awk -v a="$W" -v b="${decs[-1]}" 'BEGIN { print a - b }')")
	done
	WALL=$(median "${walls[@]}")
	CPU=$(median "${cpus[@]}")
	RSS_MB=$(awk -v k="$(median "${rsss[@]}")" 'BEGIN { printf "%.1f", k / 1024 }')
	DEC=$(median "${decs[@]}")
	CHK=$(median "${chks[@]}")
}

# et-validate --timing's single-rank "M nodes/s after decoding", median of
# RUNS runs.
timing_rate() {
	local rates=() i
	for ((i = 0; i < RUNS; i++)); do
		rates+=("$("$@" --timing 2>&1 >/dev/null |
			sed -n 's/.*, \([0-9.]*\) M nodes\/s after decoding.*/\1/p')")
	done
	median "${rates[@]}"
}

# row INPUT OPERATION TIMING_RATE: a table row from WALL, CPU, RSS_MB, DEC
# and CHK.
row() {
	local r
	r=$(awk -v i="$1" -v o="$2" -v tr="$3" -v w="$WALL" -v c="$CPU" -v d="$DEC" \
		-v k="$CHK" -v m="$RSS_MB" -v n="$NODES" -v t="$TARGET" 'BEGIN {
		v = "ok"
		rate = k > 0.005 ? n / k : n / 0.005
		if (rate < t) v = "MISS"
		if (tr * 1e6 < t) v = v "/timing-MISS"
		printf "%-6s %-22s %7.2f %7.2f %7.2f %8.2f %9.2f %8.1f %7s  %s", i, o, d, w, c, k, rate / 1e6, m, tr, v }')
	ROWS+=("$r")
	[[ $r == *MISS* ]] && MISSED=1
	echo "$r" >&2
}

# op INPUT LABEL FILE ARGS...: one row for et-validate ARGS on FILE.
op() {
	local label=$1 name=$2 file=$3
	shift 3
	paired "$file" "$BIN/et-validate" -q "$@" "$file"
	row "$label" "$name" "$(timing_rate "$BIN/et-validate" -q "$@" "$file")"
}

bench_input() {
	local label=$1 file=$2
	op "$label" "et-validate" "$file"
	op "$label" "et-validate --stats" "$file" --stats
	op "$label" "et-validate --for astra" "$file" --for astra-sim
	op "$label" "et-validate -T 0" "$file" -T 0
}

echo "validate_bench: $NODES nodes per input, $RUNS runs each, $(nproc) CPUs" >&2
bench_input conv "$CONV"
bench_input dag "$DAG"
rm -f "$TF" "$OUT/validate-cmd.stderr"

echo
echo "et-validate bench: one rank of $NODES nodes, median of $RUNS runs, $(nproc) CPUs," \
	"$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
echo "conv: $CONV (bench/gen_et.c); dag: $DAG (et-synth dag)"
printf '%-6s %-22s %7s %7s %7s %8s %9s %8s %7s  %s\n' input operation dec_s wall_s cpu_s \
	checks_s Mnodes/s RSS_MB timing verdict
printf '%s\n' "${ROWS[@]}"
echo "(medians; dec_s: wall time of decode_bench decode (reading and decoding alone, one"
echo " thread), run right before each et-validate run; wall_s, cpu_s (user+sys), RSS: et-validate;"
echo " checks_s: the median over the pairs of et-validate's wall minus the decode's, what the checks"
echo " add to decoding; Mnodes/s = nodes / checks_s; timing: et-validate --timing's single-rank"
echo " M nodes/s after decoding, the checking thread's own CPU rate for adding and checking the"
echo " rank (the comm summaries are timed with the cross-rank checks);"
echo " target >= $((TARGET / 1000000)) M nodes/s)"
echo "load average before: $LOAD0; after: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "$MISSED" = 1 ]; then
	echo "validate_bench: the target was missed (see verdict)" >&2
	[ "${BENCH_STRICT:-0}" != 1 ] || exit 1
fi
exit 0
