"""Checks a row sum computed by fuse-run against the summation order that
docs/dialect.md states for the cpu target, bit for bit: element i of a row
goes to partial sum i mod 32 (from -0.0, in increasing i), and the 32
partial sums are combined pairwise, 16 apart, then 8, 4, 2, 1.

usage: sum_order.py INPUT.npy RESULT.npy
INPUT is f16 (widened to f32 exactly) or f32, 2-D; RESULT the f32 sums of
its rows. Prints `same bits as the documented order (N rows)` or the first
row that differs."""
import sys

import numpy as np

x = np.load(sys.argv[1]).astype(np.float32)
got = np.load(sys.argv[2])
lanes = 32
partial = np.full((x.shape[0], lanes), -0.0, np.float32)
for j in range(0, x.shape[1], lanes):
    block = x[:, j:j + lanes]
    partial[:, :block.shape[1]] += block
while lanes > 1:
    lanes //= 2
    partial = partial[:, :lanes] + partial[:, lanes:2 * lanes]
want = partial[:, 0]
differ = np.flatnonzero(want.view(np.uint32) != got.view(np.uint32))
if differ.size:
    row = differ[0]
    print(f"{differ.size} rows differ, first {row}: {got[row]!r} vs {want[row]!r}")
else:
    print(f"same bits as the documented order ({want.size} rows)")
