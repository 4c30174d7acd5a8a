# The strict per-rank figures of a trace, from et-convert --to jsonl: data and
# control dependency counts and the COMP nodes' tensor_size sum, one line per rank
# (control dependencies from a collective to the next of its group, et-stage's
# chain where STAGE has none, are not counted; stage.bats checks the chain):
#   rank R deps N ctrl N ts N
# (doc/stage.md, "Edges and tensor sizes"; tests/stage/oracle.awk -v strict=1).
def ts: [(.attr // [])[] | select(.name == "tensor_size") | (.uint64Val // 0 | tonumber)] | add // 0;
def pg: [(.attr // [])[] | select(.name == "pg_name") | .stringVal][0] // "";
[inputs | select(.type != null)] | group_by(.rank) | .[] |
  (map(select(.type == "COMM_COLL_NODE") | {key: (.id // 0 | tostring), value: pg})
    | from_entries) as $coll |
  "rank \(.[0].rank) deps \(map(.dataDeps // [] | length) | add)"
  + " ctrl \(map(. as $n | (.ctrlDeps // []) | map(tostring as $d | select(
      ($n.type == "COMM_COLL_NODE" and ($coll | has($d)) and $coll[$d] == ($n | pg)) | not))
      | length) | add)"
  + " ts \(map(select(.type == "COMP_NODE") | ts) | add)"
