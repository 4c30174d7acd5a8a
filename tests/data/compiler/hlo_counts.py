#!/usr/bin/env python3
"""Independent op counts of an HLO text module, for tests/unit/test_hlo.c.

A second, deliberately simple reading of the mapping (doc/compiler-ir.md):
one line per instruction, the entry computation run once, call/async-start
inlined, while bodies run N times (N from known_trip_count, or from the
counted-loop pattern `compare(get-tuple-element(p), constant(L)), direction=LT`
with the counter's initial constant taken from the while's init tuple),
a conditional runs the branch with the most ops (for the corpus files that is
also the one with the most FLOPs: the other branch only broadcasts
constants), the -done half of async pairs and zero-cost opcodes drop out.

usage: hlo_counts.py FILE   ->  "total N" then "opcode N" lines, sorted.
"""
import re
import sys
from collections import Counter

ELIDED = {"parameter", "constant", "tuple", "get-tuple-element", "bitcast",
          "partition-id", "replica-id", "after-all", "add-dependency",
          "opt-barrier", "domain", "get-dimension-size", "set-dimension-size",
          "rng-get-and-update-state", "infeed", "outfeed", "while", "call",
          "conditional"}

COMP = re.compile(r'^(ENTRY )?%?([\w.\-]+) .*\{\s*$')
INST = re.compile(r'^\s+(ROOT )?%?([\w.\-]+) = .*? ([a-z][a-z0-9\-]*)\((.*)$')


def parse(path):
    comps, entry, cur = {}, None, None
    for line in open(path):
        m = COMP.match(line)
        if m and not line.startswith(' '):
            cur = m.group(2)
            comps[cur] = []
            if m.group(1):
                entry = cur
            continue
        m = INST.match(line)
        if m and cur:
            comps[cur].append((m.group(2), m.group(3), line))
    return comps, entry


def attr(line, key):
    m = re.search(key + r'=%?([\w.\-]+)', line)
    return m.group(1) if m else None


def trip(comps, comp, line):
    m = re.search(r'known_trip_count[^0-9]*(\d+)', line)
    if m:
        return int(m.group(1))
    cond = comps[attr(line, 'condition')]
    root = [l for _, o, l in cond if 'ROOT' in l][0]
    limit = int(re.search(r'constant\((\d+)\)', ''.join(l for _, _, l in cond)).group(1))
    assert 'direction=LT' in root
    init = re.search(r' while\(%?([\w.\-]+)\)', line).group(1)
    tup = [l for n, _, l in comps[comp] if n == init][0]
    first = re.search(r'tuple\(%?([\w.\-]+)', tup).group(1)
    start = int(re.search(r'constant\((-?\d+)\)',
                          [l for n, _, l in comps[comp] if n == first][0]).group(1))
    return limit - start


def size(comps, c):
    return sum(1 for _, o, _ in comps[c] if o not in ELIDED and not o.endswith('-done'))


def count(comps, c, out, times=1):
    for name, op, line in comps[c]:
        if op == 'while':
            count(comps, attr(line, 'body'), out, times * trip(comps, c, line))
        elif op in ('call', 'async-start'):
            count(comps, attr(line, 'to_apply') or attr(line, 'calls'), out, times)
        elif op == 'conditional':
            branches = re.search(r'branch_computations=\{([^}]*)\}', line).group(1)
            names = [b.strip().lstrip('%') for b in branches.split(',')]
            count(comps, max(names, key=lambda b: size(comps, b)), out, times)
        elif op not in ELIDED and not op.endswith('-done'):
            out[op] += times


def main():
    comps, entry = parse(sys.argv[1])
    out = Counter()
    count(comps, entry or list(comps)[-1], out)
    print('total', sum(out.values()))
    for op, n in sorted(out.items()):
        print(op, n)


main()
