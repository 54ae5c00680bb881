"""Element types: fuse's names, numpy's, and the promotion rules.

fuse's element types are f16, bf16, f32, f64, i32, i64 and i1 (bool). Its
ops take operands of one element type; the tracer inserts `fuse.cast` where
a Python program mixes them, following PyTorch's promotion rules (which
agree with numpy's for the cases where numpy does not look at values).
"""

import numpy as np

# fuse name -> (C API enum value, numpy dtype or None, category).
# Categories order the kinds: bool < integer < float.
BOOL, INT, FLOAT = 0, 1, 2

_INFO = {
    "f16": (0, np.dtype(np.float16), FLOAT),
    "bf16": (1, None, FLOAT),
    "f32": (2, np.dtype(np.float32), FLOAT),
    "f64": (3, np.dtype(np.float64), FLOAT),
    "i32": (4, np.dtype(np.int32), INT),
    "i64": (5, np.dtype(np.int64), INT),
    "i1": (6, np.dtype(np.bool_), BOOL),
}



def listing(names):
    """'a, b and c'."""
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# The MLIR element type of each fuse name (the same spelling).
ALL = tuple(_INFO)
# The dtypes as Python spells them: all of fuse's, and those numpy has.
SUPPORTED = listing("bfloat16" if info[1] is None else info[1].name for info in _INFO.values())
SUPPORTED_NUMPY = listing(info[1].name for info in _INFO.values() if info[1] is not None)
BF16_NOTE = ("bfloat16 is a fuse element type, but numpy has no bfloat16 "
             "dtype, so it can only be used inside a traced function "
             "(fuse.cast(x, 'bfloat16')) and for torch.Tensors on the GPU, not for "
             "numpy arguments or results")

_BY_ENUM = {code: name for name, (code, _, _) in _INFO.items()}
_BY_NUMPY = {info[1]: name for name, info in _INFO.items() if info[1] is not None}
_ALIASES = {
    "float16": "f16", "half": "f16", "f16": "f16",
    "bfloat16": "bf16", "bf16": "bf16",
    "float32": "f32", "f32": "f32",
    "float64": "f64", "double": "f64", "f64": "f64",
    "int32": "i32", "i32": "i32",
    "int64": "i64", "long": "i64", "i64": "i64",
    "bool": "i1", "bool_": "i1", "i1": "i1",
}

# Names that numpy and PyTorch read as different dtypes: (numpy's, PyTorch's).
# The Python types float and int are float64 and int64 in both.
_AMBIGUOUS = {"float": ("float64", "float32"), "int": ("int64", "int32")}

# PyTorch's dtypes, by the name they print with (torch.half prints as
# torch.float16): known without importing torch.
_TORCH = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
          "int32": "i32", "int64": "i64", "bool": "i1"}


def enum_of(name):
    return _INFO[name][0]


def from_enum(code):
    return _BY_ENUM[code]


def check_codes(spellings):
    """Raises RuntimeError unless `spellings`, the library's element types by
    C API code (fuse_dtype_spelling, from include/fuse/Support/DTypes.def),
    are this table's: a library of another version of fuse, which _capi
    lists with the other libraries that did not load."""
    mine = [name for name, _ in sorted(_INFO.items(), key=lambda i: i[1][0])]
    if list(spellings) != mine:
        raise RuntimeError(
            f"it numbers its element types {list(spellings)}, the fuse package {mine}; "
            f"rebuild it, or use the package staged with it (build/python)")


def to_numpy(name):
    """numpy dtype of a fuse element type; TypeError for bf16."""
    dtype = _INFO[name][1]
    if dtype is None:
        raise TypeError(BF16_NOTE)
    return dtype


def public(name):
    """The dtype shown to Python: numpy's, or the string 'bfloat16' for bf16."""
    return "bfloat16" if name == "bf16" else to_numpy(name)


def category(name):
    return _INFO[name][2]


def is_float(name):
    return category(name) == FLOAT


def numpy_name(dtype):
    """fuse name of a numpy dtype (either byte order), or None."""
    dtype = np.dtype(dtype)
    return _BY_NUMPY.get(dtype if dtype.isnative else dtype.newbyteorder("="))


def from_numpy(dtype, what="array"):
    """fuse name of a numpy dtype (either byte order); TypeError naming the
    dtype otherwise."""
    dtype = np.dtype(dtype)
    name = numpy_name(dtype)
    if name is None:
        raise TypeError(f"fuse: {what} has dtype {dtype}, which fuse does not "
                        f"support; supported dtypes are {SUPPORTED_NUMPY} "
                        f"(convert with .astype(...))")
    return name


def is_torch_dtype(dtype):
    """Whether `dtype` is one of PyTorch's (torch.float16), without
    importing torch."""
    kind = type(dtype)
    return kind.__module__.split(".")[0] == "torch" and kind.__name__ == "dtype"


def from_torch(dtype):
    """fuse name of a PyTorch dtype (torch.float16), or None."""
    return _TORCH.get(str(dtype).removeprefix("torch."))


def parse(dtype):
    """fuse name of a user's dtype: a numpy dtype or type, a Python type
    (float -> float64, int -> int64, bool), a PyTorch dtype (torch.float16),
    or a string such as 'float32', 'f32' or 'bfloat16'."""
    if isinstance(dtype, str):
        key = dtype.strip().lower()
        if key in _ALIASES:
            return _ALIASES[key]
        if key in _AMBIGUOUS:
            # 'float' was float32 here, as torch.float is, and numpy's
            # x.astype("float") is float64; 'int' was int64, numpy's, and
            # torch.int is int32.
            numpy, torch = _AMBIGUOUS[key]
            narrow, wide = sorted((numpy, torch))
            raise TypeError(f"fuse: {key!r} is {numpy} to numpy and {torch} to PyTorch "
                            f"(torch.{key}): write {narrow!r} or {wide!r}")
    if dtype is None:
        # np.dtype(None) is float64: a missing dtype is not one.
        raise TypeError(f"fuse: None is not a dtype; use one of {SUPPORTED}")
    if is_torch_dtype(dtype):
        shown, name = dtype, from_torch(dtype)
    else:
        try:
            shown = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"fuse: {dtype!r} is not a dtype; use one of {SUPPORTED}") from None
        name = _BY_NUMPY.get(shown if shown.isnative else shown.newbyteorder("="))
    if name is None:
        raise TypeError(f"fuse: {shown} is not a fuse dtype; fuse's dtypes are {SUPPORTED}")
    return name


def promote(a, b):
    """PyTorch's promote_types on fuse names."""
    if a == b:
        return a
    ca, cb = category(a), category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == FLOAT:
        if {a, b} == {"f16", "bf16"}:
            return "f32"
        order = ["f16", "bf16", "f32", "f64"]
        return max(a, b, key=order.index)
    order = ["i1", "i32", "i64"]
    return max(a, b, key=order.index)


def _combine(higher, lower):
    # PyTorch's combine_categories: a higher tier's dtype wins unless a lower
    # tier has a higher category.
    if higher is None:
        return lower
    if lower is None:
        return higher
    if category(higher) == FLOAT:
        return higher
    if higher == "i1" or category(lower) == FLOAT:
        return promote(higher, lower)
    return higher


# By category: the dtype a Python scalar stands for when it meets tensors
# (PyTorch's wrapped numbers), and the dtype that holds its value exactly.
_WRAPPED = {BOOL: "i1", INT: "i64", FLOAT: "f32"}
_CARRIER = {BOOL: "i1", INT: "i64", FLOAT: "f64"}


def scalar_dtype(value):
    """The dtype a Python scalar stands for when it meets tensors
    (PyTorch's wrapped numbers: float -> f32, int -> i64, bool -> i1)."""
    if isinstance(value, (bool, np.bool_)):
        return "i1"
    if isinstance(value, (int, np.integer)):
        return "i64"
    if isinstance(value, (float, np.floating)):
        return "f32"
    raise TypeError(f"fuse: {type(value).__name__} {value!r} is not a number")


def carrier(value):
    """The dtype that holds a Python scalar's value (a Python float is a
    float64): f64, i64 or i1."""
    return _CARRIER[category(scalar_dtype(value))]


def _weak_dtype(op):
    """The wrapped-number dtype of a weak operand: a Python scalar, or a
    Tensor made from Python scalars alone (op.weak)."""
    if hasattr(op, "dtype_name"):
        return _WRAPPED[category(op.dtype_name)]
    return scalar_dtype(op)


def result_type(operands):
    """The common dtype of `operands`: Tensors (ranked ones first, then 0-d
    ones), then weak operands (Python scalars, and Tensors made from them
    alone), as torch.result_type computes it for wrapped numbers."""
    dim = zero = wrapped = None
    for op in operands:
        if op is None:
            continue
        if hasattr(op, "dtype_name") and not op.weak:
            if op.rank > 0:
                dim = op.dtype_name if dim is None else promote(dim, op.dtype_name)
            else:
                zero = op.dtype_name if zero is None else promote(zero, op.dtype_name)
        else:
            s = _weak_dtype(op)
            wrapped = s if wrapped is None else promote(wrapped, s)
    return _combine(dim, _combine(zero, wrapped))


def weak_carrier(operands):
    """For operands that are all weak: the dtype that holds their values
    (the widest carrier: f64, i64 or i1), in which an op on them alone
    computes, as Python would."""
    return _CARRIER[max(category(_weak_dtype(op)) for op in operands if op is not None)]
