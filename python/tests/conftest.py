"""Shared helpers of the fuse package's tests.

Exact ops (arithmetic, sqrt, reciprocal, comparisons, select, casts, clamp,
integer ops) are compared bit for bit with numpy: fuse rounds once per op,
as numpy does. The others (exp, log, tanh, pow, ...) are compared with
`assert_within_bound`: with the float64 reference rounded to the result
type, within the bound that docs/accuracy.md states for the op and dtype
(`bound`), never bit for bit with numpy's own float32 or float16 result,
which depends on the SIMD code numpy picks for the host CPU.
"""

import os
import sys

import numpy as np
import pytest

FLOATS = ["float16", "float32", "float64"]
INTS = ["int32", "int64"]
NUMERIC = FLOATS + INTS
ALL = NUMERIC + ["bool"]

# docs/accuracy.md's "bound" column for the ops that are not correctly
# rounded, from the one table of it (check_ops.py's `bound`, which
# scripts/accuracy writes into the document): (ulps per dtype, XREL,
# FLOOR). An element is within it when it is at most that many
# representable values away from the reference rounded to the result type,
# or when
#     |got - want| <= XREL * eps * |x| + FLOOR * ulps * tiny * max(1, |x|)
# (eps and tiny of the compute type; x the op's input): `+x` in the table,
# for formulas that cancel, and `+u` for results that underflow.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "test", "Run", "Inputs"))
import check_ops  # noqa: E402

_TYPES = {"float16": "f16", "float32": "f32", "float64": "f64"}


def bound(op, target="cpu"):
    """(ulps per numpy dtype name, XREL, FLOOR) of fuse op `op` on `target`."""
    limits, xrel, floor = check_ops.bound(op, target)
    return {name: limits[t] for name, t in _TYPES.items()}, xrel, floor


# float16 computes in float32 and rounds once more (docs/dialect.md).
_COMPUTE = {"float16": np.float32, "float32": np.float32, "float64": np.float64}


def random_array(rng, dtype, shape, low=-3.0, high=3.0):
    """Random values of `dtype`: floats in [low, high), integers in
    [-50, 50) (or [low, high) when given as ints), bools half true."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind == "i":
        lo, hi = (int(low), int(high)) if isinstance(low, int) else (-50, 50)
        return rng.integers(lo, hi, shape).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def ulps(a, b):
    """How many representable values of their (float) dtype lie between a
    and b, element by element (int64; at most 2**62)."""
    signed = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    lowest = int(np.iinfo(signed).min)

    def ordinal(v):
        # The bit patterns as integers that order like the values (-0 = +0).
        return [i if i >= 0 else lowest - i for i in map(int, v.view(signed).ravel())]

    return np.array([min(abs(p - q), 2 ** 62) for p, q in zip(ordinal(a), ordinal(b))],
                    dtype=np.int64).reshape(a.shape)


def assert_within_bound(actual, reference, op, dtype, x=None, target="cpu"):
    """`actual`, the result of fuse op `op` (an op of docs/accuracy.md),
    against `reference`, the op computed in float64 on the same inputs (x:
    the op's input, for the XREL and FLOOR terms): within the
    op's bound for `dtype` from the reference rounded as a correctly rounded
    op would round it (through the compute type), NaNs in the same places."""
    dtype = np.dtype(dtype)
    limits, xrel, floor = bound(op, target)
    limit = limits[dtype.name]
    assert actual.dtype == dtype, (actual.dtype, dtype)
    assert actual.shape == np.shape(reference), (actual.shape, np.shape(reference))
    compute = _COMPUTE[dtype.name]
    with np.errstate(over="ignore", invalid="ignore"):
        want = np.asarray(reference, np.float64).astype(compute).astype(dtype)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(actual), nan, err_msg=f"{op}: NaNs differ")
    distance = ulps(actual[~nan], want[~nan])
    slack = np.zeros(distance.shape)
    if x is not None:
        info = np.finfo(compute)
        ax = np.abs(np.broadcast_to(np.asarray(x, np.float64), actual.shape)[~nan])
        slack = xrel * float(info.eps) * ax + floor * limit * float(info.tiny) * np.maximum(ax, 1)
    with np.errstate(invalid="ignore"):  # inf - inf: the distance decides
        error = np.abs(actual[~nan].astype(np.float64) - want[~nan].astype(np.float64))
    bad = (distance > limit) & (error > slack)
    assert not bad.any(), (
        f"{op} {dtype.name}: {int(bad.sum())} elements over the bound of {limit} ulp; the "
        f"largest is {max(distance[bad])} ulp: {actual[~nan][bad][:4]} for {want[~nan][bad][:4]}")


def assert_same(actual, expected):
    """Equal dtype, shape and values (NaNs in the same places)."""
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)
