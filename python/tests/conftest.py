"""Shared helpers of the fuse package's tests.

Tolerances (rtol, atol) for ops that are not exact. fuse's transcendental
functions are accurate to a few ulp (docs/dialect.md), f16 is computed in f32
and rounded once, and the references are computed in float64 with numpy,
so a result may be one rounding away from the reference:

    float16  rtol 2e-3   atol 1e-3   (one f16 ulp is 9.8e-4 relative)
    float32  rtol 1e-5   atol 1e-6   (about 80 f32 ulp)
    float64  rtol 1e-12  atol 1e-14

Everything else (arithmetic, comparisons, select, casts, clamp, integer ops)
is compared exactly: fuse rounds once per op, as numpy does.
"""

import numpy as np
import pytest

FLOATS = ["float16", "float32", "float64"]
INTS = ["int32", "int64"]
NUMERIC = FLOATS + INTS
ALL = NUMERIC + ["bool"]

TOLERANCE = {
    "float16": (2e-3, 1e-3),
    "float32": (1e-5, 1e-6),
    "float64": (1e-12, 1e-14),
}


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


def assert_close(actual, expected, dtype):
    """Within TOLERANCE[dtype] (NaNs in the same places)."""
    rtol, atol = TOLERANCE[np.dtype(dtype).name]
    assert actual.dtype == np.dtype(dtype), (actual.dtype, dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64),
                               rtol=rtol, atol=atol, equal_nan=True)


def assert_same(actual, expected):
    """Equal dtype, shape and values (NaNs in the same places)."""
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    np.testing.assert_array_equal(actual, expected)


@pytest.fixture
def rng():
    return np.random.default_rng(20240601)
