"""Every op of the Python API against numpy, for every supported dtype.

Float-only functions (exp, ...) on integer or bool tensors compute in
float32, as PyTorch does (numpy would use float64). floor/ceil leave integers
unchanged (PyTorch; numpy returns floats). `/` is true division: integers
divide as float32 (PyTorch; numpy uses float64).
"""

import math
import re

import numpy as np
import pytest

import fuse
from conftest import (ALL, FLOATS, INTS, NUMERIC, assert_same, assert_within_bound,
                      random_array)

SHAPE = (5, 7)
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


# name (that of docs/accuracy.md): (fuse function, float64 reference, input range)
FLOAT_UNARY = {
    "exp": (fuse.exp, np.exp, (-3.0, 3.0)),
    "expm1": (fuse.expm1, np.expm1, (-3.0, 3.0)),
    "log": (fuse.log, np.log, (0.1, 4.0)),
    "log1p": (fuse.log1p, np.log1p, (-0.9, 4.0)),
    "sqrt": (fuse.sqrt, np.sqrt, (0.0, 4.0)),
    "rsqrt": (fuse.rsqrt, lambda x: 1.0 / np.sqrt(x), (0.1, 4.0)),
    "tanh": (fuse.tanh, np.tanh, (-3.0, 3.0)),
    "sigmoid": (fuse.sigmoid, _sigmoid, (-6.0, 6.0)),
    "silu": (fuse.silu, lambda x: x * _sigmoid(x), (-6.0, 6.0)),
    "sin": (fuse.sin, np.sin, (-3.0, 3.0)),
    "cos": (fuse.cos, np.cos, (-3.0, 3.0)),
    "erf": (fuse.erf, _erf, (-3.0, 3.0)),
    "gelu": (fuse.gelu, lambda x: x * 0.5 * (1.0 + _erf(x / math.sqrt(2.0))), (-4.0, 4.0)),
    "gelu tanh": (lambda x: fuse.gelu(x, approximate="tanh"),
                  lambda x: 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi)
                                                     * (x + 0.044715 * x ** 3))),
                  (-4.0, 4.0)),
    "reciprocal": (fuse.reciprocal, lambda x: 1.0 / x, (0.5, 4.0)),
    "hardswish": (fuse.hardswish, lambda x: x * np.clip(x + 3.0, 0.0, 6.0) / 6.0, (-5.0, 5.0)),
    "leaky_relu": (lambda x: fuse.leaky_relu(x, 0.25), lambda x: np.where(x > 0, x, 0.25 * x),
                   (-3.0, 3.0)),
}


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("name", FLOAT_UNARY)
def test_float_unary(name, dtype, rng):
    op, reference, (low, high) = FLOAT_UNARY[name]
    if dtype == "bool":
        x = random_array(rng, dtype, SHAPE)
    elif dtype in INTS:
        x = random_array(rng, dtype, SHAPE, int(math.ceil(low)), int(high) + 1)
    else:
        x = random_array(rng, dtype, SHAPE, low, high)
    result_dtype = dtype if dtype in FLOATS else "float32"
    # The reference starts from the values the op computes on.
    x64 = x.astype(result_dtype).astype(np.float64)
    with np.errstate(divide="ignore"):
        expected = reference(x64)
    f = fuse.jit(lambda x: op(x))
    got = f(x)
    assert_within_bound(got, expected, name, result_dtype, x=x64, target=f.program.target)


# name: (fuse function, numpy reference on the same dtype)
NUMERIC_UNARY = {
    "neg": (lambda x: -x, np.negative),
    "abs": (abs, np.abs),
    "fuse.abs": (fuse.abs, np.abs),
    "relu": (fuse.relu, lambda x: np.maximum(x, np.zeros((), x.dtype))),
    "floor": (fuse.floor, lambda x: np.floor(x) if x.dtype.kind == "f" else x),
    "ceil": (fuse.ceil, lambda x: np.ceil(x) if x.dtype.kind == "f" else x),
}


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("name", NUMERIC_UNARY)
def test_numeric_unary(name, dtype, rng):
    op, reference = NUMERIC_UNARY[name]
    x = random_array(rng, dtype, SHAPE)
    assert_same(fuse.jit(lambda x: op(x))(x), reference(x))


@pytest.mark.parametrize("name", NUMERIC_UNARY)
def test_numeric_unary_rejects_bool(name, rng):
    op, _ = NUMERIC_UNARY[name]
    x = random_array(rng, "bool", SHAPE)
    with pytest.raises(TypeError, match="bool"):
        fuse.jit(lambda x: op(x))(x)


# name: (fuse function, numpy reference)
BINARY = {
    "+": (lambda a, b: a + b, np.add),
    "-": (lambda a, b: a - b, np.subtract),
    "*": (lambda a, b: a * b, np.multiply),
    "maximum": (fuse.maximum, np.maximum),
    "minimum": (fuse.minimum, np.minimum),
}


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("name", BINARY)
def test_binary(name, dtype, rng):
    op, reference = BINARY[name]
    a, b = random_array(rng, dtype, SHAPE), random_array(rng, dtype, SHAPE)
    assert_same(fuse.jit(op)(a, b), reference(a, b))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_true_division(dtype, rng):
    a = random_array(rng, dtype, SHAPE)
    b = random_array(rng, dtype, SHAPE)
    b[b == 0] = 7
    got = fuse.jit(lambda a, b: a / b)(a, b)
    if dtype in INTS:
        assert_same(got, a.astype(np.float32) / b.astype(np.float32))
    else:
        assert_same(got, a / b)


def test_float_division_by_zero():
    a = np.array([1.0, -1.0, 0.0, 2.0], np.float32)
    b = np.array([0.0, 0.0, 0.0, 4.0], np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        assert_same(fuse.jit(lambda a, b: a / b)(a, b), a / b)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_pow(dtype, rng):
    if dtype in INTS:
        a = random_array(rng, dtype, SHAPE, -4, 5)
        b = random_array(rng, dtype, SHAPE, 0, 6)
        assert_same(fuse.jit(lambda a, b: a ** b)(a, b), a ** b)
    else:
        a = random_array(rng, dtype, SHAPE, 0.1, 3.0)
        b = random_array(rng, dtype, SHAPE, -2.0, 2.0)
        expected = a.astype(np.float64) ** b.astype(np.float64)
        f = fuse.jit(lambda a, b: a ** b)
        assert_within_bound(f(a, b), expected, "pow", dtype, target=f.program.target)


def test_integer_pow_negative_exponent():
    # PyTorch's integer pow (docs/dialect.md): 1 for base 1, +-1 for base -1,
    # 0 otherwise.
    a = np.array([1, -1, -1, 2, -3, 5], np.int32)
    b = np.array([-2, -2, -3, -1, -1, -4], np.int32)
    assert_same(fuse.jit(lambda a, b: a ** b)(a, b), np.array([1, 1, -1, 0, 0, 0], np.int32))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_rounding_to_integers_is_numpys_bit_for_bit(dtype, rng):
    # rint (np.round, round()) halves to even, trunc toward zero: compositions
    # of floor and ceil, exact (fake-quantization needs them; they were
    # refused). Signs of zero, NaN, infinities and values past the last
    # fraction (2^23 in float32) are numpy's.
    big = 2.0 ** (52 if dtype == "float64" else 23)
    with np.errstate(over="ignore"):
        x = np.concatenate([rng.uniform(-10, 10, 2000), np.arange(-6, 6) + 0.5,
                            [0.5, -0.5, -0.4, 0.4, -0.0, 0.0, np.inf, -np.inf, np.nan,
                             big - 0.5, big + 1, 1e30, -1e30]]).astype(dtype)
    f = fuse.jit(lambda x: (fuse.rint(x), np.round(x), round(x), np.rint(x), fuse.trunc(x),
                            np.fix(x)))
    for got, want in zip(f(x), (np.rint(x), np.round(x), np.round(x), np.rint(x), np.trunc(x),
                                np.fix(x))):
        assert_same(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    ints = np.array([-3, 0, 7], np.int32)
    assert_same(fuse.jit(lambda x: (fuse.rint(x), fuse.trunc(x)))(ints)[0], ints)
    with pytest.raises(TypeError, match=r"round with decimals=2 is not supported"):
        fuse.jit(lambda x: np.round(x, 2))(x)
    # numpy's out=None is taken, math.trunc too; another out= is refused in
    # fuse's words (it was Python's "unexpected keyword argument").
    import math
    got = fuse.jit(lambda x: (np.round(x, out=None), np.fix(x, out=None), math.trunc(x)))(x)
    for value, want in zip(got, (np.round(x), np.fix(x), np.trunc(x))):
        assert_same(value, want)
    with pytest.raises(TypeError, match=r"^fuse: numpy\.round with out= is not supported"):
        fuse.jit(lambda x: np.round(x, out=x))(x)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "int64"])
def test_sign_is_numpys_bit_for_bit(dtype):
    # np.sign was refused ("fuse has no such op"). Both zeros give +0.0, NaN
    # NaN, infinities and subnormals their sign; integers -1, 0 or 1 in
    # their own dtype, INT_MIN too.
    if dtype.startswith("int"):
        info = np.iinfo(dtype)
        x = np.array([-5, 0, 7, info.min, info.max], dtype)
    else:
        x = np.array([-0.0, 0.0, np.nan, -np.inf, np.inf, 3, -2, np.finfo(dtype).smallest_subnormal,
                      -np.finfo(dtype).smallest_subnormal], dtype)
    for target in ("cpu", "auto"):
        got = fuse.jit(lambda a: (np.sign(a), fuse.sign(a)), target=target)(x)
        for value in got:
            assert_same(value, np.sign(x))
            np.testing.assert_array_equal(np.signbit(value), np.signbit(np.sign(x)))
    with pytest.raises(TypeError, match=r"^fuse: fuse\.sign of a bool tensor is not supported"):
        fuse.jit(lambda m: np.sign(m))(np.array([True, False]))


def test_rounding_refuses_bools_and_python_numbers():
    # As fuse.floor refuses them (a bool array was returned unchanged, and a
    # Python number gave an AttributeError).
    with pytest.raises(TypeError, match=r"^fuse: fuse\.rint of a bool tensor is not supported"):
        fuse.jit(lambda m: np.rint(m))(np.array([True, False]))
    with pytest.raises(TypeError, match=r"^fuse: fuse\.trunc of a bool tensor"):
        fuse.jit(lambda m: fuse.trunc(m))(np.array([True, False]))
    with pytest.raises(TypeError, match=r"^fuse: fuse\.round needs at least one fuse Tensor"):
        fuse.round(2.5)


def test_integer_to_a_negative_constant_power_is_refused():
    # As numpy and PyTorch refuse it (it gave PyTorch's tensor-exponent
    # values, 0 for |x| > 1, silently).
    with pytest.raises(ValueError, match=r"^fuse: an integer to the negative power -1 at "
                                         r".*test_ops\.py:\d+:\d+ is not an integer \(numpy "
                                         r"and PyTorch refuse it too\)"):
        fuse.jit(lambda x: x ** -1)(np.arange(3, dtype=np.int32))
    assert_same(fuse.jit(lambda x: x ** -1.0)(np.array([2, 4], np.int32)),
                np.array([0.5, 0.25], np.float32))


def test_integer_to_a_negative_int_argument_is_refused():
    # A Python int argument is the same number written in the function: a
    # negative one is refused when the program is called (it gave 0 for
    # |x| > 1, the tensor exponent's values). A non-negative one runs the
    # same program.
    f = fuse.jit(lambda x, y: x ** y)
    x = np.array([2, 3], np.int32)
    assert_same(f(x, 3), np.array([8, 27], np.int32))
    with pytest.raises(ValueError, match=r"^fuse: an integer to the negative power -2 at "
                                         r".*test_ops\.py:\d+:\d+ is not an integer .*"
                                         r"\(argument 'y' of <lambda>\)$"):
        f(x, -2)
    assert f.cache_info().traces == 1
    # A float base takes it.
    assert_same(f(x.astype(np.float32), -1), np.array([0.5, 1 / 3], np.float32))


def test_python_int_to_a_negative_int_power():
    # Of Python ints alone, n ** m is Python's: a float for a negative m.
    # A constant exponent gives it (it was refused, as for a Tensor's
    # base); a run-time one is refused, saying so (the message was the
    # Tensor's: "raise a float, x.astype(np.float32) ** -1").
    x = np.ones(2, np.float32)
    assert_same(fuse.jit(lambda x, n: x + n ** -1)(x, 2), np.full(2, 1.5, np.float32))
    f = fuse.jit(lambda x, n, m: x + n ** m)
    assert_same(f(x, 2, 3), np.full(2, 9, np.float32))
    with pytest.raises(ValueError, match=r"^fuse: argument 'm' of <lambda> is -1, the exponent "
                                         r"of \*\* at .*test_ops\.py:\d+:\d+ on Python ints "
                                         r"alone: in Python an int to a negative int power is a "
                                         r"float \(2 \*\* -1 is 0\.5\), but 'm' is a run-time "
                                         r"argument, whose sign is not known when the function "
                                         r"is traced, so the power was traced as an int; pass a "
                                         r"float \(-1\.0\), or name 'm' in "
                                         r"fuse\.jit\(static_argnames=\.\.\.\) to make it a "
                                         r"constant of the trace$"):
        f(x, 2, -1)
    # Both fixes work.
    assert_same(f(x, 2, -1.0), np.full(2, 1.5, np.float32))
    static = fuse.jit(lambda x, n, m: x + n ** m, static_argnames=["m"])
    assert_same(static(x, 2, -1), np.full(2, 1.5, np.float32))


@pytest.mark.parametrize("name", ["/", "**"])
def test_binary_rejects_two_bools(name, rng):
    op = BINARY[name][0] if name in BINARY else (
        (lambda a, b: a / b) if name == "/" else (lambda a, b: a ** b))
    a, b = random_array(rng, "bool", SHAPE), random_array(rng, "bool", SHAPE)
    if name == "/":
        # True division of bools is float32 division, as in PyTorch.
        with np.errstate(divide="ignore", invalid="ignore"):
            assert_same(fuse.jit(op)(a, b), a.astype(np.float32) / b.astype(np.float32))
        return
    with pytest.raises(TypeError, match="bool"):
        fuse.jit(op)(a, b)


def test_bool_arithmetic_is_numpys_logic(rng):
    # numpy: bool * bool is and, bool + bool is or, both bool; the masks
    # broadcast, a bool scalar (constant or argument) goes with them, and
    # np.multiply / fuse.add are the same ops.
    a, b = random_array(rng, "bool", SHAPE), random_array(rng, "bool", SHAPE[-1:])
    f = fuse.jit(lambda a, b, t: (a * b, a + b, b * a, a * True, False + a, a * t, t + b,
                                  np.multiply(a, b), fuse.add(a, b), a * b + ~a))
    got = f(a, b, True)
    want = (a * b, a + b, b * a, a * True, False + a, a * True, True + b, a * b, a + b,
            a * b + ~a)
    assert len(got) == len(want)
    for value, expected in zip(got, want):
        assert expected.dtype == np.bool_
        assert_same(value, expected)
    assert "fuse.select" in f.mlir and "fuse.mul" not in f.mlir and "fuse.add" not in f.mlir


def test_bool_maximum_and_minimum_are_numpys_logic(rng):
    # numpy's maximum of bools is or, minimum and (they were refused).
    a, b = random_array(rng, "bool", SHAPE), random_array(rng, "bool", SHAPE[-1:])
    f = fuse.jit(lambda a, b: (np.maximum(a, b), np.minimum(a, b), fuse.maximum(a, True),
                               fuse.minimum(False, b)))
    for value, expected in zip(f(a, b), (np.maximum(a, b), np.minimum(a, b),
                                         np.maximum(a, True), np.minimum(False, b))):
        assert expected.dtype == np.bool_
        assert_same(value, expected)


def test_bool_subtraction_is_refused_as_in_numpy(rng):
    a = random_array(rng, "bool", SHAPE)
    with pytest.raises(TypeError):
        np.subtract(a, a)  # numpy's own refusal
    for fn in (lambda a, b: a - b, lambda a, b: np.subtract(a, b), lambda a, b: True - b):
        with pytest.raises(TypeError, match=r"^fuse: - on bool tensors is not supported, as in "
                                            r"numpy: use \^ \(np\.logical_xor\) for where two "
                                            r"masks differ, ~ \(np\.logical_not\) for 1 - mask, "
                                            r"or cast one operand to an integer type first$"):
            fuse.jit(fn)(a, a)
    # Python bools alone compute as Python's, in int (True + True is 2,
    # False - True is -1; they were refused), not as numpy's or; 0-d bool
    # arrays and np.bool_ as numpy's.
    x = np.ones(3, np.float32)
    assert_same(fuse.jit(lambda x, s, t: x * (s + t))(x, True, True), x * 2)
    for fn in (lambda s, t: s + t, lambda s, t: s - t, lambda s, t: s * t, lambda s, t: s ** t):
        for s, t in ((True, True), (False, True), (True, False)):
            got = fuse.jit(fn)(s, t)
            assert got.dtype == np.int64 and got == fn(s, t), (s, t, got)
    assert_same(fuse.jit(lambda s, t: s + t)(np.array(True), np.bool_(True)), np.array(True))


COMPARISONS = {
    "<": (lambda a, b: a < b, np.less),
    "<=": (lambda a, b: a <= b, np.less_equal),
    ">": (lambda a, b: a > b, np.greater),
    ">=": (lambda a, b: a >= b, np.greater_equal),
    "==": (lambda a, b: a == b, np.equal),
    "!=": (lambda a, b: a != b, np.not_equal),
}


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("name", COMPARISONS)
def test_comparison(name, dtype, rng):
    op, reference = COMPARISONS[name]
    a = random_array(rng, dtype, SHAPE, -2, 2)
    b = random_array(rng, dtype, SHAPE, -2, 2)
    b.flat[::3] = a.flat[::3]  # some equal pairs
    assert_same(fuse.jit(op)(a, b), reference(a, b))


def test_comparisons_with_nan():
    a = np.array([np.nan, 1.0, np.nan, 2.0], np.float32)
    b = np.array([np.nan, np.nan, 1.0, 2.0], np.float32)
    for name, (op, reference) in COMPARISONS.items():
        assert_same(fuse.jit(op)(a, b), reference(a, b))


@pytest.mark.parametrize("dtype", ALL)
def test_where(dtype, rng):
    c = random_array(rng, "bool", SHAPE)
    a, b = random_array(rng, dtype, SHAPE), random_array(rng, dtype, SHAPE)
    assert_same(fuse.jit(fuse.where)(c, a, b), np.where(c, a, b))


def test_where_numeric_condition(rng):
    # A non-bool condition means `cond != 0`, as in numpy.
    c = random_array(rng, "int32", SHAPE, -1, 2)
    a, b = random_array(rng, "float32", SHAPE), random_array(rng, "float32", SHAPE)
    assert_same(fuse.jit(fuse.where)(c, a, b), np.where(c, a, b))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_clamp(dtype, rng):
    x = random_array(rng, dtype, SHAPE)
    lo, hi = (-1, 2) if dtype in INTS else (-1.25, 2.5)
    dt = np.dtype(dtype)
    f = fuse.jit(lambda x: fuse.clamp(x, min=lo, max=hi))
    assert_same(f(x), np.clip(x, dt.type(lo), dt.type(hi)))
    assert_same(fuse.jit(lambda x: fuse.clamp(x, min=lo))(x), np.maximum(x, dt.type(lo)))
    assert_same(fuse.jit(lambda x: fuse.clamp(x, max=hi))(x), np.minimum(x, dt.type(hi)))


def test_clamp_tensor_bounds(rng):
    x, lo, hi = (random_array(rng, "float32", SHAPE) for _ in range(3))
    assert_same(fuse.jit(lambda x, lo, hi: fuse.clamp(x, lo, hi))(x, lo, hi),
                np.minimum(np.maximum(x, lo), hi))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_clamp_numpy_scalar_bounds(dtype, rng):
    # A numpy scalar the function holds is a 0-d constant of its dtype, as a
    # 0-d array argument is: both are Tensor bounds (max and min), which
    # promote as np.maximum's. They were refused, the message calling the
    # numpy scalar a Tensor.
    x = random_array(rng, dtype, SHAPE)
    lo, hi = np.dtype(dtype).type(-1), np.dtype(dtype).type(2)
    f = fuse.jit(lambda x: (fuse.clamp(x, min=lo), np.clip(x, lo, None), x.clip(None, hi),
                            np.clip(x, lo, hi), x.clamp(-1, hi)))
    want = np.maximum(x, lo), np.maximum(x, lo), np.minimum(x, hi), np.clip(x, lo, hi), \
        np.clip(x, lo, hi)
    for got, expected in zip(f(x), want):
        assert_same(got, expected)
    assert_same(fuse.jit(lambda x, m: np.clip(x, m, None))(x, lo), np.maximum(x, lo))
    # Another type promotes as a 0-d array does: an int32 x clipped at a
    # float32 0.5 is float32, as np.maximum(x, np.float32(0.5)) in PyTorch.
    i = np.array([1, -1, 2, 3], np.int32)
    assert_same(fuse.jit(lambda x: x.clip(np.float32(0.5)))(i),
                np.maximum(i.astype(np.float32), np.float32(0.5)))


def test_clamp_infinite_bounds(rng):
    x = random_array(rng, "float32", SHAPE)
    f = fuse.jit(lambda x: fuse.clamp(x, min=-math.inf, max=math.inf))
    assert_same(f(x), x)
    assert "0x7f800000" in f.mlir


@pytest.mark.parametrize("target", ALL)
@pytest.mark.parametrize("source", ALL)
def test_cast(source, target, rng):
    x = random_array(rng, source, SHAPE, -100.0, 100.0)
    got = fuse.jit(lambda x: fuse.cast(x, target))(x)
    # numpy's astype truncates floats toward zero and maps x != 0 to True.
    assert_same(got, x.astype(target))


@pytest.mark.parametrize("spelling", [np.float16, np.dtype("float16"), "float16", "f16", "half"])
def test_cast_dtype_spellings(spelling, rng):
    x = random_array(rng, "float32", SHAPE)
    assert_same(fuse.jit(lambda x: fuse.cast(x, spelling))(x), x.astype(np.float16))
    assert_same(fuse.jit(lambda x: x.astype(spelling))(x), x.astype(np.float16))


@pytest.mark.parametrize("name, python, numpy, torch", [
    ("float", float, "float64", "float32 to PyTorch (torch.float)"),
    ("int", int, "int64", "int32 to PyTorch (torch.int)"),
])
def test_cast_to_float_or_int_is_refused_as_ambiguous(name, python, numpy, torch, rng):
    # numpy's "float" is float64, PyTorch's torch.float float32 (which it
    # was here, silently), and "int" int64 against torch.int's int32 (int64
    # here, silently); the Python types float and int are float64 and int64
    # in both.
    x = random_array(rng, "float32", SHAPE)
    other = "float32" if name == "float" else "int32"
    for cast in (lambda x: x.astype(name), lambda x: fuse.cast(x, name)):
        with pytest.raises(TypeError, match=f"^fuse: '{name}' is {numpy} to numpy and "
                                            f"{re.escape(torch)}: write '{other}' or "
                                            f"'{numpy}'$"):
            fuse.jit(cast)(x)
    assert_same(fuse.jit(lambda x: x.astype(python))(x), x.astype(numpy))


def _edges(dtype):
    info = np.iinfo(dtype)
    return [info.min, info.min + 1, -100000001, -16777217, -7, -3, -2, -1, 0, 1, 2, 3, 7,
            16777217, 100000001, info.max - 1, info.max]


@pytest.mark.parametrize("dtype", INTS)
def test_integer_floor_division_and_remainder(dtype):
    # numpy's // and % of integers (floor division, and the remainder with
    # the divisor's sign), exact: built from the dialect's truncating div.
    # They were refused, and the hint, a - fuse.floor(a / b) * b, is float32
    # (16777217 % 2 was 0.0). x // 0 and x % 0 are 0, numpy's values (numpy
    # also warns); INT_MIN // -1 wraps to INT_MIN, as numpy's.
    edges = _edges(dtype)
    a, b = (np.ascontiguousarray(v) for v in np.array(
        [(p, q) for p in edges for q in edges], dtype).T)
    f = fuse.jit(lambda a, b: (a // b, a % b, *divmod(a, b), np.floor_divide(a, b),
                               np.remainder(a, b), np.mod(a, b)))
    with np.errstate(divide="ignore", over="ignore"):
        want = (a // b, a % b) * 2 + (np.floor_divide(a, b), np.remainder(a, b), np.mod(a, b))
    for got, expected in zip(f(a, b), want):
        assert_same(got, expected)
    assert "f32" not in f.mlir and "f64" not in f.mlir
    # With Python ints, either side, and broadcasting.
    x = np.array(edges, dtype)
    g = fuse.jit(lambda x: (x // 7, x % -3, 7 // x, -7 % x, x // True))
    with np.errstate(divide="ignore", over="ignore"):
        want = (x // 7, x % -3, np.int64(7) // x, np.int64(-7) % x, x // 1)
    for got, expected in zip(g(x), want):
        assert_same(got, expected.astype(dtype))


def test_integer_floor_division_promotes():
    i32, i64 = np.array([-7, 7], np.int32), np.array([2, -2], np.int64)
    assert_same(fuse.jit(lambda a, b: a // b)(i32, i64), i32 // i64)
    mask = np.array([True, False])
    assert_same(fuse.jit(lambda a, m: a % m)(i32, mask), np.array([0, 0], np.int32))
    with pytest.raises(TypeError, match=r"^fuse: // on bool tensors is not supported"):
        fuse.jit(lambda m: m // m)(mask)
    with pytest.raises(TypeError, match=r"^fuse: % of floats is not supported: fuse has no "
                                        r"float remainder"):
        fuse.jit(lambda a: a % 2.0)(i32)


def test_floor_division_in_place_on_an_argument_is_refused():
    x = np.array([7, -7], np.int32)

    def f(x):
        x //= 2
        return x
    with pytest.raises(TypeError, match=r"^fuse: //= on argument 'x' of f: numpy changes"):
        fuse.jit(f)(x)

    def g(x):
        y = x + 0
        y %= 3
        return y
    assert_same(fuse.jit(g)(x), x % 3)


def test_cast_through_bfloat16():
    # bf16 exists inside a program; 1 + 2^-8 is not a bf16 (8 bits of
    # precision), so it rounds to 1.
    x = np.array([1.0, 1.0 + 2.0 ** -8, 3.0, -0.5], np.float32)
    f = fuse.jit(lambda x: fuse.cast(fuse.cast(x, "bfloat16"), np.float32))
    assert_same(f(x), np.array([1.0, 1.0, 3.0, -0.5], np.float32))
    assert "tensor<?xbf16>" in f.mlir


def test_nan_propagation():
    x = np.array([np.nan, -1.0, 2.0], np.float32)
    y = np.array([0.0, np.nan, 1.0], np.float32)
    assert_same(fuse.jit(fuse.relu)(x), np.array([np.nan, 0.0, 2.0], np.float32))
    assert_same(fuse.jit(fuse.maximum)(x, y), np.maximum(x, y))
    assert_same(fuse.jit(fuse.minimum)(x, y), np.minimum(x, y))
    assert_same(fuse.jit(lambda x: fuse.clamp(x, 0.0, 1.0))(x), np.clip(x, 0.0, 1.0))


def test_integer_semantics():
    # Wrap-around on overflow and abs(INT_MIN) == INT_MIN, as numpy.
    big = np.array([2 ** 31 - 1, -2 ** 31, 5], np.int32)
    one = np.ones(3, np.int32)
    with np.errstate(over="ignore"):
        assert_same(fuse.jit(lambda a, b: a + b)(big, one), big + one)
        assert_same(fuse.jit(abs)(big), np.abs(big))


def test_logical_ops_on_masks(rng):
    a, b = random_array(rng, "bool", SHAPE), random_array(rng, "bool", SHAPE)
    f = fuse.jit(lambda a, b: (a & b, a | b, a ^ b, True ^ b, ~a, np.bitwise_xor(a, b)))
    for got, expected in zip(f(a, b), (a & b, a | b, a ^ b, True ^ b, ~a, a ^ b)):
        assert_same(got, expected)


def test_numpy_ufuncs_on_tensors(rng):
    x = random_array(rng, "float32", SHAPE, 0.5, 2.0)

    @fuse.jit
    def f(x):
        return (np.exp(x), np.float32(2) * np.maximum(x, 1.0), np.where(x > 1, x, 0.0),
                np.clip(x, 0.75, 1.5))

    e, m, w, c = f(x)
    assert_within_bound(e, np.exp(x.astype(np.float64)), "exp", "float32",
                        target=f.program.target)
    assert_same(m, np.float32(2) * np.maximum(x, np.float32(1)))
    assert_same(w, np.where(x > 1, x, np.float32(0)))
    assert_same(c, np.clip(x, np.float32(0.75), np.float32(1.5)))


def _assert_within_roundings(got, expected, x, dtype, roundings, subnormals=0, name=""):
    """`got` (of `dtype`) is `expected` (float64) where that is NaN or
    infinite, and within `roundings` ulps of the compute type (float32 for
    float16) plus half an ulp of `dtype` elsewhere, plus `subnormals`
    subnormal spacings of the compute type times max(1, |x|)."""
    compute = np.float32 if dtype == "float16" else np.dtype(dtype).type
    assert got.dtype == dtype, name
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected), err_msg=name)
    infinite = np.isinf(expected)
    assert_same(got[infinite], expected[infinite].astype(dtype))
    ok = np.isfinite(expected)
    tolerance = (roundings * np.spacing(np.abs(expected[ok]).astype(compute)).astype(np.float64)
                 + np.spacing(np.abs(expected[ok]).astype(dtype)).astype(np.float64) / 2)
    if subnormals:
        tolerance += (subnormals * float(np.finfo(compute).smallest_subnormal)
                      * np.maximum(1, np.abs(x[ok].astype(np.float64))))
    error = np.abs(got[ok].astype(np.float64) - expected[ok])
    assert (error <= tolerance).all(), (name, x[ok][error > tolerance], got[ok][error > tolerance])


@pytest.mark.parametrize("dtype", FLOATS)
def test_softplus_and_elu(dtype):
    # PyTorch's softplus and elu, through log1p and expm1: written with log
    # and exp, softplus(-20) is 0 in float32 (2.06e-9) and elu(1e-9) of a
    # negative x is -0 or off by far more than an ulp. Computed in float32
    # for float16 and rounded once: within 3 ulp of the compute type
    # (exp, log1p and the product or quotient each round once, log1p's
    # slope at most 1) plus a rounding to the result type.
    x = np.concatenate([np.linspace(-30, 30, 601), [-1e-9, 1e-9, 0.0, -0.0, 19.99, 20.01,
                                                   np.inf, -np.inf, np.nan]]).astype(dtype)
    f = fuse.jit(lambda x: (fuse.softplus(x), fuse.softplus(x, beta=2.0, threshold=5.0),
                            fuse.elu(x), fuse.elu(x, alpha=0.5)))
    x64 = x.astype(np.float64)
    with np.errstate(over="ignore"):
        want = (np.where(x64 > 20, x64, np.log1p(np.exp(x64))),
                np.where(2 * x64 > 5, x64, np.log1p(np.exp(2 * x64)) / 2),
                np.where(x64 > 0, x64, np.expm1(x64)), np.where(x64 > 0, x64, 0.5 * np.expm1(x64)))
    for got, expected in zip(f(x), want):
        _assert_within_roundings(got, expected, x, dtype, 3)
    if dtype != "float16":  # where -1e-9 is a number, not -0
        assert f(x)[2][601] < 0  # elu(-1e-9), not -0: expm1 keeps it


def test_numpy_logical_ufuncs_take_numbers():
    # numpy's logical_and/or/xor/not take any operands, nonzero (NaN too)
    # true; fuse refused numbers, naming & | ~.
    x = np.array([0.0, 1.5, np.nan, -2.0, -0.0], np.float32)
    n = np.array([0, 3, 0, -1, 7], np.int32)
    m = np.array([True, False, True, False, True])
    f = fuse.jit(lambda x, n, m: (np.logical_not(x), np.logical_and(x, n), np.logical_or(n, m),
                                  np.logical_xor(x, 0.5), np.logical_and(m, 2),
                                  np.logical_not(n)))
    want = (np.logical_not(x), np.logical_and(x, n), np.logical_or(n, m),
            np.logical_xor(x, 0.5), np.logical_and(m, 2), np.logical_not(n))
    for got, expected in zip(f(x, n, m), want):
        assert_same(got, expected)


def test_more_numpy_ufuncs(rng):
    # numpy ufuncs that are one fuse op (or, for masks, the logic of & | ~).
    x = random_array(rng, "float32", SHAPE)
    m, n = random_array(rng, "bool", SHAPE), random_array(rng, "bool", SHAPE)

    @fuse.jit
    def f(x, m, n):
        return (np.square(x), np.exp2(x), np.logical_xor(m, n), np.invert(m),
                np.bitwise_and(m, n), np.bitwise_or(m, n))

    square, exp2, xor, invert, both, either = f(x, m, n)
    assert_same(square, np.square(x))
    assert_within_bound(exp2, np.exp2(x.astype(np.float64)), "pow", "float32",
                        target=f.program.target)
    assert_same(xor, m ^ n)
    assert_same(invert, ~m)
    assert_same(both, m & n)
    assert_same(either, m | n)
    # exp2 of integers computes in float32, as the float-only functions do.
    assert_same(fuse.jit(np.exp2)(np.arange(4, dtype=np.int32)),
                np.array([1, 2, 4, 8], np.float32))
    with pytest.raises(TypeError, match="supported on bool tensors"):
        fuse.jit(np.invert)(np.arange(4, dtype=np.int32))
    # np.expm1 and np.log1p are fuse's ops of those names.
    expm1, log1p = fuse.jit(lambda x: (np.expm1(x), np.log1p(abs(x))))(x)
    x64 = x.astype(np.float64)
    assert_within_bound(expm1, np.expm1(x64), "expm1", "float32", target=f.program.target)
    assert_within_bound(log1p, np.log1p(abs(x64)), "log1p", "float32", target=f.program.target)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_reductions(dtype, rng):
    # Small integers, whose sums every dtype holds exactly (float sums of
    # other values are checked within their error bound, and keepdims, NaNs
    # and empty reductions, in test_reductions.py).
    x = rng.integers(-8, 9, SHAPE).astype(dtype)
    f = fuse.jit(lambda x: (fuse.reduce_sum(x, -1), fuse.reduce_max(x, 0), fuse.reduce_min(x)))
    total, largest, smallest = f(x)
    assert_same(total, np.sum(x, -1, dtype=dtype))
    assert_same(largest, np.max(x, 0))
    assert_same(smallest, np.min(x))
    if dtype in FLOATS:
        # The mean is the sum divided by the count in the accumulation type.
        compute = np.float64 if dtype == "float64" else np.float32
        assert_same(fuse.jit(lambda x: fuse.reduce_mean(x, -1))(x),
                    (np.sum(x, -1, dtype=compute) / compute(SHAPE[-1])).astype(dtype))


@pytest.mark.parametrize("size", [1, 63, 64, 65, 1000, 100003])
def test_bool_kernels_at_every_size(size):
    """Bool inputs and results, elementwise and reduced, whole vectors and
    tails: the cpu target reads and writes a vector of i1 as one vector of
    its bytes on the fast path, lane by lane elsewhere."""
    rng = np.random.default_rng(size)
    m, n = rng.random(size) < 0.5, rng.random(size) < 0.3
    x = rng.random(size).astype(np.float32)
    rows = (rng.random((size % 97 + 1, 67)) < 0.5)

    def f(m, n, x, rows):
        return (m & n, m ^ n, ~m, (x > 0.5) | m, np.where(m, x, -x),
                m.astype(np.int32), m.any(), m.sum(), rows.any(-1), rows.all(0),
                rows.sum(-1), (rows.sum(-1, keepdims=True) > 30) & rows)

    want = f(m, n, x, rows)
    for got in (fuse.jit(f, target="cpu")(m, n, x, rows),
                fuse.jit(f, target="cpu", fusion=False)(m, n, x, rows)):
        for g, w in zip(got, want):
            assert_same(g, np.asarray(w))


def test_leaky_relu_of_float16_takes_its_slope_in_float32():
    """As PyTorch's kernels: the slope in float32, the product rounded once
    to float16 (the slope rounded to float16 first differed by an ulp in a
    third of the elements)."""
    x = -np.abs(np.random.default_rng(0).standard_normal(10000)).astype(np.float16)
    for slope, f in ((0.2, lambda x: fuse.leaky_relu(x, 0.2)), (0.01, fuse.leaky_relu)):
        want = (x.astype(np.float32) * np.float32(slope)).astype(np.float16)
        assert_same(fuse.jit(f)(x), want)


@pytest.mark.parametrize("exponent", [0, 1, 2, 3, 4, -1, -2, 0.5, -0.5])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_pow_of_constant_exponents_is_correctly_rounded(exponent, dtype):
    """x ** c for the exponents fuse computes by arithmetic (no pow): the
    float64 value rounded to the type, specials as pow's (pow(-0, 0.5) = +0,
    pow(-inf, 0.5) = +inf, pow(nan, 0) = 1)."""
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-7, -3.0, 65504.0]
    x = np.concatenate([np.array(specials), np.random.default_rng(0).standard_normal(5000) * 10])
    x = x.astype(dtype)
    got = fuse.jit(lambda x: x ** exponent)(x)

    def exact(v):
        # The C library's pow in float64 (math.pow; not numpy's, whose SIMD
        # path may differ), with C's values where Python raises.
        try:
            return math.pow(v, exponent)
        except ValueError:  # a negative base's root, or 0 to a negative power
            if v != 0:
                return math.nan
            return math.copysign(math.inf, v) if exponent == -1 else math.inf

    want = np.array([exact(v) for v in x.astype(np.float64).tolist()])
    with np.errstate(over="ignore"):
        assert_same(got, want.astype(dtype))


@pytest.mark.parametrize("exponent", [3, 4, -2, -0.5])
def test_pow_of_constant_exponents_in_float64(exponent):
    """x ** c in float64 for the exponents computed as products in f64: within
    2 ulp of the exact power (fractions), near overflow and underflow too
    (x ** -2 above 2^512 is a subnormal number: 1 / (x * x) gave 0)."""
    from fractions import Fraction
    from decimal import Decimal, getcontext
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.standard_normal(300) * 10, [1e155, 1e160, 2e161, 2.0 ** 512, 1e-100,
                                                        1e-105, 3e102, 1e77, 1e-77]])
    if exponent == -0.5:
        x = np.abs(x)
    got = fuse.jit(lambda x: x ** exponent)(x)
    getcontext().prec = 60
    for v, g in zip(x.tolist(), got.tolist()):
        if exponent == -0.5:
            exact = Fraction(Decimal(1) / Decimal(v).sqrt())
        else:
            exact = Fraction(v) ** exponent
        rounded = float(exact) if abs(exact) < Fraction(2) ** 1024 else math.inf
        if math.isinf(rounded) or rounded == 0:
            assert g == rounded, (v, g, rounded)
            continue
        ulp = Fraction(math.ulp(rounded))
        assert abs(Fraction(g) - exact) <= 2 * ulp, (v, g, rounded)


def test_clamp_of_float16_takes_its_bounds_in_float32():
    """A bound written in the function is the same number as a scalar
    argument and as fuse.maximum's: in float32, then the result rounded once
    to float16 (rounded to float16 first, 1 + 2**-11 + 2**-40 became
    1 + 2**-10)."""
    x = np.float16([1.0, -1.0, 3.0])
    c = 1 + 2 ** -11 + 2 ** -40
    want = np.maximum(x.astype(np.float32), np.float32(c)).astype(np.float16)
    assert_same(fuse.jit(lambda x: fuse.clamp(x, min=c))(x), want)
    assert_same(fuse.jit(lambda x, s: fuse.clamp(x, min=s))(x, c), want)
    assert_same(fuse.jit(lambda x: fuse.maximum(x, c))(x), want)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_pytorch_activations(dtype):
    # PyTorch's mish, selu, logsigmoid, hardsigmoid and softsign, against
    # their formulas in float64: within a few roundings of the compute type
    # (float32 for float16) and one to the result type. logsigmoid is
    # min(x, 0) - log1p(e^-|x|), as PyTorch computes it (log(sigmoid(x)) is
    # -inf in float32 from x = -88); as -softplus(-x) it was x itself below
    # -20, 2e5 ulp off in float64. A subnormal e^x (mish(-100)) holds few bits, an
    # error of up to a subnormal spacing times |x| (check_ops's
    # UNDERFLOW_FLOOR, as silu's).
    x = np.concatenate([np.linspace(-30, 30, 601), [-1e-9, 1e-9, 0.0, -0.0, -100.0, 100.0,
                                                   np.inf, -np.inf, np.nan]]).astype(dtype)
    f = fuse.jit(lambda x: (fuse.mish(x), fuse.selu(x), fuse.logsigmoid(x),
                            fuse.hardsigmoid(x), fuse.softsign(x)))
    x64 = x.astype(np.float64)
    alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
    with np.errstate(over="ignore", invalid="ignore"):
        softplus = np.where(x64 > 20, x64, np.log1p(np.exp(x64)))
        want = (x64 * np.tanh(softplus),
                scale * np.where(x64 > 0, x64, alpha * np.expm1(x64)),
                np.minimum(x64, 0) - np.log1p(np.exp(-np.abs(x64))),
                np.clip(x64 + 3, 0, 6) / 6,
                x64 / (1 + np.abs(x64)))
    for name, got, expected in zip(["mish", "selu", "logsigmoid", "hardsigmoid", "softsign"],
                                   f(x), want):
        _assert_within_roundings(got, expected, x, dtype, 6, subnormals=2, name=name)


def test_leaky_relu_of_a_negative_slope_signs_zero_as_pytorch():
    """PyTorch's leaky_relu is x where x > 0, else slope * x: with a negative
    slope, +0 gives -0 and -0 gives +0 (fuse took x where x >= 0, which
    kept the zero's sign), with the slope an attribute or an argument."""
    x = np.array([0.0, -0.0, 2.0, -3.0, np.nan], np.float32)
    want = np.array([-0.0, 0.0, 2.0, 6.0, np.nan], np.float32)
    for got in (fuse.jit(lambda a: fuse.leaky_relu(a, -2.0), target="cpu")(x),
                fuse.jit(lambda a, s: fuse.leaky_relu(a, s), target="cpu")(x, -2.0)):
        assert_same(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


@pytest.mark.parametrize("length", [1, 7, 128, 1000])
def test_float32_to_bfloat16_bits(length):
    """A cast to bfloat16 rounds to nearest even, and a NaN keeps its sign
    and the top of its payload, made quiet: the bits of LLVM's expansion,
    which the cpu target now computes on whole vectors (it expanded them
    lane by lane: seconds of compile time for a bf16 pow), in the vector
    body and the tail alike."""
    rng = np.random.default_rng(length)
    special = np.array([0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000,
                        0x7F800001, 0xFF812345, 0x7FBFFFFF, 0x7FFFFFFF, 0x00008000, 0x00018000,
                        0x3F808000, 0x3F818000, 0x3F807FFF, 0x7F7FFFFF, 0x00000001, 0x807FFFFF],
                       np.uint32)
    bits = np.concatenate([special, rng.integers(0, 2**32, length, dtype=np.uint64)
                           .astype(np.uint32)])[:max(length, len(special))]
    x = bits.view(np.float32)
    wide = bits.astype(np.uint64)
    nan = np.isnan(x)
    rounded = np.where(nan, wide | 0x400000, wide + 0x7FFF + ((wide >> 16) & 1))
    want = ((rounded >> 16) << 16).astype(np.uint32)
    for fusion in (True, False):
        got = fuse.jit(lambda a: fuse.cast(fuse.cast(a, "bfloat16"), "float32"),
                       fusion=fusion, target="cpu")(x)
        np.testing.assert_array_equal(got.view(np.uint32), want)
