#!/usr/bin/env python3
"""Differential tester: random fuse programs, fused == eager == reference.

usage: difftest.py FUSE_RUN [--target cpu|cuda] [--seed S] [--count N]
                   [--time-budget SECONDS] [--keep DIR] [--jobs J] [--verbose]

Program `seed + i` (i < N) is generated from its own seed (deterministic): a
DAG of 1-60 ops drawn from the whole dialect (docs/dialect.md) over arguments
of rank 0-4 with static, static-1 (broadcast) and dynamic (`?`) dimensions,
0-d and dense constants, f16/f32/f64/i32/i64/i1 inputs, bf16 only as an
intermediate (casts and constants), producers with several consumers and 1-4
results. Reductions (reduce_sum, reduce_max, reduce_min, reduce_mean) run over
the last dimension, all of them, a leading run or any set (sometimes listed
out of order), keeping the reduced dimensions (size 1) or, for leading ones,
dropping them; their result is often broadcast back against their operand
(x - max(x), x / sum(x), ...), and some are softmax (reduce_max, sub, exp,
reduce_sum, div) or layer norm (reduce_mean, sub, mul, reduce_mean, add,
rsqrt, mul) chains. A max or min of an empty dimension (an error) is never
generated: it becomes a sum. Every program is run by `FUSE_RUN --target=cpu`
(or the target given) fused and with `--fusion=off`, and
  * the fused and the eager results must be bit-identical (same bytes),
    except for the sign and payload of NaNs and the sign of zeros, which
    IEEE 754 and the targets leave open (counted on the `elements:` line);
  * both must match a numpy reference evaluated op by op (below);
  * on a target other than the CPU, each result computed by correctly
    rounded ops only (every op but exp log rsqrt tanh sigmoid silu sin cos
    erf gelu hardswish and float pow, whose algorithms differ between the
    targets, and f64 reduce_sum and reduce_mean, which add in another order
    on the GPU: docs/dialect.md, Reductions) must also be bit-identical to
    the CPU target's fused result
    (NaN and zero signs aside): this covers the elements the reference does
    not bound. The program then runs a third time, fused on the CPU.
`--target=cuda` runs the kernels on the driver that `FUSE_LIBCUDA` names
(or libcuda.so.1): a GPU, or the fake driver's emulated GPU
(test/Runtime/FakeCuda), which computes what the GPU computes except for
the error of its approximate instructions (ex2.approx, rcp.approx,
rsqrt.approx return the correctly rounded value there).
A crash (CRASH), an error exit (ERROR), a fused/eager or target/CPU
difference (MISMATCH) or a value outside the reference bound (WRONG) prints one line with the seed
(and says so if a second run does not fail the same way), then a minimized
reproducer: the DAG is shrunk (results dropped, ops replaced by one of their
operands or cut into a new argument holding their value, dense constants made
scalar, dimensions reduced to 1 keeping the bad element) while the same kind
of failure persists, and its .mlir, inputs, fuse-run commands and the command
that reruns the seed are printed. GENERATOR marks a bug of this script. On a
target other than the CPU a line
    cuda==cpu: N results of correctly rounded ops (N elements) bit-identical
    to the cpu target's
comes before the last line, which is
    N programs, N ops, fused==eager: N/N, reference: N ok, N skipped, N failed
where `fused==eager` counts the programs that ran both ways with the same
results, and every program is `ok` (every result element checked against the
reference), `skipped` (it ran, fused == eager, the elements the reference
could bound are right, but some could not be bounded and were only compared
fused against eager) or `failed` (any failure above). Exit status 1 on any
failure. `--time-budget` starts no new program after SECONDS; `--keep` keeps
every program's directory (otherwise only failing ones are kept).

Inputs stay where every op is specified: float -> integer casts only see
finite in-range values (the generator clamps and replaces NaN with
fuse.clamp/fuse.cmp/fuse.select first when needed; the unspecified cases of
docs/dialect.md are never produced, and the minimizer rejects candidates that
would produce them), log/sqrt/rsqrt usually get an abs first (sometimes not,
to test NaN), exp of large values is usually clamped first, pow mostly has
small constant exponents. NaN, inf, -0 and subnormals do occur, on purpose.

Reference and tolerance rule
----------------------------
The rounding helpers, per-op semantics and per-op tolerances are those of
test/Run/Inputs/check_ops.py (imported, not copied): each op is evaluated in
float64 (integers: Python ints, wrapped) on the reference values of its
operands and rounded to the compute type and then to its result type, so
f16/bf16 round after every op like fuse and PyTorch. Each value carries, per
element, its reference `ref` and one of
  * exact (E = 0): fuse must give exactly `ref` (NaN matches NaN, -0 matches
    +0). Integers, i1, and floats whose path has only correctly rounded ops
    (neg abs relu floor ceil clamp leaky_relu max min add sub mul div sqrt
    reciprocal cmp select cast) from exact inputs;
  * bounded (E > 0, ref finite): |fuse - ref| <= E;
  * unbounded: not compared with the reference (only fused == eager).
E accumulates along the path. An op with inputs x_i (bounds E_i) gives
    E_out = P + R + T
  * P, the propagated error: for monotone ops without rounding (relu, clamp,
    max, min) the interval [f(x - E), f(x + E)]; neg/abs: E; add/sub: Ea + Eb;
    mul: |a|Eb + |b|Ea + EaEb; div: (|a|Eb + |b|Ea) / (|b|(|b| - Eb)) if
    |b| > Eb; pow: the corners of the input box where pow is monotone there
    (a > 0, or an exact integer exponent and a away from 0), n max|a|^(n-1) Ea
    for an exact integer exponent n >= 1 otherwise, NaN for a negative base and
    an exact non-integer exponent; unary ops: E max|f'| over [x - E, x + E]
    (exp: e^hi, log: 1/lo, sqrt, rsqrt, reciprocal at lo or min|x|, tanh,
    sigmoid, erf at min|x|; sin cos 1, silu 1.1, gelu 1.2, hardswish 1.5,
    leaky_relu max(1, |alpha|)), capped by the width of the function's range.
    Reductions: see below.
    floor, ceil, float -> integer and -> i1 casts and cmp are exact again where
    the whole interval gives one answer; x - x, max(x, x), min(x, x), cmp x, x
    are exact for finite x; a non-finite result that every corner of the input
    box gives too (exp overflowing, x / 0, inf + x) is exact.
  * R, rounding: 2 ulp of the result type at |ref| + P where P > 0 or an
    input is inexact (P may underflow to 0 in float64) (fuse and
    the reference round different values; f16/bf16 round twice; for f64 the
    reference's own float64 arithmetic).
  * T, the op's own error from check_ops.tolerance() (rsqrt 1 ulp, 2 in
    f32 on cuda; exp log tanh sin cos erf sigmoid silu pow gelu: 4 ulp on f32/f64, 1 ulp on f16/bf16;
    hardswish 2 ulp; gelu also 4 eps |x|) at |ref| + P, at least ULPS x the
    smallest normal of the compute type (the formulas underflow for subnormal
    results in f32/f64, as PyTorch's do), times max(1, |x|) for sigmoid and
    silu (check_ops.UNDERFLOW_FLOOR); none where exact inputs give
    exactly 0 (sin(0), tanh(0), exp(-1000)).
Reductions (check_ops.reduce_ref and sum_allowance): integers and max/min of
exact values are exact (NaN propagates); max/min of bounded values are within
the largest bound of their row (the extreme of the boxes [x - E, x + E]).
A float sum is within
    E_sum = sum(E_i) + (n-1) u sum(|x_i| + E_i)
of the exact sum of the reference values (the inputs' bounds, plus the
bound of recursive summation in any order; u = 2^-24 for f16, bf16 and f32,
which accumulate in f32, 2^-53 for f64; n the number of elements reduced),
a mean within E_sum / n of the exact mean, and the result within
    E_sum (/ n) + ulp_C(m) + ulp_R(m), m = max(|ref|, |exact|) + E_sum (/ n)
of the exact value rounded to the compute type and then the result type
(ulp_R only for f16 and bf16, which round once more); exact where E_sum is 0.
A row with a non-finite element gives what that element decides (exact). A
sum whose row has sum(|x| + E) near the largest value of the compute type is
unbounded (a running total may overflow, in an order-dependent way), and so
is any sum or mean that is zero (the sign of a zero sum depends on the order).
An element becomes unbounded where an input is unbounded (select with a known
condition looks at the chosen side only), where the bound reaches the largest
finite value, where a bounded input gives a non-finite reference or the
interval reaches a pole (log/sqrt/rsqrt/reciprocal/div at 0, pow elsewhere),
where a tolerance op's exact result is within its tolerance of overflow, and
for hardswish where x * 6 overflows the compute type (the association of its
formula is not specified). The sign of a zero from max/min/relu/clamp
comparing +0 with -0 is not specified by the docs: such zeros are tracked,
and an op whose result depends on that sign (1/x, ...) is unbounded there.
"""

import argparse
import concurrent.futures
import itertools
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, "Run", "Inputs"))
import check_ops as co  # noqa: E402

FLOATS, INTS, NUMERIC, ANY = co.FLOATS, co.INTS, co.NUMERIC, co.ANY
INPUT_TYPES = ["f16", "f32", "f64", "i32", "i64", "i1"]
MAX_RANK = 4
MAX_ELEMENTS = 1024
RUN_TIMEOUT = 120
# The target of the runs (--target); the CPU target is the cross-check of
# the others.
TARGET = "cpu"
MINIMIZE_TRIES = 400

UNARY_NUMERIC = ["neg", "abs", "relu", "floor", "ceil"]
UNARY_FLOAT = ["exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "tanh",
               "sigmoid", "silu", "sin", "cos", "erf", "reciprocal",
               "hardswish", "gelu", "leaky_relu"]
BINARY = ["add", "sub", "mul", "div", "max", "min", "pow"]
REDUCE = co.REDUCTIONS
# Float ops whose algorithm is the target's own (libdevice on the GPU,
# fuse's expansions on the CPU): results differ between targets within the
# tolerance. Every other op is correctly rounded or exact on every target.
TARGET_DEPENDENT = {"exp", "expm1", "log", "log1p", "rsqrt", "tanh",
                    "sigmoid", "silu", "sin", "cos", "erf", "gelu",
                    "hardswish"}
# Ops whose result is one of their (exact) inputs or a bound: no rounding.
NO_ROUNDING = {"neg", "abs", "relu", "clamp", "max", "min", "floor", "ceil"}
# max |f'| for the unary ops with a constant bound, and the width of the
# range of bounded functions (caps the propagated error).
LIPSCHITZ = {"sin": 1.0, "cos": 1.0, "silu": 1.1, "gelu": 1.2,
             "hardswish": 1.5}
RANGE_WIDTH = {"tanh": 2.0, "sigmoid": 1.0, "erf": 2.0, "sin": 2.0,
               "cos": 2.0}


def max_finite(dtype):
    p, _, emax = co.FLOAT_FORMAT[dtype]
    return (2 - 2.0 ** (1 - p)) * 2.0 ** emax


def min_normal(dtype):
    return 2.0 ** co.FLOAT_FORMAT[dtype][1]


def round_to(dtype, values):
    """float64 values computed by an op on `dtype`: rounded to the compute
    type, then to `dtype` (check_ops.to_result)."""
    return co.round_float(dtype, co.round_float(co.COMPUTE[dtype], values))


def ulp_at(dtype, magnitude):
    m = np.where(np.isfinite(magnitude), magnitude, 0.0)
    return co.ulp(dtype, m)


class Unspecified(Exception):
    """The program does something docs/dialect.md leaves unspecified."""


#===-----------------------------------------------------------------------===#
# Programs
#===-----------------------------------------------------------------------===#

# A dimension is (runtime size, dynamic); dimensions are aligned from the
# right, position k (0 = innermost) has size 1 or the program's D[k].

def broadcast_dims(*dim_lists):
    rank = max((len(d) for d in dim_lists), default=0)
    out = []
    for k in range(rank):
        dims = [d[len(d) - rank + k] if len(d) - rank + k >= 0 else (1, False)
                for d in dim_lists]
        result = dims[0]
        for size, dyn in dims[1:]:
            rsize, rdyn = result
            if not rdyn and not dyn:
                result = (rsize if size == 1 else size, False)
            elif not rdyn:
                result = (size, True) if rsize == 1 else result
            elif not dyn:
                result = (rsize, True) if size == 1 else (size, False)
            else:
                result = (rsize, True)
        out.append(result)
    return tuple(out)


def type_str(dtype, dims):
    return co.tensor("x".join("?" if dyn else str(size) for size, dyn in dims),
                     dtype)


def shape_of(dims):
    return tuple(size for size, _ in dims)


def float_literal(value):
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(float(value))
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


HEX_SPECIAL = {  # (nan, inf, -inf) bit patterns for dense<...>
    "f16": ("0x7E00", "0x7C00", "0xFC00"),
    "bf16": ("0x7FC0", "0x7F80", "0xFF80"),
    "f32": ("0x7FC00000", "0x7F800000", "0xFF800000"),
    "f64": ("0x7FF8000000000000", "0x7FF0000000000000",
            "0xFFF0000000000000"),
}


def element_literal(dtype, value, dense):
    if dtype == "i1":
        return "true" if value else "false"
    if dtype in INTS:
        return str(int(value))
    value = float(value)
    if dense and not math.isfinite(value):
        nan, inf, ninf = HEX_SPECIAL[dtype]
        return nan if math.isnan(value) else inf if value > 0 else ninf
    return float_literal(value)


def dense_literal(dtype, data):
    flat = data.ravel()
    if flat.size and all(element_literal(dtype, v, True) ==
                         element_literal(dtype, flat[0], True) for v in flat):
        return f"dense<{element_literal(dtype, flat[0], True)}>"

    def nest(a):
        if a.ndim == 0:
            return element_literal(dtype, a.item(), True)
        return "[" + ", ".join(nest(x) for x in a) + "]"
    return f"dense<{nest(data)}>"


class Node:
    """An argument, a constant or an op. `data` holds the values of arguments
    and constants (numpy, NUMPY[dtype]; bf16 constants as float64)."""

    def __init__(self, kind, dtype, dims=(), op=None, operands=(), attrs=None,
                 data=None):
        self.kind, self.dtype, self.dims, self.op = kind, dtype, dims, op
        self.operands = list(operands)
        self.attrs = dict(attrs or {})
        self.data = data

    def copy(self):
        return Node(self.kind, self.dtype, self.dims, self.op, self.operands,
                    self.attrs, self.data)


class Program:
    def __init__(self, seed, nodes=None, results=None):
        self.seed = seed
        self.nodes = nodes or []
        self.results = results or []

    def copy(self):
        return Program(self.seed, [n.copy() for n in self.nodes],
                       list(self.results))

    def infer(self, node):
        """The result dims of an op node (docs/dialect.md, Broadcasting)."""
        dims = [self.nodes[i].dims for i in node.operands]
        if node.op in BINARY or node.op in ("cmp", "select"):
            return broadcast_dims(*dims)
        if node.op in REDUCE:
            # Dimensions out of range (a shrunk reproducer) are left out
            # here; evaluating the node rejects them.
            reduced = set(node.attrs["dims"])
            if node.attrs["keepdims"]:
                return tuple((1, False) if k in reduced else d
                             for k, d in enumerate(dims[0]))
            return tuple(d for k, d in enumerate(dims[0])
                         if k not in reduced)
        return dims[0]

    def retype(self):
        for node in self.nodes:
            if node.kind == "op":
                node.dims = self.infer(node)

    def op_count(self):
        return sum(n.kind != "arg" for n in self.nodes)

    def live(self):
        seen = set(self.results)
        for i in range(len(self.nodes) - 1, -1, -1):
            if i in seen:
                seen.update(self.nodes[i].operands)
        return seen

    def dce(self):
        """Drops the nodes no result depends on (arguments too)."""
        live = self.live()
        remap, nodes = {}, []
        for i, node in enumerate(self.nodes):
            if i in live:
                remap[i] = len(nodes)
                node.operands = [remap[j] for j in node.operands]
                nodes.append(node)
        self.nodes = nodes
        self.results = [remap[i] for i in self.results]

    def args(self):
        return [i for i, n in enumerate(self.nodes) if n.kind == "arg"]

    def names(self):
        names, count = {}, 0
        for i, node in enumerate(self.nodes):
            if node.kind == "arg":
                names[i] = f"%a{count}"
                count += 1
            else:
                names[i] = f"%v{i}"
        return names

    def mlir(self):
        names = self.names()
        ty = {i: type_str(n.dtype, n.dims) for i, n in enumerate(self.nodes)}
        params = ", ".join(f"{names[i]}: {ty[i]}" for i in self.args())
        rtypes = ", ".join(ty[i] for i in self.results)
        lines = [f"func.func @prog({params}) -> ({rtypes}) {{"]
        for i, node in enumerate(self.nodes):
            if node.kind == "arg":
                continue
            lines.append("  " + self.op_line(i, node, names, ty))
        lines.append(f"  return {', '.join(names[i] for i in self.results)} "
                     f": {rtypes}")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def op_line(self, i, node, names, ty):
        lhs = f"{names[i]} = "
        ops = [names[j] for j in node.operands]
        tys = [ty[j] for j in node.operands]
        t = node.dtype
        if node.kind == "const":
            if not node.dims:
                value = element_literal(t, node.data.item(), False)
                return lhs + f"fuse.constant {value} : {ty[i]}"
            return lhs + (f"fuse.constant {dense_literal(t, node.data)} : "
                          f"{ty[i]}")
        op = node.op
        if op in BINARY:
            return lhs + (f"fuse.{op} {ops[0]}, {ops[1]} : {tys[0]}, "
                          f"{tys[1]} -> {ty[i]}")
        if op == "cmp":
            return lhs + (f"fuse.cmp {node.attrs['pred']}, {ops[0]}, {ops[1]}"
                          f" : {tys[0]}, {tys[1]} -> {ty[i]}")
        if op == "select":
            return lhs + (f"fuse.select {ops[0]}, {ops[1]}, {ops[2]} : "
                          f"{tys[0]}, {tys[1]}, {tys[2]} -> {ty[i]}")
        if op == "cast":
            return lhs + f"fuse.cast {ops[0]} : {tys[0]} to {ty[i]}"
        if op in REDUCE:
            return lhs + (f"fuse.{op} {ops[0]} "
                          f"{co.dims_attr(node.attrs['dims'])} : {tys[0]} "
                          f"-> {ty[i]}")
        attrs = []
        if op == "gelu" and "approximate" in node.attrs:
            attrs.append(f"approximate = \"{node.attrs['approximate']}\"")
        for name in ("min", "max", "alpha"):
            if node.attrs.get(name) is not None:
                attrs.append(f"{name} = "
                             f"{element_literal(t, node.attrs[name], False)} "
                             f": {t}")
        text = " {" + ", ".join(attrs) + "}" if attrs else ""
        return lhs + f"fuse.{op} {ops[0]}{text} : {ty[i]}"


#===-----------------------------------------------------------------------===#
# Reference evaluation
#===-----------------------------------------------------------------------===#

class State:
    """Per element: `ref`; for floats `err` (0: exact) and `zs` (a zero whose
    sign is not specified); `unk`: not bounded."""

    def __init__(self, ref, err=None, unk=None, zs=None):
        self.ref = ref
        self.err = err
        self.unk = np.zeros(ref.shape, bool) if unk is None else unk
        self.zs = zs

    def broadcast(self, shape):
        b = lambda a: None if a is None else np.broadcast_to(a, shape)
        return State(b(self.ref), b(self.err), b(self.unk), b(self.zs))


def leaf_state(dtype, data):
    if dtype in FLOATS:
        ref = np.asarray(data, np.float64)
        return State(ref, np.zeros(ref.shape), zs=np.zeros(ref.shape, bool))
    if dtype == "i1":
        return State(np.asarray(data, bool))
    return State(np.asarray(data).astype(object))


def as_objects(values):
    return np.asarray(values).astype(object)


def float_attr(dtype, value):
    """A float attribute of an op on `dtype`: the value in the compute type
    (the lowering converts the attribute to a constant of that type)."""
    return float(co.round_float(co.COMPUTE[dtype], value))


def raw_unary(op, attrs, dtype, x):
    """An unary op on float64 values before rounding, and a mask of zeros
    compared with zeros of the other sign (unspecified sign)."""
    none = np.zeros(np.shape(x), bool)
    if op == "relu":
        return np.maximum(x, 0.0), (x == 0) & np.signbit(x)
    if op == "clamp":
        y, amb = np.asarray(x, np.float64), none
        if attrs.get("min") is not None:
            lo = float_attr(dtype, attrs["min"])
            amb = amb | ((y == 0) & (lo == 0))
            y = np.maximum(y, lo)
        if attrs.get("max") is not None:
            hi = float_attr(dtype, attrs["max"])
            amb = amb | ((y == 0) & (hi == 0))
            y = np.minimum(y, hi)
        return y, amb
    if op == "leaky_relu":
        alpha = attrs.get("alpha")
        alpha = float_attr(dtype, 0.01 if alpha is None else alpha)
        return np.where(x >= 0, x, alpha * x), none
    if op == "gelu" and attrs.get("approximate") == "tanh":
        return co.gelu_tanh(x), none
    return co.FLOAT_UNARY[op](x), none


def raw_binary(op, a, b):
    amb = np.zeros(np.broadcast(a, b).shape, bool)
    if op in ("max", "min"):
        amb = (a == 0) & (b == 0) & (np.signbit(a) != np.signbit(b))
    return co.FLOAT_BINARY[op](a, b), amb


def int_unary(op, attrs, dtype, x):
    if op == "clamp":
        y = x
        if attrs.get("min") is not None:
            y = np.where(y < attrs["min"], attrs["min"], y)
        if attrs.get("max") is not None:
            y = np.where(y > attrs["max"], attrs["max"], y)
        return y
    fn = np.frompyfunc(co.INT_UNARY[op], 1, 1)
    return fn(x)


def to_int(dtype, values):
    return as_objects(co.to_result(dtype, values))


def deriv_bound(op, lo, hi):
    """max |f'| over [lo, hi] (inf where unbounded)."""
    inf = np.full(np.shape(lo), np.inf)
    m = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(abs(lo), abs(hi)))
    if op in ("exp", "expm1"):
        return np.exp(hi)
    if op == "log":
        return np.where(lo > 0, 1 / np.where(lo > 0, lo, 1), inf)
    if op == "log1p":
        return np.where(lo > -1, 1 / np.where(lo > -1, lo + 1, 1), inf)
    if op == "sqrt":
        return np.where(lo > 0, 0.5 / np.sqrt(np.where(lo > 0, lo, 1)), inf)
    if op == "rsqrt":
        return np.where(lo > 0, 0.5 * np.where(lo > 0, lo, 1) ** -1.5, inf)
    if op == "reciprocal":
        return np.where(m > 0, 1 / np.where(m > 0, m, 1) ** 2, inf)
    if op == "tanh":
        return 1 - np.tanh(m) ** 2
    if op == "sigmoid":
        # sigmoid'(x) = sigmoid(x) * sigmoid(-x); from the small side, since
        # 1 - sigmoid(m) is 0 in float64 for m > 37 while the true slope
        # (about e^-m) still scales the error of a result near 0.
        s = co.sigmoid(-m)
        return s * (1 - s)
    if op == "erf":
        return 2 / math.sqrt(math.pi) * np.exp(-m * m)
    return np.full(np.shape(lo), LIPSCHITZ[op])


def tolerance(op, dtype, ref, magnitude, x_magnitude, exact_zero):
    """T: the op's own error allowance at `magnitude` (none where the exact
    inputs give exactly 0: sin(0), tanh(0), gelu(0), exp(-1000), ...)."""
    ulps, xrel = co.tolerance(op, dtype, TARGET)
    if not ulps:
        return np.zeros(np.shape(ref))
    compute = co.COMPUTE[dtype]
    allowed = ulps * ulp_at(dtype, magnitude)
    floor = ulps * min_normal(compute)
    if op in co.UNDERFLOW_FLOOR:
        floor = floor * np.maximum(x_magnitude, 1.0)
    allowed = np.maximum(allowed, floor)
    if xrel:
        eps = 2.0 ** (1 - co.FLOAT_FORMAT[compute][0])
        allowed = allowed + xrel * eps * x_magnitude
    return np.where(exact_zero, 0.0, allowed)


def finish_float(dtype, op, ref, raw, err, unk, zs, had_err):
    """Overflow and non-finite checks shared by the float ops."""
    ulps = co.tolerance(op, dtype, TARGET)[0]
    with np.errstate(all="ignore"):
        big = max_finite(dtype)
        finite = np.isfinite(ref)
        unk = unk | (had_err & ~finite)
        unk = unk | (finite & ~np.isfinite(err))
        unk = unk | (finite & (err > 0) & (abs(ref) + err > big))
        if ulps and raw is not None:
            p = co.FLOAT_FORMAT[dtype][0]
            near = big * (1 + (ulps + 2) * 2.0 ** (1 - p))
            unk = unk | (np.isinf(ref) & np.isfinite(raw) & (abs(raw) <= near))
    # A non-finite result of exact inputs must match exactly.
    err = np.where(unk | ~np.isfinite(ref), 0.0, err)
    zs = zs & ~unk & (err == 0) & (ref == 0)
    return State(ref, err, unk, zs)


def evaluate_zs(compute, ins):
    """Runs compute(refs) -> (ref, amb) and again with every combination of
    input zeros of unspecified sign flipped. Returns (ref, zs, unk)."""
    ref, amb = compute([s.ref for s in ins])
    ref = np.asarray(ref)
    zs = np.array(amb, bool)
    unk = np.zeros(ref.shape, bool)
    flippable = [k for k, s in enumerate(ins) if s.zs is not None and
                 np.any(s.zs & ~s.unk)]
    is_float = ref.dtype == np.float64
    for r in range(1, len(flippable) + 1):
        for combo in itertools.combinations(flippable, r):
            refs = [np.where(s.zs, -s.ref, s.ref) if k in combo else s.ref
                    for k, s in enumerate(ins)]
            alt, amb2 = compute(refs)
            alt = np.asarray(alt)
            if is_float:
                same = (alt == ref) | (np.isnan(alt) & np.isnan(ref))
                zs |= same & (alt == 0) & (np.signbit(alt) != np.signbit(ref))
                zs |= np.asarray(amb2, bool)
            else:
                same = alt == ref
            unk |= ~np.asarray(same, bool)
    return ref, zs, unk


def same_at_corners(compute, ins, errs, where):
    """Where `where`: does every corner of the box of inputs (ref +- err)
    give the reference's non-finite result (an overflow that stays one)?"""
    ref = np.asarray(compute([s.ref for s in ins])[0])
    ok = where & ~np.isfinite(ref)
    if not ok.any():
        return ok
    for combo in itertools.product(*[(s.ref - e, s.ref + e)
                                     for s, e in zip(ins, errs)]):
        alt = np.asarray(compute(list(combo))[0])
        ok &= (alt == ref) | (np.isnan(alt) & np.isnan(ref))
    return ok


# Unary ops monotone on each side of their poles, for same_at_corners.
MONOTONE = {"exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "tanh",
            "sigmoid", "erf", "reciprocal", "neg", "leaky_relu"}


def eval_float_unary(node, x):
    t, op, attrs = node.dtype, node.op, node.attrs
    shape = x.ref.shape

    def compute(refs):
        raw, amb = raw_unary(op, attrs, t, refs[0])
        return (raw if op in NO_ROUNDING else round_to(t, raw)), amb
    with np.errstate(all="ignore"):
        ref, zs, unk = evaluate_zs(compute, [x])
        raw = raw_unary(op, attrs, t, x.ref)[0]
        E = np.where(x.unk, 0.0, x.err)
        had = E > 0
        if op in MONOTONE and (op != "leaky_relu" or
                               (attrs.get("alpha") or 0.01) >= 0):
            had = had & ~same_at_corners(compute, [x], [E], had)
            E = np.where(had, E, 0.0)
        lo, hi = x.ref - E, x.ref + E
        unk = unk | x.unk
        if op in ("neg", "abs"):
            P = E
        elif op in ("relu", "clamp"):
            flo = raw_unary(op, attrs, t, lo)[0]
            fhi = raw_unary(op, attrs, t, hi)[0]
            P = np.maximum(ref - flo, fhi - ref)
        elif op in ("floor", "ceil"):
            flo = raw_unary(op, attrs, t, lo)[0]
            fhi = raw_unary(op, attrs, t, hi)[0]
            unk = unk | (had & (flo != fhi))
            zs = zs | (had & (ref == 0))
            P = np.zeros(shape)
        elif op == "leaky_relu":
            alpha = attrs.get("alpha")
            P = max(1.0, abs(0.01 if alpha is None else alpha)) * E
        else:
            P = deriv_bound(op, lo, hi) * E
            P = np.where(had, P, 0.0)
            if op in RANGE_WIDTH:
                P = np.minimum(P, RANGE_WIDTH[op])
        P = np.where(had, P, 0.0)
        magnitude = abs(ref) + P
        # `had`, not just P > 0: a bound below the smallest subnormal
        # underflows to 0 in float64 (a subnormal times an inexact value).
        R = 0.0 if op in NO_ROUNDING else np.where(
            (P > 0) | had, 2 * ulp_at(t, magnitude), 0.0)
        xmag = np.maximum(abs(lo), abs(hi))
        T = tolerance(op, t, ref, magnitude, xmag, ~had & (raw == 0))
        err = P + R + T
        if op == "hardswish":
            unk = unk | (np.isfinite(xmag) &
                         (xmag * 6 > max_finite(co.COMPUTE[t])))
        return finish_float(t, op, ref, raw, err, unk, zs, had)


def eval_int_unary(node, x):
    ref = to_int(node.dtype, int_unary(node.op, node.attrs, node.dtype,
                                       x.ref))
    return State(ref, unk=x.unk.copy())


def eval_float_binary(node, a, b, same):
    t, op = node.dtype, node.op

    def compute(refs):
        raw, amb = raw_binary(op, refs[0], refs[1])
        return (raw if op in NO_ROUNDING else round_to(t, raw)), amb
    with np.errstate(all="ignore"):
        ref, zs, unk = evaluate_zs(compute, [a, b])
        shape = ref.shape
        raw = raw_binary(op, a.ref, b.ref)[0]
        unk = unk | a.unk | b.unk
        Ea = np.where(a.unk, 0.0, a.err)
        Eb = np.where(b.unk, 0.0, b.err)
        had = (Ea > 0) | (Eb > 0)
        monotone = np.ones(shape, bool)
        if op == "pow":
            alo, ahi = a.ref - Ea, a.ref + Ea
            integer = (Eb == 0) & (np.floor(b.ref) == b.ref) & \
                np.isfinite(b.ref)
            monotone = (alo > 0) | (integer & (ahi < 0))
        corner = same_at_corners(compute, [a, b], [Ea, Eb], had & monotone)
        Ea = np.where(corner, 0.0, Ea)
        Eb = np.where(corner, 0.0, Eb)
        had = had & ~corner
        A, B = abs(a.ref), abs(b.ref)
        if op in ("add", "sub"):
            P = Ea + Eb
        elif op == "mul":
            P = A * Eb + B * Ea + Ea * Eb
        elif op == "div":
            pole = (Eb > 0) & (B <= Eb)
            unk = unk | pole
            P = (A * Eb + B * Ea) / (B * np.where(pole, 1.0, B - Eb))
        elif op in ("max", "min"):
            f = np.maximum if op == "max" else np.minimum
            P = np.maximum(ref - f(a.ref - Ea, b.ref - Eb),
                           f(a.ref + Ea, b.ref + Eb) - ref)
        elif op == "pow":
            alo, ahi = a.ref - Ea, a.ref + Ea
            P = np.zeros(shape)
            for ac in (alo, ahi):
                for bc in (b.ref - Eb, b.ref + Eb):
                    P = np.maximum(P, abs(np.power(ac, bc) - raw))
            # x^n, n >= 1 an exact integer, across 0: n max|x|^(n-1) Ea.
            n = np.where(integer, b.ref, 0.0)
            poly = integer & (n >= 1) & ~monotone
            P = np.where(poly, n * np.maximum(abs(alo), abs(ahi)) **
                         np.maximum(n - 1, 0) * Ea, P)
            # A negative base to an exact non-integer power is NaN.
            nan = (Eb == 0) & ~integer & np.isfinite(b.ref) & (ahi < 0)
            P = np.where(nan, 0.0, P)
            had = had & ~nan
            unk = unk | (had & ~monotone & ~poly)
        else:
            raise ValueError(
                f"difftest: no bound of the error that {op} propagates: a new "
                f"binary op needs its case in eval_float_binary "
                f"(docs/extending.md, step 5)")
        P = np.where(had, np.broadcast_to(P, shape), 0.0)
        # An exact NaN operand gives NaN whatever the other one is (not pow:
        # pow(NaN, 0) and pow(1, NaN) are 1).
        if op != "pow":
            nan_in = ((np.isnan(a.ref) & (Ea == 0) & ~a.unk) |
                      (np.isnan(b.ref) & (Eb == 0) & ~b.unk))
            P = np.where(nan_in, 0.0, P)
            had = had & ~nan_in
        if same:
            if op == "sub":
                P = np.where(np.isfinite(a.ref), 0.0, P)
                had = had & ~np.isfinite(a.ref)
            elif op in ("max", "min"):
                P = Ea
        magnitude = abs(ref) + P
        # As for unary ops: P may underflow to 0 where an input is inexact.
        R = 0.0 if op in NO_ROUNDING else np.where(
            (P > 0) | had, 2 * ulp_at(t, magnitude), 0.0)
        T = tolerance(op, t, ref, magnitude, 0.0, ~had & (raw == 0))
        return finish_float(t, op, ref, raw, P + R + T, unk, zs, had)


def eval_int_binary(node, a, b):
    bits = co.INT_BITS[node.dtype]
    fn = np.frompyfunc(lambda x, y: co.INT_BINARY[node.op](x, y, bits), 2, 1)
    ref = to_int(node.dtype, fn(a.ref, b.ref))
    return State(ref, unk=a.unk | b.unk)


def eval_cmp(node, a, b, same):
    pred = node.attrs["pred"]
    fn = co.CMP[pred]
    dtype = node.operand_dtype

    def compute(refs):
        x, y = refs
        if dtype in FLOATS:
            out = fn(x, y)
        else:
            out = np.asarray(fn(as_objects(x), as_objects(y)), bool)
        return out, np.zeros(out.shape, bool)
    with np.errstate(all="ignore"):
        ref, _, unk = evaluate_zs(compute, [a, b])
        ref = np.asarray(ref, bool)
        unk = unk | a.unk | b.unk
        if dtype in FLOATS:
            Ea, Eb = a.err, b.err
            had = (Ea > 0) | (Eb > 0)
            nan = ((np.isnan(a.ref) & (Ea == 0)) |
                   (np.isnan(b.ref) & (Eb == 0)))
            apart = abs(a.ref - b.ref) > (Ea + Eb)
            unk = unk | (had & ~nan & ~apart)
            if same:
                # x' compared with itself: known for every finite x'.
                finite = np.isfinite(a.ref) & ~a.unk
                ref = np.where(finite, pred in ("eq", "le", "ge"), ref)
                unk = np.where(finite, False, unk)
    return State(ref, unk=unk)


def eval_select(node, c, a, b):
    cond = c.ref
    ref = np.where(cond, a.ref, b.ref)
    unk = c.unk | np.where(cond, a.unk, b.unk)
    if node.dtype in FLOATS:
        err = np.where(unk, 0.0, np.where(cond, a.err, b.err))
        zs = np.where(cond, a.zs, b.zs) & ~unk
        return State(ref, err, unk, zs)
    return State(ref, unk=unk)


def eval_cast(node, x):
    src, dst = node.operand_dtype, node.dtype
    shape = x.ref.shape
    if src in FLOATS and dst in INTS:
        bits = co.INT_BITS[dst]
        with np.errstate(all="ignore"):
            reach = abs(x.ref) + x.err
            if np.any(x.unk) or np.any(~np.isfinite(x.ref)) or np.any(
                    reach >= 2.0 ** (bits - 1)):
                raise Unspecified(f"cast {src} -> {dst} of a value out of "
                                  "range, NaN or unbounded")

    def compute(refs):
        v = np.asarray(refs[0]).reshape(-1)
        if src in INTS:
            v = [int(n) for n in v]
        out = np.asarray(co.cast_ref(src, dst, v)).reshape(shape)
        return out, np.zeros(shape, bool)
    with np.errstate(all="ignore"):
        ref, zs, unk = evaluate_zs(compute, [x])
        unk = unk | x.unk
        if dst in INTS:
            ref = as_objects(ref)
        if src not in FLOATS:
            if dst in FLOATS:
                ref = np.asarray(ref, np.float64)
                return State(ref, np.zeros(shape), unk, np.zeros(shape, bool))
            return State(ref, unk=unk)
        E = x.err
        had = E > 0
        lo, hi = x.ref - E, x.ref + E
        if dst == "i1":
            unk = unk | (had & (lo <= 0) & (hi >= 0))
            return State(np.asarray(ref, bool), unk=unk)
        if dst in INTS:
            unk = unk | (had & (np.trunc(lo) != np.trunc(hi)))
            return State(ref, unk=unk)
        ref = np.asarray(ref, np.float64)
        had = had & ~same_at_corners(compute, [x], [E], had)
        E = np.where(had, E, 0.0)
        narrowing = co.FLOAT_FORMAT[dst][0] < co.FLOAT_FORMAT[src][0] or \
            co.FLOAT_FORMAT[dst][2] < co.FLOAT_FORMAT[src][2]
        magnitude = abs(ref) + E
        R = np.where(had & narrowing, 2 * ulp_at(dst, magnitude), 0.0)
        return finish_float(dst, "cast", ref, None, E + R, unk, zs, had)


def check_reduce(node, dims):
    """Raises Unspecified unless the reduction is one the dialect defines
    and the generator makes: dims non-empty, in range, no repeats; the
    dropped form only for leading dimensions (so that the other dimensions
    keep their positions from the right); max and min of no element (an
    error) never; mean of floats only."""
    reduced = list(node.attrs["dims"])
    rank = len(dims)
    if not reduced or len(set(reduced)) != len(reduced) or \
            any(not 0 <= k < rank for k in reduced):
        raise Unspecified(f"{node.op} over dims {reduced} of rank {rank}")
    if not node.attrs["keepdims"] and sorted(reduced) != list(
            range(len(reduced))):
        raise Unspecified(f"{node.op} dropping dims {reduced}, not leading")
    if node.op in ("reduce_max", "reduce_min") and any(
            dims[k][0] == 0 for k in reduced):
        raise Unspecified(f"{node.op} of an empty dimension (an error)")
    if node.op == "reduce_mean" and node.dtype not in FLOATS:
        raise Unspecified("reduce_mean of integers")
    if node.dtype != node.operand_dtype:
        raise Unspecified(f"{node.op} to another type")


def eval_reduce(node, dims, x):
    """A reduction (check_ops.reduce_ref): sums and means within
        (sum of the row's input bounds + (n-1) u sum(|x| + E)) (/ n)
    of the exact value, plus the roundings (check_ops.sum_allowance);
    max and min within the largest bound of their row (monotone, no
    rounding). A row with an unbounded element is unbounded, and so is a
    sum whose running total could leave the range of the compute type
    (sum(|x| + E) of the row's finite elements near the largest value) or
    whose result could overflow the result type."""
    check_reduce(node, dims)
    t, op, reduced = node.dtype, node.op, list(node.attrs["dims"])
    keep = node.attrs["keepdims"]
    shape = x.ref.shape
    out_shape = co.reduced_shape(shape, reduced, keep)
    _, unk_rows = co.reduce_rows(x.unk, reduced)
    unk = unk_rows.any(axis=1).reshape(out_shape)
    if t not in FLOATS:
        ref, _ = co.reduce_ref(op, t, x.ref, reduced, keep)
        return State(as_objects(ref), unk=unk)
    _, rows = co.reduce_rows(x.ref, reduced)
    _, errs = co.reduce_rows(np.where(x.unk, 0.0, x.err), reduced)
    _, zrows = co.reduce_rows(x.zs, reduced)
    rows, errs = rows.astype(np.float64), errs.astype(np.float64)
    n = rows.shape[1]
    with np.errstate(all="ignore"):
        finite = np.isfinite(rows)
        E_rows = np.where(finite, errs, 0.0)
        if op in ("reduce_max", "reduce_min"):
            fn = np.max if op == "reduce_max" else np.min
            ref = fn(rows, axis=1) if n else np.zeros(len(rows))
            # Monotone: the extreme of the boxes [x - E, x + E].
            lo = fn(rows - E_rows, axis=1) if n else ref
            hi = fn(rows + E_rows, axis=1) if n else ref
            # An infinite or NaN result comes from exact elements alone.
            P = np.where(np.isfinite(ref), np.maximum(ref - lo, hi - ref),
                         0.0)
            zero = (rows == 0) & finite
            both = (zero & np.signbit(rows)).any(axis=1) & \
                (zero & ~np.signbit(rows)).any(axis=1)
            zs = (ref == 0) & (both | (zero & zrows).any(axis=1) |
                               (P > 0))
            err = P
        else:
            exact = np.array([co.exact_sum(row) for row in rows])
            P = E_rows.sum(axis=1)
            total = (np.abs(np.where(finite, rows, 0.0)) + E_rows).sum(axis=1)
            A = max(n - 1, 0) * co.unit_roundoff(t) * total
            big = max_finite(co.COMPUTE[t])
            unk = unk | ((total * (1 + n * co.unit_roundoff(t)) >= big) &
                         ~np.isnan(exact)).reshape(out_shape)
            # A non-finite element (exact) decides a non-finite sum on its
            # own (NaN, inf, inf - inf).
            bound = np.where(finite.all(axis=1), P + A, 0.0)
            if op == "reduce_mean":
                exact = exact / n if n else np.full(len(rows), np.nan)
                bound = bound / max(n, 1)
            ref = round_to(t, exact)
            err = co.sum_allowance(t, ref, exact, bound)
            # The sign of a zero sum depends on the order of the additions.
            zs = ref == 0
        ref = ref.reshape(out_shape)
        err = err.reshape(out_shape)
        zs = zs.reshape(out_shape)
        had = err > 0
        return finish_float(t, op, ref, None, err, unk, zs, had)


def evaluate(prog):
    """The State of every node (raises Unspecified)."""
    states = []
    for node in prog.nodes:
        states.append(eval_node(prog, node, states))
    return states


def eval_node(prog, node, states):
    if node.kind in ("arg", "const"):
        return leaf_state(node.dtype, node.data)
    if node.op in REDUCE:
        operand = prog.nodes[node.operands[0]]
        node.operand_dtype = operand.dtype
        return eval_reduce(node, operand.dims, states[node.operands[0]])
    shape = shape_of(node.dims)
    ins = [states[j].broadcast(shape) for j in node.operands]
    same = len(node.operands) == 2 and node.operands[0] == node.operands[1]
    node.operand_dtype = prog.nodes[node.operands[-1]].dtype
    op = node.op
    if op == "cast":
        return eval_cast(node, ins[0])
    if op == "cmp":
        return eval_cmp(node, ins[0], ins[1], same)
    if op == "select":
        return eval_select(node, *ins)
    if op in BINARY:
        if node.dtype in FLOATS:
            return eval_float_binary(node, ins[0], ins[1], same)
        return eval_int_binary(node, ins[0], ins[1])
    if node.dtype in FLOATS:
        return eval_float_unary(node, ins[0])
    return eval_int_unary(node, ins[0])


#===-----------------------------------------------------------------------===#
# Generator
#===-----------------------------------------------------------------------===#

SIZES = [1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 16, 17, 33]
FLOAT_SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -3.0]
NONFINITE = [np.nan, np.inf, -np.inf]


class Generator:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.prog = Program(seed)
        self.states = []
        self.uses = []

    def pick(self, items, weights=None):
        if weights is not None:
            w = np.asarray(weights, np.float64)
            return items[self.rng.choice(len(items), p=w / w.sum())]
        return items[self.rng.integers(len(items))]

    def chance(self, p):
        return self.rng.random() < p

    # Values ----------------------------------------------------------------

    def float_data(self, dtype, shape):
        n = int(np.prod(shape, dtype=np.int64))
        rng = self.rng
        profile = self.pick(["normal", "int", "positive", "wide", "tiny"],
                            [0.4, 0.2, 0.15, 0.15, 0.1])
        if profile == "normal":
            x = rng.uniform(-4, 4, n)
        elif profile == "int":
            x = rng.integers(-8, 9, n) * self.pick([1.0, 0.5, 0.25])
        elif profile == "positive":
            x = rng.uniform(0.05, 8, n)
        elif profile == "wide":
            span = 4 if dtype == "f16" else 8
            sign = rng.choice([-1.0, 1.0], n)
            x = sign * 10.0 ** rng.uniform(-span, span, n)
        else:
            low, high = {"f16": (-7.5, -4.5), "bf16": (-40, -36),
                         "f32": (-44, -37), "f64": (-320, -306)}[dtype]
            x = rng.choice([-1.0, 1.0], n) * 10.0 ** rng.uniform(low, high, n)
        specials = FLOAT_SPECIAL + (NONFINITE if self.nonfinite else [])
        mask = rng.random(n) < 0.08
        x[mask] = rng.choice(specials, int(mask.sum()))
        return co.round_float(dtype, x).reshape(shape)

    def int_data(self, dtype, shape):
        n = int(np.prod(shape, dtype=np.int64))
        bits = co.INT_BITS[dtype]
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        profile = self.pick(["small", "medium", "full"], [0.6, 0.3, 0.1])
        if profile == "small":
            x = self.rng.integers(-10, 11, n)
        elif profile == "medium":
            x = self.rng.integers(-1000, 1001, n)
        else:
            x = self.rng.integers(lo, hi, n, endpoint=True, dtype=np.int64)
        x = np.asarray(x, np.int64)
        mask = self.rng.random(n) < 0.05
        x[mask] = self.rng.choice([0, 1, -1, 2, -2, lo, hi, lo + 1, hi - 1],
                                  int(mask.sum()))
        return x.astype(co.NUMPY[dtype]).reshape(shape)

    def data(self, dtype, shape):
        if dtype in FLOATS:
            values = self.float_data(dtype, shape)
            return values if dtype == "bf16" else values.astype(
                co.NUMPY[dtype])
        if dtype == "i1":
            return self.rng.random(shape) < 0.5
        return self.int_data(dtype, shape)

    def scalar(self, dtype, choices):
        value = self.pick(choices)
        if dtype in FLOATS:
            return float(co.round_float(dtype, value))
        return int(value) if dtype in INTS else bool(value)

    # Nodes -----------------------------------------------------------------

    def add(self, node):
        if node.kind == "op":
            node.dims = self.prog.infer(node)
        state = eval_node(self.prog, node, self.states)
        self.prog.nodes.append(node)
        self.states.append(state)
        self.uses.append(0)
        for j in node.operands:
            self.uses[j] += 1
        return len(self.prog.nodes) - 1

    def op(self, op, dtype, operands, **attrs):
        return self.add(Node("op", dtype, op=op, operands=operands,
                             attrs=attrs))

    def random_dims(self, rank, dynamic_ok):
        dims = []
        for k in range(rank - 1, -1, -1):
            if self.chance(0.25):
                dims.append((1, False))
            else:
                dyn = dynamic_ok and self.chance(self.p_dynamic)
                dims.append((self.D[k], dyn))
        return tuple(dims)

    def argument(self, dtype=None, min_rank=0):
        dtype = dtype or self.pick(INPUT_TYPES, [0.22, 0.28, 0.13, 0.14, 0.1,
                                                 0.13])
        rank = self.pick([0, 1, 2, 3, 4], [0.08, 0.22, 0.3, 0.25, 0.15])
        rank = max(rank, min_rank)
        dims = self.random_dims(rank, True)
        return self.add(Node("arg", dtype, dims,
                             data=self.data(dtype, shape_of(dims))))

    def constant(self, dtype, dense=None):
        if dense is None:
            dense = self.chance(0.25)
        if dense:
            rank = self.pick([1, 2, 3, 4], [0.4, 0.3, 0.2, 0.1])
            dims = tuple((self.D[k] if self.D[k] and self.chance(0.6) else 1,
                          False) for k in range(rank - 1, -1, -1))
            data = self.data(dtype, shape_of(dims))
        else:
            dims = ()
            if dtype in FLOATS:
                data = self.scalar_data(dtype, [
                    0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 0.1, -2.5, 1e-3,
                    100.0] + (NONFINITE if self.nonfinite else []))
            elif dtype == "i1":
                data = np.array(self.chance(0.5))
            else:
                data = np.array(self.pick([0, 1, -1, 2, 3, -7, 100]),
                                co.NUMPY[dtype])
        return self.add(Node("const", dtype, dims, data=data))

    def choose(self, types, exclude=None):
        """An existing node whose dtype is in `types` (None if there is
        none): unused ones first, then recent ones, then any."""
        pool = [i for i, n in enumerate(self.prog.nodes)
                if n.dtype in types and i != exclude]
        if not pool:
            return None
        unused = [i for i in pool if self.uses[i] == 0]
        if unused and self.chance(0.7):
            return self.pick(unused)
        if self.chance(0.25):
            return self.pick(pool[-6:])
        return self.pick(pool)

    def need(self, types):
        """A node of one of `types`, cast from another one if needed."""
        x = self.choose(types)
        if x is None:
            src = self.choose(ANY)
            x = self.cast(src, self.pick(types))
        return x

    def cast(self, x, dst, strict=False):
        """fuse.cast of x to dst; a float -> integer cast of a value with
        unbounded elements becomes a cast to f32 (None when `strict`)."""
        src = self.prog.nodes[x].dtype
        if src in FLOATS and dst in INTS:
            y = self.sanitize(x, dst)
            if y is None:
                if strict:
                    return None
                dst = "f32"
            else:
                x = y
        return self.op("cast", dst, [x])

    def sanitize(self, x, dst):
        """x made castable to the integer `dst`: clamped into range and NaN
        replaced by 0 (None if some element is unbounded)."""
        st = self.states[x]
        if np.any(st.unk):
            return None
        t = self.prog.nodes[x].dtype
        bits = co.INT_BITS[dst]
        with np.errstate(all="ignore"):
            reach = abs(st.ref) + st.err
            over = ~np.isnan(st.ref) & ~(reach < 2.0 ** (bits - 1))
        if np.any(over):
            limit = 65504.0 if t == "f16" else 2.0 ** (bits - 3)
            x = self.op("clamp", t, [x], min=-limit, max=limit)
        if np.any(np.isnan(self.states[x].ref)):
            nan = self.op("cmp", "i1", [x, x], pred="ne")
            other = self.add(Node("const", t, (),
                                  data=self.nan_replacement(t)))
            x = self.op("select", t, [nan, other, x])
        return x

    def nan_replacement(self, t):
        value = np.array(float(self.pick([0.0, 1.0, -1.0])))
        return value if t == "bf16" else value.astype(co.NUMPY[t])

    # Ops -------------------------------------------------------------------

    OPS = (UNARY_NUMERIC + UNARY_FLOAT +
           ["clamp", "gelu_tanh"] + BINARY + ["cmp", "select", "cast",
                                              "constant", "reduce"])
    WEIGHTS = ([1.0] * 5 + [0.55] * 16 + [1.3, 0.5] +
               [2.4, 1.8, 2.4, 1.4, 1.2, 1.2, 1.0] + [2.0, 2.0, 3.0, 0.4,
                                                      1.6])

    def step(self):
        op = self.pick(self.OPS, self.WEIGHTS)
        if op == "reduce":
            return self.reduction()
        if op in UNARY_NUMERIC or op == "clamp":
            x = self.need(NUMERIC)
            t = self.prog.nodes[x].dtype
            attrs = self.clamp_attrs(t) if op == "clamp" else {}
            return self.op(op, t, [x], **attrs)
        if op in UNARY_FLOAT or op == "gelu_tanh":
            x = self.need(FLOATS)
            t = self.prog.nodes[x].dtype
            st = self.states[x]
            attrs = {}
            if op in ("log", "log1p", "sqrt", "rsqrt"):
                with np.errstate(invalid="ignore"):
                    negative = np.any(st.unk | ~(st.ref - st.err >= 0))
                if negative and self.chance(0.85):
                    x = self.op("abs", t, [x])
            if op in ("exp", "expm1") and self.chance(0.6):
                with np.errstate(invalid="ignore"):
                    big = np.any(abs(np.where(np.isfinite(st.ref), st.ref, 0))
                                 > 40)
                if big:
                    x = self.op("clamp", t, [x], min=-30.0, max=30.0)
            if op == "gelu_tanh":
                op, attrs = "gelu", {"approximate": "tanh"}
            elif op == "gelu" and self.chance(0.3):
                attrs = {"approximate": "none"}
            elif op == "leaky_relu" and self.chance(0.6):
                attrs = {"alpha": self.scalar(t, [0.2, 0.25, 0.1, 0.01, 1.5,
                                                  -0.5, 0.3])}
            return self.op(op, t, [x], **attrs)
        if op in BINARY:
            a = self.need(NUMERIC)
            t = self.prog.nodes[a].dtype
            b = self.second(a, op)
            return self.op(op, t, [a, b])
        if op == "cmp":
            a = self.need(ANY)
            b = self.second(a, op)
            return self.op("cmp", "i1", [a, b],
                           pred=self.pick(list(co.CMP)))
        if op == "select":
            c = self.choose(["i1"])
            if c is None or self.chance(0.3):
                x = self.need(ANY)
                c = self.op("cmp", "i1", [x, self.second(x, "cmp")],
                            pred=self.pick(list(co.CMP)))
            a = self.need(ANY)
            b = self.second(a, "select")
            return self.op("select", self.prog.nodes[a].dtype, [c, a, b])
        if op == "cast":
            x = self.choose(ANY)
            dst = self.pick(ANY, [3, 2, 3, 2, 2, 2, 1.5])
            return self.cast(x, dst)
        return self.constant(self.pick(ANY))

    # Reductions -------------------------------------------------------------

    def reduce_op(self, op, x, dims, keepdims):
        """fuse.OP of x over dims (an empty max or min becomes a sum)."""
        node = self.prog.nodes[x]
        if op in ("reduce_max", "reduce_min") and any(
                node.dims[k][0] == 0 for k in dims):
            op = "reduce_sum"
        return self.op(op, node.dtype, [x], dims=tuple(dims),
                       keepdims=keepdims)

    def reduce_dims(self, rank):
        """(dims, keepdims): the last dimension, all, a leading run
        (dropped or kept), or any set (kept), sometimes out of order."""
        kind = self.pick(["last", "all", "leading", "any"],
                         [0.35, 0.2, 0.2, 0.25])
        if kind == "last":
            dims = [rank - 1]
        elif kind == "all":
            dims = list(range(rank))
        elif kind == "leading":
            dims = list(range(int(self.rng.integers(1, rank + 1))))
        else:
            count = int(self.rng.integers(1, rank + 1))
            dims = sorted(int(k) for k in self.rng.choice(rank, count,
                                                          replace=False))
        leading = dims == list(range(len(dims)))
        keep = not leading or self.chance(0.5)
        if len(dims) > 1 and self.chance(0.2):
            dims = [int(k) for k in self.rng.permutation(dims)]
        return dims, keep

    def reduction(self):
        """A reduction, often with its result broadcast back against its
        operand (x - max(x), x / sum(x), ...), a softmax or a layer norm."""
        pool = [i for i, n in enumerate(self.prog.nodes)
                if n.dtype in NUMERIC and n.dims]
        unused = [i for i in pool if self.uses[i] == 0]
        if unused and self.chance(0.6):
            x = self.pick(unused)
        elif pool and self.chance(0.85):
            x = self.pick(pool)
        else:
            x = self.argument(self.pick(["f16", "f32", "f64", "i32", "i64"],
                                        [0.3, 0.35, 0.15, 0.1, 0.1]),
                              min_rank=1)
        t = self.prog.nodes[x].dtype
        dims, keep = self.reduce_dims(len(self.prog.nodes[x].dims))
        pattern = self.pick(["plain", "back", "softmax", "layernorm"],
                            [0.45, 0.25, 0.15, 0.15])
        if t not in FLOATS and pattern in ("softmax", "layernorm"):
            pattern = "back"
        if pattern == "softmax":
            return self.softmax(x, dims)
        if pattern == "layernorm":
            return self.layernorm(x, dims)
        ops = ["reduce_sum", "reduce_max", "reduce_min", "reduce_mean"]
        op = self.pick(ops, [3, 2, 1.5, 2] if t in FLOATS else [3, 2, 1.5, 0])
        if pattern == "back":
            keep = True
        r = self.reduce_op(op, x, dims, keep)
        if pattern == "back":
            binary = self.pick(["sub", "div", "add", "mul", "max", "min"],
                               [3, 2, 1, 1, 1, 1])
            a, b = (x, r) if self.chance(0.8) else (r, x)
            return self.op(binary, t, [a, b])
        return r

    def softmax(self, x, dims):
        t = self.prog.nodes[x].dtype
        m = self.reduce_op("reduce_max", x, dims, True)
        e = self.op("exp", t, [self.op("sub", t, [x, m])])
        z = self.reduce_op("reduce_sum", e, dims, True)
        return self.op("div", t, [e, z])

    def layernorm(self, x, dims):
        t = self.prog.nodes[x].dtype
        mu = self.reduce_op("reduce_mean", x, dims, True)
        d = self.op("sub", t, [x, mu])
        v = self.reduce_op("reduce_mean", self.op("mul", t, [d, d]), dims,
                           True)
        eps = self.add(Node("const", t, (), data=self.scalar_data(
            t, [1e-5, 1e-3, 0.1])))
        rs = self.op("rsqrt", t, [self.op("add", t, [v, eps])])
        return self.op("mul", t, [d, rs])

    def second(self, a, op):
        """A second operand with the dtype of `a`."""
        t = self.prog.nodes[a].dtype
        if op == "pow":
            if t in FLOATS and self.chance(0.6):
                return self.add(Node("const", t, (), data=self.scalar_data(
                    t, [0.0, 1.0, 2.0, 3.0, -1.0, -2.0, 0.5, -0.5, 1.5, 4.0,
                        2.5])))
            if t in INTS and self.chance(0.7):
                return self.add(Node("const", t, (), data=np.array(
                    self.rng.integers(-2, 7), co.NUMPY[t])))
            if t in INTS:
                b = self.choose([t])
                return self.op("clamp", t, [b], min=-3, max=10)
        if self.chance(0.25):
            return self.constant(t)
        if self.chance(0.04):
            return a
        b = self.choose([t], exclude=a)
        if b is None or self.chance(0.15):
            src = self.choose([d for d in ANY if d != t])
            if src is not None:
                y = self.cast(src, t, strict=True)
                if y is not None:
                    return y
        return a if b is None else b

    def scalar_data(self, t, choices):
        value = np.array(self.scalar(t, choices))
        return value if t == "bf16" else value.astype(co.NUMPY[t])

    def clamp_attrs(self, t):
        if t in FLOATS:
            bounds = lambda: self.scalar(t, [-6.0, -1.5, -1.0, -0.5, 0.0,
                                             -0.0, 0.25, 0.5, 1.0, 2.0, 6.0,
                                             10.0, 100.0,
                                             float(self.rng.uniform(-5, 5))])
        else:
            bits = co.INT_BITS[t]
            bounds = lambda: int(self.pick(
                [-20, -5, -1, 0, 1, 3, 7, 20, 255, 1000,
                 -(1 << (bits - 1)), (1 << (bits - 1)) - 1,
                 int(self.rng.integers(-50, 51))]))
        which = self.pick(["both", "min", "max"], [0.5, 0.25, 0.25])
        lo = bounds() if which != "max" else None
        hi = bounds() if which != "min" else None
        if lo is not None and hi is not None and lo > hi and self.chance(0.85):
            lo, hi = hi, lo
        return {"min": lo, "max": hi}

    def generate(self):
        rng = self.rng
        while True:
            self.D = [self.pick(SIZES) for _ in range(MAX_RANK)]
            if np.prod(self.D) <= MAX_ELEMENTS:
                break
        if self.chance(0.02):
            self.D[int(rng.integers(MAX_RANK))] = 0
        self.p_dynamic = self.pick([0.0, 0.3, 0.7, 1.0])
        self.nonfinite = self.chance(0.3)
        for _ in range(self.pick([1, 2, 3, 4, 5], [0.2, 0.3, 0.25, 0.15,
                                                   0.1])):
            self.argument()
        target = int(rng.integers(1, 13) if self.chance(0.5) else
                     rng.integers(13, 61))
        while self.prog.op_count() < target:
            self.step()
        self.pick_results()
        return self.prog

    def merge(self, a, b):
        """One op that uses both a and b (casting b to a's dtype or the other
        way round)."""
        ta, tb = self.prog.nodes[a].dtype, self.prog.nodes[b].dtype
        if ta != tb:
            y = self.cast(b, ta, strict=True)
            if y is None:
                a, b, ta = b, self.cast(a, tb), tb
            else:
                b = y
        if ta == "i1":
            return self.op("cmp", "i1", [a, b], pred=self.pick(["eq", "ne",
                                                                "lt"]))
        return self.op(self.pick(["add", "sub", "mul", "max", "min"]), ta,
                       [a, b])

    def pick_results(self):
        count = self.pick([1, 2, 3, 4], [0.4, 0.3, 0.2, 0.1])
        sinks = lambda: [i for i, n in enumerate(self.prog.nodes)
                         if n.kind == "op" and self.uses[i] == 0]
        # Most programs have no dead code: extra sinks are merged.
        if self.chance(0.9):
            while len(sinks()) > count:
                a, b = self.rng.choice(sinks(), 2, replace=False)
                self.merge(int(a), int(b))
        ops = [i for i, n in enumerate(self.prog.nodes) if n.kind == "op"]
        results = []
        for i in list(self.rng.permutation(sinks())) + list(
                self.rng.permutation(ops)):
            if len(results) < count and int(i) not in results:
                results.append(int(i))
        if not results:
            # No op at all (only arguments and constants): return the last.
            results.append(len(self.prog.nodes) - 1)
        if self.chance(0.05):
            results.append(int(self.pick(range(len(self.prog.nodes)))))
        if self.chance(0.05):
            results.append(results[0])
        self.prog.results = results[:4]


def generate(seed):
    return Generator(seed).generate()


#===-----------------------------------------------------------------------===#
# Running and checking
#===-----------------------------------------------------------------------===#

class Outcome:
    """kind: ok, invalid (Unspecified), CRASH, ERROR, MISMATCH or WRONG."""

    def __init__(self, kind, message="", skipped=False, counts=(0, 0, 0),
                 nan_only=False, where=None, nan_bits=False, cross=(0, 0),
                 targets=False):
        self.kind, self.message, self.skipped = kind, message, skipped
        # a MISMATCH between the target and the CPU target
        self.targets = targets
        self.counts = counts  # exact, bounded, unbounded elements
        # results and elements equal to the CPU target's (other targets)
        self.cross = cross
        self.nan_only = nan_only
        # (result, element index) of the first bad element: the minimizer
        # keeps that element when it shrinks dimensions.
        self.where = where
        # ok, but fused and eager differ in NaN signs/payloads or zero signs.
        self.nan_bits = nan_bits

    def signature(self):
        """What must stay the same while minimizing."""
        if self.kind in ("CRASH", "ERROR"):
            # Not the locations (a fused one lists every op of a kernel)
            # nor the names of kernels, which change as ops go.
            text = re.sub(r"loc\(fused\[[^\]]*\]\)", "loc", self.message)
            text = re.sub(r"[^\n]*?:\d+:\d+: ", "", text)
            text = re.sub(r'"[^"]*"', '""', text)
            text = re.sub(r"%[\w]+|\d+|tensor<[^>]*>", "#", text)
            return self.kind, text[:200]
        return self.kind, self.nan_only, self.targets


def write_inputs(prog, directory):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "prog.mlir")
    with open(path, "w") as f:
        f.write(prog.mlir())
    inputs = []
    for k, i in enumerate(prog.args()):
        node = prog.nodes[i]
        name = os.path.join(directory, f"in{k}.npy")
        co.write_npy(name, node.dtype, node.data)
        inputs.append(name)
    return path, inputs


def same_on_every_target(prog):
    """Per node: computed by ops that every target rounds the same way."""
    same = []
    for node in prog.nodes:
        ok = node.kind != "op" or not (
            node.op in TARGET_DEPENDENT
            or (node.op == "pow" and node.dtype in FLOATS)
            or (node.op in ("reduce_sum", "reduce_mean") and
                node.dtype == "f64"))
        same.append(ok and all(same[j] for j in node.operands))
    return same


def command(fuse_run, path, inputs, outputs, eager, target=None):
    cmd = [fuse_run, path, f"--target={target or TARGET}"]
    for name in inputs:
        cmd += ["--input", name]
    for name in outputs:
        cmd += ["--output", name]
    return cmd + (["--fusion=off"] if eager else [])


def describe(dtype, value):
    if dtype in FLOATS:
        return repr(float(value))
    return repr(value.item() if hasattr(value, "item") else value)


def run_program(fuse_run, prog, directory):
    try:
        states = evaluate(prog)
    except Unspecified as e:
        return Outcome("invalid", str(e))
    path, inputs = write_inputs(prog, directory)
    outputs = {}
    portable = same_on_every_target(prog)
    variants = ["fused", "eager"]
    if TARGET != "cpu" and any(portable[i] for i in prog.results):
        variants.append("cpu")
    for variant in variants:
        names = [os.path.join(directory, f"{variant}{k}.npy")
                 for k in range(len(prog.results))]
        for name in names:
            if os.path.exists(name):
                os.remove(name)
        cmd = command(fuse_run, path, inputs, names, variant == "eager",
                      "cpu" if variant == "cpu" else None)
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return Outcome("CRASH", f"{variant}: timed out after "
                           f"{RUN_TIMEOUT} s")
        text = (proc.stderr + proc.stdout).strip()
        if proc.returncode < 0 or proc.returncode > 128:
            return Outcome("CRASH", f"{variant}: exit {proc.returncode}: "
                           + " | ".join(text.splitlines()[:6]))
        if proc.returncode:
            return Outcome("ERROR", f"{variant}: exit {proc.returncode}: "
                           + " | ".join(text.splitlines()[:6]))
        try:
            outputs[variant] = [np.load(name) for name in names]
        except (OSError, ValueError) as e:
            return Outcome("ERROR", f"{variant}: unreadable output: {e}")
    counts = [0, 0, 0]
    skipped = nan_bits = False
    cross = [0, 0]  # results and elements compared with the CPU target
    issues = []  # (severity, Outcome): the worst one is reported
    for k, i in enumerate(prog.results):
        node, st = prog.nodes[i], states[i]
        ty = type_str(node.dtype, node.dims)
        fused, eager = outputs["fused"][k], outputs["eager"][k]
        if "cpu" in outputs and portable[i]:
            cpu = outputs["cpu"][k]
            if cpu.dtype != fused.dtype or cpu.shape != fused.shape or \
                    cpu.tobytes() != fused.tobytes():
                message, nan_only, first = mismatch_message(
                    k, ty, fused, cpu, ("fused", "cpu"))
                if not nan_only:
                    issues.append((3, Outcome(
                        "MISMATCH", f"{TARGET} and cpu: {message}",
                        where=(k, first), targets=True)))
            cross[0] += 1
            cross[1] += int(fused.size)
        if fused.dtype != eager.dtype or fused.shape != eager.shape or \
                fused.tobytes() != eager.tobytes():
            message, nan_only, first = mismatch_message(k, ty, fused,
                                                        eager)
            # The sign and payload of a NaN are not specified (x86 makes a
            # negative default NaN, LLVM's constant folding a positive one),
            # nor is the sign of a zero that compares equal: only other
            # differences count.
            if not nan_only:
                issues.append((3, Outcome("MISMATCH", message,
                                          where=(k, first))))
            nan_bits |= nan_only
        want_dtype = np.dtype(co.NUMPY[node.dtype])
        shape = shape_of(node.dims)
        if fused.dtype != want_dtype or fused.shape != shape:
            issues.append((2, Outcome(
                "WRONG", f"result {k} ({ty}): got {fused.dtype} "
                f"{fused.shape}, expected {want_dtype} {shape}")))
            continue
        for variant, got in (("fused", fused), ("eager", eager)):
            message, first = compare(node.dtype, got, st)
            if message:
                issues.append((2, Outcome(
                    "WRONG", f"result {k} ({ty}), {variant}: {message}",
                    where=(k, first))))
                break
        unk = np.asarray(st.unk)
        exact = ~unk if st.err is None else ~unk & (st.err == 0)
        counts[0] += int(exact.sum())
        counts[1] += int((~unk & ~exact).sum())
        counts[2] += int(unk.sum())
        skipped |= bool(unk.any())
    if issues:
        return max(issues, key=lambda issue: issue[0])[1]
    return Outcome("ok", skipped=skipped, counts=tuple(counts),
                   nan_bits=nan_bits, cross=tuple(cross))


def mismatch_message(k, ty, fused, eager, names=("fused", "eager")):
    if fused.dtype != eager.dtype or fused.shape != eager.shape:
        return (f"result {k} ({ty}): {names[0]} {fused.dtype} {fused.shape}"
                f", {names[1]} {eager.dtype} {eager.shape}", False, None)
    f, e = fused.reshape(-1), eager.reshape(-1)
    differ = f.view(np.uint8).reshape(f.size, -1) != \
        e.view(np.uint8).reshape(e.size, -1)
    bad = np.flatnonzero(differ.any(axis=1))
    first = np.unravel_index(bad[0], fused.shape)
    nan_only = False
    if fused.dtype.kind == "f":
        same = (f[bad] == e[bad]) | (np.isnan(f[bad]) & np.isnan(e[bad]))
        nan_only = bool(same.all())
    note = " (only NaN signs/payloads or signs of zero)" if nan_only else ""
    return (f"result {k} ({ty}): {names[0]} and {names[1]} differ in "
            f"{bad.size} of {f.size} elements{note}, first at "
            f"{tuple(int(x) for x in first)}: {names[0]} "
            f"{bits(fused[first])}, {names[1]} {bits(eager[first])}",
            nan_only,
            tuple(int(x) for x in first))


def bits(value):
    """A float with its bit pattern (tells NaNs and zeros apart)."""
    value = np.asarray(value)
    if value.dtype.kind != "f":
        return repr(value.item())
    raw = value.reshape(1).view(f"u{value.dtype.itemsize}")[0]
    return f"{value.item()!r} (0x{int(raw):0{2 * value.dtype.itemsize}X})"


def compare(dtype, got, st):
    """('', None) or a description of the elements outside the reference
    bound and the index of the first one."""
    unk = np.asarray(st.unk)
    if dtype in FLOATS:
        g = got.astype(np.float64)
        ref, err = np.asarray(st.ref, np.float64), np.asarray(st.err)
        with np.errstate(invalid="ignore"):
            exact = (g == ref) | (np.isnan(g) & np.isnan(ref))
            close = np.isfinite(g) & (abs(g - ref) <= err)
        bad = ~unk & ~np.where(err > 0, close, exact)
    else:
        g = got.astype(object) if dtype in INTS else got.astype(bool)
        bad = ~unk & (g != np.asarray(st.ref))
    if not bad.any():
        return "", None
    first = tuple(int(x) for x in np.unravel_index(np.argmax(bad),
                                                    bad.shape))
    want = describe(dtype, np.asarray(st.ref)[first])
    bound = ""
    if dtype in FLOATS and st.err[first] > 0:
        bound = f" +- {float(st.err[first]):.3g}"
    return (f"{int(bad.sum())} of {bad.size} elements off the reference, "
            f"first at {first}: got {describe(dtype, got[first])}, expected "
            f"{want}{bound}", first)


#===-----------------------------------------------------------------------===#
# Minimization
#===-----------------------------------------------------------------------===#

def candidates(prog, where=None):
    """Smaller programs, biggest cuts first. `where` (result, index) is the
    first bad element, kept when a dimension shrinks to 1."""
    if len(prog.results) > 1:
        for k in range(len(prog.results)):
            p = prog.copy()
            del p.results[k]
            yield p
    try:
        states = evaluate(prog)
    except Unspecified:
        states = None
    for i in range(len(prog.nodes) - 1, -1, -1):
        node = prog.nodes[i]
        if node.kind != "op":
            continue
        if states is not None and node.dtype != "bf16":
            # Cut: the op becomes an argument holding its value.
            p = prog.copy()
            with np.errstate(over="ignore"):
                data = np.asarray(states[i].ref).astype(co.NUMPY[node.dtype])
            p.nodes[i] = Node("arg", node.dtype, node.dims, data=data)
            yield p
        for j in dict.fromkeys(node.operands):
            if prog.nodes[j].dtype == node.dtype:
                p = prog.copy()
                for n in p.nodes:
                    n.operands = [j if o == i else o for o in n.operands]
                p.results = [j if r == i else r for r in p.results]
                yield p
    for i, node in enumerate(prog.nodes):
        if node.kind == "const" and node.dims:
            p = prog.copy()
            p.nodes[i] = Node("const", node.dtype, (),
                              data=np.asarray(node.data).reshape(-1)[:1]
                              .reshape(()))
            yield p
    # Shrink one dimension position to size 1 everywhere (keeping the index
    # of the bad element, the first, the middle or the last one).
    rank = max((len(n.dims) for n in prog.nodes), default=0)
    for k in range(rank):
        sizes = {n.dims[len(n.dims) - 1 - k][0] for n in prog.nodes
                 if n.kind != "op" and len(n.dims) > k}
        size = max(sizes, default=1)
        indices = [0, size // 2, size - 1]
        if where is not None and where[1] is not None:
            dims = prog.nodes[prog.results[where[0]]].dims
            if len(dims) > k and dims[len(dims) - 1 - k][0] == size:
                indices.insert(0, where[1][len(dims) - 1 - k])
        for index in dict.fromkeys(indices) if size > 1 else []:
            p = prog.copy()
            for node in p.nodes:
                if node.kind == "op" or len(node.dims) <= k:
                    continue
                axis = len(node.dims) - 1 - k
                if node.dims[axis][0] == size:
                    node.dims = node.dims[:axis] + (
                        (1, node.dims[axis][1]),) + node.dims[axis + 1:]
                    node.data = np.take(node.data, [index], axis=axis)
            yield p


def minimize(fuse_run, prog, outcome, directory, log):
    """The smallest program found that fails like `outcome`."""
    signature = outcome.signature()
    best = prog.copy()
    best.retype()
    best.dce()
    tries = 0
    progress = True
    while progress and tries < MINIMIZE_TRIES:
        progress = False
        for cand in candidates(best, outcome.where):
            cand.retype()
            cand.dce()
            tries += 1
            result = run_program(fuse_run, cand, os.path.join(directory,
                                                              "try"))
            if result.kind != "invalid" and result.signature() == signature:
                best, outcome = cand, result
                progress = True
                break
            if tries >= MINIMIZE_TRIES:
                break
    final = run_program(fuse_run, best, directory)
    log.append(f"  minimized reproducer ({prog.op_count()} -> "
               f"{best.op_count()} ops, {tries} tries): {final.kind}: "
               f"{final.message}")
    shutil.rmtree(os.path.join(directory, "try"), ignore_errors=True)
    return best


def reproducer(fuse_run, prog, directory, seed, script_args):
    lines = ["  --- prog.mlir ---"]
    lines += ["  " + line for line in prog.mlir().splitlines()]
    for k, i in enumerate(prog.args()):
        node = prog.nodes[i]
        data = np.asarray(node.data)
        if node.dtype in FLOATS:
            data = data.astype(np.float64)  # prints f16 values exactly
        values = np.array2string(data, threshold=64,
                                 max_line_width=1000, precision=17,
                                 separator=", ").replace("\n", "")
        lines.append(f"  in{k}.npy ({co.NUMPY[node.dtype].__name__}"
                     f"{list(np.shape(node.data))}): {values}")
    path = os.path.join(directory, "prog.mlir")
    inputs = [os.path.join(directory, f"in{k}.npy")
              for k in range(len(prog.args()))]
    outputs = [os.path.join(directory, f"out{k}.npy")
               for k in range(len(prog.results))]
    driver = ""
    if TARGET == "cuda" and os.environ.get("FUSE_LIBCUDA"):
        driver = f"FUSE_LIBCUDA={os.environ['FUSE_LIBCUDA']} "
    for eager in (False, True):
        lines.append("  run: " + driver + " ".join(
            command(fuse_run, path, inputs, outputs, eager)))
    lines.append(f"  rerun the seed: {script_args} --seed {seed} --count 1")
    return lines


#===-----------------------------------------------------------------------===#
# Driver
#===-----------------------------------------------------------------------===#

def test_seed(fuse_run, seed, workdir, keep, script_args):
    try:
        return check_seed(fuse_run, seed, workdir, keep, script_args)
    except Exception as e:  # a tester bug must not hide the other seeds
        import traceback
        text = traceback.format_exc().strip().replace("\n", " | ")
        return seed, 0, Outcome("GENERATOR", f"{type(e).__name__}: {e}"), [
            f"GENERATOR seed={seed}: internal error: {text}"]


def check_seed(fuse_run, seed, workdir, keep, script_args):
    directory = os.path.join(workdir, f"seed{seed}")
    prog = generate(seed)
    ops = prog.op_count()
    outcome = run_program(fuse_run, prog, directory)
    log = []
    if outcome.kind == "invalid":
        outcome = Outcome("GENERATOR", "generated an unspecified program: "
                          + outcome.message)
        log.append(f"GENERATOR seed={seed}: {outcome.message}")
    elif outcome.kind != "ok":
        log.append(f"{outcome.kind} seed={seed}: {outcome.message}")
        again = run_program(fuse_run, prog, directory)
        if again.signature() != outcome.signature():
            log.append(f"  not reproducible: a second run gave {again.kind}"
                       f" {again.message}")
        small = minimize(fuse_run, prog, outcome,
                         os.path.join(directory, "min"), log)
        log += reproducer(fuse_run, small, os.path.join(directory, "min"),
                          seed, script_args)
    if outcome.kind == "ok" and not keep:
        shutil.rmtree(directory, ignore_errors=True)
    return seed, ops, outcome, log


def main():
    parser = argparse.ArgumentParser(
        description="Differential tester: random fuse programs, fused == "
        "eager == numpy reference.")
    parser.add_argument("fuse_run")
    parser.add_argument("--target", choices=["cpu", "cuda"], default="cpu",
                        help="where fuse-run runs the programs (cuda: on "
                        "the driver FUSE_LIBCUDA names)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--time-budget", type=float, default=None,
                        help="start no new program after SECONDS")
    parser.add_argument("--keep", help="keep every program in DIR")
    parser.add_argument("--jobs", type=int,
                        default=min(4, os.cpu_count() or 1))
    parser.add_argument("--verbose", action="store_true",
                        help="one line per program")
    args = parser.parse_args()
    global TARGET
    TARGET = args.target
    fuse_run = shutil.which(args.fuse_run) or args.fuse_run
    problem = co.self_test()
    if problem:
        print(f"GENERATOR reference self-test: {problem}")
        return 1
    script_args = f"{sys.argv[0]} {args.fuse_run}"
    if TARGET != "cpu":
        script_args += f" --target {TARGET}"
    workdir = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(
        prefix="fuse-difftest-")
    os.makedirs(workdir, exist_ok=True)
    start = time.monotonic()
    programs = ops = equal = ok = skipped = failed = nan_bits = 0
    elements = [0, 0, 0]
    cross = [0, 0]
    seeds = iter(range(args.seed, args.seed + args.count))
    pending = {}
    results = {}
    next_seed = args.seed

    def out_of_time():
        return args.time_budget is not None and \
            time.monotonic() - start > args.time_budget

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        def submit():
            if out_of_time():
                return
            seed = next(seeds, None)
            if seed is not None:
                pending[seed] = pool.submit(test_seed, fuse_run, seed,
                                            workdir, args.keep, script_args)
        for _ in range(args.jobs * 2):
            submit()
        while pending:
            done, _ = concurrent.futures.wait(
                pending.values(),
                return_when=concurrent.futures.FIRST_COMPLETED)
            for seed in [s for s, f in pending.items() if f in done]:
                results[seed] = pending.pop(seed).result()
                submit()
            while next_seed in results:
                seed, n, outcome, log = results.pop(next_seed)
                next_seed += 1
                programs += 1
                ops += n
                if outcome.kind == "ok":
                    equal += 1
                    skipped += outcome.skipped
                    ok += not outcome.skipped
                    nan_bits += outcome.nan_bits
                    elements = [a + b for a, b in zip(elements,
                                                      outcome.counts)]
                    cross = [a + b for a, b in zip(cross, outcome.cross)]
                else:
                    failed += 1
                    equal += outcome.kind == "WRONG"
                for line in log:
                    print(line, flush=True)
                if args.verbose:
                    status = outcome.kind
                    if status == "ok" and outcome.skipped:
                        status = "skipped"
                    print(f"seed {seed}: {n} ops, {status}", flush=True)
    elapsed = time.monotonic() - start
    print(f"elements: {elements[0]} exact, {elements[1]} within a "
          f"propagated bound, {elements[2]} unbounded (fused==eager only); "
          f"{nan_bits} programs with NaN sign/payload or zero sign "
          f"differences only; {elapsed:.0f} s")
    if TARGET != "cpu":
        print(f"{TARGET}==cpu: {cross[0]} results of correctly rounded ops "
              f"({cross[1]} elements) bit-identical to the cpu target's")
    print(f"{programs} programs, {ops} ops, fused==eager: {equal}/{programs}"
          f", reference: {ok} ok, {skipped} skipped, {failed} failed")
    if not args.keep and not failed:
        shutil.rmtree(workdir, ignore_errors=True)
    elif failed:
        print(f"failing programs are in {workdir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
