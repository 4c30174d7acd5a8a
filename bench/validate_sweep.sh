#!/usr/bin/env bash
# bench/validate_sweep.sh OLD_BIN NEW_BIN [PLANS] [SEED]: et-validate's
# reports of two builds on random et-stage plans, about half of them with
# one rank mutated, byte for byte (text and JSON, stdout, stderr and exit
# status). For changes to the checks' machinery that must not change what
# they find (the shared summaries and the deadlock check over rank classes
# were checked this way against the build before them).
#
# A plan: llama3-8b, 2 or 4 layers, dp/tp/pp in {1, 2, 4} and one of gpipe,
# interleaved, cp 2, fsdp, prefill, MoE with ep 2, decode. A mutation, on
# one random rank's random comm node through et-convert's JSONL: its
# pg_name set to another group, its comm_src/comm_dst changed, its comm_tag
# bumped, the node deleted, or two pg_names of the rank swapped.
#
# Prints one line per plan and a summary; exit 0 when no report differs.
# The inputs stay in bench/out/validate_sweep/.
set -euo pipefail
[ $# -ge 2 ] || {
	echo "usage: bench/validate_sweep.sh OLD_BIN NEW_BIN [PLANS] [SEED]" >&2
	exit 2
}
OLD=$(cd "$1" && pwd) NEW=$(cd "$2" && pwd)
PLANS=${3:-30}
RANDOM=${4:-1}
cd "$(dirname "$0")/.."
D=bench/out/validate_sweep
rm -rf "$D" && mkdir -p "$D"

pick() { # pick WORD...: one of the words
	local a=("$@")
	echo "${a[RANDOM % ${#a[@]}]}"
}

# mutate IN.jsonl OUT.jsonl KIND: one comm node of one rank changed
mutate() {
	local in=$1 out=$2 kind=$3 world rank
	world=$(head -1 "$in" | jq '.world_size // 1')
	rank=$((RANDOM % world))
	local ids
	ids=$(jq -c --argjson r "$rank" 'select(.rank == $r and (.type // "" | test("COMM_(COLL|SEND|RECV)_NODE"))) | .id' "$in" | tr '\n' ' ')
	# shellcheck disable=SC2206
	local arr=($ids)
	[ ${#arr[@]} -gt 0 ] || return 1
	local id=${arr[RANDOM % ${#arr[@]}]} other=${arr[RANDOM % ${#arr[@]}]} v=$((RANDOM % 5 + 1)) peer=$((RANDOM % world))
	jq -c --argjson r "$rank" --argjson id "$id" --argjson o "$other" --arg k "$kind" \
		--argjson v "$v" --argjson p "$peer" --slurp '
		def pgof($i): [.[] | select(.rank == $r and .id == $i) | .attr[]? | select(.name == "pg_name") | .stringVal][0];
		(pgof($id)) as $pa | (pgof($o)) as $pb |
		[.[] | if .rank != $r then .
			elif $k == "del" and .id == $id then empty
			elif .id == $id then .attr = [.attr[]? |
				if $k == "pg" and .name == "pg_name" then .stringVal = ($v | tostring)
				elif $k == "peer" and (.name == "comm_src" or .name == "comm_dst") then .int32Val = $p
				elif $k == "tag" and .name == "comm_tag" then .int32Val += 1
				elif $k == "swap" and .name == "pg_name" and $pb != null then .stringVal = $pb
				else . end]
			elif $k == "swap" and .id == $o then .attr = [.attr[]? |
				if .name == "pg_name" and $pa != null then .stringVal = $pa else . end]
			else . end] | .[]' "$in" >"$out"
}

diffs=0 runs=0 folded=0
for ((i = 0; i < PLANS; i++)); do
	layers=$(pick 2 4) dp=$(pick 1 2 4) tp=$(pick 1 2 4) pp=$(pick 1 2)
	extra=$(pick "" "--schedule gpipe" "--cp 2" "--fsdp" "--mode prefill" \
		"--arch moe --ep 2 --experts 4" "--mode decode --new-tokens 2")
	[ "$pp" -gt 1 ] && [ "$(pick 0 1)" = 1 ] && extra="--schedule interleaved" layers=4
	f=$D/p$i.etz
	# shellcheck disable=SC2086
	"$NEW/et-stage" -q --model llama3-8b --layers "$layers" --dp "$dp" --tp "$tp" --pp "$pp" $extra -o "$f" ||
		continue
	kind=$(pick none none pg peer tag del swap)
	in=$f
	if [ "$kind" != none ]; then
		"$NEW/et-convert" -q -t jsonl "$f" -o "$D/p$i.jsonl"
		if mutate "$D/p$i.jsonl" "$D/m$i.jsonl" "$kind"; then
			in=$D/m$i.etz
			"$NEW/et-convert" -q "$D/m$i.jsonl" -o "$in"
		else
			kind=none
		fi
	fi
	for fmt in text json; do
		runs=$((runs + 1))
		a=$("$OLD/et-validate" -F "$fmt" "$in" 2>&1; echo "rc=$?")
		b=$("$NEW/et-validate" -F "$fmt" "$in" 2>&1; echo "rc=$?")
		if [ "$a" != "$b" ]; then
			diffs=$((diffs + 1))
			echo "DIFF plan $i ($kind, $fmt): $in"
		fi
	done
	t=$("$NEW/et-validate" --timing "$in" 2>&1 >/dev/null || true)
	k=$(sed -n 's/^timing: deadlock check over \([0-9]*\) rank classes.*/\1/p' <<<"$t")
	[ -n "$k" ] && folded=$((folded + 1))
	echo "plan $i: dp $dp tp $tp pp $pp layers $layers ${extra:-1f1b}, mutation $kind${k:+, deadlock check over $k classes}"
done
echo "validate_sweep: $runs reports compared, $diffs differ; $folded of $PLANS plans checked for deadlocks over rank classes"
[ "$diffs" = 0 ]
