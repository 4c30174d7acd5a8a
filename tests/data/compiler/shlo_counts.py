#!/usr/bin/env python3
"""Counts in a pretty-printed JAX StableHLO export, found with regular
expressions line by line (not with et-convert's reader), for test_shlo.c:

    python3 tests/data/compiler/shlo_counts.py tests/data/compiler/FILE.mlir

- ops: the compute and communication ops of @main with every call inlined
  (each call counts its callee's ops again), leaving out what the reader
  elides (constant, reshape, return) and the ops inside regions (the
  reducers of all_reduce, reduce_window, reduce ... `reducer(...) {`);
- all_reduce: how many, and the bytes of their operands;
- convolution: how many, and 2 * output elements * the kernel's spatial and
  input-feature extents (the positions of digits and `i` in the kernel
  layout of dim_numbers);
- dot_general: how many, and 2 * output elements * the contracting extent.
Written for the two Hespas fixtures: one contracting dimension, f16/f32/i32.
"""
import re
import sys
from collections import Counter

SIZE = {'f32': 4, 'f16': 2, 'bf16': 2, 'i32': 4, 'i64': 8, 'i1': 1}
ELIDED = {'constant', 'reshape', 'return'}


def functions(lines):
    """Each function's lines outside regions."""
    funcs, cur, depth = {}, None, 0
    for ln in lines:
        m = re.match(r'\s*func\.func (?:public |private )?@(\w+)', ln)
        if m:
            cur, depth = m.group(1), 0
            funcs[cur] = []
            continue
        if cur is None:
            continue
        s = ln.strip()
        if s.startswith('})') or (s == '}' and depth > 0):
            depth -= 1
            continue
        if depth == 0:
            funcs[cur].append(s)
        if s.endswith('({') or (s.startswith('reducer(') and s.endswith('{')):
            depth += 1
    return funcs


def count(funcs, f, c):
    for s in funcs[f]:
        m = re.match(r'%[\w#:]+ = (?:stablehlo\.(\w+)|"stablehlo\.(\w+)"|call @(\w+))', s)
        if not m:
            continue
        if m.group(3):
            count(funcs, m.group(3), c)
            continue
        op = m.group(1) or m.group(2)
        if op not in ELIDED:
            c[op] += 1


def elems(t):
    p = 1
    for d in t.split('x')[:-1]:
        p *= int(d)
    return p


def nbytes(t):
    return elems(t) * SIZE[t.split('x')[-1]]


def main(path):
    text = open(path).read()
    c = Counter()
    count(functions(text.split('\n')), 'main', c)
    print('ops', sum(c.values()))
    ar = re.findall(r'"stablehlo\.all_reduce"\(%\w+\)[^\n]*\n(?:[^\n]*\n){3}\s*\}\) : '
                    r'\(tensor<([^>]+)>\)', text)
    print('all_reduce', len(ar), 'bytes', sum(nbytes(t) for t in ar))
    n = flops = 0
    for m in re.finditer(r'stablehlo\.convolution\(.*?\]x\[([^\]]*)\].*?: \(tensor<([^>]+)>, '
                         r'tensor<([^>]+)>\) -> tensor<([^>]+)>', text):
        layout = [x.strip() for x in m.group(1).split(',')]
        kernel = [int(x) for x in m.group(3).split('x')[:-1]]
        f = 2 * elems(m.group(4))
        for pos, d in enumerate(layout):
            if d.isdigit() or d == 'i':
                f *= kernel[pos]
        n, flops = n + 1, flops + f
    print('convolution', n, 'flops', flops)
    n = flops = 0
    for m in re.finditer(r'stablehlo\.dot_general [^\n]*contracting_dims = \[(\d+)\] x \[\d+\]'
                         r'[^\n]*: \(tensor<([^>]+)>, tensor<([^>]+)>\) -> tensor<([^>]+)>', text):
        k = [int(x) for x in m.group(2).split('x')[:-1]][int(m.group(1))]
        n, flops = n + 1, flops + 2 * elems(m.group(4)) * k
    print('dot_general', n, 'flops', flops)
    for op, k in sorted(c.items()):
        print('%7d %s' % (k, op))


if __name__ == '__main__':
    main(sys.argv[1])
