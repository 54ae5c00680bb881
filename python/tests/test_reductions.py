"""Reductions (fuse.reduce_sum, reduce_max, reduce_min, reduce_mean, the
Tensor methods and numpy functions that make them) and the compositions
built on them (softmax, log_softmax, layer_norm, rms_norm), against numpy.

max and min are exact, so they are compared bit for bit with numpy. Sums and
means are compared with the exact sum (math.fsum of the float64 values)
within the bound that fuse states for its serial accumulation:
    |got - exact| <= (n - 1) * u * sum(|x|) + the rounding of the result
(u the unit roundoff of the accumulation type: float32 for float16, bfloat16
and float32, float64 for float64), never bit for bit with numpy's own sum,
whose pairwise order differs.
"""

import math
import re
import sys

import numpy as np
import pytest

import fuse
from conftest import FLOATS, INTS, NUMERIC, assert_same, random_array

# The unit roundoff of each result type, and of the type it accumulates in.
UNIT = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8, "float32": 2.0 ** -24,
        "float64": 2.0 ** -53}
ACCUMULATE = {"float16": 2.0 ** -24, "bfloat16": 2.0 ** -24, "float32": 2.0 ** -24,
              "float64": 2.0 ** -53}
SHAPE = (4, 7, 5)
AXES = [None, 0, -1, (0, 2), (2, 0)]


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    return tuple(sorted(a % ndim for a in (axis if isinstance(axis, tuple) else (axis,))))


def _fsum(x, axis, keepdims):
    """The exactly rounded float64 sum of x over `axis`."""
    axes = _axes(axis, x.ndim)
    moved = np.moveaxis(np.asarray(x, np.float64), axes, range(-len(axes), 0))
    kept = moved.shape[:x.ndim - len(axes)]
    rows = moved.reshape(int(np.prod(kept, dtype=np.int64)), -1)
    sums = np.array([math.fsum(row.tolist()) for row in rows]).reshape(kept)
    return np.expand_dims(sums, axes) if keepdims else sums


def assert_sum_within_bound(got, x, axis, keepdims, dtype, mean=False):
    """`got`, the sum (or mean) of `x`'s values over `axis` computed in fuse
    type `dtype`, within the bound of serial accumulation from the exact
    result; NaNs in the same places."""
    exact = _fsum(x, axis, keepdims)
    n = x.size // max(exact.size, 1)
    absolute = _fsum(np.abs(x.astype(np.float64)), axis, keepdims)
    # First order in u, times 1.01 for the higher orders.
    error = 1.01 * max(n - 1, 0) * ACCUMULATE[dtype] * absolute
    if mean:
        exact, absolute, error = exact / n, absolute / n, error / n
    rounding = (UNIT[dtype] + ACCUMULATE[dtype]) * (np.abs(exact) + error)
    bound = error + rounding + np.finfo(np.float16).smallest_subnormal * (dtype == "float16")
    assert got.shape == exact.shape, (got.shape, exact.shape)
    got = got.astype(np.float64)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(exact), err_msg="NaNs differ")
    ok = np.isnan(exact) | (np.abs(got - exact) <= bound)
    assert ok.all(), (f"{int((~ok).sum())} over the bound: got {got[~ok][:4]}, exact "
                      f"{exact[~ok][:4]}, bound {bound[~ok][:4]}")


def to_bfloat16(x):
    """float32 values rounded to bfloat16 (to nearest, ties to even), as
    float32: the values a fuse.cast to bfloat16 gives."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=str)
@pytest.mark.parametrize("dtype", NUMERIC + ["bfloat16"])
def test_reductions(dtype, axis, keepdims, rng):

    def reductions(x):
        if dtype == "bfloat16":
            x = fuse.cast(x, "bfloat16")
        results = (x.sum(axis, keepdims=keepdims), x.max(axis, keepdims=keepdims),
                   x.min(axis, keepdims=keepdims))
        if dtype not in INTS:
            results += (x.mean(axis, keepdims=keepdims),)
        return tuple(fuse.cast(r, np.float32) for r in results) if dtype == "bfloat16" \
            else results

    x = random_array(rng, "float32" if dtype == "bfloat16" else dtype, SHAPE)
    got = fuse.jit(reductions)(x)
    # The values that are reduced (bfloat16's, as float32).
    values = to_bfloat16(x) if dtype == "bfloat16" else x
    assert_same(got[1], np.max(values, axis, keepdims=keepdims))
    assert_same(got[2], np.min(values, axis, keepdims=keepdims))
    if dtype in INTS:
        assert_same(got[0], np.sum(x, axis, dtype=x.dtype, keepdims=keepdims))
        return
    assert_sum_within_bound(got[0], values, axis, keepdims, dtype)
    assert_sum_within_bound(got[3], values, axis, keepdims, dtype, mean=True)
    assert got[0].dtype == got[3].dtype == values.dtype


@pytest.mark.parametrize("axis", [-1, 0])
@pytest.mark.parametrize("n", [1, 7, 32, 1000, 4096, 100000])
@pytest.mark.parametrize("dtype", FLOATS)
def test_row_lengths(dtype, n, axis, rng):
    # Rows of n elements along the last axis, or columns along the first.
    shape = (3, n) if axis == -1 else (n, 3)
    x = random_array(rng, dtype, shape)
    f = fuse.jit(lambda x: (fuse.reduce_sum(x, axis), fuse.reduce_max(x, axis),
                            fuse.reduce_min(x, axis), fuse.reduce_mean(x, axis)))
    total, largest, smallest, mean = f(x)
    assert_sum_within_bound(total, x, axis, False, dtype)
    assert_sum_within_bound(mean, x, axis, False, dtype, mean=True)
    assert_same(largest, np.max(x, axis))
    assert_same(smallest, np.min(x, axis))
    # Values of one sign: the bound is then relative to the sum itself (of
    # about 2, so that float16 does not overflow).
    positive = ((np.abs(x) + 0.5) / n).astype(dtype)
    assert_sum_within_bound(f(positive)[0], positive, axis, False, dtype)
    # Small integers: every partial sum is exact in the accumulation type, so
    # the sum is the exact one rounded once, and the mean one division (in
    # the accumulation type) of it: a lost or repeated element shows.
    integers = rng.integers(-8, 9, shape)
    total, _, _, mean = f(integers.astype(dtype))
    exact = integers.sum(axis)
    accumulate = np.float64 if dtype == "float64" else np.float32
    assert_same(total, exact.astype(dtype))
    assert_same(mean, (exact.astype(accumulate) / accumulate(n)).astype(dtype))


def test_max_and_min_of_one_sign():
    # The largest of negative values and the smallest of positive ones (an
    # identity of 0 would give 0), and rows of infinities.
    x = -np.arange(1, 22, dtype=np.float32).reshape(3, 7)
    x[2] = -np.inf
    f = fuse.jit(lambda x: (x.max(-1), (-x).min(-1)))
    largest, smallest = f(x)
    assert_same(largest, np.array([-1, -8, -np.inf], np.float32))
    assert_same(smallest, np.array([1, 8, np.inf], np.float32))


@pytest.mark.parametrize("dtype", INTS)
def test_integer_sums_wrap_around(dtype):
    big = np.iinfo(dtype).max // 3
    x = np.full((2, 7), big, dtype)
    x[1] = -big
    got = fuse.jit(lambda x: fuse.reduce_sum(x, -1))(x)
    with np.errstate(over="ignore"):
        assert_same(got, np.sum(x, -1, dtype=dtype))
    assert int(got[0]) != 7 * int(big)


def test_bool_sums_count():
    m = np.array([[True, False, True], [False, False, False]])
    assert_same(fuse.jit(lambda m: m.sum(-1))(m), np.array([2, 0], np.int64))
    assert_same(fuse.jit(np.sum)(m), np.int64(2))


@pytest.mark.parametrize("op", ["max", "min"])
def test_nan_propagates(op):
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    x[0, 0] = x[1, 5] = x[2, 3] = np.nan
    f = fuse.jit(lambda x: (getattr(x, op)(-1), getattr(x, op)(0), getattr(x, op)()))
    by_row, by_column, everything = f(x)
    reference = getattr(np, op)
    assert_same(by_row, reference(x, -1))
    assert_same(by_column, reference(x, 0))
    assert np.isnan(everything)
    assert np.isnan(by_row[:3]).all() and not np.isnan(by_row[3])


def test_nan_in_sums():
    x = np.ones((2, 5), np.float32)
    x[0, 2] = np.nan
    total, mean = fuse.jit(lambda x: (x.sum(-1), x.mean(-1)))(x)
    assert_same(total, np.array([np.nan, 5], np.float32))
    assert_same(mean, np.array([np.nan, 1], np.float32))


@pytest.mark.parametrize("shape,axis", [((3, 0), -1), ((0, 3), 0), ((0, 3), None)])
def test_empty_sum_and_mean(shape, axis):
    x = np.zeros(shape, np.float32)
    total, mean = fuse.jit(lambda x: (x.sum(axis), x.mean(axis)))(x)
    expected_shape = np.sum(x, axis).shape
    assert total.shape == mean.shape == expected_shape
    assert (total == 0).all() and np.isnan(mean).all()  # an empty sum may be -0.0
    assert_same(fuse.jit(lambda x: x.sum(axis))(np.zeros(shape, np.int32)),
                np.zeros(expected_shape, np.int32))


@pytest.mark.parametrize("op", ["max", "min"])
def test_empty_max_and_min_are_errors(op):
    f = fuse.jit(lambda x: getattr(x, op)(-1))
    with pytest.raises(fuse.FuseError, match=rf"dimension 1 of the operand is 0, and an empty "
                                             rf"reduce_{op} has no value"):
        f(np.zeros((3, 0), np.float32))
    # The same program runs on rows that are not empty.
    assert_same(f(np.ones((3, 2), np.float32)), np.ones(3, np.float32))


def test_numpy_functions(rng):
    x = random_array(rng, "float64", (5, 6))

    types = []

    @fuse.jit
    def f(x):
        types.append(np.sum(x, 1, None, None, True).type)  # keepdims, positional
        # A keepdims result broadcasts against x, as in numpy.
        return (np.max(x, axis=1), x - np.amax(x, 0, None, True), np.min(x), np.amin(x, (0, 1)),
                np.sum(x, 1, None, None, False), np.mean(x, axis=-1, keepdims=False),
                x.max(axis=(1,)), x.min(0, None, False))

    got = f(x)
    assert types == ["tensor<?x1xf64>"]
    for g, e in zip(got[:4], (np.max(x, 1), x - np.max(x, 0, keepdims=True), np.min(x),
                              np.min(x))):
        assert_same(g, e)
    assert_sum_within_bound(got[4], x, 1, False, "float64")
    assert_sum_within_bound(got[5], x, -1, False, "float64", mean=True)
    assert_same(got[6], np.max(x, 1))
    assert_same(got[7], np.min(x, 0))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_variance_and_deviation(dtype, rng):
    x = random_array(rng, dtype, (9, 40), -3, 3)
    x64 = x.astype(np.float64)

    @fuse.jit
    def f(x):
        return (np.var(x), x.var(axis=1), np.std(x, axis=0, keepdims=True), x.std(),
                np.var(x, axis=1, ddof=1), x.std(0, ddof=1))

    expected = (np.var(x64), x64.var(axis=1), np.std(x64, axis=0, keepdims=True), x64.std(),
                np.var(x64, axis=1, ddof=1), x64.std(0, ddof=1))
    # Two float sums of 40 (or 360) elements and a square: a few units of
    # the dtype's epsilon relative to the variance (half types compute in
    # float32 and round once).
    bound = {"float32": 1e-5, "float64": 1e-13, "float16": 2e-3}[dtype]
    for got, want in zip(f(x), expected):
        assert got.dtype == np.dtype(dtype) and got.shape == want.shape
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=bound, atol=0)
    # The deviation of a half type is taken in float32 too: a variance past
    # float16's range (65504) has a deviation within it.
    wide = np.array([0, 600], np.float16)
    assert fuse.jit(lambda x: np.std(x))(wide) == np.float16(300)
    assert fuse.jit(lambda x: x.std(ddof=1))(wide) == np.float16(np.sqrt(180000.0))
    # ddof past the count: numpy's division by zero (inf), not a negative.
    g = fuse.jit(lambda x: np.var(x, axis=0, ddof=20))
    assert np.all(np.isposinf(g(x.astype(np.float32))))
    # numpy takes any real ddof: True is 1, 0.5 a half.
    x32 = x.astype(np.float32)
    h = fuse.jit(lambda x: (x.var(0, ddof=True), np.std(x, 1, ddof=0.5),
                            x.var(ddof=np.float32(1.5))))
    x32_64 = x32.astype(np.float64)
    for got, want in zip(h(x32), (x32_64.var(0, ddof=1), np.std(x32_64, 1, ddof=0.5),
                                  x32_64.var(ddof=1.5))):
        np.testing.assert_allclose(got.astype(np.float64), want, rtol=1e-5, atol=0)
    with pytest.raises(TypeError, match="ddof must be a number, got str '1'"):
        fuse.jit(lambda x: x.var(ddof="1"))(x)
    # An int argument is a run-time value: the error says how to fix it.
    with pytest.raises(TypeError, match=r"argument 'd' of <lambda> is a Python scalar.*cannot "
                                        r"be Tensor\.var's ddof; name it in "
                                        r"fuse\.jit\(static_argnames=\.\.\.\) to make it a "
                                        r"constant of the trace, or pass a number"):
        fuse.jit(lambda x, d: x.var(ddof=d))(x, 1)


def test_any_all_and_nonfinite_tests():
    y = np.array([0, 1, np.nan, np.inf, -np.inf, -0.0], np.float32)
    i = np.array([[1, 2, 0], [3, 4, 5]], np.int32)
    e = np.zeros((0, 3), np.float32)

    @fuse.jit
    def f(y, i, e):
        return (np.isnan(y), np.isinf(y), np.isfinite(y), np.any(y), np.all(y), (y > 0).any(),
                (y > -10).all(), np.isnan(i), np.isinf(i), np.isfinite(i), i.any(axis=1),
                np.all(i, axis=0, keepdims=True), np.any(e, axis=0), np.all(e, axis=0))

    expected = (np.isnan(y), np.isinf(y), np.isfinite(y), np.any(y), np.all(y), (y > 0).any(),
                (y > -10).all(), np.isnan(i), np.isinf(i), np.isfinite(i), i.any(axis=1),
                np.all(i, axis=0, keepdims=True), np.any(e, axis=0), np.all(e, axis=0))
    for got, want in zip(f(y, i, e), expected):
        assert_same(got, np.asarray(want))


def test_max_and_min_of_bools_and_truthy_keepdims():
    # As numpy's: the max of bools is whether any is true, the min whether
    # all are (they were refused); keepdims takes an int's truth.
    b = np.array([[True, False, False], [True, True, True]])
    f = fuse.jit(lambda b: (np.max(b, 0), b.min(1), np.amax(b), b.max(axis=1, keepdims=1),
                            np.sum(b, 0, keepdims=0)))
    for got, want in zip(f(b), (np.max(b, 0), b.min(1), np.amax(b), b.max(axis=1, keepdims=1),
                                np.sum(b, 0, keepdims=0))):
        assert_same(got, np.asarray(want))
    with pytest.raises(fuse.FuseError, match="empty"):
        fuse.jit(lambda b: b.max(0))(np.zeros((0, 3), bool))


def test_no_axes_to_reduce(rng):
    # A 0-d Tensor, or axis=(): nothing to reduce, as in numpy.
    x = random_array(rng, "float32", (3, 4))
    f = fuse.jit(lambda x, s: (x.sum(()), s.max(), np.mean(s)))
    same, scalar_max, scalar_mean = f(x, np.float32(2.5))
    assert_same(same, x)
    assert_same(scalar_max, np.float32(2.5))
    assert_same(scalar_mean, np.float32(2.5))
    # numpy takes axis 0 and -1 of a 0-d array (not as a tuple), as None.
    s = np.float32(2.5)
    g = fuse.jit(lambda s: (s.sum(0), np.max(s, axis=-1), fuse.softmax(s)), target="cpu")
    for got, want in zip(g(s), (np.sum(np.asarray(s), 0), np.max(np.asarray(s), -1), 1.0)):
        assert_same(got, np.float32(want))
    with pytest.raises(ValueError, match=r"axis 0 is out of bounds for a Tensor of rank 0"):
        fuse.jit(lambda s: s.sum((0,)))(s)
    with pytest.raises(ValueError, match=r"^fuse: fuse\.layer_norm normalizes over the last "
                                         r"axis, and a 0-d Tensor has none"):
        fuse.jit(fuse.layer_norm)(s)


def test_dims_in_the_program():
    f = fuse.jit(lambda x: (fuse.reduce_sum(x, (-1, 0), keepdims=True), fuse.reduce_max(x, 1)))
    text = f.trace(np.ones((2, 3, 4), np.float32))
    assert ("fuse.reduce_sum %x {dims = array<i64: 0, 2>} : tensor<?x?x?xf32> -> "
            "tensor<1x?x1xf32>") in text
    assert "fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x?xf32>" \
        in text


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: x.sum(2), np.AxisError if hasattr(np, "AxisError") else ValueError,
     r"^fuse: fuse\.reduce_sum: axis 2 is out of bounds for a Tensor of rank 2 \(axes are in "
     r"\[-2, 2\)\)"),
    (lambda x: np.max(x, axis=-3), ValueError,
     r"^fuse: fuse\.reduce_max: axis -3 is out of bounds for a Tensor of rank 2"),
    (lambda x: fuse.reduce_min(x, (0, -2)), ValueError,
     r"^fuse: fuse\.reduce_min: axis -2 is repeated in axis=\(0, -2\) \(rank 2\)"),
    (lambda x: x.mean(1.0), TypeError,
     r"^fuse: fuse\.reduce_mean: axis must be None, an int or a tuple of ints, got float 1\.0"),
    (lambda x: x.sum(keepdims="yes"), TypeError, r"keepdims must be True or False"),
    (lambda x: np.sum(x, dtype=np.float64), TypeError,
     r"^fuse: numpy\.sum with dtype= is not supported: fuse's reductions take axis=, "
     r"keepdims= and initial= only \(dtype= and out= None, where= True: numpy's defaults\); "
     r"the result has the array's dtype \(float32 for a mean, var or std of "
     r"integers or bools; cast before or after with fuse\.cast or \.astype\)"),
    (lambda x: np.max(x, out=np.zeros(3)), TypeError, r"^fuse: numpy\.max with out= is not"),
    (lambda x: np.min(x, initial=0.0, where=False), TypeError,
     r"^fuse: numpy\.min with where= is not supported"),
    (lambda x: np.max(x, initial=x), TypeError,
     r"^fuse: numpy\.max: initial must be a number, got Tensor"),
    (lambda x: np.mean(x, where=x > 0), TypeError, r"^fuse: numpy\.mean with where= is not"),
    (lambda x: x.sum(0, np.float64), TypeError, r"^fuse: Tensor\.sum with dtype= is not"),
    (lambda x: x.max(0, None, True, 1, 2, 3), TypeError,
     r"^fuse: Tensor\.max takes at most 5 arguments after the array \(axis, out, keepdims, "
     r"initial, where\), got 6"),
    (lambda x: x.min(axes=0), TypeError, r"^fuse: Tensor\.min got an unexpected argument 'axes'"),
    # It says what fuse takes, not numpy's parameters alone (dtype=, out=
    # and where=, which it then refused, were listed as its own).
    (lambda x: x.mean(-1, initial=1.0), TypeError,
     r"^fuse: Tensor\.mean got an unexpected argument 'initial'; it takes axis= and keepdims= "
     r"\(numpy's axis, dtype, out, keepdims and where, with dtype= and out= only None, "
     r"where= only True\)$"),
    (lambda x: x.sum(0, axis=1), TypeError, r"^fuse: Tensor\.sum got two values for 'axis'"),
    (lambda x: x.sum(x.shape[0]), TypeError, r"is a symbolic size, not a number"),
    (lambda x: np.add.reduce(x), TypeError, r"for reductions use np\.sum"),
    (lambda x: fuse.softmax(x, axis=2), ValueError,
     r"^fuse: fuse\.softmax: axis 2 is out of bounds for a Tensor of rank 2"),
    (lambda x: fuse.log_softmax(x, axis=(1, -1)), ValueError,
     r"^fuse: fuse\.log_softmax: axis -1 is repeated"),
    (lambda x: fuse.layer_norm(x, (3,)), TypeError,
     r"^fuse: fuse\.layer_norm: weight is a Tensor of the last axis's size, a scalar or None, "
     r"not tuple \(3,\); fuse normalizes over the last axis, with no normalized_shape"),
    (lambda x: fuse.layer_norm(x, None, None, 1e-5, (4,)), TypeError,
     r"^fuse: fuse\.layer_norm takes at most 4 arguments \(x, weight, bias and eps\), got 5$"),
    (lambda x: fuse.layer_norm(x, None, [0.0]), TypeError,
     r"^fuse: fuse\.layer_norm: bias is a Tensor .*, not list \[0\.0\]"),
    (lambda x: fuse.rms_norm(x, [3]), TypeError,
     r"^fuse: fuse\.rms_norm: weight is a Tensor .*, not list \[3\]"),
], ids=["out-of-bounds", "negative-out-of-bounds", "repeated", "float-axis", "keepdims",
        "dtype", "out", "initial-where", "initial-tensor", "mean-where", "method-dtype",
        "too-many", "unexpected", "unexpected-initial", "twice", "symbolic-axis", "ufunc-reduce", "softmax-axis", "log-softmax-axis",
        "layer-norm-shape", "layer-norm-five", "layer-norm-bias-list", "rms-norm-shape"])
def test_bad_reductions(fn, error, match):
    with pytest.raises(error, match=match):
        fuse.jit(fn)(np.ones((3, 4), np.float32))


# Every entry point of the reductions and their compositions, and whether it
# takes axis= and keepdims=.
ENTRY_POINTS = {
    **{f"fuse.{name}": (getattr(fuse, name), True)
       for name in ("reduce_sum", "reduce_max", "reduce_min", "reduce_mean")},
    **{f"Tensor.{name}": ((lambda name: lambda x, **k: getattr(x, name)(**k))(name), True)
       for name in ("sum", "max", "min", "mean", "var", "std", "any", "all")},
    "fuse.softmax": (fuse.softmax, "axis"),
    "fuse.log_softmax": (fuse.log_softmax, "axis"),
    "fuse.layer_norm": (fuse.layer_norm, False),
    "fuse.rms_norm": (fuse.rms_norm, False),
}


@pytest.mark.parametrize("torch_name,numpy_name", [("dim", "axis"), ("keepdim", "keepdims")])
@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_pytorch_names_of_parameters_point_to_numpys(entry, torch_name, numpy_name):
    # x.sum(dim=-1), fuse.softmax(x, dim=-1), x.mean(-1, keepdim=True): fuse
    # takes numpy's names, and says which.
    fn, takes = ENTRY_POINTS[entry]
    start = rf"^fuse: {re.escape(entry)} got an unexpected argument '{torch_name}'"
    if takes is True or takes == numpy_name:
        match = (start + rf": use {numpy_name}= \(fuse follows numpy's names: axis= for "
                 rf"PyTorch's dim=, keepdims= for its keepdim=\)$")
    else:
        match = (start + rf": it takes no {numpy_name}= either \(numpy's name, which fuse "
                 rf"follows, for PyTorch's {torch_name}=\); its parameters are x(,| and) ")
    value = -1 if torch_name == "dim" else True
    with pytest.raises(TypeError, match=match):
        fuse.jit(lambda x: fn(x, **{torch_name: value}))(np.ones((3, 4), np.float32))
    if takes is True or takes == numpy_name:
        # numpy's name works.
        fuse.jit(lambda x: fn(x, **{numpy_name: value}))(np.ones((3, 4), np.float32))


@pytest.mark.parametrize("fn,what,numpys,torchs,instead", [
    (lambda x: x.sum(-1, True), "Tensor.sum", "dtype", "keepdim", "keepdims=True"),
    (lambda x: x.max(-1, True), "Tensor.max", "out", "keepdim", "keepdims=True"),
    (lambda x: x.min(0, np.False_), "Tensor.min", "out", "keepdim", "keepdims=False"),
    (lambda x: x.mean(-1, True), "Tensor.mean", "dtype", "keepdim", "keepdims=True"),
    (lambda x: x.any(-1, True), "Tensor.any", "out", "keepdim", "keepdims=True"),
    (lambda x: x.all(-1, True), "Tensor.all", "out", "keepdim", "keepdims=True"),
    (lambda x: np.sum(x, -1, True), "numpy.sum", "dtype", "keepdim", "keepdims=True"),
    (lambda x: x.var(-1, True), "Tensor.var", "dtype", "unbiased", "ddof=1"),
    (lambda x: x.std(-1, False), "Tensor.std", "dtype", "unbiased", "ddof=0"),
], ids=["sum", "max", "min", "mean", "any", "all", "np-sum", "var", "std"])
def test_pytorchs_positional_keepdim_says_to_give_it_by_keyword(fn, what, numpys, torchs,
                                                                 instead):
    # PyTorch's x.sum(-1, True) keeps the dimension; numpy's second parameter
    # is dtype (or out), and the error was "Tensor.sum with dtype= is not
    # supported", of a dtype= the user never wrote.
    keyword = instead.split("=")[0]
    with pytest.raises(TypeError, match=rf"^fuse: {re.escape(what)} got (True|False) after the "
                       rf"axis, where numpy's parameter is {numpys} \(its parameters after the "
                       rf"array are axis, .*\), not PyTorch's {torchs}: give {keyword} by "
                       rf"keyword \({instead}\)$"):
        fuse.jit(fn)(np.ones((3, 4), np.float32))


def test_reductions_refuse_what_they_do_not_take():
    with pytest.raises(TypeError, match="needs at least one fuse Tensor"):
        fuse.reduce_sum(np.float32(1))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.bool_])
def test_mean_of_integers_is_float32_summed_in_float64(dtype, rng):
    # As the float-only functions, a float32 result (numpy's is float64);
    # summed in float64, so sums beyond float32's 2^24 stay exact, and the
    # mean is numpy's rounded once to float32.
    if dtype == np.bool_:
        x = rng.random((37, 301)) < 0.3
    else:
        x = rng.integers(-(2 ** 30), 2 ** 30, size=(37, 301)).astype(dtype)
    f = fuse.jit(lambda x: (x.mean(), x.mean(0), x.mean(1, keepdims=True), np.mean(x, (0, 1)),
                            fuse.reduce_mean(x, 1)), target="cpu")
    for got, want in zip(f(x), (x.mean(), x.mean(0), x.mean(1, keepdims=True),
                                np.mean(x, (0, 1)), x.mean(1))):
        assert got.dtype == np.float32 and got.shape == want.shape
        assert_same(got, want.astype(np.float32))
    # A sum that float32 would round: 2^31 - 1 a million times.
    big = np.full(10 ** 6, 2 ** 31 - 1, np.int64)
    assert_same(fuse.jit(lambda x: x.mean(), target="cpu")(big), np.float32(2 ** 31 - 1))


# Compositions, against float64 numpy formulas.

def _softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _log_softmax(x, axis=-1):
    shifted = x - x.max(axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis, keepdims=True))


def _layer_norm(x, weight, bias, eps=1e-5):
    centered = x - x.mean(-1, keepdims=True)
    return centered / np.sqrt((centered ** 2).mean(-1, keepdims=True) + eps) * weight + bias


def _rms_norm(x, weight, eps):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * weight


def assert_close(got, reference, dtype, n, scale=1.0):
    """Within (n + 16) roundings of the accumulation and 16 of the result
    type, relative to |reference| + scale: what a few ops and a sum of n
    terms can lose."""
    assert got.dtype == np.dtype(dtype) and got.shape == reference.shape
    tolerance = (n * ACCUMULATE[dtype] + 16 * UNIT[dtype]) * (np.abs(reference) + scale)
    error = np.abs(got.astype(np.float64) - reference)
    assert (error <= tolerance).all(), (f"{int((error > tolerance).sum())} over: largest error "
                                        f"{error.max()}, tolerance there "
                                        f"{tolerance.flat[error.argmax()]}")


SIZES = [(5, 7), (3, 1000), (1000,)]


@pytest.mark.parametrize("shape", SIZES, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_and_log_softmax(dtype, shape, rng):
    x = random_array(rng, dtype, shape)
    x64 = x.astype(np.float64)
    probabilities, logs, by_column = fuse.jit(
        lambda x: (fuse.softmax(x), fuse.log_softmax(x), fuse.softmax(x, axis=0)))(x)
    n = shape[-1]
    assert_close(probabilities, _softmax(x64), dtype, n, scale=0.0)
    assert_close(logs, _log_softmax(x64), dtype, n)
    assert_close(by_column, _softmax(x64, 0), dtype, shape[0], scale=0.0)


@pytest.mark.parametrize("shape", SIZES, ids=str)
@pytest.mark.parametrize("dtype", FLOATS)
def test_layer_norm_and_rms_norm(dtype, shape, rng):
    x = random_array(rng, dtype, shape)
    weight = random_array(rng, dtype, shape[-1:], 0.5, 2.0)
    bias = random_array(rng, dtype, shape[-1:])
    x64, w64, b64 = (a.astype(np.float64) for a in (x, weight, bias))
    f = fuse.jit(lambda x, w, b: (fuse.layer_norm(x, w, b), fuse.layer_norm(x),
                                  fuse.rms_norm(x, w), fuse.rms_norm(x, eps=0.5)))
    with_affine, plain, rms, rms_eps = f(x, weight, bias)
    n = shape[-1]
    # The normalized values are O(1); the weight scales them by up to 2.
    assert_close(with_affine, _layer_norm(x64, w64, b64), dtype, n, scale=4.0)
    assert_close(plain, _layer_norm(x64, 1.0, 0.0), dtype, n, scale=2.0)
    assert_close(rms, _rms_norm(x64, w64, _torch_eps(dtype)), dtype, n, scale=4.0)
    assert_close(rms_eps, _rms_norm(x64, 1.0, eps=0.5), dtype, n, scale=2.0)


def _torch_eps(dtype):
    """torch.nn.functional.rms_norm's eps when not given: the machine
    epsilon of the type it computes in (float32 for float16)."""
    return float(np.finfo(np.float64 if dtype == "float64" else np.float32).eps)


@pytest.mark.parametrize("dtype", FLOATS)
def test_rms_norm_default_eps_is_pytorchs(dtype, rng):
    """With values of 1e-3, whose mean square is near an epsilon, the
    default decides the result (1e-6 gave float16 results 3x PyTorch's;
    float16's own epsilon, 9.77e-4, made a row of 0.01s 0.305 where
    PyTorch 2.15 gives 0.9995)."""
    x = (random_array(rng, dtype, (4, 64)) * 1e-3).astype(dtype)
    got = fuse.jit(lambda x: fuse.rms_norm(x))(x)
    assert_close(got, _rms_norm(x.astype(np.float64), 1.0, eps=_torch_eps(dtype)), dtype, 64,
                 scale=0.0)
    if dtype == "float16":
        row = np.full((1, 64), 0.01, np.float16)
        assert_same(fuse.jit(lambda x: fuse.rms_norm(x))(row),
                    np.full((1, 64), 0.9995, np.float16))


@pytest.mark.parametrize("value", [1234.5678, 33333.33, 123456.79, 1e20])
def test_layer_norm_of_a_constant_row_is_zero(value):
    # A row's float32 sum of 768 copies of 33333.33 is off by ulps: the
    # distances from that mean were an ulp, and the row normalized to
    # +-0.97 (PyTorch gives 0). The distances from the largest element
    # are 0; the rows around it are ordinary ones.
    x = np.random.default_rng(3).standard_normal((3, 768)).astype(np.float32)
    x[1] = value
    f = fuse.jit(lambda x: (fuse.layer_norm(x), fuse.layer_norm(x, 2.0, 0.5)))
    plain, affine = f(x)
    assert (plain[1] == 0).all() and (affine[1] == 0.5).all()
    x64 = x.astype(np.float64)
    assert_close(plain[0::2], _layer_norm(x64[0::2], 1.0, 0.0), "float32", 768, scale=2.0)
    (function,) = fuse.report(fuse.layer_norm, x)["functions"]
    assert function["fused"]["kernel_count"] == 1
    assert function["fused"]["bytes"]["text"] == "8*N*M"


@pytest.mark.parametrize("value", [1234.5678, 33333.33, 123456.79, 1e20])
def test_var_and_std_of_a_constant_row_are_zero(value):
    # The rounded mean of 768 copies of 33333.33 is off by ulps, and the
    # variance was 1.4e-4 (std 0.0117; PyTorch gives 0). The distances from
    # the largest element give 0, with and without ddof, over the rows and
    # over the whole array; the other rows are ordinary ones.
    x = np.random.default_rng(4).standard_normal((3, 768)).astype(np.float32)
    x[1] = value
    f = fuse.jit(lambda x, row, others: (x.var(-1), x.std(-1, ddof=1), np.var(row),
                                         np.std(others, 0)))
    var, std, whole, columns = f(x, x[1:2], x[0::2])
    assert var[1] == 0 and std[1] == 0 and whole == 0
    x64 = x.astype(np.float64)
    assert_close(var[0::2], x64[0::2].var(-1), "float32", 768, scale=1.0)
    assert_close(std[0::2], x64[0::2].std(-1, ddof=1), "float32", 768, scale=1.0)
    assert_close(columns, x64[0::2].std(0), "float32", 2, scale=1.0)


@pytest.mark.parametrize("shape, axis", [((2, 500_000), -1), ((500_000, 2), 0)])
def test_var_and_layer_norm_of_long_constant_rows_are_zero(shape, axis):
    # Two rows of 5e5 elements of 7000001 (and the columns of the
    # transpose): each lane's sum of 15625 elements is sequential, so the
    # mean of the distances from the mean was off too, and the variance was
    # 0.1 (layer norm +-1). The distances from the largest element are 0.
    x = np.full(shape, 7000001.0, np.float32)
    assert (fuse.jit(lambda x: x.var(axis))(x) == 0).all()
    if axis == -1:
        assert (fuse.jit(fuse.layer_norm)(x) == 0).all()


@pytest.mark.parametrize("mean, length", [(3e7, 100_000), (1e6, 1_000_000), (1e5, 1_000_000)])
def test_var_and_layer_norm_of_long_rows_far_from_zero(mean, length):
    # Each lane's float32 sum of a long row is sequential: the mean of 1e6
    # values near 1e5 was off by about 19, and the variance (1.3) came out
    # 360, or 0 with the square of the distances' mean subtracted after
    # squaring (layer_norm's results were off by 1262). The distances
    # corrected before squaring are within numpy's float32 error (its
    # pairwise sum), about 1e-5, of the float64 variance.
    y = np.float32(mean) + np.random.default_rng(2).standard_normal((2, length)).astype(
        np.float32)
    var, std, normed = fuse.jit(lambda y: (y.var(-1), y.std(-1, ddof=1), fuse.layer_norm(y)))(y)
    y64 = y.astype(np.float64)
    np.testing.assert_allclose(var, y64.var(-1), rtol=5e-5)
    np.testing.assert_allclose(std, y64.std(-1, ddof=1), rtol=5e-5)
    np.testing.assert_allclose(normed, _layer_norm(y64, 1.0, 0.0), rtol=0, atol=5e-4)


@pytest.mark.parametrize("dtype, big", [("float32", 3e38), ("float64", 1e308)])
def test_var_and_std_of_rows_whose_range_overflows_are_inf_as_numpys(dtype, big):
    # numpy's var is the mean of (x - mean)**2 in the dtype: rows of finite
    # elements whose range or squares overflow give inf. The distance of
    # -big from the largest element, big, overflowed to -inf, the mean of
    # the distances was -inf, and -inf - -inf made the variance NaN. A row
    # whose sum of distances overflows ([big, 0, 0, 0]) is inf too; an inf or
    # NaN element still gives NaN, as numpy's. A row near 4e19 (halved
    # before its distances are taken) is an ordinary row.
    rows = np.array([[big, -big, 0.0, 0.0], [big, -big, -big, -big], [big, 0.0, 0.0, 0.0],
                     [-big, big, big, 1.0], [np.inf, 1.0, 2.0, 3.0], [np.nan, 1.0, 2.0, 3.0],
                     [1.0, 2.0, 4.0, 8.0], [4e19, 3e19, 3.5e19, 3.2e19]], dtype)
    f = fuse.jit(lambda x, first: (x.var(-1), np.std(x, -1), x.var(-1, ddof=1), np.var(first),
                                   x.std()))
    with np.errstate(over="ignore", invalid="ignore"):
        want = (rows.var(-1), np.std(rows, -1), rows.var(-1, ddof=1), np.var(rows[:2]),
                rows.std())
        exact = rows.astype(np.float64).var(-1)
    results = f(rows, rows[:2])
    for got, expected in zip(results, want):
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
        np.testing.assert_array_equal(np.isposinf(got), np.isposinf(expected))
    var = results[0]
    assert np.isposinf(var[:4]).all() and np.isnan(var[4:6]).all()
    np.testing.assert_allclose(var[6:], exact[6:], rtol=1e-6 if dtype == "float32" else 1e-14)
    # float16 computes in float32, where [60000, -60000] does not
    # overflow: its variance, 3.6e9, rounds to inf, as numpy's.
    half = np.array([60000, -60000], np.float16)
    with np.errstate(over="ignore"):
        assert np.isposinf(np.var(half))
    assert np.isposinf(fuse.jit(lambda x: np.var(x))(half))


@pytest.mark.parametrize("dtype, big", [("float32", 3e38), ("float64", 1e308)])
def test_layer_norm_of_rows_whose_variance_overflows_is_zero(dtype, big):
    # A row of finite elements whose variance overflows the type has a root
    # of 0: it normalizes to +-0 (the bias, with one), as PyTorch's does
    # when its squares overflow ([1e20, -1e20] in float32, and here before
    # too). Its range overflowing ([big, -big]) or the sum of its distances
    # ([big, 0, 0, 0]) gave NaN: an infinite distance times 0. An inf or
    # NaN element still gives NaN; the other rows are ordinary ones.
    square_root = np.sqrt(np.finfo(dtype).max) * 4
    rows = np.array([[big, -big, 0.0, 0.0], [big, 0.0, 0.0, 0.0], [big, -big, -big, -big],
                     [square_root, -square_root, 0.0, 0.0], [np.inf, 1.0, 2.0, 3.0],
                     [np.nan, 1.0, 2.0, 3.0], [1.0, 2.0, 4.0, 8.0],
                     [4e19, 3e19, 3.5e19, 3.2e19]], dtype)
    plain, affine = fuse.jit(lambda x: (fuse.layer_norm(x), fuse.layer_norm(x, 2.0, 0.5)))(rows)
    assert (plain[:4] == 0).all() and (affine[:4] == 0.5).all()
    assert np.isnan(plain[4:6]).all() and np.isnan(affine[4:6]).all()
    want = _layer_norm(rows[6:].astype(np.float64), 1.0, 0.0)
    np.testing.assert_allclose(plain[6:], want, rtol=0, atol=1e-5)


@pytest.mark.parametrize("shape, axis, squeezed_axis, kernels", [
    ((4, 768, 1), 1, 1, 1), ((2, 1, 3, 1), (0, 2), (0, 1), 5), ((3, 1, 100), -1, -1, 1)])
def test_dimensions_of_size_1_fuse_as_without_them(rng, shape, axis, squeezed_axis, kernels):
    # A size-1 dimension makes no loop: the normalization over the 768 of a
    # `? x ? x 1` array was 5 kernels and is 1, as over `? x ?`; over the
    # axes 0 and 2 of `2 x 1 x 3 x 1` it was 10 and is the 5 of a whole
    # `? x ?` array (a dynamic row, reduced in pieces).
    def norm(x, axis):
        c = x - x.mean(axis=axis, keepdims=True)
        return c * fuse.rsqrt((c * c).mean(axis=axis, keepdims=True) + 1e-5)
    f = fuse.jit(norm, static_argnames="axis")
    x = random_array(rng, "float32", shape)
    (function,) = fuse.report(f, x, axis)["functions"]
    (squeezed,) = fuse.report(f, x.squeeze(), squeezed_axis)["functions"]
    assert function["fused"]["kernel_count"] == squeezed["fused"]["kernel_count"] == kernels
    x64 = x.astype(np.float64)
    c = x64 - x64.mean(axis=axis, keepdims=True)
    expected = c / np.sqrt((c * c).mean(axis=axis, keepdims=True) + 1e-5)
    assert_close(f(x, axis), expected, "float32", x.size, scale=4.0)


def test_softmax_is_one_kernel(rng):
    x = random_array(rng, "float32", (8, 100))
    (function,) = fuse.report(fuse.softmax, x)["functions"]
    assert function["fused"]["kernel_count"] == 1
    f = fuse.jit(fuse.softmax, profile=True)
    f(x)
    assert len(f.last_profile) == 1


def test_a_chain_of_layer_norms_takes_a_kernel_per_two(rng):
    # A kernel takes at most 6 levels of reductions (two layer norms): in
    # one kernel, each of its passes over a row computed again every layer
    # before it, in time quadratic in the chain's length (20 layers ran
    # slower than eager). The next kernel computes the last layer again from
    # the means and variances the one before stored.
    x = random_array(rng, "float32", (40, 300))

    def chain(h, n):
        for _ in range(n):
            h = fuse.layer_norm(h) * 1.01 + 0.1
        return h

    for n, kernels in ((1, 1), (2, 1), (3, 2), (5, 3), (8, 4)):
        (function,) = fuse.report(lambda h: chain(h, n), x)["functions"]
        assert function["fused"]["kernel_count"] == kernels, n
    want = x.astype(np.float64)
    for _ in range(5):
        want = _layer_norm(want, 1.0, 0.0) * 1.01 + 0.1
    assert_close(fuse.jit(lambda h: chain(h, 5))(x), want, "float32", 300, scale=10.0)


def test_a_chain_of_softmaxes_is_a_kernel_each(rng):
    # The second max would read the first exp, which each later pass over
    # the row would compute again: a kernel per softmax, which stores its
    # result (2 softmaxes were one kernel computing the first exp 5 times).
    x = random_array(rng, "float32", (40, 300))

    def chain(h, n):
        for _ in range(n):
            h = fuse.softmax(h) * 2.0
        return h

    for n in (1, 2, 3):
        (function,) = fuse.report(lambda h: chain(h, n), x)["functions"]
        assert function["fused"]["kernel_count"] == n, n
        assert function["fused"]["bytes"]["text"] == f"{8 * n}*N*M", n
    want = x.astype(np.float64)
    for _ in range(3):
        want = _softmax(want) * 2.0
    assert_close(fuse.jit(lambda h: chain(h, 3))(x), want, "float32", 300, scale=1.0)
    # A log_softmax's max reads x - max, which elementwise fusion yields from
    # the generic that computes exp(x - max) too: only the value read counts
    # (three log_softmaxes per kernel, 6 levels, as two layer norms; they
    # were one each).
    for n, kernels in ((1, 1), (3, 1), (4, 2)):
        def logs(h, n=n):
            for _ in range(n):
                h = fuse.log_softmax(h)
            return h
        (function,) = fuse.report(logs, x)["functions"]
        assert function["fused"]["kernel_count"] == kernels, n


def test_a_chain_of_softmaxes_over_axis_0_is_5_kernels_each(rng):
    # Each softmax over a leading axis reads the one before's result, which
    # is stored; its kernels computed every softmax before it again.
    x = random_array(rng, "float32", (300, 40))

    def chain(h, n):
        for _ in range(n):
            h = fuse.softmax(h, axis=0) * 2.0
        return h

    for n in (1, 2, 4):
        (function,) = fuse.report(lambda h: chain(h, n), x)["functions"]
        assert function["fused"]["kernel_count"] == 5 * n, n
    want = x.astype(np.float64)
    for _ in range(3):
        want = _softmax(want, 0) * 2.0
    assert_close(fuse.jit(lambda h: chain(h, 3))(x), want, "float32", 300, scale=1.0)


@pytest.mark.parametrize("shape", [(300, 1000), (3, 5000), (100003,)])
def test_reductions_of_one_operand_are_one_kernel(shape, rng):
    # Nothing joins them but their operand: one kernel (with its pieces for
    # few rows) reads x once for the three.
    x = random_array(rng, "float32", shape)

    def stats(x):
        return x.sum(-1), x.max(-1), x.mean(-1)

    (function,) = fuse.report(stats, x)["functions"]
    fused, eager = function["fused"], function["eager"]
    if len(shape) == 2:
        assert (fused["kernel_count"], fused["bytes_read"]["text"]) == (1, "4*N*M")
        assert (eager["kernel_count"], eager["bytes_read"]["text"]) == (3, "12*N*M")
    else:
        # A vector is reduced in P pieces (100003 elements: 128), and then
        # their P values: 3 reductions' partial values, 4 bytes each.
        assert (fused["kernel_count"], fused["bytes_read"]["text"]) == (2, "4*N + 12*P")
        assert (eager["kernel_count"], eager["bytes_read"]["text"]) == (6, "12*N + 12*P")
        assert fuse.size_at(fused["bytes_read"], {"N": shape[0]}) == 4 * shape[0] + 12 * 128
    total, top, mean = fuse.jit(stats, target="cpu")(x)
    x64 = x.astype(np.float64)
    assert_close(total, x64.sum(-1), "float32", shape[-1])
    assert_same(top, x.max(-1))
    assert_close(mean, x64.mean(-1), "float32", shape[-1])


def test_full_reduction_and_its_consumer_use_the_whole_gpu(rng):
    # x - x.mean() of a vector: the mean is reduced in P pieces (128 for
    # 100003 elements) by a kernel of its own (a warp per piece), the
    # subtraction is another; not one kernel in which one warp goes over the
    # whole vector twice.
    x = random_array(rng, "float32", (100003,))
    (function,) = fuse.report(lambda x: x - x.mean(), x)["functions"]
    kernels = function["fused"]["kernels"]
    assert [k["name"] for k in kernels] == ["reduce_mean_0_pieces", "reduce_mean_0", "sub_1"]
    assert kernels[0]["rows"]["gpu"] == "warp per piece, P pieces per row"
    assert fuse._sizes.sizes_at(function, [x.shape])["P"] == 128
    y = fuse.jit(lambda x: x - x.mean(), target="cpu")(x)
    x64 = x.astype(np.float64)
    assert_close(y, x64 - x64.mean(), "float32", x.size)


def test_half_types_compute_in_float32():
    # float16 rows whose sums of squares or of exps overflow float16 (65504)
    # normalize as in float32 (PyTorch's statistics are float32 too), in one
    # kernel; the result keeps x's dtype.
    wide = np.array([[0, 1000]], np.float16)
    f = fuse.jit(lambda x: (fuse.layer_norm(x, eps=1e-3), fuse.rms_norm(x)), target="cpu")
    normed, rms = f(wide)
    assert normed.dtype == np.float16
    assert_same(normed, np.array([[-1, 1]], np.float16))
    rsqrt = np.float32(1) / np.sqrt(np.float32(500000))
    assert_same(rms, (wide.astype(np.float32) * rsqrt).astype(np.float16))
    long_row = np.zeros((1, 70000), np.float16)
    probabilities = fuse.jit(fuse.softmax, target="cpu")(long_row)
    assert_same(probabilities, np.full((1, 70000), np.float32(1 / 70000), np.float16))
    # Rows of a dynamic length, as many as the trace does not fix (one row
    # is a full reduction, which the whole GPU reduces in kernels apart).
    rows = np.repeat(wide, 300, axis=0)
    (function,) = fuse.report(lambda x: fuse.layer_norm(x), rows)["functions"]
    assert function["fused"]["kernel_count"] == 1


def test_compositions_of_integers_compute_in_float64(rng):
    # Integers and bools compute in float64 and round the result to float32:
    # the same bits as the float64 composition, rounded.
    i = rng.integers(-50, 50, size=(7, 5)).astype(np.int32)
    flags = rng.integers(0, 2, size=(7, 5)).astype(bool)
    f = fuse.jit(lambda x: (fuse.layer_norm(x), fuse.rms_norm(x, eps=1e-6), fuse.softmax(x),
                            fuse.log_softmax(x)), target="cpu")
    for x in (i, flags):
        for got, want in zip(f(x), f(x.astype(np.float64))):
            assert got.dtype == np.float32
            assert_same(got, want.astype(np.float32))


@pytest.mark.parametrize("shape, axis", [
    ((6, 1), -1), ((300, 1), -1), ((4, 1, 7), (1, 2)), ((2, 1, 3, 1), -1), ((5, 9, 1), -1),
    ((1, 8, 16), 0)])
def test_reductions_over_sizes_of_1_fuse(shape, axis, rng):
    # A reduction over dimensions of size 1 only is a copy over the
    # operand's own loops, and one of size 1 inside a run goes with it: the
    # softmax and the layer norm are one kernel, as over the same rows
    # without the 1s (they were 2 to 3).
    x = random_array(rng, "float32", shape)
    soft = lambda x: fuse.softmax(x, axis=axis)
    report = fuse.report(soft, x)["functions"][0]
    assert report["fused"]["kernel_count"] == 1
    e = np.exp(x.astype(np.float64) - x.max(axis=axis, keepdims=True))
    want = e / e.sum(axis=axis, keepdims=True)
    np.testing.assert_allclose(fuse.jit(soft, target="cpu")(x), want, rtol=1e-6, atol=1e-7)
    if axis == -1:
        assert fuse.report(lambda x: fuse.layer_norm(x), x)["functions"][0]["fused"][
            "kernel_count"] == 1


def test_var_and_std_of_integers_compute_in_float64(rng):
    # As numpy's, rounded to float32 (the float-only functions' dtype):
    # integers near 2^30 that differ by little have no float32 of their own
    # (a float32 variance of 10^9 + 0 .. 11 was 0).
    near = (10 ** 9 + np.arange(12)).astype(np.int32).reshape(3, 4)
    small = rng.integers(-50, 50, size=(7, 5)).astype(np.int64)
    flags = np.array([[True, False, True, True]])
    for x in (near, small, flags):
        f = fuse.jit(lambda x: (x.var(), x.var(0), x.std(1, ddof=1), np.std(x, 1)),
                     target="cpu")
        for got, want in zip(f(x), (x.var(), x.var(0), x.std(1, ddof=1), np.std(x, 1))):
            assert got.dtype == np.float32 and got.shape == want.shape
            np.testing.assert_allclose(got, want.astype(np.float32), rtol=2 ** -23, atol=0)


def test_norms_and_softmax_of_integers_compute_in_float64():
    # As var's: in float32, x - mean(x) and x - max(x) of integers near 2^30
    # that differ by little were 0 (a layer norm of [2^30, 2^30 + 2] was
    # [0, 0]); the result is float32.
    x = np.array([[2 ** 30, 2 ** 30 + 2, 2 ** 30 + 3], [1, 3, -4]], np.int32)
    x64 = x.astype(np.float64)
    f = fuse.jit(lambda x: (fuse.layer_norm(x), fuse.softmax(x), fuse.log_softmax(x),
                            fuse.rms_norm(x)), target="cpu")
    for got, want in zip(f(x), (_layer_norm(x64, 1.0, 0.0), _softmax(x64, -1),
                                _log_softmax(x64), _rms_norm(x64, 1.0, 2.0 ** -23))):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=2 ** -22, atol=2 ** -22)


def _norm_size_message(what, name, line, size, where, rows):
    return (rf"^fuse: fuse\.{what} at {re.escape(__file__)}:{line}:\d+: {name} has size {size} "
            rf"on its last axis \({where}\), but x's last axis, which fuse\.{what} normalizes "
            rf"over, has size {rows} \(dimension 1 of argument 'x'\); a weight or bias has the "
            rf"size of x's last axis \(or 1, which broadcasts\): PyTorch's normalized_shape is "
            rf"x\.shape\[-1:\]$")


def test_norm_parameters_of_another_size_name_the_norm_and_the_argument(rng):
    # Not the library's "fuse.mul ... dimension 1 of argument 0 and dimension
    # 0 of argument 1 must be equal": the sizes are dynamic while tracing,
    # and checked in the norm's terms when the function is called.
    def norms(x, w, b):
        return fuse.layer_norm(x, w, b)

    line = norms.__code__.co_firstlineno + 1
    f = fuse.jit(norms, target="cpu")
    x = random_array(rng, "float32", (3, 4))
    good, short = np.ones(4, np.float32), np.ones(3, np.float32)
    f(x, good, good)
    f(x, good, good)  # the short path checks too
    with pytest.raises(ValueError, match=_norm_size_message(
            "layer_norm", "weight", line, 3, "dimension 0 of argument 'w'", 4)):
        f(x, short, good)
    with pytest.raises(ValueError, match=_norm_size_message(
            "layer_norm", "bias", line, 3, "dimension 0 of argument 'b'", 4)):
        f(x, good, short)
    # One of two axes is refused when traced, whatever its sizes.
    with pytest.raises(ValueError, match=r"^fuse: fuse\.layer_norm at .*: bias \(argument "
                                         r"'b'\) has 2 axes, but a weight or bias has one axis"):
        f(x, good, np.ones((3, 5), np.float32))
    # rms_norm's operands are computed from the arguments: their sizes are
    # still known to be the arguments'.
    g = fuse.jit(lambda x, w: fuse.rms_norm(x * 2.0, w + 1.0), target="cpu")
    line = sys._getframe().f_lineno - 1
    with pytest.raises(ValueError, match=_norm_size_message(
            "rms_norm", "weight", line, 2, "dimension 0 of argument 'w'", 4)):
        g(x, np.ones(2, np.float32))
    # A size of 1 and a scalar broadcast, as before; a norm whose result the
    # function does not return is not checked (nor computed).
    ones = np.ones(1, np.float32)
    want = f(x, good, np.zeros(4, np.float32))
    np.testing.assert_array_equal(f(x, ones, np.float32(0)), want)
    h = fuse.jit(lambda x, w: (fuse.layer_norm(x, w), x + 1.0)[1], target="cpu")
    np.testing.assert_array_equal(h(x, short), x + 1.0)
    # x's last axis of size 1 (static) takes no weight of another size.
    with pytest.raises(ValueError, match=r"^fuse: fuse\.layer_norm at .*: weight has size 3 on "
                                         r"its last axis \(dimension 0 of argument 'w'\), but "
                                         r"x's last axis, which fuse\.layer_norm normalizes "
                                         r"over, has size 1; "):
        fuse.jit(lambda x, w: fuse.layer_norm(x, w))(np.ones((3, 1), np.float32), short)


def test_norm_parameters_of_static_sizes_are_checked_when_traced():
    from fuse import _trace
    leaves = [("tensor", "x", "f32", (3, 4)), ("tensor", "w", "f32", (3,))]
    with pytest.raises(ValueError, match=r"^fuse: fuse\.rms_norm at .*: weight has size 3 on "
                                         r"its last axis, but x's last axis, which "
                                         r"fuse\.rms_norm normalizes over, has size 4; a weight"):
        _trace.trace_function(fuse.rms_norm, "f", leaves, lambda values: (values, {}))


def test_norm_parameters_of_more_than_one_axis_are_refused_when_traced():
    # A weight or bias is PyTorch's normalized_shape, x.shape[-1:]: one of
    # rank 2 failed in fuse.add's broadcast, numbered by program input, and
    # one of x's shape was applied per element, silently.
    x, w = np.ones((3, 4), np.float32), np.ones(4, np.float32)
    norm = fuse.jit(lambda x, w, b: fuse.layer_norm(x, w, b))
    for weight, bias, name in ((w, np.ones((2, 4), np.float32), "bias 'b'"),
                               (np.ones((3, 4), np.float32), w, "weight 'w'"),
                               (np.ones((1, 4), np.float32), w, "weight 'w'")):
        parameter, argument = name.split()
        with pytest.raises(ValueError, match=r"^fuse: fuse\.layer_norm at .*test_reductions\.py:"
                                             r"\d+:\d+: " + parameter + r" \(argument "
                                             + argument + r"\) has 2 axes, but a weight or bias "
                                             r"has one axis, of the size of x's last axis, which "
                                             r"fuse\.layer_norm normalizes over \(or 1, which "
                                             r"broadcasts\), or is a scalar: PyTorch's "
                                             r"normalized_shape is x\.shape\[-1:\]$"):
            norm(x, weight, bias)
    with pytest.raises(ValueError, match=r"^fuse: fuse\.rms_norm at .*: weight \(argument 'w'\) "
                                         r"has 3 axes, but a weight or bias has one axis"):
        fuse.jit(lambda x, w: fuse.rms_norm(x, w))(np.ones((2, 3, 4)), np.ones((2, 3, 4)))
    # One axis, or a scalar, as before.
    assert_same(norm(x, w, np.float32(0.5)), np.full((3, 4), 0.5, np.float32))


@pytest.mark.parametrize("x_dtype,weight_dtype,result", [
    (np.float16, np.float16, np.float16), (np.float16, np.float32, np.float32),
    (np.float32, np.float64, np.float64), (np.int32, np.float16, np.float32),
    (np.int32, np.float64, np.float64), (np.float32, np.int32, np.float32)])
def test_norm_parameters_promote_with_x(x_dtype, weight_dtype, result, rng):
    # The result's dtype is x's (float32 for integers) and the weight's
    # promoted, the wider winning; half types still compute in float32.
    x = (rng.standard_normal((3, 6)) * 4).astype(x_dtype)
    w = (rng.standard_normal(6) + 2).astype(weight_dtype)
    got = fuse.jit(lambda x, w: (fuse.layer_norm(x, w), fuse.rms_norm(x, w)), target="cpu")(x, w)
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    centered = x64 - x64.mean(-1, keepdims=True)
    layer = centered / np.sqrt((centered ** 2).mean(-1, keepdims=True) + 1e-5) * w64
    rms = x64 / np.sqrt((x64 ** 2).mean(-1, keepdims=True) + 1e-6) * w64
    tolerance = 2e-3 if np.float16 in (x_dtype, weight_dtype, result) else 1e-5
    for value, want in zip(got, (layer, rms)):
        assert value.dtype == result
        np.testing.assert_allclose(value.astype(np.float64), want, rtol=tolerance,
                                   atol=tolerance)


def _softmax_over(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


@pytest.mark.parametrize("dtype", FLOATS)
def test_softmax_over_several_axes(dtype, rng):
    # Over the innermost axes (1, 2), the rows are collapsed into one and
    # the ops around the reductions with them: one kernel, which reads x
    # once and writes the result once, the same values fused and eager.
    x = random_array(rng, dtype, (3, 5, 70))
    x64 = x.astype(np.float64)
    fn = lambda x: (fuse.softmax(x, axis=(1, 2)),  # noqa: E731
                    fuse.log_softmax(x, axis=(1, 2)),
                    x - x.mean(axis=(1, 2), keepdims=True))
    fused = fuse.jit(fn, target="cpu")(x)
    eager = fuse.jit(fn, target="cpu", fusion=False)(x)
    for a, b in zip(fused, eager):
        assert_same(a, b)
    n = 5 * 70
    assert_close(fused[0], _softmax_over(x64, (1, 2)), dtype, n, scale=0.0)
    shifted = x64 - x64.max((1, 2), keepdims=True)
    assert_close(fused[1], shifted - np.log(np.exp(shifted).sum((1, 2), keepdims=True)),
                 dtype, n)
    assert_close(fused[2], x64 - x64.mean((1, 2), keepdims=True), dtype, n)
    for one in (lambda x: fuse.softmax(x, axis=(1, 2)),
                lambda x: fuse.log_softmax(x, axis=(1, 2)),
                lambda x: x - x.mean(axis=(1, 2), keepdims=True)):
        (function,) = fuse.report(one, x)["functions"]
        assert function["fused"]["kernel_count"] == 1

def test_keepdims_of_a_scalar_argument_says_how_to_make_it_static():
    # A Python scalar argument is a run-time value: it cannot decide the
    # result's rank, and the error says so (and how), as for axis.
    x = np.ones((3, 4), np.float32)
    with pytest.raises(TypeError, match=r"^fuse: argument 'k' of <lambda> is a Python scalar, "
                                        r"which a jitted function takes as a run-time value .* it "
                                        r"cannot be fuse\.reduce_sum's keepdims; name it in "
                                        r"fuse\.jit\(static_argnames=\.\.\.\) to make it a "
                                        r"constant of the trace, or pass True or False$"):
        fuse.jit(lambda a, k: np.sum(a, axis=1, keepdims=k))(x, True)
    f = fuse.jit(lambda a, k: np.sum(a, axis=1, keepdims=k), static_argnames=["k"])
    assert f(x, True).shape == (3, 1) and f(x, False).shape == (3,)


def _ieee(op, x, axis):
    """IEEE 754 maximum or minimum over `axis`: NaN if any element is NaN,
    and -0 < +0 (numpy's max of +0 and -0 depends on their order)."""
    got = getattr(np, op)(x, axis)
    if np.issubdtype(x.dtype, np.floating):
        zero = np.signbit(x) if op == "min" else ~np.signbit(x)
        signed = np.any((x == 0) & zero, axis=axis)
        fixed = np.where(signed, x.dtype.type(0) if op == "max" else x.dtype.type(-0.0),
                         x.dtype.type(-0.0) if op == "max" else x.dtype.type(0))
        got = np.where(got == 0, fixed, got)
    return got


# One jitted function per axis, so that the shapes of one rank and dtype
# share a compiled program.
_EXTREMES = {
    0: fuse.jit(lambda x: (x.max(0), x.min(0), fuse.reduce_sum(x, 0)), target="cpu"),
    1: fuse.jit(lambda x: (x.max(1), x.min(1), fuse.reduce_sum(x, 1)), target="cpu"),
}


# A max, a min or an integer sum gives the same bits in any order: a cpu
# target thread takes 2 elements of its rows at a time into 2 sets of
# accumulators (8 into 8 for a thread of one column, the rest of fewer
# than 8 into as many). Odd and even row counts, NaN and signed zeros
# among them; over one kept loop (a group of 32 columns), two (the stepped
# group) and a few columns of many rows (the pieces, then their values).
@pytest.mark.parametrize("shape,axis", [((3, 70), 0), ((4, 33), 0), ((5, 64), 0),
                                        ((9, 8, 37), 1), ((4001, 5), 0), ((6, 50, 7), 1),
                                        ((37, 3), 0), ((100003, 1), 0), ((13, 2, 5), 0)])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_exact_reductions_in_any_order(shape, axis, dtype, rng):
    if np.issubdtype(np.dtype(dtype), np.floating):
        x = rng.standard_normal(shape).astype(dtype)
        pick = rng.random(shape)
        x[pick < 0.02] = np.nan
        x[(pick > 0.3) & (pick < 0.5)] = 0.0
        x[(pick > 0.5) & (pick < 0.7)] = -0.0
    else:
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, shape, dtype=dtype)
    largest, smallest, total = _EXTREMES[axis](x)
    assert_same(largest, _ieee("max", x, axis))
    assert_same(smallest, _ieee("min", x, axis))
    if not np.issubdtype(np.dtype(dtype), np.floating):
        with np.errstate(over="ignore"):
            assert_same(total, np.sum(x, axis, dtype=dtype))


@pytest.mark.parametrize("columns", [1, 2, 3, 4, 5, 7, 8, 13, 31, 32, 33, 37, 70])
def test_column_reductions_of_every_width(columns):
    """Sums, maxima and sums of exp over the rows of N x columns matrices:
    on the cpu target a thread takes its piece of all the columns together
    (a group of 32, 4 of a last group's at a time, then one at a time).
    Against numpy: max exactly, the sums within the bound; fused and eager
    give the same bits."""
    rng = np.random.default_rng(columns)
    x = rng.standard_normal((3001, columns)).astype(np.float32)
    x[17, columns - 1] = np.nan

    def f(x):
        return x.sum(0), x.max(0), np.exp(x).sum(0), np.exp(x).max(0, keepdims=True)

    fused = fuse.jit(f, target="cpu")(x)
    eager = fuse.jit(f, target="cpu", fusion=False)(x)
    for got, again in zip(fused, eager):
        assert_same(got, again)
    assert_sum_within_bound(fused[0], x, 0, False, "float32")
    assert_same(fused[1], x.max(0))
    e = np.exp(x.astype(np.float64))
    np.testing.assert_array_equal(np.isnan(fused[2]), np.isnan(e.sum(0)))
    finite = ~np.isnan(fused[2])
    # exp within its 2 ulp, then the sum's bound.
    bound = (2 * 2.0 ** -23 + 1.01 * 3000 * 2.0 ** -24) * e.sum(0)[finite]
    assert (np.abs(fused[2][finite] - e.sum(0)[finite]) <= bound).all()
    np.testing.assert_allclose(fused[3], np.exp(x).max(0, keepdims=True), rtol=2.0 ** -22)


@pytest.mark.parametrize("shape, axis", [((5, 0), -1), ((0, 5), -1), ((3, 0, 2), 1), ((0,), 0)],
                         ids=str)
def test_softmax_over_an_empty_axis_is_empty(shape, axis):
    """PyTorch's softmax and log_softmax of an empty axis are empty; the max
    they subtract (reduce_max with identity_if_empty) is never read. A max
    alone of an empty axis is still an error, as numpy's."""
    x = np.ones(shape, np.float32)
    f = fuse.jit(lambda x: (fuse.softmax(x, axis), fuse.log_softmax(x, axis)))
    for got in f(x):
        assert got.dtype == np.float32 and got.shape == shape
    # The same program runs on a non-empty axis.
    full = np.zeros((2, 4), np.float32)
    probabilities, logs = fuse.jit(lambda x: (fuse.softmax(x), fuse.log_softmax(x)))(full)
    np.testing.assert_array_equal(probabilities, np.full((2, 4), 0.25, np.float32))
    np.testing.assert_array_equal(logs, np.full((2, 4), np.float32(-np.log(4.0)), np.float32))
    if shape[axis] == 0:
        with pytest.raises(fuse.FuseError, match=r"an empty reduce_max has no value"):
            fuse.jit(lambda x: fuse.reduce_max(x, axis))(x)


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_numpys_initial_of_sum_max_and_min(dtype):
    """numpy's initial=: the reduction of the elements and initial, so that
    an empty axis gives initial (max and min take their identity there:
    identity_if_empty); the result has the array's dtype."""
    for shape in [(2, 3), (2, 0), (0, 3)]:
        x = np.arange(-3, -3 + int(np.prod(shape))).reshape(shape).astype(dtype)
        f = fuse.jit(lambda a: (np.max(a, axis=1, initial=1), a.min(1, initial=-2),
                                np.sum(a, 1, initial=10), a.max(initial=-100),
                                np.min(a, 0, keepdims=True, initial=0)))
        want = (np.max(x, axis=1, initial=1), x.min(1, initial=-2),
                np.sum(x, 1, initial=10, dtype=x.dtype), x.max(initial=-100),
                np.min(x, 0, keepdims=True, initial=0))
        for got, expected in zip(f(x), want):
            assert_same(got, expected)
    nan = np.array([np.nan, 1.0], np.float32)
    assert np.isnan(fuse.jit(lambda a: np.max(a, initial=5))(nan))  # NaN propagates


@pytest.mark.parametrize("dtype, values, initial, want", [
    ("float16", [-20000.0] * 4, 60000.0, -20000.0),
    ("float16", [2048.0, 1.0], -1.0, 2048.0),
])
def test_initial_joins_a_half_sums_float32(dtype, values, initial, want):
    # A float16 sum accumulates in float32 and rounds once: initial too. The
    # sum rounded to float16 first overflowed (-80000: -inf) where the total
    # fits, and rounded twice (2049 to 2048, then 2047).
    x = np.array([values], dtype)
    assert_same(fuse.jit(lambda x: x.sum(-1, initial=initial))(x), np.array([want], dtype))


def test_fuses_own_reductions_take_initial():
    """fuse.reduce_sum, reduce_max and reduce_min take numpy's initial= too,
    by keyword or in its place after keepdims, and give what numpy's do
    (an empty max gives initial instead of an error)."""
    x = np.arange(-3, 3, dtype=np.float32).reshape(2, 3)
    empty = np.zeros((2, 0), np.float32)
    f = fuse.jit(lambda a: (fuse.reduce_sum(a, 1, False, 10), fuse.reduce_max(a, initial=7),
                            fuse.reduce_min(a, 0, True, initial=-5)))
    for value in (x, empty):
        want = (np.sum(value, 1, initial=10), np.max(value, initial=7),
                np.min(value, 0, keepdims=True, initial=-5))
        for got, expected in zip(f(value), want):
            assert_same(got, expected)
    with pytest.raises(TypeError, match=r"^fuse: fuse\.reduce_max: initial must be a number"):
        fuse.jit(lambda a: fuse.reduce_max(a, initial=a))(x)
    with pytest.raises(TypeError, match=r"fuse\.reduce_mean got an unexpected argument 'initial'"):
        fuse.jit(lambda a: fuse.reduce_mean(a, initial=1.0))(x)


def test_initial_of_a_scalar_argument_says_how_to_make_it_static():
    # As axis= and ddof= say (it said "initial must be a number, got Tensor
    # <fuse.Tensor tensor<f64>>", naming neither the argument nor the fix).
    x = np.ones(3)
    for fn, what in ((lambda x, v: x.sum(initial=v), r"Tensor\.sum"),
                     (lambda x, v: np.max(x, initial=v * 2), r"numpy\.max"),
                     (lambda x, v: fuse.reduce_min(x, initial=v), r"fuse\.reduce_min")):
        with pytest.raises(TypeError, match=r"^fuse: (argument 'v' of <lambda> is a Python "
                                            r"scalar|this value is computed from argument 'v' "
                                            r"of <lambda> alone, a Python scalar), which a jitted "
                                            r"function takes as a run-time value .* it cannot be "
                                            + what + r"'s initial; name it in "
                                            r"fuse\.jit\(static_argnames=\.\.\.\) to make it a "
                                            r"constant of the trace, or pass a number$"):
            fuse.jit(fn)(x, 1.5)
    f = fuse.jit(lambda x, v: x.sum(initial=v), static_argnames=["v"])
    assert_same(f(x, 1.5), np.sum(x, initial=1.5))


@pytest.mark.parametrize("dtype", INTS)
def test_initial_of_another_dtype_is_converted_to_an_integer_arrays_dtype(dtype):
    """numpy converts initial= to the array's integer type (a float truncated
    toward zero) and reduces exactly; fuse promoted the result with it, and
    an int32 sum past 2**24 went through float32 and back (16777217 + 0.25
    was 16777216), and an int64 initial wrapped (max(initial=2**40) was 0)."""
    x = np.array([[16777217, 0], [100000001, 0], [1, 2], [-3, 4]], dtype)
    f = fuse.jit(lambda a: (a.sum(1, initial=0.25), np.sum(a, 1, initial=-0.5),
                            a.max(1, initial=0.5), a.min(1, initial=1e9 + 0.5),
                            a.sum(initial=np.float32(2.9)), a.max(1, initial=np.int64(-7)),
                            np.min(a, 1, initial=True), a.sum(1, initial=np.array(-2.9))))
    want = (x.sum(1, initial=0.25, dtype=dtype), np.sum(x, 1, initial=-0.5, dtype=dtype),
            x.max(1, initial=0.5), x.min(1, initial=1e9 + 0.5),
            x.sum(initial=np.float32(2.9), dtype=dtype), x.max(1, initial=np.int64(-7)),
            np.min(x, 1, initial=True), x.sum(1, initial=np.array(-2.9), dtype=dtype))
    got = f(x)
    for g, w in zip(got, want):
        assert_same(g, w)
    assert list(map(int, got[0])) == [16777217, 100000001, 3, 1]
    assert "f32" not in f.mlir and "f64" not in f.mlir  # exact: no float on the way
    wide = np.array([1, -1, 2, 3], np.int64)
    assert_same(fuse.jit(lambda a: a.max(initial=np.int64(2 ** 40)))(wide), np.int64(2 ** 40))


@pytest.mark.parametrize("initial,error,match", [
    (np.int64(2 ** 40), OverflowError,
     r"^fuse: Tensor\.max at .*test_reductions\.py:\d+:\d+: initial=1099511627776 does not fit "
     r"int32, the array's dtype, in which numpy's initial= is taken \(numpy wraps an int "
     r"there\): make the array wider first \(x\.astype\(np\.int64\)\), or cast it to a float "
     r"type$"),
    (-2 ** 31 - 1, OverflowError, r"initial=-2147483649 does not fit int32"),
    (1e10, OverflowError, r"initial=10000000000\.0 does not fit int32, the array's dtype, in "
                          r"which numpy's initial= is taken: make"),
    (math.inf, OverflowError, r"initial=inf does not fit int32"),
    (math.nan, ValueError, r"^fuse: Tensor\.max at .*: initial=nan is NaN, which the int32 "
                           r"array cannot hold \(numpy raises ValueError too\); give an "
                           r"integer, or cast the array to a float type first$"),
], ids=["int64-scalar", "int", "float", "inf", "nan"])
def test_initial_that_an_integer_array_cannot_hold_is_refused(initial, error, match):
    x = np.array([1, -1, 2, 3], np.int32)
    with pytest.raises(error, match=match):
        fuse.jit(lambda a: a.max(initial=initial))(x)
    # int64 holds what int32 does not.
    if error is OverflowError and not isinstance(initial, float):
        assert_same(fuse.jit(lambda a: a.max(initial=initial))(x.astype(np.int64)),
                    np.int64(max(3, int(initial))))


@pytest.mark.parametrize("fn,error,match", [
    (lambda x: x.any(2), ValueError,
     r"^fuse: Tensor\.any: axis 2 is out of bounds for a Tensor of rank 2"),
    (lambda x: np.all(x, axis=-3), ValueError,
     r"^fuse: numpy\.all: axis -3 is out of bounds for a Tensor of rank 2"),
    (lambda x: x.all((0, -2)), ValueError, r"^fuse: Tensor\.all: axis -2 is repeated"),
    (lambda x: np.any(x, keepdims="yes"), TypeError,
     r"^fuse: numpy\.any: keepdims must be True or False"),
], ids=["any-axis", "all-axis", "all-repeated", "any-keepdims"])
def test_any_and_all_errors_name_what_was_called(fn, error, match):
    # They named fuse.reduce_max and fuse.reduce_min, which any and all are
    # made of.
    with pytest.raises(error, match=match):
        fuse.jit(fn)(np.ones((3, 4), np.float32))


@pytest.mark.parametrize("initial", [1, True, False, 0, 2, -1, 2.5, -0.5, np.float32(0.5)])
def test_initial_of_bools_as_numpys(initial):
    # numpy counts bools in int64 with initial converted to int64 (a float
    # truncated), and takes the max and min of bools with initial as a bool
    # (its truth); an empty one gives initial. They were refused.
    for shape in [(2, 3), (2, 0)]:
        m = (np.arange(int(np.prod(shape))).reshape(shape) % 4 == 1)
        f = fuse.jit(lambda a: (a.sum(1, initial=initial), np.max(a, 1, initial=initial),
                                fuse.reduce_min(a, 1, initial=initial), a.sum(initial=initial)))
        want = (m.sum(1, initial=initial), np.max(m, 1, initial=initial),
                np.min(m, 1, initial=initial), m.sum(initial=initial))
        for got, expected in zip(f(m), want):
            assert_same(got, expected)


def test_initial_of_bools_that_int64_cannot_hold_is_refused():
    m = np.array([True, False])
    with pytest.raises(OverflowError, match=r"initial=1180591620717411303424 does not fit "
                                            r"int64"):
        fuse.jit(lambda a: a.sum(initial=2 ** 70))(m)
    with pytest.raises(ValueError, match=r"initial=nan is NaN"):
        fuse.jit(lambda a: a.sum(initial=math.nan))(m)
    # A bool's truth: NaN is true, as numpy's.
    assert_same(fuse.jit(lambda a: a.max(initial=math.nan))(m[:0]), np.max(m[:0], initial=math.nan))


def test_axis_forms_as_numpys():
    # numpy takes a numpy integer and a 0-d integer array as an axis, alone
    # or in a tuple (a 0-d array was refused).
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    f = fuse.jit(lambda a: (a.sum(np.array(1)), np.max(a, axis=np.int32(-1)),
                            a.min((np.array(2), np.int64(0))), a.mean(np.array(0, np.uint8))))
    want = (x.sum(np.array(1)), np.max(x, axis=np.int32(-1)),
            x.min((np.array(2), np.int64(0))), x.mean(np.array(0, np.uint8)))
    for got, expected in zip(f(x), want):
        assert_same(got, expected)


def test_axis_forms_that_numpy_refuses():
    # numpy raises TypeError for a list (it was taken as a tuple), and for
    # arrays other than 0-d integer ones.
    for fn, match in [
            (lambda x: x.sum(axis=[0, 1]),
             r"^fuse: fuse\.reduce_sum: axis must be None, an int or a tuple of ints, got list "
             r"\[0, 1\] \(numpy refuses a list too\); write the tuple \(0, 1\)$"),
            (lambda x: fuse.softmax(x, axis=[1]), r"^fuse: fuse\.softmax: axis must be .*, got list"),
            (lambda x: np.max(x, np.array(1.0)), r"axis must be None, an int or a tuple of ints, "
                                                r"got ndarray array\(1\.\)"),
            (lambda x: x.sum(np.array([1])), r"got ndarray array\(\[1\]\)"),
            (lambda x: x.sum(np.array(True)), r"got ndarray array\(True\)")]:
        with pytest.raises(TypeError, match=match):
            fuse.jit(fn)(np.ones((3, 4), np.float32))


def test_where_true_is_numpys_default():
    # where=True is numpy's default, a no-op, as dtype=None and out=None
    # (it was refused); any other where= is refused.
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    f = fuse.jit(lambda a: (a.mean(0, where=True), np.sum(a, 1, where=np.True_),
                            a.max(where=np.array(True)), np.var(a, where=True)))
    want = (x.mean(0), np.sum(x, 1), x.max(), np.var(x))
    for got, expected in zip(f(x), want):
        assert_same(got, expected)
    for where in (False, np.array([True, False, True, True])):
        with pytest.raises(TypeError, match=r"^fuse: Tensor\.sum with where= is not supported"):
            fuse.jit(lambda a: a.sum(0, where=where))(x)


def test_axis_out_of_bounds_of_a_0d_tensor_says_what_it_takes():
    # It said "axes are in [0, 0)", though axis 0 and -1 work.
    s = np.float32(2.0)
    for fn in (lambda a: a.sum(1), lambda a: a.max((0,)), lambda a: np.mean(a, -2)):
        with pytest.raises(ValueError, match=r"is out of bounds for a Tensor of rank 0 \(a 0-d "
                                             r"Tensor takes axis None or \(\), or 0 or -1 "
                                             r"alone \(not in a tuple\), as numpy's\)$"):
            fuse.jit(fn)(s)


def test_tuple_axis_argument_says_to_make_it_static():
    # A tuple passed as a run-time argument is an array: the error names the
    # argument and static_argnames, as an int axis's (it said "a traced Tensor
    # has no value ... use x.astype(np.int64)").
    def f(x, axis):
        return x.sum(axis)
    x = np.ones((3, 4), np.float32)
    with pytest.raises(TypeError, match=r"^fuse: argument 'axis' of f is an array \(a tuple of "
                                        r"ints passed to a jitted function is read as numpy's "
                                        r"array of it\), which has no value while tracing, so "
                                        r"it cannot be fuse\.reduce_sum's axis; name it in "
                                        r"fuse\.jit\(static_argnames=\.\.\.\) to make it a "
                                        r"constant of the trace$"):
        fuse.jit(f)(x, (0, 1))
    assert_same(fuse.jit(f, static_argnames="axis")(x, (0, 1)), np.float32(12.0))
