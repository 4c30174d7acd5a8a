# The strict per-rank figures of a trace, from et-convert --to jsonl: data and
# control dependency counts and the COMP nodes' tensor_size sum, one line per rank:
#   rank R deps N ctrl N ts N
# (doc/stage.md, "Edges and tensor sizes"; tests/stage/oracle.awk -v strict=1).
def ts: [(.attr // [])[] | select(.name == "tensor_size") | (.uint64Val // 0 | tonumber)] | add // 0;
[inputs | select(.type != null)] | group_by(.rank) | .[] |
  "rank \(.[0].rank) deps \(map(.dataDeps // [] | length) | add)"
  + " ctrl \(map(.ctrlDeps // [] | length) | add)"
  + " ts \(map(select(.type == "COMP_NODE") | ts) | add)"
