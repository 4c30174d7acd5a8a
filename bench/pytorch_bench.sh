#!/bin/bash
# et-convert --from pytorch speed targets (issue: PyTorch conversion), medians
# of BENCH_RUNS runs under /usr/bin/time -v: wall time, CPU time and peak RSS.
#   100 k host nodes + Kineto                       (<= 1.5 s)
#   1 M host nodes (~800 MB JSON) + Kineto          (<= 15 s, <= 1.5 GB)
# and, for comparison, host-only and --compat chakra. The inputs come from
# bench/gen_host_et.c (deterministic); run after `make`. BENCH_SIZES picks the
# sizes (default "100000 1000000").
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_NAME=pytorch_bench
. bench/lib.sh
SIZES=${BENCH_SIZES:-100000 1000000}
[ -x "$BIN/et-convert" ] || die "run 'make' first"
mkdir -p "$OUT"
$CC -std=c11 -O2 -Wall -Wextra -Werror bench/gen_host_et.c -o "$OUT/gen_host_et"

bench() { # label target command...
	local label=$1 target=$2 walls=() cpus=() rsss=() i
	shift 2
	for ((i = 0; i < RUNS; i++)); do
		/usr/bin/time -v -o "$OUT/pt_time.txt" "$@" >/dev/null 2>"$OUT/pt_cmd.stderr" ||
			{ cat "$OUT/pt_cmd.stderr" >&2; die "FAILED: $*"; }
		walls+=("$(tv_wall "$OUT/pt_time.txt")")
		cpus+=("$(tv_cpu "$OUT/pt_time.txt")")
		rsss+=("$(tv_rss "$OUT/pt_time.txt")")
	done
	printf '%-50s %8.2f s %8.2f s %9.1f MB   %s\n' "$label" "$(median "${walls[@]}")" \
		"$(median "${cpus[@]}")" "$(awk -v k="$(median "${rsss[@]}")" 'BEGIN { print k / 1024 }')" \
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
	bench "$n nodes + Kineto" "$target" "$BIN/et-convert" -q "$host" --kineto "$kin" -o /dev/null
	bench "$n nodes + Kineto, zstd on a 2nd thread (-T 1)" "" \
		"$BIN/et-convert" -q -T 1 "$host" --kineto "$kin" -o /dev/null
	bench "$n nodes, host only" "" "$BIN/et-convert" -q "$host" -o /dev/null
	bench "$n nodes, --compat chakra" "" "$BIN/et-convert" -q --compat chakra "$host" -o /dev/null
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
