#!/usr/bin/env bash
# Makes the hostile inputs of tests/bats/hostile.bats (issue 15) in DIR, so
# that none is committed: tiny files that claim or hold absurd sizes.
#
#   tests/make-hostile.sh DIR [NAME...]    (no NAME: all of them)
#
#   empty-nodes.etz   a 700-byte stream: rank 0 of 1, a GlobalMetadata,
#                     then 20,000,000 empty node messages
#   empty-nodes-N.et  a raw ET of a GlobalMetadata and N empty nodes, for
#                     N = the default --max-rank-nodes (4194304) and one more
#   zeros.et          2 GiB of zero bytes (a sparse file: no disk used),
#                     which reads as a raw ET of 2^31 empty messages
#
# Needs printf, head, truncate and zstd. Writes nothing else.
set -euo pipefail

dir=${1:?usage: make-hostile.sh DIR [NAME...]}
shift
mkdir -p "$dir"
cd "$dir"

# GlobalMetadata { version: "0.0.4" } with its varint length prefix.
meta() { printf '\x07\x0a\x050.0.4'; }

# An ETSTREAM section header (man 5 etkit-stream): rank 0 of world 1, no name.
stream_header() {
	printf '\x5e\x2a\x4d\x18\x16\x00\x00\x00ETSTREAM\x01\x00\x00\x00'
	printf '\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00'
}

make_empty_nodes_etz() {
	{
		stream_header
		{ meta; head -c 20000000 /dev/zero; } | zstd -19 -q -c
	} >empty-nodes.etz
}

make_empty_nodes_n() {
	local n
	for n in 4194304 4194305; do
		{ meta; head -c "$n" /dev/zero; } >"empty-nodes-$n.et"
	done
}

make_zeros() {
	rm -f zeros.et
	truncate -s 2G zeros.et
}

names=("$@")
[ ${#names[@]} -gt 0 ] || names=(empty-nodes.etz empty-nodes-N.et zeros.et)
for name in "${names[@]}"; do
	case $name in
	empty-nodes.etz) make_empty_nodes_etz ;;
	empty-nodes-N.et) make_empty_nodes_n ;;
	zeros.et) make_zeros ;;
	*)
		echo "make-hostile.sh: $name: not an input this script makes" >&2
		exit 2
		;;
	esac
done
