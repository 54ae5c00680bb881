#!/usr/bin/env python3
"""Checks the numbers fuse-run computes on the CPU target, op by op.

usage: check_ops.py FUSE_RUN WORKDIR [--target=cuda]

For every fuse op and every element type it accepts (docs/dialect.md), writes
a small program and its inputs (.npy) into WORKDIR, runs it with
`fuse-run --target=cpu` (or the target given) fused and with `--fusion=off`,
and compares the results with a numpy reference that implements the
documented semantics.
A few multi-op chains check that fusion keeps the per-op rounding of f16 and
bf16, and a few programs return an argument, a constant or a value twice.
The reductions (reduce_sum, reduce_max, reduce_min, reduce_mean) run over
the last dimension (with NaN, +-inf, -0 and, for integers, sums that wrap
around), the first, all of them and the middle one of a 3-D tensor, keeping
the reduced dimensions (size 1) or dropping them; over rows of 1 to 100000
elements; empty (sum 0, mean NaN; max and min of a dynamic empty dimension
must stop with fuse-run's error); and fused with the elementwise ops around
them in softmax and layer norm chains.
Prints `ok OP DTYPE [VARIANT] (max error)` or `FAIL ...` per case, then a
count, and exits 1 on any failure.

The fused and the eager result must be bit-identical (same bytes).

Reference: inputs are exact values of their dtype; the op is evaluated on
them in float64 (integers: exact Python ints, wrapped to the width) and the
result rounded to nearest even to the compute type and then to the result
type: f16 and bf16 compute in f32 and round once when stored, so their
reference is round16(round32(exact)). Numpy has no bfloat16: bf16 inputs are
written as float32 files holding bf16 values, and fuse-run writes bf16 results
as float32.

Tolerances (TOLERANCE and TARGET_TOLERANCE below): a float result passes when
    |got - want| <= ULPS * ulp(want) + XREL * eps * |x|
with `want` the rounded reference, ulp() the spacing of the result type at
|want|, eps the machine epsilon of the compute type and x the op's input.
NaN must give NaN and an infinity the same infinity; -0 and +0 compare equal.
  * 0 ulp (bit-exact value): every integer, i1, cmp, select and cast case;
    on floats neg abs relu floor ceil clamp leaky_relu max min, and add sub
    mul div sqrt reciprocal, which IEEE 754 rounds correctly (for f16/bf16 the
    f32 result rounded once is the correctly rounded result too).
  * rsqrt (1 / sqrt(x), two roundings): 1 ulp.
  * exp log tanh sin cos erf sigmoid silu pow, gelu: "a few ulp" (docs):
    4 ulp on f32 and f64, 1 ulp on f16/bf16 (an f32 error of a few f32 ulp
    moves the 16-bit rounding by at most one step).
  * gelu also gets XREL = 4: `1 + erf(x / sqrt(2))` and `1 + tanh(...)`
    cancel for negative x, so its error is relative to |x|, not to the
    result; PyTorch evaluates the same formula.
  * reduce_max, reduce_min and every integer reduction: exact (integer sums
    wrap around in the element type; NaN propagates through max and min).
  * reduce_sum and reduce_mean on floats ("bounded": the case carries the
    error allowed per element, and prints the largest fraction of it used):
    fuse accumulates in the compute type (f32 for f16, bf16 and f32; f64)
    and recursive summation in any order is within
        B = (n-1) u sum|x|
    of the exact sum (Jeannerod and Rump 2013; n the number of elements
    reduced, u = 2^-24 for f32 accumulation, 2^-53 for f64); a mean's B is
    that divided by n. The reference is the exact sum (math.fsum, rounded
    once to float64; divided by n for a mean) rounded to the compute type
    and then to the result type, so an element passes when
        |got - want| <= B + ulp_C(m) + ulp_R(m),  m = max(|want|, |exact|) + B
    with ulp_C the spacing of the compute type (the reference's rounding and
    fuse's rounding of its accumulator or quotient) and ulp_R that of the
    result type, only for f16 and bf16 (their last rounding); bit-exact
    when B = 0 (one element, or zeros only). Do not compare with numpy's
    float32 sum: its pairwise order is another summation.
  * the chains with reductions (softmax, layer norm): each value carries a
    bound propagated op by op (class Bounded): a reduction as above with
    its inputs' bounds added, mul |a| Eb + |b| Ea + Ea Eb, div, exp and
    rsqrt through their derivative, plus 2 ulp of the result type where a
    correctly rounded op rounds values that differ and the op's own
    tolerance (exp, rsqrt) from tolerance().
"""

import concurrent.futures
import math
import os
import subprocess
import sys

import numpy as np

FLOATS = ["f16", "bf16", "f32", "f64"]
INTS = ["i32", "i64"]
NUMERIC = FLOATS + INTS
ANY = NUMERIC + ["i1"]

TRANSCENDENTAL = {"f32": 4, "f64": 4, "f16": 1, "bf16": 1}
# op -> {dtype: (ULPS, XREL)}; ops not listed are exact.
TOLERANCE = {
    "rsqrt": {t: (1, 0) for t in FLOATS},
    **{op: {t: (u, 0) for t, u in TRANSCENDENTAL.items()}
       for op in ["exp", "expm1", "log", "log1p", "tanh", "sin", "cos", "erf",
                  "sigmoid", "silu", "pow"]},
    "gelu": {t: (u, 4) for t, u in TRANSCENDENTAL.items()},
    # x * relu6(x + 3) / 6 rounds after the add, the product and the quotient.
    "hardswish": {t: (2, 0) for t in FLOATS},
}
# Ops whose error may also be ULPS * (smallest normal) * max(1, |x|):
# 1 / (1 + e^-x) underflows (and is 0 once e^-x overflows), and silu's
# x * sigmoid(x) lifts that error into the normal numbers (silu(-88.7) =
# -2.6e-37 in f32 gives -0). scripts/accuracy's FLOOR, difftest's T.
UNDERFLOW_FLOOR = {"sigmoid", "silu"}
# Where a target's math library documents a looser bound: libdevice's rsqrtf
# is 2 ulp (CUDA C++ Programming Guide, "Mathematical Functions"), not 1.
# The cpu target's f32 tanh and erf are upstream's polynomial
# approximations, 5 ulp at their worst: tanh on 3.74 to 7.08 (86 f32 values
# of [-9.1, 9.1]), erf near 1.83 (30 of [0.25, 4]), found by testing every
# f32 value there against a correctly rounded reference.
TARGET_TOLERANCE = {"cuda": {"rsqrt": {**TOLERANCE["rsqrt"], "f32": (2, 0)}},
                    "cpu": {op: {**TOLERANCE[op], "f32": (5, 0)} for op in ("tanh", "erf")}}


def tolerances(op, target):
    """{dtype: (ULPS, XREL)} of `op` on `target` (TARGET_TOLERANCE, else
    TOLERANCE), None for an exact op. "gelu tanh" is gelu's; the emulated
    GPU is cuda's."""
    op = "gelu" if op == "gelu tanh" else op
    target = "cuda" if target == "emulated" else target
    return TARGET_TOLERANCE.get(target, {}).get(op) or TOLERANCE.get(op)


def tolerance(op, dtype, target):
    """(ULPS, XREL) of `op` in `dtype` on `target`; (0, 0) where exact."""
    return (tolerances(op, target) or {}).get(dtype, (0, 0))


def bound(op, target="cpu"):
    """The bound of `op` on `target` as docs/accuracy.md states it, for
    scripts/accuracy and the Python tests: (ULPS per float type, XREL,
    FLOOR), FLOOR 1 for the UNDERFLOW_FLOOR ops; exact ops (0, 0, 0)."""
    tolerance = tolerances(op, target)
    if tolerance is None:
        return {t: 0 for t in FLOATS}, 0, 0
    return ({t: ulps for t, (ulps, _) in tolerance.items()},
            max(xrel for _, xrel in tolerance.values()),
            int(op in UNDERFLOW_FLOOR))

# precision bits (with the implicit one), smallest normal exponent, largest
# exponent
FLOAT_FORMAT = {"f16": (11, -14, 15), "bf16": (8, -126, 127),
                "f32": (24, -126, 127), "f64": (53, -1022, 1023)}
INT_BITS = {"i32": 32, "i64": 64}
COMPUTE = {"f16": "f32", "bf16": "f32", "f32": "f32", "f64": "f64"}
NUMPY = {"f16": np.float16, "bf16": np.float32, "f32": np.float32,
         "f64": np.float64, "i32": np.int32, "i64": np.int64, "i1": np.bool_}


#===-----------------------------------------------------------------------===#
# Rounding and comparison
#===-----------------------------------------------------------------------===#

def round_float(dtype, x):
    """float64 values rounded to nearest even in `dtype` (as float64)."""
    x = np.asarray(x, np.float64)
    if dtype == "f64":
        return x.copy()
    p, emin, emax = FLOAT_FORMAT[dtype]
    out = x.copy()
    finite = np.isfinite(x) & (x != 0)
    _, e = np.frexp(np.abs(x[finite]))
    exponent = np.maximum(e - 1, emin)
    ulp = np.ldexp(1.0, exponent - (p - 1))
    rounded = np.rint(x[finite] / ulp) * ulp
    largest = (2 - 2.0 ** (1 - p)) * 2.0 ** emax
    rounded[np.abs(rounded) > largest] = np.inf * np.sign(
        rounded[np.abs(rounded) > largest])
    out[finite] = rounded
    return out


def round_int_to_float(dtype, n):
    """Python int `n` rounded to nearest even in `dtype`, without double
    rounding through float64."""
    p, _, emax = FLOAT_FORMAT[dtype]
    m = abs(n)
    shift = max(m.bit_length() - p, 0)
    q, r = divmod(m, 1 << shift)
    half = (1 << shift) >> 1
    if shift and (r > half or (r == half and q & 1)):
        q += 1
    value = q << shift
    largest = ((1 << p) - 1) << (emax - p + 1)
    result = math.inf if value > largest else float(value)
    return -result if n < 0 else result


def ulp(dtype, w):
    p, emin, _ = FLOAT_FORMAT[dtype]
    _, e = np.frexp(np.abs(w))
    exponent = np.where(w == 0, emin, np.maximum(e - 1, emin))
    return np.ldexp(1.0, exponent - (p - 1))


def wrap(dtype, n):
    bits = INT_BITS[dtype]
    return (n + (1 << (bits - 1))) % (1 << bits) - (1 << (bits - 1))


def to_result(dtype, values):
    """The reference `values` (float64 or Python ints) in result `dtype`."""
    if dtype == "i1":
        return np.asarray(values, bool)
    if dtype in INTS:
        values = np.array(values, dtype=object)
        return np.array([wrap(dtype, int(v)) for v in values.ravel()],
                        dtype=NUMPY[dtype]).reshape(values.shape)
    return round_float(dtype, round_float(COMPUTE[dtype], values))


def compare(op, dtype, got, want, x):
    """(number of bad elements, first bad description, max error in ulp, or
    for `bounded` the largest fraction of the allowed error)."""
    if got.shape != want.shape:
        return 1, f"shape {got.shape}, expected {want.shape}", 0
    if op == "bounded" and dtype in FLOATS:
        # x is the error allowed per element (0: exact).
        allowed = np.broadcast_to(x, want.shape)
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(got - want)
            special = ~np.isfinite(want)
            same = np.where(special,
                            (got == want) | (np.isnan(got) & np.isnan(want)),
                            np.where(allowed > 0, diff <= allowed,
                                     got == want))
            bad = ~same
            scaled = ~special & np.isfinite(got) & (allowed > 0)
            err = float(np.max(diff[scaled] / allowed[scaled], initial=0))
        x = None
    elif dtype not in FLOATS or tolerance(op, dtype, TARGET) == (0, 0):
        if dtype in FLOATS:
            bad = ~((got == want) | (np.isnan(got) & np.isnan(want)))
        else:
            bad = got != want
        err = 0.0
    else:
        ulps, xrel = tolerance(op, dtype, TARGET)
        eps = 2.0 ** (1 - FLOAT_FORMAT[COMPUTE[dtype]][0])
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.abs(got - want)
            scale = ulp(dtype, want)
            allowed = ulps * scale
            if xrel:
                allowed = allowed + xrel * eps * np.abs(
                    np.broadcast_to(x, want.shape))
            special = ~np.isfinite(want)
            same = np.where(special,
                            (got == want) | (np.isnan(got) & np.isnan(want)),
                            diff <= allowed)
            bad = ~same
            finite = ~special & np.isfinite(got)
            err = float(np.max(diff[finite] / scale[finite], initial=0))
    nbad = int(np.count_nonzero(bad))
    if not nbad:
        return 0, "", err
    i = np.unravel_index(np.argmax(bad), bad.shape)
    inputs = ""
    if x is not None:
        inputs = f" (input {np.broadcast_to(x, want.shape)[i]!r})"
    return (nbad, f"element {tuple(int(k) for k in i)}{inputs}: got "
            f"{got[i]!r}, expected {want[i]!r}", err)


def self_test():
    """The reference's rounding agrees with numpy's conversions (f16, f32)
    and with bit-level round-to-nearest-even (bf16 from f32)."""
    rng = np.random.default_rng(1)
    x = np.concatenate([rng.standard_normal(2000) * 10.0 ** rng.integers(
        -45, 45, 2000), [0.0, -0.0, np.nan, np.inf, -np.inf, 65519.99,
                         65520.0, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11,
                         3.4028235e38, 3.4028236e38, 1e-40, 6e-8, 3e-8]])
    with np.errstate(over="ignore"):
        checks = [("f16", x.astype(np.float16)), ("f32", x.astype(np.float32))]
        y = x.astype(np.float32)
    bits = y.view(np.uint32).astype(np.uint64)
    bf16 = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(
        np.uint32).view(np.float32)
    checks.append(("bf16", np.where(np.isnan(y), y, bf16)))
    for dtype, want in checks:
        source = y if dtype == "bf16" else x
        got = round_float(dtype, source)
        want = want.astype(np.float64)
        if not np.array_equal(got, want, equal_nan=True):
            return f"round_float({dtype}) disagrees with numpy"
    for n in list(rng.integers(-2 ** 63, 2 ** 63 - 1, 2000)) + [
            2 ** 24 + 1, 2 ** 24 + 3, 2 ** 53 + 1, 2 ** 63 - 1, -2 ** 63]:
        for dtype, convert in (("f32", np.float32), ("f64", np.float64)):
            if round_int_to_float(dtype, int(n)) != float(convert(n)):
                return f"round_int_to_float({dtype}, {n}) disagrees with numpy"
    return None


#===-----------------------------------------------------------------------===#
# Input values
#===-----------------------------------------------------------------------===#

RNG = np.random.default_rng(20240611)
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.nan, np.inf, -np.inf]


def float_values(dtype, low, high, extra=(), count=24):
    """Random values in [low, high) and the `extra` ones, exact in dtype."""
    values = np.concatenate([RNG.uniform(low, high, count),
                             np.asarray(extra, np.float64)])
    return round_float(dtype, values)


def int_values(dtype, count=24):
    bits = INT_BITS[dtype]
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    values = list(RNG.integers(-1000, 1000, count))
    values += [0, 1, -1, 2, -2, 7, -7, lo, hi, lo + 1, hi - 1]
    return np.array(values, NUMPY[dtype])


def write_npy(path, dtype, values):
    if dtype == "bf16":
        values = round_float("bf16", values).astype(np.float32)
    np.save(path, np.asarray(values).astype(NUMPY[dtype]))


def read_npy(path, dtype):
    array = np.load(path)
    if dtype in FLOATS:
        return array.astype(np.float64)
    return array


#===-----------------------------------------------------------------------===#
# Reference semantics (float64 or Python ints)
#===-----------------------------------------------------------------------===#

erf = np.vectorize(math.erf, otypes=[np.float64])


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def gelu(x):
    return x * 0.5 * (1 + erf(x / math.sqrt(2)))


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                  (x + 0.044715 * x ** 3)))


FLOAT_UNARY = {
    "neg": lambda x: -x,
    "abs": np.abs,
    "relu": lambda x: np.maximum(x, 0),
    "floor": np.floor,
    "ceil": np.ceil,
    "exp": np.exp,
    "expm1": np.expm1,
    "log": np.log,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "tanh": np.tanh,
    "sigmoid": sigmoid,
    "silu": lambda x: x * sigmoid(x),
    "sin": np.sin,
    "cos": np.cos,
    "erf": erf,
    "reciprocal": lambda x: 1 / x,
    "hardswish": lambda x: x * np.minimum(np.maximum(x + 3, 0), 6) / 6,
    "gelu": gelu,
}

INT_UNARY = {
    "neg": lambda n: -n,
    "abs": abs,
    "relu": lambda n: max(n, 0),
    "floor": lambda n: n,
    "ceil": lambda n: n,
}

# Inputs of unary float ops: random range and extra values per op; the
# SPECIAL values are added to every op.
UNARY_RANGE = {
    "neg": (-10, 10, []), "abs": (-10, 10, []), "relu": (-10, 10, []),
    "floor": (-10, 10, [2.0, -3.0, 0.25, -0.25, 1e30]),
    "ceil": (-10, 10, [2.0, -3.0, 0.25, -0.25, 1e30]),
    "exp": (-20, 20, [1e-6, -1e-6, 80.0, -80.0]),
    "expm1": (-20, 20, [1e-10, -1e-10, 1e-6, 0.4, -0.4, 80.0, -80.0, 700.0]),
    "log": (1e-3, 1e3, [1e-30, 1e30, 2.0, 0.999]),
    "log1p": (-0.999, 1e3, [1e-10, -1e-10, 1e-30, -0.5, -0.75, -1.0, -2.0,
                            1e30]),
    "sqrt": (0, 1e3, [1e-30, 1e30, 2.0, 4.0]),
    "rsqrt": (1e-3, 1e3, [1e-30, 1e30, 2.0, 4.0]),
    "tanh": (-10, 10, [1e-5, -1e-5, 0.01, 20.0, -20.0]),
    "sigmoid": (-20, 20, [40.0, -40.0, 1e-5]),
    "silu": (-20, 20, [40.0, -40.0, 1e-5]),
    "sin": (-10, 10, [1e-5, math.pi, -math.pi / 2]),
    "cos": (-10, 10, [1e-5, math.pi, -math.pi / 2]),
    "erf": (-5, 5, [1e-5, -1e-5, 0.01, 10.0, -10.0]),
    "reciprocal": (-10, 10, [1e-3, 3.0, -7.0, 1e30]),
    "hardswish": (-6, 6, [-3.0, 3.0, -2.5, 1e30, -1e30]),
    "gelu": (-6, 6, [1e-5, -1e-5, 10.0, -10.0]),
    "gelu_tanh": (-6, 6, [1e-5, -1e-5, 10.0, -10.0]),
    "leaky_relu": (-10, 10, [1e30, -1e30]),
    "clamp": (-10, 10, [-1.5, 6.0, 0.75]),
}


#===-----------------------------------------------------------------------===#
# Cases
#===-----------------------------------------------------------------------===#

def tensor(shape, dtype):
    return f"tensor<{shape}x{dtype}>" if shape else f"tensor<{dtype}>"


def mlir_float(value):
    return f"{value:.17e}"


class Case:
    """One program: `body` lines using %a0.. for the arguments; `args` are
    (mlir shape, dtype, numpy values); `results` are (mlir shape, dtype,
    reference values, x for the tolerance)."""

    def __init__(self, op, dtype, variant, args, body, results, tol_op=None):
        self.name = " ".join(s for s in (op, dtype, variant) if s)
        self.op = tol_op or op
        self.dtype = dtype
        self.args = args
        self.body = body
        self.results = results
        # A run-time error that both runs must stop with (a text of its
        # message), instead of results.
        self.error = None

    def program(self):
        params = ", ".join(f"%a{i}: {tensor(s, t)}"
                           for i, (s, t, _) in enumerate(self.args))
        types = [tensor(s, t) for s, t, _, _ in self.results]
        names = [f"%r{i}" for i in range(len(self.results))]
        lines = [f"func.func @f({params}) -> ({', '.join(types)}) {{"]
        lines += ["  " + line for line in self.body]
        lines += [f"  return {', '.join(names)} : {', '.join(types)}", "}"]
        return "\n".join(lines) + "\n"


def unary_float_cases():
    ops = ["neg", "abs", "relu", "floor", "ceil", "exp", "expm1", "log",
           "log1p", "sqrt", "rsqrt", "tanh", "sigmoid", "silu", "sin", "cos", "erf",
           "reciprocal", "hardswish", "gelu"]
    for op in ops + ["gelu_tanh", "leaky_relu", "leaky_relu_default"]:
        for t in FLOATS:
            low, high, extra = UNARY_RANGE[op.replace("_default", "")]
            x = float_values(t, low, high, list(extra) + SPECIAL)
            ty = tensor("?", t)
            with np.errstate(all="ignore"):
                if op == "gelu_tanh":
                    ref = gelu_tanh(x)
                    line = (f"%r0 = fuse.gelu %a0 {{approximate = "
                            f"\"tanh\"}} : {ty}")
                    yield Case("gelu", t, "tanh", [("?", t, x)], [line],
                               [("?", t, to_result(t, ref), x)])
                    continue
                if op == "leaky_relu":
                    ref = np.where(x >= 0, x, 0.25 * x)
                    line = (f"%r0 = fuse.leaky_relu %a0 {{alpha = 0.25 : {t}}}"
                            f" : {ty}")
                    yield Case(op, t, "alpha=0.25", [("?", t, x)], [line],
                               [("?", t, to_result(t, ref), x)])
                    continue
                if op == "leaky_relu_default":
                    # alpha = 0.01 in the compute type, like PyTorch's
                    # negative_slope.
                    alpha = round_float(COMPUTE[t], 0.01)
                    ref = np.where(x >= 0, x, alpha * x)
                    line = f"%r0 = fuse.leaky_relu %a0 : {ty}"
                    yield Case("leaky_relu", t, "default", [("?", t, x)],
                               [line], [("?", t, to_result(t, ref), x)])
                    continue
                ref = FLOAT_UNARY[op](x)
            yield Case(op, t, "", [("?", t, x)],
                       [f"%r0 = fuse.{op} %a0 : {ty}"],
                       [("?", t, to_result(t, ref), x)])


def unary_int_cases():
    for op, fn in INT_UNARY.items():
        for t in INTS:
            x = int_values(t)
            ref = [fn(int(v)) for v in x]
            yield Case(op, t, "", [("?", t, x)],
                       [f"%r0 = fuse.{op} %a0 : {tensor('?', t)}"],
                       [("?", t, to_result(t, ref), None)])


def clamp_cases():
    float_variants = [("min+max", -1.5, 6.0), ("min", -1.5, None),
                      ("max", None, 0.75), ("min>max", 2.0, -1.0)]
    int_variants = [("min+max", -5, 600), ("min", -5, None),
                    ("max", None, 75), ("min>max", 2, -100)]
    for t in NUMERIC:
        for name, lo, hi in float_variants if t in FLOATS else int_variants:
            if t in FLOATS:
                low, high, extra = UNARY_RANGE["clamp"]
                x = float_values(t, low, high, extra + SPECIAL)
                bound = lambda v: f"{mlir_float(v)} : {t}"
                ref = x.copy()
            else:
                x = int_values(t)
                bound = lambda v: f"{v} : {t}"
                ref = x.astype(object)
            # min(max(x, min), max); np.maximum/np.minimum propagate NaN.
            with np.errstate(invalid="ignore"):
                if lo is not None:
                    ref = np.maximum(ref, lo)
                if hi is not None:
                    ref = np.minimum(ref, hi)
            attrs = []
            if lo is not None:
                attrs.append(f"min = {bound(lo)}")
            if hi is not None:
                attrs.append(f"max = {bound(hi)}")
            line = (f"%r0 = fuse.clamp %a0 {{{', '.join(attrs)}}} : "
                    f"{tensor('?', t)}")
            yield Case("clamp", t, name, [("?", t, x)], [line],
                       [("?", t, to_result(t, ref), x)])


def binary_values(op, t):
    """(lhs column, rhs row) whose outer pairs are the op's test points."""
    if t in INTS:
        lo = -(1 << (INT_BITS[t] - 1))
        lhs = [0, 1, -1, 2, -2, 7, -7, 13, -100, 1000, lo, -lo - 1, lo + 1]
        rhs = [0, 1, -1, 2, -2, 3, -3, 5, 31, 63, -64, lo, -lo - 1]
        if op == "pow":
            rhs = [0, 1, 2, 3, 7, 31, 32, 63, -1, -2, -3, lo, -lo - 1]
        return np.array(lhs, NUMPY[t]), np.array(rhs, NUMPY[t])
    if op == "pow":
        lhs = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.75, 10.0,
               1.25, 0.1, np.nan, np.inf, -np.inf]
        rhs = [0.0, -0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 2.5, 7.0,
               -3.0, np.nan, np.inf, -np.inf]
    else:
        lhs = [0.0, -0.0, 1.0, -1.0, 2.5, -3.75, 0.3, 7.0, 1000.0, 1e-3,
               np.nan, np.inf, -np.inf]
        rhs = [0.0, -0.0, 1.0, -1.0, 3.0, -0.75, 0.1, 7.0, -1000.0, 6e-3,
               np.nan, np.inf, -np.inf]
    return round_float(t, lhs), round_float(t, rhs)


def int_div(a, b, bits):
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def int_pow(a, b, bits):
    if b < 0:
        return 1 if a == 1 else (-1 if b & 1 else 1) if a == -1 else 0
    return pow(a, b, 1 << bits)


INT_BINARY = {
    "add": lambda a, b, n: a + b,
    "sub": lambda a, b, n: a - b,
    "mul": lambda a, b, n: a * b,
    "div": int_div,
    "max": lambda a, b, n: max(a, b),
    "min": lambda a, b, n: min(a, b),
    "pow": int_pow,
}
FLOAT_BINARY = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply,
    "div": np.divide, "max": np.maximum, "min": np.minimum,
    "pow": np.power,
}
CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less,
       "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}


def binary_ref(op, t, a, b):
    if t in INTS:
        bits = INT_BITS[t]
        a, b = np.broadcast_arrays(a.astype(object), b.astype(object))
        ref = [INT_BINARY[op](int(x), int(y), bits)
               for x, y in zip(a.ravel(), b.ravel())]
        return to_result(t, np.array(ref, object).reshape(a.shape))
    with np.errstate(all="ignore"):
        return to_result(t, FLOAT_BINARY[op](a, b))


def binary_cases():
    for op in FLOAT_BINARY:
        for t in NUMERIC:
            lhs, rhs = binary_values(op, t)
            a, b = lhs.reshape(-1, 1), rhs.reshape(1, -1)
            line = (f"%r0 = fuse.{op} %a0, %a1 : {tensor('?x1', t)}, "
                    f"{tensor('1x?', t)} -> {tensor('?x?', t)}")
            yield Case(op, t, "outer", [("?x1", t, a), ("1x?", t, b)],
                       [line], [("?x?", t, binary_ref(op, t, a, b), a)])
    # The other broadcasting forms, on every numeric type.
    shapes = [("row", "?x4", (3, 4), "4", (4,), "?x4"),
              ("scalar", "?", (7,), "", (), "?"),
              ("static", "3x1", (3, 1), "1x4", (1, 4), "3x4"),
              ("same", "?x?", (2, 3), "?x?", (2, 3), "?x?")]
    for t in NUMERIC:
        for op in ["add", "mul"]:
            for name, sa, na, sb, nb, sr in shapes:
                if t in FLOATS:
                    a = float_values(t, -10, 10, count=int(np.prod(na)))
                    b = float_values(t, -10, 10, count=int(np.prod(nb)))
                else:
                    a = RNG.integers(-1000, 1000, int(np.prod(na)))
                    b = RNG.integers(-1000, 1000, int(np.prod(nb)))
                a = a.reshape(na).astype(NUMPY[t])
                b = b.reshape(nb).astype(NUMPY[t])
                line = (f"%r0 = fuse.{op} %a0, %a1 : {tensor(sa, t)}, "
                        f"{tensor(sb, t)} -> {tensor(sr, t)}")
                yield Case(op, t, name, [(sa, t, a), (sb, t, b)], [line],
                           [(sr, t, binary_ref(op, t, a, b), a)])


def cmp_cases():
    for pred, fn in CMP.items():
        for t in ANY:
            if t == "i1":
                lhs = np.array([False, True]).reshape(-1, 1)
                rhs = np.array([False, True]).reshape(1, -1)
            else:
                lhs, rhs = binary_values("cmp", t)
                lhs, rhs = lhs.reshape(-1, 1), rhs.reshape(1, -1)
                if t in FLOATS:
                    # Equal pairs too, not only the diagonal of a column and
                    # a row that differ.
                    rhs = np.concatenate([rhs, lhs.reshape(1, -1)], axis=1)
            line = (f"%r0 = fuse.cmp {pred}, %a0, %a1 : {tensor('?x1', t)}, "
                    f"{tensor('1x?', t)} -> {tensor('?x?', 'i1')}")
            if t in FLOATS:
                ref = fn(lhs.astype(np.float64), rhs.astype(np.float64))
            else:
                ref = fn(lhs.astype(object), rhs.astype(object)).astype(bool)
            yield Case("cmp", t, pred, [("?x1", t, lhs), ("1x?", t, rhs)],
                       [line], [("?x?", "i1", ref, None)])


def select_cases():
    for t in ANY:
        m = np.array([True, False, True, False, False]).reshape(5, 1)
        if t == "i1":
            a = RNG.integers(0, 2, (5, 4)).astype(bool)
            b = np.array(True)
        elif t in FLOATS:
            a = float_values(t, -10, 10, [np.nan, np.inf], count=18)
            a = a.reshape(5, 4)
            b = round_float(t, np.array(-0.5))
        else:
            a = RNG.integers(-1000, 1000, (5, 4)).astype(NUMPY[t])
            b = np.array(-7, NUMPY[t])
        ref = np.where(m, a, b)
        line = (f"%r0 = fuse.select %a0, %a1, %a2 : {tensor('?x1', 'i1')}, "
                f"{tensor('?x4', t)}, {tensor('', t)} -> {tensor('?x4', t)}")
        yield Case("select", t, "", [("?x1", "i1", m), ("?x4", t, a),
                                     ("", t, b)], [line],
                   [("?x4", t, to_result(t, ref), None)])


def cast_inputs(src, dst):
    """Values of `src` with a defined cast to `dst` (float -> int: in range,
    no NaN)."""
    if src == "i1":
        return np.array([False, True, True, False])
    if src in INTS:
        lo = -(1 << (INT_BITS[src] - 1))
        values = [0, 1, -1, 7, -1000, 65504, 65519, 65520, -65520, 2049,
                  16777217, -16777217, 16777216 + 65536 + 1, lo, -lo - 1]
        if src == "i64":
            values += [(1 << 53) + 1, -(1 << 53) - 1, (1 << 40) + 3,
                       (1 << 32) + 5, -(1 << 31) - 1, 1 << 31]
        return np.array(values, NUMPY[src])
    values = [0.0, -0.0, 1.0, -1.0, 0.4, -0.4, 0.5, 1.5, 2.5, -2.5, -2.75,
              100.7, -100.7, 3.0e-5, 1.0 / 3.0]
    if dst in FLOATS or dst == "i1":
        values += [np.nan, np.inf, -np.inf, 1e-8, 1e-30, 1e-40, 1e-310,
                   65504.0, 65519.0, 65520.0, 1e5, 3.0e38, 3.5e38, 1e300,
                   1 + 2.0 ** -11 + 2.0 ** -40, 1 + 2.0 ** -8 + 2.0 ** -40,
                   2049.0]
    else:
        largest = {"f16": 65504.0, "bf16": 2.0 ** 30, "f32": 2.0 ** 30,
                   "f64": 2.0 ** 30}[src]
        if dst == "i64":
            largest = {"f16": 65504.0, "bf16": 2.0 ** 62, "f32": 2.0 ** 62,
                       "f64": 2.0 ** 62 + 2.0 ** 40}[src]
        values += [largest, -largest, -largest * 0.75 - 0.5, 65503.0]
    return round_float(src, values)


def cast_ref(src, dst, x):
    if dst == "i1":
        return np.asarray(x).astype(np.float64) != 0
    if src == "i1":
        values = np.asarray(x).astype(np.int64)
        return values.astype(np.float64) if dst in FLOATS else values
    if src in INTS and dst == "bf16":
        # PyTorch converts integers to bfloat16 through float32 (two
        # roundings), and so does fuse: round to f32 first.
        return np.array([round_int_to_float("bf16", int(round_int_to_float("f32", int(v))))
                         for v in x])
    if src in INTS and dst in FLOATS:
        return np.array([round_int_to_float(dst, int(v)) for v in x])
    if src in INTS:
        return np.array([wrap(dst, int(v)) for v in x], NUMPY[dst])
    if dst in FLOATS:
        # Rounded once, from the source value.
        return round_float(dst, x)
    return np.array([int(math.trunc(v)) for v in x], NUMPY[dst])


def cast_cases():
    for src in ANY:
        for dst in ANY:
            x = cast_inputs(src, dst)
            ref = cast_ref(src, dst, x)
            line = (f"%r0 = fuse.cast %a0 : {tensor('?', src)} to "
                    f"{tensor('?', dst)}")
            # The reference is already in dst: no compute-type rounding.
            yield Case("cast", f"{src}->{dst}", "", [("?", src, x)], [line],
                       [("?", dst, ref, x)])


def chain_cases():
    """Several ops in one kernel: fused, each op still rounds to the tensor
    type (f16/bf16 round after every op, like PyTorch op by op)."""
    for t in FLOATS:
        x = float_values(t, -4, 4, [0.0, np.nan, np.inf, -np.inf], count=60)
        x = x.reshape(8, 8)
        bias = float_values(t, -1, 1, count=8)
        ty, tb = tensor("?x8", t), tensor("8", t)
        r = lambda v: to_result(t, v)
        k = round_float(t, 0.1)
        with np.errstate(all="ignore"):
            s = r(x + bias)
            y = r(r(gelu_tanh(s)) * k)
            z = np.where(y > k, y, r(-y))
            sg = r(sigmoid(s))
        body = [f"%k = fuse.constant 0.1 : {tensor('', t)}",
                f"%s = fuse.add %a0, %a1 : {ty}, {tb} -> {ty}",
                f"%g = fuse.gelu %s {{approximate = \"tanh\"}} : {ty}",
                f"%y = fuse.mul %g, %k : {ty}, {tensor('', t)} -> {ty}",
                f"%c = fuse.cmp gt, %y, %k : {ty}, {tensor('', t)} -> "
                f"{tensor('?x8', 'i1')}",
                f"%n = fuse.neg %y : {ty}",
                f"%r0 = fuse.select %c, %y, %n : {tensor('?x8', 'i1')}, {ty},"
                f" {ty} -> {ty}",
                f"%r1 = fuse.sigmoid %s : {ty}"]
        yield Case("chain", t, "gelu-select", [("?x8", t, x), ("8", t, bias)],
                   body, [("?x8", t, z, s), ("?x8", t, sg, s)],
                   tol_op="gelu")
        # Rounding between ops is visible: (a * b) + c in f16 rounds the
        # product before the add.
        a = float_values(t, -100, 100, count=64)
        b = float_values(t, -100, 100, count=64)
        c = float_values(t, -100, 100, count=64)
        ty = tensor("?", t)
        ref = r(r(r(a * b) + c) - a)
        body = [f"%p = fuse.mul %a0, %a1 : {ty}",
                f"%q = fuse.add %p, %a2 : {ty}",
                f"%r0 = fuse.sub %q, %a0 : {ty}"]
        yield Case("chain", t, "mul-add-sub",
                   [("?", t, a), ("?", t, b), ("?", t, c)], body,
                   [("?", t, ref, a)])
        # A round trip through a narrower type stays rounded.
        narrow = {"f16": "bf16", "bf16": "f16", "f32": "f16",
                  "f64": "f32"}[t]
        x = float_values(t, -1000, 1000, [1.0 / 3, 1e-5], count=30)
        ref = round_float(t, round_float(narrow, x) * 3)
        tn = tensor("?", narrow)
        three = f"%k = fuse.constant 3.0 : {tensor('', t)}"
        body = [three,
                f"%n = fuse.cast %a0 : {ty} to {tn}",
                f"%w = fuse.cast %n : {tn} to {ty}",
                f"%r0 = fuse.mul %w, %k : {ty}, {tensor('', t)} -> {ty}"]
        yield Case("chain", t, f"cast-{narrow}", [("?", t, x)], body,
                   [("?", t, ref, x)])
    for t in INTS:
        a = int_values(t)
        b = np.roll(a, 3)
        bits = INT_BITS[t]
        ref = [wrap(t, abs(wrap(t, int_div(int(x), int(y), bits) * 3)) -
                    int(x)) for x, y in zip(a, b)]
        ty = tensor("?", t)
        body = [f"%k = fuse.constant 3 : {tensor('', t)}",
                f"%d = fuse.div %a0, %a1 : {ty}",
                f"%m = fuse.mul %d, %k : {ty}, {tensor('', t)} -> {ty}",
                f"%b = fuse.abs %m : {ty}",
                f"%r0 = fuse.sub %b, %a0 : {ty}"]
        yield Case("chain", t, "div-mul-abs-sub", [("?", t, a), ("?", t, b)],
                   body, [("?", t, to_result(t, ref), None)])


def return_cases():
    """Results that are not simply a kernel's output: one also used by another
    op, an argument (a cast to its own type folds to it), a constant, and two
    equal results (the same value once CSE'd)."""
    t = "f32"
    x = float_values(t, -10, 10, count=6)
    ty = tensor("?", t)
    yield Case("return", t, "intermediate", [("?", t, x)],
               ["%r1 = fuse.neg %a0 : " + ty, "%r0 = fuse.abs %r1 : " + ty],
               [("?", t, np.abs(x), None), ("?", t, -x, None)])
    yield Case("return", t, "argument", [("?", t, x)],
               ["%r0 = fuse.cast %a0 : " + ty + " to " + ty],
               [("?", t, x, None)])
    yield Case("return", t, "constant", [],
               ["%r0 = fuse.constant dense<[1.5, -2.0]> : tensor<2xf32>"],
               [("2", t, np.array([1.5, -2.0]), None)])
    yield Case("return", t, "duplicate", [("?", t, x)],
               ["%r0 = fuse.neg %a0 : " + ty, "%r1 = fuse.neg %a0 : " + ty],
               [("?", t, -x, None), ("?", t, -x, None)])


#===-----------------------------------------------------------------------===#
# Reductions
#===-----------------------------------------------------------------------===#

REDUCTIONS = ["reduce_sum", "reduce_max", "reduce_min", "reduce_mean"]
REDUCE_TYPES = {"reduce_sum": NUMERIC, "reduce_max": NUMERIC,
                "reduce_min": NUMERIC, "reduce_mean": FLOATS}


def unit_roundoff(dtype):
    """u of the accumulation (compute) type of `dtype`: 2^-24 for f16, bf16
    and f32, 2^-53 for f64."""
    return 2.0 ** -FLOAT_FORMAT[COMPUTE[dtype]][0]


def reduce_rows(x, dims):
    """(kept shape, 2-D array): one row per result element, in the row-major
    order of the kept dimensions, holding the elements it reduces in the
    row-major order of the reduced dimensions."""
    x = np.asarray(x)
    dims = sorted(dims)
    kept = [d for d in range(x.ndim) if d not in dims]
    shape = tuple(x.shape[d] for d in kept)
    n = int(np.prod([x.shape[d] for d in dims], dtype=np.int64))
    rows = int(np.prod(shape, dtype=np.int64))
    return shape, np.transpose(x, kept + dims).reshape(rows, n)


def reduced_shape(shape, dims, keepdims):
    """The result shape of reducing `shape` (a tuple) over `dims`."""
    if keepdims:
        return tuple(1 if d in dims else s for d, s in enumerate(shape))
    return tuple(s for d, s in enumerate(shape) if d not in dims)


def exact_sum(row):
    """The sum of the float64 values `row`, rounded once to float64
    (math.fsum); NaN, infinities and -0 (the sum of -0s only) as IEEE 754
    adds them."""
    if row.size and np.all((row == 0) & np.signbit(row)):
        return -0.0
    if not np.all(np.isfinite(row)):
        return float(np.sum(row))
    try:
        return math.fsum(row)
    except OverflowError:
        return math.copysign(math.inf, float(np.sum(row)))


def sum_allowance(dtype, want, exact, bound):
    """The error allowed for a sum or mean `want` (the exact value `exact`
    rounded to the compute type and then to `dtype`) whose accumulation is
    off by at most `bound` from `exact` (all float64 arrays):
        bound + ulp_C(m) + [dtype is f16/bf16] ulp_dtype(m),
        m = max(|want|, |exact|) + bound,
    where ulp_C is the spacing of the compute type: the reference rounds
    `exact` to the compute type (half an ulp) and fuse rounds its
    accumulator, or its quotient for a mean (half an ulp), and for f16 and
    bf16 both round once more to the result type. 0 (bit-exact) where the
    bound is 0: a single element, or only zeros."""
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.maximum(np.abs(want), np.abs(exact)) + bound
        m = np.where(np.isfinite(m), m, 0.0)
        allowed = bound + ulp(COMPUTE[dtype], m)
        if COMPUTE[dtype] != dtype:
            allowed = allowed + ulp(dtype, m)
        return np.where(np.isfinite(bound) & (bound > 0), allowed, 0.0)


def reduce_ref(op, dtype, x, dims, keepdims, err=None):
    """The reference of fuse.OP over `dims` of the exact values `x`
    (float64, or integers of the dtype), in the result shape: (want,
    allowance). want is the exact result rounded to the compute type and then
    to `dtype` (integers: wrapped); allowance is the absolute error allowed
    per element (floats), 0 where fuse must give want exactly.

    sum and mean of floats: fuse accumulates in the compute type (f32 for
    f16, bf16 and f32; f64) in some order, and recursive summation in any
    order is off by at most (n-1) u sum|x| from the exact sum (Jeannerod and
    Rump, 2013), u the unit roundoff of the compute type and n the number of
    elements reduced; a mean divides that by n. `err`, when given, is an
    error bound of each input element (a value computed by earlier ops):
    the sum of the row's errors is added, and u sum(|x| + err) bounds the
    accumulation. max and min round nothing: exact (NaN propagates), or
    within the largest error of their row."""
    x = np.asarray(x)
    shape, rows = reduce_rows(x, dims)
    out_shape = reduced_shape(x.shape, dims, keepdims)
    n = rows.shape[1]
    if dtype in INTS:
        values = rows.astype(object)
        if op != "reduce_sum" and n == 0:
            ref = [0] * len(values)  # an error, not a value
        elif op == "reduce_sum":
            ref = [sum(int(v) for v in row) for row in values]
        elif op == "reduce_max":
            ref = [max(int(v) for v in row) for row in values]
        else:
            ref = [min(int(v) for v in row) for row in values]
        want = to_result(dtype, np.array(ref, object).reshape(-1))
        return want.reshape(out_shape), np.zeros(out_shape)
    rows = rows.astype(np.float64)
    errs = np.zeros(rows.shape) if err is None else reduce_rows(
        np.broadcast_to(err, x.shape), dims)[1].astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        if op in ("reduce_max", "reduce_min"):
            fn = np.max if op == "reduce_max" else np.min
            want = fn(rows, axis=1) if n else np.full(len(rows), np.nan)
            allowed = errs.max(axis=1, initial=0.0)
            return (want.reshape(out_shape), np.where(
                np.isfinite(want), allowed, 0.0).reshape(out_shape))
        exact = np.array([exact_sum(row) for row in rows])
        propagated = errs.sum(axis=1)
        bound = (max(n - 1, 0) * unit_roundoff(dtype) *
                 (np.abs(rows) + errs).sum(axis=1)) + propagated
        if op == "reduce_mean":
            # The sum is a value of the compute type before it is divided:
            # one beyond its range is an infinity.
            total = round_float(COMPUTE[dtype], exact)
            exact = exact / n if n else np.full(len(rows), np.nan)
            exact = np.where(np.isfinite(total), exact, total)
            bound = bound / max(n, 1)
        want = to_result(dtype, exact)
        allowed = sum_allowance(dtype, want, exact, bound)
        return want.reshape(out_shape), allowed.reshape(out_shape)


def dims_attr(dims):
    return f"{{dims = array<i64: {', '.join(str(d) for d in dims)}>}}"


def reduce_line(name, op, operand, dims, type_in, type_out):
    return (f"{name} = fuse.{op} {operand} {dims_attr(dims)} : {type_in} -> "
            f"{type_out}")


def reduce_type(shape, dims, keepdims):
    """The mlir shape string of the result of reducing the shape string
    `shape` over `dims`."""
    parts = shape.split("x") if shape else []
    if keepdims:
        return "x".join("1" if d in dims else s for d, s in enumerate(parts))
    return "x".join(s for d, s in enumerate(parts) if d not in dims)


def reduce_values(dtype, shape, low=-10, high=10):
    """Random values of `dtype` in [low, high) (integers: the full range
    now and then), shaped."""
    n = int(np.prod(shape, dtype=np.int64))
    if dtype in FLOATS:
        return float_values(dtype, low, high, count=n).reshape(shape)
    values = RNG.integers(-1000, 1000, n)
    extreme = RNG.random(n) < 0.1
    bits = INT_BITS[dtype]
    values = np.where(extreme, RNG.integers(-(1 << (bits - 1)),
                                            (1 << (bits - 1)) - 1, n,
                                            dtype=np.int64), values)
    return values.astype(NUMPY[dtype]).reshape(shape)


def special_rows(dtype, width):
    """Rows of special values for the `last` layout: NaN, +-inf, -0 and
    +0 (floats); the ends of the range, whose sums wrap (integers)."""
    if dtype in INTS:
        bits = INT_BITS[dtype]
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        rows = [[hi, hi, 1], [lo, lo, -1], [lo, -1, 0], [hi, 1, lo],
                [hi, hi, hi]]
    else:
        rows = [[np.nan, 1.0, -2.5], [3.0, np.inf, -1.0],
                [-np.inf, -0.0, 2.0], [-0.0, -0.0, -0.0], [0.0, -0.0, 0.0],
                [np.inf, -np.inf, 1.0], [-0.0, 0.0, -0.0], [1.0, np.nan,
                                                             np.inf]]
    return [row + [row[-1]] * (width - len(row)) for row in rows]


def reduce_case(op, t, variant, shape, x, dims, keepdims):
    """A one-op reduction case: the operand's mlir shape and values, dims
    and keepdims."""
    result = reduce_type(shape, dims, keepdims)
    want, allowed = reduce_ref(op, t, x, dims, keepdims)
    line = reduce_line("%r0", op, "%a0", dims, tensor(shape, t),
                       tensor(result, t))
    bounded = op in ("reduce_sum", "reduce_mean") and t in FLOATS
    return Case(op, t, variant, [(shape, t, x)], [line],
                [(result, t, want, allowed if bounded else None)],
                tol_op="bounded" if bounded else None)


def reduction_cases():
    """Every reduction on every type over the last dimension (with the
    special values), the first, all of them and the middle one of a 3-D
    tensor, keeping the reduced dimensions or dropping them; rows of 1 to
    100000 elements; empty reductions; integer sums that wrap."""
    layouts = [("last", "?x?", (10, 7), [1], False),
               ("last keepdims", "?x?", (5, 7), [1], True),
               ("0 keepdims", "?x?", (7, 5), [0], True),
               ("all", "?x?", (4, 6), [0, 1], False),
               ("middle", "?x?x?", (3, 5, 4), [1], None),
               ("static", "5x7", (5, 7), [1], False)]
    for op in REDUCTIONS:
        for t in REDUCE_TYPES[op]:
            for name, shape, size, axes, keep in layouts:
                if name == "static" and t not in ("f16", "f32", "i32"):
                    continue
                if keep is None:
                    # The middle dimension kept on sum and max, dropped on
                    # min and mean.
                    keep = op in ("reduce_sum", "reduce_max")
                    name = "middle keepdims" if keep else "middle"
                if name == "all" and op == "reduce_min":
                    keep, name = True, "all keepdims"
                x = reduce_values(t, size)
                if name == "last":
                    rows = special_rows(t, size[1])
                    x[:len(rows)] = np.array(rows, x.dtype if t in INTS else
                                             np.float64)
                yield reduce_case(op, t, name, shape, x, axes, keep)
    # Long rows: f32 sum and max at every length, a few more.
    lengths = [(1, 9), (32, 16), (1000, 8), (4096, 4), (100000, 2)]
    long_cases = [("reduce_sum", "f32", n, r) for n, r in lengths]
    long_cases += [("reduce_max", "f32", n, r) for n, r in lengths]
    long_cases += [("reduce_min", "f32", 4096, 4),
                   ("reduce_mean", "f32", 1000, 8),
                   ("reduce_sum", "f16", 4096, 4),
                   ("reduce_sum", "f16", 100000, 2),
                   ("reduce_mean", "bf16", 1000, 8),
                   ("reduce_sum", "f64", 4096, 4),
                   ("reduce_sum", "i32", 4096, 4),
                   ("reduce_max", "i64", 1000, 8)]
    for op, t, n, r in long_cases:
        x = reduce_values(t, (r, n), -1, 1)
        if t in FLOATS and r > 1:
            # A row without cancellation (its sum is about n / 2).
            x[1] = round_float(t, np.abs(x[1]))
        yield reduce_case(op, t, f"n={n}", "?x?", x, [1], False)
    # Down the columns: the reduced dimension is the outer one.
    x = reduce_values("f32", (1000, 9), -1, 1)
    yield reduce_case("reduce_sum", "f32", "n=1000 dim0", "?x?", x, [0],
                      False)
    x = reduce_values("f16", (300, 5, 7))
    yield reduce_case("reduce_max", "f16", "n=300 dim0", "?x5x?", x, [0],
                      True)
    # Empty: the sum is 0, the mean NaN; no row at all is no result.
    for op, t, shape, size, axes in [
            ("reduce_sum", "f32", "?x?", (3, 0), [1]),
            ("reduce_sum", "f16", "?x?", (0, 4), [0]),
            ("reduce_sum", "i64", "?x?", (3, 0), [1]),
            ("reduce_sum", "f32", "3x0", (3, 0), [1]),
            ("reduce_mean", "f32", "?x?", (3, 0), [1]),
            ("reduce_mean", "bf16", "?x?x?", (2, 0, 3), [0, 1]),
            ("reduce_max", "f32", "?x?", (0, 4), [1]),
            ("reduce_min", "i32", "?x?", (0, 4), [1])]:
        x = np.zeros(size, NUMPY[t])
        if op in ("reduce_max", "reduce_min"):
            variant = "no rows"
        else:
            variant = "empty static" if shape[0] != "?" else "empty"
        yield reduce_case(op, t, variant, shape, x, axes, False)
    # The max and min of nothing is a run-time error for a dynamic size.
    for op, t in (("reduce_max", "f32"), ("reduce_min", "i64")):
        x = np.zeros((3, 0), NUMPY[t])
        case = reduce_case(op, t, "empty error", "?x?", x, [1], False)
        case.error = f"is 0, and an empty {op} has no value"
        yield case
    # Integer sums wrap around.
    for t in INTS:
        bits = INT_BITS[t]
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        x = np.array([[hi, 1, 0, 0], [hi, hi, hi, hi], [lo, -1, 0, 0],
                      [lo, lo, lo, 3], [hi, lo, -1, 1]], NUMPY[t])
        yield reduce_case("reduce_sum", t, "wrap", "?x4", x, [1], True)
    yield from reduction_chain_cases()


#===-----------------------------------------------------------------------===#
# Chains with reductions: values with an error bound
#===-----------------------------------------------------------------------===#

class Bounded:
    """Per element, a reference value `ref` (rounded as fuse rounds it, op by
    op) and a bound `err` of |fuse's value - ref| (0: exact); for the
    reduction chains."""

    def __init__(self, ref, err=None):
        self.ref = np.asarray(ref, np.float64)
        self.err = np.zeros(self.ref.shape) if err is None else np.asarray(
            err, np.float64)


def _rounded(t, exact, propagated, op=None):
    """The result of a correctly rounded op (or `op`, as tolerance() bounds it) on
    values off by `propagated`: fuse and the reference round values that
    differ by `propagated` (2 ulp: f16 and bf16 round twice), and `op`
    adds its own error (at least ULPS times the smallest normal number of
    the compute type, none where exact inputs give exactly 0)."""
    with np.errstate(invalid="ignore", over="ignore"):
        ref = to_result(t, exact)
        # A bound that is not finite (NaN: none could be derived) leaves the
        # element to be exact, which fails loudly rather than passing.
        P = np.where(np.isfinite(propagated), propagated, np.nan)
        magnitude = np.where(np.isfinite(ref), np.abs(ref), 0.0) + \
            np.where(np.isfinite(P), P, 0.0)
        err = np.where(P > 0, P + 2 * ulp(t, magnitude), 0.0)
        ulps = tolerance(op, t, TARGET)[0]
        if ulps:
            own = np.maximum(ulps * ulp(t, magnitude), ulps * 2.0 **
                             FLOAT_FORMAT[COMPUTE[t]][1])
            err = err + np.where((P == 0) & (exact == 0), 0.0, own)
        err = np.where(np.isfinite(ref), err, 0.0)
        return Bounded(ref, err)


def b_add(t, a, b, sign=1.0):
    return _rounded(t, a.ref + sign * b.ref, a.err + b.err)


def b_sub(t, a, b):
    return b_add(t, a, b, -1.0)


def b_mul(t, a, b):
    with np.errstate(invalid="ignore"):
        P = np.abs(a.ref) * b.err + np.abs(b.ref) * a.err + a.err * b.err
        P = np.where((a.err > 0) | (b.err > 0), P, 0.0)
    return _rounded(t, a.ref * b.ref, P)


def b_div(t, a, b):
    with np.errstate(invalid="ignore", divide="ignore"):
        B = np.abs(b.ref)
        P = (np.abs(a.ref) * b.err + B * a.err) / (B * (B - b.err))
        P = np.where((a.err > 0) | (b.err > 0),
                     np.where(B > b.err, P, np.nan), 0.0)
        return _rounded(t, a.ref / b.ref, P)


def b_exp(t, a):
    with np.errstate(invalid="ignore", over="ignore"):
        P = np.where(a.err > 0, np.exp(a.ref + a.err) * a.err, 0.0)
        return _rounded(t, np.exp(a.ref), P, "exp")


def b_rsqrt(t, a):
    with np.errstate(invalid="ignore", divide="ignore"):
        low = a.ref - a.err
        P = np.where(a.err > 0, np.where(low > 0, 0.5 * np.abs(low) ** -1.5 *
                                         a.err, np.nan), 0.0)
        return _rounded(t, 1 / np.sqrt(a.ref), P, "rsqrt")


def b_reduce(op, t, a, dims):
    """A keepdims reduction of a bounded value (reduce_ref)."""
    want, allowed = reduce_ref(op, t, a.ref, dims, True, a.err)
    return Bounded(want, allowed)


def reduction_chain_cases():
    """Softmax and layer norm: reductions fused with the elementwise ops
    around them, each op rounding to the tensor type."""
    for t, shape, size, dim in [
            ("f16", "?x?", (6, 33), 1), ("bf16", "?x?", (6, 33), 1),
            ("f32", "?x?", (6, 33), 1), ("f64", "?x?", (6, 33), 1),
            ("f32", "?x?", (4, 4096), 1), ("f32", "?x?x?", (3, 17, 5), 1)]:
        x = reduce_values(t, size, -8, 8)
        x[0, :3] = -np.inf  # masked out, as in attention
        if t == "f32" and len(size) == 2:
            x[1, 0] = 30.0
        n = size[dim]
        variant = f"softmax n={n}" + (" middle" if len(size) == 3 else "")
        ty = tensor(shape, t)
        tk = tensor(reduce_type(shape, [dim], True), t)
        xb = Bounded(x)
        m = b_reduce("reduce_max", t, xb, [dim])
        e = b_exp(t, b_sub(t, xb, m))
        z = b_reduce("reduce_sum", t, e, [dim])
        p = b_div(t, e, z)
        body = [reduce_line("%m", "reduce_max", "%a0", [dim], ty, tk),
                f"%s = fuse.sub %a0, %m : {ty}, {tk} -> {ty}",
                f"%e = fuse.exp %s : {ty}",
                reduce_line("%z", "reduce_sum", "%e", [dim], ty, tk),
                f"%r0 = fuse.div %e, %z : {ty}, {tk} -> {ty}"]
        yield Case("chain", t, variant, [(shape, t, x)], body,
                   [(shape, t, p.ref, p.err)], tol_op="bounded")
    for t, rows, n in [("f16", 6, 64), ("bf16", 6, 64), ("f32", 6, 64),
                       ("f64", 6, 64), ("f32", 4, 1000)]:
        x = reduce_values(t, (rows, n), -4, 4)
        x[1] = round_float(t, x[1] + 100)  # a mean far from 0
        gamma = reduce_values(t, (n,), 0.5, 2)
        beta = reduce_values(t, (n,), -1, 1)
        shape, ty = f"?x{n}", tensor(f"?x{n}", t)
        tk, tv, ts = tensor("?x1", t), tensor(str(n), t), tensor("", t)
        xb = Bounded(x)
        mu = b_reduce("reduce_mean", t, xb, [1])
        d = b_sub(t, xb, mu)
        v = b_reduce("reduce_mean", t, b_mul(t, d, d), [1])
        eps = Bounded(round_float(t, 1e-5))
        y = b_mul(t, d, b_rsqrt(t, b_add(t, v, eps)))
        out = b_add(t, b_mul(t, y, Bounded(gamma)), Bounded(beta))
        body = [reduce_line("%mu", "reduce_mean", "%a0", [1], ty, tk),
                f"%d = fuse.sub %a0, %mu : {ty}, {tk} -> {ty}",
                f"%q = fuse.mul %d, %d : {ty}",
                reduce_line("%v", "reduce_mean", "%q", [1], ty, tk),
                f"%eps = fuse.constant 1.0e-05 : {ts}",
                f"%ve = fuse.add %v, %eps : {tk}, {ts} -> {tk}",
                f"%rs = fuse.rsqrt %ve : {tk}",
                f"%y = fuse.mul %d, %rs : {ty}, {tk} -> {ty}",
                f"%g = fuse.mul %y, %a1 : {ty}, {tv} -> {ty}",
                f"%r0 = fuse.add %g, %a2 : {ty}, {tv} -> {ty}"]
        yield Case("chain", t, f"layernorm n={n}",
                   [(shape, t, x), (str(n), t, gamma), (str(n), t, beta)],
                   body, [(shape, t, out.ref, out.err)], tol_op="bounded")
    # Two reductions of one input and one of an elementwise producer, in
    # one kernel: the row's sum of squares and its largest magnitude.
    t = "f32"
    x = reduce_values(t, (5, 300), -3, 3)
    ty, tr = tensor("?x?", t), tensor("?", t)
    xb = Bounded(x)
    sq = b_mul(t, xb, xb)
    want, allowed = reduce_ref("reduce_sum", t, sq.ref, [1], False, sq.err)
    big = np.max(np.abs(x), axis=1)
    body = [f"%q = fuse.mul %a0, %a0 : {ty}",
            reduce_line("%r0", "reduce_sum", "%q", [1], ty, tr),
            f"%b = fuse.abs %a0 : {ty}",
            reduce_line("%r1", "reduce_max", "%b", [1], ty, tr)]
    yield Case("chain", t, "sum-of-squares max-abs", [("?x?", t, x)], body,
               [("?", t, want, allowed), ("?", t, big, np.zeros(big.shape))],
               tol_op="bounded")


def all_cases():
    for generate in (unary_float_cases, unary_int_cases, clamp_cases,
                     binary_cases, cmp_cases, select_cases, cast_cases,
                     chain_cases, return_cases, reduction_cases):
        yield from generate()


#===-----------------------------------------------------------------------===#
# Running
#===-----------------------------------------------------------------------===#

TARGET = "cpu"


def run_case(fuse_run, workdir, index, case):
    directory = os.path.join(workdir, f"{index:03d}")
    os.makedirs(directory, exist_ok=True)
    program = os.path.join(directory, "prog.mlir")
    with open(program, "w") as f:
        f.write(case.program())
    inputs = []
    for i, (_, dtype, values) in enumerate(case.args):
        path = os.path.join(directory, f"in{i}.npy")
        write_npy(path, dtype, values)
        inputs += ["--input", path]
    if case.error:
        for variant, flags in (("fused", []), ("eager", ["--fusion=off"])):
            command = [fuse_run, program, f"--target={TARGET}", *inputs,
                       *flags, "--output", os.path.join(directory, "out.npy")]
            proc = subprocess.run(command, capture_output=True, text=True)
            message = (proc.stderr or proc.stdout).strip().replace("\n", " | ")
            if proc.returncode == 0 or proc.returncode > 128 or \
                    proc.returncode < 0 or case.error not in message:
                return (f"FAIL {case.name}: {variant} exit {proc.returncode}"
                        f", expected an error '... {case.error} ...': "
                        f"{message} [{directory}]")
        return f"ok {case.name}"
    outputs = {}
    for variant, flags in (("fused", []), ("eager", ["--fusion=off"])):
        paths = [os.path.join(directory, f"{variant}{i}.npy")
                 for i in range(len(case.results))]
        command = [fuse_run, program, f"--target={TARGET}", *inputs, *flags]
        for path in paths:
            command += ["--output", path]
        proc = subprocess.run(command, capture_output=True, text=True)
        if proc.returncode != 0:
            message = (proc.stderr or proc.stdout).strip().replace("\n", " | ")
            return (f"FAIL {case.name}: {variant} exit {proc.returncode}: "
                    f"{message} [{directory}]")
        outputs[variant] = [np.load(path) for path in paths]
    worst = 0.0
    for i, (_, dtype, want, x) in enumerate(case.results):
        fused, eager = outputs["fused"][i], outputs["eager"][i]
        # Bit for bit, except that the sign and payload of a NaN are
        # unspecified (docs/dialect.md, "NaN").
        same_nan = fused.dtype.kind == "f" and fused.shape == eager.shape and \
            fused.dtype == eager.dtype
        if same_nan:
            both = np.isnan(fused) & np.isnan(eager)
            fused, eager = fused[~both], eager[~both]
        if fused.dtype != eager.dtype or fused.shape != eager.shape or \
                fused.tobytes() != eager.tobytes():
            return (f"FAIL {case.name}: result {i}: fused and eager differ "
                    f"[{directory}]")
        expected_dtype = np.dtype(NUMPY[dtype])
        if fused.dtype != expected_dtype:
            return (f"FAIL {case.name}: result {i}: dtype {fused.dtype}, "
                    f"expected {expected_dtype} [{directory}]")
        got = read_npy(os.path.join(directory, f"fused{i}.npy"), dtype)
        want = np.asarray(want)
        if dtype in FLOATS:
            want = want.astype(np.float64)
        bad, first, err = compare(case.op, dtype, got, want, x)
        if bad:
            return (f"FAIL {case.name}: result {i}: {bad} of {want.size} "
                    f"elements wrong; {first} [{directory}]")
        worst = max(worst, err)
    if tolerance(case.op, case.dtype, TARGET) != (0, 0):
        return f"ok {case.name} (max {worst:g} ulp)"
    if case.op == "bounded" and case.dtype in FLOATS:
        return f"ok {case.name} (max {worst:.2g} of the bound)"
    return f"ok {case.name}"


def main():
    global TARGET
    args = sys.argv[1:]
    if args and args[-1].startswith("--target="):
        TARGET = args.pop()[len("--target="):]
    if len(args) != 2:
        sys.exit(__doc__)
    fuse_run, workdir = args
    os.makedirs(workdir, exist_ok=True)
    problem = self_test()
    if problem:
        print(f"FAIL reference self-test: {problem}")
        sys.exit(1)
    cases = list(all_cases())
    with concurrent.futures.ThreadPoolExecutor(
            max_workers=min(4, os.cpu_count() or 1)) as pool:
        lines = pool.map(lambda ic: run_case(fuse_run, workdir, *ic),
                         enumerate(cases))
        failures = 0
        for line in lines:
            print(line, flush=True)
            failures += line.startswith("FAIL")
    print(f"{len(cases)} cases, {failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
