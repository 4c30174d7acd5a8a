#!/usr/bin/python3
# Writes edge.et (a Chakra ET whose node attributes exercise every oneof
# member, float/double repr corner cases, non-ASCII and control characters,
# 64-bit extremes, an unknown node type, empty lists and IOInfos) and
# edge.jsonizer.json, what the reference chakra_jsonizer prints for it
# (google.protobuf.json_format.MessageToJson, messages concatenated).
# Needs Debian's python3-protobuf and protobuf-compiler:
#   protoc --python_out=DIR -Iproto proto/et_def.proto
#   /usr/bin/python3 make_edge.py edge.et edge.jsonizer.json DIR
import sys, struct, math
sys.path.insert(0, sys.argv[3] if len(sys.argv) > 3 else '.')
import et_def_pb2 as pb
from google.protobuf.internal.encoder import _VarintBytes
from google.protobuf.json_format import MessageToJson

def f32(x): return struct.unpack('<f', struct.pack('<f', x))[0]
def bits_f(b): return struct.unpack('<f', struct.pack('<I', b))[0]
def bits_d(b): return struct.unpack('<d', struct.pack('<Q', b))[0]

msgs = []
m = pb.GlobalMetadata(version="1.0.0 é ☃ 😀 \x01\x7f\t\n\"\\/")
a = m.attr.add(); a.name = "schema"; a.string_val = "x"
msgs.append(m)

floats = [0.1, 1e-5, 1e16, 1.5e16, 3.4028235e38, 1e-45, 1.17549435e-38, 0.0, -0.0, 1.0, 100.0, 123456.7,
          16777216.0, 1e-4, 9.999999e-5, 0.3, 2.0/3, 1e10, 12345678.0, 7e22, -2.5e-3, 0.9, 1.1, 3.14159265]
doubles = [0.1, 1e-5, 1e16, 1.5e16, 1e22, 1e23, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
           0.0, -0.0, 1.0, 100.0, 1234567890123456.0, 12345678901234567.0, 1e-4, 9.999999999999999e-5,
           0.30000000000000004, 2.0/3, math.pi, -1e100, 2**-1074*3, 2.0**60, 2.0**-20, 9007199254740993.0, 0.5, 1e15, 1e17, 123.456]
n = pb.Node(id=1, name="edge", type=pb.COMP_NODE)
for i, x in enumerate(floats):
    a = n.attr.add(); a.name = "f%d" % i; a.float_val = f32(x)
for i, x in enumerate(doubles):
    a = n.attr.add(); a.name = "d%d" % i; a.double_val = x
for x in [float('nan'), float('inf'), float('-inf')]:
    a = n.attr.add(); a.name = "special"; a.double_val = x
    a = n.attr.add(); a.name = "specialf"; a.float_val = x
a = n.attr.add(); a.name = "fl"; a.float_list.values.extend([f32(x) for x in floats])
a = n.attr.add(); a.name = "dl"; a.double_list.values.extend(doubles)
msgs.append(n)

n = pb.Node(id=2**64-1, name="ints \u00e9\u4e2d\U0001F600", type=7, ctrl_deps=[0, 1, 2**53, 2**53+1, 2**64-1], data_deps=[5],
            start_time_micros=2**63, duration_micros=1)
n.inputs.SetInParent()
n.outputs.values = "v"; n.outputs.types = "t\x00x" if False else "t"
vals = {
 'int32': [0, -1, 2**31-1, -2**31], 'int64': [0, -1, 2**63-1, -2**63, 2**53+1, -(2**53)-1],
 'uint32': [0, 2**32-1], 'uint64': [0, 2**64-1, 2**53], 'sint32': [0, -1, -2**31], 'sint64': [-2**63, 5],
 'fixed32': [0, 2**32-1], 'fixed64': [2**64-1, 0], 'sfixed32': [-2**31, 7], 'sfixed64': [-2**63, 9],
 'bool': [True, False], 'string': ["", "a\"b", "\u2028\u00ff"], 'bytes': [b"", b"\x00\xff", b"abc", b"abcd", b"abcde"],
}
for t, vs in vals.items():
    for v in vs:
        a = n.attr.add(); a.name = t; setattr(a, t + "_val", v)
    a = n.attr.add(); a.name = t + "L"; getattr(a, t + "_list").values.extend(vs)
    a = n.attr.add(); a.name = t + "E"; getattr(a, t + "_list").SetInParent()
a = n.attr.add(); a.name = "doc"; a.doc_string = "documented"; a.int64_val = 0
a = n.attr.add(); a.doc_string = "no name"
a = n.attr.add()
msgs.append(n)

msgs.append(pb.Node(id=3, type=99))
msgs.append(pb.Node(id=4, type=0, name="", inputs=pb.IOInfo(), outputs=pb.IOInfo()))

with open(sys.argv[1], 'wb') as f:
    for m in msgs:
        b = m.SerializeToString()
        f.write(_VarintBytes(len(b))); f.write(b)
with open(sys.argv[2], 'w') as f:
    for m in msgs:
        f.write(MessageToJson(m))
