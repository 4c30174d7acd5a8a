#!/bin/bash
# et-convert --from pytorch speed targets (issue: PyTorch conversion), medians
# of BENCH_RUNS runs under /usr/bin/time -v: wall time, CPU time and peak RSS.
#   100 k host nodes + Kineto                       (<= 1.5 s)
#   1 M host nodes (~800 MB JSON) + Kineto          (<= 15 s, <= 1.5 GB)
# and, for comparison, host-only and --compat chakra. The inputs come from
# bench/gen_host_et.c (deterministic); run after `make`. BENCH_SIZES picks the
# sizes (default "100000 1000000").
set -eu
cd "$(dirname "$0")/.."
RUNS=${BENCH_RUNS:-3}
SIZES=${BENCH_SIZES:-100000 1000000}
OUT=bench/out
CC=${CC:-cc}
mkdir -p "$OUT"
[ -x bin/et-convert ] || { echo "pytorch_bench: run 'make' first" >&2; exit 1; }
$CC -std=c11 -O2 -Wall -Wextra -Werror bench/gen_host_et.c -o "$OUT/gen_host_et"

median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

bench() { # label target command...
	local label=$1 target=$2
	shift 2
	local walls="" cpus="" rss=""
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v "$@" >/dev/null 2>"$OUT/pt_time.txt" ||
			{ cat "$OUT/pt_time.txt" >&2; exit 1; }
		walls+=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
			for (k = 1; k <= n; k++) s = s * 60 + t[k]; print s}' "$OUT/pt_time.txt")$'\n'
		cpus+=$(awk -F': ' '/(User|System) time \(seconds\)/ {s += $2} END {print s}' \
			"$OUT/pt_time.txt")$'\n'
		rss+=$(awk -F': ' '/Maximum resident/ {print $2}' "$OUT/pt_time.txt")$'\n'
	done
	printf '%-50s %8.2f s %8.2f s %9.1f MB   %s\n' "$label" "$(printf '%s' "$walls" | median)" \
		"$(printf '%s' "$cpus" | median)" "$(printf '%s' "$rss" | median | awk '{print $1 / 1024}')" \
		"$target"
}

printf '%-50s %10s %10s %12s   %s\n' "et-convert --from pytorch (median of $RUNS)" wall cpu \
	"max RSS" target
for n in $SIZES; do
	host=$OUT/host_et.$n.json kin=$OUT/kineto.$n.json
	[ -s "$host" ] && [ -s "$kin" ] || "$OUT/gen_host_et" "$n" "$host" "$kin"
	case $n in
	100000) target="<= 1.5 s" ;;
	1000000) target="<= 15 s, 1.5 GB" ;;
	*) target="" ;;
	esac
	bench "$n nodes + Kineto" "$target" bin/et-convert -q "$host" --kineto "$kin" -o /dev/null
	bench "$n nodes + Kineto, zstd on a 2nd thread (-T 1)" "" \
		bin/et-convert -q -T 1 "$host" --kineto "$kin" -o /dev/null
	bench "$n nodes, host only" "" bin/et-convert -q "$host" -o /dev/null
	bench "$n nodes, --compat chakra" "" bin/et-convert -q --compat chakra "$host" -o /dev/null
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
