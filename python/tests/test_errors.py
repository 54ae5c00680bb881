"""What goes wrong, and what the user is told: unsupported dtypes and ops
(TypeError saying which and why), arrays that need converting (handled),
bad programs and failed runs (FuseError with the library's message). GPU
arrays that fuse refuses are in test_device.py."""

import math
import re
import sys
import warnings

import numpy as np
import pytest

import fuse
from fuse import _capi
from conftest import assert_same, random_array


def add(a, b):
    return a + b


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "uint64", "complex64",
                                   "longdouble", "object", "U3", "datetime64[s]"])
def test_unsupported_argument_dtype(dtype):
    x = np.zeros(3, dtype)
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' has dtype .*which fuse does not "
                                        r"support; supported dtypes are float16, float32, "
                                        r"float64, int32, int64 and bool"):
        fuse.jit(add)(x, x)


def scale(x, s):
    return x * s


def test_complex_python_scalar_argument_is_named():
    # It was taken as a constant, and the first op on it said only
    # "*: unsupported operand complex (1+2j)".
    x = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: argument 1 \('s'\) of scale is a complex, "
                                        r"\(1\+2j\), and fuse has no complex dtype; "
                                        r"supported dtypes are float16, float32, float64, "
                                        r"int32, int64 and bool$"):
        fuse.jit(scale)(x, 1 + 2j)


@pytest.mark.parametrize("value", ["Fraction(1, 3)", "Decimal('0.5')"])
def test_other_numbers_are_refused_naming_the_argument(value):
    # They were constants of the trace, and the first op on them said only
    # "*: unsupported operand Fraction".
    from decimal import Decimal  # noqa: F401 (eval)
    from fractions import Fraction  # noqa: F401 (eval)
    x = np.ones(3, np.float32)
    with pytest.raises(TypeError, match=rf"^fuse: argument 1 \('s'\) of scale is a "
                                        rf"{value.split('(')[0]}, {re.escape(value)}, which fuse "
                                        rf"does not take .*; pass float\(x\), or name the "
                                        rf"parameter in static_argnames"):
        fuse.jit(scale, target="cpu")(x, eval(value))
    # A static one is a constant, which the function may convert.
    halve = fuse.jit(lambda x, s: x * float(s), target="cpu", static_argnames="s")
    assert_same(halve(x, s=eval(value)), x * np.float32(float(eval(value))))


def test_unsupported_dtype_is_named_as_numpy_writes_it():
    # A string array's dtype was named "str96" (its .name), which no one
    # writes.
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' has dtype <U3, which fuse does "
                                        r"not support"):
        fuse.jit(add)(np.zeros(2, "<U3"), np.zeros(2, "<U3"))


@pytest.mark.parametrize("dtype", [np.int8, "int8", np.dtype("int8")])
def test_unsupported_cast_target(dtype):
    x = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: int8 is not a fuse dtype; fuse's dtypes are "
                                        r"float16, bfloat16, float32, float64, int32, int64 "
                                        r"and bool$"):
        fuse.jit(lambda x: fuse.cast(x, dtype))(x)
    with pytest.raises(TypeError, match="'float17' is not a dtype"):
        fuse.jit(lambda x: fuse.cast(x, "float17"))(x)


def test_ops_of_python_numbers_alone_say_what_to_write():
    # Inside a trace, the hint to call it inside one was the wrong way.
    x = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: fuse\.cast of Python numbers alone: fuse ops "
                                        r"compute on Tensors; compute the value in Python or "
                                        r"numpy \(np\.float32\(1\.0\) for a cast\), or use "
                                        r"the number with a Tensor \(x \+ 1\.0\), which "
                                        r"promotes it$"):
        fuse.jit(lambda x: x + fuse.cast(1.0, "float32"))(x)
    with pytest.raises(TypeError, match=r"needs at least one fuse Tensor operand \(call it "
                                        r"inside a function traced by fuse\.jit\)"):
        fuse.cast(1.0, "float32")


def test_masked_arrays_are_refused():
    x = np.ma.masked_array([1.0, 2.0, 3.0], mask=[False, True, False])
    message = (r"^fuse: argument {} is a numpy masked array; fuse reads plain arrays only, "
               r"and would ignore its mask: pass x\.filled\(value\) to replace the masked "
               r"elements, or x\.data to use them as they are$")
    # A jitted function's argument by its parameter, a Program's by position.
    with pytest.raises(TypeError, match=message.format("'b'")):
        fuse.jit(add)(x.data, x)
    program = fuse.compile("func.func @f(%a: tensor<?xf64>, %b: tensor<?xf64>) -> tensor<?xf64> {"
                           "\n  %0 = fuse.add %a, %b : tensor<?xf64>\n  return %0 : tensor<?xf64>"
                           "\n}\n", target="cpu")
    with pytest.raises(TypeError, match=message.format(1)):
        program(x.data, x)


def test_matrices_are_refused():
    # np.matrix's * is the matrix product: a jitted a * b computed it
    # elementwise, without a word.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(TypeError, match=r"^fuse: argument 'b' is an np\.matrix, whose \* is "
                                        r"the matrix product; fuse computes elementwise on "
                                        r"plain arrays: pass np\.asarray\(m\)$"):
        fuse.jit(lambda a, b: a * b)(np.asarray(m), m)


def test_bfloat16_result():
    x = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match="bfloat16, which numpy cannot hold"):
        fuse.jit(lambda x: fuse.cast(x, "bfloat16"))(x)


@pytest.mark.parametrize("make", [
    lambda x: x[::2],                              # strided
    lambda x: x.reshape(6, 4).T,                   # transposed
    lambda x: np.asfortranarray(x.reshape(6, 4)),  # Fortran order
    lambda x: x[1:],                               # offset by one element
    lambda x: x.astype(">f4"),                     # big-endian
], ids=["strided", "transposed", "fortran", "offset", "big-endian"])
def test_arrays_are_converted(make, rng):
    x = make(random_array(rng, "float32", (24,)))
    y = make(random_array(rng, "float32", (24,)))
    got = fuse.jit(add)(x, y)
    assert_same(got, (x + y).astype(np.float32))
    # In numpy's layout: Fortran order of Fortran arrays (read in place,
    # f(x.T).T), else C order.
    want = x + y
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (
        want.flags.c_contiguous, want.flags.f_contiguous)


@pytest.mark.parametrize("shape", [(600, 700), (513, 1025)])
@pytest.mark.parametrize("dtype", ["float16", "float64", "bool"])
def test_a_large_transposed_matrix_is_copied_whole(shape, dtype, rng):
    # A reduction's Fortran-order matrix is copied into C order in tiles
    # (numpy's copy went down its columns, a page apart): every element, at
    # sizes that are not multiples of the tile.
    x = random_array(rng, dtype, shape[::-1]).T
    got = fuse.jit(lambda a: a.max(0), target="cpu")(x)
    assert_same(got, x.max(0))
    from fuse import _arguments
    copy = _arguments.c_order(x)
    assert copy.flags.c_contiguous and np.array_equal(copy, x)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int32", "int64", "bool"])
@pytest.mark.parametrize("offset", [1, 2, 3])
def test_views_at_an_offset(dtype, offset, rng):
    # Contiguous, but not 16-byte aligned: the library reads host arrays in
    # place, and its kernels assume aligned data, so these are copied.
    x = random_array(rng, dtype, (offset + 37,))[offset:]
    y = random_array(rng, dtype, (offset + 37,))[offset:]
    f = fuse.jit(lambda a, b: fuse.where(a, b, a) if a.dtype == np.bool_ else a * b,
                 target="cpu")
    assert_same(f(x, y), np.where(x, y, x) if dtype == "bool" else x * y)


@pytest.mark.parametrize("fn,match", [
    # Of integers they are exact (test_ops); of floats they are refused.
    (lambda a, b: a // 2.0, r"^fuse: // of floats is not supported: fuse has no float "
                            r"remainder"),
    (lambda a, b: a * 1.0 % b, r"^fuse: % of floats is not supported: .* \(or cast integer "
                               r"operands to an integer type: // and % of integers are exact\)$"),
    (lambda a, b: a @ b, "matrix product"),
    (lambda a, b: a if a > b else b, "fuse.where"),
    (lambda a, b: a[0], "indexed"),
    (lambda a, b: np.prod(a), r"numpy\.prod on a traced Tensor at \S+ is not supported"),
    (lambda a, b: (a & b), "bool tensors"),
    (lambda a, b: 3, r"^fuse: <lambda> returns int 3"),
    (lambda a, b: None, r"^fuse: <lambda> returns NoneType"),
    (lambda a, b: (), r"^fuse: <lambda> returns no Tensor"),
    (lambda a, b: a + np.ones(3), "pass arrays as arguments"),
    (lambda a, b: a + "x", "unsupported operand str"),
    (lambda a, b: divmod(a, 0.5), r"^fuse: divmod\(\) of floats is not supported: fuse has "
                                  r"no float remainder"),
    (lambda a, b: np.remainder(2.5, b), r"^fuse: numpy\.remainder of floats is not supported"),
    (lambda a, b: round(a, 2), r"^fuse: round with decimals=2 is not supported: fuse rounds "
                               r"to integers only"),
    (lambda a, b: np.where(a > b), r"^fuse: numpy\.where without both choices \(the indices "
                                   r"where it is true\) is not supported: .* use "
                                   r"np\.where\(cond, a, b\)"),
    (lambda a, b: np.round(a, 1), r"^fuse: round with decimals=1 is not supported"),
    # Python's own errors before (no "fuse:", no hint).
    (lambda a, b: a << 1, r"^fuse: << is not supported: fuse has no shift ops; x << n is "
                          r"x \* 2 \*\* n$"),
    (lambda a, b: 8 >> b, r"^fuse: >> is not supported: fuse has no shift ops; x >> n of "
                          r"integers is x // 2 \*\* n for n up to 30 \(62 for int64\), where 2 "
                          r"\*\* n fits$"),
    (lambda a, b: a.__setitem__(0, 1), r"^fuse: a traced Tensor cannot be assigned to "
                                       r"\(x\[i\] = v\): .* use fuse\.where\(mask, v, x\)"),
], ids=["floordiv", "mod", "matmul", "if", "index", "np.prod", "bitwise-and", "int-result",
        "none-result", "no-results", "captured-array", "str-operand", "divmod", "rdivmod",
        "round", "np.where-one", "np.round", "lshift", "rrshift", "setitem"])
def test_unsupported_operations(fn, match):
    x = np.ones(3, np.int32)
    with pytest.raises(TypeError, match=match):
        fuse.jit(fn)(x, x)


def test_augmented_assignment_to_an_array_argument_is_refused():
    # numpy's `p -= lr * g` changes the caller's array; fuse's rebound a new
    # Tensor, and the caller's array silently stayed as it was.
    p, g = np.ones(4, np.float32), np.ones(4, np.float32)

    def sgd(p, g, lr):
        p -= lr * g
        return p

    with pytest.raises(TypeError, match=r"^fuse: -= on argument 'p' of sgd: numpy changes the "
                       r"caller's array in place, .* write p = p - \.\.\. and return it"):
        fuse.jit(sgd)(p, g, 0.1)
    assert_same(p, np.ones(4, np.float32))

    def mask(m):
        m &= m
        return m

    with pytest.raises(TypeError, match=r"^fuse: &= on argument 'm' of mask"):
        fuse.jit(mask)(np.ones(3, bool))

    # On a value the function computed, or a Python scalar argument (which
    # no caller sees change), it is `x = x op y`, as in numpy.
    def step(p, g, lr):
        q = p * 1
        q -= lr * g
        q *= 2
        q /= 4
        q **= 2
        q += 1
        lr *= 2
        return q * lr

    expected = ((((p * 1 - np.float32(0.1) * g) * 2) / 4) ** 2 + 1) * np.float32(0.2)
    np.testing.assert_allclose(fuse.jit(step)(p, g, 0.1), expected, rtol=1e-6)


def test_an_array_argument_unpacked_names_static_argnames():
    # PyTorch's optimizers take betas=(0.9, 0.999) and unpack it: passed, a
    # tuple of numbers is an array argument, and the error said nothing of it.
    def adam(p, g, betas=(0.9, 0.999)):
        b1, b2 = betas
        return p * b1 + g * b2

    p = np.ones(3, np.float32)
    with pytest.raises(TypeError, match=r"cannot be iterated: .* \(argument 'betas' of adam "
                       r"is an array; if you passed a tuple or list of numbers, it is read as "
                       r"numpy's array of it: to unpack one, name it in "
                       r"fuse\.jit\(static_argnames=\.\.\.\)"):
        fuse.jit(adam)(p, p, betas=(0.8, 0.99))
    # Indexing an array argument is no tuple unpacked: the hint is to index
    # before the call (static_argnames cannot take an array).
    with pytest.raises(TypeError, match=r"^fuse: a traced Tensor cannot be indexed: .* index "
                                        r"the array before the call \(f\(x\[:, 0\]\)\)"):
        fuse.jit(lambda x: x[:, 0] + 1)(np.ones((3, 2), np.float32))
    got = fuse.jit(adam, static_argnames=("betas",))(p, p, betas=(0.5, 0.25))
    assert_same(got, p * np.float32(0.5) + p * np.float32(0.25))


def test_an_array_argument_indexed_names_static_argnames():
    # betas[0] said only "index the array before the call", naming neither
    # betas nor static_argnames, which the unpacking above names.
    def adam(p, betas):
        return p * betas[0]

    p = np.ones(3, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: a traced Tensor cannot be indexed: .* pass "
                       r"the part as an argument \(argument 'betas' of adam is an array; if you "
                       r"passed a tuple or list of numbers, it is read as numpy's array of it: "
                       r"to index one, name it in fuse\.jit\(static_argnames=\.\.\.\), which "
                       r"makes it a constant of the trace\)$"):
        fuse.jit(adam)(p, (0.9, 0.999))
    assert_same(fuse.jit(adam, static_argnames="betas")(p, (0.5, 0.25)), p * np.float32(0.5))


@pytest.mark.parametrize("fn", [lambda x: x.max(-1)[0], lambda x: x.min(axis=0)[1],
                                lambda x: fuse.reduce_max(x, -1, keepdims=True)[..., 0],
                                lambda x: (x > 0).max(-1)[0], lambda x: tuple(x.min(-1))],
                         ids=["max", "min", "reduce_max", "bool-max", "unpacked"])
def test_a_max_indexed_says_fuses_has_no_indices(fn):
    # PyTorch's x.max(dim) is (values, indices): x.max(-1)[0] said only that
    # a Tensor cannot be indexed.
    with pytest.raises(TypeError, match=r"^fuse: a traced Tensor cannot be (indexed|iterated): "
                       r".* \(fuse's max and min, as numpy's, return the values only, not "
                       r"PyTorch's \(values, indices\): x\.max\(axis\) is PyTorch's "
                       r"x\.max\(dim\)\[0\]\)$"):
        fuse.jit(fn)(np.ones((3, 4), np.float32))
    # Another Tensor's error says nothing of it.
    with pytest.raises(TypeError, match=r"pass the part as an argument$"):
        fuse.jit(lambda x: x.sum(-1)[0])(np.ones((3, 4), np.float32))


def test_a_copy_of_a_traced_tensor_is_itself():
    # copy.copy raised a KeyError from inside the trace, and copy.deepcopy's
    # result was "not a Tensor".
    import copy
    x = np.arange(3, dtype=np.float32)
    assert_same(fuse.jit(lambda x: copy.copy(x) + 1)(x), x + 1)
    assert_same(fuse.jit(lambda x: copy.deepcopy(x) * 2)(x), x * 2)


def test_bad_arguments():
    x = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="approximate must be 'none' or 'tanh'"):
        fuse.jit(lambda x: fuse.gelu(x, approximate="erf"))(x)
    with pytest.raises(ValueError, match="clamp needs min, max or both"):
        fuse.jit(lambda x: fuse.clamp(x))(x)
    with pytest.raises(ValueError, match="target must be one of cpu, cuda, auto"):
        fuse.jit(add, target="tpu")
    with pytest.raises(TypeError, match="needs at least one fuse Tensor"):
        fuse.relu(np.float32(1))


@pytest.mark.parametrize("fn,name", [
    (lambda x: x.prod(), "prod"),
    (lambda x: x.reshape(3), "reshape"),
    (lambda x: x.T, "T"),
    (lambda x: x.argmax(axis=0), "argmax"),
    (lambda x: x.flatten(), "flatten"),
])
def test_unsupported_tensor_attributes(fn, name):
    from fuse._trace import Tensor
    methods = sorted(n for n in dir(Tensor) if not n.startswith("_")
                     and callable(getattr(Tensor, n)))
    with pytest.raises(TypeError, match=rf"^fuse: Tensor\.{name} is not supported: a traced "
                                        rf"Tensor stands for an array in a program of elementwise "
                                        rf"ops and reductions, with no reshapes, transposes or "
                                        rf"indexing; "
                                        rf"it has the attributes .* and the methods "
                                        rf"{', '.join(methods[:-1])} and {methods[-1]}; use "):
        fuse.jit(fn)(np.ones(3, np.float32))


PYTORCH_METHODS = [
    (lambda x: x.pow(2), "pow", r"x \*\* y \(x \*\* 2 for x\.pow\(2\); fuse\.pow\(x, y\)\)"),
    (lambda x: x.float(), "float", r"x\.astype\(np\.float32\)"),
    (lambda x: x.half(), "half", r"x\.astype\(np\.float16\)"),
    (lambda x: x.double(), "double", r"x\.astype\(np\.float64\)"),
    (lambda x: x.to(np.float16), "to", r"x\.astype\(dtype\) for x\.to\(dtype\) \(a traced "
                                       r"Tensor has no device"),
    (lambda x: x.type_as(x), "type_as", r"x\.astype\(y\.dtype\)"),
    (lambda x: x.dim(), "dim", r"x\.ndim"),
    (lambda x: x.clamp_min(0.0), "clamp_min", r"x\.clamp\(min=v\) \(fuse\.maximum\(x, v\)\)"),
    (lambda x: x.mul(x), "mul", r"x \* y"),
    (lambda x: x.rsqrt(), "rsqrt", r"fuse\.rsqrt\(x\)"),
    (lambda x: x.contiguous(), "contiguous", r"x itself"),
]


@pytest.mark.parametrize("fn,name,alternative", PYTORCH_METHODS,
                         ids=[name for _, name, _ in PYTORCH_METHODS])
def test_pytorch_methods_name_the_alternative_first(fn, name, alternative):
    # The direct fuse or numpy spelling first, then the generic list.
    with pytest.raises(TypeError, match=rf"^fuse: Tensor\.{name} is not supported: fuse's "
                                        rf"Tensor follows numpy, not PyTorch: use "
                                        rf"{alternative}.*; a traced Tensor stands for an array "
                                        rf"in a program of elementwise ops and reductions, .* "
                                        rf"and the methods abs, all, .*; use Python's operators"):
        fuse.jit(fn)(np.ones(3, np.float32))


@pytest.mark.parametrize("fn", [lambda x: x * x.size, lambda x: x.size()], ids=["numpy", "torch"])
def test_size_is_numpys_count_and_pytorchs_method(fn):
    # numpy's x.size is the count of elements (the error read it as
    # PyTorch's x.size(i) alone).
    with pytest.raises(TypeError, match=r"^fuse: Tensor\.size is not supported: x\.size, "
                                        r"numpy's count of elements, has no value while "
                                        r"tracing \(a dynamic size is symbolic\): use x\.mean\(\) "
                                        r"for x\.sum\(\) / x\.size, or pass a count as an "
                                        r"argument; x\.shape\[i\] for PyTorch's x\.size\(i\); "):
        fuse.jit(fn)(np.ones(3, np.float32))


@pytest.mark.parametrize("fn,name,alternative", [
    (lambda x: x.exp_(), "exp_", "x.exp()"),
    (lambda x: x.add_(1.0), "add_", "x + y"),
    (lambda x: x.clamp_min_(0.0), "clamp_min_", "x.clamp(min=v) (fuse.maximum(x, v))"),
    (lambda x: x.zero_(), "zero_", None),
], ids=["exp_", "add_", "clamp_min_", "zero_"])
def test_pytorch_in_place_methods_say_to_assign(fn, name, alternative):
    assign = f": write x = {re.escape(alternative)}" if alternative else ""
    with pytest.raises(AttributeError, match=rf"^fuse: Tensor\.{name} is not supported: "
                                             rf"PyTorch's x\.{name}\(\) changes x in place, and "
                                             rf"a traced Tensor is not changed{assign}; a traced "
                                             rf"Tensor stands for an array"):
        fuse.jit(fn)(np.ones(3, np.float32))


@pytest.mark.parametrize("fn,name,alternative", [
    (lambda x: x.round(), "round", r"fuse\.rint\(x\) \(np\.rint\(x\) and np\.round\(x\) too: "
                                   r"to nearest, halves to even, as numpy's and PyTorch's\)"),
    (lambda x: x.copy(), "copy", r"x itself \(a traced Tensor is a value of the program, with "
                                 r"nothing to copy, detach or move; .*\)"),
], ids=["round", "copy"])
def test_numpy_methods_name_the_alternative_first(fn, name, alternative):
    # numpy's (and PyTorch's) x.round() and numpy's x.copy() got the generic
    # list alone, where the other methods fuse has not say what to write.
    with pytest.raises(TypeError, match=rf"^fuse: Tensor\.{name} is not supported: use "
                                        rf"{alternative}; a traced Tensor stands for an array "):
        fuse.jit(fn)(np.ones(3, np.float32))


def test_pytorch_methods_table_has_no_tensor_attribute():
    # Names that the Tensor has never reach its __getattr__.
    from fuse._trace import _ARRAY_METHODS, _PYTORCH_METHODS, Tensor
    assert not [n for n in [*_PYTORCH_METHODS, *_ARRAY_METHODS] if hasattr(Tensor, n)]


def test_unsupported_attributes_are_missing_for_hasattr():
    seen = []
    fuse.jit(lambda x: seen.append((hasattr(x, "prod"), hasattr(x, "sum"))) or x)(np.ones(2))
    assert seen == [(False, True)]


@pytest.mark.parametrize("fn,what", [
    (lambda x: np.prod(x), "numpy.prod on a traced Tensor"),
    (lambda x: np.median(x), "numpy.median on a traced Tensor"),
    (lambda x: np.reshape(x, 3), "numpy.reshape on a traced Tensor"),
    (lambda x: np.fmax(x, 1.0), "numpy.fmax on a traced Tensor"),
])
def test_unsupported_numpy_functions(fn, what):
    from fuse._trace import _NUMPY_NAMES as names
    with pytest.raises(TypeError, match=rf"^fuse: {what} at \S+:\d+:\d+ is not supported: "
                                        rf"fuse has no such op; "
                                        rf"the numpy functions it supports on Tensors are "
                                        rf"{', '.join(names[:-1])} and {names[-1]}, besides the "
                                        rf"fuse functions"):
        fuse.jit(fn)(np.ones(3, np.float32))


def test_unsupported_numpy_methods_and_options():
    x = np.ones(3, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: numpy\.add\.reduce is not supported: fuse "
                                        r"has no ufunc methods; for reductions use np\.sum"):
        fuse.jit(lambda x: np.add.reduce(x))(x)
    with pytest.raises(TypeError, match=r"^fuse: numpy\.exp with dtype= is not supported"):
        fuse.jit(lambda x: np.exp(x, dtype=np.float64))(x)


@pytest.mark.parametrize("fn", [
    lambda x: x * x.shape[0],
    lambda x: x.shape[0] * x,
    lambda x: x + float(x.shape[0]),
    lambda x: x if x.shape[0] > 2 else -x,
    lambda x: fuse.where(x > 0, x, np.float32(x.shape[0])),
], ids=["mul", "rmul", "float", "compare", "numpy"])
def test_sizes_are_symbolic(fn):
    with pytest.raises(TypeError, match=r"^fuse: x\.shape\[0\] at \S+:\d+:\d+ is a symbolic "
                                        r"size, not a number: the program traced from the "
                                        r"function is compiled once and reused for every size, "
                                        r"so a size has "
                                        r"no value while tracing; pass the size as an argument "
                                        r"instead \(f\(x, x\.shape\[0\]\) outside the "
                                        r"function: a Python int argument is a run-time value"):
        fuse.jit(fn)(np.ones(3, np.float32))


def test_a_symbolic_size_is_named_as_it_was_indexed():
    # a.shape[-1] was named a.shape[1].
    for fn, written in ((lambda a: a + a.shape[-1], r"a\.shape\[-1\]"),
                        (lambda a: a + a.shape[-2], r"a\.shape\[-2\]"),
                        (lambda a: a + a.shape[1], r"a\.shape\[1\]"),
                        (lambda a: a + (a + 1).shape[-1], r"shape\[-1\] of a traced Tensor")):
        with pytest.raises(TypeError, match=r"^fuse: " + written + r" at \S+ is a symbolic "
                                            r"size, not a number"):
            fuse.jit(fn)(np.ones((2, 3)))
    # Still a tuple, to compare and unpack.
    assert fuse.jit(lambda a: a * (a.shape == (1,)))(np.ones(1)).tolist() == [1.0]


def test_sizes_as_arguments_and_static_sizes():
    f = fuse.jit(lambda x, n: x * n)
    for size in (3, 5):
        assert_same(f(np.ones(size, np.float32), size), np.full(size, size, np.float32))
    assert f.cache_info().traces == 1
    # A size of 1 is static: it is a number.
    g = fuse.jit(lambda x: x * x.shape[0] + x.shape[0])
    assert_same(g(np.full((1, 4), 3, np.int32)), np.full((1, 4), 4, np.int32))
    with pytest.raises(TypeError, match=r"^fuse: shape\[0\] of a traced Tensor at \S+ is a "
                                        r"symbolic size"):
        fuse.jit(lambda x: x * (x + 1).shape[0])(np.ones(3, np.float32))


def test_tensor_escaping_its_trace():
    leaked = []
    f = fuse.jit(lambda x: leaked.append(x) or x + 1)
    f(np.ones(2, np.float32))
    with pytest.raises(ValueError, match="outside the trace"):
        leaked[0] + 1


def test_errors_of_numpy_functions_point_at_the_caller():
    # np.max(x) reaches fuse through numpy's own frames; the op's location
    # is the line that called np.max, here.
    def body(x):
        return np.max(x, axis=1)

    line = body.__code__.co_firstlineno + 1
    f = fuse.jit(body, target="cpu")
    with pytest.raises(fuse.FuseError) as info:
        f(np.zeros((2, 0), np.float32))
    assert f"fuse.reduce_max at {__file__}:{line}:" in str(info.value)


def test_compositions_outside_a_trace_say_so():
    for fn in (fuse.softmax, fuse.layer_norm, fuse.relu):
        with pytest.raises(TypeError, match=r"fuse: fuse\.\w+ takes fuse Tensors, not a numpy "
                                            r"array: call it inside a function that fuse\.jit "
                                            r"compiles"):
            fn(np.ones((3, 4), np.float32))


def test_mismatched_sizes_at_run_time(rng):
    f = fuse.jit(add)
    with pytest.raises(fuse.FuseError, match=r"fuse\.add at .*test_errors\.py:\d+:\d+: "
                                             r"dimension 0 of argument 'a' and dimension 0 "
                                             r"of argument 'b' must be equal"):
        f(np.ones(5, np.float32), np.ones(3, np.float32))
    # Named, as the program's input numbers are not the call's: a static
    # scale first, a string between (`argument 1` was b, then the string).
    g = fuse.jit(lambda scale, a, mode, b: (a + b) * scale, static_argnames=("scale",))
    with pytest.raises(fuse.FuseError, match=r": dimension 0 of argument 'a' and dimension 0 "
                                             r"of argument 'b' must be equal \(broadcasting "
                                             r"assumes it\); this run has 5 vs 3$"):
        g(2.0, np.ones(5, np.float32), "x", np.ones(3, np.float32))


def test_run_time_size_errors_name_each_argument_as_the_function_does():
    # The library names the program's inputs by number; each is said by its
    # parameter as written: α was 'arg0' (its MLIR name), and arg0 after it
    # 'arg1'; a member of *xs was 'xs0', or 'arg1' where a parameter had
    # that name.
    three, four = np.ones(3, np.float32), np.ones(4, np.float32)

    def f(α, arg0):
        return α - arg0

    def g(α, β):
        return α + β

    def h(xs0, *xs):
        return xs0 + xs[0]

    def k(*xs):
        return xs[0] + xs[2]

    def m(x, *, w):
        return x * w

    def n(x, **kw):
        return x + kw["β"]

    def p(arg1, α):
        # (α's MLIR name was arg1 too: not compiled.)
        return arg1 - α

    cases = [(f, (three, four), {}, "α", "arg0"),
             (p, (three, four), {}, "arg1", "α"),
             (g, (three, four), {}, "α", "β"),
             (h, (three, four), {}, "xs0", "xs[0]"),
             (k, (three, np.ones(5, np.float32), four), {}, "xs[0]", "xs[2]"),
             (m, (three,), {"w": four}, "x", "w"),
             (n, (three,), {"β": four}, "x", "β")]
    for fn, args, kwargs, first, second in cases:
        with pytest.raises(fuse.FuseError) as info:
            fuse.jit(fn, target="cpu")(*args, **kwargs)
        assert re.search(rf"^fuse: {fn.__name__}: fuse\.\w+ at .*test_errors\.py:\d+:\d+: "
                         rf"dimension 0 of argument {re.escape(repr(first))} and dimension 0 "
                         rf"of argument {re.escape(repr(second))} must be equal "
                         rf"\(broadcasting assumes it\); this run has 3 vs 4$",
                         str(info.value)), str(info.value)


def test_bad_program_text():
    text = ("func.func @f(%a: tensor<?xf32>, %b: tensor<?xf16>) -> tensor<?xf32> {\n"
            "  %0 = fuse.mul %a, %b : tensor<?xf32>, tensor<?xf16> -> tensor<?xf32>\n"
            "  return %0 : tensor<?xf32>\n"
            "}\n")
    with pytest.raises(fuse.FuseError, match=r"2:8: .*'fuse\.mul' op operand element types "
                                             r"differ: f32 vs f16; insert a fuse\.cast"):
        fuse.compile(text, target="cpu")
    with pytest.raises(fuse.FuseError, match="2:8"):
        fuse.explain(text)
    with pytest.raises(fuse.FuseError, match=r"2:34: .*expected '>'"):
        fuse.compile("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                     "  %0 = fuse.neg %a : tensor<?xf32\n"
                     "  return %0 : tensor<?xf32>\n}\n")


def test_fuse_error_is_a_runtime_error():
    assert issubclass(fuse.FuseError, RuntimeError)
    assert issubclass(fuse.LibraryNotFoundError, ImportError)


def test_exceptions_are_named_as_fuse_exports_them():
    # Tracebacks said fuse._capi.FuseError.
    for error in (fuse.FuseError, fuse.LibraryNotFoundError, fuse.FusionRemark,
                  fuse.UnsupportedAttributeError):
        assert error.__module__ == "fuse" and getattr(fuse, error.__name__) is error
    with pytest.raises(fuse.UnsupportedAttributeError):
        fuse.jit(lambda x: x.reshape(2), target="cpu").trace(np.ones(2, np.float32))


def test_library_not_found(monkeypatch, tmp_path):
    monkeypatch.setattr(_capi, "_lib", None)
    monkeypatch.setattr(_capi, "candidate_dirs", lambda: [str(tmp_path)])
    with pytest.raises(ImportError, match=r"cannot load libfuse_capi\.so; looked in:\n  "
                                          + str(tmp_path)):
        fuse.compile("func.func @f() { return }")


def test_cuda_target_without_a_gpu():
    try:
        program = fuse.compile("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                               "  %0 = fuse.neg %a : tensor<?xf32>\n"
                               "  return %0 : tensor<?xf32>\n}\n", target="auto")
    except fuse.FuseError as e:
        pytest.fail(f"auto must fall back to the CPU: {e}")
    if program.target == "cuda":
        pytest.skip("this machine has a GPU")
    assert "running on the CPU target" in program.target_note
    with pytest.raises(fuse.FuseError, match="(?i)cuda"):
        fuse.jit(add, target="cuda")(np.ones(2, np.float32), np.ones(2, np.float32))


def test_cpu_compiles_after_a_failed_cuda_compile():
    # The runtime keeps a failed CUDA start-up's error; fuse_compile clears
    # it, so that the next compile is not refused with it.
    x = np.ones(2, np.float32)
    try:
        fuse.jit(add, target="cuda")(x, x)
    except fuse.FuseError:
        pass
    assert_same(fuse.jit(lambda a, b: a - b, target="cpu")(x, x), np.zeros(2, np.float32))


def test_tracing_needs_no_library(monkeypatch, tmp_path):
    # python/README.md: importing fuse and tracing do not load the library.
    monkeypatch.setattr(_capi, "_lib", None)
    monkeypatch.setattr(_capi, "candidate_dirs", lambda: [str(tmp_path)])

    @fuse.jit
    def add_relu(a, b):
        return fuse.relu(a + b)

    x = np.ones((2, 3), np.float32)
    assert "fuse.relu" in add_relu.trace(x, x)
    with pytest.raises(ImportError, match=r"cannot load libfuse_capi\.so"):
        add_relu(x, x)


def test_wrong_argument_count_names_the_function():
    def pair(a, b):
        return a + b

    with pytest.raises(TypeError, match=r"fuse: pair\(a, b\): missing a required argument: 'b'"):
        fuse.jit(pair, target="cpu")(np.ones(2, np.float32))
    # A keyword that no parameter takes is named, as Python names it.
    with pytest.raises(TypeError, match=r"^fuse: pair\(a, b\): got an unexpected keyword "
                                        r"argument 'c'$"):
        fuse.jit(pair, target="cpu")(np.ones(2, np.float32), c=1.0)


def test_compile_takes_text_or_bytes():
    text = "func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n  return %a : tensor<?xf32>\n}\n"
    assert fuse.compile(text.encode(), target="cpu").inputs == fuse.compile(text, target="cpu").inputs
    with pytest.raises(TypeError, match=r"a program is MLIR text \(str\), not int"):
        fuse.compile(5)


@pytest.mark.parametrize("value", [-3, 2.5, "3", True])
def test_size_at_takes_whole_sizes(value):
    size = {"terms": [{"coefficient": 4, "symbols": ["N"]}], "text": "4*N"}
    assert fuse.size_at(size, {"N": np.int64(3)}) == 12
    with pytest.raises(ValueError, match=r"size_at: the size 'N' must be a whole number"):
        fuse.size_at(size, {"N": value})


def test_size_at_of_a_total_past_int64():
    """The report's totals past int64 say so, and size_at will not guess."""
    shape = "tensor<200000000000000000xf64>"
    text = (f"func.func @f(%x: {shape}) -> {shape} {{\n"
            + "".join(f"  %{i} = fuse.neg {'%x' if i == 0 else f'%{i - 1}'} : {shape}\n"
                      for i in range(4))
            + f"  return %3 : {shape}\n}}\n")
    eager = fuse.report(text)["functions"][0]["eager"]
    assert eager["bytes"] == {"text": "more than 2^63", "too_large": True}
    assert eager["bytes_read"] == 4 * 1600000000000000000
    with pytest.raises(OverflowError, match=r"size_at: the size is more than 2\^63"):
        fuse.size_at(eager["bytes"], {})


@pytest.mark.parametrize("call,error,match", [
    (lambda x: fuse.explain(None), TypeError,
     r"^fuse\.explain takes a function \(jitted or not\) or fuse MLIR text, not NoneType"),
    (lambda x: fuse.report(3), TypeError, r"^fuse\.report takes a function"),
    (lambda x: fuse.compile("func.func @f(%a: tensor<f32>) -> tensor<f32> {\n"
                            "  return %a : tensor<f32>\n}\n", entry=3), TypeError,
     r"^fuse: entry must be a function's name \(str\) or None, got int 3$"),
    (lambda x: fuse.jit(lambda a: a, static_argnames=1), TypeError,
     r"^fuse: static_argnames must be a parameter name or a sequence of them, got int 1$"),
    (lambda x: fuse.jit(lambda a: a, profile="x"), ValueError,
     r"^fuse: profile must be True or False \(or 'on', 'off'\), not 'x'$"),
    (lambda x: fuse.jit(lambda a: fuse.cast(a, None))(x), TypeError,
     r"^fuse: None is not a dtype; use one of float16, "),
    (lambda x: fuse.jit(lambda a: fuse.layer_norm(a, eps=None))(x), TypeError,
     r"^fuse: NoneType None is not a number; a scalar operand or parameter is a bool, an int "
     r"or a float$"),
    (lambda x: fuse.jit(lambda a: fuse.leaky_relu(a, "a"))(x), TypeError,
     r"^fuse: str 'a' is not a number"),
    (lambda x: fuse.compile("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                            "  %0 = fuse.neg %a : tensor<?xf32>\n"
                            "  return %0 : tensor<?xf32>\n}\n", target="cpu").run(x), TypeError,
     r"^fuse: Program\.run takes the arguments as one list or tuple, as in p\.run\(\[a, b\]\) "
     r"\(or call p\(a, b\)\), not ndarray$"),
    (lambda x: fuse.compile("func.func @f(%a: tensor<?xbf16>) -> tensor<?xf32> {\n"
                            "  %0 = fuse.cast %a : tensor<?xbf16> to tensor<?xf32>\n"
                            "  return %0 : tensor<?xf32>\n}\n", target="cpu")(x), TypeError,
     r"^fuse: argument 0 is tensor<\?xbf16>, and numpy has no bfloat16: pass a "
     r"torch\.bfloat16 tensor on the GPU, or take float32 and fuse\.cast it to bfloat16 in "
     r"the program$"),
], ids=["explain-none", "report-int", "entry-int", "static-argnames-int", "profile-str",
        "cast-none", "eps-none", "slope-str", "run-array", "bf16-argument"])
def test_bad_parameters_name_themselves(call, error, match):
    with pytest.raises(error, match=match):
        call(np.ones(3, np.float32))


def test_ptx_for_takes_a_chip_name():
    f = fuse.jit(lambda a: -a, target="cpu")
    f(np.ones(3, np.float32))
    with pytest.raises(TypeError, match=r"^fuse: chip must be a GPU architecture's name such "
                                        r"as 'sm_80', got NoneType None$"):
        f.ptx_for(None)


def test_pytorch_functions_and_tensors_in_a_trace_are_refused_saying_what_to_write(monkeypatch):
    """PyTorch calls Tensor.__torch_function__ for its functions given a
    traced Tensor (F.gelu(x), torch.exp(x)); its own error was "must be
    Tensor, not Tensor". A torch tensor captured from outside is named as
    one. (torch is not needed: the functions stand in for PyTorch's, as the
    fake module of gpu_fakes stands in for torch.)"""
    from gpu_fakes import fake_torch

    def torch_function(module, name):
        def function(*args, **kwargs):
            raise AssertionError("not called")
        function.__module__, function.__name__ = module, name
        return function

    def calling(func):
        return fuse.jit(lambda x: fuse.Tensor.__torch_function__(func, (), (x,), {}))

    x = np.ones(3, np.float32)
    for module, name, said in [("torch._C._nn", "gelu", "torch.nn.functional.gelu"),
                               ("torch", "exp", "torch.exp"),
                               ("torch._C._VariableFunctions", "erf", "torch.erf")]:
        with pytest.raises(TypeError, match=rf"^fuse: {re.escape(said)} on a traced Tensor is "
                           rf"not supported: a traced Tensor is fuse's, not PyTorch's, and "
                           rf"PyTorch's functions do not take it; use fuse\.{name}"):
            calling(torch_function(module, name))(x)
    # A PyTorch method fuse writes another way, and one it has not.
    with pytest.raises(TypeError, match=r"PyTorch's functions do not take it; use "
                       r"fuse\.softmax\(x, axis\)$"):
        calling(torch_function("torch", "softmax"))(x)
    with pytest.raises(TypeError, match=r"do not take it; fuse has no such op; the numpy "
                       r"functions it supports"):
        calling(torch_function("torch", "cumsum"))(x)
    # Reductions and tests fuse has as numpy's (they said "no such op"),
    # and torch.special's functions, which PyTorch names special_erf.
    for module, name, said, instead in [
            ("torch", "sum", "torch.sum", "x.sum(axis) (PyTorch's dim is numpy's axis)"),
            ("torch", "max", "torch.max", "x.max(axis) (fuse.maximum(x, y) for two Tensors)"),
            ("torch", "var", "torch.var", "x.var(axis, ddof=1) (PyTorch's var is unbiased by "
                                          "default, numpy's and fuse's take ddof=0)"),
            ("torch", "isnan", "torch.isnan", "np.isnan(x)"),
            ("torch._C._special", "special_erf", "torch.special.erf", "fuse.erf(x)")]:
        with pytest.raises(TypeError, match=rf"^fuse: {re.escape(said)} on a traced Tensor is "
                           rf"not supported: .* do not take it; use {re.escape(instead)}$"):
            calling(torch_function(module, name))(x)

    torch = fake_torch(current_stream=0)
    monkeypatch.setitem(sys.modules, "torch", torch)
    captured = torch.Tensor(np.ones(3, np.float32))
    with pytest.raises(TypeError, match=r"^fuse: \* at .*test_errors\.py:\d+:\d+: a PyTorch "
                       r"tensor of shape \(3,\) inside a traced function; pass tensors as "
                       r"arguments of the jitted function$"):
        fuse.jit(lambda x: x * captured)(x)
    mul = torch_function("torch", "mul")  # torch.mul(x, captured)
    with pytest.raises(TypeError, match=r"^fuse: a PyTorch tensor inside a traced function; "
                       r"pass tensors as arguments of the jitted function$"):
        fuse.jit(lambda x: fuse.Tensor.__torch_function__(mul, (), (x, captured), {}))(x)


def test_a_bfloat16_or_grad_torch_tensor_on_the_cpu_is_refused_in_fuses_words(monkeypatch):
    """A CPU tensor is read through numpy (torch's .numpy()): torch's own
    errors for bfloat16 and for a tensor that requires grad named .numpy(),
    which the caller did not call."""
    from gpu_fakes import fake_torch

    torch = fake_torch(current_stream=0)
    monkeypatch.setitem(sys.modules, "torch", torch)
    f = fuse.jit(lambda a: a + 1)
    half = torch.Tensor(np.zeros(3, np.float32), dtype=torch.bfloat16)
    half.is_cuda = False
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' is a torch\.bfloat16 tensor on "
                       r"the CPU, and fuse reads host arrays through numpy, which has no "
                       r"bfloat16: pass x\.float\(\) and fuse\.cast it to bfloat16 in the "
                       r"program, or a tensor on the GPU$"):
        f(half)
    grad = torch.Tensor(np.zeros(3, np.float32), requires_grad=True)
    grad.is_cuda = False
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' is a torch\.Tensor that requires "
                       r"grad; fuse does not record gradients: pass x\.detach\(\)$"):
        f(grad)


def test_a_torch_tensor_on_the_cpu_is_refused_in_torchs_terms(monkeypatch):
    """A dtype fuse has not said to convert with numpy's .astype(...), and a
    rank past numpy's own limit was numpy's "not an array" (numpy 1.x reads
    at most rank 32); the arguments were named by position."""
    from gpu_fakes import fake_torch

    torch = fake_torch(current_stream=0)
    monkeypatch.setitem(sys.modules, "torch", torch)
    f = fuse.jit(lambda a: a + 1)
    small = torch.Tensor(np.zeros(3, np.int8))
    small.is_cuda = False
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' has dtype torch\.int8, which fuse "
                       r"does not support; supported dtypes are float16, float32, float64, "
                       r"int32, int64 and bool \(convert with \.to\(\.\.\.\)\)$"):
        f(small)
    deep = torch.Tensor(np.zeros(3, np.float32))
    deep.is_cuda, deep.shape = False, (1,) * 33
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' has rank 33; fuse takes at most "
                                        r"rank 32$"):
        f(deep)


def test_torch_dtypes_are_dtypes_of_astype_and_cast(monkeypatch):
    # fuse reads torch tensors' dtypes, and x.astype(torch.float16) said
    # "torch.float16 is not a dtype".
    from gpu_fakes import fake_torch

    torch = fake_torch(current_stream=0)
    monkeypatch.setitem(sys.modules, "torch", torch)
    x = np.arange(4, dtype=np.float32) / 3
    assert_same(fuse.jit(lambda x: x.astype(torch.float16))(x), x.astype(np.float16))
    assert_same(fuse.jit(lambda x: fuse.cast(x, torch.bool))(x), x.astype(bool))
    with pytest.raises(TypeError, match=r"^fuse: torch\.int8 is not a fuse dtype; fuse's dtypes "
                                        r"are float16, bfloat16, float32, float64, int32, int64 "
                                        r"and bool$"):
        fuse.jit(lambda x: x.astype(torch.int8))(x)
    # Inside the trace x.dtype is numpy's, which a branch compares with.
    seen = []
    fuse.jit(lambda x: seen.append(x.dtype == np.float32) or x)(x)
    assert seen == [True]


def test_a_captured_numpy_array_is_named_where_it_is_used():
    # A global numpy weight given to a norm failed in the norm's own `*`,
    # naming an op the user did not write, with no place.
    x = np.ones((2, 4), np.float32)
    weight = np.ones(4, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: fuse\.layer_norm at .*test_errors\.py:\d+:\d+: "
                       r"weight is a numpy array of shape \(4,\) inside a traced function "
                       r"\(a global, a closure's or an attribute's\); pass it as an argument "
                       r"of the jitted function, where it is a Tensor$"):
        fuse.jit(lambda a: fuse.layer_norm(a, weight))(x)
    with pytest.raises(TypeError, match=r"^fuse: fuse\.rms_norm at .*: weight is a numpy array"):
        fuse.jit(lambda a: fuse.rms_norm(a, weight))(x)
    with pytest.raises(TypeError, match=r"^fuse: \* at .*test_errors\.py:\d+:\d+: a numpy array "
                       r"of shape \(4,\) inside a traced function"):
        fuse.jit(lambda a: a * weight)(x)
    # As an argument it is a Tensor.
    got = fuse.jit(lambda a, w: fuse.layer_norm(a, w))(x, weight)
    np.testing.assert_array_equal(got, np.zeros((2, 4), np.float32))


def test_program_text_with_a_nul_character():
    # The library reads C strings: the text after a NUL was dropped without
    # a word (a valid program followed by garbage compiled).
    text = ("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
            "  %0 = fuse.neg %a : tensor<?xf32>\n"
            "  return %0 : tensor<?xf32>\n}\n")
    message = r"^fuse: the program text has a NUL character at line 6, column 2;"
    for call in (fuse.compile, fuse.explain, fuse.report):
        with pytest.raises(ValueError, match=message):
            call(text + "\n \x00 not MLIR {{{")
    with pytest.raises(ValueError, match=r"at line 1, column 1;"):
        fuse.compile("\x00" + text)


# Errors that a newcomer met: each says what is wrong, at which line of the
# caller's code, and what to write instead.
_HERE = r"at \S+test_errors\.py:\d+:\d+"


@pytest.mark.parametrize("fn", [
    lambda x: (x > 1) and (x < 4),
    lambda x: 1 < x < 4,
    lambda x: (x < 1) or (x > 4),
    lambda x: x if not (x > 1) else -x,
], ids=["and", "chained", "or", "not"])
def test_a_mask_in_and_or_says_to_combine_with_ampersand(fn):
    # A mask's truth value (__bool__) gave the generic message of `if`.
    with pytest.raises(TypeError, match=rf"^fuse: a traced Tensor has no value, so it cannot "
                                        rf"decide an `if`, `and`/`or` or `while` {_HERE}; it "
                                        rf"is a bool Tensor \(a mask\): to combine masks use "
                                        rf"`&`, `\|` and `~` with parentheses, `\(x > 1\) & "
                                        rf"\(x < 4\)`, not `and`, `or` and `not`; a chained "
                                        rf"comparison `1 < x < 4` is `\(1 < x\) & \(x < 4\)`; "
                                        rf"and use fuse\.where\(cond, a, b\) for a choice per "
                                        rf"element$"):
        fuse.jit(fn)(np.ones(3, np.float32))
    # What it says works.
    x = np.arange(6, dtype=np.float32)
    assert_same(fuse.jit(lambda x: (1 < x) & (x < 4))(x), (1 < x) & (x < 4))


@pytest.mark.parametrize("fn,what,shown,written", [
    (lambda x: x > 1 & x < 4, "&", "int 1 and a float32 Tensor",
     r"`x > 1 & x < 4` is `x > \(1 & x\) < 4`: write `\(x > 1\) & \(x < 4\)`"),
    (lambda x: x < 1 | x > 4, r"\|", "int 1 and a float32 Tensor",
     r"`x < 1 \| x > 4` is `x < \(1 \| x\) > 4`: write `\(x < 1\) \| \(x > 4\)`"),
    (lambda x: (x > 1) & x < 4, "&", "a bool Tensor and a float32 Tensor",
     r"`x > 1 & x < 4` is `x > \(1 & x\) < 4`: write `\(x > 1\) & \(x < 4\)`"),
], ids=["and", "or", "mask-and-float"])
def test_bitwise_operators_next_to_comparisons_say_the_precedence(fn, what, shown, written):
    # It said "fuse has no bitwise ops on integers" of a float32 x.
    with pytest.raises(TypeError, match=rf"^fuse: {what} is supported on bool tensors \(masks\) "
                                        rf"only, and {_HERE} it has {shown}; in Python "
                                        rf"`{what}` binds tighter than comparisons, so "
                                        rf"{written}, with parentheses$"):
        fuse.jit(fn)(np.ones(3, np.float32))


def test_bitwise_operators_of_integers_and_not():
    with pytest.raises(TypeError, match=rf"^fuse: ~ is supported on bool tensors \(masks\) "
                                        rf"only, and {_HERE} it has a float32 Tensor; in Python "
                                        rf"`~` binds tighter than comparisons, so `~x > 1` is "
                                        rf"`\(~x\) > 1`: write `~\(x > 1\)`$"):
        fuse.jit(lambda x: ~x > 1)(np.ones(3, np.float32))
    # Integer arrays: bitwise ops, which fuse has not (no word of precedence).
    i = np.arange(3, dtype=np.int32)
    with pytest.raises(TypeError, match=rf"^fuse: & is supported on bool tensors \(masks\) "
                                        rf"only, and {_HERE} it has an int32 Tensor and an "
                                        rf"int32 Tensor \(fuse has no bitwise ops on "
                                        rf"integers\)$"):
        fuse.jit(lambda a, b: a & b)(i, i)


@pytest.mark.parametrize("fn", [lambda x: math.exp(x), lambda x: math.sqrt(x),
                                lambda x: float(x), lambda x: math.floor(x)],
                         ids=["exp", "sqrt", "float", "floor"])
def test_math_functions_of_a_tensor_say_to_use_numpys(fn):
    with pytest.raises(TypeError, match=rf"^fuse: a traced Tensor has no value, so it cannot be "
                                        rf"converted to a Python number \(float\(x\), or a "
                                        rf"`math` function: math\.exp\(x\)\) {_HERE}; `math` "
                                        rf"functions take Python numbers: use np\.exp\(x\) or "
                                        rf"fuse\.exp\(x\) on arrays, and x\.astype\(np\.float64\) "
                                        rf"to convert$"):
        fuse.jit(fn)(np.ones(3, np.float32))
    with pytest.raises(TypeError, match=rf"^fuse: a traced Tensor has no value, so it cannot be "
                                        rf"converted to a Python int \(int\(x\), range\(x\), an "
                                        rf"index\) {_HERE}; use x\.astype\(np\.int64\) to "
                                        rf"convert, and fuse ops on it$"):
        fuse.jit(lambda x: int(x))(np.ones(3, np.float32))


@pytest.mark.parametrize("fn,written", [
    (lambda x: x + np.ones(x.shape[-1]), r"x\.shape\[-1\]"),
    (lambda x: x + np.zeros(x.shape), r"x\.shape\[0\]"),
    (lambda x: x + np.full(x.shape[0], 2.0), r"x\.shape\[0\]"),
    (lambda x: x + np.empty(x.shape[0]), r"x\.shape\[0\]"),
    (lambda x: [x for _ in range(x.shape[0])][0], r"x\.shape\[0\]"),
], ids=["ones", "zeros", "full", "empty", "range"])
def test_an_array_of_a_symbolic_size_says_what_works(fn, written):
    # np.ones(x.shape[-1]) raised numpy's own TypeError ("expected a
    # sequence of integers or a single integer, got '<fuse.SymbolicSize
    # x.shape[-1]>'"), which replaces the one of the size's __index__.
    with pytest.raises(TypeError, match=rf"^fuse: {written} {_HERE} is a symbolic size, not a "
                                        rf"number: the program traced from the function is "
                                        rf"compiled once and reused for every size, .*, or let "
                                        rf"broadcasting stretch a size of 1; an array of a size "
                                        rf"\(np\.zeros\(x\.shape\), np\.ones\(x\.shape\[-1\]\)\) "
                                        rf"cannot be made either: write a Python number, which "
                                        rf"broadcasts \(x \+ 1\.0 for x \+ "
                                        rf"np\.ones\(x\.shape\[-1\]\)\), or x \* 0 for zeros of "
                                        rf"x's shape and dtype \(x \* 0 \+ 1 for ones; NaN where "
                                        rf"x is NaN or inf\)$"):
        fuse.jit(fn)(np.ones(3, np.float32))
    # numpy's TypeErrors of other objects are left as they are.
    with pytest.raises(TypeError, match=r"^expected a sequence of integers"):
        fuse.jit(lambda x: x + np.ones(object()))(np.ones(3, np.float32))


@pytest.mark.parametrize("fn,name,instead", [
    (lambda x: np.zeros_like(x), "zeros_like",
     r"x \* 0, zeros of x's shape and dtype \(NaN where x is NaN or inf\), or a Python 0\.0, "
     r"which broadcasts"),
    (lambda x: np.ones_like(x), "ones_like",
     r"x \* 0 \+ 1, ones of x's shape and dtype \(NaN where x is NaN or inf\), or a Python "
     r"1\.0, which broadcasts"),
    (lambda x: np.full_like(x, 2.0), "full_like", r"x \* 0 \+ v, v in x's shape and dtype"),
    (lambda x: np.tan(x), "tan", r"np\.sin\(x\) / np\.cos\(x\)"),
    (lambda x: np.log2(x), "log2", r"np\.log\(x\) / np\.log\(2\)"),
    (lambda x: np.copy(x), "copy", r"x itself"),
], ids=["zeros_like", "ones_like", "full_like", "tan", "log2", "copy"])
def test_unsupported_numpy_functions_name_an_alternative(fn, name, instead):
    # The list of ~60 functions came alone; it still follows.
    from fuse._trace import _NUMPY_NAMES as names
    with pytest.raises(TypeError, match=rf"^fuse: numpy\.{name} on a traced Tensor {_HERE} is "
                                        rf"not supported: use {instead}.*; fuse has no such op; "
                                        rf"the numpy functions it supports on Tensors are "
                                        rf"{', '.join(names[:-1])} and {names[-1]}, besides"):
        fuse.jit(fn)(np.ones(3, np.float32))
    # What they say works.
    x = np.linspace(0.5, 1.5, 7, dtype=np.float32)
    tan, log2, ones = fuse.jit(lambda x: (np.sin(x) / np.cos(x), np.log(x) / np.log(2),
                                          x * 0 + 1))(x)
    np.testing.assert_allclose(tan, np.tan(x), rtol=1e-5)
    np.testing.assert_allclose(log2, np.log2(x), rtol=1e-5)
    assert_same(ones, np.ones_like(x))


def test_out_errors_of_a_program_have_no_function_name():
    # A jitted function's (test_jit.test_out_is_checked) start with its name.
    p = fuse.compile("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                     "  %0 = fuse.add %a, %a : tensor<?xf32>\n"
                     "  return %0 : tensor<?xf32>\n}", target="cpu")
    x = np.ones(3, np.float32)
    with pytest.raises(TypeError, match=r"^fuse: out= for result 0 is float64; the result is "
                                        r"float32: pass an array of float32$"):
        p(x, out=np.empty(3, np.float64))
    with pytest.raises(TypeError, match=r"^fuse: out= is a list of numbers, not an array: out= "
                                        r"is a numpy array that the result is written into, or a "
                                        r"tuple of them \(one per result; None for a result "
                                        r"returned new\): make it with np\.empty\(shape, "
                                        r"dtype\)$"):
        p(x, out=[0, 0, 0])
