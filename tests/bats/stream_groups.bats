#!/usr/bin/env bats
# The comm groups a stream carries (etkit-stream(5), COMM GROUPS): writers
# put each rank's groups in its section header, so et-stage | et-sim and
# et-convert --from hlo | et-sim need no side file; readers check them.
# Expected results come from the comm-group files the writers already wrote
# (--write-comm-groups, checked elsewhere against STAGE's layout) and from
# bytes laid out by hand here.
load common

# le32 N: N as 4 little-endian bytes, printf escapes
le32() {
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
}

# section OUT NAME RANK WORLD RECORDS: a one-rank stream whose header holds
# RECORDS (printf escapes) after the name, and the ET of rank 0 of a 2-rank
# all-reduce (the zstd frames of r0.etz, made by setup_r0)
section() {
	local name=$2 rest
	rest=$(printf "$5" | wc -c)
	{
		printf '\x5e\x2a\x4d\x18'
		printf "$(le32 $((22 + ${#name} + rest)))"
		printf 'ETSTREAM\x01\x00\x00\x00'
		printf "$(le32 "$3")$(le32 "$4")"
		printf "$(printf '\\x%02x' "${#name}")"
		printf '\x00%s' "$name"
		printf "$5"
		tail -c +$((8 + $(od -An -tu4 -j4 -N4 r0.etz) + 1)) r0.etz
	} >"$1"
}

setup_r0() {
	et-synth coll --type all_reduce --size 1M --world 2 -o two.etz
	et-convert --ranks 0 two.etz -o r0.etz
}

# grps PAYLOAD: a GRPS record holding PAYLOAD (printf escapes)
grps() {
	printf 'GRPS%s%s' "$(le32 "$(printf "$1" | wc -c)")" "$1"
}

@test "et-stage | et-sim and | et-validate need no --comm-groups: the same output as with the file (dense, MoE, cp, interleaved)" {
	plans=("--model llama3-8b --dp 4 --tp 2 --pp 2 --layers 4 --seq 1024"
		"--model mixtral-8x7b --dp 2 --ep 2 --tp 2 --pp 2 --layers 2 --seq 1024"
		"--model llama3-8b --dp 2 --cp 2 --tp 2 --pp 2 --layers 4 --seq 1024"
		"--model llama3-8b --dp 2 --tp 2 --pp 2 --layers 4 --schedule interleaved --seq 1024 --global-batch 8 --micro-batch 1")
	for p in "${plans[@]}"; do
		# shellcheck disable=SC2086
		et-stage $p --write-comm-groups g.json -o s.etz || fail "et-stage $p"
		et-sim --comm-groups g.json s.etz >with.txt
		et-stage $p | et-sim >without.txt || fail "et-sim without the file: $p"
		cmp with.txt without.txt || fail "$p: et-sim differs"
		grep -q 'simulated iteration time' without.txt
		et-validate --comm-groups g.json s.etz >vwith.txt
		et-stage $p | et-validate >vwithout.txt || fail "et-validate without the file: $p"
		cmp vwith.txt vwithout.txt || fail "$p: et-validate differs"
		grep -q '0 errors, 0 warnings' vwithout.txt || fail "$p: $(cat vwithout.txt)"
		# et-convert writes ASTRA-sim's file from the stream: the same groups
		et-convert s.etz --write-comm-groups g2.json -o /dev/null
		[ "$(jq -S . g.json)" = "$(jq -S . g2.json)" ] || fail "$p: groups differ"
	done
}

@test "shards concatenate to the whole stream, and each carries the groups of its ranks" {
	args=(--model llama3-8b --dp 2 --tp 2 --pp 2 --layers 2)
	et-stage "${args[@]}" --write-comm-groups g.json -o all.etz
	et-stage "${args[@]}" --ranks 0-2 -o a.etz
	et-stage "${args[@]}" --ranks 3-7 -o b.etz
	cat a.etz b.etz | cmp - all.etz
	et-convert b.etz --write-comm-groups gb.json -o /dev/null
	# exactly the groups of g.json that hold one of ranks 3-7
	want=$(jq -Sc 'with_entries(select(.value | any(. >= 3 and . <= 7)))' g.json)
	[ "$(jq -Sc . gb.json)" = "$want" ]
	# a shard converted on its own keeps them, byte for byte (et-convert
	# writes ranks in full: as et-stage --no-classes does)
	et-stage "${args[@]}" --no-classes --ranks 3-7 -o bn.etz
	et-convert b.etz -o b2.etz
	cmp bn.etz b2.etz
	# plain ETs have no place for them: --to et is the rank's raw ET, as before
	et-convert --ranks 4 b.etz --to et -o r4.et
	zstd -dcq <(et-convert --ranks 4 b.etz) | cmp - r4.et
}

@test "a dp group of 1,024 ranks costs a few bytes: llama3-405b's rank header holds 3 groups in 34 bytes" {
	et-stage --model llama3-405b --dp 1024 --tp 8 --pp 16 --ranks 5000 --no-classes -o r.etz
	# payload length at byte 4; the name (llama3-405b, 11 bytes) ends at 22 + 11
	len=$(od -An -tu4 -j4 -N4 r.etz | tr -d ' ')
	rest=$((len - 22 - 11))
	[ "$rest" -le 40 ] || fail "$rest bytes of groups"
	[ "$(dd if=r.etz bs=1 skip=$((8 + 33)) count=4 2>/dev/null)" = GRPS ]
	# rank 5000 = dp 904, tp 4 (dp fastest): its tp group is 904 + 1024 k
	et-convert r.etz --write-comm-groups g.json -o /dev/null
	[ "$(jq -c '[.[] | length] | sort' g.json)" = "[1,8,1024]" ]
	jq -e 'to_entries | map(.value) | any(. == [904,1928,2952,3976,5000,6024,7048,8072])' g.json
	jq -e 'to_entries | map(.value) | any(. == [range(4096; 5120)])' g.json
}

@test "et-convert --from hlo / stablehlo | et-sim needs no side file; et-synth coll --group-size neither" {
	f="$DATA/compiler/hespas_split_replica_groups.mlir"
	et-convert -q "$f" --write-comm-groups g.json -o x.etz
	[ "$(jq -c . g.json)" = '{"1":[0,1],"2":[2,3]}' ]
	et-sim -q --comm-groups g.json x.etz >with.txt
	et-convert -q "$f" | et-sim -q >without.txt
	cmp with.txt without.txt
	et-validate -q x.etz
	et-synth coll --type all_reduce --size 1M --world 8 --group-size 4 --write-comm-groups cg.json -o c.etz
	et-sim --comm-groups cg.json c.etz >with.txt
	et-sim c.etz >without.txt
	cmp with.txt without.txt
	et-convert c.etz --write-comm-groups cg2.json -o /dev/null
	[ "$(jq -Sc . cg.json)" = "$(jq -Sc . cg2.json)" ]
	# a transform keeps them
	et-synth transform --scale-compute 2 c.etz | et-sim >t.txt
}

@test "a group named with other members by another rank is bad data: exit 3 naming the input, rank and byte" {
	et-synth coll --type all_reduce --size 1M --world 8 --group-size 4 -o a.etz
	et-synth coll --type all_reduce --size 1M --world 8 --group-size 2 -o b.etz
	et-convert --ranks 0 a.etz -o r0.etz
	et-convert --ranks 1 b.etz -o r1.etz
	cat r0.etz r1.etz >mix.etz
	for t in et-sim et-validate "et-convert -o /dev/null"; do
		run --separate-stderr $t mix.etz
		assert_failure 3
		[[ "$stderr" == "${t%% *}: mix.etz: rank 1: byte "*": comm group \"1\": other members than mix.etz rank 0 gives it (byte "*")" ]] ||
			fail "$t: $stderr"
	done
	# the byte named holds the group: its name length (1), then "1"
	b=$(echo "$stderr" | sed -n 's/.*rank 1: byte \([0-9]*\):.*/\1/p')
	[ "$(hexbytes mix.etz "$b" 2)" = "01 31" ]
	# --comm-groups overrides what a stream carries, which is still checked
	et-synth coll --type all_reduce --size 1M --world 8 --group-size 4 --write-comm-groups g.json -o /dev/null
	run et-sim --comm-groups g.json mix.etz
	assert_failure 3
}

@test "hostile group records are exit 3 with their byte offset, and no big allocation" {
	setup_r0
	n=all_reduce_2npus_1MB
	at=$((8 + 22 + ${#n} + 8)) # the GRPS payload
	# a valid record first: group "1" of ranks 0 and 1
	section ok.etz "$n" 0 2 "$(grps '\x01\x01\x31\x01\x00\x02\x01')"
	et-convert ok.etz --write-comm-groups g.json -o /dev/null
	[ "$(jq -c . g.json)" = '{"1":[0,1]}' ]
	while IFS='|' read -r payload off why; do
		section h.etz "$n" 0 2 "$(grps "$payload")"
		for t in et-convert et-sim et-validate; do
			run --separate-stderr bash -c "$(ulimit_v 400000)exec $t h.etz >/dev/null"
			assert_failure 3
			[ "$stderr" = "$t: h.etz: rank 0: byte $((at + off)): comm groups: $why" ] ||
				fail "$t [$payload]: $stderr"
		done
	done <<'EOF'
\xff\xff\xff\xff\xff\xff\xff\xff\x7f|0|group count not in 1..1024
\x01\x01\x31\x01\x05\x01|4|member beyond the world
\x01\x01\x31\x01\x01\x02\x01|4|member beyond the world
\x01\x01\x31\x01\x00|4|truncated run
\x01\x01\x31\xff\xff\xff\xff\x0f|3|run count not in 1..the bytes left
\x01\x01\x31\x01\x00\xff\xff\xff\xff\x0f\x01|4|run member count not in 1..the world size
\x01\x01\x31\x02\x00\x01\x01\x01|6|a one-member run before another run
\x01\x01\x31\x02\x00\x02\x01\x01\x01|7|runs not ascending and maximal (the greedy split of the members)
\x02\x01\x31\x01\x00\x01\x01\x31\x01\x01\x01|6|a group named twice
\x01\x00|1|group name length not in 1..255
\x01\x01\x31\x81\x00\x01\x00\x02\x01|3|a varint longer than it needs to be
\x01\x05\x31|1|truncated group name
\x01\x01\x00\x01\x00\x01|2|NUL byte in a group name
\x01\x01\x31\x01\x00\x01\x00|6|bytes after the last group
EOF
	# a record longer than the header holds
	section h.etz "$n" 0 2 'GRPS\xff\x00\x00\x00\x01'
	run --separate-stderr et-convert h.etz -o /dev/null
	assert_failure 3
	[ "$stderr" = "et-convert: h.etz: rank 0: byte $((at - 8)): comm groups: truncated header record" ]
	# more than 64 KiB of records after the name
	big=$(head -c 70000 /dev/zero | tr '\0' 'x')
	section h.etz "$n" 0 2 "XXXX$(le32 ${#big})$big"
	run --separate-stderr et-convert h.etz -o /dev/null
	assert_failure 3
	[ "$stderr" = "et-convert: h.etz: rank 0: byte $((at - 8)): stream header: 70008 bytes of records after the name, at most 65536" ]
	# a record of another tag is skipped: old and new records side by side
	section o.etz "$n" 0 2 "XTRA$(le32 3)abc$(grps '\x01\x01\x31\x01\x00\x02\x01')"
	et-convert o.etz --write-comm-groups g.json -o /dev/null
	[ "$(jq -c . g.json)" = '{"1":[0,1]}' ]
}
