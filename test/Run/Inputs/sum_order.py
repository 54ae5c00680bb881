"""Checks a row sum computed by fuse-run against the summation order that
docs/dialect.md states, bit for bit: element i of a row goes to partial
sum i mod 32 (from -0.0, in increasing i, in blocks: each partial sums
its 32 elements of a block of 1024 from -0.0, the sums of the 32 blocks
of 1024 of a block of 32768 likewise, and those of a block of 1048576,
into its running sum), and the 32 partial sums are combined pairwise, 16 apart, then 8, 4, 2, 1. With --pieces (a kernel with
a constant number r of rows below 132), each row of n elements is first
cut into P pieces of ceil(n / P) elements, each piece summed in that
order, and the P sums summed in that order again: P = ceil(n / 1024)
rounded up to a power of two, at most 4096 / r (r rounded up to a power
of two), whether the program's row length is a constant or not. With
--columns the rows are INPUT's columns (dims = [0]), which are not read in
lanes: each piece, then the pieces' sums, one element after the other,
P = ceil(n / 32) rounded up to a power of two, and the r columns (any
number) share 262144 pieces, at most 262144 / r. With --middle INPUT is
3-D and the rows are those of its middle dimension (dims = [1]), in the
order of the result's elements, read as columns are; with --columns a
3-D INPUT's rows are the columns of its two leading dimensions as one
(dims = [0, 1]). With --nchw INPUT is 4-D, N x C x H x W, and the sums
are over dims = [0, 2, 3], a run at a time: each (n, c)'s H x W as a
row in lanes (dynamic sizes: not in pieces), then each c's N sums as a
column, in pieces.

usage: sum_order.py [--square] [--pieces] [--columns | --middle | --nchw]
                    INPUT.npy RESULT.npy
INPUT is f16 (widened to f32 exactly) or f32, 1-D (one row) or 2-D (3-D
with --middle);
RESULT the f32 sums of its rows (of the squares, rounded to f32, with
--square). Prints `same bits as the documented order (N rows)` or the
first row that differs."""
import sys

import numpy as np

LANES, PIECES, STRIDED_PIECES, SHORT_ROW, SHORT_COLUMN = 32, 4096, 262144, 1024, 32
BLOCK_LEVELS = 3


def power_of_two_ceil(n):
    return 1 << max(n - 1, 0).bit_length()


def lane_partials(x, start, end, level):
    """The 32 partial sums of x[:, start:end] in blocks of `level` levels."""
    partial = np.full((x.shape[0], LANES), -0.0, np.float32)
    if level == 0:
        for j in range(start, end, LANES):
            step = x[:, j:min(j + LANES, end)]
            partial[:, :step.shape[1]] += step
        return partial
    length = LANES ** (level + 1)
    for block in range(start, end, length):
        # -0.0 + a block's sums is the block's sums: a row of one block
        # is summed as without blocks.
        partial += lane_partials(x, block, min(block + length, end),
                                 level - 1)
    return partial


def lanes_sum(x):
    """The documented order over the last axis of a 2-D f32 array."""
    partial = lane_partials(x, 0, x.shape[1], BLOCK_LEVELS)
    lanes = LANES
    while lanes > 1:
        lanes //= 2
        partial = partial[:, :lanes] + partial[:, lanes:2 * lanes]
    return partial[:, 0]


def serial_sum(x):
    """One element after the other over the last axis, from -0.0."""
    acc = np.full(x.shape[0], -0.0, np.float32)
    for j in range(x.shape[1]):
        acc += x[:, j]
    return acc


def pieces_sum(x, reduce=lanes_sum, share=PIECES, piece=SHORT_ROW):
    rows, n = x.shape
    count = min(share // power_of_two_ceil(max(rows, 1)),
                power_of_two_ceil(max(-(-n // piece), 1)))
    length = -(-n // count)
    padded = np.full((rows, count * length), -0.0, np.float32)
    padded[:, :n] = x
    # x + -0.0 is x: the identity past the row changes no partial sum.
    pieces = reduce(padded.reshape(rows * count, length))
    return reduce(pieces.reshape(rows, count))


args = sys.argv[1:]
if "--nchw" in args:
    paths = [a for a in args if not a.startswith("--")]
    x = np.load(paths[0]).astype(np.float32)
    n, c = x.shape[:2]
    rows = lanes_sum(x.reshape(n * c, -1)).reshape(n, c)
    want = pieces_sum(np.ascontiguousarray(rows.T), serial_sum,
                      STRIDED_PIECES, SHORT_COLUMN)
    got = np.load(paths[1]).reshape(-1)
    differ = np.flatnonzero(want.view(np.uint32) != got.view(np.uint32))
    print(f"{differ.size} channels differ" if differ.size else
          f"same bits as the documented order ({want.size} channels)")
    sys.exit(0)
square = "--square" in args
pieces = "--pieces" in args
middle = "--middle" in args
columns = "--columns" in args or middle
paths = [a for a in args if not a.startswith("--")]
x = np.load(paths[0]).astype(np.float32)
x = x.reshape(1, -1) if x.ndim == 1 else x
if middle:
    x = np.ascontiguousarray(x.transpose(0, 2, 1).reshape(-1, x.shape[1]))
elif columns:
    x = np.ascontiguousarray(x.reshape(-1, x.shape[-1]).T)
if square:
    x = x * x
got = np.load(paths[1]).reshape(-1)
reduce = serial_sum if columns else lanes_sum
if columns:
    share, piece = STRIDED_PIECES, SHORT_COLUMN
else:
    share, piece = PIECES, SHORT_ROW
want = pieces_sum(x, reduce, share, piece) if pieces else reduce(x)
differ = np.flatnonzero(want.view(np.uint32) != got.view(np.uint32))
if differ.size:
    row = differ[0]
    print(f"{differ.size} rows differ, first {row}: {got[row]!r} vs {want[row]!r}")
else:
    print(f"same bits as the documented order ({want.size} rows)")
