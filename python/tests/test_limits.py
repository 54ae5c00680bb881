"""Limits shared with the C API and fuse-run: the highest rank that compiles
and runs (FUSE_MAX_RANK in include/fuse-c/Fuse.h, numpy 1.x's 32), and how the
function to run is chosen and named."""

import ctypes

import numpy as np
import pytest

import fuse
from fuse import _capi, _dtypes
from conftest import assert_same


def _tensor(rank):
    """A rank-`rank` type whose last two sizes are 2 and `?`."""
    return "tensor<" + "1x" * (rank - 2) + "2x?xf32>"


def _add(rank):
    t = _tensor(rank)
    return (f"func.func @add(%a: {t}, %b: {t}) -> {t} {{\n"
            f"  %0 = fuse.add %a, %b : {t}\n"
            f"  return %0 : {t}\n}}\n")


class _GpuArray:
    """An array in GPU memory as far as fuse can tell (never read: the rank
    is refused first)."""

    def __init__(self, shape):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": "<f4",
                                         "data": (0x10000, False), "version": 2}


def test_max_rank_is_the_libraries():
    assert _capi.MAX_RANK == _capi.lib().fuse_max_rank() == 32
    # The C struct has room for that many sizes.
    assert len(_capi.Array().shape) == 32


def test_rank_32_runs():
    shape = (1,) * 30 + (2, 3)
    a = np.arange(6, dtype=np.float32).reshape(shape)
    b = np.full(shape, 0.5, np.float32)
    (c,) = fuse.compile(_add(32), target="cpu")(a, b)
    assert_same(c, a + b)
    assert_same(fuse.jit(lambda x, y: x * y, target="cpu")(a, b), a * b)


def test_brackets_nested_past_the_limit_are_refused_before_parsing():
    # MLIR's parser recurses at each level of brackets; 20000 levels of `[`
    # overflowed its stack (a segmentation fault of the interpreter). The
    # library refuses the text at the 257th level; 255 levels parse.
    def nested(depth):
        return ("func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> attributes {x = "
                + "[" * depth + "]" * depth + "} {\n  return %a : tensor<2xf32>\n}\n")
    with pytest.raises(fuse.FuseError) as refused:
        fuse.compile(nested(20000), target="cpu")
    lines = str(refused.value).split("\n")
    assert lines[0] == ("<program>:1:321: error: brackets nested more than 256 levels deep "
                        "('[', '{', '(' and '<'): MLIR's parser recurses at each level, and a "
                        "deeper text could overflow its stack; a fuse program nests a few")
    # The 40 KB line is not echoed (it was, whole, with a caret).
    assert len(lines) == 1
    # Parsed, and refused for its attribute by the program's check.
    with pytest.raises(fuse.FuseError, match=r"@f has the attribute 'x'"):
        fuse.compile(nested(255), target="cpu")


def test_rank_limit():
    # numpy 1.x has no rank-33 arrays: a program and a GPU array have that
    # rank.
    with pytest.raises(fuse.FuseError, match=r"^<program>:1:16: error: @add argument 0 has rank 33; "
                                             r"fuse compiles tensors of rank 32 at most"):
        fuse.compile(_add(33), target="cpu")
    with pytest.raises(TypeError, match=r"^fuse: argument 'x' has rank 33; fuse takes at most "
                                        r"rank 32$"):
        fuse.jit(lambda x: -x, target="cpu")(_GpuArray((1,) * 33))


def test_result_bytes_limit():
    # An empty operand allows any kept sizes: 2^60 x 2 sums of f16 are 2^62
    # bytes, and their f32 accumulator 2^63, more than 2^63 - 1. A 0
    # among the result's sizes makes it empty.
    sums = fuse.jit(lambda x: x.sum(axis=2), target="cpu")
    with pytest.raises(fuse.FuseError, match=r"fuse.reduce_sum at .*: its result, of type "
                                             r"tensor<\?x\?xf16>, accumulated in f32, would "
                                             r"have more than 2\^63 - 1 bytes"):
        sums(np.empty((2**60, 2, 0), np.float16))
    empty = sums(np.empty((2**61, 0, 0), np.float16))
    assert empty.shape == (2**61, 0) and empty.dtype == np.float16


def test_c_api_refuses_a_rank_above_the_limit():
    program = fuse.compile(_add(2), target="cpu")
    lib = _capi.lib()
    inputs = (_capi.Array * 2)()
    for array in inputs:
        array.dtype, array.rank = 2, 33  # FUSE_F32
    results = (_capi.Array * 1)()
    error = ctypes.c_void_p()
    assert lib.fuse_run(program._handle.value, inputs, 2, results, ctypes.byref(error)) != 0
    assert _capi.take_string(error.value) == ("input 0 has rank 33; fuse runs arrays of "
                                              "rank 0 to 32")


_SEVERAL = """
func.func @first(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
func.func @second(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.abs %a : tensor<?xf32>
  return %0 : tensor<?xf32>
}
"""


def test_entry_error_names_the_python_parameter():
    with pytest.raises(fuse.FuseError) as error:
        fuse.compile(_SEVERAL, target="cpu")
    assert str(error.value) == ("the program has several functions (@first, @second); "
                                "choose one with entry=")
    with pytest.raises(fuse.FuseError, match=r"^no function @third with a body in the "
                                             r"program \(it has @first, @second\)$"):
        fuse.compile(_SEVERAL, entry="third", target="cpu")


@pytest.mark.parametrize("entry", ["second", "@second"])
def test_entry_with_or_without_at(entry):
    x = np.array([-1.5, 2.0], np.float32)
    (y,) = fuse.compile(_SEVERAL, entry=entry, target="cpu")(x)
    assert_same(y, np.abs(x))


def test_element_types_are_the_libraries():
    # The library numbers its element types by include/fuse/Support/DTypes.def
    # (fuse_dtype_spelling); the package's table is checked against it when
    # the library loads, and a different order is an error that says so.
    lib = _capi.lib()
    spellings = []
    while (code := lib.fuse_dtype_spelling(len(spellings))):
        spellings.append(code.decode())
    assert spellings == ["f16", "bf16", "f32", "f64", "i32", "i64", "i1"]
    assert lib.fuse_dtype_spelling(-1) is None
    _dtypes.check_codes(spellings)
    with pytest.raises(RuntimeError, match="it numbers its element types"):
        _dtypes.check_codes(spellings[1:] + spellings[:1])


def test_alignment_is_the_libraries():
    # The byte alignment the kernels assume (fuse_alignment, the compiler's
    # kMaxVectorAlignment): a numpy view one element in is copied to an
    # aligned array before the run, and the result is the same.
    assert _capi.ALIGNMENT == _capi.lib().fuse_alignment() == 16
    base = np.arange(9, dtype=np.float32)
    view = base[1:]
    assert view.ctypes.data % _capi.ALIGNMENT

    @fuse.jit
    def double(x):
        return x + x

    assert_same(double(view), view + view)
