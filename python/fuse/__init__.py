"""fuse: compile elementwise numpy programs (and their reductions) into fused
kernels.

    import numpy as np
    import fuse

    @fuse.jit
    def add_relu(a, b):
        return fuse.relu(a + b)

    a = np.random.rand(1000).astype(np.float32)
    b = np.random.rand(1000).astype(np.float32)
    c = add_relu(a, b)                   # a numpy array, float32
    print(add_relu.mlir)                 # the traced fuse program
    print(fuse.explain(add_relu, a, b))  # 1 kernel fused vs 2 eager

On a GPU machine the same functions take PyTorch and CuPy arrays in GPU
memory (__cuda_array_interface__, DLPack) and run on them in place, returning
arrays of the same kind (see README.md, "GPU arrays").

The package talks to the fuse library (libfuse_capi.so, include/fuse-c/Fuse.h)
through ctypes; see README.md for where it looks for it.
"""

# The one place of the version: pyproject.toml reads it from here
# (setuptools' attr:), so the installed package and the source tree agree.
__version__ = "0.1.0"

from ._capi import FuseError, FusionRemark, LibraryNotFoundError, library_path
from ._device import DeviceArray
from ._jit import CacheInfo, clear_cache, jit
from ._program import Program, TensorType, compile
from ._report import explain, report
from ._sizes import size_at
from ._trace import (
    SymbolicSize,
    Tensor,
    abs,
    add,
    cast,
    ceil,
    clamp,
    clip,
    cos,
    div,
    elu,
    erf,
    exp,
    expm1,
    floor,
    gelu,
    rint,
    round,
    trunc,
    sign,
    hardsigmoid,
    hardswish,
    layer_norm,
    leaky_relu,
    log,
    log1p,
    log_softmax,
    logsigmoid,
    maximum,
    minimum,
    mish,
    mul,
    neg,
    pow,
    reciprocal,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_sum,
    relu,
    rms_norm,
    rsqrt,
    selu,
    sigmoid,
    silu,
    sin,
    softmax,
    softplus,
    softsign,
    sqrt,
    sub,
    tanh,
    where,
    UnsupportedAttributeError,
)

__all__ = [
    "FuseError", "FusionRemark", "LibraryNotFoundError", "UnsupportedAttributeError",
    "library_path", "DeviceArray", "CacheInfo",
    "clear_cache", "jit", "Program", "TensorType", "compile", "explain", "report", "size_at",
    "SymbolicSize", "Tensor",
    "abs", "add", "cast", "ceil", "clamp", "clip", "cos", "div", "erf", "exp", "expm1",
    "floor", "rint", "round", "trunc", "sign", "gelu", "hardswish", "leaky_relu", "log", "log1p", "maximum", "minimum", "mul",
    "neg", "pow", "reciprocal", "relu", "rsqrt", "sigmoid", "silu", "sin", "sqrt", "sub", "tanh",
    "where",
    "reduce_sum", "reduce_max", "reduce_min", "reduce_mean",
    "softmax", "log_softmax", "layer_norm", "rms_norm", "softplus", "elu", "mish", "selu",
    "logsigmoid", "hardsigmoid", "softsign",
]
