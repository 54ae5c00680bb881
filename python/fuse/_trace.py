"""The tracer: a Python function called on symbolic Tensors records fuse ops,
which print as a fuse MLIR function.

Shapes are fuse's: a dimension is a static size or None (`?`). Arguments get
`?` for every size except those that are 1, which stay a static 1 so that
they broadcast like numpy (fuse only stretches a static 1; a `?` that is 1 at
run time is not stretched, see docs/dialect.md).
"""

import collections
import dis
import functools
import inspect
import itertools
import math
import os
import re
import sys
import threading

import numpy as np

from . import _dtypes
from ._dtypes import FLOAT

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_state = threading.local()


def _current_graph():
    return getattr(_state, "graph", None)


def type_str(dtype, shape):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{dtype}>"


def broadcast_shapes(shapes, what):
    """fuse's broadcast of static/None shapes (docs/dialect.md)."""
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = [s[len(s) - rank + i] if len(s) - rank + i >= 0 else 1 for s in shapes]
        result = 1
        for d in dims:
            if d == 1:
                continue
            if result == 1:
                result = d
            elif d is None:
                continue
            elif result is None:
                result = d
            elif result != d:
                shown = " vs ".join(type_str("", s)[7:-1].rstrip("x") or "scalar" for s in shapes)
                raise ValueError(f"fuse: {what}: shapes are not broadcast-compatible: "
                                 f"{shown} (dimension {i}: {result} vs {d})")
        out.append(result)
    return tuple(out)


_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep


def user_frame():
    """The innermost frame of the caller's own code, and how many frames out
    it is (warnings.warn's stacklevel, called where this is): outside this
    package and outside numpy (whose functions, `np.max(x)`, call fuse's
    through numpy's frames, `<__array_function__ internals>` among them)."""
    frame, level = sys._getframe(1), 1
    while frame is not None:
        path = frame.f_code.co_filename
        absolute = os.path.abspath(path)
        if not (os.path.dirname(absolute) == _PACKAGE_DIR
                or path.startswith("<__array_function__")
                or absolute.startswith(_NUMPY_DIR)):
            break
        frame, level = frame.f_back, level + 1
    return frame, level


def _user_location():
    """(file, line, column) of the innermost frame of the caller's code."""
    frame, _ = user_frame()
    if frame is None:
        return None
    line, column = frame.f_lineno, 1
    try:
        positions = next(itertools.islice(frame.f_code.co_positions(),
                                          frame.f_lasti // 2, None))
        if positions[0] is not None:
            line = positions[0]
        if positions[2] is not None:
            column = positions[2] + 1
    except (AttributeError, StopIteration):
        pass
    return (frame.f_code.co_filename, line, column)


def _place_of(loc):
    """` at FILE:LINE:COLUMN` of `loc` (a _user_location), for an error's
    message ('' for None)."""
    return "" if loc is None else f" at {loc[0]}:{loc[1]}:{loc[2]}"


def _place():
    """_place_of the caller's code."""
    return _place_of(_user_location())


# The instructions with which Python asks an object's truth value for `if`,
# `while`, `and`, `or`, `not` and chained comparisons (3.11's jumps, 3.13's
# TO_BOOL before them), not in a call (max(), min()).
_TRUTH_TESTS = re.compile(r"(POP_)?JUMP_\w*IF_(TRUE|FALSE)\w*|UNARY_NOT|TO_BOOL")


def _truth_test_in_user_code():
    """Whether the caller's code is at an instruction that asks a truth
    value (`and`, `or`, `not`, `if`, a chained comparison)."""
    frame, _ = user_frame()
    if frame is None:
        return False
    try:
        return bool(_TRUTH_TESTS.fullmatch(dis.opname[frame.f_code.co_code[frame.f_lasti]]))
    except (IndexError, AttributeError):
        return False


def _is_scalar(value):
    return isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)) or (
        isinstance(value, np.ndarray) and value.ndim == 0
        and value.dtype.kind in "bif")


def _scalar_value(value):
    if isinstance(value, np.ndarray):
        value = value[()]
    if isinstance(value, np.generic):
        value = value.item()
    return value


# Bit patterns of the non-finite floats, for attributes (which take no
# `inf`/`nan` keywords).
_NONFINITE_BITS = {
    "f16": (0x7C00, 0xFC00, 0x7E00),
    "bf16": (0x7F80, 0xFF80, 0x7FC0),
    "f32": (0x7F800000, 0xFF800000, 0x7FC00000),
    "f64": (0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000),
}
_INT_RANGE = {"i32": (-2**31, 2**31 - 1), "i64": (-2**63, 2**63 - 1)}


def _float_literal(value, dtype, attribute=False):
    value = float(value)
    if dtype in ("f16", "f32"):
        with np.errstate(over="ignore"):
            narrow = np.float16(value) if dtype == "f16" else np.float32(value)
        value = float(narrow)
    text = repr(value)
    if dtype in ("f16", "f32") and math.isfinite(value):
        # The exact value when it is short (65504), else the shortest
        # decimal that reads back as the same f16 or f32 (0.1, not the
        # f32's exact 0.10000000149011612).
        positional = value == 0 or 1e-4 <= math.fabs(value) < 1e16
        shortest = (np.format_float_positional if positional else
                    np.format_float_scientific)(narrow, unique=True, trim="0")
        if len(text) > len(shortest) + 2:
            text = shortest
    if not math.isfinite(value):
        if attribute:
            inf, ninf, nan = _NONFINITE_BITS[dtype]
            return hex(nan if math.isnan(value) else inf if value > 0 else ninf)
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    if "e" in text and "." not in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    elif "." not in text and "e" not in text:
        text += ".0"
    return text


def scalar_literal(value, dtype, attribute=False):
    """`value` written as a fuse literal of element type `dtype`."""
    value = _scalar_value(value)
    if not isinstance(value, (bool, int, float)):
        raise TypeError(f"fuse: {type(value).__name__} {value!r} is not a number; a scalar "
                        f"operand or parameter is a bool, an int or a float")
    if dtype == "i1":
        return "true" if value else "false"
    if _dtypes.is_float(dtype):
        return _float_literal(value, dtype, attribute)
    if isinstance(value, float):
        if not value.is_integer():
            raise TypeError(f"fuse: {value!r} is not an integer ({dtype})")
        value = int(value)
    value = int(value)
    low, high = _INT_RANGE[dtype]
    if not low <= value <= high:
        name = _dtypes.to_numpy(dtype).name
        raise OverflowError(f"fuse: the Python int {value} does not fit {name}, the type "
                            f"it takes here (numpy raises OverflowError too): make the "
                            f"tensor wider first (x.astype(np.int64))"
                            if dtype == "i32" else
                            f"fuse: the Python int {value} does not fit {name}, the widest "
                            f"integer type (numpy raises OverflowError too)")
    return str(value)


class _Node:
    __slots__ = ("op", "operands", "attrs", "result", "loc", "extra")

    def __init__(self, op, operands, attrs, result, loc, extra=None):
        self.op = op
        self.operands = operands
        self.attrs = attrs
        self.result = result
        self.loc = loc
        self.extra = extra


class Graph:
    def __init__(self, name, function=None):
        # The function's symbol, and its name as the user knows it.
        self.name = name
        self.function = function or name
        # (name, Tensor) of each argument, named as the Python function
        # names it (a parameter as written, α included; xs[0] for a member
        # of *xs), which messages say; _ssa_names, by id of the Tensor, its
        # name in the MLIR text (unique, which that may not be).
        self.args = []
        self._ssa_names = {}
        self.nodes = []
        self._constants = {}
        self._casts = {}
        # Indices of the int scalar arguments that an op uses as i32: their
        # values must fit it (checked when the program is called).
        self.int32_args = set()
        # Index -> (place in the user's code (_place), whether the base is a
        # Python scalar too) of the Python int arguments that are an integer
        # power's exponent: a negative value is refused when the program is
        # called, as the same number written in the function is for a
        # Tensor's base (a Python int's, n ** -1, is a float there, as in
        # Python, and the traced int power of n ** m cannot be).
        self.int_exponent_args = {}
        # Index -> (place, operator) of the Python scalar arguments that
        # divide an op on Python scalars alone (n / m, n // m, n % m): a zero
        # is ZeroDivisionError when the program is called, as in Python.
        self.divisor_args = {}
        # (SizeCheck, the Tensor it is for): sizes that a composition needs
        # equal, checked when the program is called (SizeCheck.failure) if
        # the Tensor is live.
        self.size_checks = []
        # The TypeError that a SymbolicSize raised last (its _refuse), which
        # trace_function says where numpy said its own words for it.
        self.refused_size = None

    def arg_index(self, tensor):
        """The index of argument `tensor`, or None when it is not one."""
        return next((i for i, (_, t) in enumerate(self.args) if t is tensor), None)

    def add_arg(self, name, dtype, shape, weak=False, ssa_name=None):
        """An argument named `name` (as the function names it), `ssa_name`
        in the MLIR text (`name` if None); `weak`: a Python scalar's (a 0-d
        Tensor of its carrier dtype, promoted as a Python scalar)."""
        tensor = Tensor(self, dtype, shape, None, weak=weak, arg=name)
        self.args.append((name, tensor))
        self._ssa_names[id(tensor)] = ssa_name or name
        return tensor

    def add(self, op, operands, dtype, shape, attrs="", extra=None, weak=False):
        result = Tensor(self, dtype, shape, None, weak=weak)
        node = _Node(op, operands, attrs, result, _user_location(), extra)
        result._node = node
        self.nodes.append(node)
        return result

    def constant(self, value, dtype):
        literal = scalar_literal(value, dtype)
        key = (literal, dtype)
        if key not in self._constants:
            self._constants[key] = self.add("constant", [], dtype, (), extra=literal)
        return self._constants[key]

    def cast(self, tensor, dtype):
        if tensor.dtype_name == dtype:
            return tensor
        key = (id(tensor), dtype)
        if key not in self._casts:
            self._casts[key] = (tensor, self.add("cast", [tensor], dtype, tensor._shape))
        return self._casts[key][1]

    @staticmethod
    def _live(results):
        """The Tensors that `results` depend on (themselves too), by id."""
        live = {}
        stack = list(results)
        while stack:
            t = stack.pop()
            if id(t) in live:
                continue
            live[id(t)] = t
            if t._node is not None:
                stack.extend(t._node.operands)
        return live

    def fold_scalar_casts(self, results):
        """A scalar argument that the program uses only through one cast
        takes that cast's dtype instead (the caller converts the value, as
        the cast would): no op, and no kernel, on the scalar alone. Returns
        `results` with the casts replaced."""
        live = self._live(results)
        for _, arg in self.args:
            if not arg.weak or any(r is arg for r in results):
                continue
            users = [n for n in self.nodes if id(n.result) in live
                     and any(o is arg for o in n.operands)]
            if len(users) != 1 or users[0].op != "cast" or users[0].result.dtype_name == "bf16":
                continue
            cast = users[0].result
            arg.dtype_name = cast.dtype_name
            self.nodes.remove(users[0])
            for node in self.nodes:
                node.operands = [arg if o is cast else o for o in node.operands]
            results = [arg if r is cast else r for r in results]
        return results

    def emit(self, results, locations=False):
        """The function's text; only ops that a result depends on."""
        live = self._live(results)
        names = {id(t): f"%{self._ssa_names[id(t)]}" for _, t in self.args}
        lines = []
        counter = 0
        # Ops at one place of the source (fuse.softmax's, or a loop's) are
        # told apart by name ("reduce_max", "mul 2"): the compiler knows an
        # op by its location (which kernel computes it, for remarks), and
        # prints the place alone.
        shared = collections.Counter(node.loc for node in self.nodes
                                     if id(node.result) in live)
        seen = collections.Counter()
        for node in self.nodes:
            if id(node.result) not in live:
                continue
            names[id(node.result)] = f"%{counter}"
            counter += 1
            line = f"  {names[id(node.result)]} = {self._op_text(node, names)}"
            if locations and node.loc is not None:
                file, line_no, column = node.loc
                escaped = file.replace("\\", "\\\\").replace('"', '\\"')
                place = f'"{escaped}":{line_no}:{column}'
                if shared[node.loc] > 1:
                    seen[(node.loc, node.op)] += 1
                    count = seen[(node.loc, node.op)]
                    place = f'"{node.op}{"" if count == 1 else f" {count}"}"({place})'
                line += f" loc({place})"
            lines.append(line)
        params = ", ".join(f"{names[id(t)]}: {t.type}" for _, t in self.args)
        result_types = ", ".join(t.type for t in results)
        signature = result_types if len(results) == 1 else f"({result_types})"
        ret = ", ".join(names[id(t)] for t in results)
        return (f"func.func @{self.name}({params}) -> {signature} {{\n"
                + "".join(line + "\n" for line in lines)
                + f"  return {ret} : {result_types}\n}}\n")

    @staticmethod
    def _op_text(node, names):
        ops = [names[id(t)] for t in node.operands]
        types = [t.type for t in node.operands]
        rtype = node.result.type
        op = node.op
        if op == "constant":
            return f"fuse.constant {node.extra} : {rtype}"
        if op == "cast":
            return f"fuse.cast {ops[0]} : {types[0]} to {rtype}"
        if op == "cmp":
            return f"fuse.cmp {node.extra}, {ops[0]}, {ops[1]} : {types[0]}, {types[1]} -> {rtype}"
        if op == "select":
            return f"fuse.select {', '.join(ops)} : {', '.join(types)} -> {rtype}"
        if op.startswith("reduce_"):
            return f"fuse.{op} {ops[0]}{node.attrs} : {types[0]} -> {rtype}"
        if len(ops) == 2:
            if types[0] == types[1] == rtype:
                return f"fuse.{op} {ops[0]}, {ops[1]} : {rtype}"
            return f"fuse.{op} {ops[0]}, {ops[1]} : {types[0]}, {types[1]} -> {rtype}"
        return f"fuse.{op} {ops[0]}{node.attrs} : {rtype}"


def _reduction_method(name):
    """Tensor.NAME(...): numpy's reduction `name` as a method
    (_numpy_reduction)."""
    def method(self, *args, **kwargs):
        return _numpy_reduction(name, f"Tensor.{name}", self, args, kwargs)
    method.__name__ = method.__qualname__ = name
    return method


class Tensor:
    """A symbolic tensor inside a traced function: it has a dtype and a shape
    (a fuse.SymbolicSize for a dynamic size) but no values. Use Python's operators and the
    fuse functions on it; its values exist only when the compiled program
    runs."""

    __slots__ = ("_graph", "dtype_name", "_shape", "_node", "weak", "_arg", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, graph, dtype, shape, node, weak=False, arg=None):
        self._graph = graph
        self.dtype_name = dtype
        self._shape = tuple(shape)
        self._node = node
        # Made from Python scalars alone: promotes as a Python scalar does
        # (it does not widen a Tensor of its kind).
        self.weak = weak
        # The argument's name, for an argument.
        self._arg = arg

    @property
    def dtype(self):
        """The numpy dtype (the string 'bfloat16' for bf16)."""
        return _dtypes.public(self.dtype_name)

    @property
    def shape(self):
        """Sizes: a static size is an int, a dynamic one (`?`) a
        SymbolicSize, which has no value while tracing."""
        return _Shape(d if d is not None else SymbolicSize(self._arg, i)
                      for i, d in enumerate(self._shape))

    @property
    def ndim(self):
        return len(self._shape)

    rank = ndim

    @property
    def type(self):
        return type_str(self.dtype_name, self._shape)

    def __repr__(self):
        return f"<fuse.Tensor {self.type}>"

    # Arithmetic.
    def __add__(self, other): return _binary("add", self, other)
    def __radd__(self, other): return _binary("add", other, self)
    def __sub__(self, other): return _binary("sub", self, other)
    def __rsub__(self, other): return _binary("sub", other, self)
    def __mul__(self, other): return _binary("mul", self, other)
    def __rmul__(self, other): return _binary("mul", other, self)
    def __truediv__(self, other): return _binary("div", self, other)
    def __rtruediv__(self, other): return _binary("div", other, self)
    def __pow__(self, other): return _binary("pow", self, other)
    def __rpow__(self, other): return _binary("pow", other, self)
    # Augmented assignment makes a new Tensor, as `x = x + y` does; on an
    # array argument numpy's changes the caller's array, which fuse's does
    # not (a jitted function returns new arrays): refused there.
    def _is_array_argument(self):
        """Whether this Tensor is an array argument of the function itself
        (not a Python scalar one, not a value computed from one)."""
        return self._arg is not None and self._node is None and not self.weak

    def _in_place(self, symbol):
        if self._is_array_argument():
            raise TypeError(
                f"fuse: {symbol} on argument {self._arg!r} of {self._graph.function}: numpy "
                f"changes the caller's array in place, and a jitted function never changes "
                f"its arguments (it returns new arrays); write {self._arg} = {self._arg} "
                f"{symbol[:-1]} ... and return it (out= writes a result into an array)")

    def __iadd__(self, other): self._in_place("+="); return _binary("add", self, other)
    def __isub__(self, other): self._in_place("-="); return _binary("sub", self, other)
    def __imul__(self, other): self._in_place("*="); return _binary("mul", self, other)
    def __itruediv__(self, other): self._in_place("/="); return _binary("div", self, other)
    def __ipow__(self, other): self._in_place("**="); return _binary("pow", self, other)
    def __iand__(self, other): self._in_place("&="); return _logical("and", self, other)
    def __ior__(self, other): self._in_place("|="); return _logical("or", self, other)
    def __ixor__(self, other): self._in_place("^="); return _logical("xor", self, other)
    def __ifloordiv__(self, other): self._in_place("//="); return _floor_divmod("//", self, other)
    def __imod__(self, other): self._in_place("%="); return _floor_divmod("%", self, other)
    def __neg__(self): return _unary("neg", self)
    def __abs__(self): return _unary("abs", self)

    def __pos__(self):
        # +flag of a Python bool argument is an int, as in Python.
        return _python_int(self) if self.weak and self.dtype_name == "i1" else self

    # Comparisons give bool tensors.
    def __lt__(self, other): return _compare("lt", self, other)
    def __le__(self, other): return _compare("le", self, other)
    def __gt__(self, other): return _compare("gt", self, other)
    def __ge__(self, other): return _compare("ge", self, other)
    def __eq__(self, other): return _compare("eq", self, other)
    def __ne__(self, other): return _compare("ne", self, other)
    __hash__ = object.__hash__

    # Logic on bool tensors (masks), through select.
    def __and__(self, other): return _logical("and", self, other)
    def __rand__(self, other): return _logical("and", other, self)
    def __or__(self, other): return _logical("or", self, other)
    def __ror__(self, other): return _logical("or", other, self)
    def __xor__(self, other): return _logical("xor", self, other)
    def __rxor__(self, other): return _logical("xor", other, self)
    def __invert__(self):
        # ~ of a Python bool or int argument (or of a value computed from
        # them alone) is Python's, on ints: ~True is -2, ~n is -n - 1.
        if self.weak and self.dtype_name in ("i1", "i64"):
            return _binary("sub", _unary("neg", _python_int(self)), 1)
        return _logical("not", self, None)

    # Integers: Python's and numpy's floor division and remainder (the sign
    # of the divisor), built from the dialect's truncating div.
    def __floordiv__(self, other): return _floor_divmod("//", self, other)
    def __rfloordiv__(self, other): return _floor_divmod("//", other, self)
    def __mod__(self, other): return _floor_divmod("%", self, other)
    def __rmod__(self, other): return _floor_divmod("%", other, self)
    def __matmul__(self, other): _unsupported("@", "fuse has no matrix product")
    __rmatmul__ = __matmul__
    def __lshift__(self, other): _unsupported("<<", "fuse has no shift ops; x << n is x * 2 ** n")
    __rlshift__ = __lshift__
    def __rshift__(self, other):
        # (2 ** 31 wraps in int32: x // 2 ** 31 is not x >> 31.)
        _unsupported(">>", "fuse has no shift ops; x >> n of integers is x // 2 ** n "
                           "for n up to 30 (62 for int64), where 2 ** n fits")
    __rrshift__ = __rshift__
    def __divmod__(self, other): return _floor_divmod("divmod()", self, other)
    def __rdivmod__(self, other): return _floor_divmod("divmod()", other, self)

    def __round__(self, ndigits=None):
        # Python's round is to nearest, halves to even, as fuse.rint; of a
        # Python scalar argument, with no ndigits, it is an int, as Python's.
        if ndigits is None and self.weak:
            return _python_int(round(self) if _dtypes.is_float(self.dtype_name) else self)
        return round(self, ndigits or 0)

    def __trunc__(self):
        if self.weak:
            return _python_int(trunc(self) if _dtypes.is_float(self.dtype_name) else self)
        return trunc(self)

    # math.floor and math.ceil of a Python scalar argument: ints, as
    # Python's (of an array, as of numpy's, they have no value).
    def __floor__(self):
        return _python_int(floor(self)) if self.weak else self.__float__()

    def __ceil__(self):
        return _python_int(ceil(self)) if self.weak else self.__float__()

    def _scalar_arguments(self):
        """The names of the Python scalar arguments that this Tensor is
        computed from, in the function's order, when it is computed from
        them (and constants) alone; else None."""
        live = Graph._live([self])
        if any(t._node is None and (t._arg is None or not t.weak) for t in live.values()):
            return None
        return [name for name, arg in self._graph.args if id(arg) in live] or None

    def _no_value(self, use, instead, note="", array_instead=None):
        """TypeError: this Tensor has no value to `use`; `instead` says what
        to do, and `note` more for a Tensor computed from arrays (for which
        `array_instead`, when given, is said in place of `instead`)."""
        names = self._scalar_arguments()
        if names:
            which = " and ".join(repr(n) for n in names)
            one = len(names) == 1
            kind = "a Python scalar" if one else "Python scalars"
            plural = "argument" if one else "arguments"
            function = self._graph.function
            what = (f"argument {which} of {function} is {kind}" if self._arg is not None
                    else f"this value is computed from {plural} {which} of {function} alone, "
                         f"{kind}")
            raise TypeError(
                f"fuse: {what}, which a jitted function takes as a run-time value (so that "
                f"a new value does not compile again): it has no value while tracing, so it "
                f"cannot {use}; name {'it' if one else 'them'} in fuse.jit(static_argnames=...) "
                f"to make {'it a constant' if one else 'them constants'} of the trace, or "
                f"{instead}")
        raise TypeError(f"fuse: a traced Tensor has no value, so it cannot {use}{_place()}; "
                        f"{array_instead or instead}{note}")

    def __bool__(self):
        # A mask's truth value asked by `and`, `or`, `not` or a chained
        # comparison (`1 < x < 4` is `(1 < x) and (x < 4)`): Python's
        # operators for bools, where a mask's are &, | and ~. (Python's
        # max() and min() ask it in a call.)
        mask = None
        if self.dtype_name == "i1" and _truth_test_in_user_code():
            mask = ("it is a bool Tensor (a mask): to combine masks use `&`, `|` and `~` "
                    "with parentheses, `(x > 1) & (x < 4)`, not `and`, `or` and `not`; a "
                    "chained comparison `1 < x < 4` is `(1 < x) & (x < 4)`; and use "
                    "fuse.where(cond, a, b) for a choice per element")
        self._no_value("decide an `if`, `and`/`or` or `while`",
                       "use fuse.where(cond, a, b) for a choice per element",
                       "" if mask else " (Python's max() and min() decide that way: use "
                       "fuse.maximum and fuse.minimum)", mask)

    def __float__(self):
        # float(x), and the math module's functions (math.exp(x)), which
        # take a float.
        self._no_value("be converted to a Python number (float(x), or a `math` function: "
                       "math.exp(x))",
                       "`math` functions take Python numbers: use np.exp(x) or fuse.exp(x) "
                       "on arrays, and x.astype(np.float64) to convert")

    __complex__ = __float__

    def __index__(self):
        # int(x), range(x), an index, math.factorial(x).
        self._no_value("be converted to a Python int (int(x), range(x), an index)",
                       "use x.astype(np.int64) to convert, and fuse ops on it")

    __int__ = __index__

    def __len__(self):
        raise TypeError("fuse: len() of a traced Tensor; use .ndim, or .shape (whose dynamic "
                        "sizes are symbolic)")

    def _meant_as(self, verb, argument=True):
        """What the code that would `verb` this Tensor (unpack, index) may
        have meant, for the end of its error: PyTorch's idioms. An array
        argument (when `argument`) may be a tuple of numbers the caller
        passed (an optimizer's betas=(0.9, 0.999)), which static_argnames
        makes a constant; a max or min may be taken for PyTorch's (values,
        indices)."""
        if argument and self._is_array_argument():
            return (f" (argument {self._arg!r} of {self._graph.function} is an array; "
                    f"if you passed a tuple or list of numbers, it is read as numpy's "
                    f"array of it: to {verb} one, name it in fuse.jit(static_argnames="
                    f"...), which makes it a constant of the trace)")
        node = self._node
        if node is not None and node.op == "cast" and self.dtype_name == "i1":
            node = node.operands[0]._node  # the max or min of bools, in int32
        if node is not None and node.op in ("reduce_max", "reduce_min"):
            return (" (fuse's max and min, as numpy's, return the values only, not "
                    "PyTorch's (values, indices): x.max(axis) is PyTorch's x.max(dim)[0])")
        return ""

    def __iter__(self):
        raise TypeError("fuse: a traced Tensor cannot be iterated: fuse compiles elementwise "
                        f"programs{self._meant_as('unpack')}")

    def __getitem__(self, index):
        # A tuple takes an int or a slice (betas[0]); x[:, 0] is an array's,
        # which static_argnames could not take (it is not hashable).
        of_tuple = isinstance(index, (int, np.integer, slice)) and not isinstance(
            index, (bool, np.bool_))
        raise TypeError("fuse: a traced Tensor cannot be indexed: fuse compiles elementwise "
                        "programs, with no slices, gathers or reshapes; index the array "
                        "before the call (f(x[:, 0])) and pass the part as an argument"
                        f"{self._meant_as('index', of_tuple)}")

    def __setitem__(self, index, value):
        raise TypeError("fuse: a traced Tensor cannot be assigned to (x[i] = v): fuse "
                        "compiles elementwise programs, whose values are not changed in "
                        "place; use fuse.where(mask, v, x) for a new Tensor")

    # A traced Tensor is a value that nothing changes: a copy is itself
    # (copy.copy went through __reduce_ex__ to a Tensor of no trace).
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __array__(self, dtype=None):
        raise TypeError("fuse: a traced Tensor has no values to convert to a numpy array; "
                        "use operators and fuse functions on it")

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        name = f"numpy.{ufunc.__name__}"
        if method != "__call__":
            _unsupported(f"{name}.{method}", "fuse has no ufunc methods; for reductions use "
                         "np.sum, np.max, np.min or np.mean (or the Tensor methods and "
                         "fuse.reduce_sum, ...)")
        if kwargs:
            _unsupported(f"{name} with {_dtypes.listing(sorted(kwargs))}=",
                         "fuse's numpy functions take their operands only")
        fn = _UFUNCS.get(ufunc.__name__)
        if fn is None:
            _unsupported_numpy(name, ufunc.__name__)
        return fn(*inputs)

    def __array_function__(self, func, types, args, kwargs):
        fn = _ARRAY_FUNCTIONS.get(func.__name__)
        if fn is None:
            # numpy 1.x's np.round is round_ inside.
            name = "round" if func.__name__ == "round_" else func.__name__
            _unsupported_numpy(f"{func.__module__}.{name}", name)
        return fn(*args, **kwargs)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        # PyTorch's functions and operators given a traced Tensor (F.gelu(x),
        # torch.exp(x), a captured torch tensor times x) ask it to compute
        # them; without this, torch's error was "must be Tensor, not Tensor".
        _torch_function_refused(func, args)

    def __getattr__(self, name):
        # Only for names that the class does not have.
        if name.startswith("_"):
            raise AttributeError(name)
        raise UnsupportedAttributeError(
            f"fuse: Tensor.{name} is not supported: {_pytorch_alternative(name)}a traced "
            f"Tensor stands for an array in a program of elementwise ops and reductions, with no reshapes, transposes or "
            f"indexing; it has the attributes {_dtypes.listing(_TENSOR_ATTRIBUTES)} and "
            f"the methods {_dtypes.listing(_TENSOR_METHODS)}; use Python's operators, the "
            f"fuse functions (fuse.exp, fuse.where, ...) and numpy's elementwise functions "
            f"on it")

    # Methods for the common functions.
    # copy= is numpy's; a traced Tensor is a value, with nothing to copy.
    def astype(self, dtype, copy=True): return cast(self, dtype)
    def clamp(self, min=None, max=None): return clamp(self, min, max)
    clip = clamp
    def relu(self): return relu(self)
    def exp(self): return exp(self)
    def log(self): return log(self)
    def sqrt(self): return sqrt(self)
    def tanh(self): return tanh(self)
    def sigmoid(self): return sigmoid(self)
    def abs(self): return _unary("abs", self)

    # Reductions, with numpy's arguments (axis, keepdims, var's and std's
    # ddof, and initial= of sum, max and min; dtype=, out= and where= are
    # refused).
    sum = _reduction_method("sum")
    max = _reduction_method("max")
    min = _reduction_method("min")
    mean = _reduction_method("mean")
    var = _reduction_method("var")
    std = _reduction_method("std")
    any = _reduction_method("any")
    all = _reduction_method("all")


class UnsupportedAttributeError(TypeError, AttributeError):
    """An attribute or method that fuse.Tensor does not have (x.prod(),
    x.reshape, x.T): a TypeError that says what fuse supports instead, and
    an AttributeError, so that hasattr() is False."""

    # A public name: fuse.UnsupportedAttributeError in tracebacks.
    __module__ = "fuse"


def _unsupported(what, why):
    raise TypeError(f"fuse: {what} is not supported: {why}")


class _Shape(tuple):
    """A traced Tensor's shape: a tuple whose dynamic sizes, indexed, are
    named as the index was written (x.shape[-1], not x.shape[1])."""

    __slots__ = ()

    def __getitem__(self, index):
        item = tuple.__getitem__(self, index)
        if isinstance(item, SymbolicSize) and isinstance(index, (int, np.integer)) \
                and index < 0:
            return SymbolicSize(item._arg, item._axis, int(index))
        return item


class SymbolicSize:
    """A dynamic size of a traced Tensor's shape (`x.shape[0]`): the program
    is traced once and runs for every size, so while tracing a size has no
    value. Using it as a number raises TypeError saying what to do."""

    __slots__ = ("what", "_arg", "_axis")

    def __init__(self, arg, axis, written=None):
        # The argument's name (None for a value computed in the function)
        # and the axis; the index as the code wrote it (-1), for messages.
        self._arg, self._axis = arg, axis
        index = axis if written is None else written
        self.what = (f"{arg}.shape[{index}]" if arg else
                     f"shape[{index}] of a traced Tensor")

    def __repr__(self):
        return f"<fuse.SymbolicSize {self.what}>"

    def _refuse(self, *args, **kwargs):
        self._refuse_as("")

    def _refuse_as_int(self, *args, **kwargs):
        # np.zeros(x.shape), np.ones(x.shape[-1]), range(x.shape[0]).
        self._refuse_as(
            "; an array of a size (np.zeros(x.shape), np.ones(x.shape[-1])) cannot be made "
            "either: write a Python number, which broadcasts (x + 1.0 for x + "
            "np.ones(x.shape[-1])), or x * 0 for zeros of x's shape and dtype (x * 0 + 1 for "
            "ones; NaN where x is NaN or inf)")

    def _refuse_as(self, note):
        error = TypeError(
            f"fuse: {self.what}{_place()} is a symbolic size, not a number: the program "
            f"traced from the function is compiled once and reused for every size, so a size "
            f"has no value while tracing; pass the size as an argument instead (f(x, "
            f"x.shape[0]) outside the function: a Python int argument is a run-time value, "
            f"so a new size still reuses the program), or let broadcasting stretch a size of "
            f"1{note}")
        # numpy's np.ones(size) says its own words for the TypeError that
        # __index__ raises (and names the size by its repr): trace_function
        # says these instead.
        graph = _current_graph()
        if graph is not None:
            graph.refused_size = error
        raise error

    __hash__ = object.__hash__
    __int__ = __index__ = _refuse_as_int
    __float__ = __complex__ = __bool__ = _refuse
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __truediv__ = __rtruediv__ = __floordiv__ = __rfloordiv__ = _refuse
    __mod__ = __rmod__ = __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = _refuse
    __array_ufunc__ = _refuse


def _graph_of(operands, what):
    graph = None
    for op in operands:
        if isinstance(op, Tensor):
            if graph is None:
                graph = op._graph
            elif op._graph is not graph:
                raise ValueError(f"fuse: {what}: Tensors of two different traces")
    if graph is None:
        if _current_graph() is not None:
            raise TypeError(f"fuse: {what} of Python numbers alone: fuse ops compute on "
                            f"Tensors; compute the value in Python or numpy "
                            f"(np.float32(1.0) for a cast), or use the number with a Tensor "
                            f"(x + 1.0), which promotes it")
        raise TypeError(f"fuse: {what} needs at least one fuse Tensor operand "
                        f"(call it inside a function traced by fuse.jit)")
    if _current_graph() is not graph:
        raise ValueError(f"fuse: {what}: a Tensor used outside the trace that made it")
    return graph


def _check_operand(value, what):
    if isinstance(value, Tensor) or value is None:
        return value
    if isinstance(value, SymbolicSize):
        value._refuse()
    if _is_scalar(value):
        graph = _current_graph()
        if graph is not None and type(value) not in (bool, int, float):
            # A numpy scalar or 0-d array that the traced code holds (a
            # global, a closure's): a 0-d constant of its own dtype, as it
            # is passed as an argument (it was a Python scalar's, float32
            # where the argument gives float64).
            # One of a dtype fuse does not have (np.uint8(200)) is refused,
            # as the same value passed as an argument is (it was taken as
            # the Python int).
            kind = ("a numpy scalar" if isinstance(value, np.generic) else
                    "a 0-d numpy array")
            dtype = _dtypes.from_numpy(
                np.asarray(value).dtype,
                f"{what}{_place()}: {kind}, {_scalar_value(value)!r}, that the traced "
                f"function holds (a global, a closure's or an attribute's),")
            return graph.constant(_scalar_value(value), dtype)
        return _scalar_value(value)
    if isinstance(value, np.ndarray):
        if _current_graph() is None:
            raise TypeError(f"fuse: {what} takes fuse Tensors, not a numpy array: call it "
                            f"inside a function that fuse.jit compiles, with the arrays as "
                            f"that function's arguments")
        raise TypeError(f"fuse: {what}{_place()}: a numpy array of shape {value.shape} inside a "
                        f"traced function (a global, a closure's or an attribute's); pass "
                        f"arrays as arguments of the jitted function")
    if _is_torch(value) and _current_graph() is not None:
        raise TypeError(f"fuse: {what}{_place()}: a PyTorch tensor of shape "
                        f"{tuple(value.shape)} inside a traced function; pass tensors as "
                        f"arguments of the jitted function")
    raise TypeError(f"fuse: {what}: unsupported operand {type(value).__name__} {value!r}")


def _as(graph, value, dtype):
    """`value` (Tensor or scalar) as a Tensor of `dtype`. An int64 scalar
    that an op takes as int32 (a 0-d array promotes as a Python scalar,
    within its kind to the tensor's type) must fit it, as a Python int must:
    a constant is checked now, an argument (a Python int, a numpy scalar or
    0-d array) when the program is called."""
    if isinstance(value, Tensor):
        if dtype == "i32" and value._shape == () and (value.weak or value.dtype_name == "i64"):
            if value._node is None:
                graph.int32_args.add(graph.arg_index(value))
            elif value._node.op == "constant" and value.dtype_name == "i64":
                number = int(value._node.extra)
                low, high = _INT_RANGE["i32"]
                if not low <= number <= high:
                    raise OverflowError(
                        f"fuse: the int64 scalar {number}{_place()} does not fit int32, the "
                        f"type it takes here (a 0-d array or numpy scalar takes the tensor's "
                        f"type, as PyTorch's 0-d tensors do, and is checked as a Python int "
                        f"is): make the tensor wider first (x.astype(np.int64))")
        return graph.cast(value, dtype)
    return graph.constant(value, dtype)


def _promote(operands):
    """(dtype, weak) of an op on `operands`. When they are all weak (Python
    scalars and weak Tensors, at least one Tensor) the op computes in the
    dtype that holds their values (f64, i64, i1), as Python would, and its
    result is weak too; otherwise PyTorch's promotion (result_type)."""
    present = [op for op in operands if op is not None]
    if any(isinstance(op, Tensor) and op.weak for op in present) and all(
            not isinstance(op, Tensor) or op.weak for op in present):
        return _dtypes.weak_carrier(present), True
    return _dtypes.result_type(present), False


# The half types, which compute in float32.
_HALF = ("f16", "bf16")

_OP_NAMES = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**",
             "max": "fuse.maximum", "min": "fuse.minimum"}
# numpy's arithmetic of two bool arrays, as logic: _logical's kind of each op.
_BOOL_ARITHMETIC = {"mul": "and", "add": "or", "max": "or", "min": "and"}


def _binary(op, a, b):
    what = _OP_NAMES.get(op, op)
    a, b = _check_operand(a, what), _check_operand(b, what)
    graph = _graph_of([a, b], what)
    dtype, weak = _promote([a, b])
    if op == "div" and _dtypes.category(dtype) != FLOAT:
        # True division, as in numpy and PyTorch: integers divide as floats.
        dtype = "f64" if weak else "f32"
    if op == "div" and weak:
        _divisor(graph, b, "/")
    if dtype == "i1" and weak and op in ("add", "sub", "mul", "pow"):
        # Python bools alone compute as Python's, in int: True + True is 2.
        dtype = "i64"
    if dtype == "i1" and not weak:
        # numpy's arithmetic of bool arrays: * and minimum are and, + and
        # maximum or (a select); - has no meaning there.
        if op in _BOOL_ARITHMETIC:
            return _logical(_BOOL_ARITHMETIC[op], a, b)
        if op == "sub":
            raise TypeError("fuse: - on bool tensors is not supported, as in numpy: use ^ "
                            "(np.logical_xor) for where two masks differ, ~ (np.logical_not) "
                            "for 1 - mask, or cast one operand to an integer type first")
    if dtype == "i1":
        raise TypeError(f"fuse: {what} on bool tensors is not supported: fuse's arithmetic "
                        f"takes numbers; cast one operand to an integer type first")
    if (op == "pow" and _dtypes.category(dtype) == _dtypes.INT and not isinstance(b, Tensor)
            and not isinstance(b, float) and b < 0):
        if weak:
            # Python ints alone (n ** -1 of an int argument n): a float, as
            # in Python, which computes float(n) ** -1.0.
            dtype = "f64"
        else:
            # As numpy and PyTorch refuse it; a tensor exponent's negative
            # elements are PyTorch's (docs/dialect.md).
            raise ValueError(negative_power_message(b, _place()))
    if (op == "pow" and _dtypes.category(dtype) == _dtypes.INT and isinstance(b, Tensor)
            and b.weak and b._node is None and b._shape == ()):
        index = graph.arg_index(b)
        if index is not None:
            # Where, and whether the base is a Python scalar too (n ** m,
            # whose message is Python's reason, not numpy's).
            graph.int_exponent_args.setdefault(index, (_place(), weak))
    # A scalar meets a float16 or bfloat16 tensor as PyTorch's kernels take
    # it: in float32, not rounded to the tensor's type first (x * 1e5 is not
    # x * inf), the result rounded once to that type; the same as the op in
    # the tensor's type (computed in float32) when the scalar is a constant
    # that type holds exactly (x * 0.5). So does a 0-d tensor of another
    # type (a numpy scalar argument, np.float64(1e5)), whose value PyTorch's
    # kernels take as it is too (original_scalar_value).
    compute = _half_compute_type(dtype, weak, a, b)
    a, b = _as(graph, a, compute), _as(graph, b, compute)
    shape = broadcast_shapes([a._shape, b._shape], what)
    result = graph.add(op, [a, b], compute, shape, weak=weak)
    return graph.cast(result, dtype)


def _half_compute_type(dtype, weak, a, b):
    """The type `dtype` operands `a` and `b` meet in: float32 for a float16
    or bfloat16 tensor and a scalar that the type does not hold (or a 0-d
    tensor of another type), as _binary says; else `dtype`."""
    if dtype in _HALF and not weak and any(
            (_is_weak(v) and not _holds(dtype, v))
            or (isinstance(v, Tensor) and v._shape == () and v.dtype_name != dtype)
            for v in (a, b)):
        return "f32"
    return dtype


def negative_power_message(exponent, place=""):
    """The error for an integer raised to the negative Python int
    `exponent`: numpy and PyTorch refuse it, written in the function or
    passed as an argument (`place`: where its ** is)."""
    return (f"fuse: an integer to the negative power {exponent}{place} is not an integer "
            f"(numpy and PyTorch refuse it too): raise a float, x.astype(np.float32) ** "
            f"{exponent}, or write the float exponent {float(exponent)}")


def scalar_power_message(exponent, argument, function, place=""):
    """The error for `n ** m` of Python ints alone where the exponent `m`,
    the Python int argument named `argument` of `function`, is the negative
    `exponent`: a float in Python, and an int here."""
    return (f"fuse: argument {argument!r} of {function} is {exponent}, the exponent of "
            f"**{place} on Python ints alone: in Python an int to a negative int power is "
            f"a float (2 ** -1 is 0.5), but {argument!r} is a run-time argument, whose sign "
            f"is not known when the function is traced, so the power was traced as an "
            f"int; pass a float ({float(exponent)}), or name {argument!r} in "
            f"fuse.jit(static_argnames=...) to make it a constant of the trace")


def _python_int(x):
    """The weak Tensor `x` (a Python scalar argument, or a value computed
    from them alone) as a Python int: a bool is 0 or 1 in int64, a float
    truncated toward zero (as int() of one; saturating, NaN 0, as fuse.cast
    converts, where Python raises)."""
    return x if x.dtype_name == "i64" else x._graph.add("cast", [x], "i64", x._shape, weak=True)


def _divisor(graph, b, symbol):
    """Registers `b`, the divisor of an op on Python scalars alone, when it
    is a scalar argument: a zero raises ZeroDivisionError when the program
    is called, as Python raises it. (A divisor computed from arguments has
    no value until the program runs, which then gives the op's result for
    0: inf or NaN for /, 0 for // and %.)"""
    if isinstance(b, Tensor) and b.weak and b._node is None:
        index = graph.arg_index(b)
        if index is not None:
            graph.divisor_args.setdefault(index, (_place(), symbol))


def _floor_divmod(symbol, a, b, what=None):
    """a // b, a % b or divmod(a, b) (`symbol`; `what` names it in errors,
    np.floor_divide's and np.remainder's) of integers: numpy's and
    Python's floor division, and the remainder with the divisor's sign,
    exact, from the dialect's div, which truncates toward zero (and gives 0
    for x / 0): q = a / b and r = a - q * b, less one and plus b where r is
    nonzero and its sign is not b's. A zero divisor gives 0 for both, as
    numpy's (which also warns); INT_MIN // -1 wraps to INT_MIN, as numpy's.
    Python bools alone compute as ints, as Python's."""
    what = what or symbol
    a, b = _check_operand(a, what), _check_operand(b, what)
    graph = _graph_of([a, b], what)
    dtype, weak = _promote([a, b])
    if dtype == "i1" and weak:
        dtype = "i64"  # Python's True // True is 1
    if dtype == "i1":
        raise TypeError(f"fuse: {what} on bool tensors is not supported: fuse's arithmetic "
                        f"takes numbers; cast one operand to an integer type first")
    if _dtypes.is_float(dtype):
        _unsupported(f"{what} of floats",
                     "fuse has no float remainder, from which numpy's float floor "
                     "division and % are exact; fuse.floor(a / b) is a // b where a / b "
                     "does not round up to an integer, and a - fuse.floor(a / b) * b is "
                     "a % b only up to rounding (or cast integer operands to an integer "
                     "type: // and % of integers are exact)")
    if weak:
        _divisor(graph, b, symbol)
    a, b = _as(graph, a, dtype), _as(graph, b, dtype)
    shape = broadcast_shapes([a._shape, b._shape], what)
    quotient = graph.add("div", [a, b], dtype, shape, weak=weak)
    rest = a - quotient * b
    zero = graph.constant(0, dtype)
    # The remainder's sign is not the divisor's: r < 0 < b or b < 0 < r (a
    # zero divisor never: r is then a, and 0 is neither).
    off = where(_compare("lt", rest, zero), _compare("gt", b, zero),
                _logical("and", _compare("gt", rest, zero), _compare("lt", b, zero)))
    floored = where(off, quotient - 1, quotient)
    remainder = where(_compare("eq", b, zero), zero, where(off, rest + b, rest))
    if symbol == "//":
        return floored
    if symbol == "%":
        return remainder
    return floored, remainder


def _is_weak(value):
    """Whether `value` is a Python scalar (a constant) or a weak Tensor (a
    scalar argument, a 0-d array)."""
    return not isinstance(value, Tensor) or value.weak


def _holds(dtype, value):
    """Whether `value`, a Python scalar (not a Tensor: a value known now),
    is exactly a value of `dtype`, f16 or bf16."""
    if isinstance(value, Tensor):
        return False
    with np.errstate(over="ignore"):
        x = np.float32(value)
    if float(x) != float(value) and not np.isnan(x):
        return False
    if dtype == "f16":
        with np.errstate(over="ignore"):
            return bool(np.float16(x) == x) or bool(np.isnan(x))
    # bf16 is the top 16 bits of an f32.
    return x.view(np.uint32) & 0xFFFF == 0 or bool(np.isnan(x))


# A comparison with its operands swapped: a < b is b > a.
_SWAPPED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def _compare(pred, a, b):
    what = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}[pred]
    a, b = _check_operand(a, what), _check_operand(b, what)
    graph = _graph_of([a, b], what)
    dtype, weak = _promote([a, b])
    if isinstance(a, Tensor) != isinstance(b, Tensor) and dtype in _INT_RANGE:
        # A Python int past the integer type's range (x < 2**40 of int32)
        # has an answer, as in numpy and PyTorch: the same for every
        # element, which the type's extreme value on that side gives.
        tensor, number, p = (a, b, pred) if isinstance(a, Tensor) else (b, a, _SWAPPED[pred])
        low, high = _INT_RANGE[dtype]
        if not isinstance(number, bool) and isinstance(number, int) and \
                not low <= number <= high:
            above = number > high
            # Every element is below (above) it: <, <= and != hold
            # (>, >= and != when above), which x <= high (x >= low) says.
            holds = p in (("lt", "le", "ne") if above else ("gt", "ge", "ne"))
            edge = high if above else low
            p = {(True, True): "le", (True, False): "gt",
                 (False, True): "ge", (False, False): "lt"}[(above, holds)]
            a, b, pred = tensor, edge, p
    # A float16 or bfloat16 tensor compared with a scalar (a Python one, a
    # scalar argument, a 0-d array) compares with the scalar rounded to the
    # tensor's type, as numpy's (NEP 50's weak scalars, and numpy 1.x's
    # value-based casting) and PyTorch's comparisons: x == 0.1 is True for
    # the float16 0.09998 and x == 2049 for 2048. Arithmetic takes the
    # scalar in float32 and rounds its result once (_half_compute_type); a
    # comparison's result is a bool, with nothing to round (in float32,
    # x < 0.1 was True for the float16 0.09998, and x == 0.1 False).
    a, b = _as(graph, a, dtype), _as(graph, b, dtype)
    shape = broadcast_shapes([a._shape, b._shape], what)
    return graph.add("cmp", [a, b], "i1", shape, extra=pred, weak=weak)


def _logical(kind, a, b):
    what = {"and": "&", "or": "|", "not": "~", "xor": "^"}[kind]
    a, b = _check_operand(a, what), _check_operand(b, what)
    _graph_of([a, b], what)
    for v in (a, b):
        if (isinstance(v, Tensor) and v.dtype_name != "i1") or (
                v is not None and not isinstance(v, (Tensor, bool))):
            _not_masks(kind, what, a, b)
    if kind == "not":
        return _compare("eq", a, False)
    if kind == "xor":
        return _compare("ne", a, b)
    # a & b = b where a else false; a | b = true where a else b.
    if kind == "and":
        return where(a, b, False)
    return where(a, True, b)


def _operand_words(v):
    """`v`, an operand, in an error's words: `a float32 Tensor`, `int 1`."""
    if isinstance(v, Tensor):
        if v.weak:
            kind = {"i1": "bool", "i64": "int"}.get(v.dtype_name, "float")
            return f"a Python {kind} (a scalar argument)"
        name = str(_dtypes.public(v.dtype_name))
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name} Tensor"
    return f"{type(v).__name__} {v!r}"


def _not_masks(kind, what, a, b):
    """TypeError for &, |, ^ or ~ (`what`) of `a` and `b`, not both masks.
    Next to a comparison it is most often Python's precedence: & binds
    tighter than >, so `x > 1 & x < 4` is `x > (1 & x) < 4`."""
    operands = [v for v in (a, b) if v is not None]
    shown = " and ".join(_operand_words(v) for v in operands)
    integers = any((isinstance(v, Tensor) and v.dtype_name in ("i32", "i64"))
                   or (isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)))
                   for v in operands)
    # Arrays of integers alone are bitwise ops, which fuse has not; a float,
    # or a number, a scalar argument or a mask beside another Tensor, is a
    # comparison's operand that the operator took first. (~ of a float.)
    arrays = [v for v in operands if isinstance(v, Tensor) and not v.weak]
    floats = any(isinstance(v, Tensor) and _dtypes.is_float(v.dtype_name) for v in operands)
    precedence = floats or (kind != "not" and (
        len(arrays) < 2 or any(v.dtype_name == "i1" for v in arrays)))
    message = (f"fuse: {what} is supported on bool tensors (masks) only, and{_place()} it "
               f"has {shown}")
    if integers and not floats:
        message += " (fuse has no bitwise ops on integers)"
    if precedence:
        if kind == "not":
            message += ("; in Python `~` binds tighter than comparisons, so `~x > 1` is "
                        "`(~x) > 1`: write `~(x > 1)`")
        else:
            low, high = ("<", ">") if kind == "or" else (">", "<")
            message += (f"; in Python `{what}` binds tighter than comparisons, so "
                        f"`x {low} 1 {what} x {high} 4` is `x {low} (1 {what} x) {high} 4`: "
                        f"write `(x {low} 1) {what} (x {high} 4)`, with parentheses")
    raise TypeError(message)


def _numpy_logical(kind, a, b):
    """numpy's logical_and, _or, _xor and _not: operands of any type, a
    nonzero number (NaN too) true, as numpy's; bools as they are."""
    what = f"np.logical_{kind}"

    def truth(v):
        if v is None:
            return None
        v = _check_operand(v, what)
        return _truth(v) if isinstance(v, Tensor) else bool(v)
    return _logical(kind, truth(a), truth(b))


_FLOAT_UNARY = ("exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "tanh", "sigmoid", "silu",
                "sin", "cos", "erf", "reciprocal", "hardswish", "gelu", "leaky_relu")
_NUMERIC_UNARY = ("neg", "abs", "relu", "floor", "ceil", "clamp")


def _unary(op, x, attrs=""):
    what = {"neg": "unary -", "abs": "abs()"}.get(op, f"fuse.{op}")
    x = _check_operand(x, what)
    graph = _graph_of([x], what)
    dtype = x.dtype_name
    if op in _FLOAT_UNARY and _dtypes.category(dtype) != FLOAT:
        # As torch.exp(int tensor): computed in the default float type (in
        # float64 for a Python int, as Python computes it).
        dtype = "f64" if x.weak else "f32"
        x = graph.cast(x, dtype)
    if dtype == "i1" and x.weak:
        # A Python bool is an int to Python's arithmetic: -True is -1.
        x = _python_int(x)
        dtype = x.dtype_name
    if dtype == "i1":
        raise TypeError(f"fuse: {what} of a bool tensor is not supported: fuse's {op} takes "
                        f"numbers; cast it to an integer or float type first")
    if op in ("floor", "ceil") and _dtypes.category(dtype) != FLOAT:
        return x  # integers are unchanged (as in PyTorch)
    return graph.add(op, [x], dtype, x._shape, attrs=attrs, weak=x.weak)


# The functions of the fuse package.

def relu(x): return _unary("relu", x)
def exp(x): return _unary("exp", x)
def log(x): return _unary("log", x)
def expm1(x): return _unary("expm1", x)
def log1p(x): return _unary("log1p", x)
def sqrt(x): return _unary("sqrt", x)
def rsqrt(x): return _unary("rsqrt", x)
def tanh(x): return _unary("tanh", x)
def sigmoid(x): return _unary("sigmoid", x)
def silu(x): return _unary("silu", x)
def sin(x): return _unary("sin", x)
def cos(x): return _unary("cos", x)
def erf(x): return _unary("erf", x)
def floor(x): return _unary("floor", x)
def ceil(x): return _unary("ceil", x)
def neg(x): return _unary("neg", x)
def reciprocal(x): return _unary("reciprocal", x)
def hardswish(x): return _unary("hardswish", x)


def abs(x):  # noqa: A001 - the name of the op
    return _unary("abs", x)


def gelu(x, approximate="none"):
    """GELU, exact (`approximate="none"`) or its tanh approximation."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"fuse: gelu's approximate must be 'none' or 'tanh', got {approximate!r}")
    return _unary("gelu", x, "" if approximate == "none" else ' {approximate = "tanh"}')


def leaky_relu(x, negative_slope=0.01):
    """x where x > 0, else negative_slope * x (PyTorch's: a negative slope
    gives -0 for +0); a Tensor slope (such as a scalar argument of a jitted
    function) is computed as such."""
    x = _check_operand(x, "fuse.leaky_relu")
    if isinstance(negative_slope, Tensor):
        return where(x > 0, x, x * negative_slope)
    # f64 for f64; else f32, as PyTorch's kernels take the slope of an f16
    # or bf16 tensor (the attribute's type is the slope's value).
    dtype = "f64" if isinstance(x, Tensor) and x.dtype_name == "f64" else "f32"
    alpha = scalar_literal(negative_slope, dtype, attribute=True)
    return _unary("leaky_relu", x, f" {{alpha = {alpha} : {dtype}}}")


def maximum(a, b): return _binary("max", a, b)
def minimum(a, b): return _binary("min", a, b)
def add(a, b): return _binary("add", a, b)
def sub(a, b): return _binary("sub", a, b)
def mul(a, b): return _binary("mul", a, b)
def div(a, b): return _binary("div", a, b)
def pow(a, b): return _binary("pow", a, b)  # noqa: A001


_FLOAT_ONLY = " Integers and bools compute in float32 (as torch does)."
_BINARY = (" `a` and `b` are Tensors or numbers; they broadcast as numpy's arrays and "
           "promote as PyTorch's (python/README.md, \"Promotion\").")
for _fn, _doc in {
    relu: "max(x, 0), elementwise.",
    exp: "e**x, elementwise." + _FLOAT_ONLY,
    log: "The natural logarithm, elementwise (-inf at 0, NaN below)." + _FLOAT_ONLY,
    sqrt: "The square root, elementwise (NaN below 0)." + _FLOAT_ONLY,
    rsqrt: "1 / sqrt(x), elementwise." + _FLOAT_ONLY,
    tanh: "The hyperbolic tangent, elementwise." + _FLOAT_ONLY,
    sigmoid: "1 / (1 + exp(-x)), elementwise." + _FLOAT_ONLY,
    silu: "x * sigmoid(x), elementwise." + _FLOAT_ONLY,
    sin: "The sine, elementwise." + _FLOAT_ONLY,
    cos: "The cosine, elementwise." + _FLOAT_ONLY,
    erf: "The error function, elementwise." + _FLOAT_ONLY,
    floor: "The largest integer not above x, elementwise; integers are unchanged.",
    ceil: "The smallest integer not below x, elementwise; integers are unchanged.",
    neg: "-x, elementwise (integers wrap: -INT_MIN is INT_MIN).",
    abs: "|x|, elementwise (integers wrap: abs(INT_MIN) is INT_MIN).",
    reciprocal: "1 / x, elementwise." + _FLOAT_ONLY,
    hardswish: "x * relu6(x + 3) / 6, elementwise (torch's hardswish)." + _FLOAT_ONLY,
    maximum: "The larger of a and b, elementwise; NaN if either is NaN." + _BINARY,
    minimum: "The smaller of a and b, elementwise; NaN if either is NaN." + _BINARY,
    add: "a + b, elementwise (integers wrap; two bools: or, as numpy)." + _BINARY,
    sub: "a - b, elementwise (integers wrap; not of two bools, as numpy)." + _BINARY,
    mul: "a * b, elementwise (integers wrap; two bools: and, as numpy)." + _BINARY,
    div: ("a / b, elementwise: true division, as Python's `/` and torch.div; two "
          "integer operands divide in float32 (the dialect's fuse.div of integers, "
          "which truncates, is not what this writes)." + _BINARY),
    pow: ("a ** b, elementwise (integers: exact, wrapping; a negative Tensor exponent of "
          "an integer base gives 0 unless the base is 1 or -1, and a negative Python int, "
          "written or passed as an argument, is refused, as numpy and PyTorch refuse "
          "it)." + _BINARY),
    expm1: "e**x - 1, elementwise, accurate near 0 (numpy's expm1)." + _FLOAT_ONLY,
    log1p: "log(1 + x), elementwise, accurate near 0 (numpy's log1p)." + _FLOAT_ONLY,
}.items():
    _fn.__doc__ = _doc


def where(cond, a, b):
    """`a` where `cond`, else `b` (all three broadcast; `cond` is converted
    to bool as `cond != 0` when it is not one)."""
    cond = _check_operand(cond, "fuse.where")
    a, b = _check_operand(a, "fuse.where"), _check_operand(b, "fuse.where")
    graph = _graph_of([cond, a, b], "fuse.where")
    dtype, weak = _promote([a, b])
    if weak and not (isinstance(cond, Tensor) and cond.weak):
        dtype, weak = _dtypes.result_type([a, b]), False
    cond = _as(graph, cond, "i1")
    a, b = _as(graph, a, dtype), _as(graph, b, dtype)
    shape = broadcast_shapes([cond._shape, a._shape, b._shape], "fuse.where")
    return graph.add("select", [cond, a, b], dtype, shape, weak=weak)


def clamp(x, min=None, max=None):  # noqa: A002 - torch's names
    """min(max(x, min), max); `min` and `max` are numbers, Tensors or None."""
    if min is None and max is None:
        raise ValueError("fuse: clamp needs min, max or both")
    x = _check_operand(x, "fuse.clamp")
    # A numpy scalar or 0-d array bound that the function holds is a 0-d
    # constant Tensor of its dtype here, as a 0-d array argument is a Tensor:
    # both take the route of Tensor bounds, and promote as np.maximum's.
    lo, hi = _check_operand(min, "fuse.clamp"), _check_operand(max, "fuse.clamp")
    if isinstance(lo, Tensor) or isinstance(hi, Tensor):
        if lo is not None:
            x = maximum(x, lo)
        return x if hi is None else minimum(x, hi)
    graph = _graph_of([x], "fuse.clamp")
    dtype, weak = _promote([x, lo, hi])
    if dtype == "i1":
        raise TypeError("fuse: fuse.clamp of a bool tensor is not supported; cast it first")
    x = graph.cast(x, dtype)
    attrs = []
    # The bounds of an f16 or bf16 tensor in f32, as PyTorch's kernels take
    # them (the attribute's type is the bound's value), not rounded to the
    # tensor's type first: as fuse.maximum and minimum of the same numbers.
    bound = "f32" if dtype in ("f16", "bf16") else dtype
    # Attributes print in alphabetical order: max, then min.
    for key, value in (("max", hi), ("min", lo)):
        if value is not None:
            attrs.append(f"{key} = {scalar_literal(value, bound, attribute=True)} : {bound}")
    return graph.add("clamp", [x], dtype, x._shape, attrs=" {" + ", ".join(attrs) + "}",
                     weak=weak)


clip = clamp


def cast(x, dtype):
    """`x` converted to `dtype` (a numpy dtype, a type, a PyTorch dtype or a
    name such as 'float32', 'int64', 'bool' or 'bfloat16')."""
    name = _dtypes.parse(dtype)
    x = _check_operand(x, "fuse.cast")
    graph = _graph_of([x], "fuse.cast")
    return graph.cast(x, name)


# Reductions.

# PyTorch's names of the reductions' parameters, which fuse takes by numpy's
# names: x.sum(dim=-1, keepdim=True) is x.sum(axis=-1, keepdims=True).
_TORCH_PARAMETERS = {"dim": "axis", "keepdim": "keepdims"}


def _unexpected_argument(what, key, params, takes=None):
    """TypeError: `what`, which takes the keywords `params`, was given `key`;
    for PyTorch's dim= and keepdim=, which to write instead. `takes` says
    which of them fuse supports, where not all (numpy's reductions)."""
    numpy_name = _TORCH_PARAMETERS.get(key)
    if numpy_name in params:
        hint = (f": use {numpy_name}= (fuse follows numpy's names: axis= for PyTorch's dim=, "
                f"keepdims= for its keepdim=)")
    else:
        hint = (f": it takes no {numpy_name}= either (numpy's name, which fuse follows, for "
                f"PyTorch's {key}=)" if numpy_name else "")
        hint += (f"; it takes {takes}" if takes else
                 f"; its parameters are {_dtypes.listing(params)}")
    raise TypeError(f"fuse: {what} got an unexpected argument {key!r}{hint}")


def _numpy_parameters(fn):
    """`fn`, a fuse function of reductions, with its keywords checked: one
    it does not take raises fuse's TypeError, which names numpy's axis= and
    keepdims= for PyTorch's dim= and keepdim= (_unexpected_argument)."""
    params = tuple(inspect.signature(fn).parameters)
    what = f"fuse.{fn.__name__}"

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        # PyTorch's layer_norm(x, normalized_shape, weight, bias, eps) has
        # one more: Python's own error did not say fuse's parameters.
        if len(args) > len(params):
            raise TypeError(f"fuse: {what} takes at most {len(params)} arguments "
                            f"({_dtypes.listing(params)}), got {len(args)}")
        for key in kwargs:
            if key not in params:
                _unexpected_argument(what, key, params)
        return fn(*args, **kwargs)
    return checked


# numpy's AxisError (a ValueError and an IndexError), where numpy has it.
_AxisError = getattr(getattr(np, "exceptions", np), "AxisError", ValueError)


def _axis_index(a, what):
    """One axis as an int, as numpy takes it: an int, a numpy integer or a
    0-d integer array (not a bool); a traced Tensor says why it has none."""
    if isinstance(a, np.ndarray) and a.ndim == 0 and a.dtype.kind in "iu":
        return int(a)
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer, Tensor,
                                                              SymbolicSize)):
        raise TypeError(f"fuse: {what}: axis must be None, an int or a tuple of ints, "
                        f"got {type(a).__name__} {a!r}")
    return a.__index__()  # a Tensor or SymbolicSize says why it has no value


def _axes(x, axis, what):
    """numpy's `axis` of `x` (None: every axis; an int or a tuple of ints,
    negative ones counting from the end; numpy integers and 0-d integer
    arrays as ints) as a sorted tuple of dimensions."""
    rank = len(x._shape)
    if axis is None:
        return tuple(range(rank))
    if isinstance(axis, Tensor) and axis._is_array_argument():
        # A tuple of ints passed to a jitted function is numpy's array of
        # it, a run-time value, as an int is a scalar one.
        raise TypeError(
            f"fuse: argument {axis._arg!r} of {axis._graph.function} is an array (a tuple of "
            f"ints passed to a jitted function is read as numpy's array of it), which has no "
            f"value while tracing, so it cannot be {what}'s axis; name it in "
            f"fuse.jit(static_argnames=...) to make it a constant of the trace")
    if isinstance(axis, list):
        raise TypeError(f"fuse: {what}: axis must be None, an int or a tuple of ints, got "
                        f"list {axis!r} (numpy refuses a list too); write the tuple "
                        f"{tuple(axis)!r}")
    if not isinstance(axis, tuple):
        a = _axis_index(axis, what)
        # numpy takes axis 0 and -1 (not in a tuple) of a 0-d array, as None.
        if rank == 0 and a in (0, -1):
            return ()
        axis = a
    axes = []
    for a in (axis if isinstance(axis, tuple) else (axis,)):
        a = _axis_index(a, what)
        if not -rank <= a < rank:
            accepted = (f"axes are in [{-rank}, {rank})" if rank else
                        "a 0-d Tensor takes axis None or (), or 0 or -1 alone (not in a "
                        "tuple), as numpy's")
            raise _AxisError(f"fuse: {what}: axis {a} is out of bounds for a Tensor of rank "
                             f"{rank} ({accepted})")
        if a % rank in axes:
            raise ValueError(f"fuse: {what}: axis {a} is repeated in axis={axis!r} "
                             f"(rank {rank})")
        axes.append(a % rank)
    return tuple(sorted(axes))


def _reduce(op, x, axis, keepdims, identity_if_empty=False, what=None):
    """`op` over `axis`; `identity_if_empty` (max and min) gives an empty
    reduction its identity (-inf for max) where it is otherwise an error.
    `what` names it in errors (fuse.OP by default; x.any's is Tensor.any)."""
    what = what or f"fuse.{op}"
    x = _check_operand(x, what)
    graph = _graph_of([x], what)
    if isinstance(keepdims, Tensor):
        keepdims._no_value(f"be {what}'s keepdims", "pass True or False")
    # numpy takes its truth (keepdims=1), as an int's.
    if not isinstance(keepdims, (bool, int, np.bool_, np.integer)):
        raise TypeError(f"fuse: {what}: keepdims must be True or False, got "
                        f"{type(keepdims).__name__} {keepdims!r}")
    keepdims = bool(keepdims)
    dims = _axes(x, axis, what)
    if op in ("reduce_max", "reduce_min") and x.dtype_name == "i1":
        # numpy's max of bools is any, its min all, as bools (an empty one
        # is still an error): in int32, which the reduction takes.
        return graph.cast(_reduce(op, graph.cast(x, "i32"), axis, keepdims,
                                  identity_if_empty, what), "i1")
    if op == "reduce_sum" and x.dtype_name == "i1":
        x = graph.cast(x, "i64")  # a count, as numpy's and PyTorch's sums of bools
    elif op == "reduce_mean" and _dtypes.category(x.dtype_name) != FLOAT:
        # As the float-only functions, a float32 result; accumulated in
        # float64, exact for sums below 2^53, then rounded once.
        mean = _reduce(op, graph.cast(x, "f64"), dims, keepdims)
        return graph.cast(mean, "f32")
    if not dims:
        return x  # nothing to reduce (a 0-d Tensor, or axis=())
    shape = tuple(1 if i in dims else d for i, d in enumerate(x._shape)
                  if keepdims or i not in dims)
    identity = ", identity_if_empty" if identity_if_empty else ""
    return graph.add(op, [x], x.dtype_name, shape, weak=x.weak, extra=dims,
                     attrs=f" {{dims = array<i64: {', '.join(map(str, dims))}>{identity}}}")


def _reduce_or_initial(name, x, axis, keepdims, initial):
    """fuse.reduce_NAME (sum, max or min), with numpy's initial= when it is
    given (_with_initial)."""
    if initial is not None:
        return _with_initial(name, f"fuse.reduce_{name}", x, axis, keepdims, initial)
    return _reduce(f"reduce_{name}", x, axis, keepdims)


@_numpy_parameters
def reduce_sum(x, axis=None, keepdims=False, initial=None):
    """The sum over `axis` (numpy's: None for all axes, an int or a tuple of
    ints, negative ones counting from the end), with the reduced axes kept as
    size 1 when `keepdims`. The result has x's dtype: float16 and bfloat16
    accumulate in float32, integers wrap around; bools are counted (int64).
    An empty sum is 0. `initial` (numpy's, a number) is added to each sum."""
    return _reduce_or_initial("sum", x, axis, keepdims, initial)


@_numpy_parameters
def reduce_max(x, axis=None, keepdims=False, initial=None):
    """The largest element over `axis` (as reduce_sum's); NaN when one is NaN.
    Empty reductions are an error when the program runs, unless `initial`
    (numpy's, a number) is given: it takes part in each reduction, and an
    empty one gives it."""
    return _reduce_or_initial("max", x, axis, keepdims, initial)


@_numpy_parameters
def reduce_min(x, axis=None, keepdims=False, initial=None):
    """The smallest element over `axis` (as reduce_sum's); NaN when one is NaN.
    Empty reductions are an error when the program runs, unless `initial`
    (numpy's, a number) is given: it takes part in each reduction, and an
    empty one gives it."""
    return _reduce_or_initial("min", x, axis, keepdims, initial)


@_numpy_parameters
def reduce_mean(x, axis=None, keepdims=False):
    """The mean over `axis` (as reduce_sum's): the sum divided by the number of
    elements. Integers and bools give float32 (as the float-only functions;
    numpy gives float64), summed in float64 and rounded once. An empty mean
    is NaN."""
    return _reduce("reduce_mean", x, axis, keepdims)


def _in_wider_float(fn):
    """`fn` of Tensors (x first, then parameters), computed in float32 when x
    is float16 or bfloat16, as PyTorch computes these functions for half
    types (a row's sum of squares or of exps overflows float16 long before
    its result does), or in float64 when it is an integer or a bool, as
    numpy's var (integers near 2^30 that differ by little have no float32
    of their own, and x - mean(x) or x - max(x) would be 0). The result has
    the dtype of x (float32 for integers and bools) and of the Tensor
    parameters promoted, the wider winning: a float16 x's result is rounded
    back to float16 unless a parameter is wider."""

    @functools.wraps(fn)
    def composed(x, *args, **kwargs):
        x = _check_operand(x, f"fuse.{fn.__name__}")
        dtype = x.dtype_name
        if dtype not in _HALF and _dtypes.category(dtype) == FLOAT:
            return fn(x, *args, **kwargs)
        target = dtype if dtype in _HALF else "f32"
        for a in (*args, *kwargs.values()):
            if isinstance(a, Tensor) and not a.weak:
                target = _dtypes.promote(target, a.dtype_name)

        def widen(a, parameter=True):
            # A Python scalar parameter (ddof) promotes as it is (weak).
            if not isinstance(a, Tensor) or (parameter and a.weak) or (
                    _dtypes.category(a.dtype_name) == FLOAT and a.dtype_name not in _HALF):
                return a
            return cast(a, "float32" if a.dtype_name in _HALF else "float64")
        result = fn(widen(x, False), *map(widen, args), **{k: widen(v) for k, v in kwargs.items()})
        return result if result.dtype_name == target else cast(result, target)
    return composed


@_in_wider_float
def softplus(x, beta=1.0, threshold=20.0):
    """torch.nn.functional.softplus: log(1 + e^(beta x)) / beta, computed
    as log1p(exp(beta x)) / beta (log(1 + e^-20) is 0 in float32, log1p
    keeps its 2e-9), and x itself where beta x > threshold, PyTorch's
    linear region."""
    scaled = x * beta
    return where(scaled > threshold, x, log1p(exp(scaled)) / beta)


@_in_wider_float
def elu(x, alpha=1.0):
    """torch.nn.functional.elu: x where x > 0, else alpha (e^x - 1),
    computed as alpha expm1(x) (e^x - 1 cancels near 0)."""
    return where(x > 0, x, expm1(x) * alpha)


@_in_wider_float
def mish(x):
    """torch.nn.functional.mish: x tanh(softplus(x))."""
    return x * tanh(softplus(x))


@_in_wider_float
def selu(x):
    """torch.nn.functional.selu: scale elu(x, alpha) with Klambauer et
    al.'s constants, PyTorch's."""
    return elu(x, _SELU_ALPHA) * _SELU_SCALE


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@_in_wider_float
def logsigmoid(x):
    """torch.nn.functional.logsigmoid: log(1 / (1 + e^-x)), as PyTorch
    computes it, min(x, 0) - log1p(e^-|x|): log of sigmoid underflows to
    -inf below x = -88 in float32, and -softplus(-x) was x itself below -20
    (PyTorch's linear region of softplus), 2e5 ulp off in float64."""
    return minimum(x, 0.0) - log1p(exp(-_unary("abs", x)))


def _rounding_operand(x, what):
    """`x` for a rounding function named `what`: a Tensor of numbers, as
    fuse.floor takes (a bool tensor and Python numbers alone are refused
    as it refuses them)."""
    x = _check_operand(x, what)
    _graph_of([x], what)
    if x.dtype_name == "i1":
        raise TypeError(f"fuse: {what} of a bool tensor is not supported: it takes numbers; "
                        f"cast it to an integer or float type first")
    return x


def _rint(x, what):
    x = _rounding_operand(x, what)
    dtype = x.dtype_name
    if _dtypes.category(dtype) != FLOAT:
        return x
    if dtype in _HALF:
        return cast(_rint(cast(x, "float32"), what), dtype)
    whole = floor(x)
    part = x - whole
    half = whole * 0.5
    odd = _compare("ne", floor(half), half)
    up = _logical("or", _compare("gt", part, 0.5),
                  _logical("and", _compare("eq", part, 0.5), odd))
    rounded = where(up, whole + 1.0, whole)
    # A zero keeps x's sign, as numpy's: rint(-0.4) is -0.0.
    rounded = where(_compare("eq", rounded, 0.0), x * 0.0, rounded)
    big = 2.0 ** (52 if dtype == "f64" else 23)
    return where(_compare("ge", _unary("abs", x), big), x, rounded)


def rint(x):
    """Rounded to the nearest integer, halves to even (numpy's rint and
    round, PyTorch's round), elementwise; integers are unchanged (as
    PyTorch's; numpy's are float64), -0.4 is -0.0, NaN and infinities stay.
    Exact: floor(x) and x - floor(x) are exact below 2^23 (2^52 for
    float64), and every float from there up is an integer; float16 and
    bfloat16 round in float32, which holds them."""
    return _rint(x, "fuse.rint")


def _no_out(out, what):
    if out is not None:
        _unsupported(f"{what} with out=", "fuse's numpy functions return their result (out= "
                     "of the jitted function writes it into an array)")


def round(x, decimals=0, out=None):  # noqa: A001
    """numpy's round (np.round, np.around) and PyTorch's: rint, halves to
    even. Only `decimals=0`: numpy's other ones scale by a power of ten,
    which is not exact."""
    _no_out(out, "numpy.round")
    if decimals != 0:
        _unsupported(f"round with decimals={decimals!r}",
                     "fuse rounds to integers only (numpy's decimals scale by a power of "
                     "ten, which rounds itself): write fuse.rint(x * 10.0 ** d) / 10.0 ** d")
    return _rint(x, "fuse.round")


def trunc(x):
    """Rounded toward zero (numpy's trunc and fix, PyTorch's trunc),
    elementwise: ceil below 0, floor from 0; integers are unchanged."""
    x = _rounding_operand(x, "fuse.trunc")
    if _dtypes.category(x.dtype_name) != FLOAT:
        return x
    return where(_compare("lt", x, 0.0), ceil(x), floor(x))


def sign(x):
    """-1, 0 or 1 as x is below, at or above 0, in x's dtype (numpy's and
    PyTorch's sign): +0.0 for both zeros, NaN for NaN; a bool tensor is
    refused, as numpy refuses it."""
    x = _rounding_operand(x, "fuse.sign")
    # x - x is +0.0 for both zeros and NaN for NaN (inf is above or below);
    # an integer 0 is x itself.
    rest = x - x if _dtypes.category(x.dtype_name) == FLOAT else x
    return where(_compare("gt", x, 0), 1, where(_compare("lt", x, 0), -1, rest))


@_in_wider_float
def hardsigmoid(x):
    """torch.nn.functional.hardsigmoid: relu6(x + 3) / 6."""
    return clamp(x + 3.0, 0.0, 6.0) / 6.0


@_in_wider_float
def softsign(x):
    """torch.nn.functional.softsign: x / (1 + |x|)."""
    return x / (_unary("abs", x) + 1.0)


@_numpy_parameters
@_in_wider_float
def softmax(x, axis=-1):
    """exp(x - max) / sum(exp(x - max)) over `axis` (the last by default): a
    composition of reduce_max, sub, exp, reduce_sum and div, which fuses
    into one kernel. Over an empty axis the result is empty, as PyTorch's
    (its max, never read, is the identity: identity_if_empty)."""
    _axes(x, axis, "fuse.softmax")  # errors name the function called
    e = exp(x - _reduce("reduce_max", x, axis, True, identity_if_empty=True))
    return e / reduce_sum(e, axis, keepdims=True)


@_numpy_parameters
@_in_wider_float
def log_softmax(x, axis=-1):
    """x - max - log(sum(exp(x - max))) over `axis` (the last by default);
    empty over an empty axis, as softmax."""
    _axes(x, axis, "fuse.log_softmax")
    shifted = x - _reduce("reduce_max", x, axis, True, identity_if_empty=True)
    return shifted - log(reduce_sum(exp(shifted), axis, keepdims=True))


def _last_axis(x, what):
    """The norms' rows are x's last axis: a 0-d Tensor has none."""
    if not x._shape:
        raise _AxisError(f"fuse: {what} normalizes over the last axis, and a 0-d Tensor has "
                         f"none")


@_numpy_parameters
@_in_wider_float
def layer_norm(x, weight=None, bias=None, eps=1e-5):
    """torch.nn.functional.layer_norm over the last axis: (x - mean) *
    rsqrt(var + eps) * weight + bias, with the mean and the (biased)
    variance of each row; `weight` and `bias` (Tensors of one axis, of the
    last axis's size or 1, scalars, or None) broadcast; more axes are a
    ValueError when traced, another size one when the function is called
    (a SizeCheck).

    The distances from the mean are var's (_distances_from_the_mean): from
    the row's largest element, less their own mean. A row's rounded sum is
    off by ulps of its elements (many, for a long row: each lane's sum is
    sequential), and x - mean alone left a constant row of 33333.33 (768
    elements) with distances of an ulp and a result of +-0.97 where
    PyTorch's Welford mean gives 0; a constant row's distances are 0.
    Subtracting the square of their mean after squaring (Chan, Golub and
    LeVeque's correction) left rows of 1e5 values near 3e7 with a variance
    of 0 and results off by 1262. Three passes over each row, in one
    kernel."""
    _last_axis(x, "fuse.layer_norm")
    checks = [_norm_parameter(x, weight, "fuse.layer_norm", "weight"),
              _norm_parameter(x, bias, "fuse.layer_norm", "bias")]
    distance, factor = _distances_from_the_mean(x, -1)
    unhalved = distance * factor
    variance = reduce_mean(unhalved * unhalved, -1, keepdims=True)
    # The halved distance times twice the root, the same product, finite
    # where the unhalved distance overflowed. A halved distance is infinite
    # (+inf) only where the sum of the row's distances overflowed, and its
    # variance with it, whose root is 0: bounded by the largest finite
    # value, a row of finite elements whose squares or distances overflow
    # normalizes to +-0, as PyTorch's when its squares overflow, not to the
    # NaN of inf * 0 (the bound changes no finite distance; NaN stays).
    largest = float(np.finfo(np.float64 if x.dtype_name == "f64" else np.float32).max)
    y = minimum(distance, largest) * (factor * rsqrt(variance + eps))
    y = y if weight is None else y * weight
    return _checked(y if bias is None else y + bias, checks)


def _norm_parameter(x, value, what, name):
    """A norm's weight or bias: a Tensor, an array, a scalar or None; a
    tuple or list is PyTorch's normalized_shape, which fuse does not take.
    A Tensor has one axis at most (a ValueError now otherwise), of x's
    last axis's size, or 1: checked now where both sizes are static, else the SizeCheck to check when the program is
    called (None when there is none)."""
    if isinstance(value, (tuple, list)):
        raise TypeError(f"fuse: {what}: {name} is a Tensor of the last axis's size, a scalar "
                        f"or None, not {type(value).__name__} {value!r}; fuse normalizes over "
                        f"the last axis, with no normalized_shape argument (PyTorch's second)")
    if (isinstance(value, np.ndarray) or _is_torch(value)) and not _is_scalar(value):
        kind = "numpy array" if isinstance(value, np.ndarray) else "PyTorch tensor"
        raise TypeError(f"fuse: {what}{_place()}: {name} is a {kind} of shape "
                        f"{tuple(value.shape)} inside a traced function (a global, a "
                        f"closure's or an attribute's); pass it as an argument of the jitted "
                        f"function, where it is a Tensor")
    if isinstance(value, Tensor) and len(value._shape) > 1:
        # It would broadcast against x's other axes too (a weight of x's
        # shape was applied per element): PyTorch's weight has the shape of
        # normalized_shape, x.shape[-1:] here.
        argument = "" if value._arg is None else f" (argument {value._arg!r})"
        raise ValueError(f"fuse: {what}{_place()}: {name}{argument} has "
                         f"{len(value._shape)} axes, but a weight or bias has one axis, of the size "
                         f"of x's last axis, which {what} normalizes over (or 1, which "
                         f"broadcasts), or is a scalar: PyTorch's normalized_shape is "
                         f"x.shape[-1:]")
    if not isinstance(value, Tensor) or not value._shape or value._shape[-1] == 1:
        return None  # None, a scalar, or a size of 1, which broadcasts
    rows, size = x._shape[-1], value._shape[-1]
    check = SizeCheck(what, name, x._graph, _size_source(x, -1) if rows is None else rows,
                      _size_source(value, -1) if size is None else size)
    if check.rows is None or check.size is None:
        return None  # a size the tracer cannot follow: the library checks it
    if rows is not None and size is not None:
        message = check.failure([])
        if message is not None:
            raise ValueError(message)
        return None
    return check


def _checked(result, checks):
    """`result`, a norm's, with its SizeChecks recorded for the program's
    call (when `result` is one of what it computes)."""
    result._graph.size_checks.extend((c, result) for c in checks if c is not None)
    return result


def _size_source(tensor, axis):
    """(argument index, dimension) whose size, when the program runs, is the
    dynamic size of `tensor`'s axis `axis` (negative: from the end); None
    when the tracer cannot tell. An op's `?` size is that of an operand with
    `?` there (fuse stretches only a static 1, so the library checks that
    such sizes are equal)."""
    while True:
        rank = len(tensor._shape)
        if -axis > rank or tensor._shape[axis] is not None:
            return None
        node = tensor._node
        if node is None:
            index = tensor._graph.arg_index(tensor)
            return None if index is None else (index, rank + axis)
        if node.op.startswith("reduce_"):
            operand = node.operands[0]
            if len(operand._shape) != rank:  # without keepdims: the kept axes
                kept = [i for i in range(len(operand._shape)) if i not in node.extra]
                axis = kept[rank + axis] - len(operand._shape)
            tensor = operand
            continue
        tensor = next((o for o in node.operands if -axis <= len(o._shape)
                       and o._shape[axis] is None), None)
        if tensor is None:
            return None


class SizeCheck:
    """That the last axis of a norm's weight or bias (`name`) has the size
    of x's last axis (`rows`), or 1: each size static (an int) or an
    argument's dynamic size ((argument index, dimension), _size_source),
    known when the program is called. Made where the norm is called (its
    place in the user's code, for the message)."""

    __slots__ = ("what", "name", "rows", "size", "args", "loc")

    def __init__(self, what, name, graph, rows, size):
        self.what, self.name, self.rows, self.size = what, name, rows, size
        self.args = [arg for arg, _ in graph.args]
        self.loc = _user_location()

    def _size(self, size, shapes):
        return size if isinstance(size, int) else shapes[size[0]][size[1]]

    def _where(self, size):
        if isinstance(size, int):
            return ""
        return f" (dimension {size[1]} of argument {self.args[size[0]]!r})"

    def failure(self, shapes):
        """The error's message when the input shapes `shapes` fail it, else
        None."""
        rows, size = self._size(self.rows, shapes), self._size(self.size, shapes)
        if size in (rows, 1):
            return None
        place = _place_of(self.loc)
        return (f"fuse: {self.what}{place}: {self.name} has size {size} on its last "
                f"axis{self._where(self.size)}, but x's last axis, which {self.what} "
                f"normalizes over, has size {rows}{self._where(self.rows)}; a weight or bias "
                f"has the size of x's last axis (or 1, which broadcasts): PyTorch's "
                f"normalized_shape is x.shape[-1:]")


# PyTorch's default eps of rms_norm: the machine epsilon of the type it
# computes in, float32 for float16 and bfloat16 (their own, 9.77e-4 and
# 0.0078, made a row of 0.01s 0.305 and 0.112 where PyTorch gives 1).
_EPSILON = {"f32": 2.0 ** -23, "f64": 2.0 ** -52}


@_numpy_parameters
def rms_norm(x, weight=None, eps=None):
    """x * rsqrt(mean(x * x) + eps) * weight, with the mean over the last axis
    (torch.nn.functional.rms_norm). eps None is PyTorch's default: the
    machine epsilon of the float type it computes in (1.19e-7 for float32,
    float16, bfloat16, integers and bools; 2.2e-16 for float64)."""
    x = _check_operand(x, "fuse.rms_norm")
    if eps is None:
        eps = _EPSILON.get(x.dtype_name, _EPSILON["f32"])
    return _rms_norm(x, weight, eps)


@_in_wider_float
def _rms_norm(x, weight, eps):
    _last_axis(x, "fuse.rms_norm")
    checks = [_norm_parameter(x, weight, "fuse.rms_norm", "weight")]
    y = x * rsqrt(reduce_mean(x * x, -1, keepdims=True) + eps)
    return _checked(y if weight is None else y * weight, checks)


# From this largest element on, a row's distances are taken halved: below
# it, x - max cannot overflow for a finite x (it rounds to infinity from
# half an ulp of the type's largest value on: 2**103 in float32, 2**970 in
# float64), and from 1 on halving is exact (see _distances_from_the_mean).
_HALVED_FROM = 2.0 ** 64


def _distances_from_the_mean(x, axis):
    """x minus its mean over `axis`, as var and layer_norm square them, as
    (distances, factor): the distances are those times `factor`, 1 or 2
    for each row. They are the distances from the largest element (0 for a
    constant row, exact for elements within a factor 2 of it), less their
    own mean. The mean of x itself, a long row's sum rounded many times
    (each lane's is sequential), was off by ulps of the elements: corrected
    by the mean of the distances, themselves summed inexactly, a constant
    row of 5e5 elements of 7000001 (in two rows) had a variance of 0.1 and
    rows of 1e6 near 1e8 one 12% off. The largest element of an empty row
    is -inf, and its mean NaN, as before.

    A row whose largest element is 2**64 or more is halved first (x * 0.5
    - max * 0.5, and the factor 2): a row of finite elements whose range
    is past the type's (float32's [3e38, -3e38]) had a distance of -inf
    from its largest element, a mean of the distances of -inf, and -inf -
    -inf made a variance of NaN where numpy's is inf. Halved, each
    distance from the largest element is finite, and so is their mean but
    where their sum overflows (then the mean is -inf and every distance
    +inf, whose square is inf: a variance of inf, as unhalved). With the
    largest element from 1 on, each halved value is the unhalved one's
    half exactly but where that overflowed (x * 0.5 of a subnormal x is
    not exact, but a largest element of 1 or more rounds that away): the
    distances times the factor are the unhalved ones bit for bit, and
    infinite where those overflowed. Below 2**64, the factor is 1 and the
    distances are as without it. A cmp and a mul more, no more passes over
    the row."""
    top = _reduce("reduce_max", x, axis, True, identity_if_empty=True)
    halved = cast(_compare("ge", top, _HALVED_FROM), x.dtype)  # 1 or 0 for each row
    scale = 1.0 - 0.5 * halved
    shifted = x * scale - top * scale
    return shifted - reduce_mean(shifted, axis, keepdims=True), 1.0 + halved


@_in_wider_float
def _variance(x, axis=None, keepdims=False, ddof=0, what="numpy.var"):
    """numpy's var: the mean of the squared distances from the mean; with
    `ddof`, their sum over max(count - ddof, 0), the count of the reduced
    elements counted when the program runs (sizes may be dynamic).

    The distances from the mean are those of _distances_from_the_mean:
    a float32 mean of a long row is off by many ulps of its elements (each
    lane's sum is sequential), and the squared distances carried that
    error squared. A constant row of 33333.33 (768 elements) had a
    variance of 1.4e-4 where PyTorch's is 0 (now 0), and rows of 1e5
    elements near 3e7 with variance 1.3 had one of 360; subtracting the
    square of the distances' mean afterwards (Chan, Golub and LeVeque's
    correction) gave 0 there, the difference of two sums rounded alike.
    One more pass over each row, in the same kernel."""
    if isinstance(ddof, Tensor):
        ddof._no_value(f"be {what}'s ddof", "pass a number")
    # numpy takes any real number (ddof=True is 1, ddof=0.5 a half).
    if not isinstance(ddof, (bool, int, float, np.bool_, np.integer, np.floating)):
        raise TypeError(f"fuse: {what}: ddof must be a number, got {type(ddof).__name__} "
                        f"{ddof!r}")
    _axes(x, axis, what)  # errors name the function called
    distance, factor = _distances_from_the_mean(x, axis)
    centered = distance * factor
    squares = centered * centered
    if ddof == 0:
        return reduce_mean(squares, axis, keepdims)
    # True at every element (NaN too): its sum is the count, in int64.
    everywhere = _logical("or", _compare("eq", x, x), _compare("ne", x, x))
    count = cast(reduce_sum(everywhere, axis, keepdims), x.dtype)
    return reduce_sum(squares, axis, keepdims) / maximum(count - float(ddof), 0.0)


@_in_wider_float
def _deviation(x, axis=None, keepdims=False, ddof=0, what="numpy.std"):
    """sqrt(var), the root taken in float32 for half types (their variance
    may overflow them where the deviation does not)."""
    return sqrt(_variance(x, axis, keepdims, ddof, what))


def _truth(x):
    """x as a mask: x itself for bools, x != 0 for numbers (NaN is true)."""
    return x if x.dtype_name == "i1" else _compare("ne", x, 0)


def _numpy_any(x, axis=None, keepdims=False, what="numpy.any"):
    """Whether any element is true (nonzero): the max of the truths as int32
    (a count in int64 took twice as long), whose empty value, the smallest
    int32, is False. Errors name `what` (Tensor.any or numpy.any), not the
    reduce_max it is made of."""
    truths = cast(_truth(_check_operand(x, what)), "i32")
    return _compare("gt", _reduce("reduce_max", truths, axis, keepdims, True, what), 0)


def _numpy_all(x, axis=None, keepdims=False, what="numpy.all"):
    """Whether every element is true (nonzero): the min of the truths as
    int32, whose empty value, the largest int32, is True."""
    truths = cast(_truth(_check_operand(x, what)), "i32")
    return _compare("ne", _reduce("reduce_min", truths, axis, keepdims, True, what), 0)


_REDUCTIONS = {"sum": reduce_sum, "max": reduce_max, "min": reduce_min, "mean": reduce_mean,
               "var": _variance, "std": _deviation, "any": _numpy_any, "all": _numpy_all}
# numpy's parameters of each reduction after the array, in its order.
_NUMPY_PARAMS = {"sum": ("axis", "dtype", "out", "keepdims", "initial", "where"),
                 "max": ("axis", "out", "keepdims", "initial", "where"),
                 "min": ("axis", "out", "keepdims", "initial", "where"),
                 "mean": ("axis", "dtype", "out", "keepdims", "where"),
                 "var": ("axis", "dtype", "out", "ddof", "keepdims", "where"),
                 "std": ("axis", "dtype", "out", "ddof", "keepdims", "where"),
                 "any": ("axis", "out", "keepdims", "where"),
                 "all": ("axis", "out", "keepdims", "where")}


def _numpy_reduction(name, what, x, args, kwargs):
    """numpy's reduction `name` (np.sum(x, ...) or x.sum(...)) with numpy's
    arguments: axis, keepdims and initial (sum, max, min); dtype=None,
    out=None and where=True (numpy's defaults) are accepted, any other
    value of theirs is refused."""
    params = _NUMPY_PARAMS[name]
    variance = "ddof" in params
    takes = ("axis=, keepdims= and ddof=" if variance else
             "axis=, keepdims= and initial=" if "initial" in params else
             "axis= and keepdims=")
    if len(args) > len(params):
        raise TypeError(f"fuse: {what} takes at most {len(params)} arguments after the "
                        f"array ({', '.join(params)}), got {len(args)}")
    if len(args) > 1 and isinstance(args[1], (bool, np.bool_)):
        # PyTorch's x.sum(dim, keepdim) and x.var(dim, unbiased): numpy's
        # parameter there is dtype or out.
        torch_name, keyword, value = (("unbiased", "ddof", int(args[1])) if variance else
                                      ("keepdim", "keepdims", bool(args[1])))
        raise TypeError(f"fuse: {what} got {args[1]!r} after the axis, where numpy's "
                        f"parameter is {params[1]} (its parameters after the array are "
                        f"{_dtypes.listing(params)}), not PyTorch's {torch_name}: give "
                        f"{keyword} by keyword ({keyword}={value})")
    given = dict(zip(params, args))
    for key, value in kwargs.items():
        if key not in params:
            _unexpected_argument(what, key, params,
                                 f"{takes} (numpy's {_dtypes.listing(params)}, with dtype= "
                                 f"and out= only None, where= only True)")
        if key in given:
            raise TypeError(f"fuse: {what} got two values for {key!r}")
        given[key] = value
    refused = [k for k, v in given.items()
               if k not in ("axis", "keepdims", "ddof", "initial")
               and not (k in ("dtype", "out") and v is None)
               and not (k == "where" and _is_true(v))]
    if refused:
        _unsupported(f"{what} with {_dtypes.listing(f'{k}=' for k in refused)}",
                     f"fuse's reductions take {takes} only (dtype= and out= None, where= "
                     f"True: numpy's defaults); the result has the array's dtype "
                     f"(float32 for a mean, var or std of integers or bools; cast before or "
                     f"after with fuse.cast or .astype)")
    options = ({"ddof": given.get("ddof", 0), "what": what} if variance else
               {"what": what} if name in ("any", "all") else {})
    axis, keepdims = given.get("axis"), given.get("keepdims", False)
    if given.get("initial") is not None:
        return _with_initial(name, what, x, axis, keepdims, given["initial"])
    return _REDUCTIONS[name](x, axis, keepdims, **options)


def _is_true(value):
    """Whether `value` is numpy's default where=True: True, numpy's True,
    or a 0-d bool array of True (a no-op)."""
    return (value is True or isinstance(value, np.bool_) and bool(value)
            or isinstance(value, np.ndarray) and value.shape == () and value.dtype == bool
            and bool(value))


def _with_initial(name, what, x, axis, keepdims, initial):
    """numpy's `initial=` of sum, max and min: the reduction of the
    elements and `initial` (a number, in x's dtype): sum + initial,
    maximum(max, initial) with an empty max the identity (identity_if_empty),
    so that an empty axis gives `initial`, as numpy's."""
    x = _check_operand(x, what)
    if isinstance(initial, Tensor) and initial._scalar_arguments():
        # A Python scalar argument (or a value of them alone) says so,
        # naming it and static_argnames, as axis= and ddof= do.
        initial._no_value(f"be {what}'s initial", "pass a number")
    if isinstance(initial, Tensor) or not _is_scalar(initial):
        raise TypeError(f"fuse: {what}: initial must be a number, got "
                        f"{type(initial).__name__} {initial!r}")
    if x.dtype_name == "i1" and name == "sum":
        # numpy counts bools in int64 (its default int), initial converted
        # to it as to an int64 array's.
        x = cast(x, "i64")
    elif x.dtype_name == "i1":
        # numpy converts initial to a bool (its truth, NaN's too): max is
        # any(x) or initial, min all(x) and initial, an empty one initial;
        # in int32, which the reduction takes, as the max of bools alone.
        op = "reduce_max" if name == "max" else "reduce_min"
        extreme = _reduce(op, cast(x, "i32"), axis, keepdims, identity_if_empty=True,
                          what=what)
        truth = 1 if _scalar_value(initial) else 0
        return cast((maximum if name == "max" else minimum)(extreme, truth), "i1")
    if x.dtype_name in _INT_RANGE:
        # numpy converts initial to the array's integer type first (a float
        # truncated toward zero, as astype), and reduces exactly in that
        # type; it was promoted with the result, which went through float32.
        initial = _integer_initial(what, x, initial)
    if name == "sum" and x.dtype_name in ("f16", "bf16"):
        # In the float32 of the sum, rounded once with it, as the sum alone
        # is (the sum rounded to float16 first overflowed where the total
        # does not, and rounded twice): initial in x's dtype, as numpy's.
        start = cast(_graph_of([x], what).constant(initial, x.dtype_name), "f32")
        return cast(reduce_sum(cast(x, "f32"), axis, keepdims) + start, x.dtype_name)
    if name == "sum":
        total = reduce_sum(x, axis, keepdims) + initial
    else:
        op = "reduce_max" if name == "max" else "reduce_min"
        extreme = _reduce(op, x, axis, keepdims, identity_if_empty=True)
        total = (maximum if name == "max" else minimum)(extreme, initial)
    return total if total.dtype_name == x.dtype_name else cast(total, x.dtype_name)


def _integer_initial(what, x, initial):
    """numpy's initial= for the integer Tensor `x`: a 0-d constant of x's
    dtype, with the value numpy converts it to (a float truncated toward
    zero); a value that the type does not hold is an error (numpy wraps an
    int, with a DeprecationWarning, and refuses NaN and a float past int64)."""
    value = _scalar_value(initial)
    name = _dtypes.to_numpy(x.dtype_name).name
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError(f"fuse: {what}{_place()}: initial={initial!r} is NaN, which "
                             f"the {name} array cannot hold (numpy raises ValueError too); "
                             f"give an integer, or cast the array to a float type first")
        whole = math.trunc(value) if math.isfinite(value) else None
    else:
        whole = int(value)
    low, high = _INT_RANGE[x.dtype_name]
    if whole is None or not low <= whole <= high:
        wider = (": make the array wider first (x.astype(np.int64)), or cast it to a float "
                 "type" if x.dtype_name == "i32" else ": cast the array to a float type first")
        numpy = "" if isinstance(value, float) else " (numpy wraps an int there)"
        raise OverflowError(f"fuse: {what}{_place()}: initial={initial!r} does not fit "
                            f"{name}, the array's dtype, in which numpy's initial= is "
                            f"taken{numpy}{wider}")
    return _graph_of([x], what).constant(whole, x.dtype_name)


def _numpy_function(name):
    return lambda a, *args, **kwargs: _numpy_reduction(name, f"numpy.{name}", a, args, kwargs)


_UFUNCS = {
    "add": add, "subtract": sub, "multiply": mul, "true_divide": div, "divide": div,
    "power": pow, "negative": neg, "positive": lambda x: x, "absolute": abs,
    # Of integers (np.mod is remainder too).
    "floor_divide": lambda a, b: _floor_divmod("//", a, b, "numpy.floor_divide"),
    "remainder": lambda a, b: _floor_divmod("%", a, b, "numpy.remainder"),
    "exp": exp, "log": log, "expm1": expm1, "log1p": log1p, "sqrt": sqrt, "tanh": tanh,
    "sin": sin, "cos": cos,
    "floor": floor, "ceil": ceil, "rint": rint, "trunc": trunc, "sign": sign,
    "reciprocal": reciprocal,
    "maximum": maximum, "minimum": minimum,
    "less": lambda a, b: _compare("lt", a, b), "less_equal": lambda a, b: _compare("le", a, b),
    "greater": lambda a, b: _compare("gt", a, b),
    "greater_equal": lambda a, b: _compare("ge", a, b),
    "equal": lambda a, b: _compare("eq", a, b), "not_equal": lambda a, b: _compare("ne", a, b),
    "logical_and": lambda a, b: _numpy_logical("and", a, b),
    "logical_or": lambda a, b: _numpy_logical("or", a, b),
    "logical_xor": lambda a, b: _numpy_logical("xor", a, b),
    "logical_not": lambda a: _numpy_logical("not", a, None),
    # On bool tensors only, as & | ~.
    "bitwise_and": lambda a, b: _logical("and", a, b),
    "bitwise_or": lambda a, b: _logical("or", a, b),
    "bitwise_xor": lambda a, b: _logical("xor", a, b),
    "invert": lambda a: _logical("not", a, None),
    "square": lambda x: mul(x, x),
    # Exact tests: NaN is the only value unequal to itself; integers and
    # bools are finite.
    "isnan": lambda x: _compare("ne", x, x),
    "isinf": lambda x: (_compare("eq", abs(x), math.inf)
                        if _dtypes.category(x.dtype_name) == FLOAT else _compare("ne", x, x)),
    "isfinite": lambda x: (_compare("lt", abs(x), math.inf)
                           if _dtypes.category(x.dtype_name) == FLOAT
                           else _compare("eq", x, x)),
    # A float base: integers compute in float32, as the float-only functions.
    "exp2": lambda x: pow(2.0, x),
}
def _numpy_where(condition, *choices, **kwargs):
    if len(choices) != 2 or kwargs:
        _unsupported("numpy.where without both choices (the indices where it is true)",
                     "a traced Tensor's shape does not depend on its values; use "
                     "np.where(cond, a, b), a choice per element")
    return where(condition, *choices)


_ARRAY_FUNCTIONS = {
    "where": _numpy_where,
    "clip": lambda a, a_min=None, a_max=None: clamp(a, a_min, a_max),
    # numpy 1.x's np.round is round_ inside.
    "round": round, "round_": round, "around": round,
    "fix": lambda x, out=None: (_no_out(out, "numpy.fix"), trunc(x))[1],
    # numpy 1.x names np.max and np.min amax and amin; numpy 2 has both.
    **{numpy_name: _numpy_function(name) for numpy_name, name in (
        ("sum", "sum"), ("max", "max"), ("amax", "max"), ("min", "min"), ("amin", "min"),
        ("mean", "mean"), ("var", "var"), ("std", "std"), ("any", "any"), ("all", "all"))},
}
_NUMPY_NAMES = sorted(_UFUNCS) + sorted(n for n in _ARRAY_FUNCTIONS if n != "round_")
_SUPPORTED_NUMPY = (f"fuse has no such op; the numpy functions it supports on Tensors are "
                    f"{_dtypes.listing(_NUMPY_NAMES)}, besides the fuse functions (fuse.exp, "
                    f"fuse.where, ...) and Python's operators")
# What to write for some numpy functions that fuse has not, said before
# the list of those it has (x the Tensor).
_NUMPY_ALTERNATIVES = {
    "zeros_like": "x * 0, zeros of x's shape and dtype (NaN where x is NaN or inf), or a "
                  "Python 0.0, which broadcasts",
    "ones_like": "x * 0 + 1, ones of x's shape and dtype (NaN where x is NaN or inf), or a "
                 "Python 1.0, which broadcasts",
    "full_like": "x * 0 + v, v in x's shape and dtype (NaN where x is NaN or inf), or the "
                 "Python number v, which broadcasts",
    "empty_like": "x * 0, an array of x's shape and dtype (NaN where x is NaN or inf), or a "
                  "Python number, which broadcasts",
    "tan": "np.sin(x) / np.cos(x)",
    "log2": "np.log(x) / np.log(2)",
    "log10": "np.log(x) / np.log(10)",
    "copy": "x itself (a traced Tensor is a value, with nothing to copy)",
}


def _unsupported_numpy(what, name):
    """TypeError for numpy's function `what` (numpy.tan), named `name`,
    that fuse has not, called on a traced Tensor."""
    instead = _NUMPY_ALTERNATIVES.get(name)
    _unsupported(f"{what} on a traced Tensor{_place()}",
                 (f"use {instead}; " if instead else "") + _SUPPORTED_NUMPY)


_TENSOR_METHODS = [n for n in dir(Tensor)
                   if not n.startswith("_") and callable(getattr(Tensor, n))]
_TENSOR_ATTRIBUTES = [n for n in dir(Tensor)
                      if not n.startswith("_") and n not in _TENSOR_METHODS]

_SAME = ("x itself (a traced Tensor is a value of the program, with nothing to copy, detach "
         "or move; the program runs where its arguments are)")
_NO_VALUES = ("nothing: a traced Tensor has no values while tracing; return x from the "
              "function, whose results are arrays")
# PyTorch's Tensor methods that fuse's Tensor, which follows numpy, writes
# another way: what to write for each (x the Tensor), as the error for it
# says first (Tensor.__getattr__). An in-place method (x.exp_()) is its
# name without the `_`, assigned (_pytorch_alternative).
_PYTORCH_METHODS = {
    "pow": "x ** y (x ** 2 for x.pow(2); fuse.pow(x, y))",
    "float": "x.astype(np.float32)",
    "half": "x.astype(np.float16)",
    "double": "x.astype(np.float64)",
    "bfloat16": 'x.astype("bfloat16")',
    "int": "x.astype(np.int32)",
    "long": "x.astype(np.int64)",
    "bool": "x.astype(bool)",
    "to": ("x.astype(dtype) for x.to(dtype) (a traced Tensor has no device: the program "
           "runs where its arguments are)"),
    "type_as": "x.astype(y.dtype)",
    "dim": "x.ndim",
    "ndimension": "x.ndim",
    "numel": ("x.mean() for x.sum() / x.numel() (a dynamic size is symbolic: pass a count "
              "as an argument)"),
    "add": "x + y", "sub": "x - y", "subtract": "x - y", "mul": "x * y", "multiply": "x * y",
    "div": "x / y", "divide": "x / y", "true_divide": "x / y",
    "neg": "-x", "negative": "-x", "square": "x * x",
    "eq": "x == y", "ne": "x != y", "lt": "x < y", "le": "x <= y", "gt": "x > y",
    "ge": "x >= y",
    "logical_and": "x & y", "logical_or": "x | y", "logical_xor": "x ^ y", "logical_not": "~x",
    "maximum": "fuse.maximum(x, y)", "minimum": "fuse.minimum(x, y)",
    "clamp_min": "x.clamp(min=v) (fuse.maximum(x, v))",
    "clamp_max": "x.clamp(max=v) (fuse.minimum(x, v))",
    "masked_fill": "fuse.where(mask, value, x)",
    "amax": "x.max(axis)", "amin": "x.min(axis)",
    **{n: f"fuse.{n}(x)" for n in ("expm1", "log1p", "rsqrt", "silu", "sin", "cos", "erf",
                                     "floor", "ceil", "reciprocal", "hardswish", "gelu",
                                     "leaky_relu")},
    "softmax": "fuse.softmax(x, axis)", "log_softmax": "fuse.log_softmax(x, axis)",
    **{n: _SAME for n in ("contiguous", "clone", "detach", "cpu", "cuda")},
    **{n: _NO_VALUES for n in ("item", "tolist", "numpy")},
}

# numpy's array methods (PyTorch's too) that fuse's Tensor writes another
# way: what to write for each, as the error for it says first.
_ARRAY_METHODS = {
    "round": ("fuse.rint(x) (np.rint(x) and np.round(x) too: to nearest, halves to even, as "
              "numpy's and PyTorch's)"),
    "copy": _SAME,
}


# What to write for PyTorch's functions whose names are the Tensor's own
# methods or numpy's functions (torch.sum(x): x.sum(axis)); the others are
# _PYTORCH_METHODS' (torch.exp(x): fuse.exp(x)).
_PYTORCH_FUNCTIONS = {
    **{n: f"x.{n}(axis) (PyTorch's dim is numpy's axis)" for n in ("sum", "mean", "any", "all")},
    "max": "x.max(axis) (fuse.maximum(x, y) for two Tensors)",
    "min": "x.min(axis) (fuse.minimum(x, y) for two Tensors)",
    **{n: (f"x.{n}(axis, ddof=1) (PyTorch's {n} is unbiased by default, numpy's and fuse's "
           f"take ddof=0)") for n in ("var", "std")},
    **{n: f"np.{n}(x)" for n in ("isnan", "isinf", "isfinite")},
}


def _is_torch(value):
    """Whether `value` is one of PyTorch's objects (a torch.Tensor), without
    importing torch."""
    return type(value).__module__.split(".")[0] == "torch"


def _torch_function_refused(func, args):
    """TypeError for PyTorch's `func` called with a traced Tensor among
    `args` (Tensor.__torch_function__): what to write instead."""
    name = getattr(func, "__name__", "") or repr(func)
    if any(_is_torch(arg) for arg in args):
        raise TypeError("fuse: a PyTorch tensor inside a traced function; pass tensors as "
                        "arguments of the jitted function")
    module = getattr(func, "__module__", None) or "torch"
    # Where PyTorch's users call them from, not where they are defined.
    module = ("torch.nn.functional" if module.startswith("torch._C._nn") else
              "torch" if module.startswith("torch._C") else module)
    fuse_functions = sys.modules[__package__].__all__
    # torch.special.erf's name is special_erf.
    if name.startswith("special_"):
        name, module = name.removeprefix("special_"), "torch.special"
    if name in _PYTORCH_FUNCTIONS or name in _PYTORCH_METHODS:
        instead = f"use {_PYTORCH_FUNCTIONS.get(name) or _PYTORCH_METHODS[name]}"
    elif name in fuse_functions and callable(globals().get(name)):
        instead = f"use fuse.{name}"
    else:
        instead = _SUPPORTED_NUMPY
    _unsupported(f"{module}.{name} on a traced Tensor",
                 f"a traced Tensor is fuse's, not PyTorch's, and PyTorch's functions do not "
                 f"take it; {instead}")


def _pytorch_alternative(name):
    """What to write for PyTorch's Tensor method or numpy's array method
    `name`, as the start of Tensor.__getattr__'s error ('' for a name their
    tables have not)."""
    if name == "size":
        # numpy's attribute and PyTorch's method.
        return ("x.size, numpy's count of elements, has no value while tracing (a "
                "dynamic size is symbolic): use x.mean() for x.sum() / x.size, or pass a "
                "count as an argument; x.shape[i] for PyTorch's x.size(i); ")
    if name in _PYTORCH_METHODS:
        return f"fuse's Tensor follows numpy, not PyTorch: use {_PYTORCH_METHODS[name]}; "
    if name in _ARRAY_METHODS:
        return f"use {_ARRAY_METHODS[name]}; "
    if name.endswith("_"):
        base = name[:-1]
        alternative = _PYTORCH_METHODS.get(base) or (
            f"x.{base}()" if base in _TENSOR_METHODS else None)
        assign = f": write x = {alternative}" if alternative else ""
        return (f"PyTorch's x.{name}() changes x in place, and a traced Tensor is not "
                f"changed{assign}; ")
    return ""


# Tracing a function.

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def symbol_name(name):
    name = re.sub(r"[^A-Za-z0-9_]", "_", name).strip("_") or "fn"
    return name if _NAME.match(name) else f"fn_{name}"


def ssa_names(names):
    """The names in the MLIR text of arguments named `names` (as the
    function names them; None for a leaf that is no argument), each unique.
    A name that MLIR can spell is itself; another, or a repeated one, is
    made of its letters, digits and _ (xs[0] of *xs is xs0), or is arg{i}
    (α, the i-th leaf), with _1, _2, ... after it until no other argument
    has it: any name that MLIR can spell keeps it (f(arg1, α)'s α took
    arg1, "region entry argument '%arg1' is already in use")."""
    spelled = {name for name in names if name and _NAME.fullmatch(name)}
    used, result = set(), []
    for i, name in enumerate(names):
        if name is None:
            result.append(None)
            continue
        # (fullmatch: _NAME's $ matches before a final newline, a key of
        # **kwargs may have.)
        if _NAME.fullmatch(name) and name not in used:
            ssa = name
        else:
            base = re.sub(r"[^A-Za-z0-9_]", "", name)
            base = base if _NAME.fullmatch(base) else f"arg{i}"
            ssa, count = base, 0
            while ssa in spelled or ssa in used:
                count += 1
                ssa = f"{base}_{count}"
        used.add(ssa)
        result.append(ssa)
    return result


class Trace:
    """A traced function: its text (`mlir`), the same with the Python source
    locations of its ops (`located_mlir`, what is compiled), how the results
    come back (`single`: one array, not a tuple), its inputs' names, the
    dtype of each input that is a Python scalar (`scalar_inputs`: index ->
    fuse dtype; the caller converts the value to it from its carrier dtype)
    and the int scalar inputs that ops use as i32 (`int32_inputs`: their
    values must fit it), and the SizeChecks that its inputs' shapes must pass
    (`size_checks`, check_sizes); the int scalar inputs that are an integer
    power's exponent (`int_exponent_inputs`: index -> (where, whether the
    base is a Python scalar too)), which must not be negative; the scalar inputs that divide Python scalars alone
    (`divisor_inputs`: index -> (where, operator)), which must not be 0."""

    def __init__(self, mlir, located_mlir, name, single, input_names, scalar_inputs=None,
                 int32_inputs=(), int_exponent_inputs=None, size_checks=(),
                 elementwise=False, divisor_inputs=None):
        self.mlir = mlir
        self.located_mlir = located_mlir
        self.name = name
        self.single = single
        self.input_names = tuple(input_names)
        self.scalar_inputs = dict(scalar_inputs or {})
        self.int32_inputs = frozenset(int32_inputs)
        self.int_exponent_inputs = dict(int_exponent_inputs or {})
        self.divisor_inputs = dict(divisor_inputs or {})
        self.size_checks = tuple(size_checks)
        # Whether every op is elementwise (no reduction), so that the
        # program computes f(x).T from x.T (_Jitted._in_memory_order).
        self.elementwise = elementwise


def trace_function(fn, name, leaves, rebuild):
    """Traces `fn(*args, **kwargs)` where rebuild(values) gives args and
    kwargs from one value per leaf. A leaf is ('tensor', arg_name, dtype,
    shape), ('scalar', arg_name, dtype): a Python scalar as a run-time 0-d
    argument of its carrier dtype, promoted as a Python scalar, or ('const',
    value): a constant of the trace. arg_name is the argument's name as the
    function names it (α, xs[0] of *xs), which messages say; the MLIR text
    names it as ssa_names does."""
    graph = Graph(symbol_name(name), name)
    values = []
    # Messages name each argument as the function does (α, xs[0]); the
    # MLIR text by a name it can spell, unique.
    names = [(leaf[1] or f"arg{i}") if leaf[0] in ("tensor", "scalar") else None
             for i, leaf in enumerate(leaves)]
    # (Not `name`, the function's, which messages below say.)
    for leaf, arg_name, ssa_name in zip(leaves, names, ssa_names(names)):
        if leaf[0] == "tensor":
            values.append(graph.add_arg(arg_name, leaf[2], leaf[3], ssa_name=ssa_name))
        elif leaf[0] == "scalar":
            values.append(graph.add_arg(arg_name, leaf[2], (), weak=True, ssa_name=ssa_name))
        else:
            values.append(leaf[1])
    previous = _current_graph()
    _state.graph = graph
    try:
        args, kwargs = rebuild(values)
        out = fn(*args, **kwargs)
    except TypeError as error:
        # numpy's np.ones(x.shape[-1]) replaces the TypeError of the size's
        # __index__ with its own ("expected a sequence of integers or a
        # single integer, got '<fuse.SymbolicSize x.shape[-1]>'").
        refused = graph.refused_size
        if (refused is not None and refused is not error and "<fuse.SymbolicSize " in str(error)
                and not str(error).startswith("fuse: ")):
            raise refused.with_traceback(error.__traceback__) from None
        raise
    finally:
        _state.graph = previous
    single = not isinstance(out, (tuple, list))
    results = [out] if single else list(out)
    if not results:
        raise TypeError(f"fuse: {name} returns no Tensor; a traced function returns one "
                        f"Tensor or a tuple of them")
    for i, r in enumerate(results):
        if not isinstance(r, Tensor) or r._graph is not graph:
            raise TypeError(f"fuse: {name} returns {type(r).__name__} {r!r} as result {i}; "
                            f"a traced function returns Tensors computed from its arguments")
    results = graph.fold_scalar_casts(results)
    live = Graph._live(results)
    return Trace(graph.emit(results), graph.emit(results, locations=True), graph.name, single,
                 [name for name, _ in graph.args],
                 {i: t.dtype_name for i, (_, t) in enumerate(graph.args) if t.weak},
                 graph.int32_args, graph.int_exponent_args,
                 [check for check, tensor in graph.size_checks if id(tensor) in live],
                 not any(node.op.startswith("reduce_") for node in graph.nodes),
                 graph.divisor_args)


def check_sizes(trace, arrays):
    """ValueError when the shapes of `arrays`, the inputs of `trace` (numpy
    arrays or DeviceInputs), fail one of its SizeChecks."""
    shapes = [a.shape for a in arrays]
    for check in trace.size_checks:
        message = check.failure(shapes)
        if message is not None:
            raise ValueError(message)
