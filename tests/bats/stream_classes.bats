#!/usr/bin/env bats
# Rank classes in the stream (etkit-stream(5), CLASS FRAMES): et-stage writes
# a stage's template once per block of ranks and each rank as a rule; every
# reader expands a class rank into the very bytes et-stage --no-classes
# writes for it. The references are et-stage --no-classes (today's full
# ranks) and, for the format itself, a class stream laid out by hand here.
load common

DENSE="--model llama3-8b --dp 4 --tp 2 --pp 2 --layers 2 --seq 1024"
MOE="--model mixtral-8x7b --dp 2 --ep 2 --tp 2 --pp 2 --layers 2 --seq 1024"
INTER="--model llama3-8b --dp 2 --tp 2 --pp 2 --layers 4 --seq 1024 --schedule interleaved --global-batch 8 --micro-batch 1"
CP="--model llama3-8b --dp 2 --cp 2 --tp 2 --pp 2 --layers 2 --seq 1024"

le32() {
	printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
}

# frame TAG ID PAYLOAD-FILE: a skippable frame of etkit-stream(5), tag
# (8 bytes, printf escapes), id, then the payload file's bytes
frame() {
	printf '\x5e\x2a\x4d\x18'
	printf "$(le32 $((12 + $(stat -c %s "$3"))))"
	printf "$1"
	printf "$(le32 "$2")"
	cat "$3"
}

# header3 RANK: a version-3 section header of a world of 2, name "h"
header3() {
	printf '\x5e\x2a\x4d\x18\x17\x00\x00\x00ETSTREAM\x03\x00\x00\x00'
	printf "$(le32 "$1")"
	printf '\x02\x00\x00\x00\x01\x00h'
}

# The class of rank 0 of a 2-rank all-reduce, by hand: its GlobalMetadata
# (length, bytes), one piece (kind 0: a run of framed nodes, its length),
# then the nodes; p.zst is it compressed with stock zstd.
make_class() {
	et-synth coll --type all_reduce --size 1M --world 2 -o two.etz
	et-convert --ranks 0 --to et two.etz -o r0.et
	m=$(od -An -tu1 -N1 r0.et | tr -d ' ')
	n=$(($(stat -c %s r0.et) - 1 - m))
	[ "$m" -lt 128 ] && [ "$n" -lt 128 ]
	{
		head -c $((1 + m)) r0.et
		printf "\\x01\\x00$(printf '\\x%02x' "$n")"
		tail -c +$((2 + m)) r0.et
	} >p.bin
	zstd -qc p.bin >p.zst
	printf '\x00' >rule0 # no slot
}

@test "a class stream laid out by hand reads as the rank it stands for, in every tool" {
	make_class
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule0; } >h.etz
	et-convert --to et h.etz -o back.et
	cmp back.et r0.et
	et-validate h.etz >/dev/null
	# two ranks of one class: the second needs no class frame
	{ cat h.etz; header3 1; frame 'ETRULE\x00\x00' 0 rule0; } >h2.etz
	et-convert --ranks 1 --to et h2.etz -o back1.et
	cmp back1.et r0.et
	# --ranks skips a rank's expansion, not its checks
	et-convert --ranks 0 h2.etz -o /dev/null
}

@test "hostile class and rule frames are exit 3 naming the input and byte, without big allocations" {
	make_class
	z=$(stat -c %s p.zst)
	at_rule=$((20 + z + 8 + 23)) # class frame, then the section header
	check() { # FILE MESSAGE-PATTERN
		for t in et-convert et-validate et-sim; do
			run --separate-stderr bash -c "$(ulimit_v 400000)exec $t $1 >/dev/null"
			assert_failure 3
			[[ "$stderr" == $2 ]] || fail "$t $1: $stderr (expected $2)"
		done
	}
	{ frame 'ETCLASS\x00' 4096 p.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule0; } >a.etz
	check a.etz "*: a.etz: byte 0: class frame: class id 4096, expected below 4096"
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0; frame 'ETRULE\x00\x00' 1 rule0; } >b.etz
	check b.etz "*b.etz: *byte $at_rule: rule frame: class 1 is not defined before it"
	printf '\x01\x00\x00' >rule1 # one slot, which the class does not use
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule1; } >c.etz
	check c.etz "*c.etz: *byte $at_rule: rule frame (class 0): not as many slots as its class uses"
	printf '\x01' >rule2 # a slot count and nothing
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule2; } >c2.etz
	check c2.etz "*c2.etz: *byte $at_rule: rule frame (class 0): not as many slots as its class uses"
	# a piece claiming more bytes than the class holds
	{ head -c 9 p.bin; printf '\x00\xff\x7f'; tail -c +12 p.bin; } | zstd -qc >bad.zst
	{ frame 'ETCLASS\x00' 0 bad.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule0; } >d.etz
	check d.etz "*: d.etz: byte 0: class frame 0: pieces longer than the frame"
	# a class frame cut short
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule0; } | head -c $((20 + z / 2)) >e.etz
	check e.etz "*: e.etz: byte *"
	# a rule in a version-1 section
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0 | sed 's/ETSTREAM\x03/ETSTREAM\x01/'; frame 'ETRULE\x00\x00' 0 rule0; } >f.etz
	check f.etz "*f.etz: *byte $at_rule: rule frame outside a version-3 stream section"
	# a rule claiming 2 MiB (the file holds 3 bytes of it)
	{ frame 'ETCLASS\x00' 0 p.zst; header3 0; printf '\x5e\x2a\x4d\x18\x0c\x00\x20\x00ETRULE\x00\x00\x00\x00\x00\x00\x01\x00\x00'; } >g.etz
	check g.etz "*g.etz: *byte $at_rule: rule frame: over 1 MiB"
	# a class frame that decompresses past 256 MiB is refused as it grows
	head -c 300000000 /dev/zero | zstd -qc >huge.zst
	{ frame 'ETCLASS\x00' 0 huge.zst; header3 0; frame 'ETRULE\x00\x00' 0 rule0; } >h.etz
	[ "$(stat -c %s h.etz)" -lt 100000 ]
	run --separate-stderr bash -c "$(ulimit_v 1000000)exec et-convert h.etz >/dev/null"
	assert_failure 3
	[[ "$stderr" == *"class frame (the stream's classes are limited to 256 MiB): over "*" bytes decompressed" ]] || fail "$stderr"
}

@test "class ranks expand to exactly et-stage --no-classes' bytes: dense, MoE, interleaved, cp" {
	for p in "$DENSE" "$MOE" "$INTER" "$CP"; do
		# shellcheck disable=SC2086
		et-stage $p --class-block 4 -o c.etz
		et-stage $p -o c1.etz # world <= 64: block 1, every rank self-contained
		et-stage $p --no-classes -o n.etz
		[ "$(stat -c %s c.etz)" -lt "$(stat -c %s n.etz)" ] || fail "$p: not smaller"
		rm -f cs.* ns.* c1s.*
		et-convert --to et --split cs c.etz
		et-convert --to et --split c1s c1.etz
		et-convert --to et --split ns n.etz
		for f in ns.*.et; do
			cmp "$f" "c${f#n}" || fail "$p: $f"
			cmp "$f" "c1${f#n}" || fail "$p: $f (block 1)"
		done
		# a stream output is the ranks in full: as --no-classes wrote them
		et-convert c.etz -o x.etz
		cmp x.etz n.etz
		et-convert --ranks 5 c.etz --to et -o r5.et
		cmp r5.et ns.5.et
	done
}

@test "shards starting at a multiple of the class block concatenate to the whole stream; any shard reads alone" {
	et-stage $DENSE --class-block 4 -o all.etz
	et-stage $DENSE --class-block 4 --ranks 0-3 -o a.etz
	et-stage $DENSE --class-block 4 --ranks 4-11 -o b.etz
	et-stage $DENSE --class-block 4 --ranks 12-15 -o c.etz
	cat a.etz b.etz c.etz | cmp - all.etz
	# a shard off the block boundary carries its class: it reads alone
	et-stage $DENSE --class-block 4 --ranks 5-6 -o d.etz
	et-stage $DENSE --no-classes --ranks 5-6 -o dn.etz
	et-convert d.etz -o d2.etz
	cmp d2.etz dn.etz
	# the default block for 16 ranks is 1: arbitrary shards concatenate
	et-stage $DENSE -o whole.etz
	et-stage $DENSE --ranks 0-4 -o s1.etz
	et-stage $DENSE --ranks 5-15 -o s2.etz
	cat s1.etz s2.etz | cmp - whole.etz
}

@test "every tool reads a class stream as the same ranks: et-validate, et-sim, et-viz on a rank, et-synth transform" {
	et-stage $MOE --class-block 4 -o c.etz
	et-stage $MOE --no-classes -o n.etz
	diff <(et-validate c.etz) <(et-validate n.etz)
	diff <(et-validate --format json c.etz | jq -c 'del(.timing)') <(et-validate --format json n.etz | jq -c 'del(.timing)')
	diff <(et-sim c.etz) <(et-sim n.etz)
	et-sim c.etz | grep -q 'simulated iteration time'
	et-viz --rank 5 - -o c.dot <c.etz # the same input name in both drawings
	et-viz --rank 5 - -o n.dot <n.etz
	cmp c.dot n.dot
	et-synth transform --scale-compute 2 c.etz -o tc.etz
	et-synth transform --scale-compute 2 n.etz -o tn.etz
	cmp tc.etz tn.etz
	# old readers refuse a class rank rather than read it wrong: version 3
	[ "$(hexbytes c.etz "$(($(od -An -tu4 -j4 -N4 c.etz) + 8 + 16))" 2)" = "03 00" ]
}
