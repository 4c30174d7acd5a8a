#!/usr/bin/env bash
# Regenerate the fuzz seeds in tests/fuzz/seeds/<target>/ (committed; run
# this only when the formats change). Needs `make` done (bin/et-convert and
# build/rel/libcommon.a). Seeds stay small (< 20 KB per target): libFuzzer
# mutates small inputs far better than big ones.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BIN:-bin}
BUILD=${BUILD:-build/rel}
GEN=build/bench/gen_et
S=tests/fuzz/seeds
D=tests/data
mkdir -p build/bench "$S/fuzz_et_reader" "$S/fuzz_stream_reader" "$S/fuzz_json_reader" \
	"$S/fuzz_json_writer"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Ilibcommon -I"$BUILD" \
	bench/gen_et.c "$BUILD/libcommon.a" -o "$GEN" -lprotobuf-c -lzstd -lz -lcjson -lm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$GEN" --nodes 6 --seed 7 -o "$tmp/gen6.et"
"$GEN" --nodes 3 --seed 8 --ranks 2 --format stream -o "$tmp/gen3x2.etz"
zstd -qdc "$D/reference/pt2_1.1.1.et.zst" >"$tmp/pt2.et"
"$BIN/et-convert" -q "$D/chakra-generator/ALL_REDUCE" -o "$tmp/allreduce2.etz"

# Binary readers: raw ETs of every node kind, compressed ETs, streams.
E=$S/fuzz_et_reader
for f in ALL_REDUCE.0 BARRIER.1 one_comm_recv_node.0 one_comm_send_node.1 \
	one_metadata_node_all_types.0 one_remote_mem_load_node.0 two_comp_nodes_dependent.1; do
	cp "$D/chakra-generator/$f.et" "$E/$f.et"
done
cp "$tmp/gen6.et" "$E/gen6.et"
gzip -9nc "$tmp/gen6.et" >"$E/gen6.et.gz"
cp "$D/reference/pt2_1.1.1.et.zst" "$E/pt2_1.1.1.et.zst"
cp "$tmp/gen3x2.etz" "$E/gen3x2.etz"
cp "$tmp/allreduce2.etz" "$E/allreduce2.etz"
# One node past the per-rank node limit (et_input.h), 4 MiB of empty nodes
# in 160 bytes of zstd.
tests/make-hostile.sh "$tmp" empty-nodes-N.et
zstd -19 -qc "$tmp/empty-nodes-4194305.et" >"$E/limit-nodes.et.zst"

# Stream reader: a layout byte (see fuzz_stream_reader.c), then its payload.
T=$S/fuzz_stream_reader
{ printf '\1'; cat "$tmp/gen6.et"; } >"$T/l1-gen6"
{ printf '\1'; cat "$D/chakra-generator/one_metadata_node_all_types.0.et"; } >"$T/l1-meta"
{ printf '\2'; cat "$tmp/pt2.et"; } >"$T/l2-pt2"
{ printf '\3'; cat "$D/chakra-generator/two_comp_nodes_dependent.0.et"; } >"$T/l3-two"
{ printf '\0'; zstd -qc "$D/chakra-generator/ALL_GATHER.0.et"; } >"$T/l0-frames"
# Layout 0 with a 2-rank stream, its first header replaced by ours.
plen=$(od -An -tu4 -j4 -N4 "$tmp/allreduce2.etz" | tr -d ' ')
{ printf '\0'; tail -c +"$((8 + plen + 1))" "$tmp/allreduce2.etz"; } >"$T/l0-stream"
# Layout 0 with a compiled program's 8 ranks: a base and 7 delta ranks.
"$BIN/et-convert" -q samples/clarkechong_shardmap.after_spmd_partitioner.txt -o "$tmp/sm.etz"
plen=$(od -An -tu4 -j4 -N4 "$tmp/sm.etz" | tr -d ' ')
{ printf '\0'; tail -c +"$((8 + plen + 1))" "$tmp/sm.etz"; } >"$T/l0-deltas"
# Layout 4: a 100-byte base (its first byte, 64, cuts R at 100 of 400) and
# 300 bytes of operations: copy the base whole, then 295 literal bytes.
{
	printf '\4\100'
	head -c 99 /dev/zero | tr '\0' a
	printf '\311\001\000\316\004'
	head -c 295 /dev/zero | tr '\0' b
} >"$T/l4-ops"

# JSON reader: our JSON and JSONL of a few ETs.
J=$S/fuzz_json_reader
"$BIN/et-convert" -q --to json "$D/chakra-generator/ALL_REDUCE" -o "$J/allreduce2.json"
"$BIN/et-convert" -q --to jsonl "$tmp/gen3x2.etz" -o "$J/gen3x2.jsonl"
"$BIN/et-convert" -q --to jsonl "$D/chakra-generator/one_metadata_node_all_types.0.et" \
	-o "$J/meta_all_types.jsonl"
"$BIN/et-convert" -q --to json "$D/chakra-generator/one_comm_send_node.0.et" -o "$J/send.json"

# JSON writer: one message without its length prefix, after a selector byte
# (bit 0: GlobalMetadata; bit 1: write a "rank" key; bit 2: --all-fields).
# msg FILE INDEX: message INDEX (0 = GlobalMetadata) of the raw ET FILE.
msg() {
	local f=$1 want=$2 off=0 i=0 len shift byte
	while :; do
		len=0 shift=0
		while :; do
			byte=$(od -An -tu1 -j"$off" -N1 "$f" | tr -d ' ')
			off=$((off + 1))
			len=$((len | (byte & 127) << shift))
			shift=$((shift + 7))
			((byte < 128)) && break
		done
		if ((i == want)); then
			# (not tail | head: tail's SIGPIPE would fail the pipeline)
			dd if="$f" bs=1 skip="$off" count="$len" status=none
			return
		fi
		off=$((off + len))
		i=$((i + 1))
	done
}
W=$S/fuzz_json_writer
{ printf '\1'; msg "$tmp/gen6.et" 0; } >"$W/meta-gen6"
{ printf '\0'; msg "$tmp/gen6.et" 1; } >"$W/node-gen6-1"
{ printf '\2'; msg "$tmp/gen6.et" 2; } >"$W/node-gen6-2"
{ printf '\0'; msg "$D/chakra-generator/one_metadata_node_all_types.0.et" 1; } >"$W/node-all-types"
{ printf '\0'; msg "$D/chakra-generator/one_comm_send_node.0.et" 1; } >"$W/node-send"
{ printf '\2'; msg "$tmp/pt2.et" 5; } >"$W/node-pt2-5"
{ printf '\4'; msg "$tmp/gen6.et" 2; } >"$W/node-gen6-2-all"
{ printf '\4'; } >"$W/node-empty-all"
{ printf '\1'; msg "$tmp/pt2.et" 0; } >"$W/meta-pt2"

# et-sim configuration: a mode byte (see fuzz_sim_config.c: 0 network YAML,
# 1 system JSON, 2 KEY=VALUE lines; +4 starts from the default network), then
# the text. Network and system files are ASTRA-sim's (samples/ and its
# HGX-H100-validated examples).
C=$S/fuzz_sim_config
mkdir -p "$C"
{ printf '\0'; cat samples/Ring_8npus.yml; } >"$C/net-ring8.yml"
{ printf '\0'; printf 'topology: [ Switch ]\nnpus_count: [ 8 ]\nbandwidth: [ 400.0 ]  # GB/s\n'
	printf 'latency: [ 936.25 ]  # ns\n'; } >"$C/net-hgx.yml"
{ printf '\0'; printf 'topology:\n  - Ring\n  - FullyConnected\n  - Switch\nnpus_count: [ 2, 4, 2 ]\n'
	printf 'bandwidth: [ 200.0, 100.0, 50.0 ]\nlatency: [ 100.0, 500.0, 1000.0 ]\n'; } >"$C/net-3d.yml"
{ printf '\5'; cat samples/Ring_4chunks.json; } >"$C/sys-ring4chunks.json"
{ printf '\5'; printf '{\n    "scheduling-policy": "LIFO",\n    "endpoint-delay": 10,\n'
	printf '    "active-chunks-per-dimension": 2,\n    "preferred-dataset-splits": 4,\n'
	printf '    "all-reduce-implementation": [\n        "ring"\n    ],\n'
	printf '    "all-to-all-implementation": [\n        "direct"\n    ],\n'
	printf '    "collective-optimization": "localBWAware",\n    "local-mem-bw": 3350,\n'
	printf '    "boost-mode": 0,\n    "memory-type": "NO_MEMORY_EXPANSION"\n}\n'; } >"$C/sys-hgx.json"
{ printf '\2'; printf 'topology=Ring,FullyConnected\nnpus_count=4/2\nbandwidth=50,100\n'
	printf 'latency=500,100\nall-reduce-implementation=ring,direct4\n'
	printf 'all-to-all-implementation=oneHalvingDoubling\n'; } >"$C/kv-net"
{ printf '\6'; printf 'scheduling-policy=FIFO\ncollective_optimization=baseline\n'
	printf 'compute-model=systolic\nsystolic-dataflow=os\nsystolic-rows=32\nmem-latency=100\n'
	printf 'mem-bandwidth=12.5\nroofline-enabled=1\npeak-perf=900\nsimulate-collectives=on\n'
	printf 'boost-mode=1\nendpoint-delay=20\n'; } >"$C/kv-sys"
# The chunk-count bound (cfg.c): at it, and one past it.
{ printf '\6'; printf 'preferred-dataset-splits=4096\n'; } >"$C/kv-splits-4096"
{ printf '\6'; printf 'preferred-dataset-splits=4097\n'; } >"$C/kv-splits-4097"

# Process groups: bit 0 of the first byte picks a process-group node's
# inputs.values (0) or a comm-group file (1), then the text.
P=$S/fuzz_pg
mkdir -p "$P"
{ printf '\0'; printf '%s' "['[{\"pg_name\": \"0\", \"backend_id\": 82149104, \"backend_config\": \"cuda:nccl\", \"ranks\": [], \"group_size\": 2, \"group_count\": 1}]']"; } >"$P/values-chakra-test"
{ printf '\0'; printf '%s' '["[{\"pg_name\": \"5\", \"ranks\": [0, 1], \"group_size\": 2}, {\"pg_name\": 0, \"ranks\": []}]"]'; } >"$P/values-json-list"
{ printf '\0'; printf '%s' ' [{"pg_name": "1", "ranks": [3, 1, 1, 4294967295]}]'; } >"$P/values-bare"
{ printf '\1'; cat "$D/sim/groups_even_odd.json"; } >"$P/file-even-odd"
{ printf '\1'; cat "$D/sim/groups_uneven.json"; } >"$P/file-uneven"
{ printf '\1'; printf '{"1": [0, 1],\n "1": [2, 2.5]}'; } >"$P/file-bad"

# et-validate's checks: an options byte (see fuzz_validate.c: 1 astra, 2
# stats, 4 strict, 8 reading thread, 16/32 max-per-code), then JSONL traces
# with the defects the checks look for, and two real ETs.
V=$S/fuzz_validate
mkdir -p "$V"
H0='{"rank":0,"world_size":2,"name":"t","metadata":{"version":"0.0.4"}}'
H1='{"rank":1,"world_size":2,"name":"t","metadata":{"version":"0.0.4"}}'
CPU='{"name":"is_cpu_op","boolVal":false}'
comp() { echo "{\"rank\":$1,\"id\":$2,\"name\":\"c$2\",\"type\":\"COMP_NODE\",\"durationMicros\":$3,\"dataDeps\":[$4],\"ctrlDeps\":[$5],\"attr\":[$CPU]}"; }
coll() { echo "{\"rank\":$1,\"id\":$2,\"name\":\"ar$2\",\"type\":\"COMM_COLL_NODE\",\"dataDeps\":[$5],\"attr\":[$CPU,{\"name\":\"comm_type\",\"int64Val\":$3},{\"name\":\"comm_size\",\"int64Val\":$4},{\"name\":\"pg_name\",\"stringVal\":\"$6\"}]}"; }
p2p() { echo "{\"rank\":$1,\"id\":$2,\"name\":\"$3$2\",\"type\":\"COMM_$3_NODE\",\"dataDeps\":[$8],\"attr\":[$CPU,{\"name\":\"comm_src\",\"int32Val\":$4},{\"name\":\"comm_dst\",\"int32Val\":$5},{\"name\":\"comm_tag\",\"int32Val\":$6},{\"name\":\"comm_size\",\"int64Val\":$7}]}"; }
pgdef() { printf '{"rank":%s,"id":%s,"name":"## process_group:init ##","type":"METADATA_NODE","inputs":{"values":"[%s[{\\"pg_name\\": \\"5\\", \\"ranks\\": [0, 1]}]%s]"},"attr":[%s]}\n' "$1" "$2" "'" "'" "$CPU"; }
{ printf '\2'; echo "$H0"; pgdef 0 9; comp 0 1 5 "" ""; coll 0 2 0 1024 1 5; p2p 0 3 SEND 0 1 7 64 2
	echo "$H1"; pgdef 1 9; comp 1 1 5 "" ""; coll 1 2 0 1024 1 5; p2p 1 3 RECV 0 1 7 64 2; } >"$V/clean-2ranks"
{ printf '\5'; echo "$H0"; comp 0 1 0 "1" "7"; comp 0 2 3 "3" ""; comp 0 3 3 "2" ""; comp 0 2 1 "" ""
	echo '{"rank":0,"id":4,"name":"m","type":"METADATA_NODE","attr":[{"name":"is_cpu_op","int32Val":1}]}'; } >"$V/defects"
{ printf '\10'; echo "$H0"; p2p 0 1 RECV 1 0 3 8 ""; p2p 0 2 SEND 0 1 4 8 1
	echo "$H1"; p2p 1 1 RECV 0 1 4 8 ""; p2p 1 2 SEND 1 0 3 8 1; } >"$V/p2p-deadlock"
{ printf '\3'; echo "$H0"; coll 0 1 0 1024 "" 0; coll 0 2 1 64 1 0
	echo "$H1"; coll 1 1 0 2048 "" 0; } >"$V/coll-mismatch"
{ printf '\0'; cat "$D/chakra-generator/ALL_REDUCE.0.et"; } >"$V/allreduce.0.et"
{ printf '\26'; cat "$D/chakra-generator/one_comm_send_node.1.et"; } >"$V/send.1.et"

# et-sim end to end: an options byte (see fuzz_sim.c: 1 json, 2 critical
# path, 4 no closed form, 8 no fold, 16/32/48 a --set list), then a trace.
M=$S/fuzz_sim
mkdir -p "$M"
{ printf '\0'; cat "$D/sim/p2p.jsonl"; } >"$M/p2p"
{ printf '\3'; cat "$D/sim/overlap.jsonl"; } >"$M/overlap"
{ printf '\22'; cat "$D/sim/compute.jsonl"; } >"$M/compute"
{ printf '\14'; cat "$D/sim/groups8_uneven.jsonl"; } >"$M/groups8-uneven"
{ printf '\40'; cat "$D/sim/coll_missing.jsonl"; } >"$M/coll-missing"
{ printf '\60'; "$BIN/et-convert" -q --to jsonl "$D/chakra-generator/ALL_REDUCE"; } >"$M/allreduce2"

du -b -s "$S"/*

# layerdag-sample's diffusion-model files: small models of the current
# version written by the model's own writer, headers at the limits, a cut
# file and one of the previous version.
L=$S/fuzz_layerdag_diff
rm -f "$L"/*.model
mkdir -p "$L"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -Ilibcommon -Icmd -I"$BUILD" \
	$(pkg-config --cflags openblas) tests/fuzz/seed_layerdag_diff.c \
	"$BUILD/cmd/layerdag-sample/liblayerdag-sample.a" "$BUILD/libcommon.a" \
	-o build/bench/seed_layerdag_diff $(pkg-config --libs openblas) -lprotobuf-c -lzstd -lz -lcjson -lm
build/bench/seed_layerdag_diff "$L"
