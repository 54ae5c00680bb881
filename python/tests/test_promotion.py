"""Mixed dtypes and Python scalars: the tracer inserts fuse.cast and makes
0-d fuse.constant operands, following PyTorch's promotion rules.

The tables below are written out by hand (not computed by the package).
Where numpy 1.24 answers differently, the pair is listed in
DIFFERS_FROM_NUMPY: numpy widens integer + float16/float32 to float64,
PyTorch keeps the float type.
"""

import itertools
import math
import operator
import re

import numpy as np
import pytest

import fuse
from conftest import ALL, INTS, assert_same, assert_within_bound, random_array

# Tensor op tensor, same rank.
PROMOTION = {
    ("bool", "int32"): "int32", ("bool", "int64"): "int64", ("bool", "float16"): "float16",
    ("bool", "float32"): "float32", ("bool", "float64"): "float64",
    ("int32", "int64"): "int64", ("int32", "float16"): "float16",
    ("int32", "float32"): "float32", ("int32", "float64"): "float64",
    ("int64", "float16"): "float16", ("int64", "float32"): "float32",
    ("int64", "float64"): "float64",
    ("float16", "float32"): "float32", ("float16", "float64"): "float64",
    ("float32", "float64"): "float64",
}
DIFFERS_FROM_NUMPY = {("int32", "float16"), ("int32", "float32"), ("int64", "float16"),
                      ("int64", "float32")}


def _expected(a, b):
    return a if a == b else PROMOTION.get((a, b)) or PROMOTION[(b, a)]


@pytest.mark.parametrize("a_dtype,b_dtype", [p for p in itertools.product(ALL, ALL)
                                             if p != ("bool", "bool")])
def test_tensor_tensor(a_dtype, b_dtype, rng):
    a, b = random_array(rng, a_dtype, (6,)), random_array(rng, b_dtype, (6,))
    expected_dtype = _expected(a_dtype, b_dtype)
    f = fuse.jit(lambda a, b: a + b)
    got = f(a, b)
    assert_same(got, a.astype(expected_dtype) + b.astype(expected_dtype))
    if a_dtype != b_dtype:
        assert "fuse.cast" in f.mlir
    differs = (a_dtype, b_dtype) in DIFFERS_FROM_NUMPY or (b_dtype, a_dtype) in DIFFERS_FROM_NUMPY
    assert (np.result_type(a_dtype, b_dtype).name == expected_dtype) == (not differs)


@pytest.mark.parametrize("a_dtype,b_dtype", list(itertools.product(ALL, ALL)))
def test_comparison_promotes(a_dtype, b_dtype, rng):
    a, b = random_array(rng, a_dtype, (6,)), random_array(rng, b_dtype, (6,))
    common = _expected(a_dtype, b_dtype)
    assert_same(fuse.jit(lambda a, b: a <= b)(a, b), a.astype(common) <= b.astype(common))


# Tensor dtype, Python scalar -> result dtype (PyTorch: a scalar promotes only
# across categories; an int scalar with a bool tensor gives int64, a float
# scalar with an integer or bool tensor float32).
SCALARS = [
    ("bool", 2, "int64"), ("bool", 1.5, "float32"),
    ("int32", True, "int32"), ("int32", 3, "int32"), ("int32", 1.5, "float32"),
    ("int64", 3, "int64"), ("int64", -2.5, "float32"),
    ("float16", 3, "float16"), ("float16", 0.5, "float16"), ("float16", True, "float16"),
    ("float32", 3, "float32"), ("float32", 0.25, "float32"),
    ("float64", 3, "float64"), ("float64", 0.1, "float64"),
]


@pytest.mark.parametrize("dtype,scalar,result", SCALARS)
def test_tensor_scalar(dtype, scalar, result, rng):
    x = random_array(rng, dtype, (3, 4))
    s = np.dtype(result).type(scalar)
    f = fuse.jit(lambda x: (x + scalar, scalar * x, x - scalar, scalar - x))
    for got, expected in zip(f(x), (x.astype(result) + s, s * x.astype(result),
                                    x.astype(result) - s, s - x.astype(result))):
        assert_same(got, expected)
    assert "fuse.constant" in f.mlir


@pytest.mark.parametrize("dtype,scalar,result", SCALARS)
def test_tensor_scalar_argument(dtype, scalar, result, rng):
    # A Python scalar passed to the function is a run-time argument that
    # promotes as the same scalar written in the function does (with a
    # float16 tensor, the op computes in float32: these scalars are exact in
    # float16, and the results the same).
    x = random_array(rng, dtype, (3, 4))
    s = np.dtype(result).type(scalar)
    f = fuse.jit(lambda x, scalar: (x + scalar, scalar * x, x - scalar, scalar - x))
    for got, expected in zip(f(x, scalar), (x.astype(result) + s, s * x.astype(result),
                                            x.astype(result) - s, s - x.astype(result))):
        assert_same(got, expected)
    # Used only through one cast, the argument takes that cast's dtype.
    assert "fuse.constant" not in f.mlir and "fuse.cast %scalar" not in f.mlir
    passed = "f32" if result == "float16" else fuse._dtypes.from_numpy(result)
    assert f"%scalar: tensor<{passed}>" in f.mlir


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_tensor_and_scalar_compute_in_float32(dtype):
    # As PyTorch's kernels do: a scalar that the tensor's type does not hold
    # exactly is not rounded to it first; the op computes in float32 and
    # rounds once. 1e5 is inf in float16 (x * 1e5 was inf for every x), 0.1
    # is 0.0999755859375 (x + 0.1 was off by up to an ulp); an exact scalar
    # (0.5) stays in the tensor's type. (Values of the half type are carried
    # in float32 here: numpy has no bfloat16.)
    half = fuse.jit(lambda a: fuse.cast(fuse.cast(a, dtype), "float32"), target="cpu")
    x = half(np.array([1e-4, 2.0, 0.001, -3.5, 60000, 0.0, 1e-30], np.float32))

    @fuse.jit(target="cpu")
    def f(a, s):
        h = fuse.cast(a, dtype)
        return tuple(fuse.cast(r, "float32") for r in (h * 1e5, h / 1e-8, h + 0.1, h * s,
                                                         h * 0.5))

    with np.errstate(over="ignore"):
        wants = (x * np.float32(1e5), x / np.float32(1e-8), x + np.float32(0.1),
                 x * np.float32(0.1), x * np.float32(0.5))
    for got, want in zip(f(x, 0.1), wants):
        assert_same(got, half(want))
    assert f"fuse.constant 0.5 : tensor<{fuse._dtypes.parse(dtype)}>" in f.mlir
    assert "%s: tensor<f32>" in f.mlir


def test_half_tensor_and_zero_d_argument_compute_in_float32():
    # A numpy scalar argument (a 0-d array) of another type meets a float16
    # tensor as PyTorch's kernels take a 0-d tensor: its value in float32,
    # not rounded to float16 first (np.float64(1e5) was inf, and x * inf).
    f = fuse.jit(lambda x, s: x * s, target="cpu")
    x = np.array([0.4134, 1e-4, -0.25], np.float16)
    want = (x.astype(np.float32) * np.float32(1e5)).astype(np.float16)
    for s in (1e5, np.float64(1e5), np.array(1e5), np.int64(100000), np.float32(1e5)):
        assert_same(f(x, s), want)
    y = np.array([1.2568], np.float16)
    assert_same(f(y, np.float32(0.1)),
                (y.astype(np.float32) * np.float32(0.1)).astype(np.float16))
    # A 0-d float16 argument is the tensor's own type: no cast.
    assert_same(f(x, np.float16(2)), x * np.float16(2))


def test_ops_on_scalar_arguments_alone_compute_as_python():
    # An op on Python scalars alone computes in float64 (int64), as Python
    # does, and its result still does not widen a tensor: (1/3) * 3 is 1 in
    # float64 but not in float32.
    f = fuse.jit(lambda x, s: x * (s * 3.0))
    x = np.linspace(-2, 2, 9)
    assert_same(f(x, 1 / 3), x * (1 / 3 * 3.0))
    x16 = x.astype(np.float16)
    assert_same(f(x16, 1 / 3), x16 * np.float16(1 / 3 * 3.0))
    g = fuse.jit(lambda x, n: x * (n / 2) + fuse.exp(n))
    assert g(x16, 1).dtype == np.float16
    assert "tensor<f64>" in g.mlir and "fuse.exp %" in g.mlir


@pytest.mark.parametrize("dtype", ["int32", "int64", "float16", "float32", "float64"])
def test_scalar_division_and_power(dtype, rng):
    x = random_array(rng, dtype, (7,), 1, 5)
    f = fuse.jit(lambda x: (x / 2, 2 / x, x ** 2, 2 ** x))
    half, inverse, square, power = f(x)
    div_dtype = dtype if dtype.startswith("float") else "float32"
    xd, two = x.astype(div_dtype), np.dtype(div_dtype).type(2)
    assert_same(half, xd / two)
    assert_same(inverse, two / xd)
    if dtype in INTS:
        assert_same(square, x * x)
        assert_same(power, np.dtype(dtype).type(2) ** x)
    else:
        # x ** 2 is x * x, exactly as numpy's (the correctly rounded square);
        # pow of other exponents is not exact: within its bound of the
        # float64 result.
        assert_same(square, x * x)
        x64 = x.astype(np.float64)
        assert_within_bound(power, 2.0 ** x64, "pow", dtype, target=f.program.target)


def test_float_scalar_promotes_int_tensor(rng):
    x = random_array(rng, "int32", (5,))
    f = fuse.jit(lambda x: x * 0.5)
    assert_same(f(x), x.astype(np.float32) * np.float32(0.5))
    assert f.mlir == (
        "func.func @lambda(%x: tensor<?xi32>) -> tensor<?xf32> {\n"
        "  %0 = fuse.cast %x : tensor<?xi32> to tensor<?xf32>\n"
        "  %1 = fuse.constant 0.5 : tensor<f32>\n"
        "  %2 = fuse.mul %0, %1 : tensor<?xf32>, tensor<f32> -> tensor<?xf32>\n"
        "  return %2 : tensor<?xf32>\n"
        "}\n")


def test_zero_d_tensors_promote_like_scalars(rng):
    # As in PyTorch and numpy: a 0-d array does not widen within a category.
    x16 = random_array(rng, "float16", (4,))
    i32 = random_array(rng, "int32", (4,))
    s64 = np.array(1.5)  # float64, 0-d
    i64 = np.array(3, np.int64)
    f = fuse.jit(lambda a, s: a * s)
    assert f(x16, s64).dtype == np.float16
    assert f(i32, i64).dtype == np.int32
    assert f(i32, s64).dtype == np.float64  # a higher category wins


def test_scalar_out_of_range():
    x = np.ones(3, np.int32)
    with pytest.raises(OverflowError, match=r"^fuse: the Python int 1099511627776 does not "
                                            r"fit int32, the type it takes here \(numpy raises "
                                            r"OverflowError too\): make the tensor wider first "
                                            r"\(x.astype\(np.int64\)\)$"):
        fuse.jit(lambda x: x + 2 ** 40)(x)
    with pytest.raises(OverflowError, match=r"^fuse: the Python int 36893488147419103232 does "
                                            r"not fit int64, the widest integer type"):
        fuse.jit(lambda x: x + 2 ** 65)(x.astype(np.int64))
    # An int argument is checked when the function is called, against the
    # type it is used as.
    add = fuse.jit(lambda x, n: x + n)
    assert_same(add(x, 2 ** 31 - 1), x + np.int32(2 ** 31 - 1))
    with pytest.raises(OverflowError, match=r"^fuse: argument 'n' = 2147483648 does not fit "
                                            r"int32, the type that <lambda> gives it$"):
        add(x, 2 ** 31)
    assert_same(add(np.ones(3, np.int64), 2 ** 40), np.full(3, 2 ** 40 + 1))
    with pytest.raises(OverflowError, match=r"^fuse: argument 'n' = 118059\.\.\. \(22 digits\) "
                                            r"does not fit int32, the type that <lambda> gives it$"):
        add(x, 2 ** 70)
    with pytest.raises(OverflowError, match=r"^fuse: argument 'n' = 118059\.\.\. \(22 digits\) "
                                            r"does not fit int64, the type that <lambda> gives it$"):
        add(np.ones(3, np.int64), 2 ** 70)
    # Used as a float, an int past int64 is one, as the same number written
    # in the function (it was refused as not fitting int64).
    x32 = np.ones(3, np.float32)
    assert_same(add(x32, 2 ** 70), x32 + np.float32(2 ** 70))
    assert_same(add(np.ones(3), -2 ** 70), np.ones(3) - np.float64(2 ** 70))
    with pytest.raises(OverflowError, match=r"^fuse: argument 'n' = 100000\.\.\. \(401 digits\) "
                                            r"does not fit float64, the widest float$"):
        add(x32, 10 ** 400)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_comparison_with_an_int_past_the_type_answers(dtype):
    # As numpy and PyTorch answer it: every element is below a constant past
    # the type's largest value and above one past its smallest, on either
    # side of the operator (an OverflowError before).
    info = np.iinfo(dtype)
    x = np.array([info.min, -5, 0, 7, info.max], dtype)
    for value in (info.max + 1, 2 ** 70, info.min - 1, -2 ** 70):
        for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq,
                   operator.ne):
            expected = np.array([op(int(e), value) for e in x])
            assert_same(fuse.jit(lambda x: op(x, value))(x), expected)
            swapped = np.array([op(value, int(e)) for e in x])
            assert_same(fuse.jit(lambda x: op(value, x))(x), swapped)
    # Arithmetic with it is still refused.
    with pytest.raises(OverflowError, match="does not fit"):
        fuse.jit(lambda x: x + (info.max + 1))(x)


def test_special_float_scalars():
    x = np.array([1.0, -2.0, np.nan], np.float32)
    f = fuse.jit(lambda x: (fuse.maximum(x, -np.inf), x * float("inf"), x + 1e-8))
    m, inf, tiny = f(x)
    assert_same(m, np.maximum(x, np.float32(-np.inf)))
    assert_same(inf, x * np.float32(np.inf))
    assert_same(tiny, x + np.float32(1e-8))
    assert "fuse.constant -inf : tensor<f32>" in f.mlir


def test_computed_int_scalar_converts_as_astype():
    # A result of scalar arguments alone has no value while tracing: it
    # converts to an int32 tensor's type as astype does (python/README.md).
    f = fuse.jit(lambda x, n: x + n * 100000, target="cpu")
    x = np.arange(3, dtype=np.int32)
    assert_same(f(x, 7), x + np.int32(700000))
    assert_same(f(x, 100000), x + np.array(10 ** 10).astype(np.int32))


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_float_scalar_argument_cast_to_int_as_fuse_cast(dtype):
    # A scalar argument used only through fuse.cast is given the cast's type
    # and converted on the host: as fuse.cast converts (NaN 0, saturating,
    # toward zero), as the cast in a kernel does; numpy's astype gave
    # INT_MIN for NaN, 1e30 and inf.
    info = np.iinfo(dtype)
    direct = fuse.jit(lambda x, s: x + fuse.cast(s, dtype), target="cpu")
    computed = fuse.jit(lambda x, s: x + fuse.cast(s * 1.0, dtype), target="cpu")
    z = np.zeros(1, dtype)
    values = [np.nan, 1e30, -1e30, np.inf, -np.inf, -2.7, 2.7, -0.0]
    want = [0, info.max, info.min, info.max, info.min, -2, 2, 0]
    assert [int(direct(z, v)[0]) for v in values] == want
    assert [int(computed(z, v)[0]) for v in values] == want


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_float_constants_are_short_and_read_back_exactly(dtype):
    # A constant is written as the shortest decimal that reads back as the
    # same value of its type (0.1, not float32's exact 0.10000000149011612),
    # or as its exact value when that is about as short (65504).
    info = np.finfo(dtype)
    edges = [0.1, 1 / 3, 65504.0, 1e-39, 3e38, 6e-8, 123456789.0, 2.5e-5, -7.25e12,
             float(info.max), -float(info.max), float(info.tiny), float(info.smallest_subnormal),
             float(info.tiny) - float(info.smallest_subnormal), float(np.nextafter(
                 np.array(1, dtype), np.array(2, dtype))), -0.0]
    with np.errstate(over="ignore"):
        values = [v for v in np.array(edges).astype(dtype) if np.isfinite(v)]
    f = fuse.jit(lambda x: tuple(x + float(v) for v in values), target="cpu")
    x = np.full(2, -0.0, dtype)
    for got, value in zip(f(x), values):
        assert_same(got, np.full(2, value, dtype))
    literals = re.findall(r"fuse.constant (\S+) :", f.mlir)
    assert "0.1" in literals and max(map(len, literals)) <= 16
    if dtype == "float16":
        assert "65504.0" in literals
    # Every finite value of random bits reads back as itself.
    bits = np.random.default_rng(7).integers(0, 2 ** (8 * info.bits // 8), 20000,
                                             dtype=np.uint64)
    randoms = bits.astype(np.uint32 if dtype == "float32" else np.uint16).view(dtype)
    for value in randoms[np.isfinite(randoms)]:
        literal = fuse._trace.scalar_literal(float(value), fuse._dtypes.parse(dtype))
        assert np.array(float(literal), dtype).tobytes() == value.tobytes(), literal


def test_where_with_scalars(rng):
    c = random_array(rng, "bool", (8,))
    x = random_array(rng, "int32", (8,))
    got_f, got_i = fuse.jit(lambda c, x: (fuse.where(c, 1.0, 0.0) + x, fuse.where(c, x, -1)))(c, x)
    assert_same(got_f, np.where(c, np.float32(1), np.float32(0)) + x.astype(np.float32))
    assert_same(got_i, np.where(c, x, np.int32(-1)))


def test_scalar_arguments_past_a_types_range_warn_of_nothing():
    # A float scalar argument past its type's range is that type's infinity,
    # as a constant would be; the conversion warned (RuntimeWarning from
    # fuse's own file, an error under -W error or pytest's filterwarnings).
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(fuse.jit(lambda a, s: a * s)(np.ones(2, np.float16), 1e300),
                    np.full(2, np.inf, np.float16))
        assert_same(fuse.jit(lambda a, s: a * s)(np.ones(2, np.int32), 1e40),
                    np.full(2, np.inf, np.float32))
        # So is a float constant past float32's range with a float16 tensor
        # (its check of whether float16 holds it warned).
        assert_same(fuse.jit(lambda a: a + 1e300)(np.ones(2, np.float16)),
                    np.full(2, np.inf, np.float16))


def test_astype_takes_numpys_copy():
    x = np.arange(3, dtype=np.float16)
    assert_same(fuse.jit(lambda a: a.astype(np.float64, copy=False))(x), x.astype(np.float64))


# Python's operators on a Python scalar argument, each with an argument
# value: the same function run by Python, with the argument static, and
# with it an argument must agree (dtype too).
PYTHON_SCALAR_OPS = [
    ("~flag", lambda x, s: x + (~s), [True, False, 5, -1, 0]),
    ("-flag", lambda x, s: x * (-s), [True, False, 3]),
    ("abs", lambda x, s: x * abs(s), [True, False, -3]),
    ("+flag", lambda x, s: x * (+s), [True, 3]),
    ("round", lambda x, s: x + round(s), [2.5, 3.5, -2.5, -0.5, 1.4, True, 7]),
    ("math.trunc", lambda x, s: x + math.trunc(s), [2.7, -2.7, True, -4]),
    ("math.floor", lambda x, s: x + math.floor(s), [2.7, -2.7, True, 4]),
    ("math.ceil", lambda x, s: x + math.ceil(s), [2.2, -2.7, False]),
    ("//", lambda x, s: x + (s // 3) + (-7 // s), [2, -2, True, 5]),
    ("%", lambda x, s: x + (s % -3) + (7 % s), [2, -2, True, 5]),
    ("~compare", lambda x, s: x + ~(s > 1), [2, 0]),
]


@pytest.mark.parametrize("name,fn,values", PYTHON_SCALAR_OPS,
                         ids=[c[0] for c in PYTHON_SCALAR_OPS])
def test_python_operators_on_scalar_arguments_are_pythons(name, fn, values):
    # ~flag was a logical not (x + 0 for True, where Python gives x - 2),
    # -flag and abs(flag) were refused, round(v) of a float was a float.
    import warnings
    x = np.array([1, 2, 3], np.int32)
    argument = fuse.jit(fn)
    static = fuse.jit(fn, static_argnames=("s",))
    for value in values:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # ~bool, Python 3.12
            want = fn(x, value)
        assert_same(static(x, value), want)
        assert_same(argument(x, value), want)
    assert argument.cache_info().traces <= 3  # one per kind of value: bool, int, float
    # +v of a float stays a float.
    x64 = x.astype(np.float64)
    assert_same(fuse.jit(lambda x, s: x * (+s))(x64, 2.5), x64 * 2.5)


def test_division_by_a_zero_scalar_argument_raises_as_in_python():
    # An op on Python scalars alone computes as Python would: n / 0 raises
    # ZeroDivisionError when the divisor is an argument (it gave inf).
    x = np.array([1, 2, 3], np.int32)
    f = fuse.jit(lambda x, n, m: x + n / m)
    g = fuse.jit(lambda x, n, m: (x + n // m, x + n % m))
    assert_same(f(x, 5, 2), (x + 2.5).astype(np.float32))  # PyTorch: int32 + float is float32
    for m in (0, 0.0, False):
        with pytest.raises(ZeroDivisionError, match=r"^fuse: argument 'm' of <lambda> is "
                                                     + re.escape(repr(m)) + r", the divisor "
                                                     r"of / at .*test_promotion\.py:\d+:\d+ on "
                                                     r"Python scalars alone, which computes "
                                                     r"as Python would, and Python raises "
                                                     r"ZeroDivisionError"):
            f(x, 5, m)
    with pytest.raises(ZeroDivisionError, match=r"the divisor of // at"):
        g(x, 5, 0)
    # A float divisor too, on every call (the short path of float arguments
    # does not skip the check).
    h = fuse.jit(lambda x, m: x * (1.0 / m))
    x32 = x.astype(np.float32)
    for _ in range(2):
        assert_same(h(x32, 2.0), x32 * np.float32(0.5))
    with pytest.raises(ZeroDivisionError):
        h(x32, 0.0)
    # An array divided by a scalar argument 0 is numpy's (inf), and so is
    # a divisor computed from arguments, which has no value until it runs.
    with np.errstate(divide="ignore"):
        assert_same(fuse.jit(lambda x, m: x / m)(x32, 0.0), x32 / np.float32(0.0))
    assert_same(fuse.jit(lambda x, n, m: x + n / (m - 1))(x32, 1.0, 1.0),
                np.full(3, np.inf, np.float32))


def test_int64_numpy_scalar_that_int32_cannot_hold_is_refused():
    # A numpy int64 scalar or 0-d array meeting an int32 tensor takes its
    # type (PyTorch's 0-d tensors), and was wrapped silently (x + 5 for
    # 2**40 + 5); it is checked as a Python int is.
    x = np.array([1, 2, 3], np.int32)
    f = fuse.jit(lambda x, s: x + s)
    assert_same(f(x, np.int64(7)), x + np.int32(7))
    for s in (np.int64(2 ** 40 + 5), np.array(2 ** 40 + 5), np.array(-2 ** 31 - 1)):
        with pytest.raises(OverflowError, match=r"^fuse: argument 's' = " + str(int(s)) +
                           r" does not fit int32, the type that <lambda> gives it \(an int64 "
                           r"0-d array or numpy scalar takes an int32 tensor's type"):
            f(x, s)
    # A 0-d array argument takes the short path of array arguments: checked
    # on every call.
    for _ in range(2):
        assert_same(f(x, np.array(2 ** 31 - 1)), x + np.int32(2 ** 31 - 1))
    with pytest.raises(OverflowError):
        f(x, np.array(2 ** 31))
    with pytest.raises(OverflowError, match=r"^fuse: the int64 scalar 1099511627781 at "
                                            r".*test_promotion\.py:\d+:\d+ does not fit "
                                            r"int32, the type it takes here"):
        fuse.jit(lambda x: x + np.int64(2 ** 40 + 5))(x)
    with pytest.raises(OverflowError, match=r"the int64 scalar 1099511627776"):
        fuse.jit(lambda x: x < np.int64(2 ** 40))(x)
    assert_same(fuse.jit(lambda x: x + np.int64(-2 ** 31))(x), x + np.int32(-2 ** 31))
    assert_same(f(x.astype(np.int64), np.int64(2 ** 40)), x + np.int64(2 ** 40))


def test_half_tensor_compared_with_a_scalar_rounds_it_to_the_tensors_type():
    # As numpy (NEP 50's weak scalars, and numpy 1.x's value-based casting)
    # and PyTorch compare: the scalar rounded to float16 first. In float32,
    # as arithmetic takes it, x == 0.1 was False for the float16 0.09998
    # and x < 0.1 True; for a constant, a scalar argument, a 0-d float64
    # array (as a Python float: python/README.md, "Promotion") and a numpy
    # scalar the function holds.
    x = np.array([0.1, 2048.0, 65504.0], np.float16)
    half = np.float16
    assert_same(fuse.jit(lambda x: x == 0.1)(x), x == half(0.1))
    assert fuse.jit(lambda x: x == 0.1)(x).tolist() == [True, False, False]
    assert_same(fuse.jit(lambda x: x < 0.1)(x), x < half(0.1))
    assert_same(fuse.jit(lambda x: x == 2049.0)(x), x == half(2049.0))
    assert_same(fuse.jit(lambda x: x == 2049)(x), x == half(2049))
    for op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge):
        f = fuse.jit(lambda x, s: op(x, s))
        for s in (0.1, 2049.0, 65519.0):
            assert_same(f(x, s), op(x, half(s)))
            assert_same(f(x, np.array(s)), op(x, half(s)))
    assert_same(fuse.jit(lambda x: x == np.float64(0.1))(x), x == half(0.1))
    assert_same(fuse.jit(lambda x: fuse.where(x > 0.09997, 1.0, 0.0))(x),
                np.where(x > half(0.09997), 1.0, 0.0).astype(np.float32))
    # bfloat16 too: 0.1 is 0.10009765625 there.
    b = np.array([0.10009765625, 0.1], np.float32)
    bf16 = lambda x, s: fuse.cast(x, "bfloat16") == s  # noqa: E731
    assert fuse.jit(lambda x: bf16(x, 0.1))(b).tolist() == [True, True]
    assert fuse.jit(bf16)(b, 0.1).tolist() == [True, True]
    # Arithmetic is as it was: in float32, rounded once.
    assert_same(fuse.jit(lambda x: x + 0.1)(x),
                (x.astype(np.float32) + np.float32(0.1)).astype(np.float16))


def test_integer_tensor_compared_with_a_float_compares_in_float32():
    # PyTorch's promotion, which python/README.md documents ("Promotion"):
    # numpy compares these exactly.
    x = np.array([16777217, 2 ** 31 - 1], np.int32)
    assert fuse.jit(lambda x: x > 16777216.0)(x).tolist() == [False, True]
    assert fuse.jit(lambda x: x.astype(np.float64) > 16777216.0)(x).tolist() == [True, True]
