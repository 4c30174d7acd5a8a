#!/bin/bash
# et-synth dag throughput and memory: 1,024 ranks x 100 k nodes into a stream
# (the acceptance target: >= 1 M nodes/s, memory independent of rank count).
# Each case runs BENCH_RUNS times under /usr/bin/time -v; the table shows the
# medians of wall time, user+sys CPU time and peak RSS. Output goes to a pipe
# (| cat >/dev/null) or, with BENCH_FILE=1, to bench/out/synth.etz.
#   BENCH_RUNS (5)  BENCH_NODES (100000)  BENCH_RANKS (1024)  BENCH_FILE (0)
set -eu
cd "$(dirname "$0")/.."
bin=${ETKIT_BIN:-$PWD/bin}
runs=${BENCH_RUNS:-5} nodes=${BENCH_NODES:-100000} ranks=${BENCH_RANKS:-1024}
mkdir -p bench/out
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run_case LABEL RANKS ARGS...: prints one table row
run_case() {
	local label=$1 r=$2
	shift 2
	: >"$tmp/w" >"$tmp/c" >"$tmp/m"
	for _ in $(seq "$runs"); do
		if [ "${BENCH_FILE:-0}" = 1 ]; then
			/usr/bin/time -v -o "$tmp/t" "$bin/et-synth" dag --nodes "$nodes" --world "$r" "$@" \
				-q -o bench/out/synth.etz
		else
			/usr/bin/time -v -o "$tmp/t" "$bin/et-synth" dag --nodes "$nodes" --world "$r" "$@" \
				-q | cat >/dev/null
		fi
		awk -F': ' '/Elapsed/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$tmp/t" >>"$tmp/w"
		awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { print u + s }' "$tmp/t" >>"$tmp/c"
		awk -F': ' '/Maximum resident/ { print $2 }' "$tmp/t" >>"$tmp/m"
	done
	local w c m
	w=$(median <"$tmp/w") c=$(median <"$tmp/c") m=$(median <"$tmp/m")
	awk -v l="$label" -v w="$w" -v c="$c" -v m="$m" -v n="$nodes" -v r="$r" 'BEGIN {
		t = n * r; printf "%-34s %6d %9.2f %9.2f %12.2f %12.2f %9.1f\n", l, r, w, c,
			t / (w > 0 ? w : 1e-3) / 1e6, t / (c > 0 ? c : 1e-3) / 1e6, m / 1024 }'
}

echo "et-synth dag, $nodes nodes per rank, median of $runs runs ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
printf "%-34s %6s %9s %9s %12s %12s %9s\n" case ranks wall_s cpu_s "Mnodes/s" "Mnodes/cpu-s" RSS_MB
run_case "identical ranks (default)" "$ranks"
run_case "identical ranks, 64 ranks" 64
run_case "--jitter 0.1 (patched, per-rank zstd)" "$((ranks / 8))" --jitter 0.1
run_case "--jitter 0.1 -l 1 -T 2" "$((ranks / 8))" --jitter 0.1 -l 1 -T 2
echo "target: >= 1 Mnodes/s at $ranks ranks; RSS the same at 64 and $ranks ranks"
