# Per-rank figures of a trace, from et-convert --to jsonl: one line per rank
#   rank R COMP n COLL n SEND n RECV n | op M sum ... | coll ALL_GATHER count sum ... | send n sum recv n sum
# The figures STAGE compatibility is judged by (doc/stage.md).
def attr($n): (.attr // []) | map(select(.name == $n)) | first // null;
def ival: if . == null then 0 else (.int64Val // .uint64Val // .int32Val // 0 | tonumber) end;
def ctype: ["ALL_REDUCE","REDUCE","ALL_GATHER","GATHER","SCATTER","BROADCAST","ALL_TO_ALL","REDUCE_SCATTER","REDUCE_SCATTER_BLOCK","BARRIER"][attr("comm_type") | ival];
[inputs | select(.type != null)] | group_by(.rank) | .[] |
  . as $n |
  ($n[0].rank) as $r |
  ([$n[] | select(.type == "COMP_NODE")]) as $comp |
  ([$n[] | select(.type == "COMM_COLL_NODE")]) as $coll |
  ([$n[] | select(.type == "COMM_SEND_NODE")]) as $send |
  ([$n[] | select(.type == "COMM_RECV_NODE")]) as $recv |
  "rank \($r) COMP \($comp | length) COLL \($coll | length) SEND \($send | length) RECV \($recv | length)"
  + " | op " + ([$comp | group_by(attr("op_type").stringVal)[] | "\(.[0] | attr("op_type").stringVal) \(map(attr("num_ops") | ival) | add)"] | join(" "))
  + " | coll " + ([$coll | group_by(ctype)[] | "\(.[0] | ctype) \(length) \(map(attr("comm_size") | ival) | add)"] | join(" "))
  + " | send \($send | length) \($send | map(attr("comm_size") | ival) | add // 0)"
  + " recv \($recv | length) \($recv | map(attr("comm_size") | ival) | add // 0)"
