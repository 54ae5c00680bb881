"""Broadcasting like numpy: ranks align from the right; sizes that are 1 are
traced as a static 1 (fuse stretches only a static 1), every other size as
`?`. Sizes that broadcasting assumes equal are checked when the program
runs: a mismatch raises FuseError with the library's message."""

import json

import numpy as np
import pytest

import fuse
from conftest import assert_same, random_array
from test_device import run_on_fake_driver

SHAPES = [
    ((4, 3), (3,)),
    ((4, 1), (3,)),
    ((4, 1), (1, 3)),
    ((2, 3, 4), (4,)),
    ((2, 1, 4), (3, 1)),
    ((5,), ()),
    ((), ()),
    ((1,), (5,)),
    ((6, 1, 1, 2), (1, 5, 1)),
    ((0, 3), (3,)),
]


@pytest.mark.parametrize("a_shape,b_shape", SHAPES)
def test_binary_broadcast(a_shape, b_shape, rng):
    a = random_array(rng, "float32", a_shape)
    b = random_array(rng, "float32", b_shape)
    f = fuse.jit(lambda a, b: (a + b, a * b, fuse.maximum(a, b), a < b))
    for got, expected in zip(f(a, b), (a + b, a * b, np.maximum(a, b), a < b)):
        assert_same(got, expected)
    g = fuse.jit(lambda a, b: (b - a, b / a))
    for got, expected in zip(g(a, b), (b - a, b / a)):
        assert_same(got, expected)


# Rows shorter than a cpu target thread's vector (64 f32 lanes with
# AVX-512, 32 with AVX2) or not a whole number of them: where a vector
# crosses a row's end, the thread gathers the broadcast inputs at offsets it
# computes in vector code; the loops that every operand reads alike are
# merged first (a bias per channel of N x C x H x W runs over N x C x HW).
# Enough elements that most threads take that path (the fast path). Rows of
# 41 and 47: f32(41) * f32(1 / 41) rounds below 1, so the lane at the next
# row's first element needs the division's correction step. An input that
# does not read the rows (a value per row, per channel) is read from each
# row a vector spans when that is at most 4 rows (rows of 21 or more with 64
# lanes, 11 or more with 32), else gathered: rows of 20, 21, 25 and 11. An
# input that reads the innermost loop alone (a bias over the last axis, a
# channel-last image's mean per channel) is read from a tile of its row
# repeated, made on the host, in rows of at most 1024 (1024 itself, 1025
# not); a bool input is gathered still. So is one that reads other loops
# too, but not the one above the innermost (a scale per image and channel
# of channel-last images), a tile row per image, when the tiles hold at
# most 1 / 64 of the elements; a vector across two images gathers.
ROWS = [
    ((2, 5, 7, 3), (3,)),
    ((3, 2000, 5), (3, 1, 5)),
    ((2, 60, 40, 3), (2, 1, 1, 3)),
    ((9, 1024), (1024,)),
    ((7, 1025), (1025,)),
    ((1000, 3), (3,)),
    ((400, 20), (400, 1)),
    ((400, 21), (400, 1)),
    ((3, 10, 5, 5), (1, 10, 1, 1)),
    ((2, 80, 11), (2, 80, 1)),
    ((300, 24), (1, 24)),
    ((90, 100), (100,)),
    ((300, 41), (41,)),
    ((6, 47, 41), (6, 1, 41)),
    ((150, 65), (150, 1)),
    ((6, 16, 7, 7), (1, 16, 1, 1)),
    ((4, 6, 5, 32), (4, 1, 5, 32)),
    ((3, 5, 7, 9, 11), (5, 1, 9, 1)),
    ((2, 3, 4, 5, 6, 7), (3, 1, 1, 6, 7)),
]


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int32"])
@pytest.mark.parametrize("a_shape,b_shape", ROWS)
def test_short_rows_gather(a_shape, b_shape, dtype, rng):
    a = random_array(rng, dtype, a_shape)
    b = random_array(rng, dtype, b_shape)
    c = random_array(rng, "bool", b_shape)
    f = fuse.jit(lambda a, b, c: (a + b, b * a, fuse.where(c, b, a), c & (a < b)),
                 target="cpu")
    expected = (a + b, b * a, np.where(c, b, a), c & (a < b))
    for got, want in zip(f(a, b, c), expected):
        assert_same(got, want)


def test_where_broadcasts_all_three(rng):
    c = random_array(rng, "bool", (4, 1))
    a = random_array(rng, "float64", (3,))
    b = random_array(rng, "float64", (2, 1, 1))
    assert_same(fuse.jit(fuse.where)(c, a, b), np.where(c, a, b))


def test_types_in_the_traced_program(rng):
    f = fuse.jit(lambda x, bias: fuse.relu(x + bias))
    f.trace(np.ones((8, 16), np.float32), np.ones((1, 16), np.float32))
    # The long type form where the operand types differ; ? against 1 is ?.
    assert f.mlir == (
        "func.func @lambda(%x: tensor<?x?xf32>, %bias: tensor<1x?xf32>) -> tensor<?x?xf32> {\n"
        "  %0 = fuse.add %x, %bias : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>\n"
        "  %1 = fuse.relu %0 : tensor<?x?xf32>\n"
        "  return %1 : tensor<?x?xf32>\n"
        "}\n")


def test_rank_broadcast_text():
    f = fuse.jit(lambda v, m: v * m)
    f.trace(np.ones(4, np.float16), np.ones((2, 4), np.float16))
    assert "fuse.mul %v, %m : tensor<?xf16>, tensor<?x?xf16> -> tensor<?x?xf16>" in f.mlir


def test_size_one_is_specialized(rng):
    f = fuse.jit(lambda a, b: a + b)
    a = random_array(rng, "float32", (5, 3))
    f(a, random_array(rng, "float32", (1, 3)))
    f(random_array(rng, "float32", (9, 3)), random_array(rng, "float32", (1, 3)))
    assert f.cache_info().traces == 1
    # A row of 1 at run time where the trace has `?`: a new signature.
    b = random_array(rng, "float32", (5, 3))
    assert_same(f(a, b), a + b)
    assert f.cache_info().traces == 2


def test_mismatched_sizes_raise_fuse_error(rng):
    f = fuse.jit(lambda a, b: a + b)
    with pytest.raises(fuse.FuseError,
                       match=r"fuse\.add at .*test_broadcast\.py:\d+:\d+: dimension 0 of argument 'a' "
                             r"and dimension 0 of argument 'b' must be equal \(broadcasting "
                             r"assumes it\)"):
        f(random_array(rng, "float32", (5,)), random_array(rng, "float32", (3,)))
    with pytest.raises(fuse.FuseError, match="must be equal"):
        f(random_array(rng, "float32", (4, 3)), random_array(rng, "float32", (4,)))
    # The program is still usable.
    a = random_array(rng, "float32", (4,))
    assert_same(f(a, a), a + a)


# On the GPU a thread's vectors are a few lanes, and rows that are not a
# whole number of them (known, or tested once per launch) read each vector
# from the two rows it may span: the lanes past the first row's end take
# the next row's elements. Rows shorter than a vector (3 f32, 5 f16) take
# the generic path. Run on the fake CUDA driver's emulated GPU, which
# faults on any access out of bounds, against numpy.
GPU_ROWS = ROWS + [
    ((5, 196), (196,)),
    ((7, 5), (5,)),
    ((2, 3, 9), (2, 1, 9)),
    ((3, 8, 6), (3, 8, 1)),
    ((2, 1001), (1001,)),
    ((33, 7), (33, 1)),
    ((40, 9), (9,)),
]

# One broadcast input per kernel: a thread that would hold more than 8
# lanes of broadcast inputs keeps the generic path (kTwoRowLaneLoads), which
# the three-input kernel takes where its two read the rows.
GPU_ROWS_SCRIPT = r"""
import json
import sys
import numpy as np
import fuse
cases = json.loads(sys.argv[1])
rng = np.random.default_rng(7)
seen = []
f = fuse.jit(lambda a, b: (a + b, b * a), target="cuda")
g = fuse.jit(lambda a, c: (fuse.where(c, a, -a), c & (a < 0)), target="cuda")
h = fuse.jit(lambda a, b, c: fuse.where(c, b, a), target="cuda")
for dtype, a_shape, b_shape in cases:
    a = (rng.standard_normal(a_shape) * 100).astype(dtype)
    b = (rng.standard_normal(b_shape) * 100).astype(dtype)
    c = rng.standard_normal(b_shape) > 0
    got = (*f(a, b), *g(a, c), h(a, b, c))
    want = (a + b, b * a, np.where(c, a, -a), c & (a < 0), np.where(c, b, a))
    seen.append([np.asarray(x).shape == w.shape and np.array_equal(np.asarray(x), w)
                 for x, w in zip(got, want)])
print(json.dumps(seen))
"""


def test_rows_across_vectors_on_the_gpu(tmp_path_factory):
    cases = [(dtype, a_shape, b_shape) for dtype in ("float32", "float16", "float64", "int32")
             for a_shape, b_shape in GPU_ROWS]
    stdout, _ = run_on_fake_driver(tmp_path_factory, "gpurows",
                                   ["-c", GPU_ROWS_SCRIPT, json.dumps(cases)], timeout=600)
    seen = json.loads(stdout.splitlines()[-1])
    wrong = [(case, same) for case, same in zip(cases, seen) if not all(same)]
    assert len(seen) == len(cases) and not wrong, wrong
