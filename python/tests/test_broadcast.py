"""Broadcasting like numpy: ranks align from the right; sizes that are 1 are
traced as a static 1 (fuse stretches only a static 1), every other size as
`?`. Sizes that broadcasting assumes equal are checked when the program
runs: a mismatch raises FuseError with the library's message."""

import numpy as np
import pytest

import fuse
from conftest import assert_same, random_array

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
                       match=r"fuse\.add at .*test_broadcast\.py:\d+:\d+: dimension 0 of argument 0 "
                             r"and dimension 0 of argument 1 must be equal \(broadcasting "
                             r"assumes it\)"):
        f(random_array(rng, "float32", (5,)), random_array(rng, "float32", (3,)))
    with pytest.raises(fuse.FuseError, match="must be equal"):
        f(random_array(rng, "float32", (4, 3)), random_array(rng, "float32", (4,)))
    # The program is still usable.
    a = random_array(rng, "float32", (4,))
    assert_same(f(a, a), a + a)
