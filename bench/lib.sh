# bench/lib.sh: what the benchmark scripts share; sourced from the repository
# root after `set -euo pipefail`, with BENCH_NAME set (for messages).
#
# Settings (environment): BENCH_RUNS (3), BENCH_SEED (1), BUILD (build/rel),
# BIN (bin), CC (cc). Generated inputs and scratch files go to bench/out/,
# the helper programs to build/bench/.
RUNS=${BENCH_RUNS:-3}
SEED=${BENCH_SEED:-1}
BUILD=${BUILD:-build/rel}
BIN=${BIN:-bin}
CC=${CC:-cc}
OUT=bench/out
TOOLS=build/bench

die() {
	echo "$BENCH_NAME: $*" >&2
	exit 1
}

# bench_tools TOOL...: check that `make` has run, and build bench/TOOL.c
# against the same libcommon as the tools (so that they measure the same
# code) when it is missing or older than its source or the library.
bench_tools() {
	[ -f "$BUILD/libcommon.a" ] && [ -f "$BUILD/libetapp.a" ] ||
		die "$BUILD/libcommon.a or libetapp.a missing: run 'make' first"
	[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
	mkdir -p "$OUT" "$TOOLS"
	local t libs="-lprotobuf-c -lzstd -lz -lcjson -lyaml -lgvc -lcgraph -lm -lpthread"
	for t in "$@"; do
		if [ ! -x "$TOOLS/$t" ] || [ "bench/$t.c" -nt "$TOOLS/$t" ] ||
			[ "$BUILD/libcommon.a" -nt "$TOOLS/$t" ]; then
			# shellcheck disable=SC2086
			$CC -std=c11 -O2 -g -Wall -Wextra -Werror -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 \
				-Ilibcommon -I"$BUILD" "bench/$t.c" "$BUILD/libetapp.a" "$BUILD/libcommon.a" -o "$TOOLS/$t" $libs
		fi
	done
}

# "h:mm:ss" or "m:ss.cc" -> seconds
to_secs() { awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }' <<<"$1"; }

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Figures of one /usr/bin/time -v report: wall seconds, CPU (user + system)
# seconds, peak RSS in kB.
tv_wall() { to_secs "$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$1")"; }
tv_cpu() { awk -F': ' '/(User|System) time \(seconds\)/ { s += $2 } END { print s }' "$1"; }
tv_rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }
